"""Knockout brackets (bot/tournaments/knockout.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.knockout import bracket_order, bracket_text, next_knockout_round, seed_bracket
from bot.tournaments.model import Entrant, Pairing


def test_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@given(st.integers(2, 40), st.integers(0, 2**32))
def test_a_bracket_runs_to_one_champion(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(100 + i, float(rng.randint(1000, 2000))) for i in range(n)]
    by_seed = sorted(entrants, key=lambda e: (-e.rating, e.user_id))
    size = 1 << (n - 1).bit_length()
    ties = seed_bracket(entrants)
    assert len(ties) == size // 2
    assert sorted(p for t in ties for p in t.players) == sorted(e.user_id for e in entrants)
    byes = {t.white for t in ties if t.black is None}
    assert byes == {e.user_id for e in by_seed[: size - n]}, "byes to the top seeds"
    rounds = [ties]
    names = {e.user_id: f"player-with-a-long-name-{e.user_id}" for e in entrants}
    while True:
        winners = {rng.choice(t.players) for t in ties}
        following = next_knockout_round(entrants, ties, winners)
        if not following:
            champion = winners.pop()
            break
        assert [set(t.players) for t in following] == [
            {w for w in winners if w in a.players or w in b.players}
            for a, b in zip(ties[::2], ties[1::2], strict=True)
        ]
        seeds = {e.user_id: s for s, e in enumerate(by_seed)}
        assert all(t.black is not None and seeds[t.white] < seeds[t.black] for t in following)
        ties = following
        rounds.append(ties)
    assert len(rounds) == size.bit_length() - 1
    lines = bracket_text(rounds, names, champion=champion)
    assert all(len(line) <= 40 for line in lines)
    assert len(lines) == len(rounds) + sum(len(r) for r in rounds)


def test_top_two_seeds_meet_only_in_the_final() -> None:
    entrants = [Entrant(i, 2000.0 - i) for i in range(1, 9)]
    ties = seed_bracket(entrants)
    while len(ties) > 1:
        assert {1, 2} not in [set(t.players) for t in ties]
        ties = next_knockout_round(entrants, ties, {min(t.players) for t in ties})
    assert ties == [Pairing(3, 1, 2)]


def test_bracket_text() -> None:
    entrants = [Entrant(i, 2000.0 - i) for i in range(1, 4)]
    r1 = seed_bracket(entrants)
    assert r1 == [Pairing(1, 1, None), Pairing(1, 2, 3)]
    r2 = next_knockout_round(entrants, r1, {3})
    names = {1: "alice", 2: "bob", 3: "carol"}
    assert bracket_text([r1, r2], names, scores={(1, 2): (1, 2)}, titles=["Semi-finals", "Final"]) == [
        "Semi-finals",
        "*alice            bye",
        " bob              1-2  *carol",
        "Final",
        " alice             -    carol",
    ]

"""Swiss pairing (bot/tournaments/swiss.py): unit tests, and random tournaments checked
round by round against the pairing rules, by brute force over every pairing up to 10
players.

The first-player property guaranteed (and checked here):

- in every game the player with the lower balance (games first minus games second)
  moves first; on equal balances the one who moved second in the latest game where
  their histories differ;
- up to 10 players (where every pairing is enumerated): the number of games that take a
  player's balance to ±3 is the least of all the pairings with as few rematches, the bye
  as low in the ranking, and as small a spread of scores (the sum of squared score
  differences). So nobody goes beyond ±2 unless those rules force it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournaments.model import Entrant, GameResult, History, Pairing, withdrawn_for_timeouts
from bot.tournaments.swiss import default_swiss_rounds, pair_swiss


def entrants_of(n: int, rng: random.Random | None = None) -> list[Entrant]:
    rng = rng or random.Random(n)
    return [Entrant(100 + i, float(rng.randint(1000, 2000))) for i in range(n)]


def play(pairings: Sequence[Pairing], history: History, rng: random.Random, timeouts: float = 0.0) -> History:
    results = list(history.results)
    byes = list(history.byes)
    for p in pairings:
        if p.black is None:
            byes.append(p)
            continue
        roll = rng.random()
        winner = p.white if roll < 0.4 else p.black if roll < 0.8 else None
        reason = "timeout" if winner is not None and rng.random() < timeouts else "five_stones"
        results.append(
            GameResult(p.round, p.white, p.black, winner, rng.randint(0, 5), rng.randint(0, 5), reason)
        )
    return History(tuple(results), tuple(byes))


# -- an independent view of the history ------------------------------------------------


def score(history: History, me: int) -> int:
    half = 2 * sum(1 for b in history.byes if b.white == me)
    for g in history.results:
        if me in (g.first, g.second):
            half += 1 if g.winner is None else 2 if g.winner == me else 0
    return half


def met(history: History, a: int, b: int) -> bool:
    return any({g.first, g.second} == {a, b} for g in history.results)


def balance(history: History, me: int) -> int:
    return sum((g.first == me) - (g.second == me) for g in history.results)


def sides(history: History, me: int) -> list[bool]:
    return [
        g.first == me for g in sorted(history.results, key=lambda g: g.round) if me in (g.first, g.second)
    ]


def bye_count(history: History, me: int) -> int:
    return sum(1 for b in history.byes if b.white == me)


def matchings(players: list[int]) -> Iterator[list[tuple[int, int | None]]]:
    """Every pairing of ``players`` (a None partner: the bye, when odd)."""
    if not players:
        yield []
        return
    if len(players) % 2:
        for i, p in enumerate(players):
            rest = players[:i] + players[i + 1 :]
            for m in matchings(rest):
                yield [(p, None), *m]
        return
    first, rest = players[0], players[1:]
    for i, q in enumerate(rest):
        for m in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, q), *m]


def criteria(
    history: History, entrants: Sequence[Entrant], pairs: Sequence[tuple[int, int | None]]
) -> tuple[int, ...]:
    """(rematches, -bye position, score spread, ±3 games): lower is better."""
    active = [e for e in entrants if not e.withdrawn]
    ranking = sorted(active, key=lambda e: (-score(history, e.user_id), -e.rating, e.user_id))
    position = {e.user_id: i for i, e in enumerate(ranking)}
    rematches = spread = beyond = 0
    bye_position = 0
    for a, b in pairs:
        if b is None:
            bye_position = position[a] + 1
            continue
        rematches += met(history, a, b)
        spread += (score(history, a) - score(history, b)) ** 2
        ba, bb = balance(history, a), balance(history, b)
        beyond += (ba >= 2 and bb >= 2) or (ba <= -2 and bb <= -2)
    return (rematches, -bye_position, spread, beyond)


def check_round(
    entrants: Sequence[Entrant], history: History, pairings: Sequence[Pairing], exhaustive: bool
) -> None:
    active = sorted(e.user_id for e in entrants if not e.withdrawn)
    seen = sorted(p for pairing in pairings for p in pairing.players)
    assert seen == active, "every active player exactly once"
    byes = [p.white for p in pairings if p.black is None]
    assert len(byes) == len(active) % 2
    if byes:  # nobody gets a second bye while someone has none (fewest byes first)
        assert bye_count(history, byes[0]) == min(bye_count(history, p) for p in active)
    for p in pairings:
        if p.black is None:
            continue
        bw, bb = balance(history, p.white), balance(history, p.black)
        assert bw <= bb, "the lower balance moves first"
        if bw == bb:
            for w, b in zip(
                reversed(sides(history, p.white)), reversed(sides(history, p.black)), strict=False
            ):
                if w != b:
                    assert not w, "alternation: who moved second at the latest difference moves first"
                    break
    ours = [(p.white, p.black) for p in pairings]
    if exhaustive and active:
        fewest = min(
            criteria(history, entrants, m)
            for m in matchings(active)
            if m
            and all(
                b is not None or bye_count(history, a) == min(bye_count(history, x) for x in active)
                for a, b in m
            )
        )
        assert criteria(history, entrants, ours) == fewest
    else:
        rematches = sum(met(history, a, b) for a, b in ours if b is not None)
        if rematches:  # then no pairing of new pairs (and a fair bye) exists
            graph: nx.Graph[int] = nx.Graph()
            fewest_byes = min(bye_count(history, x) for x in active)
            for i, a in enumerate(active):
                for b in active[i + 1 :]:
                    if not met(history, a, b):
                        graph.add_edge(a, b)
                if len(active) % 2 and bye_count(history, a) == fewest_byes:
                    graph.add_edge(a, -1)
            assert 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) < len(active) + len(active) % 2


def run_tournament(n: int, rounds: int, seed: int, withdraw: float, exhaustive: bool) -> None:
    rng = random.Random(seed)
    entrants = entrants_of(n, rng)
    history = History()
    for round_no in range(1, rounds + 1):
        pairings = pair_swiss(entrants, history, round_no)
        assert all(p.round == round_no for p in pairings)
        assert pair_swiss(list(reversed(entrants)), history, round_no) == pairings, "deterministic"
        check_round(entrants, history, pairings, exhaustive)
        history = play(pairings, history, rng, timeouts=withdraw)
        entrants = [
            Entrant(e.user_id, e.rating, True)
            if e.withdrawn
            or rng.random() < withdraw / 4
            or withdrawn_for_timeouts(history.results, e.user_id)
            else e
            for e in entrants
        ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 10),
    extra_rounds=st.integers(0, 6),
    seed=st.integers(0, 2**32),
    withdraw=st.sampled_from([0.0, 0.2]),
)
def test_small_tournaments_are_optimal_by_brute_force(
    n: int, extra_rounds: int, seed: int, withdraw: float
) -> None:
    # Past log2(n) rounds too, where rematches and repeated byes become forced.
    run_tournament(n, default_swiss_rounds(n) + extra_rounds, seed, withdraw, exhaustive=True)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(11, 40),
    extra_rounds=st.integers(0, 3),
    seed=st.integers(0, 2**32),
    withdraw=st.sampled_from([0.0, 0.1]),
)
def test_larger_tournaments_keep_the_rules(n: int, extra_rounds: int, seed: int, withdraw: float) -> None:
    run_tournament(n, default_swiss_rounds(n) + extra_rounds, seed, withdraw, exhaustive=False)


def test_default_rounds() -> None:
    assert [default_swiss_rounds(n) for n in (1, 2, 3, 4, 5, 8, 9, 64, 512)] == [0, 1, 2, 2, 3, 3, 4, 6, 9]


def test_round_one_pairs_top_half_with_bottom_half_alternating_sides() -> None:
    entrants = [Entrant(i, 2000.0 - i) for i in range(1, 9)]  # seeds 1..8 are ids 1..8
    pairings = pair_swiss(entrants, History(), 1)
    assert pairings == [Pairing(1, 1, 5), Pairing(1, 6, 2), Pairing(1, 3, 7), Pairing(1, 8, 4)]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    entrants = [Entrant(i, 2000.0 - i) for i in range(1, 6)]
    first = pair_swiss(entrants, History(), 1)
    assert first[-1] == Pairing(1, 5, None)
    history = History(byes=(first[-1],))
    second = pair_swiss(entrants, history, 2)
    assert second[-1].black is None and second[-1].white != 5


def test_withdrawn_players_are_not_paired() -> None:
    entrants = [Entrant(i, 1500.0, withdrawn=i == 2) for i in range(1, 5)]
    pairings = pair_swiss(entrants, History(), 1)
    assert 2 not in {p for pairing in pairings for p in pairing.players}
    assert [p for p in pairings if p.black is None] != []


def test_tiny_fields() -> None:
    assert pair_swiss([], History(), 1) == []
    assert pair_swiss([Entrant(1, 1500.0)], History(), 1) == [Pairing(1, 1, None)]


def test_no_rematch_in_a_large_field() -> None:
    rng = random.Random(7)
    entrants = entrants_of(100, rng)
    history = History()
    for round_no in range(1, 8):
        pairings = pair_swiss(entrants, history, round_no)
        check_round(entrants, history, pairings, exhaustive=False)
        assert not any(met(history, p.white, p.black) for p in pairings if p.black is not None)
        history = play(pairings, history, rng)


@pytest.mark.parametrize("n", [16, 30])
def test_sparse_and_dense_agree_on_the_rules(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above DENSE_LIMIT the sparse graph is used: force it on small fields too."""
    import bot.tournaments.swiss as swiss

    monkeypatch.setattr(swiss, "DENSE_LIMIT", 2)
    rng = random.Random(n)
    entrants = entrants_of(n, rng)
    history = History()
    for round_no in range(1, n):  # to the end, where the sparse graph runs out
        pairings = pair_swiss(entrants, history, round_no)
        check_round(entrants, history, pairings, exhaustive=False)
        history = play(pairings, history, rng)


PHANTOM = 999  # an opponent outside the tournament, to give players a past


def past(user_id: int, moves: str, draws: bool = True) -> list[GameResult]:
    """Games of ``user_id`` against the phantom: ``W`` moved first, ``B`` second, all drawn."""
    return [
        GameResult(r, *((user_id, PHANTOM) if side == "W" else (PHANTOM, user_id)), None)
        for r, side in enumerate(moves, start=1)
    ]


def test_the_lower_balance_moves_first_even_against_alternation() -> None:
    # 1: first, first, second (balance +1, second last); 2: second, second, first (-1).
    history = History(tuple(past(1, "WWB") + past(2, "BBW")))
    entrants = [Entrant(1, 1600.0), Entrant(2, 1500.0)]
    assert pair_swiss(entrants, history, 4) == [Pairing(4, 2, 1)]


def test_equal_balances_alternate() -> None:
    history = History(tuple(past(1, "WB") + past(2, "BW")))
    assert pair_swiss([Entrant(1, 1600.0), Entrant(2, 1500.0)], history, 3) == [Pairing(3, 1, 2)]


def test_nobody_goes_beyond_two_when_another_pairing_exists() -> None:
    # 1 and 3 are at +2, 2 and 4 at +1, all on the same score; by rating the top-half
    # pairing would be 1-3 and 2-4, which takes 1 or 3 to +3.
    history = History(tuple(past(1, "WW") + past(3, "WW") + past(2, "WWB") + past(4, "WWB")))
    history = History(
        tuple(
            g if g.first != PHANTOM or g.round != 3 else GameResult(3, PHANTOM, g.second, PHANTOM)
            for g in history.results
        )
    )  # 2 and 4 lost their third game: 2 half points each, like 1 and 3
    entrants = [Entrant(i, 2000.0 - i) for i in (1, 2, 3, 4)]
    pairs = {frozenset(p.players) for p in pair_swiss(entrants, history, 4)}
    assert frozenset({1, 3}) not in pairs

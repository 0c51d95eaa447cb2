"""Round robin by Berger tables (bot/tournaments/round_robin.py)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.model import Entrant, Pairing
from bot.tournaments.round_robin import berger_round, berger_table, round_robin_rounds, round_robin_schedule


def test_six_players_give_fides_table() -> None:
    assert [berger_table(6, r) for r in range(1, 6)] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@given(st.integers(2, 40))
def test_everyone_meets_everyone_exactly_once(n: int) -> None:
    players = list(range(1, n + 1))
    schedule = round_robin_schedule(players)
    assert len(schedule) == round_robin_rounds(n)
    meetings: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    for round_no, pairings in enumerate(schedule, start=1):
        seen = [p for pairing in pairings for p in pairing.players]
        assert sorted(seen) == players, "everyone once a round"
        assert all(p.round == round_no for p in pairings)
        for pairing in pairings:
            if pairing.black is None:
                byes[pairing.white] += 1
            else:
                meetings[frozenset(pairing.players)] += 1
                firsts[pairing.white] += 1
    assert set(meetings) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(meetings.values()) == {1}
    assert byes == (Counter(players) if n % 2 else Counter())
    # Berger tables alternate sides: nobody moves first more than one game over half.
    games = n - 1
    assert all(abs(2 * firsts[p] - games) <= 2 for p in players)


def test_withdrawn_entrants_give_their_opponents_byes() -> None:
    entrants = [Entrant(i, 1500.0, withdrawn=i == 3) for i in range(1, 5)]
    pairings = berger_round(entrants, 1)  # 1-4, 2-3
    assert pairings == [Pairing(1, 1, 4), Pairing(1, 2, None)]


def test_tiny_fields() -> None:
    assert round_robin_schedule([7]) == []
    assert round_robin_schedule([7, 8]) == [[Pairing(1, 7, 8)]]

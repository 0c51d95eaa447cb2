"""Standings and their lines (bot/tournaments/standings.py), against an independent,
straightforward computation from the results."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.model import Entrant, GameResult, Pairing
from bot.tournaments.standings import format_points, standings, standings_lines


def test_a_small_event_by_hand() -> None:
    # 1 beats 2, 2 draws 3, 3 beats 1 on time; 3 had a bye.
    entrants = [Entrant(1, 1500.0), Entrant(2, 1600.0), Entrant(3, 1400.0)]
    results = [
        GameResult(1, 1, 2, 1, 3, 1),
        GameResult(2, 2, 3, None, 2, 2),
        GameResult(3, 3, 1, 3, 5, 0, "timeout"),
    ]
    rows = standings(entrants, results, [Pairing(1, 3, None)])
    assert [(r.rank, r.user_id, r.points) for r in rows] == [
        (1, 3, Fraction(5, 2)),
        (2, 1, 1),
        (3, 2, Fraction(1, 2)),
    ]
    carol = rows[0]
    # Opponents: 2 (0.5), 1 (1) and the bye (0): 1.5 after cutting the bye's 0.
    assert carol.buchholz_cut1 == Fraction(3, 2)
    # Beat 1 (1 point), drew 2 (half of 0.5).
    assert carol.sonneborn_berger == Fraction(5, 4)
    assert (carol.stones, carol.games, carol.byes) == (7, 2, 1)
    lines = standings_lines(rows, {1: "alice", 2: "bob", 3: "carol"})
    assert lines == ["1. carol 2.5 1.5 1.25 7", "2. alice   1 2.5  0.5 3", "3. bob   0.5 2.5 1.25 3"]


# -- the independent computation ---------------------------------------------------------


def naive(
    entrants: list[Entrant], results: list[GameResult], byes: list[Pairing]
) -> list[tuple[object, ...]]:
    ids = [e.user_id for e in entrants]

    def points(p: int) -> Fraction:
        total = Fraction(0)
        for g in results:
            if p in (g.first, g.second):
                total += Fraction(1, 2) if g.winner is None else (1 if g.winner == p else 0)
        return total + sum(1 for b in byes if b.white == p)

    def opponents(p: int) -> list[int]:
        return [g.second if g.first == p else g.first for g in results if p in (g.first, g.second)]

    def buchholz(p: int) -> Fraction:
        scores = [points(o) for o in opponents(p)] + [Fraction(0) for b in byes if b.white == p]
        return sum(scores, Fraction(0)) - min(scores) if scores else Fraction(0)

    def sonneborn(p: int) -> Fraction:
        total = Fraction(0)
        for g in results:
            if p in (g.first, g.second):
                other = g.second if g.first == p else g.first
                if g.winner == p:
                    total += points(other)
                elif g.winner is None:
                    total += points(other) / 2
        return total

    def stones(p: int) -> int:
        return sum(
            g.first_stones if g.first == p else g.second_stones for g in results if p in (g.first, g.second)
        )

    def direct(p: int) -> Fraction:
        tied = [
            q for q in ids if (points(q), buchholz(q), sonneborn(q)) == (points(p), buchholz(p), sonneborn(p))
        ]
        total = Fraction(0)
        for g in results:
            if p in (g.first, g.second) and (g.second if g.first == p else g.first) in tied:
                total += Fraction(1, 2) if g.winner is None else (1 if g.winner == p else 0)
        return total

    rating = {e.user_id: e.rating for e in entrants}

    def compare(a: int, b: int) -> int:
        for f in (points, buchholz, sonneborn, direct, stones, lambda p: rating[p]):
            if f(a) != f(b):
                return -1 if f(a) > f(b) else 1
        return -1 if a < b else 1

    order = sorted(ids, key=functools.cmp_to_key(compare))
    return [(p, points(p), buchholz(p), sonneborn(p), direct(p), stones(p)) for p in order]


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 14),
    games=st.integers(0, 40),
    seed=st.integers(0, 2**32),
    draws=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_standings_equal_an_independent_computation(n: int, games: int, seed: int, draws: float) -> None:
    rng = random.Random(seed)
    # Few distinct ratings and points, so that ties reach the later criteria.
    entrants = [Entrant(i, float(rng.choice([1500, 1600])), rng.random() < 0.1) for i in range(1, n + 1)]
    results: list[GameResult] = []
    byes: list[Pairing] = []
    for r in range(games if n > 1 else 0):
        a, b = rng.sample(range(1, n + 1), 2)
        winner = None if rng.random() < draws else rng.choice([a, b])
        results.append(GameResult(r // 3 + 1, a, b, winner, rng.randint(0, 2), rng.randint(0, 2)))
        if rng.random() < 0.1:
            byes.append(Pairing(r // 3 + 1, rng.randint(1, n), None))
    rows = standings(entrants, results, byes)
    ours = [(r.user_id, r.points, r.buchholz_cut1, r.sonneborn_berger, r.direct, r.stones) for r in rows]
    assert ours == naive(entrants, results, byes)
    # Shared places: one more than the players strictly ahead on every criterion.
    for row, mine in zip(rows, ours, strict=True):
        assert row.rank == 1 + sum(1 for other in ours if other[1:] > mine[1:])

    names = {e.user_id: rng.choice(["a", "alice", "x" * 60, "Ünïcødé name", "bob"]) for e in entrants}
    lines = standings_lines(rows, names, labels=("pts", "BH", "SB", "st"))
    assert all(len(line) <= 40 for line in lines)
    for row, line in zip(rows, lines[1:], strict=True):
        rank, rest = line.split(None, 1)
        assert rank == f"{row.rank}{'-' if row.withdrawn else '.'}"
        name = names[row.user_id]
        assert rest.startswith(name[:5]) or rest.startswith(name[:4] + "…") or rest.startswith(name)
        assert format_points(row.points) in rest.split()


def test_format_points() -> None:
    assert [format_points(Fraction(x)) for x in ("2", "5/2", "25/4", "0")] == ["2", "2.5", "6.25", "0"]


# -- the round robin's order and shared places ----------------------------------------


def test_a_round_robin_ranks_the_direct_encounter_before_sonneborn_berger() -> None:
    ivan, judy, x, y = 1, 2, 3, 4
    entrants = [Entrant(p, 1500.0) for p in (ivan, judy, x, y)]
    results = [
        GameResult(1, ivan, judy, ivan),
        GameResult(1, x, y, x),
        GameResult(2, ivan, x, x),
        GameResult(2, judy, y, y),
        GameResult(3, ivan, y, y),
        GameResult(3, judy, x, judy),
    ]
    swiss = standings(entrants, results)
    league = standings(entrants, results, order="round-robin")
    by_id = {r.user_id: r for r in league}
    # Tied on points (1 each) and Buchholz; judy's Sonneborn-Berger is higher, but ivan beat her.
    assert by_id[ivan].points == by_id[judy].points == 1
    assert by_id[judy].sonneborn_berger > by_id[ivan].sonneborn_berger
    assert [r.user_id for r in swiss].index(judy) < [r.user_id for r in swiss].index(ivan)
    assert [r.user_id for r in league].index(ivan) < [r.user_id for r in league].index(judy)
    assert (by_id[ivan].direct, by_id[judy].direct) == (1, 0)
    lines = standings_lines(league, {ivan: "ivan", judy: "judy", x: "x", y: "y"}, order="round-robin")
    assert lines[2].split()[:4] == ["3.", "ivan", "1", "1"]  # the second column: the direct encounter
    assert lines[3].split()[:4] == ["4.", "judy", "1", "0"]


def test_a_true_tie_shares_its_place() -> None:
    # A three-way cycle with equal stones: equal on every column, so 1, 1, 1.
    a, b, c = 1, 2, 3
    entrants = [Entrant(a, 1700.0), Entrant(b, 1600.0), Entrant(c, 1500.0)]
    results = [GameResult(1, a, b, a, 3, 3), GameResult(2, b, c, b, 3, 3), GameResult(3, c, a, c, 3, 3)]
    for order in ("swiss", "round-robin"):
        rows = standings(entrants, results, order=order)
        assert [r.rank for r in rows] == [1, 1, 1]
        lines = standings_lines(rows, {a: "a", b: "b", c: "c"}, removed={c})
        assert [line.split()[0] for line in lines] == ["1.", "1.", "1x"]
    # A fourth player below them (no points) is 4th, not 2nd.
    rows = standings([*entrants, Entrant(4, 1800.0)], results)
    assert [(r.rank, r.user_id) for r in rows] == [(1, a), (1, b), (1, c), (4, 4)]

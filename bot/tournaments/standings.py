"""Standings: points, then the tie-breaks, and their lines of text.

Points: a win 1, a draw ½, a loss 0, a bye 1 (a bye is a win; pass the byes the
format gave: Swiss and round-robin byes alike). In a Swiss (``order="swiss"``) players
tied on points are ordered by, in turn:

1. **Buchholz cut-1**: the sum of the opponents' points (their final points, byes
   included) less the lowest of them. Convention for byes: a bye counts as an opponent
   with 0 points, so it is the one cut when there is one (the FIDE "virtual opponent"
   rules are not used: they need the round a bye came in, and a bye's 0 is simple to
   check by hand). With no opponent at all the Buchholz is 0;
2. **Sonneborn-Berger**: the points of each opponent beaten, plus half the points of each
   opponent drawn (byes add nothing);
3. **direct encounter**: among the players still tied on everything above, the points
   each scored in the games between them;
4. **stones won**: all games' stones added up;
5. then seed rating (higher first) and user id, for a stable order.

In a round robin (``order="round-robin"``: everyone meets everyone, so the opponents'
points say nothing) the order is points, the **direct encounter** among the players
tied on points, **Sonneborn-Berger**, then stones won (Buchholz is computed but not used).

Places are shared: players equal on every criterion of the order (rating and user id
aside) get the same ``rank``, the next one after them skips the places they share
(1, 1, 1, 4). A withdrawn player stays in the standings with what they scored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from bot.tournaments.model import Entrant, GameResult, Pairing

__all__ = ["WIDTH", "Order", "Standing", "format_points", "standings", "standings_lines"]

#: Which tie-breaks rank the players (the module docstring).
Order = Literal["swiss", "round-robin"]

WIDTH = 40
_HALF = Fraction(1, 2)


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int  # 1-based; shared by players equal on every criterion
    user_id: int
    points: Fraction
    buchholz_cut1: Fraction
    sonneborn_berger: Fraction
    direct: Fraction  # points in the games among the tied (Swiss: on points, BH, SB; round robin: points)
    stones: int
    games: int
    byes: int
    withdrawn: bool


def _score(game: GameResult, user_id: int) -> Fraction:
    return game.half_points(user_id) * _HALF


def standings(
    entrants: Sequence[Entrant],
    results: Sequence[GameResult],
    byes: Sequence[Pairing] = (),
    *,
    order: Order = "swiss",
) -> list[Standing]:
    """The entrants ranked (the module docstring's order). Games and byes of players who
    are not entrants are ignored."""
    ids = {e.user_id for e in entrants}
    games = [g for g in results if g.first in ids and g.second in ids]
    points: dict[int, Fraction] = {i: Fraction(0) for i in ids}
    stones: dict[int, int] = dict.fromkeys(ids, 0)
    played: dict[int, list[GameResult]] = defaultdict(list)
    bye_count: dict[int, int] = dict.fromkeys(ids, 0)
    for game in games:
        for me in (game.first, game.second):
            points[me] += _score(game, me)
            stones[me] += game.stones(me)
            played[me].append(game)
    for bye in byes:
        if bye.white in ids and bye.black is None:
            points[bye.white] += 1
            bye_count[bye.white] += 1

    buchholz: dict[int, Fraction] = {}
    sonneborn: dict[int, Fraction] = {}
    for me in ids:
        opponents = [points[g.opponent(me)] for g in played[me]] + [Fraction(0)] * bye_count[me]
        buchholz[me] = sum(opponents, Fraction(0)) - min(opponents) if opponents else Fraction(0)
        sonneborn[me] = sum((_score(g, me) * points[g.opponent(me)] for g in played[me]), Fraction(0))

    def tied_on(me: int) -> tuple[Fraction, ...]:
        if order == "round-robin":
            return (points[me],)
        return (points[me], buchholz[me], sonneborn[me])

    groups: dict[tuple[Fraction, ...], set[int]] = defaultdict(set)
    for me in ids:
        groups[tied_on(me)].add(me)
    direct: dict[int, Fraction] = {}
    for me in ids:
        tied = groups[tied_on(me)]
        direct[me] = sum((_score(g, me) for g in played[me] if g.opponent(me) in tied), Fraction(0))

    def key(me: int) -> tuple[Fraction | int, ...]:
        if order == "round-robin":
            return (points[me], direct[me], sonneborn[me], stones[me])
        return (points[me], buchholz[me], sonneborn[me], direct[me], stones[me])

    by_id = {e.user_id: e for e in entrants}
    ranked = sorted(ids, key=lambda me: (*(-x for x in key(me)), -by_id[me].rating, me))
    out: list[Standing] = []
    for index, me in enumerate(ranked):
        shared = index > 0 and key(me) == key(ranked[index - 1])
        out.append(
            Standing(
                rank=out[-1].rank if shared else index + 1,
                user_id=me,
                points=points[me],
                buchholz_cut1=buchholz[me],
                sonneborn_berger=sonneborn[me],
                direct=direct[me],
                stones=stones[me],
                games=len(played[me]),
                byes=bye_count[me],
                withdrawn=by_id[me].withdrawn,
            )
        )
    return out


def format_points(value: Fraction) -> str:
    """``2``, ``2.5``, ``6.25``: as short as exact."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"


def _fit(name: str, width: int) -> str:
    return name if len(name) <= width else name[: max(width - 1, 0)] + "…"


def standings_lines(
    rows: Sequence[Standing],
    names: Mapping[int, str],
    *,
    labels: tuple[str, str, str, str] | None = None,
    withdrawn_mark: str = "-",
    removed: Collection[int] = (),
    removed_mark: str = "x",
    order: Order = "swiss",
) -> list[str]:
    """One line per player, at most 40 characters: ``rank. name  points  Buchholz cut-1
    Sonneborn-Berger  stones`` (e.g. `` 1. alice     2.5  3.5  2.25  7``), the columns
    right-aligned, each name padded or cut (``…``) to the room left; in a round robin
    (``order``) the second column is the direct encounter instead of Buchholz. Names are
    taken as given (escape them first); a withdrawn player's rank is followed by
    ``withdrawn_mark`` instead of the dot, a removed one's (``removed``) by
    ``removed_mark``. ``labels`` (the four columns' headings, as the reader's language
    says them) adds a header line."""
    if not rows:
        return []
    cells = [
        (
            format_points(r.points),
            format_points(r.direct if order == "round-robin" else r.buchholz_cut1),
            format_points(r.sonneborn_berger),
            str(r.stones),
        )
        for r in rows
    ]
    columns = list(zip(*cells, strict=True))
    widths = [max(len(c) for c in column) for column in columns]
    if labels is not None:
        widths = [max(w, len(label)) for w, label in zip(widths, labels, strict=True)]
    rank_width = max(len(str(r.rank)) for r in rows)
    fixed = rank_width + 2 + sum(1 + w for w in widths)
    longest = max(len(names.get(r.user_id, str(r.user_id))) for r in rows)
    name_width = max(1, min(longest, WIDTH - fixed))

    def line(head: str, name: str, values: Sequence[str]) -> str:
        numbers = " ".join(f"{v:>{w}}" for v, w in zip(values, widths, strict=True))
        return f"{head} {_fit(name, name_width):<{name_width}} {numbers}"[:WIDTH].rstrip()

    out = []
    if labels is not None:
        out.append(line(" " * (rank_width + 1), "", labels))
    for row, values in zip(rows, cells, strict=True):
        mark = "."
        if row.user_id in removed:
            mark = removed_mark[:1]
        elif row.withdrawn:
            mark = withdrawn_mark[:1]
        out.append(line(f"{row.rank:>{rank_width}}{mark}", names.get(row.user_id, str(row.user_id)), values))
    return out

"""Swiss pairing: one round as a maximum-weight matching (networkx's blossom algorithm).

Each active player (an entrant not withdrawn) is a node, and with an odd number a
``BYE`` node joins them, linked to the players eligible for a bye only: those with the
fewest byes so far, so nobody gets a second bye while someone has none (a hard rule).
An edge's weight packs six criteria into one integer, each worth more than everything
below it added over a whole round (lexicographic), from the most important down:

1. **no rematch**: a pair who have not met scores 1 (a bye edge too). The matching
   maximises the number of new pairs first, so a rematch happens only when no pairing
   without one exists, and then as few as can be;
2. **the bye to the lowest-ranked eligible player**: the bye edge scores its player's
   position in the ranking (the last one highest);
3. **score groups**: ``max_gap² - gap²``, ``gap`` the difference of the two players'
   scores in half points: pairs within a score group are best, and the penalty grows
   with the square of the difference (two one-group floats before one two-group float);
4. **first-player limit**: 0 for a pair whose game would take a player's balance (games
   moved first minus games moved second) to ±3 (both at +2 or more, or both at -2 or
   less), else 1;
5. **first-player preference**: 1 when the two are due different sides (a player is due
   to move first when their balance is negative, or zero after moving second last);
6. **top half against bottom half** within a score group (the usual Swiss pairing of a
   score group, so round 1 pairs seed 1 with seed n/2 + 1): ``n - |distance - half|``.

Who moves first is decided after the matching (:func:`_sides`): the player with the lower
balance; on equal balances the one who moved second in the latest game where their
histories differ; else, by board, the higher-ranked player on even boards (counted
from 0) and the lower-ranked on odd ones. So the balance of each player moves away from
zero only in a game against a player with the same claim to the other side, and beyond
±2 only when the criteria above 4 leave no other pairing.

The ranking that pairing uses: score, then seed rating (higher first), then user id.

Speed: blossom in pure Python is cubic. Up to ``DENSE_LIMIT`` players the graph is
complete (every pair, rematches included): the result is the exact optimum of the six
criteria. Above, each player is linked to ``NEAR`` players just below them in the ranking
and to ``NEAR`` around their top-half/bottom-half partner in their score group, all of
them new pairs (rematches are left out). If that sparse graph has no perfect matching,
the round is paired again with four times as many candidates, then on the complete
graph, so the rematch rule (1) holds exactly at every size; criteria 2-6 are then
optimal among the candidate edges (a partner farther than ``NEAR`` new players away in
the ranking, or from the natural top-half partner, is not considered: in a large score
group there is always one near at hand). ``bench/tournament_pairing.py`` times it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

from bot.tournaments.model import WIN, Entrant, History, Pairing

__all__ = ["DENSE_LIMIT", "NEAR", "PlayerRecord", "default_swiss_rounds", "pair_swiss", "records"]

#: Up to this many players the matching runs on the complete graph.
DENSE_LIMIT = 24
#: Candidates per player and direction on the sparse graph.
NEAR = 4


def default_swiss_rounds(players: int) -> int:
    """``ceil(log2(players))``: enough rounds for one player to finish alone on top."""
    return max(1, math.ceil(math.log2(players))) if players >= 2 else 0


@dataclass(slots=True)
class PlayerRecord:
    """One player's past as pairing sees it (built by :func:`records`)."""

    user_id: int
    rating: float
    score: int = 0  # half points, byes included
    byes: int = 0
    sides: list[bool] = field(default_factory=list)  # True: moved first; in round order
    met: dict[int, int] = field(default_factory=dict)  # opponent -> games played

    @property
    def balance(self) -> int:
        """Games moved first minus games moved second."""
        firsts = sum(self.sides)
        return firsts - (len(self.sides) - firsts)

    @property
    def due(self) -> int:
        """+1: due to move first, -1: due to move second, 0: no preference."""
        balance = self.balance
        if balance:
            return -1 if balance > 0 else 1
        if self.sides:
            return -1 if self.sides[-1] else 1
        return 0


def records(entrants: Iterable[Entrant], history: History) -> dict[int, PlayerRecord]:
    """Every entrant's score, byes, sides and opponents from ``history``."""
    table = {e.user_id: PlayerRecord(e.user_id, e.rating) for e in entrants}
    for game in sorted(history.results, key=lambda r: r.round):
        for me in (game.first, game.second):
            record = table.get(me)
            if record is None:
                continue
            other = game.opponent(me)
            record.score += game.half_points(me)
            record.sides.append(me == game.first)
            record.met[other] = record.met.get(other, 0) + 1
    for bye in history.byes:
        record = table.get(bye.white)
        if record is not None:
            record.score += WIN
            record.byes += 1
    return table


def _ranked(players: Iterable[PlayerRecord]) -> list[PlayerRecord]:
    return sorted(players, key=lambda p: (-p.score, -p.rating, p.user_id))


def pair_swiss(entrants: Sequence[Entrant], history: History, round_no: int) -> list[Pairing]:
    """The pairings of Swiss round ``round_no`` for the entrants not withdrawn, given the
    finished games and the byes of the earlier rounds. Boards in ranking order (the
    higher-ranked player of each pair), the bye last. Deterministic: the same entrants
    and history give the same pairings, whatever their order."""
    table = records(entrants, history)
    players = _ranked(table[e.user_id] for e in entrants if not e.withdrawn)
    n = len(players)
    if n == 0:
        return []
    if n == 1:
        return [Pairing(round_no, players[0].user_id, None)]
    mate = _match(players, near=None if n <= DENSE_LIMIT else NEAR)
    if mate is None:  # the sparse graph has no perfect matching: a wider one, then all
        mate = _match(players, near=4 * NEAR) or _match(players, near=None)
        assert mate is not None, "the complete graph always has a perfect matching"
    return _pairings(players, mate, round_no)


class _Weights:
    """The packed edge weights of the module docstring, for one round's players."""

    def __init__(self, players: Sequence[PlayerRecord]) -> None:
        self.players = players
        n = len(players)
        self.n = n
        matched_edges = (n + 1) // 2
        self.max_gap2 = (players[0].score - players[-1].score) ** 2
        self.group_start: list[int] = []
        self.group_size: list[int] = []
        start = 0
        for i in range(n):
            if players[i].score != players[start].score:
                start = i
            self.group_start.append(start)
        sizes: dict[int, int] = {}
        for s in self.group_start:
            sizes[s] = sizes.get(s, 0) + 1
        self.group_size = [sizes[s] for s in self.group_start]
        # The scale of each criterion: above the most that all the lower ones can add.
        maxima = [n, 1, 1, self.max_gap2, n, 1]  # criteria 6 (lowest) .. 1
        scales = []
        scale = 1
        for m in maxima:
            scales.append(scale)
            scale *= m * matched_edges + 1
        self.s_half, self.s_pref, self.s_limit, self.s_group, self.s_bye, self.s_new = scales
        fewest = min(p.byes for p in players)
        self.bye_eligible = [i for i, p in enumerate(players) if p.byes == fewest]

    def pair(self, i: int, j: int) -> int:
        a, b = self.players[i], self.players[j]
        weight = self.s_new if b.user_id not in a.met else 0
        weight += (self.max_gap2 - (a.score - b.score) ** 2) * self.s_group
        ba, bb = a.balance, b.balance
        if not ((ba >= 2 and bb >= 2) or (ba <= -2 and bb <= -2)):
            weight += self.s_limit
        da, db = a.due, b.due
        if da != db or da == 0:
            weight += self.s_pref
        if self.group_start[i] == self.group_start[j]:
            weight += (self.n - abs(abs(j - i) - self.group_size[i] // 2)) * self.s_half
        else:
            weight += self.n * self.s_half
        return weight

    def bye(self, i: int) -> int:
        return (
            self.s_new
            + (i + 1) * self.s_bye
            + self.max_gap2 * self.s_group
            + self.s_limit
            + self.s_pref
            + self.n * self.s_half
        )


def _candidates(players: Sequence[PlayerRecord], weights: _Weights, near: int) -> set[tuple[int, int]]:
    """The sparse graph's pairs (i < j), all new: ``near`` below each player, and
    ``near`` around the top-half player's natural partner in their score group."""
    n = len(players)
    pairs: set[tuple[int, int]] = set()

    def add_new(i: int, order: Iterable[int], count: int) -> None:
        met = players[i].met
        found = 0
        for j in order:
            if j != i and players[j].user_id not in met:
                pairs.add((i, j) if i < j else (j, i))
                found += 1
                if found == count:
                    return

    for i in range(n):
        add_new(i, range(i + 1, n), near)
        start, size = weights.group_start[i], weights.group_size[i]
        target = i + size // 2
        if i - start < size // 2 and target < n:
            add_new(i, range(target, n), near // 2)
            add_new(i, range(target - 1, i, -1), near // 2)
    return pairs


def _match(players: Sequence[PlayerRecord], *, near: int | None) -> dict[int, int] | None:
    """Node -> partner (node ``len(players)`` is the bye), or None when the sparse graph
    of ``near`` candidates has no perfect matching (``near`` None: the complete graph)."""
    n = len(players)
    weights = _Weights(players)
    graph: nx.Graph[int] = nx.Graph()
    if near is None:
        for i in range(n):
            for j in range(i + 1, n):
                graph.add_edge(i, j, weight=weights.pair(i, j))
    else:
        for i, j in sorted(_candidates(players, weights, near)):
            graph.add_edge(i, j, weight=weights.pair(i, j))
    if n % 2:
        for i in weights.bye_eligible:
            graph.add_edge(i, n, weight=weights.bye(i))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < n + n % 2:
        return None
    mate: dict[int, int] = {}
    for i, j in matching:
        mate[i], mate[j] = j, i
    return mate


def _sides(high: PlayerRecord, low: PlayerRecord, board: int) -> tuple[PlayerRecord, PlayerRecord]:
    """(first, second) for ``high`` (ranked higher) against ``low`` on ``board``."""
    if high.balance != low.balance:
        return (high, low) if high.balance < low.balance else (low, high)
    for h, lo in zip(reversed(high.sides), reversed(low.sides), strict=False):
        if h != lo:
            return (low, high) if h else (high, low)
    return (high, low) if board % 2 == 0 else (low, high)


def _pairings(players: Sequence[PlayerRecord], mate: dict[int, int], round_no: int) -> list[Pairing]:
    n = len(players)
    boards: list[Pairing] = []
    bye: Pairing | None = None
    for i in range(n):
        j = mate[i]
        if j == n:
            bye = Pairing(round_no, players[i].user_id, None)
        elif i < j:
            first, second = _sides(players[i], players[j], len(boards))
            boards.append(Pairing(round_no, first.user_id, second.user_id))
    if bye is not None:
        boards.append(bye)
    return boards

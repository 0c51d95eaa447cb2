"""A probability model of the table: formations still reachable, stones, the game.

For every open stone and each side, :meth:`Model.side_dist` gives the distribution of the
strength the side ends with, over the cards not yet seen. The *pool* is every clan card
not on the table, not in the viewer's hand and not discarded: the clan deck plus the
opponent's clan cards, counted, never seen. A side may complete itself with cards it is
sure of (the viewer's own hand, jokers included; a hand card counts as sure where it
completes the side alone, and with chance ``HAND_SHARE`` in a completion of two or more
cards, since the hand serves every stone) and with pool cards it gets to see: a
uniformly random ``access``-subset of the pool (the opponent's hand and their share of
the draws to come; for the viewer, their share of the draws). A completion that needs
``u`` pool cards is available with the hypergeometric chance ``prod (a-i)/(N-i)``.

A side's final strength is the best completion available to it. Its distribution is
exact where one card is missing (the chance that none of the ``r``
pool cards that reach a strength is seen is ``C(N-r, a) / C(N, a)``); completions of
two or more cards overlap in ways that are not cheap to count, and their
events are combined as independent (a Poisson bound on "none of them"). When none
of the completions counted is seen, the side ends with the median of all its completions
(whatever cards come).

:func:`stone_chance` compares two independent side distributions, a tie going to the
side completed first (a complete side against an open one wins ties; two open sides
split them). :func:`game_chance` turns nine independent stone chances into the chance of
winning the game (three adjacent or five) by a dynamic programme over the stones, exact
under independence; both players reaching a goal counts half.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from itertools import combinations

from rules.ai.situation import Situation, StoneState, formation_cards, side_key
from rules.cards import Card, ClanCard
from rules.formations import tables

__all__ = ["DRAW_SHARE", "Dist", "Model", "game_chance", "stone_chance"]

#: The share of a player's draws to come that counts for any one stone: a player sees
#: about half the deck, and spreads it over several stones.
DRAW_SHARE = 1.0
#: The chance that a card of the viewer's hand is there for a completion that needs two or
#: more cards: the hand serves every stone, and each card can go to one of them only.
HAND_SHARE = 0.6
#: A side that needs two cards or more is built over several turns, beside other stones:
#: the share of the cards its player sees that can still go to it.
MULTI_SHARE = 0.5
#: An empty side: its three cards are still to be chosen among everything its player
#: holds and draws, for every open stone at once; this share of them counts for one.
OPEN_SHARE = 1.0
#: A side that cannot be completed any more (too few cards left).
NO_SIDE = -1

#: A side's distribution: (strength key, probability) pairs, strongest first, summing to 1.
Dist = tuple[tuple[int, float], ...]


def hyper(a: float, n: int, u: int) -> float:
    """Chance that ``u`` given cards all lie in a random ``a``-subset of ``n`` cards."""
    p = 1.0
    for i in range(u):
        if n - i <= 0 or a - i <= 0:
            return 0.0
        p *= (a - i) / (n - i)
    return p


def miss_all(a: float, n: int, r: int) -> float:
    """Chance that none of ``r`` given cards lies in a random ``a``-subset of ``n`` cards."""
    p = 1.0
    for i in range(r):
        if n - i <= 0:
            return 0.0
        p *= max(0.0, n - a - i) / (n - i)
    return p


class Model:
    """The model of one decision's table, from a :class:`Situation` (viewer = "mine").

    ``open_cache``: empty sides' distributions shared with other models of nearly the same
    pool (the leaves of one search): each is computed once, from the first model's pool.
    """

    def __init__(self, sit: Situation, open_cache: dict[tuple[object, ...], Dist] | None = None) -> None:
        self.sit = sit
        self._open = open_cache
        self.pool: list[ClanCard] = list(sit.unseen_clan)
        self.n = len(self.pool)
        self.triples = tables(sit.ruleset).triples
        each = sit.clan_deck / 2.0 * DRAW_SHARE
        self.access_mine = min(float(self.n), each)
        self.access_theirs = min(float(self.n), max(0, sit.opp_clan_in_hand) + each)
        self._dists: dict[tuple[object, ...], Dist] = {}

    # --- sides ----------------------------------------------------------------------------

    def _key(self, cards: Sequence[Card], needed: int, fog: bool) -> int:
        if needed == 3 and not fog and len(cards) == 3 and type(cards[0]) is ClanCard:
            a, b, c = cards
            if type(b) is ClanCard and type(c) is ClanCard:
                return self.triples[1 << a.id | 1 << b.id | 1 << c.id]
        return side_key(list(cards), needed, fog, self.sit.ruleset)

    def side_dist(
        self, side: Sequence[Card], needed: int, fog: bool, certain: Sequence[Card], access: float
    ) -> Dist:
        """Distribution of the strength this side ends with (see the module's docstring)."""
        m = needed - len(side)
        if m <= 0:
            return ((self._key(side, needed, fog), 1.0),)
        ck = (tuple(c.id for c in side), needed, fog, tuple(sorted(c.id for c in certain)), access)
        hit = self._dists.get(ck)
        if hit is None:
            hit = self._dists[ck] = self._side_dist(list(side), needed, fog, list(certain), access, m)
        return hit

    def _side_dist(
        self,
        side: list[Card],
        needed: int,
        fog: bool,
        certain: list[Card],
        access: float,
        m: int,
        *,
        force: bool = False,
    ) -> Dist:
        n = self.n
        if m >= 3 and not force:
            return self._open_dist(needed, fog, certain, access)
        items: list[tuple[Card, int]] = [(c, 0) for c in certain] + [(c, 1) for c in self.pool]
        if len(items) < m:
            return ((NO_SIDE, 1.0),)
        reach = access if m == 1 else access * MULTI_SHARE
        weight = [hyper(reach, n, u) for u in range(m + 1)]
        hand = [HAND_SHARE**h for h in range(m + 1)]
        # Per strength: is it certain, which pool cards reach it alone, the sum of the
        # chances of the completions that need two or more pool cards.
        certain_keys: set[int] = set()
        singles: dict[int, set[int]] = {}
        multi: dict[int, float] = {}
        every: list[int] = []
        fast = needed == 3 and not fog and all(type(c) is ClanCard for c in side)
        base = sum(1 << c.id for c in side)
        cards = [c for c, _ in items]
        pooled = [t for _, t in items]
        bits = [1 << c.id for c in cards]
        clan = [fast and type(c) is ClanCard for c in cards]
        chance = [weight[u] * hand[m - u] for u in range(m + 1)]
        triples = self.triples
        unrolled = m == 2 and all(clan)
        if unrolled:  # the common case, unrolled: the same sums in the same order, faster
            get = multi.get
            count = len(items)
            for a in range(count):
                mask_a, u_a = base | bits[a], pooled[a]
                for b in range(a + 1, count):
                    key = triples[mask_a | bits[b]]
                    every.append(key)
                    w = chance[u_a + pooled[b]]
                    if w > 0.0:
                        multi[key] = get(key, 0.0) + w
        for combo in () if unrolled else combinations(range(len(items)), m):
            u = 0
            mask = base
            ok = True
            for i in combo:
                u += pooled[i]
                mask |= bits[i]
                ok = ok and clan[i]
            key = triples[mask] if ok else self._key([*side, *(cards[i] for i in combo)], needed, fog)
            every.append(key)
            if m == 1 and u == 0:
                certain_keys.add(key)
            elif m == 1:
                singles.setdefault(key, set()).add(cards[combo[0]].id)
            elif weight[u] > 0.0:
                multi[key] = multi.get(key, 0.0) + chance[u]
        keys = sorted(certain_keys | singles.keys() | multi.keys(), reverse=True)
        out: list[tuple[int, float]] = []
        seen: set[int] = set()
        lam = 0.0
        reached = 0.0  # P(best >= key) so far
        sure = False
        for key in keys:
            sure = sure or key in certain_keys
            seen |= singles.get(key, set())
            lam += multi.get(key, 0.0)
            at_least = 1.0 if sure else 1.0 - miss_all(access, n, len(seen)) * math.exp(-lam)
            if at_least > reached:
                out.append((key, at_least - reached))
                reached = at_least
            if sure:
                break
        if reached < 1.0:  # none of them seen: a middling completion (the median one)
            every.sort()
            middle = every[len(every) // 2]
            merged = dict(out)
            merged[middle] = merged.get(middle, 0.0) + 1.0 - reached
            out = sorted(merged.items(), reverse=True)
        return tuple(out)

    def _open_dist(self, needed: int, fog: bool, certain: list[Card], access: float) -> Dist:
        """A side that still needs three cards or more: as an empty side of three clan
        cards (jokers and cards already there left out, which is cheap and rare), its
        totals scaled to ``needed`` cards."""
        clan = tuple(c for c in certain if type(c) is ClanCard)
        ck = ("open", needed, fog, tuple(sorted(c.id for c in clan)), access)
        store = self._dists if self._open is None else self._open
        hit = store.get(ck)
        if hit is None:
            base = self._side_dist([], 3, False, list(clan), access * OPEN_SHARE, 3, force=True)
            if fog or needed != 3:
                merged: dict[int, float] = {}
                for key, p in base:
                    total = (key & 63) * needed // 3
                    k = total if fog else (key >> 6) << 6 | total
                    merged[k] = merged.get(k, 0.0) + p
                base = tuple(sorted(merged.items(), reverse=True))
            hit = store[ck] = base
        return hit

    def mine(self, st: StoneState, hand: Sequence[Card]) -> Dist:
        if st.needed - len(st.mine) >= 3:  # open: the same prior as the opponent's
            return self.side_dist(st.mine, st.needed, st.fog, (), self.access_theirs)
        return self.side_dist(st.mine, st.needed, st.fog, formation_cards(list(hand)), self.access_mine)

    def theirs(self, st: StoneState) -> Dist:
        return self.side_dist(st.theirs, st.needed, st.fog, (), self.access_theirs)

    # --- stones and the game ----------------------------------------------------------------

    def stone(self, st: StoneState, hand: Sequence[Card]) -> float:
        """The chance that the viewer wins this stone."""
        if st.owner is not None:
            return 1.0 if st.owner == 0 else 0.0
        n = st.needed
        mine_full, theirs_full = len(st.mine) >= n, len(st.theirs) >= n
        if mine_full and theirs_full:
            tie = 0.5 if st.first_complete is None else 1.0 - st.first_complete
        else:
            tie = 1.0 if mine_full else 0.0 if theirs_full else 0.5
        return stone_chance(self.mine(st, hand), self.theirs(st), tie)

    def stones(self, stones: Sequence[StoneState], hand: Sequence[Card]) -> list[float]:
        return [self.stone(st, hand) for st in stones]

    def value(self, stones: Sequence[StoneState], hand: Sequence[Card]) -> float:
        """The viewer's chance to win the game with these stones and this hand."""
        return game_chance(self.stones(stones, hand))


def stone_chance(mine: Dist, theirs: Dist, tie: float) -> float:
    """P(mine > theirs) + ``tie`` * P(mine == theirs), the two independent."""
    asc = sorted(theirs)
    keys = [k for k, _ in asc]
    cum = [0.0]
    for _, p in asc:
        cum.append(cum[-1] + p)
    total = 0.0
    for key, p in mine:
        i = bisect_left(keys, key)
        below = cum[i]
        equal = asc[i][1] if i < len(keys) and keys[i] == key else 0.0
        total += p * (below + tie * equal)
    return total


def game_chance(ps: Sequence[float]) -> float:
    """The chance of three adjacent stones or five, stones independent with chances ``ps``
    (a draw, both players reaching a goal, counts half)."""
    n = len(ps)
    # State: (my stones, my run of adjacent stones, their run); 3 = reached three adjacent.
    states: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
    for p in ps:
        nxt: dict[tuple[int, int, int], float] = {}
        for (c, r, s), q in states.items():
            if p > 0.0:
                k = (c + 1, 3 if r >= 2 else r + 1, 3 if s == 3 else 0)
                nxt[k] = nxt.get(k, 0.0) + q * p
            if p < 1.0:
                k = (c, 3 if r == 3 else 0, 3 if s >= 2 else s + 1)
                nxt[k] = nxt.get(k, 0.0) + q * (1.0 - p)
        states = nxt
    win = 0.0
    for (c, r, s), q in states.items():
        mine = c >= 5 or r == 3
        theirs = n - c >= 5 or s == 3
        if mine and not theirs:
            win += q
        elif mine and theirs:
            win += 0.5 * q
    return win

"""The heuristic player: scores every legal move by the board it leaves behind.

The board value is the sum over stones of an estimated chance to win each stone, plus a
bonus for three adjacent stones. A stone's chance compares my side's *potential* with
theirs: the strongest side each can still reach, minus a penalty for every card that
must still come from the unseen cards (fewer ways to get there, bigger penalty). My own
hand counts as certain; the opponent's hand is unknown, so only the unseen pool counts
for them. Complete sides are compared exactly, and a side that no completion can beat
counts as won.

Why this shape: every turn a card *must* be played, so the question is where it hurts
least or helps most. Valuing the whole board after the move answers both: a card that
completes a strong formation raises a stone's chance; a card dumped on a lost stone
keeps the hand's flexibility for the others.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from itertools import combinations

from rules.ai.situation import Situation, StoneState, formation_cards, side_key
from rules.cards import Card, ClanCard, Tactic, TacticCard, is_joker
from rules.formations import tables
from rules.moves import (
    Claim,
    Deserter,
    Draw,
    Move,
    Pass,
    PlayCard,
    Redeploy,
    Scout,
    ScoutReturn,
    Traitor,
)

PEN = 70  # key units (a formation step is 64) per card that must still come
SCALE = 24.0  # key difference that moves a stone's chance from 50% to ~73%
ADJ = 0.6  # weight of "three adjacent stones" next to plain stone count
EMPTY_MINE = 115  # potential of an empty side when the hand offers nothing better
EMPTY_THEIRS = 125  # the opponent's empty side: they hold six cards we can't see
TACTIC_COST = 0.12  # a played tactic lets the opponent play one; use them when they matter
UNBOUNDED = 1 << 20


class Evaluator:
    """Board evaluation for one decision; caches the work that repeats across moves."""

    def __init__(self, sit: Situation) -> None:
        self.sit = sit
        self.max_value = sit.ruleset.max_value
        self.pool = list(sit.unseen_clan)
        # Keyed by (side's card ids, needed, fog); stones add the other side and the hand.
        self._outs: dict[tuple[tuple[int, ...], int, bool], tuple[float, int]] = {}
        self._pairs: dict[tuple[tuple[int, ...], int, bool], tuple[float, int]] = {}
        self._stone: dict[tuple[tuple[int, ...], tuple[int, ...], int, bool, tuple[int, ...]], float] = {}
        # Every 3-card clan set's key by the mask of its ids: the hot paths' lookup.
        self.triples = tables(sit.ruleset).triples

    # --- potentials ---------------------------------------------------------------------

    def _key(self, cards: list[Card], needed: int, fog: bool) -> int:
        return side_key(cards, needed, fog, self.sit.ruleset)

    def _single_outs(self, side: list[Card], needed: int, fog: bool) -> tuple[float, int]:
        """One card missing, from the pool: (value, best raw key)."""
        ck = (tuple(c.id for c in side), needed, fog)
        hit = self._outs.get(ck)
        if hit is None:
            if needed == 3 and not fog and len(side) == 2 and not (side[0].is_tactic or side[1].is_tactic):
                base, t = 1 << side[0].id | 1 << side[1].id, self.triples
                keys = sorted((t[base | 1 << c.id] for c in self.pool), reverse=True)
            else:
                keys = sorted((self._key([*side, c], needed, fog) for c in self.pool), reverse=True)
            if not keys:
                hit = (-1.0, -1)
            else:
                # More outs at a level make it likelier to get there.
                value = max(k - PEN / math.sqrt(i + 1) for i, k in enumerate(keys[:8]))
                hit = (value, keys[0])
            self._outs[ck] = hit
        return hit

    def _pool_pairs(self, side: list[Card], needed: int, fog: bool) -> tuple[float, int]:
        """Two cards missing, both from the pool (only the cards that can matter)."""
        ck = (tuple(c.id for c in side), needed, fog)
        hit = self._pairs.get(ck)
        if hit is None:
            clan = [c for c in side if isinstance(c, ClanCard)]
            colours = {c.colour for c in clan}
            values = {c.value for c in clan}
            top = self.max_value - 1
            rel = [
                c
                for c in self.pool
                if c.colour in colours
                or c.value >= top
                or not clan
                or any(abs(c.value - v) <= 2 for v in values)
            ]
            best = -1
            if needed == 3 and not fog and len(side) == 1 and not side[0].is_tactic:
                base, t = 1 << side[0].id, self.triples
                bits = [1 << c.id for c in rel]
                best = max((t[base | a | b] for a, b in combinations(bits, 2)), default=-1)
            else:
                for a, b in combinations(rel, 2):
                    k = self._key([*side, a, b], needed, fog)
                    if k > best:
                        best = k
            hit = (best - 2 * PEN, best) if best >= 0 else (-1.0, -1)
            self._pairs[ck] = hit
        return hit

    def mine_potential(self, side: list[Card], needed: int, fog: bool, hand: list[Card]) -> tuple[float, int]:
        """(value, best raw key) of my side with my hand certain and the pool possible."""
        m = needed - len(side)
        if m <= 0:
            k = self._key(side, needed, fog)
            return k, k
        certain = formation_cards(hand)
        best = -1.0
        raw = -1
        if len(certain) >= m:
            for combo in combinations(certain, m):
                k = self._key([*side, *combo], needed, fog)
                if k > best:
                    best = k
                raw = max(raw, k)
        if m == 1:
            v, r = self._single_outs(side, needed, fog)
            return max(best, v), max(raw, r)
        if m == 2:
            for a in certain:
                v, r = self._single_outs([*side, a], needed, fog)
                best = max(best, v)
                raw = max(raw, r)
            v, r = self._pool_pairs(side, needed, fog)
            return max(best, v), max(raw, r)
        for a, b in combinations(certain, 2) if m == 3 else ():
            v, _ = self._single_outs([*side, a, b], needed, fog)
            best = max(best, v)
        return max(best, EMPTY_MINE), UNBOUNDED

    def theirs_potential(self, side: list[Card], needed: int, fog: bool) -> tuple[float, int]:
        m = needed - len(side)
        if m <= 0:
            k = self._key(side, needed, fog)
            return k, k
        if m == 1:
            return self._single_outs(side, needed, fog)
        if m == 2:
            return self._pool_pairs(side, needed, fog)
        return EMPTY_THEIRS, UNBOUNDED

    # --- stones and board ----------------------------------------------------------------

    def stone_chance(self, st: StoneState, hand: list[Card]) -> float:
        """Estimated chance that I win this stone."""
        if st.owner is not None:
            return 1.0 if st.owner == 0 else 0.0
        n, fog = st.needed, st.fog
        hand_key = tuple(sorted(c.id for c in hand)) if len(st.mine) < n else ()
        ck = (tuple(c.id for c in st.mine), tuple(c.id for c in st.theirs), n, fog, hand_key)
        hit = self._stone.get(ck)
        if hit is not None:
            return hit
        mine_full, theirs_full = len(st.mine) >= n, len(st.theirs) >= n
        if mine_full and theirs_full:
            a, b = self._key(st.mine, n, fog), self._key(st.theirs, n, fog)
            if a != b:
                p = 1.0 if a > b else 0.0
            else:
                p = 0.5 if st.first_complete is None else 1.0 - st.first_complete
        else:
            mv, mraw = self.mine_potential(st.mine, n, fog, hand)
            tv, traw = self.theirs_potential(st.theirs, n, fog)
            if mine_full and traw <= mv:  # no completion beats me: it is mine (provable)
                p = 1.0
            elif theirs_full and mraw <= tv:
                p = 0.0
            else:
                p = 1.0 / (1.0 + math.exp(-(mv - tv) / SCALE))
        self._stone[ck] = p
        return p

    def board_value(self, stones: list[StoneState], hand: list[Card]) -> float:
        ps = [self.stone_chance(st, hand) for st in stones]
        value = sum(ps)
        for i in range(len(ps) - 2):
            a, b, c = ps[i : i + 3]
            value += ADJ * (a * b * c - (1 - a) * (1 - b) * (1 - c))
        return value

    # --- moves --------------------------------------------------------------------------

    def after(self, move: Move) -> tuple[list[StoneState], list[Card], float] | None:
        """The stones and hand after ``move`` (and a cost), or None if not a board move."""
        stones = list(self.sit.stones)
        hand = list(self.sit.hand)

        def edit(stone: int) -> StoneState:
            old = stones[stone - 1]
            new = StoneState(
                list(old.mine), list(old.theirs), old.owner, old.fog, old.mud, old.first_complete
            )
            stones[stone - 1] = new
            return new

        cost = 0.0
        if isinstance(move, PlayCard):
            hand.remove(move.card)
            st = edit(move.stone)
            card = move.card
            if isinstance(card, TacticCard):
                cost = TACTIC_COST
                if card.tactic is Tactic.FOG:
                    st.fog = True
                    return stones, hand, cost
                if card.tactic is Tactic.MUD:
                    st.mud = True
                    return stones, hand, cost
            st.mine.append(card)
            if len(st.mine) == st.needed and st.first_complete is None and len(st.theirs) < st.needed:
                st.first_complete = 0
            return stones, hand, cost
        if isinstance(move, Redeploy):
            hand.remove(_tactic_in(hand, Tactic.REDEPLOY))
            _take(edit(move.from_stone), move.card, mine=True)
            if move.to_stone is not None:
                _put(edit(move.to_stone), move.card)
            return stones, hand, TACTIC_COST
        if isinstance(move, Deserter):
            hand.remove(_tactic_in(hand, Tactic.DESERTER))
            _take(edit(move.stone), move.card, mine=False)
            return stones, hand, TACTIC_COST
        if isinstance(move, Traitor):
            hand.remove(_tactic_in(hand, Tactic.TRAITOR))
            edit(move.from_stone).theirs.remove(move.card)
            edit(move.to_stone).mine.append(move.card)
            return stones, hand, TACTIC_COST
        return None

    def score(self, move: Move) -> float:
        if isinstance(move, Claim):
            return 1e9  # free and final: always take it
        res = self.after(move)
        if res is not None:
            stones, hand, cost = res
            return self.board_value(stones, hand) - cost
        base = self.board_value(self.sit.stones, self.sit.hand)
        if isinstance(move, Scout):
            hand = [c for c in self.sit.hand if not _is(c, Tactic.SCOUT)]
            return self.board_value(self.sit.stones, hand) + 0.05 - TACTIC_COST
        if isinstance(move, Pass):
            return base
        return base  # draws are decided by draw_choice


def _is(card: Card, tactic: Tactic) -> bool:
    return isinstance(card, TacticCard) and card.tactic is tactic


def _take(st: StoneState, card: Card, *, mine: bool) -> None:
    """Remove a card from a stone: a side's card, or a terrain card (Redeploy, Deserter)."""
    if _is(card, Tactic.FOG):
        st.fog = False
    elif _is(card, Tactic.MUD):
        st.mud = False
    else:
        (st.mine if mine else st.theirs).remove(card)


def _put(st: StoneState, card: Card) -> None:
    if _is(card, Tactic.FOG):
        st.fog = True
    elif _is(card, Tactic.MUD):
        st.mud = True
    else:
        st.mine.append(card)


def _tactic_in(hand: Iterable[Card], tactic: Tactic) -> Card:
    return next(c for c in hand if _is(c, tactic))


def draw_choice(sit: Situation, moves: list[Move]) -> Move:
    """Which deck to draw from: a tactic card when the player holds none and could play
    it, clan cards otherwise.

    One ahead in tactic cards, a player must wait for the opponent to play one, and an
    opponent who holds none cannot: a card drawn then would sit dead in the hand."""
    draws = {m.deck: m for m in moves if isinstance(m, Draw)}
    tactics_in_hand = sum(1 for c in sit.hand if c.is_tactic)
    mine, theirs = sit.tactics_played
    can_use_more = mine <= theirs or (mine == theirs + 1 and sit.opp_hand_tactics > 0)
    if "tactic" in draws and (("clan" not in draws) or (tactics_in_hand == 0 and can_use_more)):
        return draws["tactic"]
    if "clan" in draws:
        return draws["clan"]
    return next(iter(draws.values()))


def _best_return(sit: Situation, moves: list[ScoutReturn], ev: Evaluator) -> Move:
    def value(m: ScoutReturn) -> float:
        hand = list(sit.hand)
        for c in m.cards:
            hand.remove(c)
        # Keep jokers and good clan cards; the board decides which ones are good.
        return ev.board_value(sit.stones, hand) + 0.1 * sum(1 for c in hand if is_joker(c))

    return max(moves, key=lambda m: (value(m), str(m)))


def ranked_moves(sit: Situation, moves: list[Move] | None = None) -> list[tuple[float, Move]]:
    """Every legal play scored, best first (ties broken by notation, for determinism)."""
    moves = sit.legal if moves is None else moves
    ev = Evaluator(sit)
    scored = [(ev.score(m), m) for m in moves]
    scored.sort(key=lambda sm: (-sm[0], str(sm[1])))
    return scored


def settled_choice(sit: Situation, moves: list[Move]) -> Move | None:
    """The choices every level makes the same way, or None: a provable claim at once
    (the lowest stone first), the only legal move, and the draw by :func:`draw_choice`."""
    if not moves:
        raise ValueError("no legal move: it is not this player's turn")
    claims = [m for m in moves if isinstance(m, Claim)]
    if claims:
        return min(claims, key=lambda m: m.stone)
    if len(moves) == 1:
        return moves[0]
    if all(isinstance(m, Draw) for m in moves):
        return draw_choice(sit, moves)
    return None


def choose(sit: Situation, rng: random.Random, *, noise: float = 0.0) -> Move:
    """The heuristic's move. ``noise`` > 0 sometimes picks a weaker move (easy level)."""
    moves = sit.legal
    settled = settled_choice(sit, moves)
    if settled is not None:
        return settled
    returns = [m for m in moves if isinstance(m, ScoutReturn)]
    if returns:
        return _best_return(sit, returns, Evaluator(sit))
    ranked = ranked_moves(sit, moves)
    if noise > 0 and rng.random() < noise:
        # A plausible slip: one of the better moves, not a blunder into a random stone.
        return ranked[rng.randrange(min(len(ranked), 6))][1]
    return ranked[0][1]

"""The ``probability`` baseline: a formation-probability player in the style of a 2017
open-source Battle Line bot (written from a description of it, not from our model).

- For every stone and each side it enumerates the formations the side can still make
  (the viewer's side from its hand and the unseen cards, the opponent's from the unseen
  cards: deck and the opponent's hand, counted not seen) and, per formation class, the
  probability of the likeliest way to make it (each unseen card needed arrives with the
  chance that the player sees it: its share of the draws left, the opponent's hand
  included for the opponent).
- The chance to win a stone compares the two sides' class distributions (ties split).
- Stones are valued by their place in the line (the middle ones take part in more
  triples of adjacent stones) and their nearness to stones already won (more) or lost
  (less).
- A move is scored by the valued stones after it, so a card that keeps a likely
  formation alive stays in hand, and a card that serves two stones counts at both.
- When no play gains anything, it dumps its lowest card on a stone it is losing.
- Morale tactics only where they complete a formation of a colour or better; other
  tactic cards only when it holds no clan card. It draws a tactic card when it holds none
  and may play one.
"""

from __future__ import annotations

import random
from itertools import combinations

from rules.ai.situation import Situation, StoneState, formation_cards, from_view, side_key
from rules.cards import Card, ClanCard, TacticCard, is_joker
from rules.moves import Claim, Draw, Move, Pass, PlayCard, ScoutReturn
from rules.view import PlayerView

__all__ = ["choose"]

POSITION = (1.0, 1.15, 1.3, 1.35, 1.4, 1.35, 1.3, 1.15, 1.0)
NEAR_WON, NEAR_LOST = 1.25, 0.75
EMPTY: tuple[float, ...] = (0.06, 0.08, 0.3, 0.26, 0.3)  # an empty side's classes: colour run .. sum
CLASSES = 5


class _Board:
    def __init__(self, sit: Situation) -> None:
        self.sit = sit
        self.unseen = list(sit.unseen_clan)
        n = max(1, len(self.unseen))
        draws = sit.clan_deck / 2.0
        self.q_me = min(1.0, draws / n)
        self.q_op = min(1.0, (max(0, sit.opp_clan_in_hand) + draws) / n)
        self._cache: dict[tuple[object, ...], tuple[float, ...]] = {}

    def classes(self, side: list[Card], st: StoneState, hand: list[Card], q: float) -> tuple[float, ...]:
        """P(the side ends in each class), strongest class first."""
        need, fog = st.needed, st.fog
        missing = need - len(side)
        if missing <= 0:
            cls = side_key(side, need, fog, self.sit.ruleset) >> 6
            return tuple(1.0 if c == 4 - cls else 0.0 for c in range(CLASSES))
        ck = (tuple(c.id for c in side), need, fog, tuple(c.id for c in hand), q)
        hit = self._cache.get(ck)
        if hit is not None:
            return hit
        if missing >= 3:
            out = EMPTY
        else:
            best = [0.0] * CLASSES  # likeliest completion per class
            items = [(c, 1.0) for c in hand] + [(c, q) for c in self.unseen]
            for combo in combinations(items, missing):
                p = 1.0
                for _, pc in combo:
                    p *= pc
                k = side_key([*side, *(c for c, _ in combo)], need, fog, self.sit.ruleset)
                i = 4 - (k >> 6)
                if p > best[i]:
                    best[i] = p
            left, dist = 1.0, []
            for p in best[:-1]:
                dist.append(left * p)
                left *= 1.0 - p
            dist.append(left)
            out = tuple(dist)
        self._cache[ck] = out
        return out

    def stone(self, st: StoneState, hand: list[Card]) -> float:
        if st.owner is not None:
            return 1.0 if st.owner == 0 else 0.0
        mine = self.classes(st.mine, st, formation_cards(hand), self.q_me)
        theirs = self.classes(st.theirs, st, [], self.q_op)
        n = st.needed
        if len(st.mine) >= n and len(st.theirs) >= n:
            a = side_key(st.mine, n, st.fog, self.sit.ruleset)
            b = side_key(st.theirs, n, st.fog, self.sit.ruleset)
            return 1.0 if a > b else 0.0 if a < b else 1.0 - (st.first_complete or 0)
        win = 0.0
        for i, p in enumerate(mine):
            win += p * (sum(theirs[i + 1 :]) + 0.5 * theirs[i])
        return win

    def value(self, stones: list[StoneState], hand: list[Card]) -> float:
        total = 0.0
        for i, st in enumerate(stones):
            w = POSITION[i]
            for j in (i - 1, i + 1):
                if 0 <= j < len(stones) and stones[j].owner is not None:
                    w *= NEAR_WON if stones[j].owner == 0 else NEAR_LOST
            total += w * self.stone(st, hand)
        return total


def _after(sit: Situation, move: PlayCard) -> tuple[list[StoneState], list[Card]]:
    stones = list(sit.stones)
    old = stones[move.stone - 1]
    stones[move.stone - 1] = StoneState(
        [*old.mine, move.card], list(old.theirs), old.owner, old.fog, old.mud, old.first_complete
    )
    hand = list(sit.hand)
    hand.remove(move.card)
    return stones, hand


def choose(view: PlayerView, rng: random.Random) -> Move:
    moves = view.legal_moves()
    claims = [m for m in moves if isinstance(m, Claim)]
    if claims:
        return min(claims, key=lambda m: m.stone)
    if len(moves) == 1:
        return moves[0]
    sit = from_view(view)
    if all(isinstance(m, Draw) for m in moves):
        decks = {m.deck: m for m in moves if isinstance(m, Draw)}
        mine, theirs = sit.tactics_played
        if "tactic" in decks and not any(c.is_tactic for c in sit.hand) and mine <= theirs:
            return decks["tactic"]
        return decks.get("clan") or next(iter(decks.values()))
    returns = [m for m in moves if isinstance(m, ScoutReturn)]
    if returns:  # put back the two lowest clan cards
        return min(returns, key=lambda m: (sum(c.value or 20 for c in m.cards), str(m)))
    board = _Board(sit)
    plays = [m for m in moves if isinstance(m, PlayCard) and (type(m.card) is ClanCard or is_joker(m.card))]
    scored = []
    for m in plays:
        stones, hand = _after(sit, m)
        score = board.value(stones, hand)
        if is_joker(m.card):
            st = stones[m.stone - 1]
            complete = len(st.mine) >= st.needed
            if not complete or side_key(st.mine, st.needed, st.fog, sit.ruleset) >> 6 < 2:
                score -= 1.0  # a joker is kept for a formation of a colour or better
        scored.append((score, str(m), m))
    if scored:
        base = board.value(sit.stones, sit.hand)
        best = max(scored)
        if best[0] <= base + 0.01:  # nothing gains: dump the lowest card where I am losing
            clan = [
                (c.value, board.stone(st, sit.hand), str(m), m)
                for m in plays
                if isinstance(c := m.card, ClanCard)
                for st in [sit.stones[m.stone - 1]]
            ]
            lost = [x for x in clan if x[1] < 0.15]
            if lost:
                return min(lost)[3]
        return best[2]
    others = [m for m in moves if not isinstance(m, Pass) and not isinstance(m, Draw)]
    tactic_plays = [m for m in others if not (isinstance(m, PlayCard) and isinstance(m.card, TacticCard))]
    if others:
        pool = tactic_plays or others
        return sorted(pool, key=str)[rng.randrange(len(pool))]
    return moves[0]

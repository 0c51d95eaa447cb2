"""Determinized Monte Carlo search for the play decision.

Each iteration deals the unseen clan cards at random into the opponent's hand and the
deck (a *determinization*: one world consistent with what the AI sees), applies one
candidate move, and plays the game out on a light simulator with a cheap "fit" policy
for both sides. The root is a UCB1 bandit over the heuristic's best candidates, primed
with the heuristic's scores, so the search only has to correct the heuristic where
playing on shows it wrong. Sampling a new world every iteration averages over the hidden
cards instead of trusting one guess (the information-set idea, at depth one).

The simulator is deliberately simpler than the engine: no claims during the rollout, no
tactic cards after the root move; at the end every stone is decided by comparison
(ties to the side completed first) and the game by three adjacent stones, else by count.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rules.ai.heuristic import Evaluator, ranked_moves
from rules.ai.situation import Situation, StoneState, side_key
from rules.cards import Card, ClanCard
from rules.moves import Move


@dataclass(frozen=True)
class Budget:
    """How long to think: iterations (deterministic), with an optional wall-clock cap."""

    iterations: int = 600
    seconds: float | None = None
    candidates: int = 8


class _Sim:
    """Two hands, a deck, and the open stones; just enough to play out a game."""

    __slots__ = ("deck", "done", "fog", "hands", "need", "owner", "ruleset", "sides", "step")

    def __init__(
        self, sit: Situation, stones: list[StoneState], hands: list[list[ClanCard]], deck: list[ClanCard]
    ) -> None:
        self.ruleset = sit.ruleset
        self.sides = [[list(st.mine) for st in stones], [list(st.theirs) for st in stones]]
        self.owner = [st.owner for st in stones]
        self.need = [st.needed for st in stones]
        self.fog = [st.fog for st in stones]
        # Completion order breaks ties; sides complete before the search: as the view says.
        self.done = [[0] * len(stones), [0] * len(stones)]
        for i, st in enumerate(stones):
            if st.first_complete is not None:
                self.done[1 - st.first_complete][i] = 1
        self.hands = hands
        self.deck = deck
        self.step = 2

    def rollout(self, player: int, rng: random.Random) -> float:
        """Play to the end with ``player`` to move; my (player 0's) score in [0, 1]."""
        sides, owner, need, hands, deck = self.sides, self.owner, self.need, self.hands, self.deck
        nstones = len(owner)
        # Per player: the stones with room, and each side's card mask (the fit memo's key).
        room = [
            [s for s in range(nstones) if owner[s] is None and len(sides[p][s]) < need[s]] for p in (0, 1)
        ]
        masks = [[sum(1 << c.id for c in side) for side in sides[p]] for p in (0, 1)]
        memo = _FIT
        passes = 0
        while passes < 2:
            hand = hands[player]
            open_ = room[player]
            if not hand or not open_:
                passes += 1
                player ^= 1
                continue
            passes = 0
            mine, mask = sides[player], masks[player]
            n = len(hand)
            if n > 2:  # two random cards, each to its best stone: cheap and not blind
                i = rng.randrange(n)
                j = rng.randrange(n - 1)
                picks: tuple[int, ...] = (i, j + 1 if j >= i else j)
            else:
                picks = tuple(range(n))
            best = -1.0
            best_i = best_s = 0
            for i in picks:
                card = hand[i]
                cid = card.id
                for s in open_:
                    key = ((mask[s] << 7 | cid) << 1) | (need[s] == 4)
                    f = memo.get(key)
                    if f is None:
                        f = memo[key] = _fit(card, mine[s], need[s])
                    if f > best:
                        best, best_i, best_s = f, i, s
            if rng.random() < 0.1:  # a little noise keeps the playouts varied
                best_s = open_[rng.randrange(len(open_))]
            card = hand.pop(best_i)
            side = mine[best_s]
            side.append(card)
            mask[best_s] |= 1 << card.id
            if len(side) >= need[best_s]:
                self.done[player][best_s] = self.step
                open_.remove(best_s)
            self.step += 1
            if deck:
                hand.append(deck.pop())
            player ^= 1
        return self.score()

    def score(self) -> float:
        owners = list(self.owner)
        sides, need, fog, done = self.sides, self.need, self.fog, self.done
        for s, o in enumerate(owners):
            if o is not None:
                continue
            a, b, n = sides[0][s], sides[1][s], need[s]
            fa, fb = len(a) >= n, len(b) >= n
            if fa and fb:
                ka, kb = side_key(a, n, fog[s], self.ruleset), side_key(b, n, fog[s], self.ruleset)
                if ka != kb:
                    owners[s] = 0 if ka > kb else 1
                else:
                    owners[s] = 0 if done[0][s] <= done[1][s] else 1
            elif fa or fb:
                owners[s] = 0 if fa else 1
        adjacent = [False, False]
        streak = [0, 0]
        for o in owners:
            for p in (0, 1):
                streak[p] = streak[p] + 1 if o == p else 0
                if streak[p] >= 3:
                    adjacent[p] = True
        c0, c1 = owners.count(0), owners.count(1)
        if adjacent[0] != adjacent[1]:
            won = 1.0 if adjacent[0] else 0.0
        else:
            won = 1.0 if c0 > c1 else 0.0 if c1 > c0 else 0.5
        # Mostly the result, a little the stone margin: less noise per playout.
        return 0.85 * won + 0.15 * (c0 - c1 + 9) / 18


_FIT: dict[int, float] = {}  # fit by (side mask, card, Mud): the same few thousand pairs recur


def _fit(card: ClanCard, side: list[Card], need: int) -> float:
    """How well a card fits a side: continuing a formation > opening > junk."""
    v = card.value
    clan = [c for c in side if isinstance(c, ClanCard)]
    if not clan:
        return 1.5 + 0.1 * v if not side else 4.0 + 0.1 * v  # beside a joker: fine
    colour = card.colour
    same_colour = True
    same_value = True
    lo = hi = v
    for c in clan:
        if c.colour != colour:
            same_colour = False
        cv = c.value
        if cv != v:
            same_value = False
        lo = cv if cv < lo else lo
        hi = cv if cv > hi else hi
    distinct = len({c.value for c in clan}) == len(clan) and all(c.value != v for c in clan)
    run = distinct and hi - lo <= need - 1
    if run and same_colour:
        return 6.0 + 0.1 * v
    if same_value:
        return 5.0 + 0.1 * v
    if same_colour:
        return 3.5 + 0.1 * v
    if run:
        return 2.5 + 0.1 * v
    return (1.2 if len(clan) >= 2 else 0.5) + 0.1 * v


def _deal(sit: Situation, rng: random.Random) -> tuple[list[ClanCard], list[ClanCard]]:
    """One world: the opponent's clan cards and the clan deck (last = top)."""
    known = {c: depth for deck, depth, c in sit.known_deck if isinstance(c, ClanCard)}
    held = [c for c in sit.opp_known if isinstance(c, ClanCard) and c in sit.unseen_clan]
    free = [c for c in sit.unseen_clan if c not in known and c not in held]
    rng.shuffle(free)
    h = max(0, min(sit.opp_clan_in_hand - len(held), len(free)))
    opp, deck = held + free[:h], free[h:]
    for c, depth in sorted(known.items(), key=lambda kv: -kv[1]):
        deck.insert(max(0, len(deck) - depth), c)
    return opp, deck


def search(sit: Situation, rng: random.Random, budget: Budget) -> Move:
    """The best of the heuristic's candidates after ``budget`` playouts."""
    ranked = ranked_moves(sit)
    cands = [m for _, m in ranked[: budget.candidates]]
    if len(cands) == 1:
        return cands[0]
    scores = [s for s, _ in ranked[: budget.candidates]]
    ev = Evaluator(sit)
    afters = [ev.after(m) for m in cands]
    mean = sum(scores) / len(scores)
    # Prior: the heuristic's opinion is worth a few playouts.
    prior_n = 4
    n = [prior_n] * len(cands)
    w = [prior_n * min(0.9, max(0.1, 0.5 + 0.3 * (s - mean))) for s in scores]
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    for it in range(budget.iterations):
        if deadline is not None and it % 16 == 0 and time.perf_counter() > deadline:
            break
        total = sum(n)
        log_total = math.log(total)
        i = max(range(len(cands)), key=lambda j: w[j] / n[j] + 0.5 * math.sqrt(log_total / n[j]))
        after = afters[i]
        if after is None:  # not a board move (Scout, pass): play on from the board as is
            stones, hand = sit.stones, sit.hand
        else:
            stones, hand = after[0], after[1]
        opp, deck = _deal(sit, rng)
        mine = [c for c in hand if isinstance(c, ClanCard)]
        if deck:
            mine.append(deck.pop())  # my draw after the play
        sim = _Sim(sit, stones, [mine, opp], deck)
        w[i] += sim.rollout(1, rng)
        n[i] += 1
    best = max(range(len(cands)), key=lambda j: (n[j], w[j] / n[j], -j))
    return cands[best]

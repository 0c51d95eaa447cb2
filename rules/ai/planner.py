"""The ``one-ply`` player (and ``easy``): one ply, maximising the model's chance to win.

Every legal move is applied to the table (tactic cards included, through the same edits
as the old heuristic, :meth:`rules.ai.heuristic.Evaluator.after`) and valued by
:class:`rules.ai.model.Model`: the chance to win the game from the nine stones' chances,
plus a little of their mean (so that a stone gained still counts when the game looks
decided either way), less a small cost for a tactic card spent (it lets the opponent play
one). Draws follow the shared rule (:func:`rules.ai.heuristic.draw_choice`); Scout's
returns keep the cards the model values most.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from rules.ai import heuristic, learned
from rules.ai.model import Model, game_chance
from rules.ai.situation import Situation, StoneState
from rules.cards import Card, Tactic, TacticCard
from rules.moves import Claim, Move, Scout, ScoutReturn

__all__ = ["STONE_WEIGHT", "TACTIC_COST", "LearnedMoveValues", "MoveValues", "choose", "ranked_moves"]

#: Weight of the stones' mean chance next to the chance to win the game.
STONE_WEIGHT = 0.25
#: A tactic card played lets the opponent play one: spend them where they matter.
TACTIC_COST = 0.02


class MoveValues:
    """The model's value of every move of one decision (shared by one-ply, the search, hints)."""

    def __init__(self, sit: Situation) -> None:
        self.sit = sit
        self.model = Model(sit)
        self._edit = heuristic.Evaluator(sit)

    def board(self, stones: Sequence[StoneState], hand: Sequence[Card]) -> tuple[float, list[float]]:
        ps = self.model.stones(stones, hand)
        return game_chance(ps) + STONE_WEIGHT * sum(ps) / len(ps), ps

    def value(self, move: Move) -> float:
        if isinstance(move, Claim):
            return 1e9
        res = self._edit.after(move)
        if res is not None:
            stones, hand, cost = res
            return self.board(stones, hand)[0] - (TACTIC_COST if cost else 0.0)
        hand = self.sit.hand
        if isinstance(move, Scout):
            hand = [c for c in hand if not (isinstance(c, TacticCard) and c.tactic is Tactic.SCOUT)]
            return self.board(self.sit.stones, hand)[0] + 0.01 - TACTIC_COST
        return self.board(self.sit.stones, hand)[0]  # pass, draws


class LearnedMoveValues(MoveValues):
    """The learned evaluation's value of every move (:mod:`rules.ai.learned`): the
    position after it from the viewer's side, the opponent to move. A tactic card spent
    leaves the hand and counts as played, so what holding it was worth is the fit's,
    not a set cost."""

    def value(self, move: Move) -> float:
        if isinstance(move, Claim):
            return 1e9
        sit = self.sit
        res = self._edit.after(move)
        if res is not None:
            stones, hand, cost = res
            spent = cost > 0
        else:
            stones, hand = sit.stones, list(sit.hand)
            spent = isinstance(move, Scout)
            if spent:
                hand.remove(TacticCard(Tactic.SCOUT))
        mine, theirs = sit.tactics_played
        after = replace(sit, stones=stones, hand=hand, tactics_played=(mine + spent, theirs))
        return learned.situation_value(after, my_turn=False, model=self.model)


def ranked_moves(sit: Situation, moves: list[Move] | None = None) -> list[tuple[float, Move]]:
    """Every legal move with the model's value, best first (ties by notation)."""
    moves = sit.legal if moves is None else moves
    mv = MoveValues(sit)
    scored = [(mv.value(m), m) for m in moves]
    scored.sort(key=lambda sm: (-sm[0], str(sm[1])))
    return scored


def _best_return(sit: Situation, moves: list[ScoutReturn]) -> Move:
    mv = MoveValues(sit)

    def value(m: ScoutReturn) -> float:
        hand = list(sit.hand)
        for c in m.cards:
            hand.remove(c)
        return mv.board(sit.stones, hand)[0] + 0.02 * sum(1 for c in hand if c.is_tactic)

    return max(moves, key=lambda m: (value(m), str(m)))


def choose(sit: Situation, rng: random.Random, *, noise: float = 0.0) -> Move:
    """The model's move. ``noise`` > 0 sometimes picks one of the better moves (easy)."""
    moves = sit.legal
    settled = heuristic.settled_choice(sit, moves)
    if settled is not None:
        return settled
    returns = [m for m in moves if isinstance(m, ScoutReturn)]
    if returns:
        return _best_return(sit, returns)
    ranked = ranked_moves(sit, moves)
    if noise > 0 and rng.random() < noise:
        return ranked[rng.randrange(min(len(ranked), 6))][1]
    return ranked[0][1]

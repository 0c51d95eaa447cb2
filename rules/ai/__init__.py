"""AI players: random, heuristic and a determinized Monte Carlo search.

The one entry point for the bot and the terminal game::

    move = choose_move(game.view(player), level="hard", seed=seed)

It sees only the :class:`~rules.view.PlayerView` (never the opponent's hand), is pure
(no I/O, no global state) and picklable end to end, so the bot can run it in a
``ProcessPoolExecutor`` via ``loop.run_in_executor(pool, partial(choose_move, view,
level=..., seed=...))``. The same view, level, seed and an iteration budget give the same
move. Claims are always taken when provable (they are free), and every phase is handled:
draws, Scout draws and returns, passes.

Levels, weakest first: ``random``; ``easy`` (the heuristic with the odd slip);
``medium`` (the heuristic); ``hard`` (search over the heuristic's candidates, ~1 s cap).
"""

from __future__ import annotations

import enum
import random
import zlib
from dataclasses import dataclass, replace

from rules.ai import heuristic, mcts, random_player
from rules.ai.mcts import Budget
from rules.ai.situation import Situation, from_view
from rules.moves import Claim, Move, PlayCard, Redeploy
from rules.view import PlayerView

__all__ = ["LEVELS", "AIPlayer", "Budget", "Level", "choose_move", "parse_level"]


class Level(enum.StrEnum):
    RANDOM = "random"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    def __str__(self) -> str:
        return self.value


LEVELS: tuple[str, ...] = tuple(level.value for level in Level)
#: Default search budget of ``hard``: deterministic iterations, wall-clock cap for safety.
HARD_BUDGET = Budget(iterations=1200, seconds=1.2, candidates=8)


def parse_level(level: Level | str) -> Level:
    try:
        return Level(str(level).strip().lower())
    except ValueError:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}") from None


def _seed_from(view: PlayerView) -> int:
    """A seed that depends on the position only (Python's str hash is salted per process)."""
    text = f"{view.version}|{view.player}|{' '.join(map(str, view.hand))}|" + "|".join(
        " ".join(map(str, st.sides[0] + st.sides[1])) for st in view.stones
    )
    return zlib.crc32(text.encode())


def choose_move(
    view: PlayerView,
    *,
    level: Level | str = Level.HARD,
    seed: int | None = None,
    budget: Budget | int | float | None = None,
) -> Move:
    """The AI's move for the viewer of ``view`` (whose turn it must be).

    ``seed`` None: derived from the position, so the choice is still reproducible.
    ``budget`` (search levels): a :class:`Budget`, an int (iterations) or a float
    (seconds; not reproducible, the number of playouts varies with the machine).
    """
    lvl = parse_level(level)
    moves = view.legal_moves()
    if not moves:
        raise ValueError("no legal move: it is not this player's turn or the game is over")
    rng = random.Random(_seed_from(view) if seed is None else seed)
    if lvl is Level.RANDOM:
        return random_player.choose(moves, rng)
    claims = [m for m in moves if isinstance(m, Claim)]
    if claims:  # free and final: take every provable stone, lowest first
        return min(claims, key=lambda m: m.stone)
    if len(moves) == 1:
        return moves[0]
    sit = from_view(view)
    if lvl is Level.EASY:
        return heuristic.choose(sit, rng, noise=0.6)
    if lvl is Level.MEDIUM or not _is_play_decision(sit):
        return heuristic.choose(sit, rng)
    return mcts.search(sit, rng, _budget(budget))


def _is_play_decision(sit: Situation) -> bool:
    return sit.phase == "play" and any(isinstance(m, (PlayCard, Redeploy)) for m in sit.legal)


def _budget(budget: Budget | int | float | None) -> Budget:
    if budget is None:
        return HARD_BUDGET
    if isinstance(budget, Budget):
        return budget
    if isinstance(budget, bool):
        raise TypeError("budget must be a Budget, an int (iterations) or a float (seconds)")
    if isinstance(budget, int):
        return replace(HARD_BUDGET, iterations=budget, seconds=None)
    return replace(HARD_BUDGET, iterations=10**9, seconds=float(budget))


@dataclass
class AIPlayer:
    """A player object for loops (terminal, benchmark): one seed, a move per view."""

    level: Level | str = Level.HARD
    seed: int | None = None
    budget: Budget | int | float | None = None

    def choose(self, view: PlayerView) -> Move:
        seed = None if self.seed is None else self.seed * 1_000_003 + view.version
        return choose_move(view, level=self.level, seed=seed, budget=self.budget)

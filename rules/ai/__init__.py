"""AI players: random, heuristics, two baselines of their own style, and a search.

The one entry point for the bot and the terminal game::

    move = choose_move(game.view(player), level="hard", seed=seed)

It sees only the :class:`~rules.view.PlayerView` (never the opponent's hand), is pure
(no I/O, no global state) and picklable end to end, so the bot can run it in a
``ProcessPoolExecutor`` via ``loop.run_in_executor(pool, partial(choose_move, view,
level=..., seed=...))``. The same view, level, seed and an iteration budget give the same
move on any machine. Every phase is handled: draws, Scout draws and returns, passes.

Levels offered to players (:data:`LEVELS`), weakest first: ``random``; ``easy`` (one ply
on the probability model of the table, :mod:`rules.ai.model`, :mod:`rules.ai.planner`,
with the odd slip); ``medium`` (the search below on a quarter of hard's budget, over the
six moves the model ranks best); ``hard`` (determinized Monte Carlo search over every
legal move, ranked together with the model's value of the move; without tactic cards its
playouts stop after three turns and the model values their ends; see
:mod:`rules.ai.mcts` and docs/ai.md). More players for measurement (:data:`PLAYERS`): the
baselines ``greedy`` and ``sniper`` (:mod:`rules.ai.baselines`) and ``probability``
(:mod:`rules.ai.probability`), ``one-ply`` (the planner without slips), and the levels as
they were before the model, ``medium-old`` (:mod:`rules.ai.heuristic`) and ``hard-old``,
and ``medium-learned`` and ``hard-learned``, the levels' searches with the evaluation
fitted to self-play (:mod:`rules.ai.learned`) in the model's place, which no level uses yet.

:func:`hint` is the hard AI's suggestion with a reason a learner can read, as a code and
parameters (:data:`REASONS`) that the bot and the terminal translate.
"""

from __future__ import annotations

import enum
import random
import zlib
from dataclasses import dataclass, field, replace
from typing import Any

from rules.ai import baselines, heuristic, mcts, model, planner, probability, random_player
from rules.ai.mcts import Budget, SearchResult
from rules.ai.situation import from_view
from rules.cards import Tactic, TacticCard, is_joker
from rules.formations import Formation
from rules.moves import Claim, Deserter, Draw, Move, Pass, PlayCard, Redeploy, Scout, ScoutReturn, Traitor
from rules.view import PlayerView

__all__ = [
    "HARD_BUDGET",
    "LEVELS",
    "MEDIUM_CANDIDATES",
    "MEDIUM_SHARE",
    "PLAYERS",
    "PLAYOUT_BUDGET",
    "REASONS",
    "AIPlayer",
    "Budget",
    "Decision",
    "Hint",
    "Level",
    "choose_move",
    "decide",
    "hint",
    "parse_level",
]


class Level(enum.StrEnum):
    RANDOM = "random"
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    GREEDY = "greedy"
    SNIPER = "sniper"
    PROBABILITY = "probability"
    ONE_PLY = "one-ply"
    MEDIUM_OLD = "medium-old"
    HARD_OLD = "hard-old"
    MEDIUM_LEARNED = "medium-learned"
    HARD_LEARNED = "hard-learned"

    def __str__(self) -> str:
        return self.value


#: The levels players choose from (the bot's practice menu), weakest first.
LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")
#: Every player ``choose_move`` knows: the levels, the three baselines, ``one-ply`` (the
#: model's one-ply maximiser that ``easy`` slips from), and the levels as they were
#: before the probability model (``medium-old``, ``hard-old``), kept to measure against.
#: ``medium-learned`` and ``hard-learned`` are the levels' searches with the learned
#: evaluation (rules.ai.learned) in the model's place, to measure before any level uses it.
PLAYERS: tuple[str, ...] = (
    *LEVELS,
    "greedy",
    "sniper",
    "probability",
    "one-ply",
    "medium-old",
    "hard-old",
    "medium-learned",
    "hard-learned",
)
#: Default search budget of ``hard`` without tactic cards: playouts (deterministic) of
#: three turns each, their ends valued by the model; the wall-clock cap only guards
#: against a pathological position, and benchmarks count how often it fires. ``medium``
#: takes a quarter of it over the six moves the probability model ranks best
#: (docs/ai.md, "medium").
HARD_BUDGET = Budget(iterations=200, seconds=3.0, leaf_plies=3)
#: The search with playouts to the end of the game: ``hard``'s with tactic cards (the
#: model does not value a tactic card held, and three turns cut off what it does later;
#: short playouts lost there, docs/ai.md; ``medium`` takes a quarter of it), and
#: ``hard-old``'s.
PLAYOUT_BUDGET = Budget(iterations=800, seconds=3.0)
MEDIUM_SHARE = 4
MEDIUM_CANDIDATES = 6


def parse_level(level: Level | str) -> Level:
    try:
        return Level(str(level).strip().lower())
    except ValueError:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(PLAYERS)}") from None


def _seed_from(view: PlayerView) -> int:
    """A seed that depends on the position only (Python's str hash is salted per process)."""
    text = f"{view.version}|{view.player}|{' '.join(map(str, view.hand))}|" + "|".join(
        " ".join(map(str, st.sides[0] + st.sides[1])) for st in view.stones
    )
    return zlib.crc32(text.encode())


@dataclass
class Decision:
    """A move and how it was found: ``iterations`` playouts (0: no search), ``capped``
    when the wall-clock cap stopped the search."""

    move: Move
    iterations: int = 0
    capped: bool = False
    search: SearchResult | None = None


def decide(
    view: PlayerView,
    *,
    level: Level | str = Level.HARD,
    seed: int | None = None,
    budget: Budget | int | float | None = None,
) -> Decision:
    """:func:`choose_move` with the search's figures (for benchmarks and hints)."""
    lvl = parse_level(level)
    moves = view.legal_moves()
    if not moves:
        raise ValueError("no legal move: it is not this player's turn or the game is over")
    rng = random.Random(_seed_from(view) if seed is None else seed)
    if lvl is Level.RANDOM:
        return Decision(random_player.choose(moves, rng))
    if lvl is Level.GREEDY:
        return Decision(baselines.greedy(view, rng))
    if lvl is Level.SNIPER:
        return Decision(baselines.sniper(view, rng))
    if lvl is Level.PROBABILITY:
        return Decision(probability.choose(view, rng))
    claims = [m for m in moves if isinstance(m, Claim)]
    if claims:  # free and final: take every provable stone, lowest first
        return Decision(min(claims, key=lambda m: m.stone))
    if len(moves) == 1:
        return Decision(moves[0])
    if lvl is Level.EASY:
        return Decision(planner.choose(from_view(view), rng, noise=0.6))
    if lvl is Level.MEDIUM_OLD or (lvl is Level.HARD_OLD and view.phase in ("scout_draw", "scout_return")):
        return Decision(heuristic.choose(from_view(view), rng))
    if lvl is Level.ONE_PLY or view.phase in ("scout_draw", "scout_return"):
        return Decision(planner.choose(from_view(view), rng))
    fitted = lvl in (Level.HARD_LEARNED, Level.MEDIUM_LEARNED)
    prior = "heuristic" if lvl is Level.HARD_OLD else "learned" if fitted else "model"
    short = lvl in (Level.HARD, Level.MEDIUM) and not view.options.tactics
    if fitted:  # short playouts in every configuration, unless set to 0 (to the end)
        short = mcts.LEARNED_LEAF_PLIES > 0
        default = replace(HARD_BUDGET, leaf_plies=mcts.LEARNED_LEAF_PLIES) if short else PLAYOUT_BUDGET
        spend = _budget(budget, default)
    else:
        spend = _budget(budget, HARD_BUDGET if short else PLAYOUT_BUDGET)
    if lvl in (Level.MEDIUM, Level.MEDIUM_LEARNED):
        iterations = max(1, spend.iterations // MEDIUM_SHARE)
        seconds = None if spend.seconds is None else spend.seconds / MEDIUM_SHARE
        spend = replace(spend, iterations=iterations, seconds=seconds, candidates=MEDIUM_CANDIDATES)
    result = mcts.search(view, rng, spend, prior=prior)
    return Decision(result.move, result.iterations, result.capped, result)


def choose_move(
    view: PlayerView,
    *,
    level: Level | str = Level.HARD,
    seed: int | None = None,
    budget: Budget | int | float | None = None,
) -> Move:
    """The AI's move for the viewer of ``view`` (whose turn it must be).

    ``seed`` None: derived from the position, so the choice is still reproducible.
    ``budget`` (search levels): a :class:`Budget`, an int (playouts) or a float
    (seconds; not reproducible, the number of playouts varies with the machine).
    """
    return decide(view, level=level, seed=seed, budget=budget).move


def _budget(budget: Budget | int | float | None, default: Budget) -> Budget:
    if budget is None:
        return default
    if isinstance(budget, Budget):
        return budget
    if isinstance(budget, bool):
        raise TypeError("budget must be a Budget, an int (iterations) or a float (seconds)")
    if isinstance(budget, int):
        return replace(default, iterations=budget)
    return replace(default, iterations=10**9, seconds=float(budget))


@dataclass
class AIPlayer:
    """A player object for loops (terminal, benchmark): one seed, a move per view."""

    level: Level | str = Level.HARD
    seed: int | None = None
    budget: Budget | int | float | None = None

    def choose(self, view: PlayerView) -> Move:
        seed = None if self.seed is None else self.seed * 1_000_003 + view.version
        return choose_move(view, level=self.level, seed=seed, budget=self.budget)


# --------------------------------------------------------------------------- hints

#: Every reason code :func:`hint` can give, with the parameters it carries.
REASONS: dict[str, tuple[str, ...]] = {
    "claim": ("stone",),  # this stone is provably yours: take it
    # A card played at a stone, with the model's chance (in percent) to win the stone after it.
    "completes_colour_run": ("card", "stone", "chance"),
    "completes_three_of_a_kind": ("card", "stone", "chance"),
    "completes_colour": ("card", "stone", "chance"),
    "completes_run": ("card", "stone", "chance"),
    "completes_sum": ("card", "stone", "chance"),
    # The strongest formation the side still reaches with a fair chance (rules.ai.model).
    "keeps_colour_run": ("card", "stone", "chance"),
    "keeps_three_of_a_kind": ("card", "stone", "chance"),
    "keeps_colour": ("card", "stone", "chance"),
    "keeps_run": ("card", "stone", "chance"),
    "opens_stone": ("card", "stone", "chance"),  # the first card at an empty side
    "dumps_card": ("card", "stone", "chance"),  # a weak card where it costs least
    "plays_joker": ("card", "stone", "chance"),
    "fog": ("stone",),  # Fog: only the sum counts there
    "mud": ("stone",),  # Mud: four cards needed there
    "traitor": ("card", "from_stone", "to_stone"),
    "deserter": ("card", "stone"),
    "redeploy": ("card", "from_stone", "to_stone"),  # to_stone None: discarded
    "scout": (),
    "scout_return": ("cards",),
    "draw_clan": (),
    "draw_tactic": (),
    "pass": (),
    "only_move": (),
}


@dataclass(frozen=True)
class Hint:
    """The hard AI's suggestion: ``move``, why (``reason`` from :data:`REASONS` with its
    ``params``: stones 1-9, cards as text), and the search's estimated chance to win
    after it (None when no search was needed)."""

    move: Move
    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    win_chance: float | None = None


def hint(view: PlayerView, *, seed: int | None = None, budget: Budget | int | float | None = None) -> Hint:
    """What the hard AI would play in ``view`` and why, for a learner."""
    d = decide(view, level=Level.HARD, seed=seed, budget=budget)
    chance = None
    if d.search is not None and d.move in d.search.stats:
        chance = round(d.search.stats[d.move][0], 2)
    reason, params = _reason(view, d.move, len(view.legal_moves()))
    return Hint(d.move, reason, params, chance)


_COMPLETES = {
    Formation.COLOUR_RUN: "completes_colour_run",
    Formation.THREE_OF_A_KIND: "completes_three_of_a_kind",
    Formation.COLOUR: "completes_colour",
    Formation.RUN: "completes_run",
    Formation.SUM: "completes_sum",
}
_KEEPS = {
    Formation.COLOUR_RUN: "keeps_colour_run",
    Formation.THREE_OF_A_KIND: "keeps_three_of_a_kind",
    Formation.COLOUR: "keeps_colour",
    Formation.RUN: "keeps_run",
}
#: A formation is "kept alive" by a card when the model gives the side at least this
#: chance of reaching it (or better).
KEEPS_ALIVE = 0.25


def _reason(view: PlayerView, move: Move, n_legal: int) -> tuple[str, dict[str, Any]]:
    if isinstance(move, Claim):
        return "claim", {"stone": move.stone}
    if n_legal == 1:
        return "only_move", {}
    if isinstance(move, Draw):
        return ("draw_tactic" if move.deck == "tactic" else "draw_clan"), {}
    if isinstance(move, Pass):
        return "pass", {}
    if isinstance(move, Scout):
        return "scout", {}
    if isinstance(move, ScoutReturn):
        return "scout_return", {"cards": [str(c) for c in move.cards]}
    if isinstance(move, Traitor):
        return "traitor", {"card": str(move.card), "from_stone": move.from_stone, "to_stone": move.to_stone}
    if isinstance(move, Deserter):
        return "deserter", {"card": str(move.card), "stone": move.stone}
    if isinstance(move, Redeploy):
        return "redeploy", {"card": str(move.card), "from_stone": move.from_stone, "to_stone": move.to_stone}
    assert isinstance(move, PlayCard)
    card, stone = move.card, move.stone
    if isinstance(card, TacticCard) and card.tactic is Tactic.FOG:
        return "fog", {"stone": stone}
    if isinstance(card, TacticCard) and card.tactic is Tactic.MUD:
        return "mud", {"stone": stone}
    sit = from_view(view)
    edit = heuristic.Evaluator(sit).after(move)
    assert edit is not None
    stones, hand, _ = edit
    world = model.Model(sit)
    after = stones[stone - 1]
    chance = round(100 * world.stone(after, hand))
    params = {"card": str(card), "stone": stone, "chance": chance}
    if len(after.mine) >= after.needed:
        key = world.mine(after, hand)[0][0]
        return _COMPLETES[Formation(max(0, key) >> 6)], params
    if is_joker(card):
        return "plays_joker", params
    if not sit.stones[stone - 1].mine:
        return "opens_stone", params
    if not after.fog:
        reach = 0.0
        for key, p in world.mine(after, hand):  # strongest first
            reach += p
            formation = Formation(max(0, key) >> 6)
            if formation is Formation.RUN and reach < KEEPS_ALIVE:
                break
            if reach >= KEEPS_ALIVE and formation in _KEEPS:
                return _KEEPS[formation], params
    return "dumps_card", params

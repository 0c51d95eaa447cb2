"""The small values the game and the view share: :class:`GameOptions`, :class:`Result`
(with :func:`match_points`) and the literal types of a phase, a result's reason and a
claim timing.

They live below both :mod:`rules.game` and :mod:`rules.view`, so that the view (a value
the game builds) never imports the game. :mod:`rules.game` re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from rules import errors
from rules.rulesets import Ruleset, get_ruleset

__all__ = [
    "REASONS",
    "ClaimTimingName",
    "GameOptions",
    "GivingUp",
    "Phase",
    "Reason",
    "Result",
    "TurnPhase",
    "match_points",
    "parse_reason",
]

ClaimTimingName = Literal["anytime", "turn-start"]
#: The phases of a turn: play a card (or pass), draw, and Scout's draws and return.
TurnPhase = Literal["play", "draw", "scout_draw", "scout_return"]
#: What ``Game.phase`` and ``PlayerView.phase`` say: a turn's phase, or "over".
Phase = Literal[TurnPhase, "over"]
#: Why a game ended (``Result.reason``): by the rules, or by an entry of the log that
#: is not a move ("resigned", "timeout", and, in a tournament, "withdrawn" when the
#: loser left it and "kicked" when its organiser removed them).
Reason = Literal["three_adjacent", "five_stones", "both_passed", "resigned", "timeout", "withdrawn", "kicked"]
REASONS: tuple[Reason, ...] = get_args(Reason)
#: The reasons of a player giving a game up (``Game.resign``, ``Game.withdraw``,
#: ``Game.kick``): a loss like any other, for ratings, standings and matches.
GivingUp = Literal["resigned", "withdrawn", "kicked"]


def parse_reason(text: str) -> Reason:
    """``text`` as a :data:`Reason`; raises :class:`~rules.errors.NotationError` when it
    names none."""
    for reason in REASONS:
        if text == reason:
            return reason
    raise errors.NotationError(text, what="result reason")


@dataclass(frozen=True, slots=True)
class GameOptions:
    """How a game is played. ``ruleset`` is stored by name (a Ruleset is accepted)."""

    ruleset: str = "schotten-totten"
    tactics: bool = False
    claim_timing: ClaimTimingName = "anytime"

    def __post_init__(self) -> None:
        object.__setattr__(self, "ruleset", get_ruleset(self.ruleset).name)
        if self.claim_timing not in ("anytime", "turn-start"):
            raise errors.NotationError(str(self.claim_timing), what="claim timing")

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset)

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "tactics": self.tactics, "claim_timing": self.claim_timing}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameOptions:
        return cls(d["ruleset"], bool(d["tactics"]), d["claim_timing"])


@dataclass(frozen=True, slots=True)
class Result:
    winner: int | None  # None: a draw
    reason: Reason
    stones: tuple[int, int]  # stones owned by player 0 and player 1

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "stones": list(self.stones)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        return cls(d["winner"], parse_reason(d["reason"]), (d["stones"][0], d["stones"][1]))


def match_points(result: Result) -> tuple[int, int]:
    """Match scoring: the winner scores 5, the loser 1 per stone owned. In a draw (both
    passed, equal stones) nobody won, so each scores 1 per stone owned."""
    points = [result.stones[0], result.stones[1]]
    if result.winner is not None:
        points[result.winner] = 5
    return (points[0], points[1])

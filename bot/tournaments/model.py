"""The value types of a tournament, and the time-out withdrawal rule.

Players are Discord user ids (``int``) throughout. Points are counted in half points
(``int``) inside the package, so nothing rounds: a win is 2, a draw 1, a loss 0, and a
bye 2 (a bye is a win).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal, get_args

from rules.values import Reason

__all__ = [
    "FORMATS",
    "Entrant",
    "Format",
    "GameResult",
    "History",
    "Pairing",
    "games_of",
    "withdrawn_for_timeouts",
]

Format = Literal["swiss", "round-robin", "knockout"]
FORMATS: tuple[Format, ...] = get_args(Format)

#: Half points for a win (a bye included), a draw and a loss.
WIN, DRAW, LOSS = 2, 1, 0


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament: seeded by ``rating`` (the server rating when they
    entered); a withdrawn player gets no further pairings."""

    user_id: int
    rating: float
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: ``white`` moves first; ``black`` is None for a bye."""

    round: int
    white: int
    black: int | None

    @property
    def is_bye(self) -> bool:
        return self.black is None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.white,) if self.black is None else (self.white, self.black)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: ``first`` moved first; ``winner`` is None for a draw."""

    round: int
    first: int
    second: int
    winner: int | None
    first_stones: int = 0
    second_stones: int = 0
    reason: Reason = "five_stones"

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise ValueError("a game needs two different players")
        if self.winner is not None and self.winner not in (self.first, self.second):
            raise ValueError(f"the winner {self.winner} did not play this game")

    def half_points(self, user_id: int) -> int:
        """What the game scored for ``user_id`` (one of its players), in half points."""
        if self.winner is None:
            return DRAW
        return WIN if self.winner == user_id else LOSS

    def opponent(self, user_id: int) -> int:
        return self.second if user_id == self.first else self.first

    def stones(self, user_id: int) -> int:
        return self.first_stones if user_id == self.first else self.second_stones


@dataclass(frozen=True, slots=True)
class History:
    """What a Swiss pairing looks back on: the finished games and the byes given."""

    results: tuple[GameResult, ...] = ()
    byes: tuple[Pairing, ...] = ()

    def __post_init__(self) -> None:
        if any(not bye.is_bye for bye in self.byes):
            raise ValueError("History.byes holds only byes")


def games_of(results: Iterable[GameResult], user_id: int) -> list[GameResult]:
    """``user_id``'s games in the order played (by round; within a round, as given)."""
    mine = [r for r in results if user_id in (r.first, r.second)]
    return sorted(mine, key=lambda r: r.round)  # stable: a knockout tie's games keep their order


def withdrawn_for_timeouts(results: Sequence[GameResult], user_id: int) -> bool:
    """True when ``user_id`` lost two of their games in a row on time (reason
    ``"timeout"``), anywhere in ``results``: such a player is withdrawn. A bye between
    the two games does not break the row (it is not a game)."""
    lost_on_time = [
        r.reason == "timeout" and r.winner is not None and r.winner != user_id
        for r in games_of(results, user_id)
    ]
    return any(a and b for a, b in pairwise(lost_on_time))

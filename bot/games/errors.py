"""Errors the game service raises for requests it refuses.

Like the engine's ``rules.errors.RulesError``, each carries a stable ``code`` and its
``params``; ``bot/text/catalogue.py`` translates them by ``code``. ``str(error)`` is plain English
for logs and tests. Messages name game ids and user ids only, never cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class GameRef(Protocol):
    """What an error needs of a live game (``bot/games/live.py``'s ``LiveGame``)."""

    @property
    def id(self) -> int: ...

    def opponent_of(self, user_id: int) -> int | None: ...


@dataclass(frozen=True)
class UserRef:
    """A user named in an error: the reply shows their display name, which the
    service does not know (``cogs/ui/replies.py`` resolves it)."""

    id: int

    def __str__(self) -> str:
        return f"#{self.id}"


@dataclass(frozen=True)
class TypedText:
    """Text a member typed (a tournament's name) named in an error: the reply escapes
    it for where it goes (``cogs/ui/replies.py``)."""

    text: str

    def __str__(self) -> str:
        return self.text


class ServiceError(Exception):
    code = "service_error"
    template = "That request cannot be done."

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        if code is not None:
            self.code = code
        self.params = params
        super().__init__(self.template.format(**params))


class GameNotFound(ServiceError):
    code = "game_not_found"
    template = "There is no game #{game_id}."

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)


class NotAPlayer(ServiceError):
    code = "not_a_player"
    template = "You are not playing in game #{game_id}."

    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(game_id=game_id, user_id=user_id)


class GameFinished(ServiceError):
    code = "game_finished"
    template = "Game #{game_id} is already over."

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)


class StaleControl(ServiceError):
    """A button or select from an earlier position: the move it meant was already made
    (often: the same click arrived twice) or the game has moved on since."""

    code = "stale_control"
    template = "Game #{game_id} has moved on since this was shown (move {expected}, now {actual})."

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(game_id=game_id, expected=expected, actual=actual)


class GameUnreadable(ServiceError):
    """The stored game could not be loaded: a storage problem, not the user's."""

    code = "game_unreadable"
    template = "Game #{game_id} could not be read from storage."

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)


class MoveNotSaved(ServiceError):
    """The database failed during the move's commit, and reading the game back showed
    that the move was not stored: nothing changed, the member may simply try again."""

    code = "move_not_saved"
    template = "Game #{game_id}: the move was not saved; nothing changed."

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)


class MoveUnconfirmed(ServiceError):
    """The database failed during the move's commit and could not be read back: the
    move may or may not be stored. The reply must not claim either."""

    code = "move_unconfirmed"
    template = "Game #{game_id}: could not confirm whether the move was saved."

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)


class AmbiguousGame(ServiceError):
    """The caller has several active games and named none; ``games`` lists them."""

    code = "ambiguous_game"
    template = "You have several games going ({game_ids}); say which one."

    def __init__(self, games: Sequence[GameRef]) -> None:
        self.games = list(games)
        ids = ", ".join(f"#{g.id}" for g in self.games)
        super().__init__(game_ids=ids, count=len(self.games))


class NoActiveGame(ServiceError):
    code = "no_active_game"
    template = "You have no game going."

    def __init__(self, user_id: int) -> None:
        super().__init__(user_id=user_id)


class LimitReached(ServiceError):
    """A member is over one of the operator's limits (``MAX_PRACTICE_GAMES``,
    ``HINTS_PER_MINUTE``, ``MAX_OPEN_CHALLENGES``, ``MAX_CHANNEL_CHALLENGES``,
    ``RECHALLENGE_COOLDOWN``). ``code`` names the limit (``limit_...``); ``params`` hold
    the limit and when it frees, for the reply. Nothing was changed."""

    code = "limit_reached"
    template = "Over the limit {limit}."

    def __init__(self, code: str, /, **params: Any) -> None:
        params.setdefault("limit", "")
        super().__init__(code, **params)


__all__ = [
    "AmbiguousGame",
    "GameFinished",
    "GameNotFound",
    "GameRef",
    "GameUnreadable",
    "LimitReached",
    "MoveNotSaved",
    "MoveUnconfirmed",
    "NoActiveGame",
    "NotAPlayer",
    "ServiceError",
    "StaleControl",
    "TypedText",
    "UserRef",
]

"""``Storage``: the typed storage API that every backend implements.

Two backends implement it: ``Database`` (SQLite through aiosqlite, the default, one
bot process per database file) and ``PostgresDatabase`` (PostgreSQL through asyncpg,
for several processes on one database). Both inherit every query from ``SqlStorage``
(``queries.py``) and return the row types of ``rows.py`` (``GameRow``, ``ResultRow``,
...); ``tests/bot/test_storage_api.py`` checks that their public methods are this
protocol's, with the same signatures.

Contracts every backend keeps:

- ``async with storage.transaction():`` commits everything inside together or nothing.
  Methods awaited inside it by the same task are part of it; transactions do not nest
  (a second ``transaction()`` in the same task raises ``RuntimeError``). Outside a
  transaction each method is atomic on its own.
- ``save_game_state(expected_version=...)`` is a compare-and-set: if the stored game is
  not at ``expected_version`` (another writer, possibly another process, got there
  first) it raises ``ConcurrentUpdate`` and the transaction rolls back.
- ``migrate()`` brings the schema to ``latest_version()``; both backends share the
  version numbers of ``migrations/NNN_*.sql`` (SQLite) and ``migrations/postgres/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, Self

from bot.storage.errors import DatabaseInUse, StorageError
from bot.storage.rows import (
    UNSET,
    ChallengeRow,
    ChallengeStatus,
    GameRow,
    GameStatus,
    LanguageScope,
    MatchRow,
    MoveRow,
    OutboxKind,
    OutboxRow,
    RatingRow,
    ResultRow,
    Unset,
)

__all__ = ["POSTGRES_SCHEMES", "DatabaseInUse", "Storage", "StorageError", "is_postgres_url"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Storage(Protocol):
    """What the service, the cogs and the stats module may ask of the database."""

    @property
    def path(self) -> str:
        """Where the data is, for messages: a file path, or a URL without its password."""
        ...

    @property
    def is_open(self) -> bool: ...

    # -- lifecycle and migrations ----------------------------------------------------

    async def connect(self) -> None: ...
    async def close(self) -> None: ...
    async def __aenter__(self) -> Self: ...
    async def __aexit__(self, *exc: object) -> None: ...
    async def schema_version(self) -> int: ...
    async def migrate(self, target: int | None = None) -> int: ...
    def transaction(self) -> AbstractAsyncContextManager[Storage]: ...

    # -- meta, players ---------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None: ...
    async def set_meta(self, key: str, value: str) -> None: ...
    async def delete_meta(self, key: str) -> None: ...
    async def meta_keys(self, prefix: str) -> list[str]: ...
    async def ensure_players(self, user_ids: Iterable[int], now: float) -> None: ...

    # -- games -----------------------------------------------------------------------

    async def insert_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: Mapping[str, Any],
        seed: int,
        first_player: int,
        match_id: int | None,
        state: Mapping[str, Any],
        version: int,
        now: float,
        deadline: float | None,
        ai_player: int | None = None,
        ai_level: str | None = None,
    ) -> int: ...
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def active_games(self, user_id: int) -> list[GameRow]: ...
    async def all_active_games(self) -> list[GameRow]: ...
    async def save_game_state(
        self,
        game_id: int,
        *,
        expected_version: int,
        version: int,
        state: Mapping[str, Any],
        status: GameStatus,
        turn_started_at: float | None,
        deadline: float | None,
        reminded: bool,
        now: float,
    ) -> None: ...
    async def set_message_ids(
        self,
        game_id: int,
        *,
        board_message_id: int | Unset | None = UNSET,
        dm_message_ids: Mapping[int, int | None] | None = None,
    ) -> None: ...
    async def games_due(self, now: float) -> list[GameRow]: ...
    async def games_to_remind(self, now: float, after: float) -> list[GameRow]: ...
    async def mark_reminded(self, game_id: int, version: int) -> bool: ...
    async def get_ping_message_id(self, game_id: int) -> int | None: ...
    async def set_ping_message_id(self, game_id: int, message_id: int | None) -> None: ...

    # -- DMs -------------------------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool: ...
    async def set_dm_closed(self, user_id: int, closed: bool, *, now: float) -> None: ...
    async def language(self, scope: LanguageScope, scope_id: int) -> tuple[str | None, str | None]: ...
    async def set_language(
        self,
        scope: LanguageScope,
        scope_id: int,
        *,
        chosen: str | Unset | None = UNSET,
        discord: str | Unset | None = UNSET,
        now: float,
    ) -> None: ...
    async def queue_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool: ...
    async def take_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool: ...
    async def pending_dm_tips(self) -> list[tuple[int, int]]: ...

    # -- outbox: publications owed for committed changes (migration 5) ---------------

    async def add_outbox(self, game_id: int, version: int, kind: OutboxKind, *, now: float) -> int: ...
    async def claim_outbox(self, entry_id: int, *, now: float, until: float) -> bool: ...
    async def claim_outbox_of(
        self, game_id: int, version: int, *, now: float, until: float
    ) -> int | None: ...
    async def pending_outbox(
        self, *, now: float, created_before: float, max_attempts: int, limit: int = 100
    ) -> list[OutboxRow]: ...
    async def finish_outbox(self, entry_id: int) -> None: ...

    # -- moves, results, ratings -----------------------------------------------------

    async def append_moves(
        self, game_id: int, entries: Sequence[tuple[int, int, str]], *, version: int, now: float
    ) -> None: ...
    async def moves(self, game_id: int) -> list[MoveRow]: ...
    async def record_result(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        players: tuple[int, int],
        winner: int | None,
        reason: str,
        stones: tuple[int, int],
        moves: int,
        now: float,
    ) -> ResultRow: ...
    async def get_result(self, game_id: int) -> ResultRow | None: ...
    async def recent_results(self, *, guild_id: int | None = None, limit: int = 20) -> list[ResultRow]: ...
    async def get_rating(self, scope: str, user_id: int) -> RatingRow | None: ...
    async def save_rating(
        self, rating: RatingRow, *, game_id: int | None = None, before: float | None = None
    ) -> None: ...
    async def leaderboard(self, scope: str, *, limit: int = 10, min_games: int = 1) -> list[RatingRow]: ...
    async def leaderboard_page(
        self, scope: str, *, offset: int = 0, limit: int = 10, min_games: int = 1
    ) -> list[RatingRow]: ...
    async def leaderboard_size(self, scope: str, *, min_games: int = 1) -> int: ...
    async def player_results(
        self, user_id: int, *, guild_id: int | None = None, limit: int | None = None
    ) -> list[ResultRow]: ...
    async def head_to_head(self, user_id: int, opponent_id: int) -> tuple[int, int, int]: ...
    async def rating_changes(self, game_id: int) -> list[tuple[str, int, float, float]]: ...

    # -- challenges ------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        options: Mapping[str, Any],
        now: float,
        expires_at: float,
        message_id: int | None = None,
    ) -> ChallengeRow: ...
    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None: ...
    async def pending_challenges(self, *, user_id: int | None = None) -> list[ChallengeRow]: ...
    async def expired_challenges(self, now: float) -> list[ChallengeRow]: ...
    async def set_challenge_message(self, challenge_id: int, message_id: int | None) -> None: ...
    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus, *, game_id: int | None = None
    ) -> bool: ...

    # -- matches ---------------------------------------------------------------------

    async def insert_match(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: Mapping[str, Any],
        target: int,
        now: float,
    ) -> MatchRow: ...
    async def get_match(self, match_id: int) -> MatchRow | None: ...
    async def update_match(
        self, match_id: int, *, scores: tuple[int, int], games: int, winner_id: int | None, now: float
    ) -> None: ...
    async def active_matches(self) -> list[MatchRow]: ...
    async def match_games(self, match_id: int) -> list[GameRow]: ...

    # -- finished games: history, replays, export -----------------------------------

    async def finished_games_count(self, user_id: int) -> int: ...
    async def finished_results_page(self, user_id: int, *, offset: int, limit: int) -> list[ResultRow]: ...
    async def finished_games_in_guild(
        self, guild_id: int, *, after_id: int = 0, limit: int = 500
    ) -> list[GameRow]: ...

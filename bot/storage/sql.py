"""What every repository is written against: ``Executor``, and rows into row types.

The statements are written for PostgreSQL, with ``$1``-style parameters; SQLite runs
them as they are, apart from the parameter style, which ``Database`` translates
(``$1`` becomes ``?1``). So they keep to what both dialects accept: ``RETURNING``,
``ON CONFLICT``, ``COUNT(*) FILTER (...)``, ``CAST`` rather than ``::``, and plain
column types (booleans are stored as 0 and 1). Every value is a bound parameter; the
only names put into a statement come from fixed tables in the repositories.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeAlias

from bot.storage.rows import ChallengeRow, GameRow, MatchRow, MoveRow, OutboxRow, RatingRow, ResultRow

if TYPE_CHECKING:
    import sqlite3

    import asyncpg

# A row as a driver returns it; both kinds are read by column name (and by position).
Row: TypeAlias = "sqlite3.Row | asyncpg.Record"

# LIMIT for "no limit": SQLite refuses LIMIT NULL, PostgreSQL a negative limit.
NO_LIMIT: Final = 2**62
# The largest integer both databases hold (signed 64 bits). A row id past it, as a forged
# button's 30-digit id would be, names no row: asked for, it is not found.
MAX_INTEGER: Final = 2**63 - 1


class Executor(Protocol):
    """How a repository runs its statements; both backends implement it.

    Inside ``async with storage.transaction():`` every statement the same task runs is
    part of the transaction. Outside one, each statement is atomic on its own, and
    ``atomic()`` groups a repository method's statements into one transaction.
    """

    async def execute(self, sql: str, *params: object) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement for each row; ``KeyTaken`` if one meets a row with its key."""
        ...

    async def all(self, sql: str, *params: object) -> Sequence[Row]: ...

    async def one(self, sql: str, *params: object) -> Row | None:
        """The first row, or None."""
        ...

    async def value(self, sql: str, *params: object) -> Any:
        """The first column of the first row (None without a row)."""
        ...

    def atomic(self) -> AbstractAsyncContextManager[object]:
        """A transaction, unless the current task already holds one (then: that one)."""
        ...


def to_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


async def ensure_players(db: Executor, user_ids: Iterable[int], now: float) -> None:
    """A ``players`` row for each user (games, challenges and matches refer to them).

    Only a missing row is inserted: on PostgreSQL, an insert that meets an existing key
    waits for any open transaction that holds that row (``PlayerStore.lock``), so two
    members each holding their own row while adding the other's (challenging each other
    at once) would wait for each other in a circle. The rows go in in one order (by id):
    one statement adding (a, b) and another (b, a) at once would each wait for the
    other's uncommitted half, a deadlock."""
    await db.executemany(
        "INSERT INTO players (user_id, created_at)"
        " SELECT CAST($1 AS BIGINT), CAST($2 AS DOUBLE PRECISION)"
        " WHERE NOT EXISTS (SELECT 1 FROM players WHERE user_id = $1)"
        " ON CONFLICT (user_id) DO NOTHING",
        [(user_id, float(now)) for user_id in sorted(set(user_ids))],
    )


def game_row(row: Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        players=(row["player0"], row["player1"]),
        options=json.loads(row["options"]),
        seed=row["seed"],
        first_player=row["first_player"],
        match_id=row["match_id"],
        status=row["status"],
        state=json.loads(row["state"]),
        version=row["version"],
        board_message_id=row["board_message_id"],
        dm_message_ids=(row["dm_message_id0"], row["dm_message_id1"]),
        turn_started_at=row["turn_started_at"],
        deadline=row["deadline"],
        reminded=bool(row["reminded"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        ai_player=row["ai_player"],
        ai_level=row["ai_level"],
        turn_timeout=row["turn_timeout"],
        thread_id=row["thread_id"],
    )


def move_row(row: Row) -> MoveRow:
    return MoveRow(**{key: row[key] for key in row.keys()})  # noqa: SIM118 - sqlite3.Row


def challenge_row(row: Row) -> ChallengeRow:
    return ChallengeRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        options=json.loads(row["options"]),
        message_id=row["message_id"],
        status=row["status"],
        game_id=row["game_id"],
        created_at=row["created_at"],
        expires_at=row["expires_at"],
    )


def outbox_row(row: Row) -> OutboxRow:
    return OutboxRow(
        id=row["id"],
        game_id=row["game_id"],
        version=row["version"],
        kind=row["kind"],
        created_at=row["created_at"],
        claimed_until=row["claimed_until"],
        attempts=row["attempts"],
    )


def result_row(row: Row) -> ResultRow:
    return ResultRow(
        game_id=row["game_id"],
        guild_id=row["guild_id"],
        winner_id=row["winner_id"],
        loser_id=row["loser_id"],
        players=(row["player0"], row["player1"]),
        winner=row["winner"],
        reason=row["reason"],
        stones=(row["stones0"], row["stones1"]),
        moves=row["moves"],
        finished_at=row["finished_at"],
    )


def rating_row(row: Row) -> RatingRow:
    return RatingRow(**{key: row[key] for key in row.keys()})  # noqa: SIM118 - sqlite3.Row


def match_row(row: Row) -> MatchRow:
    return MatchRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        players=(row["player0"], row["player1"]),
        options=json.loads(row["options"]),
        target=row["target"],
        scores=(row["score0"], row["score1"]),
        games=row["games"],
        status=row["status"],
        winner_id=row["winner_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )

"""``Database``: the only place with SQL. Every statement uses bound parameters.

One aiosqlite connection serves the whole bot. Access to it is serialized by an
``asyncio.Lock`` so that a transaction of one task never sees (or is interleaved with)
statements of another; ``async with db.transaction():`` holds the lock from ``BEGIN
IMMEDIATE`` to ``COMMIT``, and the methods called inside it by the same task join it.
Outside a transaction each method is atomic on its own.

SQLite runs in WAL mode with ``synchronous=FULL``: a committed move survives a crash of
the process and of the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

import aiosqlite

from bot.storage import filelock
from bot.storage.schema import MigrationError, latest_version, migrations

if TYPE_CHECKING:
    import asyncpg

# The row converters below also read PostgresDatabase's rows (bot/storage/postgres.py).
Row: TypeAlias = "sqlite3.Row | asyncpg.Record"

log = logging.getLogger(__name__)

GameStatus = Literal["active", "finished"]
LanguageScope = Literal["user", "guild"]
# The table and key column of each scope: fixed names, never user input.
_LANGUAGE_TABLES: Final = {"user": ("user_languages", "user_id"), "guild": ("guild_languages", "guild_id")}
ChallengeStatus = Literal["pending", "accepted", "declined", "cancelled", "expired"]


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()


class ConcurrentUpdate(RuntimeError):
    """A game row was not at the version the writer expected: another writer (another
    service, another process) committed this game first. The service reloads the game
    and answers the request as a stale one; it never reaches a user."""


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    players: tuple[int, int]
    options: dict[str, Any]
    seed: int
    first_player: int
    match_id: int | None
    status: GameStatus
    state: dict[str, Any]
    version: int
    board_message_id: int | None
    dm_message_ids: tuple[int | None, int | None]
    turn_started_at: float | None
    deadline: float | None
    reminded: bool
    created_at: float
    updated_at: float
    ai_player: int | None = None  # the seat the bot's AI plays (migration 3); None: two people
    ai_level: str | None = None  # the AI's difficulty when ai_player is set


OutboxKind = Literal["move", "turn", "reminder"]


@dataclass(frozen=True)
class OutboxRow:
    """A publication owed for a committed change (migration 5): which game, at which
    version, and what kind; never the text, which is rendered from the stored game."""

    id: int
    game_id: int
    version: int
    kind: OutboxKind
    created_at: float
    claimed_until: float | None
    attempts: int


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    seq: int
    player: int
    move: str
    version: int
    created_at: float


@dataclass(frozen=True)
class ResultRow:
    game_id: int
    guild_id: int | None
    winner_id: int | None
    loser_id: int | None
    players: tuple[int, int]
    winner: int | None
    reason: str
    stones: tuple[int, int]
    moves: int
    finished_at: float


@dataclass(frozen=True)
class RatingRow:
    scope: str
    user_id: int
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    updated_at: float


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    challenger_id: int
    opponent_id: int | None
    options: dict[str, Any]
    message_id: int | None
    status: ChallengeStatus
    game_id: int | None
    created_at: float
    expires_at: float


class ForeignDatabase(MigrationError):
    """The file is an SQLite database of some other program: the bot refuses it unchanged."""


# Created by migration 1: a database at schema version 1 or later has all of them.
_OUR_TABLES: Final = frozenset(
    {"meta", "players", "games", "moves", "results", "ratings", "rating_changes", "challenges"}
)


def _probe(path: str) -> None:
    """Fail here if the file cannot be opened or is not ours, before anything writes to
    it: opening it for real switches it to WAL mode and migrating adds our tables."""
    if not os.path.exists(path):
        sqlite3.connect(path).close()  # a new database; fails now if the directory is missing
        return
    # Read-only: neither this check nor a refusal changes another program's file.
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    conn = sqlite3.connect(uri, uri=True)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        names = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        }
    finally:
        conn.close()
    if version == 0 and not names:
        return  # empty: ours to set up
    if version >= 1 and names >= _OUR_TABLES:
        return
    shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
    raise ForeignDatabase(
        f"{path} is not a Schotten-Totten bot database (schema version {version}, tables: "
        f"{shown or 'none'}); it was left unchanged. Set DATABASE_PATH to the bot's own "
        "database or to a new file."
    )


def backup(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Copy the database ``source`` to the new file ``target`` with SQLite's online backup,
    safely while the bot runs: a consistent snapshot that includes what is still in the
    ``-wal`` file. The copy is a single file (rollback journal); the bot makes it WAL
    again when it opens it. Raises FileExistsError rather than overwrite ``target``."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise FileNotFoundError(f"no database at {source}")
    if target.exists():
        raise FileExistsError(f"{target} exists; give the backup a new name")
    partial = target.with_name(target.name + ".part")  # never a half-written backup at target
    src = sqlite3.connect(source)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, target)


async def _run(conn: aiosqlite.Connection, sql: str) -> None:
    """Run a statement and close its cursor: an open cursor keeps its statement "in
    progress", and SQLite then refuses to COMMIT."""
    async with conn.execute(sql) as cursor:
        await cursor.fetchall()


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _game(row: Row) -> GameRow:
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
    )


def _challenge(row: Row) -> ChallengeRow:
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


def _outbox(row: Row) -> OutboxRow:
    return OutboxRow(
        id=row["id"],
        game_id=row["game_id"],
        version=row["version"],
        kind=row["kind"],
        created_at=row["created_at"],
        claimed_until=row["claimed_until"],
        attempts=row["attempts"],
    )


def _result(row: Row) -> ResultRow:
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


def _rating(row: Row) -> RatingRow:
    return RatingRow(**{key: row[key] for key in row.keys()})  # noqa: SIM118 - sqlite3.Row


class Database:
    """Typed access to the bot's SQLite database. ``path`` may be ``":memory:"``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._tx_owner: asyncio.Task[Any] | None = None
        self._file_lock: str | None = None  # one process per database file (filelock.py)

    # -- lifecycle -------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    async def connect(self) -> None:
        if self._conn is not None:
            return
        if self.path != ":memory:" and self._file_lock is None:
            self._file_lock = filelock.acquire(self.path)  # DatabaseInUse if another process has it
        if self.path != ":memory:":
            # Fail here if the file cannot be opened: a failed aiosqlite.connect leaves its
            # worker thread to report to an event loop that may be closed by then.
            await asyncio.to_thread(_probe, self.path)
        # isolation_level=None: no implicit transactions; we BEGIN and COMMIT ourselves.
        conn = await aiosqlite.connect(self.path, isolation_level=None)
        conn.row_factory = sqlite3.Row
        try:
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA synchronous = FULL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA busy_timeout = 5000",
            ):
                await _run(conn, pragma)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        log.info("Database %s opened", self.path)

    async def close(self) -> None:
        """Close the connection after any transaction in progress has finished."""
        async with self._lock:
            if self._conn is None:
                self._unlock_file()
                return
            conn, self._conn = self._conn, None
            await conn.close()
            self._unlock_file()
        log.info("Database %s closed", self.path)

    def _unlock_file(self) -> None:
        if self._file_lock is not None:
            filelock.release(self._file_lock)
            self._file_lock = None

    async def __aenter__(self) -> Database:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- migrations ------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        assert row is not None
        return int(row[0])

    async def migrate(self, target: int | None = None) -> int:
        """Apply the pending migrations up to ``target`` (default: all); returns the version."""
        target = latest_version() if target is None else target
        async with self._lock:
            conn = self._connection()
            async with conn.execute("PRAGMA user_version") as cursor:
                row = await cursor.fetchone()
            current = int(row[0]) if row else 0
            if current > latest_version():
                raise MigrationError(
                    f"{self.path} is at schema version {current}, newer than this bot "
                    f"({latest_version()}); update the bot."
                )
            for migration in migrations()[current:target]:
                script = (
                    f"BEGIN IMMEDIATE;\n{migration.sql}\nPRAGMA user_version = {migration.version};\nCOMMIT;"
                )
                try:
                    await conn.executescript(script)
                except sqlite3.Error as error:
                    if conn.in_transaction:
                        await _run(conn, "ROLLBACK")
                    raise MigrationError(
                        f"migration {migration.version} ({migration.name}) failed: {error}"
                    ) from error
                log.info("Database migrated to version %d (%s)", migration.version, migration.name)
                current = migration.version
            return current

    # -- plumbing --------------------------------------------------------------------

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("the database is not open; call connect() first")
        return self._conn

    def _in_own_transaction(self) -> bool:
        return self._tx_owner is not None and self._tx_owner is asyncio.current_task()

    @asynccontextmanager
    async def _access(self) -> AsyncIterator[aiosqlite.Connection]:
        if self._in_own_transaction():
            yield self._connection()
        else:
            async with self._lock:
                yield self._connection()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Database]:
        """``async with db.transaction():`` everything inside commits together or not at all.

        Database methods awaited inside, by the same task, are part of it. Not reentrant.
        """
        if self._in_own_transaction():
            raise RuntimeError("transactions do not nest")
        async with self._lock:
            conn = self._connection()
            await _run(conn, "BEGIN IMMEDIATE")
            self._tx_owner = asyncio.current_task()
            try:
                yield self
                self._tx_owner = None
                await _run(conn, "COMMIT")
            except BaseException:
                self._tx_owner = None
                # Also after a failed COMMIT (SQLite may leave the transaction open), so
                # that the connection is usable for the next one.
                if conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        await _run(conn, "ROLLBACK")
                raise

    @asynccontextmanager
    async def _atomic(self) -> AsyncIterator[None]:
        """A transaction unless the caller already holds one."""
        if self._in_own_transaction():
            yield
        else:
            async with self.transaction():
                yield

    async def _execute(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> int:
        """Run one statement; returns the rowcount (or lastrowid for an INSERT)."""
        async with self._access() as conn, conn.execute(sql, params) as cursor:
            if sql.lstrip().upper().startswith("INSERT"):
                return int(cursor.lastrowid or 0)
            return cursor.rowcount

    async def _executemany(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        async with self._access() as conn, conn.executemany(sql, params):
            pass

    async def _all(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[sqlite3.Row]:
        async with self._access() as conn, conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def _one(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> sqlite3.Row | None:
        async with self._access() as conn, conn.execute(sql, params) as cursor:
            row = await cursor.fetchone()
            return row

    # -- meta ------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def delete_meta(self, key: str) -> None:
        await self._execute("DELETE FROM meta WHERE key = ?", (key,))

    async def meta_keys(self, prefix: str) -> list[str]:
        """The meta keys that start with ``prefix``, sorted."""
        rows = await self._all(
            "SELECT key FROM meta WHERE substr(key, 1, length(?)) = ? ORDER BY key", (prefix, prefix)
        )
        return [str(row["key"]) for row in rows]

    # -- players ---------------------------------------------------------------------

    async def ensure_players(self, user_ids: Iterable[int], now: float) -> None:
        await self._executemany(
            "INSERT INTO players (user_id, created_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
            [(user_id, now) for user_id in user_ids],
        )

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
    ) -> int:
        """Insert a new active game (and its players); returns its id. ``ai_player``: the
        seat the bot's AI plays (with ``ai_level``), None for a game between two people."""
        async with self._atomic():
            await self.ensure_players(players, now)
            return await self._execute(
                """
                INSERT INTO games (guild_id, channel_id, player0, player1, options, seed, first_player,
                                   match_id, status, state, version, turn_started_at, deadline,
                                   created_at, updated_at, ai_player, ai_level)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                (
                    guild_id,
                    channel_id,
                    players[0],
                    players[1],
                    _json(options),
                    seed,
                    first_player,
                    match_id,
                    _json(state),
                    version,
                    now,
                    deadline,
                    now,
                    now,
                    ai_player,
                    ai_level,
                ),
            )

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def active_games(self, user_id: int) -> list[GameRow]:
        """The user's active games, oldest first."""
        rows = await self._all(
            """
            SELECT * FROM games WHERE status = 'active' AND player0 = ?
            UNION
            SELECT * FROM games WHERE status = 'active' AND player1 = ?
            ORDER BY id
            """,
            (user_id, user_id),
        )
        return [_game(row) for row in rows]

    async def all_active_games(self) -> list[GameRow]:
        return [
            _game(row) for row in await self._all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
        ]

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
    ) -> None:
        """Replace the snapshot of a game that is still at ``expected_version``."""
        count = await self._execute(
            """
            UPDATE games SET state = ?, version = ?, status = ?, turn_started_at = ?, deadline = ?,
                             reminded = ?, updated_at = ?
            WHERE id = ? AND version = ?
            """,
            (
                _json(state),
                version,
                status,
                turn_started_at,
                deadline,
                int(reminded),
                now,
                game_id,
                expected_version,
            ),
        )
        if count != 1:
            raise ConcurrentUpdate(f"game {game_id} is no longer at version {expected_version}")

    async def set_message_ids(
        self,
        game_id: int,
        *,
        board_message_id: int | _Unset | None = UNSET,
        dm_message_ids: Mapping[int, int | None] | None = None,
    ) -> None:
        """Store the board message id and/or DM message ids (by engine player 0/1)."""
        sets: list[str] = []
        params: list[Any] = []
        if not isinstance(board_message_id, _Unset):
            sets.append("board_message_id = ?")
            params.append(board_message_id)
        for player, message_id in (dm_message_ids or {}).items():
            if player not in (0, 1):
                raise ValueError(f"player must be 0 or 1, not {player!r}")
            sets.append(("dm_message_id0", "dm_message_id1")[player] + " = ?")
            params.append(message_id)
        if sets:
            # The column names come from the fixed tuple above, never from input.
            await self._execute(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*params, game_id))

    async def games_due(self, now: float) -> list[GameRow]:
        """Active games whose player to move has run out of time."""
        rows = await self._all(
            "SELECT * FROM games WHERE status = 'active' AND deadline <= ? ORDER BY deadline",
            (now,),
        )
        return [_game(row) for row in rows]

    async def games_to_remind(self, now: float, after: float) -> list[GameRow]:
        """Active games whose turn started at least ``after`` seconds ago, not yet reminded."""
        rows = await self._all(
            """
            SELECT * FROM games WHERE status = 'active' AND reminded = 0 AND turn_started_at IS NOT NULL
                                  AND turn_started_at + ? <= ?
            ORDER BY turn_started_at
            """,
            (after, now),
        )
        return [_game(row) for row in rows]

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Mark the current turn as reminded; False if the game has moved on meanwhile or
        the turn was already marked (so that only one caller sends the reminder)."""
        return (
            await self._execute(
                "UPDATE games SET reminded = 1"
                " WHERE id = ? AND version = ? AND status = 'active' AND reminded = 0",
                (game_id, version),
            )
            == 1
        )

    async def get_ping_message_id(self, game_id: int) -> int | None:
        """The message mentioning the player to move in ``game_id`` (migration 4), if any."""
        row = await self._one("SELECT ping_message_id FROM games WHERE id = ?", (game_id,))
        return None if row is None else row["ping_message_id"]

    async def set_ping_message_id(self, game_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE games SET ping_message_id = ? WHERE id = ?", (message_id, game_id))

    # -- languages (migration 6) -----------------------------------------------------

    async def language(self, scope: LanguageScope, scope_id: int) -> tuple[str | None, str | None]:
        """A user's or a server's ``(chosen, discord)`` language codes (None: unknown)."""
        table, column = _LANGUAGE_TABLES[scope]
        row = await self._one(f"SELECT chosen, discord FROM {table} WHERE {column} = ?", (scope_id,))
        return (None, None) if row is None else (row["chosen"], row["discord"])

    async def set_language(
        self,
        scope: LanguageScope,
        scope_id: int,
        *,
        chosen: str | _Unset | None = UNSET,
        discord: str | _Unset | None = UNSET,
        now: float,
    ) -> None:
        """Store a chosen language and/or the one Discord reported (UNSET: unchanged)."""
        table, column = _LANGUAGE_TABLES[scope]
        async with self._atomic():
            await self._execute(
                f"INSERT INTO {table} ({column}, updated_at) VALUES (?, ?) ON CONFLICT ({column}) DO NOTHING",
                (scope_id, now),
            )
            for name, value in (("chosen", chosen), ("discord", discord)):
                if not isinstance(value, _Unset):
                    await self._execute(
                        f"UPDATE {table} SET {name} = ?, updated_at = ? WHERE {column} = ?",
                        (value, now, scope_id),
                    )

    # -- DMs (migration 4) -----------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool:
        """Whether the user's DMs refused the bot last time it tried."""
        row = await self._one("SELECT closed FROM dm_status WHERE user_id = ?", (user_id,))
        return row is not None and bool(row["closed"])

    async def set_dm_closed(self, user_id: int, closed: bool, *, now: float) -> None:
        await self._execute(
            "INSERT INTO dm_status (user_id, closed, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET closed = excluded.closed, updated_at = excluded.updated_at",
            (user_id, int(closed), now),
        )

    async def queue_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool:
        """Note that ``user_id`` is to be told how to open their DMs in ``game_id``.
        Returns False if they have been told already in that game (the tip is given once)."""
        async with self._atomic():
            await self._execute(
                "INSERT INTO dm_tips (game_id, user_id, told, updated_at) VALUES (?, ?, 0, ?)"
                " ON CONFLICT (game_id, user_id) DO NOTHING",
                (game_id, user_id, now),
            )
            row = await self._one(
                "SELECT told FROM dm_tips WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
        return row is not None and not row["told"]

    async def take_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool:
        """Mark a queued tip as told; True only for the one caller that did so."""
        return (
            await self._execute(
                "UPDATE dm_tips SET told = 1, updated_at = ? WHERE game_id = ? AND user_id = ? AND told = 0",
                (now, game_id, user_id),
            )
            == 1
        )

    async def pending_dm_tips(self) -> list[tuple[int, int]]:
        """``(game_id, user_id)`` of the tips queued and not told yet, in active games."""
        rows = await self._all(
            "SELECT game_id, user_id FROM dm_tips WHERE told = 0"
            " AND game_id IN (SELECT id FROM games WHERE status = 'active') ORDER BY game_id"
        )
        return [(row["game_id"], row["user_id"]) for row in rows]

    # -- outbox (migration 5) --------------------------------------------------------

    async def add_outbox(self, game_id: int, version: int, kind: OutboxKind, *, now: float) -> int:
        """Record a publication owed for ``game_id`` at ``version``; call it inside the
        transaction of the change it shows. Returns its id."""
        return await self._execute(
            "INSERT INTO outbox (game_id, version, kind, created_at) VALUES (?, ?, ?, ?)",
            (game_id, version, kind, now),
        )

    async def claim_outbox(self, entry_id: int, *, now: float, until: float) -> bool:
        """Take the publication for this caller until ``until`` (a lease); True only for
        the one caller that did, while it is not done and nobody else holds it."""
        return (
            await self._execute(
                "UPDATE outbox SET claimed_until = ?, attempts = attempts + 1"
                " WHERE id = ? AND (claimed_until IS NULL OR claimed_until <= ?)",
                (until, entry_id, now),
            )
            == 1
        )

    async def claim_outbox_of(self, game_id: int, version: int, *, now: float, until: float) -> int | None:
        """:meth:`claim_outbox` by game and version (a new game's first publication,
        whose id its creator does not hand on): the claimed entry's id, or None."""
        rows = await self._all(
            "UPDATE outbox SET claimed_until = ?, attempts = attempts + 1"
            " WHERE id = (SELECT min(id) FROM outbox"
            "  WHERE game_id = ? AND version = ? AND kind <> 'reminder')"
            " AND (claimed_until IS NULL OR claimed_until <= ?) RETURNING id",
            (until, game_id, version, now),
        )
        return int(rows[0]["id"]) if rows else None

    async def pending_outbox(
        self, *, now: float, created_before: float, max_attempts: int, limit: int = 100
    ) -> list[OutboxRow]:
        """Publications nobody holds (never claimed, or their lease ran out), recorded
        before ``created_before``, tried fewer than ``max_attempts`` times; oldest first."""
        rows = await self._all(
            "SELECT * FROM outbox WHERE (claimed_until IS NULL OR claimed_until <= ?)"
            " AND created_at <= ? AND attempts < ? ORDER BY id LIMIT ?",
            (now, created_before, max_attempts, limit),
        )
        return [_outbox(row) for row in rows]

    async def finish_outbox(self, entry_id: int) -> None:
        """The publication is done (or no longer needed): forget it."""
        await self._execute("DELETE FROM outbox WHERE id = ?", (entry_id,))

    # -- moves -----------------------------------------------------------------------

    async def append_moves(
        self, game_id: int, entries: Sequence[tuple[int, int, str]], *, version: int, now: float
    ) -> None:
        """Append log entries ``(seq, player, move_text)`` of one commit at ``version``.

        An entry already at its position means that another writer committed a move of
        this game first: ``ConcurrentUpdate``, as from ``save_game_state`` (and as
        PostgreSQL reports it), never the driver's ``IntegrityError``."""
        try:
            await self._executemany(
                "INSERT INTO moves (game_id, seq, player, move, version, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, seq, player, move, version, now) for seq, player, move in entries],
            )
        except sqlite3.IntegrityError as error:
            if error.sqlite_errorname not in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"):
                raise  # not a position taken: e.g. no such game
            raise ConcurrentUpdate(f"game {game_id} has moves at these positions already") from error

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._all("SELECT * FROM moves WHERE game_id = ? ORDER BY seq", (game_id,))
        return [MoveRow(**{key: row[key] for key in row.keys()}) for row in rows]  # noqa: SIM118

    # -- results and ratings ---------------------------------------------------------

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
    ) -> ResultRow:
        """Write the result of a finished game. Call it inside the transaction of the
        move that finished it, where rating updates for the same result also belong."""
        winner_id = None if winner is None else players[winner]
        loser_id = None if winner is None else players[1 - winner]
        await self._execute(
            """
            INSERT INTO results (game_id, guild_id, winner_id, loser_id, player0, player1, winner, reason,
                                 stones0, stones1, moves, finished_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            (game_id, guild_id, winner_id, loser_id, *players, winner, reason, *stones, moves, now),
        )
        return ResultRow(game_id, guild_id, winner_id, loser_id, players, winner, reason, stones, moves, now)

    async def get_result(self, game_id: int) -> ResultRow | None:
        row = await self._one("SELECT * FROM results WHERE game_id = ?", (game_id,))
        return None if row is None else _result(row)

    async def recent_results(self, *, guild_id: int | None = None, limit: int = 20) -> list[ResultRow]:
        if guild_id is None:
            rows = await self._all("SELECT * FROM results ORDER BY finished_at DESC LIMIT ?", (limit,))
        else:
            rows = await self._all(
                "SELECT * FROM results WHERE guild_id = ? ORDER BY finished_at DESC LIMIT ?",
                (guild_id, limit),
            )
        return [_result(row) for row in rows]

    async def get_rating(self, scope: str, user_id: int) -> RatingRow | None:
        row = await self._one("SELECT * FROM ratings WHERE scope = ? AND user_id = ?", (scope, user_id))
        return None if row is None else _rating(row)

    async def save_rating(
        self, rating: RatingRow, *, game_id: int | None = None, before: float | None = None
    ) -> None:
        """Insert or replace a rating; with ``game_id`` also log the change from ``before``."""
        async with self._atomic():
            await self._execute(
                """
                INSERT INTO ratings (scope, user_id, rating, games, wins, losses, draws, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (scope, user_id) DO UPDATE SET
                    rating = excluded.rating, games = excluded.games, wins = excluded.wins,
                    losses = excluded.losses, draws = excluded.draws, updated_at = excluded.updated_at
                """,
                (
                    rating.scope,
                    rating.user_id,
                    rating.rating,
                    rating.games,
                    rating.wins,
                    rating.losses,
                    rating.draws,
                    rating.updated_at,
                ),
            )
            if game_id is not None:
                await self._execute(
                    "INSERT INTO rating_changes (game_id, scope, user_id, before, after)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (
                        game_id,
                        rating.scope,
                        rating.user_id,
                        rating.rating if before is None else before,
                        rating.rating,
                    ),
                )

    async def leaderboard(self, scope: str, *, limit: int = 10, min_games: int = 1) -> list[RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE scope = ? AND games >= ? ORDER BY rating DESC, games DESC LIMIT ?",
            (scope, min_games, limit),
        )
        return [_rating(row) for row in rows]

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
    ) -> ChallengeRow:
        async with self._atomic():
            await self.ensure_players([u for u in (challenger_id, opponent_id) if u is not None], now)
            challenge_id = await self._execute(
                """
                INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, options, message_id,
                                        created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                (
                    guild_id,
                    channel_id,
                    challenger_id,
                    opponent_id,
                    _json(options),
                    message_id,
                    now,
                    expires_at,
                ),
            )
        challenge = await self.get_challenge(challenge_id)
        assert challenge is not None
        return challenge

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else _challenge(row)

    async def pending_challenges(self, *, user_id: int | None = None) -> list[ChallengeRow]:
        """Pending challenges (by or to ``user_id`` if given), oldest first."""
        if user_id is None:
            rows = await self._all("SELECT * FROM challenges WHERE status = 'pending' ORDER BY id")
        else:
            rows = await self._all(
                """
                SELECT * FROM challenges WHERE status = 'pending' AND (challenger_id = ? OR opponent_id = ?)
                ORDER BY id
                """,
                (user_id, user_id),
            )
        return [_challenge(row) for row in rows]

    async def expired_challenges(self, now: float) -> list[ChallengeRow]:
        rows = await self._all(
            "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at",
            (now,),
        )
        return [_challenge(row) for row in rows]

    async def set_challenge_message(self, challenge_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id))

    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus, *, game_id: int | None = None
    ) -> bool:
        """Move a pending challenge to ``status``. Returns False if it was no longer pending,
        so that of two simultaneous answers (accept and cancel, or two accepts) one wins."""
        return (
            await self._execute(
                "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = 'pending'",
                (status, game_id, challenge_id),
            )
            == 1
        )

    # -- player stats and leaderboard pages --------------------------------------------

    async def leaderboard_page(
        self, scope: str, *, offset: int = 0, limit: int = 10, min_games: int = 1
    ) -> list[RatingRow]:
        """Ratings of ``scope`` by rank (rating, then games, then user id), one page."""
        rows = await self._all(
            """
            SELECT * FROM ratings WHERE scope = ? AND games >= ?
            ORDER BY rating DESC, games DESC, user_id LIMIT ? OFFSET ?
            """,
            (scope, min_games, limit, offset),
        )
        return [_rating(row) for row in rows]

    async def leaderboard_size(self, scope: str, *, min_games: int = 1) -> int:
        row = await self._one(
            "SELECT COUNT(*) AS n FROM ratings WHERE scope = ? AND games >= ?", (scope, min_games)
        )
        return 0 if row is None else int(row["n"])

    async def player_results(
        self, user_id: int, *, guild_id: int | None = None, limit: int | None = None
    ) -> list[ResultRow]:
        """Results of the rated games ``user_id`` played (in ``guild_id`` if given), newest
        first. Practice games against the bot's AI are left out."""
        where = "(player0 = ? OR player1 = ?) AND game_id IN (SELECT id FROM games WHERE ai_player IS NULL)"
        params: list[Any] = [user_id, user_id]
        if guild_id is not None:
            where += " AND guild_id = ?"
            params.append(guild_id)
        params.append(-1 if limit is None else limit)
        rows = await self._all(
            f"SELECT * FROM results WHERE {where} ORDER BY finished_at DESC, game_id DESC LIMIT ?",
            params,
        )
        return [_result(row) for row in rows]

    async def head_to_head(self, user_id: int, opponent_id: int) -> tuple[int, int, int]:
        """``user_id``'s (wins, losses, draws) in games against ``opponent_id``, everywhere."""
        row = await self._one(
            """
            SELECT COALESCE(SUM(winner_id = ?), 0) AS wins,
                   COALESCE(SUM(winner_id = ?), 0) AS losses,
                   COALESCE(SUM(winner_id IS NULL), 0) AS draws
            FROM results
            WHERE ((player0 = ? AND player1 = ?) OR (player0 = ? AND player1 = ?))
              AND game_id IN (SELECT id FROM games WHERE ai_player IS NULL)
            """,
            (user_id, opponent_id, user_id, opponent_id, opponent_id, user_id),
        )
        assert row is not None
        return int(row["wins"]), int(row["losses"]), int(row["draws"])

    async def rating_changes(self, game_id: int) -> list[tuple[str, int, float, float]]:
        """How the result of ``game_id`` moved ratings: ``(scope, user_id, before, after)``."""
        rows = await self._all(
            "SELECT scope, user_id, before, after FROM rating_changes WHERE game_id = ?"
            " ORDER BY scope, user_id",
            (game_id,),
        )
        return [(row["scope"], row["user_id"], row["before"], row["after"]) for row in rows]

    # -- matches -------------------------------------------------------------------------

    async def insert_match(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: Mapping[str, Any],
        target: int,
        now: float,
    ) -> MatchRow:
        async with self._atomic():
            await self.ensure_players(players, now)
            match_id = await self._execute(
                """
                INSERT INTO matches (guild_id, channel_id, player0, player1, options, target,
                                     created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                (guild_id, channel_id, players[0], players[1], _json(options), target, now, now),
            )
        match = await self.get_match(match_id)
        assert match is not None
        return match

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))
        return None if row is None else _match(row)

    async def update_match(
        self, match_id: int, *, scores: tuple[int, int], games: int, winner_id: int | None, now: float
    ) -> None:
        """Store a match's score after a game; a ``winner_id`` finishes the match."""
        await self._execute(
            """
            UPDATE matches SET score0 = ?, score1 = ?, games = ?, winner_id = ?, status = ?, updated_at = ?
            WHERE id = ?
            """,
            (*scores, games, winner_id, "active" if winner_id is None else "finished", now, match_id),
        )

    async def active_matches(self) -> list[MatchRow]:
        rows = await self._all("SELECT * FROM matches WHERE status = 'active' ORDER BY id")
        return [_match(row) for row in rows]

    async def match_games(self, match_id: int) -> list[GameRow]:
        rows = await self._all("SELECT * FROM games WHERE match_id = ? ORDER BY id", (match_id,))
        return [_game(row) for row in rows]

    # -- game records: history, replay, export -----------------------------------------

    async def finished_games_count(self, user_id: int) -> int:
        """How many finished games ``user_id`` played (practice games included)."""
        row = await self._one(
            "SELECT COUNT(*) AS n FROM results WHERE player0 = ? OR player1 = ?", (user_id, user_id)
        )
        return 0 if row is None else int(row["n"])

    async def finished_results_page(self, user_id: int, *, offset: int, limit: int) -> list[ResultRow]:
        """Results of ``user_id``'s finished games (practice games included), newest first."""
        rows = await self._all(
            """
            SELECT * FROM results WHERE player0 = ? OR player1 = ?
            ORDER BY finished_at DESC, game_id DESC LIMIT ? OFFSET ?
            """,
            (user_id, user_id, limit, offset),
        )
        return [_result(row) for row in rows]

    async def finished_games_in_guild(
        self, guild_id: int, *, after_id: int = 0, limit: int = 500
    ) -> list[GameRow]:
        """Finished games of ``guild_id`` with an id above ``after_id``, by id, at most ``limit``."""
        rows = await self._all(
            "SELECT * FROM games WHERE guild_id = ? AND status = 'finished' AND id > ? ORDER BY id LIMIT ?",
            (guild_id, after_id, limit),
        )
        return [_game(row) for row in rows]


@dataclass(frozen=True)
class MatchRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    players: tuple[int, int]
    options: dict[str, Any]
    target: int
    scores: tuple[int, int]
    games: int
    status: GameStatus
    winner_id: int | None
    created_at: float
    updated_at: float


def _match(row: Row) -> MatchRow:
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

"""``Database``: the storage on SQLite through aiosqlite.

The queries are the repositories' (``backend.py``); this module connects, migrates and
holds transactions, and runs the statements with SQLite's ``?1`` parameters.

One aiosqlite connection serves the whole bot. Access to it is serialized by an
``asyncio.Lock`` so that a transaction of one task never sees (or is interleaved with)
statements of another; ``async with db.transaction():`` holds the lock from ``BEGIN
IMMEDIATE`` to ``COMMIT``, and the statements run inside it by the same task join it.
Outside a transaction each method is atomic on its own.

SQLite runs in WAL mode with ``synchronous=FULL``: a committed move survives a crash of
the process and of the machine.

Every statement (the wait for the lock included) is bounded by ``timeout`` seconds,
and SQLite's own ``busy_timeout`` by the same: a stalled disk or a statement stuck in
aiosqlite's thread fails with ``DatabaseUnavailable`` rather than holding up the
interaction that waits for it (the thread finishes it later; what follows queues
behind it). SQLite's errors that mean the file cannot be used now (full, read-only,
I/O, busy, locked) are ``DatabaseUnavailable`` too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

import aiosqlite

from bot import metrics
from bot.storage import filelock, mark
from bot.storage.backend import DEFAULT_TIMEOUT, Storage
from bot.storage.errors import DatabaseUnavailable, KeyTaken, OutcomeUnknown, ReadOnlyDatabase
from bot.storage.repositories import Repositories
from bot.storage.schema import MigrationError, latest_version, migrations
from bot.storage.sql import Row

log = logging.getLogger(__name__)

# Seconds between updates of the database's mark (mark.py) while transactions commit.
MARK_INTERVAL = 60.0


class ForeignDatabase(MigrationError):
    """The file is an SQLite database of some other program: the bot refuses it unchanged."""


# Created by migration 1: a database at schema version 1 or later has all of them.
_OUR_TABLES: Final = frozenset(
    {"meta", "players", "games", "moves", "results", "ratings", "rating_changes", "challenges"}
)


# SQLite's primary result codes that say the database cannot be used now, not that the
# statement was wrong: BUSY, LOCKED, NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN,
# PROTOCOL, NOTADB.
_UNAVAILABLE: Final = frozenset({5, 6, 7, 8, 10, 11, 13, 14, 15, 26})
_READONLY: Final = 8


def _unavailable(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _UNAVAILABLE


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


class Database(Storage):
    """The bot's SQLite database. ``path`` may be ``":memory:"``."""

    def __init__(
        self, path: str | os.PathLike[str], *, read_only: bool = False, timeout: float | None = None
    ) -> None:
        super().__init__()
        self._path = os.fspath(path)
        self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout
        # For the operator's commands (export, check): opens an existing file only, never
        # writes to it, and takes no file lock, so it may run beside the bot that holds
        # the database and leaves nothing beside a file the bot does not own.
        self.read_only = read_only
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._tx_owner: asyncio.Task[Any] | None = None
        self._file_lock: str | None = None  # one process per database file (filelock.py)
        self._marked_at = 0.0  # time.monotonic() of the last update of the mark
        self._marking: asyncio.Task[None] | None = None

    # -- lifecycle -------------------------------------------------------------------

    @property
    def path(self) -> str:
        return self._path

    @property
    def is_open(self) -> bool:
        return self._conn is not None

    async def connect(self) -> None:
        if self._conn is not None:
            return
        if self.read_only and (self.path == ":memory:" or not os.path.isfile(self.path)):
            raise FileNotFoundError(f"no database at {self.path}")
        if self.path != ":memory:":
            # A database behind its mark lost data (its -wal file, say): refused before
            # anything (a new file, the lock, WAL mode, a migration) touches it.
            await asyncio.to_thread(mark.verify, self.path)
            # Fail here if the file cannot be opened or is another program's, before the
            # lock: a refused file gets no lock file beside it. (A failed aiosqlite.connect
            # would leave its worker thread to report to an event loop that may be closed.)
            await asyncio.to_thread(_probe, self.path)
        if self.path != ":memory:" and self._file_lock is None and not self.read_only:
            self._file_lock = filelock.acquire(self.path)  # DatabaseInUse if another process has it
        # isolation_level=None: no implicit transactions; we BEGIN and COMMIT ourselves.
        if self.read_only:
            uri = Path(self.path).resolve().as_uri() + "?mode=ro"
            conn = await aiosqlite.connect(uri, uri=True, isolation_level=None)
        else:
            conn = await aiosqlite.connect(self.path, isolation_level=None)
        conn.row_factory = sqlite3.Row
        pragmas: tuple[str, ...] = ("PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL")
        if self.read_only:
            pragmas = ("PRAGMA query_only = ON",)
        try:
            busy = f"PRAGMA busy_timeout = {max(1, int(self.timeout * 1000))}"
            for pragma in (*pragmas, "PRAGMA foreign_keys = ON", busy):
                await _run(conn, pragma)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn
        log.info("Database %s opened", self.path)

    async def close(self) -> None:
        """Close the connection after any transaction in progress has finished."""
        if self._marking is not None:
            with contextlib.suppress(Exception):
                await self._marking
        if self._conn is not None and self._writes_mark():
            try:
                await self._update_mark()
            except (sqlite3.Error, OSError):
                log.exception("could not update the mark of %s", self.path)
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

    # -- migrations ------------------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self.one("PRAGMA user_version")
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
            if current >= 1 and not self.read_only:
                # The identity the mark names (mark.py): a database of its own, from now on.
                await _run(
                    conn,
                    f"INSERT INTO meta (key, value) VALUES ('{mark.IDENTITY_KEY}', "
                    "lower(hex(randomblob(16)))) ON CONFLICT (key) DO NOTHING",
                )
        if self._writes_mark():
            await self._update_mark()
        return current

    # -- the mark (mark.py) ------------------------------------------------------------

    def _writes_mark(self) -> bool:
        return not self.read_only and self.path != ":memory:"

    async def _current_mark(self) -> mark.Mark:
        """What this connection sees the database hold now (committed or in its WAL)."""
        version = await self.schema_version()
        names = {row[0] for row in await self.all("SELECT name FROM sqlite_master WHERE type = 'table'")}
        database_id = None
        if "meta" in names:
            database_id = await self.value("SELECT value FROM meta WHERE key = $1", mark.IDENTITY_KEY)
        highest = 0
        if "games" in names:
            highest = int(await self.value("SELECT coalesce(max(id), 0) FROM games"))
        if "sqlite_sequence" in names:
            seq = await self.value("SELECT seq FROM sqlite_sequence WHERE name = 'games'")
            highest = max(highest, int(seq or 0))
        return mark.Mark(
            database_id=None if database_id is None else str(database_id),
            schema_version=version,
            max_game_id=highest,
        )

    async def _update_mark(self) -> None:
        """Record beside the database what it holds now (mark.py). Only a database with
        its identity is recorded: one that is set up."""
        self._marked_at = time.monotonic()
        current = await self._current_mark()
        if current.database_id is not None:
            await asyncio.to_thread(mark.write_mark, self.path, current)

    def _mark_later(self) -> None:
        """After a commit: update the mark in the background, at most every MARK_INTERVAL."""
        if (
            not self._writes_mark()
            or time.monotonic() - self._marked_at < MARK_INTERVAL
            or (self._marking is not None and not self._marking.done())
        ):
            return
        self._marked_at = time.monotonic()
        self._marking = asyncio.get_running_loop().create_task(self._mark_quietly())

    async def _mark_quietly(self) -> None:
        try:
            await self._update_mark()
        except (sqlite3.Error, OSError, RuntimeError):
            # The next interval tries again; a mark that lags only refuses less.
            log.warning("could not update the mark of %s", self.path, exc_info=True)

    async def check_writable(self) -> None:
        """Commit one write; ``ReadOnlyDatabase`` if the file (or its folder, where the
        ``-wal`` file lives) refuses it, or ``PRAGMA query_only`` is set."""
        if self.read_only:
            raise ReadOnlyDatabase(f"{self.path} was opened read-only")
        try:
            async with self.transaction() as tx:
                await tx.players.set_meta("write_check", "ok")
                await tx.players.delete_meta("write_check")  # written and committed, no trace
        except (DatabaseUnavailable, sqlite3.Error) as error:
            cause = error.__cause__ if isinstance(error, DatabaseUnavailable) else error
            if isinstance(cause, sqlite3.Error) and getattr(cause, "sqlite_errorcode", 0) & 0xFF in (
                _READONLY,
                14,  # CANTOPEN: the -wal or -shm file cannot be created beside it
                10,  # IOERR: e.g. writing the -shm file of a read-only folder
            ):
                raise ReadOnlyDatabase(
                    f"the SQLite database {self.path} is read-only ({cause}); the bot needs to write "
                    "to the file and to its folder (its -wal and -shm files)"
                ) from error
            raise

    # -- plumbing --------------------------------------------------------------------

    @asynccontextmanager
    async def _bounded(self, what: str = "a statement") -> AsyncIterator[None]:
        """At most ``timeout`` seconds, the wait for the lock included; a timeout or an
        error that means the file cannot be used now becomes ``DatabaseUnavailable``."""
        try:
            async with asyncio.timeout(self.timeout):
                yield
        except TimeoutError:
            metrics.DATABASE_FAILURES.labels(reason="timeout").inc()
            raise DatabaseUnavailable(f"{what} on {self.path} took over {self.timeout:g} s") from None
        except sqlite3.Error as error:
            if _unavailable(error):
                metrics.DATABASE_FAILURES.labels(reason="error").inc()
                raise DatabaseUnavailable(f"{what} on {self.path} failed: {error}") from error
            raise

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("the database is not open; call connect() first")
        return self._conn

    def in_transaction(self) -> bool:
        return self._tx_owner is not None and self._tx_owner is asyncio.current_task()

    @asynccontextmanager
    async def _access(self) -> AsyncIterator[aiosqlite.Connection]:
        if self.in_transaction():
            yield self._connection()
        else:
            async with self._lock:
                yield self._connection()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Repositories]:
        """``async with db.transaction() as tx:`` everything inside commits together or
        not at all. Statements the same task runs inside it are part of it, through
        ``tx`` or ``db``. Not reentrant.
        """
        if self.in_transaction():
            raise RuntimeError("transactions do not nest")
        async with self._bounded("BEGIN"):
            await self._lock.acquire()
        unlock = True
        try:
            conn = self._connection()
            async with self._bounded("BEGIN"):
                await _run(conn, "BEGIN IMMEDIATE")
            self._tx_owner = asyncio.current_task()
            try:
                yield self
                self._tx_owner = None
                try:
                    async with self._bounded("COMMIT"):
                        await _run(conn, "COMMIT")
                except DatabaseUnavailable as error:
                    if isinstance(error.__cause__, sqlite3.Error) and conn.in_transaction:
                        raise  # SQLite refused the COMMIT: nothing was committed
                    raise OutcomeUnknown(str(error)) from error  # still running, or lost
                self._mark_later()
            except BaseException as error:
                self._tx_owner = None
                if isinstance(error, DatabaseUnavailable) and not isinstance(error.__cause__, sqlite3.Error):
                    # A statement still runs in aiosqlite's thread: the ROLLBACK queues
                    # behind it. Keep the lock until it is done, but do not wait for it.
                    unlock = False
                    task = asyncio.get_running_loop().create_task(self._roll_back_then_unlock(conn))
                    _background.add(task)
                    task.add_done_callback(_background.discard)
                # Also after a failed COMMIT (SQLite may leave the transaction open), so
                # that the connection is usable for the next one.
                elif conn.in_transaction:
                    with contextlib.suppress(sqlite3.Error, TimeoutError):
                        async with asyncio.timeout(self.timeout):
                            await _run(conn, "ROLLBACK")
                raise
        finally:
            if unlock:
                self._lock.release()

    async def _roll_back_then_unlock(self, conn: aiosqlite.Connection) -> None:
        try:
            if conn.in_transaction:
                await _run(conn, "ROLLBACK")
        except sqlite3.Error as error:
            log.warning("ROLLBACK after a timed-out statement on %s failed: %s", self.path, error)
        finally:
            self._lock.release()

    async def execute(self, sql: str, *params: object) -> int:
        async with self._bounded(), self._access() as conn, conn.execute(_sqlite(sql), params) as cursor:
            return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            async with self._bounded(), self._access() as conn, conn.executemany(_sqlite(sql), rows):
                pass
        except sqlite3.IntegrityError as error:
            if error.sqlite_errorname in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"):
                raise KeyTaken(str(error)) from error
            raise  # another constraint: e.g. a foreign key to no row

    async def all(self, sql: str, *params: object) -> list[Row]:
        # One trip to aiosqlite's thread for the statement and its rows (the cursor
        # closed there too), not three.
        async with self._bounded(), self._access() as conn:
            return list(await conn.execute_fetchall(_sqlite(sql), params))


_background: set[asyncio.Task[None]] = set()  # rollbacks left to finish (a strong reference)

_PARAMETER: Final = re.compile(r"\$(\d+)")


@lru_cache(maxsize=512)
def _sqlite(sql: str) -> str:
    """A statement of the repositories in SQLite's parameter style: ``$1`` is ``?1``."""
    return _PARAMETER.sub(r"?\1", sql)

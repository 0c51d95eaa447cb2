"""``PostgresDatabase``: the storage on PostgreSQL through asyncpg.

Several bot processes may share one PostgreSQL database. Each holds a connection pool;
a statement outside a transaction borrows a connection for itself, and ``async with
db.transaction():`` holds one connection from ``BEGIN`` to ``COMMIT``: every statement
the same task runs inside it runs on that connection. Other tasks (and other processes)
meanwhile use their own connections, so transactions of different games run at once.

The isolation level is PostgreSQL's default, READ COMMITTED. Correctness across
processes comes from row-level conditions, not from a lock around the database:

- ``games.save_game_state`` updates ``WHERE id = $1 AND version = $2``. A concurrent writer of
  the same row waits for the first to commit, then finds the version changed and updates
  nothing: ``ConcurrentUpdate``.
- ``games.append_moves`` runs after it in a move's transaction; a second writer of the same
  log position (one that did not go through ``save_game_state``) fails on the primary
  key (game_id, seq). That also means another writer got there first, so it is reported
  as ``ConcurrentUpdate`` too (the SQLite backend does the same).
- ``challenges.resolve_challenge``, ``games.mark_reminded``, ``delivery.take_dm_tip``
  and ``delivery.claim_outbox`` are conditional updates
  whose row count says which caller won.
- ``players.lock`` holds a member's row for a transaction that counts the member's games
  or challenges against a limit and then inserts one: two requests of one member at
  once are counted one after the other.

Migrations take a transaction-scoped advisory lock, so processes starting together
apply each migration once. The schema version is in the table ``schema_version``.

Every call is bounded by ``timeout`` seconds, the wait for a pooled connection
included (asyncpg's ``command_timeout`` too, for what asyncpg runs by itself: a
ROLLBACK, a release): a stopped, slowed or unreachable server fails the call with
``DatabaseUnavailable`` within that time (``OutcomeUnknown`` for a COMMIT). A connection
whose statement timed out is given back to the pool in the background, so the caller
does not wait for asyncpg's cancellation of it.

A connection goes back to the pool without asyncpg's reset query (advisory unlock,
``CLOSE ALL``, ``UNLISTEN *``, ``RESET ALL``: one more round trip per release, five per
move): nothing here leaves session state behind (no session advisory locks, cursors,
``LISTEN`` or ``SET``; the migration lock is transaction-scoped), and asyncpg still
rolls back a transaction left open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final, TypeAlias
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot import metrics
from bot.storage.backend import DEFAULT_TIMEOUT, Storage
from bot.storage.errors import DatabaseUnavailable, KeyTaken, OutcomeUnknown, ReadOnlyDatabase, StorageError
from bot.storage.repositories import Repositories
from bot.storage.schema import MigrationError, latest_version, migrations
from bot.storage.sql import Row

log = logging.getLogger(__name__)

Record = asyncpg.Record
# What pool.acquire() yields: a proxy of a connection, with the same methods.
Connection: TypeAlias = "asyncpg.pool.PoolConnectionProxy[asyncpg.Record]"

# Any number that no other user of the database takes as an advisory lock key.
MIGRATION_LOCK: Final = 0x5C077E11
POOL_SIZE: Final = 10
CONNECT_TIMEOUT: Final = 10.0


# What asyncpg raises when the server cannot be used now (rather than for a wrong query):
# a lost or refused connection, a server shutting down or out of resources, a read-only
# server. ``InterfaceError`` covers "connection is closed" and the pool's own refusals;
# its ``DataError`` (wrong parameters) is a bug and stays as it is.
_UNAVAILABLE: Final = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,
    asyncpg.InterfaceError,
)


def _is_unavailable(error: BaseException) -> bool:
    return isinstance(error, _UNAVAILABLE) and not isinstance(error, asyncpg.exceptions.DataError)


class _Connection(asyncpg.Connection):
    """A pooled connection released without a reset query (see the module docstring);
    asyncpg documents overriding ``get_reset_query`` for this."""

    def get_reset_query(self) -> str:
        return ""


def redact(url: str) -> str:
    """``url`` without its password, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[1]}"))


class PostgresDatabase(Storage):
    """The bot's PostgreSQL database at ``url`` (``postgresql://...``)."""

    def __init__(self, url: str, *, pool_size: int = POOL_SIZE, timeout: float | None = None) -> None:
        super().__init__()
        self.url = url
        self.timeout = DEFAULT_TIMEOUT if timeout is None else timeout
        self._pool_size = pool_size
        self._pool: asyncpg.Pool[Record] | None = None
        # The connection each task's open transaction runs on.
        self._tx: dict[asyncio.Task[Any], Connection] = {}
        self._closing = asyncio.Lock()

    @property
    def path(self) -> str:
        return redact(self.url)

    # -- lifecycle -------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        return self._pool is not None

    async def connect(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self._pool_size,
                timeout=CONNECT_TIMEOUT,
                command_timeout=self.timeout,
                connection_class=_Connection,
            )
        except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StorageError(f"cannot connect to PostgreSQL at {self.path}: {error}") from error
        self._pool = pool
        log.info("Database %s opened", self.path)

    async def close(self) -> None:
        """Close the pool after the transactions in progress have finished. A second
        call waits for a close in progress (the bot's shutdown closes twice)."""
        async with self._closing:
            if self._pool is None:
                return
            pool, self._pool = self._pool, None
            await pool.close()
            log.info("Database %s closed", self.path)

    # -- migrations ------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self._access() as conn:
            return await _schema_version(conn)

    async def migrate(self, target: int | None = None) -> int:
        """Apply the pending migrations up to ``target`` (default: all); returns the version."""
        target = latest_version() if target is None else target
        async with self._access() as conn:
            current = await _schema_version(conn)
            if current > latest_version():
                raise MigrationError(
                    f"{self.path} is at schema version {current}, newer than this bot "
                    f"({latest_version()}); update the bot."
                )
            for migration in migrations("postgres")[current:target]:
                async with conn.transaction():
                    # One process at a time; the others then see the version it reached.
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                    current = await _schema_version(conn)
                    if current >= migration.version:
                        continue
                    try:
                        await conn.execute(migration.sql)
                    except asyncpg.PostgresError as error:
                        raise MigrationError(
                            f"migration {migration.version} ({migration.name}) failed: {error}"
                        ) from error
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", migration.version)
                log.info("Database migrated to version %d (%s)", migration.version, migration.name)
                current = migration.version
            return await _schema_version(conn)

    async def check_writable(self) -> None:
        """Commit one write; ``ReadOnlyDatabase`` on a read-only server (a standby,
        ``default_transaction_read_only``) or for a role that may not write."""
        try:
            async with self.transaction() as tx:
                await tx.players.set_meta("write_check", "ok")
                await tx.players.delete_meta("write_check")  # written and committed, no trace
        except (DatabaseUnavailable, asyncpg.PostgresError) as error:
            cause = error.__cause__ if isinstance(error, DatabaseUnavailable) else error
            refusals = (
                asyncpg.exceptions.ReadOnlySQLTransactionError,
                asyncpg.exceptions.InsufficientPrivilegeError,
            )
            if isinstance(cause, refusals):
                text = f"the PostgreSQL database {self.path} refuses writes: {cause}"
                raise ReadOnlyDatabase(text) from error
            raise

    # -- plumbing --------------------------------------------------------------------

    @asynccontextmanager
    async def _bounded(self, what: str = "a statement") -> AsyncIterator[None]:
        """At most ``timeout`` seconds; a timeout or an error that means the server cannot
        be used now becomes ``DatabaseUnavailable``."""
        try:
            async with asyncio.timeout(self.timeout):
                yield
        except TimeoutError:
            metrics.DATABASE_FAILURES.labels(reason="timeout").inc()
            raise DatabaseUnavailable(f"{what} on {self.path} took over {self.timeout:g} s") from None
        except Exception as error:
            if _is_unavailable(error) and not isinstance(error, DatabaseUnavailable):
                metrics.DATABASE_FAILURES.labels(reason="error").inc()
                raise DatabaseUnavailable(f"{what} on {self.path} failed: {error}") from error
            raise

    @asynccontextmanager
    async def _pooled(self) -> AsyncIterator[Connection]:
        """A pooled connection for this call. After a failure it goes back in the
        background; after a timeout (or a lost connection) it is closed first, at once:
        asyncpg would otherwise ask the server to cancel the statement on a connection
        of its own, and wait for that, which never ends while packets are dropped."""
        pool = self._pool_or_fail()
        conn = await pool.acquire(timeout=self.timeout)
        try:
            yield conn
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError | DatabaseUnavailable) or _is_unavailable(error):
                # The server rolls back what it had of the transaction. (A connection
                # the pool already took back when it was lost refuses: nothing to do.)
                with contextlib.suppress(asyncpg.InterfaceError):
                    conn.terminate()
            task = asyncio.get_running_loop().create_task(_release(pool, conn, self.timeout))
            _background.add(task)
            task.add_done_callback(_background.discard)
            raise
        await pool.release(conn)

    def _pool_or_fail(self) -> asyncpg.Pool[Record]:
        if self._pool is None:
            raise RuntimeError("the database is not open; call connect() first")
        return self._pool

    def _own_connection(self) -> Connection | None:
        task = asyncio.current_task()
        return None if task is None else self._tx.get(task)

    @asynccontextmanager
    async def _access(self) -> AsyncIterator[Connection]:
        """The current task's transaction connection, else a pooled one for this call."""
        conn = self._own_connection()
        if conn is not None:
            yield conn
        else:
            async with self._pooled() as pooled:
                yield pooled

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Repositories]:
        """``async with db.transaction() as tx:`` everything inside commits together or
        not at all. Statements the same task runs inside it are part of it, through
        ``tx`` or ``db``. Not reentrant.
        """
        task = asyncio.current_task()
        assert task is not None, "transaction() needs a running task"
        if task in self._tx:
            raise RuntimeError("transactions do not nest")
        async with self._bounded("BEGIN"):
            pooled = self._pooled()
            conn = await pooled.__aenter__()
        try:
            transaction = conn.transaction()
            async with self._bounded("BEGIN"):
                await transaction.start()
            self._tx[task] = conn
            try:
                yield self
            except BaseException as error:
                del self._tx[task]
                # At once, unless a statement timed out or the connection was lost: then
                # the background release does it (asyncpg rolls back a connection
                # released inside a transaction), without holding up the caller.
                if not isinstance(error, DatabaseUnavailable) and not conn.is_closed():
                    with contextlib.suppress(Exception):
                        async with asyncio.timeout(self.timeout):
                            await transaction.rollback()
                raise
            del self._tx[task]
            try:
                async with self._bounded("COMMIT"):
                    await transaction.commit()
            except DatabaseUnavailable as error:
                raise OutcomeUnknown(str(error)) from error
        except BaseException as error:
            await pooled.__aexit__(type(error), error, error.__traceback__)
            raise
        await pooled.__aexit__(None, None, None)

    def in_transaction(self) -> bool:
        return self._own_connection() is not None

    async def execute(self, sql: str, *params: object) -> int:
        """Run one statement; returns the number of rows it changed."""
        async with self._bounded(), self._access() as conn:
            status = await conn.execute(sql, *params)
        return _row_count(status)

    async def all(self, sql: str, *params: object) -> list[Row]:
        async with self._bounded(), self._access() as conn:
            return list(await conn.fetch(sql, *params))

    async def one(self, sql: str, *params: object) -> Row | None:
        async with self._bounded(), self._access() as conn:
            row: Record | None = await conn.fetchrow(sql, *params)
            return row

    async def value(self, sql: str, *params: object) -> Any:
        async with self._bounded(), self._access() as conn:
            return await conn.fetchval(sql, *params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            async with self._bounded(), self._access() as conn:
                await conn.executemany(sql, rows)
        except asyncpg.UniqueViolationError as error:
            raise KeyTaken(str(error)) from error

    async def copy_rows(
        self, table: str, columns: Sequence[str], records: Sequence[Sequence[object]]
    ) -> None:
        """Insert ``records`` (values of ``columns``) into ``table`` as they are, with
        PostgreSQL's binary COPY (the values must be of the columns' Python types)."""
        if records:
            async with self._access() as conn:
                await conn.copy_records_to_table(table, records=records, columns=list(columns))


_background: set[asyncio.Task[None]] = set()  # connections going back (a strong reference)


async def _release(pool: asyncpg.Pool[Record], conn: Connection, timeout: float) -> None:
    try:
        await pool.release(conn, timeout=timeout)
    except Exception as error:  # asyncpg terminates the connection itself
        log.debug("releasing a connection after a failure: %r", error)


_COUNT = re.compile(r"(\d+)$")


def _row_count(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    match = _COUNT.search(status)
    return int(match[1]) if match else 0


async def _schema_version(conn: Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    version = await conn.fetchval("SELECT max(version) FROM schema_version")
    return int(version or 0)


async def write_refusal(url: str, version: int) -> str | None:
    """Why the role of ``url`` cannot do what a start does (migrate, then write), or
    None (``python -m bot check``). What it tries happens in a transaction that is
    rolled back; ``version`` is the database's schema version now."""
    conn = await asyncpg.connect(url, timeout=10)
    try:
        if await conn.fetchval("SELECT pg_is_in_recovery()"):
            return "it is a read-only standby; connect to the primary"
        if await conn.fetchval("SHOW default_transaction_read_only") == "on":
            return "its transactions are read-only (default_transaction_read_only is on)"
        if version < latest_version():  # a start creates or alters tables
            tx = conn.transaction()
            await tx.start()
            try:
                await conn.execute("CREATE TABLE schotten_check_write (id integer)")
                await conn.execute("INSERT INTO schotten_check_write VALUES (1)")
            except (asyncpg.InsufficientPrivilegeError, asyncpg.ReadOnlySQLTransactionError) as error:
                return f"{error} (the role needs to own the database, or CREATE on its schema)"
            finally:
                await tx.rollback()
        lacking = await conn.fetch(
            """SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
               WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
                 AND NOT (has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')
                          AND has_table_privilege(c.oid, 'UPDATE') AND has_table_privilege(c.oid, 'DELETE'))
               ORDER BY c.relname"""
        )
        if lacking:
            names = ", ".join(row[0] for row in lacking[:5]) + (", ..." if len(lacking) > 5 else "")
            return (
                f"the role may not read and write the tables {names}; connect with the owner of"
                " the bot's tables, or grant it SELECT, INSERT, UPDATE and DELETE on them"
            )
        return None
    finally:
        await conn.close()

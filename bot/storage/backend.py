"""``Storage``: what both backends are, a database with repositories.

Two backends implement it: ``Database`` (SQLite through aiosqlite, the default, one
bot process per database file) and ``PostgresDatabase`` (PostgreSQL through asyncpg,
for several processes on one database). Each adds how to connect, migrate, hold a
transaction and run a statement (the ``Executor`` protocol of ``sql.py``); the queries
are the repositories' (``games.py``, ``challenges.py``, ``ratings.py``, ``players.py``,
``delivery.py``), written once for both.

Contracts every backend keeps:

- ``async with storage.transaction() as tx:`` commits everything inside together or
  nothing. Statements the same task runs inside it are part of it, through ``tx``'s
  repositories or the storage's own; transactions do not nest (a second
  ``transaction()`` in the same task raises ``RuntimeError``). Outside a transaction
  each repository method is atomic on its own.
- ``games.save_game_state(expected_version=...)`` is a compare-and-set: if the stored
  game is not at ``expected_version`` (another writer, possibly another process, got
  there first) it raises ``ConcurrentUpdate`` and the transaction rolls back.
- Every statement, and each step of a transaction (waiting for the connection,
  ``BEGIN``, ``COMMIT``), is bounded by ``timeout`` seconds: when the database is
  stopped, slowed or unreachable it fails with ``DatabaseUnavailable`` within that
  time instead of hanging, so an interaction can still be answered within Discord's
  three seconds. A COMMIT that fails that way raises ``OutcomeUnknown`` (it may have
  committed). A driver error that means "the database cannot be used now" (a lost
  connection, a full disk, a read-only file) is ``DatabaseUnavailable`` too.
- ``check_writable()`` fails with ``ReadOnlyDatabase`` when the database refuses
  writes; the bot calls it at start and refuses to run.
- ``migrate()`` brings the schema to ``latest_version()``; both backends share the
  version numbers of ``migrations/NNN_*.sql`` (SQLite) and ``migrations/postgres/``.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Self

from bot.storage.repositories import Repositories
from bot.storage.sql import Row

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Seconds one statement may take (DATABASE_TIMEOUT): under Discord's three seconds for
# an answer, with room for the reply itself.
DEFAULT_TIMEOUT = 2.0


def is_postgres_url(target: str | os.PathLike[str]) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


class Storage(Repositories, ABC):
    """A database: its lifecycle and transactions, its repositories, its executor."""

    def __init__(self) -> None:
        super().__init__(self)

    # -- lifecycle and migrations ------------------------------------------------------

    @property
    @abstractmethod
    def path(self) -> str:
        """Where the data is, for messages: a file path, or a URL without its password."""

    @property
    @abstractmethod
    def is_open(self) -> bool: ...

    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def check_writable(self) -> None:
        """Commit one write that leaves no trace (the ``meta`` row ``write_check``,
        written and deleted); ``ReadOnlyDatabase`` if the database refuses it. Call
        after ``migrate()``."""

    @abstractmethod
    async def migrate(self, target: int | None = None) -> int:
        """Apply the pending migrations up to ``target`` (default: all); returns the version."""

    # -- transactions ------------------------------------------------------------------

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Repositories]:
        """``async with storage.transaction() as tx:`` everything inside commits together
        or not at all. Not reentrant."""

    @abstractmethod
    def in_transaction(self) -> bool:
        """Whether the current task holds an open ``transaction()`` of this database."""

    @asynccontextmanager
    async def atomic(self) -> AsyncIterator[object]:
        """A transaction unless the current task already holds one."""
        if self.in_transaction():
            yield self
        else:
            async with self.transaction() as tx:
                yield tx

    # -- statements (the Executor protocol) --------------------------------------------

    @abstractmethod
    async def execute(self, sql: str, *params: object) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement for each row; ``KeyTaken`` if one meets a row with its key."""

    @abstractmethod
    async def all(self, sql: str, *params: object) -> Sequence[Row]: ...

    async def one(self, sql: str, *params: object) -> Row | None:
        rows = await self.all(sql, *params)
        return rows[0] if rows else None

    async def value(self, sql: str, *params: object) -> Any:
        """The first column of the first row (None without a row)."""
        row = await self.one(sql, *params)
        return None if row is None else row[0]

    # -- whole tables (moving a database: transfer.py) ---------------------------------

    async def rows(self, table: str, columns: Sequence[str]) -> list[tuple[Any, ...]]:
        """Every row of ``table``, the values of ``columns`` in that order."""
        selected = ", ".join(quote(name) for name in columns)
        return [tuple(row) for row in await self.all(f"SELECT {selected} FROM {quote(table)}")]

    async def copy_rows(
        self, table: str, columns: Sequence[str], records: Sequence[Sequence[object]]
    ) -> None:
        """Insert ``records`` (values of ``columns``) into ``table`` as they are."""
        if records:
            marks = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
            await self.executemany(
                f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in columns)}) VALUES ({marks})",
                records,
            )

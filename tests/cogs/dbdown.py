"""The database stops answering right after a commit: ``DownAfterCommit``.

Wrapped around the bot's own storage (its statements and transactions, on either
backend: both run every statement of a transaction through the storage itself), so
the tests that use it run on SQLite and, with ``TEST_BOT_DATABASE=postgres``, on
PostgreSQL. Armed with a fragment of SQL, the first transaction that runs a statement
containing it (or such a statement on its own, outside a transaction) commits as
usual; from then on every statement and every transaction fails with
``DatabaseUnavailable``, as when the server went away, until :meth:`heal`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

from bot.storage import DatabaseUnavailable, Repositories, Storage


class DownAfterCommit:
    def __init__(self, db: Storage) -> None:
        self.db = db
        self.down = False
        self.fired = 0  # commits after which the database went down
        self._when: str | None = None
        self._seen: set[asyncio.Task[Any]] = set()  # transactions that ran the statement
        self._execute, self._executemany, self._all = db.execute, db.executemany, db.all
        self._one, self._value, self._transaction = db.one, db.value, db.transaction
        db.execute = self.execute  # type: ignore[method-assign]
        db.executemany = self.executemany  # type: ignore[method-assign]
        db.all = self.all  # type: ignore[method-assign]
        db.one = self.one  # type: ignore[method-assign]  # PostgreSQL's run on their own
        db.value = self.value  # type: ignore[method-assign]
        db.transaction = self.transaction  # type: ignore[method-assign]

    def arm(self, sql: str) -> None:
        """Go down after the commit of the next write whose SQL contains ``sql``."""
        self._when = sql

    def heal(self) -> None:
        self.down = False

    def _check(self) -> None:
        if self.down:
            raise DatabaseUnavailable("the database stopped answering (test)")

    def _note(self, sql: str) -> bool:
        """Whether ``sql`` is the armed write; inside a transaction, remembered for its end."""
        if self._when is None or self._when not in sql:
            return False
        if self.db.in_transaction():
            self._seen.add(asyncio.current_task())  # type: ignore[arg-type]
            return False
        return True

    def _fire(self) -> None:
        self._when = None
        self.down = True
        self.fired += 1

    async def execute(self, sql: str, *params: object) -> int:
        self._check()
        count = await self._execute(sql, *params)
        if self._note(sql):
            self._fire()
        return count

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        self._check()
        await self._executemany(sql, rows)
        if self._note(sql):
            self._fire()

    async def all(self, sql: str, *params: object) -> Sequence[Any]:
        self._check()
        rows = await self._all(sql, *params)
        if self._note(sql):  # e.g. an INSERT ... RETURNING
            self._fire()
        return rows

    async def one(self, sql: str, *params: object) -> Any:
        self._check()
        row = await self._one(sql, *params)
        if self._note(sql):
            self._fire()
        return row

    async def value(self, sql: str, *params: object) -> Any:
        self._check()
        found = await self._value(sql, *params)
        if self._note(sql):
            self._fire()
        return found

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Repositories]:
        self._check()
        task = asyncio.current_task()
        try:
            async with self._transaction() as tx:
                yield tx
        except BaseException:
            self._seen.discard(task)  # type: ignore[arg-type]
            raise
        if task in self._seen:  # committed: the database goes away now
            self._seen.discard(task)  # type: ignore[arg-type]
            self._fire()


__all__ = ["DownAfterCommit"]

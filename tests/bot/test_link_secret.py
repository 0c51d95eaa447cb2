"""The links' signing key kept in the database: processes that start together on one
database must all sign with the same key (``bot/web/tokens.py``, ``load_secret``)."""

from __future__ import annotations

import asyncio

from bot.storage import Storage
from bot.web.tokens import SECRET_META_KEY, load_secret


class BothReadFirst:
    """The players' store of one process, whose first read of the key waits until the
    other process has read too: both find no key and both make one."""

    def __init__(self, db: Storage, barrier: asyncio.Barrier) -> None:
        self.db = db
        self.barrier = barrier

    async def get_meta(self, key: str) -> str | None:
        found = await self.db.players.get_meta(key)
        await self.barrier.wait()
        return found

    async def set_meta(self, key: str, value: str) -> None:
        await self.db.players.set_meta(key, value)

    async def add_meta(self, key: str, value: str) -> str:
        return await self.db.players.add_meta(key, value)


async def test_processes_starting_together_sign_with_one_key(db: Storage) -> None:
    barrier = asyncio.Barrier(2)
    first, second = await asyncio.gather(
        load_secret(BothReadFirst(db, barrier), None),
        load_secret(BothReadFirst(db, barrier), None),
    )
    assert first == second == await db.players.get_meta(SECRET_META_KEY)
    assert await load_secret(db.players, None) == first  # a later start reads it
    assert await load_secret(db.players, "configured-secret-0123") == "configured-secret-0123"


async def test_add_meta_keeps_the_first_value(db: Storage) -> None:
    assert await db.players.add_meta("k", "one") == "one"
    assert await db.players.add_meta("k", "two") == "one"
    assert await db.players.get_meta("k") == "one"

"""Fixtures shared by every test package.

``simcord_bot`` is the bot that simcord's ``simcord_env`` fixture runs: the real
``create_bot`` with an in-memory database and every cog, as in production.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.app import SchottenBot, create_bot


@pytest_asyncio.fixture
async def simcord_bot() -> AsyncIterator[SchottenBot]:
    bot = create_bot(database=":memory:")
    yield bot
    await bot.db.close()  # simcord detaches the bot without closing it

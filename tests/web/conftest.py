"""The bot with its web pages on a free loopback port, for simcord (``simcord_env``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from bot.app import SchottenBot, create_bot
from bot.settings import Settings
from tests.ports import free_port

SECRET = "test-secret-for-the-web-pages-0123456789"


@pytest_asyncio.fixture
async def simcord_bot() -> AsyncIterator[SchottenBot]:
    port = free_port()
    settings = Settings(web_port=port, public_url=f"http://127.0.0.1:{port}", web_secret=SECRET)
    bot = create_bot(database=":memory:", settings=settings, web=True)
    yield bot
    await bot.close()

"""The bot with its web pages on a free loopback port, for simcord (``simcord_env``)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import pytest_asyncio

from bot.app import SchottenBot, create_bot
from bot.settings import Settings

SECRET = "test-secret-for-the-web-pages-0123456789"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest_asyncio.fixture
async def simcord_bot() -> AsyncIterator[SchottenBot]:
    port = free_port()
    settings = Settings(web_port=port, public_url=f"http://127.0.0.1:{port}", web_secret=SECRET)
    bot = create_bot(database=":memory:", settings=settings, web=True)
    yield bot
    await bot.close()

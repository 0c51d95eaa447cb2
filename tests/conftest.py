"""Fixtures and settings shared by every test package.

``simcord_bot`` is the bot that simcord's ``simcord_env`` fixture runs: the real
``create_bot`` with an in-memory database and every cog, as in production.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest_asyncio
from hypothesis import settings

from bot.app import SchottenBot, create_bot

# In CI the same examples every run: a red build is reproducible, never a lucky draw.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest_asyncio.fixture
async def simcord_bot() -> AsyncIterator[SchottenBot]:
    bot = create_bot(database=":memory:")
    yield bot
    await bot.close()  # simcord detaches the bot without closing it: the database, workers

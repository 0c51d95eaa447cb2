"""A bot with its web pages off (``WEB_PORT=0``) and ``METRICS_PORT`` set serves
/healthz, /readyz and /metrics on that port alone (bot/web/operator.py)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
import pytest_asyncio

from bot.app import SchottenBot, create_bot
from bot.settings import Settings
from tests.ports import free_port
from tests.web.helpers import get


@pytest_asyncio.fixture
async def simcord_bot() -> AsyncIterator[SchottenBot]:
    settings = Settings(web_port=0, metrics_port=free_port())
    bot = create_bot(database=":memory:", settings=settings, web=True)
    yield bot
    await bot.close()


async def test_the_operator_port_serves_health_without_the_pages(simcord_env, simcord_bot):
    bot = simcord_bot
    assert bot.web is None and bot.operator is not None  # no pages, no links
    root = f"http://127.0.0.1:{bot.operator.port}"
    assert bot.operator.port == bot.settings.metrics_port
    status, body, _ = await get(f"{root}/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"
    status, body, _ = await get(f"{root}/readyz")
    assert status == 200 and json.loads(body)["ready"] is True, body
    status, body, _ = await get(f"{root}/metrics")
    assert status == 200 and b"schotten_moves_applied_total" in body
    status, _, _ = await get(f"{root}/watch/1/x")  # only the operator's three
    assert status == 404
    await bot.close()  # closes the operator port too
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(f"{root}/healthz")

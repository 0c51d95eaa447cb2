"""A practice game against the bot's AI played at the table in Chromium: the AI's replies
arrive on the page's event stream, and the hint is shown on the board. The AI runs in a
thread pool injected through ``create_bot``, as in tests/cogs/test_practice.py."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import expect

from bot.app import SchottenBot, create_bot
from bot.settings import Settings
from tests.cogs.helpers import setup_members
from tests.ports import free_port
from tests.web.browser import browser
from tests.web.conftest import SECRET
from tests.web.table_player import WAIT, button, open_seat, shows, table_step

__all__ = ["browser"]  # the fixture

MAX_MOVES = 400


@pytest.fixture
def pool() -> Any:
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-ai")
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


@pytest_asyncio.fixture
async def simcord_bot(pool: ThreadPoolExecutor) -> AsyncIterator[SchottenBot]:
    port = free_port()
    settings = Settings(web_port=port, public_url=f"http://127.0.0.1:{port}", web_secret=SECRET)
    bot = create_bot(database=":memory:", settings=settings, web=True, ai_executor=pool)
    yield bot
    await bot.close()


async def quiet(bot: SchottenBot) -> None:
    """Wait until the AI has finished its turn and every publication is done (the
    table's publication starts the AI's turn, whose own publication then follows)."""
    assert bot.web is not None
    for _ in range(3):
        await bot.web.table.settled()
        await bot.opponent.wait_idle()


async def test_a_practice_game_at_the_table(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice,) = setup_members(env, ("alice",))
    result = await alice.slash(channel, "schotten practice", difficulty="easy")
    text = result.followups[0].content if result.followups else result.response.content
    game_id = int(re.search(r"Game #(\d+)", text).group(1))
    errors: list[str] = []
    page = await open_seat(browser, bot.web.links.seat(game_id, 0), errors)
    rng = random.Random(9)
    hinted = False
    for _ in range(MAX_MOVES):
        await quiet(bot)
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        assert record.current_player == 0, "the AI did not finish its turn"
        await shows(page, record.version)  # the AI's reply reached the page by itself
        if not hinted and record.game.phase == "play":
            await button(page, "Hint").click()
            await expect(page.locator("#hint")).to_contain_text("Hint:", timeout=WAIT)
            hinted = True
        await table_step(bot, page, rng)
    else:
        raise AssertionError("the game did not end")
    await quiet(bot)
    await expect(page.locator("#replay")).to_be_visible(timeout=WAIT)
    assert hinted
    moves = await bot.db.games.moves(game_id)
    assert {m.player for m in moves} == {0, 1}
    assert errors == [], errors

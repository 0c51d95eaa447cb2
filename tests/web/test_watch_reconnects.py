"""The watch page when its event stream is refused (the 9th page from one address gets
429) or cut (a restart behind a proxy: 502): it says so and opens the stream again by
itself, then follows the game as before, without a reload."""

from __future__ import annotations

import random

import pytest
from playwright.async_api import expect

from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.web.browser import browser

__all__ = ["browser"]  # the fixture


@pytest.mark.parametrize("refusal", [429, 502])
async def test_the_watch_page_reconnects_with_a_visible_state(simcord_env, simcord_bot, browser, refusal):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id = {alice.id: alice, bob.id: bob}
    page = await (await browser.new_context(locale="en-GB")).new_page()
    refused: list[str] = []

    async def first_refused(route):
        if not refused:
            refused.append(route.request.url)
            await route.fulfill(status=refusal, body="no")
        else:
            await route.continue_()

    await page.route("**/events", first_refused)
    await page.goto(bot.web.links.watch(game_id))
    await page.evaluate("window.notReloaded = true")
    connection = page.locator("#connection")
    await expect(connection).to_be_visible()
    await expect(connection).to_contain_text("reconnecting")
    await expect(connection).to_be_hidden(timeout=10_000)  # opened again by itself
    record = await bot.service.get(game_id)
    await dm_turn(by_id[record.current_user], random.Random(2), game_id)
    now = await bot.service.get(game_id)
    await expect(page.locator("body")).to_have_attribute("data-version", str(now.version), timeout=10_000)
    assert refused and await page.evaluate("window.notReloaded") is True

"""Every public page fits a phone: at 390 and 360 px wide (and in landscape, and on a
desktop) no page scrolls sideways (``document.scrollWidth`` within the viewport), with
long and hostile names, a Battle Line game in play and a German ladder. Wide tables
scroll inside their own box instead."""

from __future__ import annotations

import random

from playwright.async_api import expect

from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.web.browser import browser, screenshot_path
from tests.web.test_pages import HOSTILE

__all__ = ["browser"]  # the fixture

# Long names with no place to break, and markup: what members may call themselves.
NAMES = ("Wolfeschlegelsteinhausenbergerdorff" + HOSTILE[0], "Bartholomew-Maximilian-" + HOSTILE[1])
VIEWPORTS = ((390, 844), (360, 740), (844, 390), (1280, 900))


async def play_to_the_end(bot, by_id, game_id, rng):
    while not (record := await bot.service.get(game_id)).game.is_over:
        await dm_turn(by_id[record.current_user], rng, game_id)


async def test_no_page_scrolls_sideways_on_a_phone(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env, NAMES)
    by_id = {alice.id: alice, bob.id: bob}
    rng = random.Random(11)
    finished = await challenge_and_accept(env, channel, alice, bob)
    await play_to_the_end(bot, by_id, finished, rng)
    battle = await challenge_and_accept(env, channel, bob, alice, ruleset="battle-line")
    for _ in range(8):
        record = await bot.service.get(battle)
        await dm_turn(by_id[record.current_user], rng, battle)
    links = bot.web.links
    pages = {
        "ladder-en": ("en-GB", links.ladder(guild.id)),
        "ladder-de": ("de-DE", links.ladder(guild.id)),
        "battle-line-live": ("en-GB", links.watch(battle)),
        "replay-long-name": ("en-GB", links.replay(finished)),
        "replay-start-fr": ("fr-FR", links.replay(finished) + "?step=0"),
    }
    wide = []
    for width, height in VIEWPORTS:
        for name, (locale, url) in pages.items():
            context = await browser.new_context(locale=locale, viewport={"width": width, "height": height})
            page = await context.new_page()
            await page.goto(url)
            await expect(page.locator("h1")).to_be_visible()
            await page.evaluate("document.fonts.ready")
            scroll = await page.evaluate("document.documentElement.scrollWidth")
            if scroll > width:
                wide.append(f"{name} at {width} px: {scroll} px wide")
            if width in (360, 390) and height > width:
                await page.screenshot(path=str(screenshot_path(f"{name}-{width}")), full_page=True)
            await context.close()
    assert wide == []

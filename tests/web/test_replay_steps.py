"""A replay steps without reloading the page: by keys, by its buttons and by a click on a
move (a link to the position after it); the address follows and Back returns."""

from __future__ import annotations

import random

from playwright.async_api import expect

from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.web.browser import browser

__all__ = ["browser"]  # the fixture


async def test_a_replay_steps_in_place(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id = {alice.id: alice, bob.id: bob}
    rng = random.Random(3)
    while not (record := await bot.service.get(game_id)).game.is_over:
        await dm_turn(by_id[record.current_user], rng, game_id)
    errors: list[str] = []
    page = await (
        await browser.new_context(locale="en-GB", viewport={"width": 390, "height": 500})
    ).new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    url = bot.web.links.replay(game_id)
    await page.goto(url + "?step=0")
    await page.evaluate("window.notReloaded = true")
    step = page.locator("#step")
    await page.keyboard.press("ArrowRight")
    await expect(step).to_contain_text("Step 1 of")
    await page.get_by_role("link", name="Forward", exact=True).click()
    await expect(step).to_contain_text("Step 2 of")
    assert page.url.endswith("?step=2")
    move = page.locator("#moves a").nth(5)
    await move.scroll_into_view_if_needed()
    scrolled = await page.evaluate("window.scrollY")
    assert scrolled > 0
    await move.click()
    await expect(step).to_contain_text("Step 6 of")
    await expect(page.locator("#moves li.current")).to_have_count(1)
    assert await page.evaluate("window.scrollY") == scrolled  # no jump to the top
    await page.go_back()
    await expect(step).to_contain_text("Step 2 of")
    assert await page.evaluate("window.notReloaded") is True
    # Not wider than a phone either.
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    assert errors == [], errors

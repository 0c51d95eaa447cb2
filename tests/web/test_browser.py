"""The pages in a real browser (Chromium through Playwright), on a game played through
simcord: the watch page (the spectator's table) changes without a reload, a replay steps with the keyboard, a
forged link shows nothing. Screenshots go to tests/output/web/."""

from __future__ import annotations

import random

from playwright.async_api import expect

from bot.web.replay_steps import turn_ends
from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.web.browser import browser, screenshot_path
from tests.web.test_pages import HOSTILE

__all__ = ["browser"]  # the fixture


async def _new_page(browser, errors):
    context = await browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 1400})
    page = await context.new_page()
    page.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}"))
    page.on("pageerror", lambda error: errors.append(f"script error: {error}"))
    # The Content Security Policy refusing something the page itself asked for.
    page.on(
        "console",
        lambda message: (
            errors.append(f"console: {message.text}") if "Content Security Policy" in message.text else None
        ),
    )
    return page


async def test_live_page_follows_moves_and_replay_steps_by_keyboard(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env, HOSTILE)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id = {alice.id: alice, bob.id: bob}
    errors: list[str] = []
    page = await _new_page(browser, errors)
    await page.goto(bot.web.links.watch(game_id))
    await expect(page.locator("#players .player[data-seat='0'] .hand")).to_contain_text(HOSTILE[0])
    await expect(page.locator("body")).to_have_attribute(
        "data-version", str((await bot.service.get(game_id)).version)
    )
    await page.evaluate("window.notReloaded = true")
    rng = random.Random(3)
    for _ in range(3):
        record = await bot.service.get(game_id)
        await dm_turn(by_id[record.current_user], rng, game_id)
        now = await bot.service.get(game_id)
        # Within 2 s of the move, without a reload.
        await expect(page.locator("body")).to_have_attribute("data-version", str(now.version), timeout=2000)
        assert await page.evaluate("window.notReloaded") is True
    # A turn per player's play and draw, the newest first; not yet links to the replay.
    await expect(page.locator("#turns li")).to_have_count(3)
    assert await page.locator("#turns li").first.get_attribute("value") == "3"
    assert await page.locator("#turns a").count() == 0
    assert await page.locator("#hand").count() == 0  # a spectator has no hand
    assert await page.locator("img").count() == 0  # no name became an element
    assert await page.locator("script[src]").count() == 1
    await page.screenshot(path=str(screenshot_path("live")), full_page=True)

    # Play to the end; then the replay, stepped with the arrow keys.
    while not (record := await bot.service.get(game_id)).game.is_over:
        await dm_turn(by_id[record.current_user], rng, game_id)
    await expect(page.locator("#replay")).to_be_visible(timeout=3000)
    # Over: each turn links to the replay at the position after it.
    last = page.locator("#turns li").first.locator("a")
    end = len(record.game.log)
    assert (await last.get_attribute("href")).endswith(f"?step={end}")
    await expect(page.locator("body")).to_have_attribute("data-connection", "over")
    replay = await _new_page(browser, errors)
    await replay.goto(bot.web.links.replay(game_id) + "?step=0")
    await expect(replay.locator("#step")).to_contain_text("Step 0 of")
    await replay.keyboard.press("ArrowRight")
    await expect(replay.locator("#step")).to_contain_text("Step 1 of")
    await replay.keyboard.press("ArrowRight")
    await expect(replay.locator("#step")).to_contain_text("Step 2 of")
    await replay.keyboard.press("ArrowLeft")
    await expect(replay.locator("#step")).to_contain_text("Step 1 of")
    await replay.keyboard.press("End")
    steps = len(turn_ends([player for player, _ in record.game.log])) - 1  # a turn is a step
    await expect(replay.locator("#step")).to_contain_text(f"Step {steps} of {steps}")
    await expect(replay.locator(".hand")).to_have_count(2)
    await replay.screenshot(path=str(screenshot_path("replay")), full_page=True)

    ladder = await _new_page(browser, errors)
    await ladder.goto(bot.web.links.ladder(guild.id))
    await expect(ladder.locator("#ladder .name")).to_have_count(2)
    await expect(ladder.locator("svg.chart")).to_have_count(2)
    await ladder.screenshot(path=str(screenshot_path("ladder")), full_page=True)

    # A forged link: nothing of the game.
    forged = await _new_page(browser, errors)
    url = bot.web.links.watch(game_id)
    response = await forged.goto(url[:-3] + "abc")
    assert response is not None and response.status == 404
    await expect(forged.locator("body")).not_to_contain_text("Game #")
    assert await forged.locator("img").count() == 0
    await forged.screenshot(path=str(screenshot_path("forged")), full_page=True)
    assert errors == [], errors

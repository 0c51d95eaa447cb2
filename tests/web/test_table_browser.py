"""Whole games played at the table in Chromium, the other player in simcord (their DM
controls): the page shows every move made in Discord without a reload, the channel's
board and the DMs follow every move made at the table, and the page never needs a
Discord select. Screenshots go to tests/output/web/."""

from __future__ import annotations

import random

from playwright.async_api import expect

from tests.cogs.helpers import challenge_and_accept, dm_message, dm_turn, hand_in, setup_members
from tests.web.browser import browser, screenshot_path
from tests.web.table_player import WAIT, button, enabled, open_seat, settled, shows, table_step

__all__ = ["browser"]  # the fixture

MAX_MOVES = 400


async def test_a_base_game_at_the_table_against_discord(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    by_seat = {record.players.index(m.id): m for m in (alice, bob)}
    seat = 0
    errors: list[str] = []
    page = await open_seat(browser, bot.web.links.seat(game_id, seat), errors)
    await page.evaluate("window.notReloaded = true")
    # Accessible names: every stone and deck, by name; a deck's count is its description.
    for number in range(1, 10):
        await expect(button(page, f"Stone {number}")).to_have_count(1)
    await expect(button(page, "Clan deck")).to_have_accessible_name("Clan deck")
    clan = record.game.deck_sizes[0]
    await expect(button(page, "Clan deck")).to_have_accessible_description(f"{clan} left")
    await expect(page.locator("#decks .deck-count")).to_have_text(f"{clan} left")  # and shown
    rng = random.Random(8)
    shot = False
    for _ in range(MAX_MOVES):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        await shows(page, record.version)
        if record.current_player == seat:
            if not shot and len(record.game.log) > 8 and record.game.phase == "play":
                # A card chosen, its stones lit; Escape (the keyboard) puts it back.
                card = (await enabled(page.locator("#hand button")))[0]
                await card.click()
                await expect(card).to_have_attribute("aria-pressed", "true")
                await page.screenshot(path=str(screenshot_path("table-desktop")), full_page=True)
                await page.keyboard.press("Escape")
                await expect(page.locator("#hand button[aria-pressed=true]")).to_have_count(0)
                shot = True
            await table_step(bot, page, rng)
            # Discord follows: the DM shows the hand the table shows.
            now = await bot.service.get(game_id)
            if not now.game.is_over:
                cards = await page.locator("#hand button").all()
                shown = [await card.get_attribute("aria-label") for card in cards]
                assert hand_in(dm_message(by_seat[seat], game_id).content) == shown
        else:
            await dm_turn(by_seat[1 - seat], rng, game_id)
            await settled(bot, page)  # the Discord move reached the table, without a reload
    else:
        raise AssertionError("the game did not end")
    assert shot
    record = await bot.service.get(game_id)
    await shows(page, record.version)
    await expect(page.locator("#replay")).to_be_visible(timeout=WAIT)
    await expect(page.locator("#status")).to_contain_text("win")
    assert await page.evaluate("window.notReloaded") is True
    assert f"Game #{game_id} is over" in channel.last_message.content
    # A seat of a finished game is closed.
    closed = await page.context.new_page()
    response = await closed.goto(bot.web.links.seat(game_id, seat))
    assert response is not None and response.status == 410
    assert errors == [], errors


async def test_the_table_on_a_phone(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    seat = record.current_player
    errors: list[str] = []
    phone = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
    page = await open_seat(browser, bot.web.links.seat(game_id, seat), errors, **phone)
    # Nothing wider than the phone; every control a thumb can hit.
    assert await page.evaluate("document.documentElement.scrollWidth") <= 360
    small = await page.evaluate(
        """[...document.querySelectorAll('button')].map(b => b.getBoundingClientRect())
            .filter(r => r.width < 44 || r.height < 44).length"""
    )
    assert small == 0
    # Tap a card (by touch), its stones light up with a mark (not colour only), tap one.
    card = (await enabled(page.locator("#hand button")))[0]
    await card.tap()
    await expect(card).to_have_attribute("aria-pressed", "true")
    lit = await enabled(page.locator("#board .stone-button"))
    assert lit and all([await stone.inner_text() for stone in lit])
    assert "play here" in await lit[0].inner_text()
    await page.screenshot(path=str(screenshot_path("table-phone")), full_page=False)
    before = record.version
    await lit[0].tap()
    await expect(page.locator("body")).not_to_have_attribute("data-version", str(before), timeout=WAIT)
    await settled(bot, page)
    assert (await bot.service.get(game_id)).current_player == 1 - seat
    # Landscape: still no sideways scrolling.
    await page.set_viewport_size({"width": 740, "height": 360})
    assert await page.evaluate("document.documentElement.scrollWidth") <= 740
    assert errors == [], errors


async def test_a_stale_table_says_so_and_shows_the_game_as_it_is(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    seat = record.current_player
    url = bot.web.links.seat(game_id, seat)
    errors: list[str] = []
    first = await open_seat(browser, url, errors)
    # A second window whose event stream (and reading of the state) never gets through:
    # it falls behind.
    behind = await (await browser.new_context(locale="en-GB")).new_page()
    await behind.route("**/events", lambda route: route.abort())
    await behind.route("**/state", lambda route: route.abort())
    await behind.goto(url)
    await shows(behind, record.version)
    await table_step(bot, first, random.Random(1))
    moved = await bot.service.get(game_id)
    assert moved.version > record.version
    card = (await enabled(behind.locator("#hand button")))[0]
    await card.click()
    stone = (await enabled(behind.locator("#board .stone-button")))[0]
    await stone.click()
    await expect(behind.locator("#notice")).to_contain_text("The game moved on", timeout=WAIT)
    await shows(behind, moved.version)  # refreshed from the refusal, without a reload
    assert (await bot.service.get(game_id)).version == moved.version  # nothing applied
    # A forged link and the other seat's token: nothing of the game.
    forged = await (await browser.new_context()).new_page()
    response = await forged.goto(url[:-4] + "AAAA")
    assert response is not None and response.status == 404
    await expect(forged.locator("body")).not_to_contain_text("Game #")
    other = url.replace(f"/table/{game_id}/{seat}/", f"/table/{game_id}/{1 - seat}/")
    response = await forged.goto(other)
    assert response is not None and response.status == 404
    assert errors == [], errors


async def test_a_seat_page_over_its_member_s_limit_waits_then_follows(simcord_env, simcord_bot, browser):
    """A member's live pages are limited (8; here 1). A seat page over it is refused: it
    says it is reconnecting, shows the table as it is meanwhile, tries again after a
    growing delay, and follows the game once the member closes another page."""
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    bot.web.sources.slots.per_group = 1
    url = bot.web.links.seat(game_id, 0)
    errors: list[str] = []
    first = await open_seat(browser, url, errors)
    await expect(first.locator("#connection")).to_have_attribute("class", "online")
    second = await open_seat(browser, url, errors)
    await expect(second.locator("#connection")).to_have_attribute("class", "offline", timeout=WAIT)
    await expect(second.locator("#connection")).to_have_text("Connection lost: reconnecting...")
    await first.context.close()  # the member closes the other page: its place is free
    await expect(second.locator("#connection")).to_have_attribute("class", "online", timeout=4 * WAIT)
    # Live again: a move made elsewhere reaches the page without a reload.
    record = await bot.service.get(game_id)
    mover = record.current_player
    move = record.game.view(mover).legal_moves()[0]
    moved = await bot.service.apply(game_id, record.players[mover], move)
    await shows(second, moved.game.version)
    assert errors == [], errors

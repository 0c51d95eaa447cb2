"""The live page does not freeze when its event stream is refused (too many pages from
one address: 429) or lost (the server restarts): it says so, tries again by itself and
catches up with the moves made meanwhile."""

from __future__ import annotations

import random

from playwright.async_api import expect

from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.web.browser import browser, screenshot_path
from tests.web.helpers import get
from tests.web.proxy import BadGatewayProxy

__all__ = ["browser"]  # the fixture

WAIT = 45_000  # ms: a timeout, no duration asserted: a few retries or a bounded Retry-After


async def test_a_refused_stream_is_retried_and_said_so(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id = {alice.id: alice, bob.id: bob}
    sources = bot.web.sources
    limit = sources.slots.per_group
    sources.slots.per_group = 0  # every stream from this address is refused: 429
    context = await browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
    page = await context.new_page()
    await page.goto(bot.web.links.watch(game_id))
    await expect(page.locator("body")).to_have_attribute("data-connection", "refused")
    refused = "Too many open pages from your address: retrying in"
    await expect(page.locator("#connection")).to_contain_text(refused)
    await page.screenshot(path=str(screenshot_path("live-refused")), full_page=True)
    await page.evaluate("window.notReloaded = true")
    # A move while refused; then the address may open streams again.
    record = await bot.service.get(game_id)
    await dm_turn(by_id[record.current_user], random.Random(2), game_id)
    moved = await bot.service.get(game_id)
    sources.slots.per_group = limit
    await expect(page.locator("body")).to_have_attribute("data-connection", "live", timeout=WAIT)
    await expect(page.locator("#connection")).to_have_text("Live")
    await expect(page.locator("body")).to_have_attribute("data-version", str(moved.version))
    assert await page.evaluate("window.notReloaded") is True
    await context.close()


async def test_the_page_reconnects_after_the_server_restarts(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id = {alice.id: alice, bob.id: bob}
    rng = random.Random(4)
    context = await browser.new_context(locale="de-DE", viewport={"width": 360, "height": 740})
    page = await context.new_page()
    url = bot.web.links.watch(game_id)
    await page.goto(url)
    await expect(page.locator("body")).to_have_attribute("data-connection", "live")
    await expect(page.locator("#connection")).to_have_text("Live")
    await page.evaluate("window.notReloaded = true")

    port = bot.web.port
    await bot.web.close()  # the server goes away (a restart behind a proxy)
    await expect(page.locator("body")).to_have_attribute("data-connection", "reconnecting", timeout=WAIT)
    await expect(page.locator("#connection")).to_have_text("Verbindung verloren: verbinde neu…")
    await page.screenshot(path=str(screenshot_path("live-reconnecting")), full_page=True)
    for _ in range(2):  # moves while the page cannot hear of them
        record = await bot.service.get(game_id)
        await dm_turn(by_id[record.current_user], rng, game_id)
    moved = await bot.service.get(game_id)
    await bot.web.start(port=port)  # the same port, chosen by the system at first
    status, _, _ = await get(url)
    assert status == 200
    await expect(page.locator("body")).to_have_attribute("data-connection", "live", timeout=WAIT)
    await expect(page.locator("body")).to_have_attribute("data-version", str(moved.version))
    # Following again: the next move arrives without a reload.
    record = await bot.service.get(game_id)
    await dm_turn(by_id[record.current_user], rng, game_id)
    now = await bot.service.get(game_id)
    await expect(page.locator("body")).to_have_attribute("data-version", str(now.version))
    assert await page.evaluate("window.notReloaded") is True
    await context.close()


async def test_the_page_reconnects_through_a_proxy_answering_502(simcord_env, simcord_bot, browser):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id = {alice.id: alice, bob.id: bob}
    proxy = BadGatewayProxy(bot.web.links.public_url)
    await proxy.start()
    try:
        context = await browser.new_context(locale="fr-FR", viewport={"width": 390, "height": 844})
        page = await context.new_page()
        await page.goto(proxy.url + bot.web.links.watch(game_id).removeprefix(bot.web.links.public_url))
        await expect(page.locator("body")).to_have_attribute("data-connection", "live")
        await page.evaluate("window.notReloaded = true")
        proxy.down = True  # the bot restarts behind the proxy: its stream ends, then 502
        proxy.cut()
        await expect(page.locator("body")).to_have_attribute("data-connection", "reconnecting", timeout=WAIT)
        await expect(page.locator("#connection")).to_have_text("Connexion perdue : reconnexion…")
        record = await bot.service.get(game_id)
        await dm_turn(by_id[record.current_user], random.Random(6), game_id)
        moved = await bot.service.get(game_id)
        proxy.down = False
        await expect(page.locator("body")).to_have_attribute("data-connection", "live", timeout=WAIT)
        await expect(page.locator("#connection")).to_have_text("En direct")
        await expect(page.locator("body")).to_have_attribute("data-version", str(moved.version))
        assert await page.evaluate("window.notReloaded") is True
        await context.close()
    finally:
        await proxy.close()

"""The Activity in Chromium, Discord played by a harness (``tests/web/activity_harness.py``)
and the fake OAuth2 (``tests/web/fake_discord.py``): two members play a complete game in
two Activity frames (one on a phone) while a third watches in a third; the SDK's
handshake and commands are answered as Discord's client does. Screenshots go to
tests/output/web/ (``docs/activity-desktop.png`` and ``docs/activity-phone.png`` are
copies)."""

from __future__ import annotations

import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio
from playwright.async_api import expect

from bot.community.ratings import guild_scope
from tests.cogs.helpers import challenge_and_accept, setup_members
from tests.web.activity_harness import Proxy, open_activity
from tests.web.browser import ARGS, CHROMIUM, _unavailable, screenshot_path
from tests.web.table_player import WAIT, settled, shows, table_step
from tests.web.test_activity_api import fake_discord, simcord_bot

__all__ = ["fake_discord", "simcord_bot"]  # the fixtures

MAX_MOVES = 400


# Discord (a public origin) frames the Activity from a local port here, which Chromium's
# local network access checks would block; at Discord it is a public origin too.
LOCAL_NETWORK = (
    "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,"
    "PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults"
)


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Any]:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _unavailable("Playwright for Python is missing: pip install -e '.[test]'")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        _unavailable(f"Chromium is missing at {CHROMIUM}: apt-get install chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, LOCAL_NETWORK], headless=True
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest_asyncio.fixture
async def proxy(simcord_bot) -> AsyncIterator[Proxy]:
    running = Proxy(simcord_bot.web.links.public_url)
    await running.start()
    yield running
    await running.close()


async def test_two_members_play_in_discord_while_a_third_watches(
    simcord_env, simcord_bot, fake_discord, proxy, browser
):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    scope = guild_scope(guild.id)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    errors: list[str] = []
    where = {"guild_id": guild.id, "channel_id": channel.id, "errors": errors}
    pages, frames = {}, {}
    for member, options in (
        (alice, {}),
        (bob, {"platform": "mobile", "viewport": {"width": 390, "height": 844}}),
        (carol, {}),
    ):
        pages[member.id], frames[member.id] = await open_activity(
            browser, proxy, fake_discord, member, **where, **options
        )
    # Each player's frame signed in with identify and opened their own seat.
    for member in (alice, bob):
        frame = frames[member.id]
        await expect(frame.locator("body")).to_have_attribute("data-activity", "table", timeout=WAIT)
        await shows(frame, record.version)
        assert pages[member.id].scopes == ["identify"]
        commands = await pages[member.id].evaluate("window.commands")
        assert commands[:2] == ["AUTHORIZE", "AUTHENTICATE"], commands
        seat = record.players.index(member.id)
        shown = sorted(
            [await b.get_attribute("aria-label") for b in await frame.locator("#hand button").all()]
        )
        assert len(shown) == len(record.game.view(seat).hand)
    # The third member is offered the game to watch, not to play.
    watcher = frames[carol.id]
    await expect(watcher.locator("body")).to_have_attribute("data-activity", "games", timeout=WAIT)
    await watcher.get_by_role("button", name=f"Watch game #{game_id}").click()
    await expect(watcher.locator(f"section.watched[data-game='{game_id}']")).to_be_visible(timeout=WAIT)
    # The spectator's table (ui/src/spectator.ts): the stones and both hands as counts.
    await expect(watcher.locator("section.watched #board .stone")).to_have_count(9, timeout=WAIT)
    await expect(watcher.locator("section.watched #players .player")).to_have_count(2)
    assert await watcher.locator("#hand").count() == 0

    rng = random.Random(5)
    shots: set[str] = set()
    for _ in range(MAX_MOVES):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        mover = record.players[record.current_player]
        frame = frames[mover]
        await shows(frame, record.version)
        name = "activity-desktop" if mover == alice.id else "activity-phone"
        if name not in shots and len(record.game.log) > 10 and record.game.phase == "play":
            await frame.evaluate("window.scrollTo(0, 0)")
            await pages[mover].screenshot(path=str(screenshot_path(name)))
            shots.add(name)
        await table_step(bot, frame, rng)
        if len(record.game.log) in (12, 30):  # the watcher's table follows the game live
            now = (await bot.service.get(game_id)).version
            await expect(watcher.locator("body")).to_have_attribute("data-version", str(now), timeout=WAIT)
            await expect(watcher.locator("section.watched #connection")).to_have_text("Live", timeout=WAIT)
            turns = watcher.locator("section.watched #turns li")
            assert await turns.count() >= 1
    else:
        raise AssertionError("the game did not end")
    record = await bot.service.get(game_id)
    changes = {user: (before, after) for user, before, after in await bot.rankings.changes(game_id, scope)}
    assert set(changes) == {alice.id, bob.id}
    for member in (alice, bob):
        frame = frames[member.id]
        await settled(bot, frame)
        await expect(frame.locator("#status")).to_contain_text("win", timeout=WAIT)
        # The result under the table: how it ended, and both ratings before → after.
        result = frame.locator("section.result")
        await expect(result).to_be_visible(timeout=WAIT)
        await expect(result.locator(".outcome")).to_contain_text("win")
        await expect(result.locator(".ratings li")).to_have_count(2)
        for user, (before, after) in changes.items():
            name = "alice" if user == alice.id else "bob"
            await expect(result).to_contain_text(f"{name}: {round(before)} → {round(after)}")
    assert shots == {"activity-desktop", "activity-phone"}
    # The watcher's table ends with the game: its result, and the replay's turns.
    await expect(watcher.locator("section.watched #status")).to_contain_text("win", timeout=WAIT)
    await expect(watcher.locator("body")).to_have_attribute("data-version", str(record.version), timeout=WAIT)
    assert await watcher.locator("#hand").count() == 0
    assert errors == [], errors

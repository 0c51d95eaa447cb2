"""Starting games in the Activity in Chromium, Discord played by the harness
(``tests/web/activity_harness.py``, which names the instance's participants): Alice
challenges Bob, who is in the Activity with her; Bob accepts in his frame; both are
then at their seats and the board is in the channel. Carol plays the AI. Launched in a
DM, the Activity opens the member's game with the person there. The page renews its
session before it ends, and says so when it ended. A screenshot of the lobby goes to
tests/output/web/ (``docs/activity-lobby.png`` is a copy)."""

from __future__ import annotations

import random

from playwright.async_api import expect

from bot.text.catalogue import t
from bot.web.activity import ACTIVITY
from bot.web.sessions import RENEW_BEFORE
from tests.cogs.helpers import challenge_and_accept, dm_message, setup_members
from tests.web.activity_harness import Instance, open_activity, participants_changed
from tests.web.browser import screenshot_path
from tests.web.table_player import WAIT, shows, table_step
from tests.web.test_activity_api import fake_discord, simcord_bot
from tests.web.test_activity_browser import browser, proxy
from tests.web.test_activity_sessions import Clock

__all__ = ["browser", "fake_discord", "proxy", "simcord_bot"]  # the fixtures


async def test_members_start_games_in_the_activity(simcord_env, simcord_bot, fake_discord, proxy, browser):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    errors: list[str] = []
    here = Instance()
    where = {"guild_id": guild.id, "channel_id": channel.id, "errors": errors, "instance": here}
    alice_page, alice_frame = await open_activity(browser, proxy, fake_discord, alice, **where)
    await expect(alice_frame.locator("body")).to_have_attribute("data-activity", "games", timeout=WAIT)
    # Nobody else yet: no one to challenge, the AI offered.
    assert await alice_frame.locator("button[data-opponent]").count() == 0
    await expect(alice_frame.locator("button[data-level='easy']")).to_be_visible()
    bob_page, bob_frame = await open_activity(browser, proxy, fake_discord, bob, **where)
    assert await participants_changed(alice_page)  # Discord tells Alice's client Bob joined
    challenge = alice_frame.locator(f"button[data-opponent='{bob.id}']")
    await expect(challenge).to_be_visible(timeout=WAIT)
    await expect(challenge).to_have_text("Challenge bob")
    await challenge.click()
    await expect(alice_frame.locator(".lobby .told")).to_contain_text("Challenge sent", timeout=WAIT)
    # Again: refused, in Alice's frame only (the service's own refusal).
    await challenge.click()
    refused = alice_frame.locator(".lobby .told .error")
    await expect(refused).to_have_text(t("error.challenge_pending", opponent="bob"), timeout=WAIT)
    assert await bob_frame.locator(".lobby .told .error").count() == 0
    assert len(errors) == 1 and "status of 422" in errors[0], errors  # the browser notes the refusal
    errors.clear()
    (made,) = await bot.challenges.pending_with(channel.id, bob.id)
    assert (made.row.challenger_id, made.row.opponent_id) == (alice.id, bob.id)
    assert any(m.id == made.row.message_id and f"<@{bob.id}>" in m.content for m in channel.history())
    # Bob sees it in his frame (the list refreshes) and accepts there.
    offered = bob_frame.locator(f"li[data-challenge='{made.id}']")
    await expect(offered).to_contain_text("alice challenges you", timeout=WAIT)
    await bob_page.screenshot(path=str(screenshot_path("activity-lobby")))  # docs/activity-lobby.png
    await offered.get_by_role("button", name="Accept").click()
    for frame in (bob_frame, alice_frame):
        await expect(frame.locator("body")).to_have_attribute("data-activity", "table", timeout=WAIT)
        await expect(frame.locator("#hand button")).to_have_count(6, timeout=WAIT)
    game_id = (await bot.db.challenges.get_challenge(made.id)).game_id
    assert game_id is not None
    assert any(f"Game #{game_id}" in m.content and m.id != made.row.message_id for m in channel.history())
    assert dm_message(alice, game_id) is not None and dm_message(bob, game_id) is not None

    # Carol joins and plays the AI instead.
    _, carol_frame = await open_activity(browser, proxy, fake_discord, carol, **where)
    await expect(carol_frame.locator("body")).to_have_attribute("data-activity", "games", timeout=WAIT)
    await carol_frame.locator("button[data-level='hard']").click()
    await expect(carol_frame.locator("body")).to_have_attribute("data-activity", "table", timeout=WAIT)
    (practice,) = [g for g in await bot.service.active_games_for(carol.id) if g.vs_ai]
    assert practice.ai_level == "hard" and practice.channel_id == channel.id
    assert errors == [], errors


async def test_in_a_dm_the_activity_opens_the_game_with_the_person_there(
    simcord_env, simcord_bot, fake_discord, proxy, browser
):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    await challenge_and_accept(env, channel, alice, carol)
    with_bob = await challenge_and_accept(env, channel, alice, bob)
    errors: list[str] = []
    dm = Instance([bob])  # Bob has it open in their DM already
    _, frame = await open_activity(
        browser, proxy, fake_discord, alice, guild_id=None, channel_id=987654321, errors=errors, instance=dm
    )
    await expect(frame.locator("body")).to_have_attribute("data-activity", "table", timeout=WAIT)
    record = await bot.service.get(with_bob)
    await expect(frame.locator("#hand button")).to_have_count(
        len(record.game.view(record.players.index(alice.id)).hand), timeout=WAIT
    )
    assert f"#{with_bob}" in (await frame.locator("header").inner_text())
    assert errors == [], errors


async def test_the_page_renews_its_session_and_says_when_it_ended(
    simcord_env, simcord_bot, fake_discord, proxy, browser
):
    """Both clocks injected: the server's sessions' and the page's timers (Playwright's)."""
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    sessions = bot.web.app[ACTIVITY].sessions
    clock = Clock(2_000_000_000.0)
    sessions.clock = clock
    errors: list[str] = []
    page, frame = await open_activity(
        browser,
        proxy,
        fake_discord,
        alice,
        guild_id=guild.id,
        channel_id=channel.id,
        errors=errors,
        fake_timers=True,
    )
    await expect(frame.locator("body")).to_have_attribute("data-activity", "table", timeout=WAIT)
    renew_in = sessions.ttl - RENEW_BEFORE
    # Fifty minutes on, the page renews its session once.
    clock.now += renew_in
    async with page.expect_response(lambda answer: answer.url.endswith("/renew")) as renewed:
        await page.clock.fast_forward(int(renew_in * 1000))
    assert (await renewed.value).status == 200
    # Past the first session's end, Alice plays on with the new one.
    clock.now += RENEW_BEFORE + 1
    record = await bot.service.get(game_id)
    seat = record.players.index(alice.id)
    if record.current_player != seat:
        legal = record.game.view(record.current_player).legal_moves()
        await bot.service.apply(game_id, bob.id, legal[0], expected_version=record.version)
    await shows(frame, (await bot.service.get(game_id)).version)
    before = (await bot.service.get(game_id)).version
    await table_step(bot, frame, random.Random(3))
    assert (await bot.service.get(game_id)).version > before
    # The new session ends unrenewed (the page's clock stood still): its renewal is
    # refused and the page says so.
    clock.now += sessions.ttl
    async with page.expect_response(lambda answer: answer.url.endswith("/renew")) as refused:
        await page.clock.fast_forward(int(renew_in * 1000))
    assert (await refused.value).status == 401
    await expect(frame.locator("body")).to_have_attribute("data-activity", "error", timeout=WAIT)
    await expect(frame.locator(".notice.error")).to_have_text(t("activity.expired"))
    assert all("status of 401" in error for error in errors), errors

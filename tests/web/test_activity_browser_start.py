"""Starting games in the Activity in Chromium, Discord played by the harness
(``tests/web/activity_harness.py``, which names the instance's participants): Alice
challenges Bob, who is in the Activity with her; Bob accepts in his frame; both are
then at their seats and the board is in the channel. Carol plays the AI. Launched in a
DM, the Activity opens the member's game with the person there."""

from __future__ import annotations

from playwright.async_api import expect

from bot.text.catalogue import t
from tests.cogs.helpers import challenge_and_accept, dm_message, setup_members
from tests.web.activity_harness import Instance, open_activity, participants_changed
from tests.web.table_player import WAIT
from tests.web.test_activity_api import fake_discord, simcord_bot
from tests.web.test_activity_browser import browser, proxy

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
    _, bob_frame = await open_activity(browser, proxy, fake_discord, bob, **where)
    assert await participants_changed(alice_page)  # Discord tells Alice's client Bob joined
    challenge = alice_frame.locator(f"button[data-opponent='{bob.id}']")
    await expect(challenge).to_be_visible(timeout=WAIT)
    await expect(challenge).to_have_text(f"Challenge user{bob.id}")
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

"""Play in Discord: the button under boards and hands, and its answer checked at
discord.py's HTTP layer (simcord does not implement LAUNCH_ACTIVITY): the interaction
callback is posted to a fake Discord (``Route.BASE`` pointed at it) and read there."""

from __future__ import annotations

import dataclasses
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.app import SchottenBot
from cogs.ui import ours
from cogs.ui.activity import PlayInDiscord
from tests.cogs.helpers import challenge_and_accept, dm_message, flat_components, setup_members
from tests.web.fake_discord import LAUNCH_ACTIVITY, FakeDiscord
from tests.web.test_activity_api import fake_discord, simcord_bot

__all__ = ["fake_discord", "simcord_bot"]  # the fixtures

EPHEMERAL = 64
CHANNEL_MESSAGE = 4


def click(
    bot: SchottenBot, user_id: int, game_id: int, interaction_id: int, guild_id: int | None
) -> discord.Interaction[Any]:
    """The interaction Discord sends for a click on Play in Discord by ``user_id`` in
    ``guild_id`` (None: a DM)."""
    user = {"id": str(user_id), "username": "member", "discriminator": "0", "avatar": None}
    member = {
        "user": user,
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
    }
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(bot.application_id or 1),
        "type": 3,
        "token": f"token-{interaction_id}",
        "version": 1,
        "channel_id": "5",
        "data": {"custom_id": f"st:act:{game_id}", "component_type": 2},
        "locale": "en-US",
        **(
            {"user": user}
            if guild_id is None
            else {
                "guild_id": str(guild_id),
                "guild_locale": "en-US",
                "member": {**member, "permissions": "0"},
            }
        ),
        "app_permissions": "0",
        "attachment_size_limit": 8388608,
        "context": 1,
        "authorizing_integration_owners": {},
        "entitlements": [],
    }
    return discord.Interaction(data=payload, state=bot._connection)  # type: ignore[arg-type]


@pytest.fixture
def discord_http(fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> FakeDiscord:
    monkeypatch.setattr(Route, "BASE", fake_discord.base)
    return fake_discord


async def press(
    bot: SchottenBot, user_id: int, game_id: int, fake: FakeDiscord, guild_id: int | None = None
) -> dict[str, Any]:
    """Click through discord.py's own webhook adapter (simcord's set aside), over HTTP."""
    token = async_context.set(AsyncWebhookAdapter())
    try:
        async with aiohttp.ClientSession() as session:
            bot.http._HTTPClient__session = session  # type: ignore[attr-defined]
            interaction = click(bot, user_id, game_id, 9000 + len(fake.callbacks), guild_id)
            await PlayInDiscord(game_id).run(ours(interaction))
    finally:
        async_context.reset(token)
    return fake.callbacks[-1]


async def test_the_button_launches_the_activity(simcord_env, simcord_bot, discord_http):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    # Under the channel's board and the player's hand.
    board = channel.last_message
    assert f"st:act:{game_id}" in [c.get("custom_id") for c in flat_components(board)]
    assert f"st:act:{game_id}" in [c.get("custom_id") for c in flat_components(dm_message(alice, game_id))]
    posted = await press(bot, alice.id, game_id, discord_http)
    assert posted == {"type": LAUNCH_ACTIVITY}


async def test_without_the_activity_the_answer_is_the_web_link(simcord_env, simcord_bot, discord_http):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    # Discord refuses to launch it here: the player gets their own seat, privately.
    discord_http.refuse_launch = True
    posted = await press(bot, alice.id, game_id, discord_http)
    assert posted["type"] == CHANNEL_MESSAGE and posted["data"]["flags"] & EPHEMERAL
    urls = [b["url"] for row in posted["data"]["components"] for b in row["components"]]
    assert urls == [bot.web.links.seat(game_id, record.players.index(alice.id))]
    # Not configured: no launch asked for; a member who does not play gets the live page.
    bot.settings = dataclasses.replace(bot.settings, discord_client_id=None, discord_client_secret=None)
    before = len(discord_http.callbacks)
    guild_id = (await bot.service.get(game_id)).guild_id
    posted = await press(bot, carol.id, game_id, discord_http, guild_id)
    assert len(discord_http.callbacks) == before + 1 and posted["type"] == CHANNEL_MESSAGE
    urls = [b["url"] for row in posted["data"]["components"] for b in row["components"]]
    assert urls == [bot.web.links.watch(game_id)]
    assert posted["data"]["flags"] & EPHEMERAL


async def test_a_forged_button_shows_no_other_servers_game(simcord_env, simcord_bot, discord_http):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    for guild_id in (None, 42):  # a DM, another server: carol plays nothing there
        posted = await press(bot, carol.id, game_id, discord_http, guild_id)
        assert posted["type"] == CHANNEL_MESSAGE and posted["data"]["flags"] & EPHEMERAL
        assert "components" not in posted["data"] or not posted["data"]["components"]
        assert "can't find" in posted["data"]["content"]
    posted = await press(bot, carol.id, 10**6, discord_http, None)  # no such game
    assert "can't find" in posted["data"]["content"]

"""What a hostile member types or calls themselves never breaks the bot, never pings and
never reaches beyond what they may see."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
import simcord

from bot.app import create_bot
from bot.games.errors import GameUnreadable
from bot.settings import Settings
from cogs.table.layouts import hand_controls
from tests.cogs.helpers import challenge_and_accept, flat_components, private_text, setup_members


def reply_text(result: Any) -> str:
    shown = result.response.content if result.response is not None else ""
    return shown + "".join(f.content for f in result.followups)


def errors_logged(caplog: Any) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_oversized_text_gets_a_short_private_answer(simcord_env, simcord_bot, caplog):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    mover = alice if (await bot.service.get(game_id)).current_user == alice.id else bob
    with caplog.at_level(logging.INFO):
        long_card = await mover.slash(channel, "schotten play", card="R" * 2500, stone=3)
        assert long_card.ephemeral
        text = reply_text(long_card)
        assert "…" in text and len(text) < 300, text
        digits = await mover.slash(channel, "schotten move", text="claim " + "9" * 5000)
        assert digits.ephemeral and "don't know the move" in reply_text(digits).lower()
        unicode_digit = await mover.slash(channel, "schotten move", text="claim ²")
        assert unicode_digit.ephemeral
    assert errors_logged(caplog) == []
    assert (await bot.service.get(game_id)).version == 0


async def test_names_are_escaped_and_never_ping(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("general")
    evil = guild.add_member(env.create_user("```**x** ||y|| @everyone"))
    bob = guild.add_member(env.create_user("bob"))
    assert bot.allowed_mentions is not None
    assert not (bot.allowed_mentions.everyone or bot.allowed_mentions.roles or bot.allowed_mentions.users)
    game_id = await challenge_and_accept(env, channel, evil, bob)
    board = next(m for m in channel.history() if f"Game #{game_id}:" in m.content)
    assert board.content.count("```") == 2, board.content  # the name cannot close the block
    await evil.slash(channel, "schotten resign", game=game_id)
    end = channel.last_message
    assert "**x**" not in end.content and "\\*\\*x\\*\\*" in end.content
    assert "||y||" not in end.content and "@everyone" not in end.content
    assert not end.mention_everyone


async def test_hand_controls_refuse_a_public_message(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    mover = alice if record.current_user == alice.id else bob
    # Defence in depth: were hand controls ever on a channel message, they would not
    # draw a hand there.
    controls = hand_controls(game_id, record.version, record.game.view(record.current_player))
    assert controls is not None
    public = await bot.get_partial_messageable(channel.id).send("controls", view=controls)
    message = next(m for m in channel.history() if m.id == public.id)
    card_select = next(
        c
        for row in message.components
        for c in row.to_dict()["components"]
        if c["custom_id"].startswith("st:card:")
    )
    result = await mover.select(
        message, [card_select["options"][0]["value"]], custom_id=card_select["custom_id"]
    )
    assert result.ephemeral and "only in your DMs" in reply_text(result)
    assert (await bot.service.get(game_id)).version == record.version


async def test_a_board_is_shown_in_its_own_server_and_to_its_players_only(simcord_env, simcord_bot):
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    spectator = await carol.slash(channel, "schotten board", game=game_id)  # same server: fine
    assert spectator.ephemeral and f"Game #{game_id}:" in spectator.response.content
    elsewhere = env.create_guild()
    there = elsewhere.create_text_channel("general")
    stranger = elsewhere.add_member(env.create_user("mallory"))
    refused = await stranger.slash(there, "schotten board", game=game_id)
    assert refused.ephemeral and "can't find that game" in reply_text(refused)
    player_elsewhere = elsewhere.add_member(alice.user)
    own = await player_elsewhere.slash(there, "schotten board", game=game_id)  # a player may look
    assert f"Game #{game_id}:" in own.response.content


async def test_an_unreadable_game_stops_nothing_else(tmp_path, caplog):
    path = tmp_path / "broken.sqlite"
    bot = create_bot(database=path, settings=Settings(turn_timeout=3600, turn_reminder=1800))
    async with simcord.run(bot, settle_timeout=30) as env:
        guild, channel, (alice, bob, carol, dave) = setup_members(env, ("alice", "bob", "carol", "dave"))
        other = guild.create_text_channel("other")
        broken_id = await challenge_and_accept(env, channel, alice, bob)
        healthy_id = await challenge_and_accept(env, other, carol, dave)
        broken = await bot.service.get(broken_id)
        await bot.db.games.save_game_state(
            broken_id,
            expected_version=broken.version,
            version=broken.version,
            state={"format": 999},
            status="active",
            turn_started_at=broken.turn_started_at,
            deadline=broken.deadline,
            reminded=False,
            now=broken.updated_at,
        )
        with pytest.raises(GameUnreadable):
            await bot.service.reload(broken_id)
        with caplog.at_level(logging.INFO):
            await env.advance_time(4000)  # past every deadline: the timers run
        healthy = await bot.service.get(healthy_id)
        assert healthy.game.is_over and healthy.game.result.reason == "timeout"
        assert any(f"Game {broken_id}: stored state unreadable" in m for m in errors_logged(caplog))
        mover = alice if broken.current_user == alice.id else bob
        asked = await mover.slash(channel, "schotten hand", game=broken_id)
        assert asked.ephemeral and "storage problem" in reply_text(asked)
        games = await mover.slash(channel, "schotten games")  # the other commands still work
        assert games.ephemeral
    await bot.close()


async def test_a_rematch_of_a_game_in_progress_says_so(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    button = discord.ui.View(timeout=None)
    from cogs.table.lobby import RematchButton

    button.add_item(RematchButton(game_id))
    public = await bot.get_partial_messageable(channel.id).send("rematch?", view=button)
    message = next(m for m in channel.history() if m.id == public.id)
    result = await alice.click(message, label="Rematch")
    assert "still being played" in private_text(result)


async def test_an_accept_that_loses_to_expiry_starts_no_game(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    offer = await alice.slash(channel, "schotten challenge", opponent=bob)
    accept = next(c for c in flat_components(offer.response) if c["custom_id"].endswith(":accept"))
    challenge_id = int(accept["custom_id"].split(":")[2])
    # The expiry wins the race between Bob's check and his accept's transaction.
    checked = bot.challenges.check

    async def check_then_expire(cid: int, user_id: int) -> None:
        await checked(cid, user_id)
        await bot.db.challenges.resolve_challenge(cid, "expired")

    bot.challenges.check = check_then_expire  # type: ignore[method-assign]
    result = await bob.click(offer.response, label="Accept")
    assert result.followups and all(f.ephemeral for f in result.followups)  # after the defer
    assert "no longer open" in reply_text(result)
    assert await bot.service.active_games_for(bob.id) == []
    row = await bot.db.challenges.get_challenge(challenge_id)
    assert row is not None and row.status == "expired" and row.game_id is None


async def test_finished_games_leave_nothing_in_memory(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    ids = [await challenge_and_accept(env, channel, alice, bob)]
    await alice.slash(channel, "schotten resign", game=ids[0])
    ids.append(await challenge_and_accept(env, channel, alice, bob))
    await bob.slash(channel, "schotten resign", game=ids[1])
    table = bot.get_cog("Schotten").publisher
    for game_id in ids:
        assert game_id not in bot.service.games_in_memory()
        assert game_id not in table.games_in_memory()
        assert game_id not in bot.delivery.games_in_memory()

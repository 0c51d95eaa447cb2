"""What a member can see of strangers, through simcord: history and stats are private
replies of the server's own games (and the asker's own in DMs); names are per server;
controls act only on a message of their own kind and on their own server's data, and a
forged number is bad input, not a crash."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.history import HistoryButton, OldHistoryButton, ReplayButton
from cogs.leaderboard import LeaderboardButton
from cogs.table.layouts import board_view
from cogs.table.lobby import ChallengeButton, RematchButton
from cogs.table.requests import ShowHandButton
from cogs.ui.components import buttons
from tests.cogs.helpers import challenge_and_accept, private_text, setup_members
from tests.cogs.test_leaderboard import beat

NOT_MINE = "That control is not one of mine"
OUT_OF_DATE = "This control is out of date; run the command again."
HUGE = 10**29  # 30 digits: no id or page a database can hold


def reply_text(result: Any) -> str:
    shown = result.response.content if result.response is not None else ""
    return shown + "".join(f.content for f in result.followups)


def errors_logged(caplog: Any) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def game_ids(text: str) -> set[int]:
    return {int(x) for x in re.findall(r"#(\d+)", text)}


async def two_servers(env: Any) -> tuple[Any, ...]:
    """Server A (alice, bob) and server B (alice again, known there as "Ally B", and carol)."""
    guild_a, here, (alice, bob) = setup_members(env)
    guild_b = env.create_guild()
    there = guild_b.create_text_channel("general")
    alice_b = guild_b.add_member(alice.user, nick="Ally B")
    carol = guild_b.add_member(env.create_user("carol"))
    return guild_a, here, alice, bob, guild_b, there, alice_b, carol


async def post(bot: Any, channel: Any, view: discord.ui.View) -> Any:
    """A message of the bot's carrying ``view``: how a forged control reaches a click."""
    sent = await bot.get_partial_messageable(channel.id).send("controls", view=view)
    return next(m for m in channel.history() if m.id == sent.id)


async def test_history_and_stats_are_private_and_of_this_server(simcord_env, simcord_bot):
    env = simcord_env
    _, here, alice, bob, _, there, alice_b, carol = await two_servers(env)
    in_a = await beat(env, here, alice, bob)
    in_b = await beat(env, there, carol, alice_b)
    practice = await alice.user.slash("schotten practice", difficulty="random")
    found = re.search(r"Game #(\d+)", reply_text(practice))
    assert found is not None
    in_dm = int(found.group(1))
    await alice.user.slash("schotten resign", game=in_dm)

    # Bob, in server A, sees alice's games of A only: not B's, not her DMs.
    theirs = await bob.slash(here, "schotten history", member=alice)
    assert theirs.ephemeral
    assert game_ids(theirs.response.content) >= {in_a}
    assert not game_ids(theirs.response.content) & {in_b, in_dm}
    assert "carol" not in theirs.response.content
    stats = await bob.slash(here, "schotten stats", member=alice)
    assert stats.ephemeral
    assert "Record: 1 game, 1 won" in stats.response.content and "carol" not in stats.response.content
    # Alice herself, in A: A's games and her own in DMs.
    own = await alice.slash(here, "schotten history")
    assert own.ephemeral
    shown = game_ids(own.response.content)
    assert {in_a, in_dm} <= shown and in_b not in shown
    # In B: B's games (and her DMs); in DMs: her DM games only.
    assert in_b in game_ids((await alice_b.slash(there, "schotten history")).response.content)
    in_dms = await alice.user.slash("schotten history")
    assert in_dms.ephemeral
    assert in_dm in game_ids(reply_text(in_dms)) and not game_ids(reply_text(in_dms)) & {in_a, in_b}
    # Bob asks about alice in DMs: they share no game there.
    about = await bob.user.slash("schotten history", member=alice.user)
    assert "haven't finished a game together in DMs" in reply_text(about)


async def test_nobody_outside_the_server_is_looked_up(simcord_env, simcord_bot):
    env = simcord_env
    _, here, _, bob, _, there, alice_b, carol = await two_servers(env)
    await beat(env, there, carol, alice_b)
    for command in ("schotten history", "schotten stats"):
        result = await bob.slash(here, command, member=carol.user)
        assert result.ephemeral
        assert "not a member of this server" in reply_text(result)
        assert "Finished games" not in reply_text(result) and "Stats for" not in reply_text(result)


async def test_names_are_per_server(simcord_env, simcord_bot):
    env = simcord_env
    _, here, alice, bob, _, there, alice_b, carol = await two_servers(env)
    await beat(env, there, alice_b, carol)  # alice acts in B, where she is "Ally B"
    board_b = (await alice_b.slash(there, "schotten leaderboard")).response.content
    assert "Ally B" in board_b
    await beat(env, here, bob, alice)
    # In A, and globally seen from A, she is alice.
    for scope in ("server", "global"):
        text = (await bob.slash(here, "schotten leaderboard", scope=scope)).response.content
        assert "alice" in text and "Ally B" not in text
    assert "Ally B" not in reply_text(await bob.slash(here, "schotten history"))
    assert "Ally B" not in reply_text(await bob.slash(here, "schotten stats", member=alice))
    # A game in B still calls her Ally B.
    assert "Ally B" in reply_text(await alice_b.slash(there, "schotten history"))


async def test_a_leaderboard_button_acts_only_on_its_own_servers_leaderboard(
    simcord_env, simcord_bot, caplog
):
    env, bot = simcord_env, simcord_bot
    guild_a, here, alice, bob, guild_b, there, alice_b, carol = await two_servers(env)
    await beat(env, there, carol, alice_b)
    await beat(env, here, alice, bob)
    with caplog.at_level(logging.INFO):
        # Another server's ratings, asked for from A: refused, nothing edited.
        forged = await post(bot, here, buttons(LeaderboardButton(str(guild_b.id), 0, "n")))
        result = await alice.click(forged, custom_id=f"st:lb:{guild_b.id}:0:n")
        assert result.ephemeral and NOT_MINE in reply_text(result)
        assert next(m for m in here.history() if m.id == forged.id).content == "controls"
        # The global leaderboard may be turned anywhere.
        ok = await post(bot, here, buttons(LeaderboardButton("global", 0, "n")))
        await alice.click(ok, custom_id="st:lb:global:0:n")
        assert "Global leaderboard" in next(m for m in here.history() if m.id == ok.id).content

        # A leaderboard button on a game's board does not turn the board into a leaderboard.
        game_id = await challenge_and_accept(env, here, alice, bob)
        record = await bot.service.get(game_id)
        board = next(m for m in here.history() if m.id == record.board_message_id)
        before = board.content
        view = board_view(game_id, record.version, finished=False)
        view.add_item(LeaderboardButton(str(guild_a.id), 0, "n"))
        await bot.get_partial_messageable(here.id).get_partial_message(board.id).edit(view=view)
        board = next(m for m in here.history() if m.id == board.id)
        result = await bob.click(board, custom_id=f"st:lb:{guild_a.id}:0:n")
        assert result.ephemeral and NOT_MINE in reply_text(result)
        assert next(m for m in here.history() if m.id == board.id).content == before
    assert errors_logged(caplog) == []


async def test_numbers_out_of_range_are_bad_input(simcord_env, simcord_bot, caplog):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await beat(env, channel, alice, bob)
    forged = [
        LeaderboardButton(str(HUGE), 0, "n"),
        LeaderboardButton("global", HUGE, "n"),
        HistoryButton(HUGE, guild.id, 0, "n"),
        HistoryButton(alice.id, HUGE, 0, "n"),
        HistoryButton(alice.id, guild.id, HUGE, "n"),
        ReplayButton(HUGE, 0, "n"),
        ReplayButton(game_id, HUGE, "n"),
    ]
    with caplog.at_level(logging.INFO):
        for item in forged:
            custom_id = item.item.custom_id
            assert custom_id is not None
            message = await post(bot, channel, buttons(item))
            result = await alice.click(message, custom_id=custom_id)
            assert result.ephemeral, custom_id
            assert NOT_MINE in reply_text(result), (custom_id, reply_text(result))
            assert "Something went wrong" not in reply_text(result)
            assert next(m for m in channel.history() if m.id == message.id).content == "controls"
    assert errors_logged(caplog) == []


async def test_page_buttons_act_only_on_their_own_private_replies(simcord_env, simcord_bot, caplog):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await beat(env, channel, alice, bob)
    with caplog.at_level(logging.INFO):
        # A history page button posted in the channel (as histories were, once) or on a
        # board: it would show the games to everyone.
        public = await post(bot, channel, buttons(HistoryButton(alice.id, guild.id, 0, "n")))
        result = await bob.click(public, custom_id=f"st:hist:{alice.id}:{guild.id}:0:n")
        assert result.ephemeral and OUT_OF_DATE in reply_text(result)
        assert next(m for m in channel.history() if m.id == public.id).content == "controls"
        # The buttons of the public histories of older versions only say so.
        old = await post(bot, channel, buttons(OldHistoryButton("n")))
        result = await bob.click(old, custom_id="st:hist:0:0:n")
        assert result.ephemeral and OUT_OF_DATE in reply_text(result)
        # A replay button on a public message would show both hands to the channel.
        replay = await post(bot, channel, buttons(ReplayButton(game_id, 0, "n")))
        result = await bob.click(replay, custom_id=f"st:rp:{game_id}:0:n")
        assert (
            result.ephemeral
            and "Replay" not in next(m for m in channel.history() if m.id == replay.id).content
        )
    assert errors_logged(caplog) == []


async def test_old_public_history_button_is_out_of_date(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    await beat(env, channel, alice, bob)
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label="Next", custom_id=f"st:hist:{alice.id}:1:n", style=discord.ButtonStyle.secondary
        )
    )
    message = await post(bot, channel, view)
    result = await bob.click(message, label="Next")
    assert result.ephemeral and OUT_OF_DATE in reply_text(result)
    assert next(m for m in channel.history() if m.id == message.id).content == "controls"


async def test_game_controls_with_numbers_out_of_range(simcord_env, simcord_bot, caplog):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    await beat(env, channel, alice, bob)
    forged = [
        (ShowHandButton(HUGE, 0), "can't find that game"),
        (RematchButton(HUGE), "can't find that game"),
        (ChallengeButton(HUGE, True), "no longer open"),
    ]
    with caplog.at_level(logging.INFO):
        for item, answer in forged:
            custom_id = item.item.custom_id
            assert custom_id is not None
            message = await post(bot, channel, buttons(item))
            result = await alice.click(message, custom_id=custom_id)
            assert answer in private_text(result), (custom_id, reply_text(result))
    assert errors_logged(caplog) == []

"""A restart in the middle of games, a player with DMs closed, and turn timers."""

from __future__ import annotations

import random
import re
from typing import Any

import simcord

from bot.app import create_bot
from bot.settings import Settings
from tests.cogs.helpers import (
    cards_in,
    challenge_and_accept,
    dm_message,
    dm_turn,
    flat_components,
    hand_in,
    setup_members,
)
from tests.cogs.test_full_game import public_text

MAX_TURNS = 400


def board_message(channel: Any) -> Any:
    boards = [m for m in channel.history() if "Show my hand" in str([r.to_dict() for r in m.components])]
    return boards[-1]


async def ephemeral_turn(member: Any, channel: Any, rng: random.Random) -> str:
    """One turn with DMs closed: "Show my hand" on the board, then the ephemeral controls."""
    shown = await member.click(board_message(channel), label="Show my hand")
    assert shown.ephemeral
    message = shown.response
    comps = flat_components(message)
    claims = [c for c in comps if c["custom_id"].startswith("st:claim:")]
    if claims and rng.random() < 0.9:
        await member.click(message, custom_id=rng.choice(claims)["custom_id"])
        return "claim"
    cards = next((c for c in comps if c["custom_id"].startswith("st:card:")), None)
    if cards is not None:
        await member.select(message, [rng.choice(cards["options"])["value"]], custom_id=cards["custom_id"])
        stones = next(c for c in flat_components(message) if c["custom_id"].startswith("st:stone:"))
        await member.select(message, [rng.choice(stones["options"])["value"]], custom_id=stones["custom_id"])
        play = next(c for c in flat_components(message) if c["custom_id"].startswith("st:play:"))
        await member.click(message, custom_id=play["custom_id"])
        return "play"
    button = next(c for c in comps if c["custom_id"].startswith(("st:draw:", "st:pass:")))
    await member.click(message, custom_id=button["custom_id"])
    return "end"


async def play_to_end(
    bot: Any,
    channel: Any,
    members: tuple[Any, ...],
    game_id: int,
    rng: random.Random,
    *,
    turns: int = MAX_TURNS,
    ephemeral: tuple[Any, ...] = (),
) -> Any:
    by_id = {m.id: m for m in members}
    for _ in range(turns):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            return record
        member = by_id[record.current_user]
        if member in ephemeral:
            await ephemeral_turn(member, channel, rng)
        else:
            await dm_turn(member, rng, game_id)
        now = await bot.service.get(game_id)
        secret = {str(c) for p in (0, 1) for c in now.game.hand(p)}
        assert not secret & cards_in(public_text(channel))
    return await bot.service.get(game_id)


async def test_games_survive_a_restart(tmp_path):
    path = tmp_path / "games.sqlite"
    first = create_bot(database=path)
    async with simcord.run(first) as env:
        guild, channel, (alice, bob, carol, dave) = setup_members(env, ("alice", "bob", "carol", "dave"))
        other = guild.create_text_channel("other")  # one game per channel: separate decks
        game_a = await challenge_and_accept(env, channel, alice, bob)
        game_b = await challenge_and_accept(env, other, carol, dave)
        rng = random.Random(3)
        await play_to_end(first, channel, (alice, bob), game_a, rng, turns=9)
        await play_to_end(first, other, (carol, dave), game_b, rng, turns=8)
        version_a = (await first.service.get(game_a)).version
        # A pending challenge and the controls of the DMs, all from the old process.
        third = guild.create_text_channel("third")
        pending = await alice.slash(third, "schotten challenge", opponent=carol)

        second = create_bot(database=path)
        await env.restart_bot(second)
        await first.db.close()
        assert (await second.service.get(game_a)).version == version_a
        # Old messages, new process: the buttons and selects still work.
        accepted = await carol.click(pending.response, label="Accept")
        assert "has started" in accepted.response.content
        for where, members, game_id in ((channel, (alice, bob), game_a), (other, (carol, dave), game_b)):
            record = await play_to_end(second, where, members, game_id, rng)
            assert record.game.is_over
            assert f"Game #{game_id} is over" in public_text(where)
        await second.db.close()


async def test_dms_closed(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    # Bob does not accept DMs from server members: Discord answers 403, code 50007.
    env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    challenge = await alice.slash(channel, "schotten challenge", opponent=bob)
    accepted = await bob.click(challenge.response, label="Accept")
    game_id = int(re.search(r"Game #(\d+)", accepted.response.content).group(1))
    # Bob is told once, privately, how to open his DMs.
    tips = [f for f in accepted.followups if "direct messages" in f.content]
    assert len(tips) == 1 and tips[0].ephemeral
    assert dm_message(bob) is None
    assert dm_message(alice) is not None
    shown = await bob.click(board_message(channel), label="Show my hand")
    assert shown.ephemeral and hand_in(shown.response.content)
    assert "direct messages" not in shown.response.content  # told once only
    record = await play_to_end(bot, channel, (alice, bob), game_id, random.Random(5), ephemeral=(bob,))
    assert record.game.is_over
    assert dm_message(bob) is None


async def test_turn_timer_reminds_then_forfeits_across_a_restart(tmp_path):
    path = tmp_path / "timers.sqlite"
    settings = Settings(turn_timeout=3600, turn_reminder=1800)
    first = create_bot(database=path, settings=settings)
    # Each timer round queries SQLite in a thread; long jumps of simulated time need
    # more than the default 5 s of real time to settle.
    async with simcord.run(first, settle_timeout=30) as env:
        _, channel, (alice, bob) = setup_members(env)
        game_id = await challenge_and_accept(env, channel, alice, bob)
        record = await first.service.get(game_id)
        idle = record.current_user
        await env.advance_time(1000)
        assert "it's your turn" not in channel.last_message.content
        await env.advance_time(900)
        reminder = channel.last_message
        assert f"<@{idle}>, it's your turn in game #{game_id}" in reminder.content
        await env.advance_time(300)
        assert channel.last_message.id == reminder.id  # reminded once, not more

        second = create_bot(database=path, settings=settings)
        await env.restart_bot(second)
        await first.db.close()
        await env.advance_time(1500)
        record = await second.service.get(game_id)
        assert record.game.is_over and record.game.result.reason == "timeout"
        assert record.players[record.game.result.winner] != idle
        assert "ran out of time" in channel.last_message.content
        await second.db.close()

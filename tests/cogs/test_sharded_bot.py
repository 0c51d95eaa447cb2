"""The sharded bot on simcord's Discord: ``SHARD_COUNT=2`` builds discord.py's
``AutoShardedBot`` (``bot/app.py``), servers live on both shards, and DMs arrive on
shard 0 whichever shard holds the game's server.

One process with both shards plays a game in a server of each shard through DMs. Then
the two-process split, on one PostgreSQL database: the process with shard 1 starts a
game in its server, the process with shard 0 (which does not hold that server) plays it
through the DM interactions that only it receives, and the process with shard 1 again
goes on in the server. simcord runs one bot per event loop, so the processes take turns
on one simulated Discord (``restart_bot``) rather than running at once;
``tests/bot/test_durability.py`` runs two processes at once, without Discord.
"""

from __future__ import annotations

import random
from typing import Any

import simcord

from bot.app import SchottenBot, ShardedSchottenBot, create_bot
from bot.settings import Settings
from tests.cogs.helpers import challenge_and_accept, dm_message, dm_turn, slash_turn

TURNS = 6


def sharded(database: str, shard_ids: tuple[int, ...] | None = None) -> SchottenBot:
    bot = create_bot(database=database, settings=Settings(shard_count=2, shard_ids=shard_ids))
    assert isinstance(bot, ShardedSchottenBot)
    return bot


def table(env: simcord.Env, shard: int) -> tuple[Any, Any, Any, Any]:
    guild = env.create_guild(f"shard {shard}", shard_id=shard)
    channel = guild.create_text_channel("table")
    alice = guild.add_member(env.create_user(f"alice{shard}"))
    bob = guild.add_member(env.create_user(f"bob{shard}"))
    return guild, channel, alice, bob


def board(channel: Any, message_id: int | None) -> str:
    return next(m.content for m in channel.history() if m.id == message_id)


async def dm_turns(bot: SchottenBot, game_id: int, members: tuple[Any, Any], channel: Any) -> None:
    """Play ``TURNS`` turns through the DM controls; each one shows on the server's board."""
    rng = random.Random(game_id)
    by_id = {member.id: member for member in members}
    for _ in range(TURNS):
        record = await bot.service.reload(game_id)
        if not record.is_active:
            return
        before = board(channel, record.board_message_id)
        await dm_turn(by_id[record.current_user], rng, game_id)
        after = await bot.service.reload(game_id)
        assert after.version > record.version
        assert board(channel, after.board_message_id) != before  # the board followed the move
        mover = by_id[record.current_user]
        assert f"Game #{game_id} against" in dm_message(mover, game_id).content


async def test_one_process_serves_both_shards() -> None:
    bot = sharded(":memory:")
    try:
        async with simcord.run(bot) as env:
            assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
            for shard in (0, 1):
                guild, channel, alice, bob = table(env, shard)
                assert bot.get_guild(guild.id).shard_id == shard
                game_id = await challenge_and_accept(env, channel, alice, bob)
                # DMs come on shard 0, also for the game in the server of shard 1.
                await dm_turns(bot, game_id, (alice, bob), channel)
    finally:
        await bot.close()


async def test_a_dm_game_of_another_process_server(postgres_database: str) -> None:
    first = sharded(postgres_database, (1,))
    second = sharded(postgres_database, (0,))
    third = sharded(postgres_database, (1,))
    try:
        # Only the process with shard 0 syncs the commands; on this fresh simulated
        # Discord none has yet, so the process with shard 1 starts without strict sync.
        async with simcord.run(first, strict_sync=False) as env:
            guild, channel, alice, bob = table(env, 1)
            game_id = await challenge_and_accept(env, channel, alice, bob)
            assert first.get_guild(guild.id) is not None
            start = await first.service.get(game_id)

            await env.restart_bot(second)  # the process with shard 0: every DM, not the server
            assert second.get_guild(guild.id) is None
            await dm_turns(second, game_id, (alice, bob), channel)
            moved = await second.service.get(game_id)
            assert moved.version > start.version

            await env.restart_bot(third)  # shard 1 again: the server's own commands
            assert third.get_guild(guild.id) is not None
            if moved.is_active:
                mover = alice if moved.current_user == alice.id else bob
                before = board(channel, moved.board_message_id)
                await slash_turn(mover, channel, random.Random(1))
                after = await third.service.get(game_id)
                assert after.version > moved.version
                assert board(channel, after.board_message_id) != before
    finally:
        for bot in (first, second, third):
            await bot.close()

"""What the table remembers across a restart (migration 4): the board of the current
turn, which mentions the player to move and is replaced at the next turn, a separate
turn mention left by an older version, and the DM state of a player whose DMs are
closed."""

from __future__ import annotations

import random
import re
from typing import Any

import simcord

from bot.app import create_bot
from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.cogs.test_resilience import ephemeral_turn

TIP = "I can't send you direct messages"


def boards(channel: Any, game_id: int) -> list[Any]:
    """The boards of game #N standing in the channel."""
    return [m for m in channel.history() if f"Game #{game_id}:" in m.content and "```" in m.content]


def tips(channel: Any, member: Any) -> list[Any]:
    """Every message telling ``member`` how to open their DMs (ephemeral, so only theirs)."""
    return [m for m in channel.history(viewer=member) if TIP in m.content]


async def one_turn(bot: Any, members: tuple[Any, ...], game_id: int, rng: random.Random, **kw: Any) -> None:
    """Play until the player to move changes (a claim alone does not end a turn)."""
    by_id = {m.id: m for m in members}
    record = await bot.service.get(game_id)
    mover = record.current_user
    for _ in range(10):
        member = by_id[mover]
        if member in kw.get("ephemeral", ()):
            await ephemeral_turn(member, kw["channel"], rng)
        else:
            await dm_turn(member, rng, game_id)
        record = await bot.service.get(game_id)
        if record.game.is_over or record.current_user != mover:
            return
    raise AssertionError("the turn did not end")


async def test_turn_board_replaced_after_a_restart(tmp_path):
    path = tmp_path / "pings.sqlite"
    first = create_bot(database=path)
    async with simcord.run(first) as env:
        _, channel, (alice, bob) = setup_members(env)
        game_id = await challenge_and_accept(env, channel, alice, bob)
        rng = random.Random(11)
        for _ in range(2):
            await one_turn(first, (alice, bob), game_id, rng)
        (before,) = boards(channel, game_id)
        assert (await first.service.get(game_id)).board_message_id == before.id
        # A "your turn" message that an older version posted beside the board, and
        # stored so that it is deleted at the next turn.
        legacy = next(m for m in channel.history() if "has started" in m.content)
        await first.db.delivery.set_ping_message_id(game_id, legacy.id)

        second = create_bot(database=path)
        await env.restart_bot(second)
        await first.db.close()
        await one_turn(second, (alice, bob), game_id, rng)
        record = await second.service.get(game_id)
        assert not record.game.is_over
        # The old board is gone: exactly one, mentioning the player now to move.
        (after,) = boards(channel, game_id)
        assert after.id != before.id
        assert after.content.startswith(f"<@{record.current_user}>, your turn")
        assert record.board_message_id == after.id
        assert legacy.id not in [m.id for m in channel.history()]
        assert await second.db.delivery.get_ping_message_id(game_id) is None
        # And the new process keeps it up to date from then on.
        await one_turn(second, (alice, bob), game_id, rng)
        (latest,) = boards(channel, game_id)
        assert latest.id != after.id
        await second.db.close()


async def test_dm_tip_told_once_across_a_restart(tmp_path):
    path = tmp_path / "dms.sqlite"
    first = create_bot(database=path)
    async with simcord.run(first) as env:
        guild, channel, (alice, bob) = setup_members(env)
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
        found = re.search(r"Game #(\d+)", accepted.response.content)
        assert found is not None
        game_id = int(found.group(1))
        assert len(tips(channel, bob)) == 1
        assert await first.db.delivery.dm_closed(bob.id)
        assert not await first.db.delivery.dm_closed(alice.id)
        rng = random.Random(7)
        players = (alice, bob)
        for _ in range(2):
            await one_turn(first, players, game_id, rng, ephemeral=(bob,), channel=channel)

        second = create_bot(database=path)
        await env.restart_bot(second)
        await first.db.close()
        dm_posts = len(_dm_posts(env, bob))
        for _ in range(4):
            await one_turn(second, players, game_id, rng, ephemeral=(bob,), channel=channel)
        assert len(tips(channel, bob)) == 1  # told once, restart or not
        # The new process knew his DMs are closed and did not try them again.
        assert len(_dm_posts(env, bob)) == dm_posts

        # Bob opens his DMs: the next game's DM reaches him and the flag is cleared.
        env.backend.faults.clear()
        other = guild.create_text_channel("other")
        next_game = await challenge_and_accept(env, other, alice, bob)
        assert not await second.db.delivery.dm_closed(bob.id)
        record = await second.service.get(next_game)
        assert record.dm_message_ids[record.players.index(bob.id)] is not None
        assert len(tips(other, bob)) == 0
        await second.db.close()


def _dm_posts(env: Any, member: Any) -> list[Any]:
    path = f"/channels/{member.user.dm_channel.id}/messages"
    return [r for r in env.http_requests if r.method == "POST" and r.path.endswith(path)]

"""The link buttons the bot posts: Watch on the board, Replay at the end, Ladder."""

from __future__ import annotations

import random

from tests.cogs.helpers import challenge_and_accept, dm_turn, flat_components, setup_members
from tests.web.helpers import get


def link_urls(message) -> list[str]:
    return [c["url"] for c in flat_components(message) if c.get("style") == 5]


async def test_board_end_and_leaderboard_carry_links(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    links = bot.web.links
    record = await bot.service.get(game_id)
    board = next(m for m in channel.history() if m.id == record.board_message_id)
    assert link_urls(board) == [links.watch(game_id)]
    status, _, _ = await get(links.watch(game_id))
    assert status == 200
    rng = random.Random(5)
    by_id = {alice.id: alice, bob.id: bob}
    while not (record := await bot.service.get(game_id)).game.is_over:
        await dm_turn(by_id[record.current_user], rng, game_id)
    assert links.replay(game_id) in link_urls(channel.last_message)
    shown = await alice.slash(channel, "schotten leaderboard")
    assert link_urls(shown.response) == [links.ladder(guild.id)]
    replay = await alice.slash(channel, "schotten replay", game=game_id)
    assert links.replay(game_id) in link_urls(replay.response)
    # Off for this server: no more links, and the old ones show nothing.
    await links.set_enabled(guild.id, False)
    shown = await alice.slash(channel, "schotten leaderboard")
    assert link_urls(shown.response) == []
    status, _, _ = await get(links.replay(game_id))
    assert status == 404

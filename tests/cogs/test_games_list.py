"""``/schotten games`` for a member with many games: one message within Discord's 2,000
characters, the rest counted."""

from __future__ import annotations

import re

from rules.game import GameOptions
from tests.cogs.helpers import setup_members

GAMES = 40


async def test_forty_games_fit_in_one_message(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice,) = setup_members(env, ("alice",))
    # Opponents with the longest names Discord allows, in a channel of their own each.
    ids = []
    for i in range(GAMES):
        opponent = guild.add_member(env.create_user(f"{'o' * 28}{i:04d}"))
        place = guild.create_text_channel(f"table-{i}")
        record = await bot.service.create_game(
            guild_id=guild.id, channel_id=place.id, players=(alice.id, opponent.id), options=GameOptions()
        )
        ids.append(record.id)
    result = await alice.slash(channel, "schotten games")
    assert result.ephemeral
    text = result.response.content
    assert len(text) <= 2000
    shown = [int(x) for x in re.findall(r"^#(\d+) against", text, re.M)]
    assert 10 <= len(shown) < GAMES and set(shown) <= set(ids)
    assert text.splitlines()[-1].startswith(f"…and {GAMES - len(shown)} more games")


async def test_a_few_games_are_all_listed(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    for opponent in (bob, carol):
        await bot.service.create_game(
            guild_id=guild.id, channel_id=channel.id, players=(alice.id, opponent.id), options=GameOptions()
        )
    text = (await alice.slash(channel, "schotten games")).response.content
    assert len(re.findall(r"^#\d+ against", text, re.M)) == 2 and "more game" not in text

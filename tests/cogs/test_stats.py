"""``/schotten stats``: ratings in this server and globally, record, stones won, streaks,
recent results and the head-to-head against the caller.

Ratings by hand (K 40 while provisional, scale 400):
game 1 alice beats bob: 1520 / 1480.
game 2 alice beats bob: E(alice) = 1 / (1 + 10^(-40/400)) = 0.5573116,
  alice 1520 + 40 * 0.4426884 = 1537.7075, bob 1462.2925.
game 3 bob beats alice: E(alice) = 1 / (1 + 10^(-75.415/400)) = 0.6068580,
  alice 1537.7075 - 40 * 0.6068580 = 1513.4332 (shown 1513), bob 1486.5668 (1487).
"""

from __future__ import annotations

import random

from tests.bot.conftest import play_randomly
from tests.cogs.helpers import challenge_and_accept, setup_members
from tests.cogs.test_leaderboard import beat


async def test_stats_of_someone_who_never_played(simcord_env, simcord_bot):
    _, channel, (alice, bob) = setup_members(simcord_env)
    mine = await alice.slash(channel, "schotten stats")
    assert mine.ephemeral and "You haven't finished a game in this server yet" in mine.response.content
    theirs = await alice.slash(channel, "schotten stats", member=bob)
    assert theirs.ephemeral and "bob hasn't finished a game in this server yet" in theirs.response.content


async def test_ratings_record_streaks_recent_and_head_to_head(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    g1 = await beat(env, channel, alice, bob)
    g2 = await beat(env, channel, alice, bob)
    g3 = await beat(env, channel, bob, alice)
    result = await bob.slash(channel, "schotten stats", member=alice)
    assert result.ephemeral  # a member's games are shown to the asker only
    text = result.response.content
    assert "**Stats for alice**" in text
    assert "Rating in this server: 1513 (3 played)" in text
    assert "Global rating: 1513 (3 played)" in text
    assert "Record: 3 games, 2 won, 1 lost, 0 drawn" in text
    assert "Stones won: 0" in text  # resigned before any stone was claimed
    assert "Winning streak: 0 now, best 2" in text
    recent = [line for line in text.splitlines() if line.startswith("#")]
    assert recent == [
        f"#{g3} lost against bob (0-0)",
        f"#{g2} won against bob (0-0)",
        f"#{g1} won against bob (0-0)",
    ]
    assert "Against you: alice won 2, lost 1, drew 0" in text
    own = (await bob.slash(channel, "schotten stats")).response.content
    assert "Rating in this server: 1487 (3 played)" in own
    assert "Against you" not in own and "Winning streak: 1 now, best 1" in own
    # Carol has not played alice: no head-to-head yet.
    assert (
        "alice has not played you yet."
        in (await carol.slash(channel, "schotten stats", member=alice)).response.content
    )

    # A game played to its end: the stones alice owned in it are counted.
    game_id = await challenge_and_accept(env, channel, alice, carol)
    record = await bot.service.get(game_id)
    outcome = await play_randomly(bot.service, record, random.Random(3))
    assert outcome is not None and outcome.result is not None
    stones = outcome.result.stones[outcome.game.players.index(alice.id)]
    text = (await carol.slash(channel, "schotten stats", member=alice)).response.content
    assert f"Stones won: {stones}" in text
    assert "Record: 4 games" in text


async def test_stats_in_another_server_show_nothing_of_the_first(simcord_env, simcord_bot):
    env = simcord_env
    _, channel, (alice, bob) = setup_members(env)
    elsewhere = env.create_guild()
    there = elsewhere.create_text_channel("general")
    alice_there = elsewhere.add_member(alice.user)
    await beat(env, channel, alice, bob)
    result = await alice_there.slash(there, "schotten stats")
    assert result.ephemeral
    assert result.response.content.startswith("You haven't finished a game in this server yet.")
    # Once she has a game there: this server's rating, the global one, this server's record.
    carol = elsewhere.add_member(env.create_user("carol"))
    await beat(env, there, carol, alice_there)
    text = (await alice_there.slash(there, "schotten stats")).response.content
    assert "Rating in this server: 1480 (1 played)" in text
    assert "Global rating:" in text and "(2 played)" in text
    assert "Record: 1 game, 0 won, 1 lost" in text and "bob" not in text

"""The Rematch button on the end-of-game announcement: either player may press it, the
other accepts (or declines: then nothing is rated)."""

from __future__ import annotations

import random
from typing import Any

import simcord

from bot.app import create_bot
from tests.cogs.helpers import challenge_and_accept, dm_turn, flat_components, private_text, setup_members


def end_message(channel: Any, game_id: int) -> Any:
    return [m for m in channel.history() if f"Game #{game_id} is over" in m.content][-1]


async def test_rematch_pressed_by_either_player_and_accepted_by_the_other(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    await bob.slash(channel, "schotten resign", game=game_id)
    end = end_message(channel, game_id)
    assert "Ratings: alice 1520 (+20), bob 1480 (-20)" in end.content
    assert [c["label"] for c in flat_components(end)] == ["Rematch"]

    # Someone who did not play is refused, privately, and nothing is created.
    refused = await carol.click(end, label="Rematch")
    assert "Only the two players" in private_text(refused)
    assert await bot.db.challenges.pending_challenges() == []

    # The loser asks; the offer goes to the winner.
    asked = await bob.click(end, label="Rematch")
    offer = channel.last_message
    assert offer.id != end.id and not asked.ephemeral
    assert f"wants a rematch of game #{game_id}" in offer.content
    assert str(alice.id) in offer.content
    again = await bob.click(end, label="Rematch")
    assert "already challenged" in private_text(again)
    not_yours = await bob.click(offer, label="Accept")
    assert private_text(not_yours)
    accepted = await alice.click(offer, label="Accept")
    assert "has started" in accepted.response.content
    rematch = (await bot.service.active_games_for(alice.id))[0]
    assert set(rematch.players) == {alice.id, bob.id} and rematch.players[0] == bob.id
    # While the rematch is being played, another one is refused.
    busy = await alice.click(end, label="Rematch")
    assert "already have a game" in private_text(busy)


async def test_a_declined_rematch_counts_for_nothing(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    await alice.slash(channel, "schotten resign", game=game_id)
    before = await bot.db.ratings.get_rating(f"guild:{guild.id}", alice.id)
    await alice.click(end_message(channel, game_id), label="Rematch")
    offer = channel.last_message
    declined = await bob.click(offer, label="Decline")
    assert "declined" in declined.response.content
    assert await bot.service.active_games_for(alice.id) == []
    assert await bot.db.ratings.get_rating(f"guild:{guild.id}", alice.id) == before
    assert await bot.db.ratings.leaderboard_size("global") == 2


async def test_buttons_and_matches_survive_a_restart(tmp_path):
    path = tmp_path / "games.sqlite"
    first = create_bot(database=path)
    async with simcord.run(first) as env:
        guild, channel, members = setup_members(env, tuple(f"p{i:02d}" for i in range(12)))
        side = guild.create_text_channel("side")
        offer = await members[0].slash(side, "schotten challenge", opponent=members[1], points=10)
        await members[1].click(offer.response, label="Accept")
        await members[1].slash(side, "schotten resign", game=1)  # p00 5 - 0 p01; game 2 starts
        games = []
        for winner, loser in zip(members[2::2], members[3::2], strict=True):
            game_id = await challenge_and_accept(env, channel, winner, loser)
            await loser.slash(channel, "schotten resign", game=game_id)
            games.append(game_id)
        board = await members[0].slash(channel, "schotten leaderboard")
        assert "Page 1 of 2" in board.response.content

        second = create_bot(database=path)
        await env.restart_bot(second)
        await first.db.close()
        # Old leaderboard and Rematch buttons, new process.
        await members[7].click(board.response, label="Next")
        assert "Page 2 of 2" in next(m for m in channel.history() if m.id == board.response.id).content
        await members[3].click(end_message(channel, games[0]), label="Rematch")
        accepted = await members[2].click(channel.last_message, label="Accept")
        assert "has started" in accepted.response.content
        # The match's board keeps its score after the restart.
        record = await second.service.get(2)
        mover = next(m for m in members if m.id == record.current_user)
        await dm_turn(mover, random.Random(1))
        boards = [m for m in side.history() if "Game #2: " in m.content]
        assert "Match #1 to 10: p00 5 - 0 p01" in boards[-1].content
        await second.db.close()

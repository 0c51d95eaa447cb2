"""The Rematch button on the end-of-game announcement: either player may press it, the
other accepts (or declines: then nothing is rated)."""

from __future__ import annotations

from typing import Any

from tests.cogs.helpers import challenge_and_accept, flat_components, setup_members


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
    assert refused.ephemeral and "Only the two players" in refused.response.content
    assert await bot.db.pending_challenges() == []

    # The loser asks; the offer goes to the winner.
    asked = await bob.click(end, label="Rematch")
    offer = channel.last_message
    assert offer.id != end.id and not asked.ephemeral
    assert f"wants a rematch of game #{game_id}" in offer.content
    assert str(alice.id) in offer.content
    again = await bob.click(end, label="Rematch")
    assert again.ephemeral and "already challenged" in again.response.content
    not_yours = await bob.click(offer, label="Accept")
    assert not_yours.ephemeral
    accepted = await alice.click(offer, label="Accept")
    assert "has started" in accepted.response.content
    rematch = (await bot.service.active_games_for(alice.id))[0]
    assert set(rematch.players) == {alice.id, bob.id} and rematch.players[0] == bob.id
    # While the rematch is being played, another one is refused.
    busy = await alice.click(end, label="Rematch")
    assert busy.ephemeral and "already have a game" in busy.response.content


async def test_a_declined_rematch_counts_for_nothing(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    await alice.slash(channel, "schotten resign", game=game_id)
    before = await bot.db.get_rating(f"guild:{guild.id}", alice.id)
    await alice.click(end_message(channel, game_id), label="Rematch")
    offer = channel.last_message
    declined = await bob.click(offer, label="Decline")
    assert "declined" in declined.response.content
    assert await bot.service.active_games_for(alice.id) == []
    assert await bot.db.get_rating(f"guild:{guild.id}", alice.id) == before
    assert await bot.db.leaderboard_size("global") == 2

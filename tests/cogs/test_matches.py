"""Matches: ``/schotten challenge points:N`` plays games until someone reaches N points
(winner 5, loser 1 per stone); the next game starts by itself with the previous winner
to move, the board shows the score, and every game is rated once.

Ratings by hand (K 40, scale 400): game 1 alice wins 1520 / 1480; game 2 bob wins,
E(alice) = 0.5573116: 1497.7075 / 1502.2925; game 3 alice wins,
E(alice) = 1 / (1 + 10^(4.585/400)) = 0.4934021: alice 1497.7075 + 40 * 0.5065979 =
1517.9714 (shown 1518, +20), bob 1482.0286 (1482, -20).
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from simcord.backend.errors import OptionError

from bot.community.stats import next_first_player
from rules.game import Result, match_points
from tests.bot.conftest import play_randomly
from tests.cogs.helpers import dm_message, flat_components, setup_members


def messages_with(channel: Any, text: str) -> list[Any]:
    return [m for m in channel.history() if text in m.content]


async def resign(channel: Any, member: Any, game_id: int) -> None:
    result = await member.slash(channel, "schotten resign", game=game_id)
    assert result.ephemeral


async def test_a_match_to_ten_points(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    offer = await alice.slash(channel, "schotten challenge", opponent=bob, points=10)
    assert "a match to 10 points" in offer.response.content
    accepted = await bob.click(offer.response, label="Accept")
    assert "Game #1 has started" in accepted.response.content
    first = await bot.service.get(1)
    assert first.match_id is not None
    match_id = first.match_id
    assert f"Match #{match_id} to 10: alice 0 - 0 bob" in messages_with(channel, "Game #1: ")[-1].content

    await resign(channel, bob, 1)  # alice 5 - 0
    end = messages_with(channel, "Game #1 is over")[-1]
    assert f"Match #{match_id} to 10: alice 5 - 0 bob" in end.content
    assert not flat_components(end)  # no Rematch while the match goes on
    assert messages_with(channel, f"Next game of match #{match_id}: game #2, alice starts.")
    second = await bot.service.get(2)
    assert second.match_id == match_id and second.players == first.players
    assert second.current_user == alice.id  # the winner moves first
    board = messages_with(channel, "Game #2: ")[-1]
    assert f"Match #{match_id} to 10: alice 5 - 0 bob" in board.content
    assert "Game #2 against" in dm_message(alice).content and "Game #2 against" in dm_message(bob).content

    await resign(channel, alice, 2)  # 5 - 5: a third game, bob starts
    assert messages_with(channel, f"Next game of match #{match_id}: game #3, bob starts.")
    third = await bot.service.get(3)
    assert third.current_user == bob.id
    assert "alice 5 - 5 bob" in messages_with(channel, "Game #3: ")[-1].content

    await resign(channel, bob, 3)  # alice 10 - 5: the match is over
    end = messages_with(channel, "Game #3 is over")[-1]
    assert f"Match #{match_id} to 10: alice 10 - 5 bob" in end.content
    assert f"alice wins match #{match_id}, 10 - 5!" in end.content
    assert "Ratings: alice 1518 (+20), bob 1482 (-20)" in end.content
    assert [c["label"] for c in flat_components(end)] == ["Rematch"]
    assert not (await bot.service.active_games_for(alice.id))
    match = await bot.db.challenges.get_match(match_id)
    assert match.status == "finished" and match.winner_id == alice.id and match.games == 3
    alice_rating = await bot.db.ratings.get_rating(f"guild:{channel.guild.id}", alice.id)
    assert (alice_rating.games, alice_rating.wins, alice_rating.losses) == (3, 2, 1)
    assert alice_rating.rating == pytest.approx(1517.9714, abs=1e-4)

    # A rematch of a match is a new match to the same target.
    await bob.click(end, label="Rematch")
    assert "wants a rematch of game #3 (a match to 10 points)" in channel.last_message.content


async def test_points_follow_the_rulebook(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    offer = await alice.slash(channel, "schotten challenge", opponent=bob, points=100)
    await bob.click(offer.response, label="Accept")
    record = await bot.service.get(1)
    outcome = await play_randomly(bot.service, record, random.Random(5))
    assert outcome is not None and outcome.result is not None
    result = outcome.result
    points = match_points(Result(result.winner, result.reason, result.stones))
    match = await bot.db.challenges.get_match(record.match_id)
    assert match.scores == points and match.status == "active"
    if result.winner is not None:
        assert points[result.winner] == 5 and points[1 - result.winner] == result.stones[1 - result.winner]


def test_after_a_draw_the_other_player_starts():
    record = SimpleNamespace(first_player=1)
    assert next_first_player(record, Result(None, "both_passed", (3, 3))) == 0
    assert next_first_player(record, Result(1, "five_stones", (2, 5))) == 1


async def test_points_out_of_range_are_refused(simcord_env, simcord_bot):
    _, channel, (alice, bob) = setup_members(simcord_env)
    with pytest.raises(OptionError, match="must be ≥ 5"):  # Discord's client refuses it
        await alice.slash(channel, "schotten challenge", opponent=bob, points=2)
    assert await simcord_bot.db.challenges.pending_challenges() == []

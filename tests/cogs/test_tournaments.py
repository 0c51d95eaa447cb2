"""Whole tournaments through the bot: created, joined and started with the real
commands and buttons; each game is finished fast by its loser's ``/schotten resign``
(the rounds, standings and podium then follow by themselves)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.app import SchottenBot, create_bot
from bot.games.errors import ServiceError

ORGANISER = "olga"


def tournament_table(env: simcord.Env, players: int) -> tuple[Any, Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("tournaments")
    events = guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    organiser = guild.add_member(env.create_user(ORGANISER), roles=[events])
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(1, players + 1)]
    return guild, channel, organiser, members


async def open_tournament(channel: Any, organiser: Any, members: list[Any], **options: Any) -> tuple[int, Any]:
    created = await organiser.slash(channel, "schotten tournament create", **options)
    assert created.response is not None and not created.ephemeral, created.response
    signup = created.response
    assert "Sign up with the buttons below" in signup.content
    for member in members:
        joined = await member.click(signup, label="Join")
        assert joined.ephemeral and "You joined" in joined.response.content
    signup = next(m for m in channel.history() if m.id == signup.id)
    assert f"Players ({len(members)})" in signup.content
    tournament_id = int(signup.content.split("#", 1)[1].split(" ", 1)[0])
    return tournament_id, signup


async def play_round(bot: SchottenBot, channel: Any, by_id: dict[int, Any], tournament_id: int, loser=None) -> int:
    """Finish every game of the current round: the loser (``loser(white, black)``,
    default black) resigns each game through the slash command. Returns the round."""
    row = await bot.db.tournaments.get(tournament_id)
    round_no = row.round
    for pairing in await bot.db.tournaments.pairings(tournament_id, round_no):
        while not (await bot.db.tournaments.pairings(tournament_id, round_no))[pairing.board - 1].done:
            game_id = pairing.game_id
            if pairing.match_id is not None:
                game_id = await bot.matches.next_game(pairing.match_id)
            record = await bot.service.get(game_id)
            if not record.is_active:
                break
            who = (loser or (lambda w, b: b))(pairing.white, pairing.black)
            resigned = await by_id[who].slash(channel, "schotten resign", game=game_id)
            assert resigned.ephemeral, resigned.response.content
    return round_no


def said(result: Any) -> str:
    """Everything an interaction answered (a deferred answer is its first followup)."""
    parts = [result.response.content if result.response is not None else ""]
    return "\n".join(parts + [f.content for f in result.followups])


def texts(channel: Any, fragment: str) -> list[str]:
    return [m.content for m in channel.history() if fragment in m.content]


async def test_a_swiss_of_seven_with_a_bye_and_a_withdrawal(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 7)
    by_id = {m.id: m for m in members}
    tid, signup = await open_tournament(channel, organiser, members, name="Spring *Open*", format="swiss", rounds=3)
    assert "\\*Open\\*" in signup.content  # the typed name is escaped

    again = await members[0].click(signup, label="Join")  # a double click
    assert again.ephemeral and "already" in again.response.content
    started = await organiser.slash(channel, "schotten tournament start")
    assert started.ephemeral
    signup = next(m for m in channel.history() if m.id == signup.id)
    assert "Sign-up is closed" in signup.content
    # Join after the start (a click that raced it; the buttons are disabled by now).
    with pytest.raises(ServiceError, match="") as refused:
        await bot.tournaments.join(tid, organiser.id)
    assert refused.value.code == "tournament_closed"
    row = await bot.db.tournaments.get(tid)
    assert (row.status, row.round, row.rounds) == ("running", 1, 3)
    pairings = await bot.db.tournaments.pairings(tid, 1)
    assert sum(p.black is None for p in pairings) == 1 and len(pairings) == 4  # 3 games and a bye
    announcement = texts(channel, ": round 1 of 3.")[-1]
    assert "has a bye" in announcement and announcement.count("game #") == 3
    assert [m for m in channel.history() if "Game #" in m.content and "```" in m.content]  # boards

    assert await play_round(bot, channel, by_id, tid) == 1
    row = await bot.db.tournaments.get(tid)
    assert row.round == 2
    # A player withdraws in round 2: their game is resigned, no further pairing.
    leaver = next(p.white for p in await bot.db.tournaments.pairings(tid, 2) if p.black is not None)
    left = await by_id[leaver].slash(channel, "schotten tournament leave")
    assert left.ephemeral and "You left" in said(left)
    await play_round(bot, channel, by_id, tid)
    row = await bot.db.tournaments.get(tid)
    assert row.round == 3
    assert all(leaver not in (p.white, p.black) for p in await bot.db.tournaments.pairings(tid, 3))
    await play_round(bot, channel, by_id, tid)
    row = await bot.db.tournaments.get(tid)
    assert row.status == "finished"
    podium = texts(channel, "The podium")
    assert len(podium) == 1 and podium[0].count("\n") == 3
    standings = await organiser.slash(channel, "schotten tournament standings", tournament=tid)
    assert standings.ephemeral and "standings, round 3 of 3" in standings.response.content
    assert "1- p" in standings.response.content or "- p" in standings.response.content  # the leaver, marked
    # Every game is an ordinary rated game of the server.
    games = await bot.db.tournaments.games(tid)
    assert len(games) == 9
    winner = games[0].first
    assert (await bot.db.ratings.get_rating(f"guild:{channel.guild.id}", winner)).games >= 1
    listed = await members[0].slash(channel, "schotten tournaments")
    assert "finished" in listed.response.content


async def test_bad_input_changes_nothing(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 3)
    refused = await members[0].slash(channel, "schotten tournament create", name="Mine", format="swiss")
    assert refused.ephemeral and "manage this server or its events" in refused.response.content
    for options, fragment in (
        ({"name": "x" * 2000, "format": "swiss"}, "at most 100 characters"),
        ({"name": "Cup", "format": "swiss", "rounds": 0}, "1 to 20 rounds"),
        ({"name": "Cup", "format": "knockout", "best_of": 4}, "best of 1, 3, 5"),
        ({"name": "Cup", "format": "swiss", "best_of": 3}, "Only a knockout"),
        ({"name": "   ", "format": "swiss"}, "needs a name"),
    ):
        answer = await organiser.slash(channel, "schotten tournament create", **options)
        assert answer.ephemeral and fragment in answer.response.content, answer.response.content
    assert await bot.tournaments.of_guild(channel.guild.id) == []
    created = await organiser.slash(channel, "schotten tournament create", name="@everyone <@1> cup", format="swiss")
    assert "@\u200beveryone" in created.response.content or "@everyone" not in created.response.content
    empty = await organiser.slash(channel, "schotten tournament start")
    assert empty.ephemeral and "needs at least 3" in empty.response.content
    outsider = await members[0].slash(channel, "schotten tournament cancel")
    assert outsider.ephemeral and "Only the organiser" in outsider.response.content
    # A kicked player pressing Join is refused.
    signup = created.response
    await members[0].click(signup, label="Join")
    kicked = await organiser.slash(channel, "schotten tournament kick", member=members[0])
    assert kicked.ephemeral
    again = await members[0].click(signup, label="Join")
    assert again.ephemeral and "removed" in again.response.content
    left = await members[1].click(signup, label="Leave")  # not in it
    assert left.ephemeral and "not in this tournament" in said(left)
    row = (await bot.tournaments.of_guild(channel.guild.id))[0]
    assert row.status == "open" and [e.status for e in await bot.db.tournaments.entrants(row.id)] == ["kicked"]

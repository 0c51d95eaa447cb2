"""Whole tournaments through the bot: created, joined and started with the real
commands and buttons; each game is finished fast by its loser's ``/schotten resign``
(the rounds, standings and podium then follow by themselves)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest
import simcord

from bot.app import SchottenBot, create_bot
from bot.games.errors import ServiceError
from rules.game import GameOptions
from tests.cogs.helpers import dm_message, private_text

ORGANISER = "olga"


def tournament_table(env: simcord.Env, players: int) -> tuple[Any, Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("tournaments")
    events = guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    organiser = guild.add_member(env.create_user(ORGANISER), roles=[events])
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(1, players + 1)]
    return guild, channel, organiser, members


async def open_tournament(
    channel: Any, organiser: Any, members: list[Any], **options: Any
) -> tuple[int, Any]:
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


async def play_round(
    bot: SchottenBot, channel: Any, by_id: dict[int, Any], tournament_id: int, loser=None
) -> int:
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
    tid, signup = await open_tournament(
        channel, organiser, members, name="Spring *Open*", format="swiss", rounds=3
    )
    assert "\\*Open\\*" in signup.content  # the typed name is escaped

    again = await members[0].click(signup, label="Join")  # a double click
    assert again.ephemeral and "already" in again.response.content
    started = await organiser.slash(channel, "schotten tournament start")
    assert started.ephemeral
    signup = next(m for m in channel.history() if m.id == signup.id)
    assert "Sign-up is closed" in signup.content
    # Join after the start (a click that raced it; the buttons are disabled by now).
    with pytest.raises(ServiceError) as refused:
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
    # The game ends as a withdrawal, not a resignation: the game itself says so, and so
    # do the board, both players' DMs and the leaver's history.
    leaver_name = by_id[leaver].user.name
    (game_id,) = [p.game_id for p in await bot.db.tournaments.pairings(tid, 2) if p.white == leaver]
    record = await bot.service.get(game_id)
    assert record.game.result.reason == "withdrawn" and str(record.game.log[-1][1]) == "withdraw"
    opponent = by_id[record.players[1 - record.players.index(leaver)]]
    result_line = f"{leaver_name} withdrew from the tournament; {opponent.user.name} wins."
    board = next(m.content for m in channel.history() if m.id == record.board_message_id)
    board = " ".join(board.split())  # its lines wrap at 40 columns
    assert f"Last: {leaver_name} withdrew from the tournament" in board and result_line in board, board
    for player in (by_id[leaver], opponent):
        dm = dm_message(player, game_id).content
        assert result_line in dm and "resign" not in dm.lower(), dm
    history = private_text(await by_id[leaver].slash(channel, "schotten history"))
    line = next(x for x in history.splitlines() if f"`#{game_id}`" in x)
    assert "**lost** against" in line and "by withdrawal from the tournament" in line, line
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
    assert standings.ephemeral and "final standings" in standings.response.content
    assert "1- p" in standings.response.content or "- p" in standings.response.content  # the leaver, marked
    # The sign-up message's final state, the withdrawn player marked (item 1).
    signup = next(m for m in channel.history() if m.id == signup.id)
    assert "The tournament is over." in signup.content and "Sign-up is closed" not in signup.content
    assert f"{leaver_name} (withdrew)" in signup.content
    assert "1 day per turn. 3 rounds." in signup.content  # the turn time in its unit (item 9)
    # The withdrawal reads as one, not as a resignation (item 9).
    ended = texts(channel, f"{leaver_name} withdrew from the tournament;")
    assert len(ended) == 1 and ended[0].startswith("Game #")
    assert not [m for m in texts(channel, f"{leaver_name} resigned") if m.startswith("Game #")]
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
        assert fragment in private_text(answer), answer
    assert await bot.tournaments.of_guild(channel.guild.id) == []
    created = await organiser.slash(
        channel, "schotten tournament create", name="@everyone <@1> cup", format="swiss"
    )
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
    # The refusal names the tournament, escaped (item 4).
    assert left.ephemeral and "That player is not in @\u200beveryone <@1> cup." in said(left), said(left)
    row = (await bot.tournaments.of_guild(channel.guild.id))[0]
    assert row.status == "open" and [e.status for e in await bot.db.tournaments.entrants(row.id)] == [
        "kicked"
    ]


async def test_a_round_robin_of_five(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 5)
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="League", format="round-robin")
    await organiser.slash(channel, "schotten tournament start")
    row = await bot.db.tournaments.get(tid)
    assert row.rounds == 5
    for expected in range(1, 6):
        assert await play_round(bot, channel, by_id, tid, loser=max) == expected
    row = await bot.db.tournaments.get(tid)
    assert row.status == "finished"
    pairs = [frozenset((p.white, p.black)) for p in await bot.db.tournaments.pairings(tid) if p.black]
    assert len(pairs) == 10 == len(set(pairs))  # everyone met everyone once
    byes = [p.white for p in await bot.db.tournaments.pairings(tid) if p.black is None]
    assert sorted(byes) == sorted(by_id)  # one bye each
    podium = texts(channel, "The podium")[-1]
    lowest = min(by_id)  # "loser=max": the lower user id wins every game
    assert f"🥇 {by_id[lowest].user.name}" in podium


async def test_a_knockout_of_six_with_best_of_three_ties(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 6)
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="Cup", format="knockout", best_of=3)
    await organiser.slash(channel, "schotten tournament start")
    first = await bot.db.tournaments.pairings(tid, 1)
    assert len(first) == 4 and sum(p.black is None for p in first) == 2  # the top seeds' byes
    for expected in (1, 2, 3):
        assert await play_round(bot, channel, by_id, tid) == expected
    row = await bot.db.tournaments.get(tid)
    assert row.status == "finished" and row.rounds == 3
    for pairing in await bot.db.tournaments.pairings(tid):
        if pairing.match_id is not None:
            match = await bot.db.challenges.get_match(pairing.match_id)
            assert match.games == 2 and match.winner_id == pairing.winner_id == pairing.white
    standings = await organiser.slash(channel, "schotten tournament standings")
    # (the finished tournament is found by its number only)
    assert standings.ephemeral
    bracket = (
        await organiser.slash(channel, "schotten tournament standings", tournament=tid)
    ).response.content
    assert "R1" in bracket and "R3" in bracket and "2-0" in bracket and "bye" in bracket
    assert len(texts(channel, "The podium")) == 1


async def test_a_restart_in_the_middle_of_a_round(tmp_path):
    path = tmp_path / "tournament.sqlite"
    first = create_bot(database=path)
    second = create_bot(database=path)
    try:
        async with simcord.run(first) as env:
            _, channel, organiser, members = tournament_table(env, 4)
            by_id = {m.id: m for m in members}
            tid, _ = await open_tournament(
                channel, organiser, members, name="Night", format="swiss", rounds=2
            )
            await organiser.slash(channel, "schotten tournament start")
            one, two = await first.db.tournaments.pairings(tid, 1)
            await by_id[one.black].slash(channel, "schotten resign", game=one.game_id)

            await env.restart_bot(second)
            # The last game ends while no process publishes it (a crash right after
            # the commit): the timers' round pairs round 2 all the same.
            await second.service.resign(two.game_id, two.black)
            assert (await second.db.tournaments.get(tid)).round == 1
            await second.get_cog("Timers").run_once()
            row = await second.db.tournaments.get(tid)
            assert row.round == 2
            assert len(texts(channel, ": round 2 of 2.")) == 1
            await second.get_cog("Timers").run_once()  # nothing more to do
            assert len(await second.db.tournaments.pairings(tid, 2)) == 2
            assert await play_round(second, channel, by_id, tid) == 2
            assert (await second.db.tournaments.get(tid)).status == "finished"
    finally:
        await first.close()
        await second.close()


async def test_two_processes_on_postgresql_advance_a_round_once(postgres_database):
    """Two bots on one PostgreSQL database (two connection pools) both see round 1
    end and advance at once: round 2 is paired and its games created exactly once."""
    first = create_bot(database=postgres_database)
    other = create_bot(database=postgres_database)
    try:
        async with simcord.run(first) as env:
            _, channel, organiser, members = tournament_table(env, 4)
            by_id = {m.id: m for m in members}
            tid, _ = await open_tournament(channel, organiser, members, name="Twin", format="swiss", rounds=2)
            await organiser.slash(channel, "schotten tournament start")
            one, two = await first.db.tournaments.pairings(tid, 1)
            await by_id[one.black].slash(channel, "schotten resign", game=one.game_id)
            await other.db.connect()  # the second process's pool (migrated by the first)
            await first.service.resign(two.game_id, two.black)  # committed, not yet advanced
            made = await asyncio.gather(
                *(bot.tournaments.advance(tid) for _ in range(3) for bot in (first, other))
            )
            assert sum(len(m) for m in made) == 1
            assert (await first.db.tournaments.get(tid)).round == 2
            pairings = await first.db.tournaments.pairings(tid, 2)
            assert len(pairings) == 2
            games = [g for m in members for g in await first.service.active_games_for(m.id)]
            assert len({g.id for g in games}) == 2
    finally:
        await first.close()
        await other.close()


async def test_the_cap_holds_for_two_processes_on_postgresql(postgres_database):
    """Two bots on one PostgreSQL database create tournaments in one server at once:
    the server's lock row makes them count one after the other, so the cap holds."""
    first = create_bot(database=postgres_database)
    other = create_bot(database=postgres_database)
    try:
        await first.db.connect()
        await first.db.migrate()
        await other.db.connect()
        for bot in (first, other):
            bot.tournaments.max_open = 3

        async def create(bot: SchottenBot, n: int) -> bool:
            try:
                await bot.tournaments.create(
                    guild_id=7,
                    channel_id=8,
                    organiser_id=9,
                    name=f"Rush {n}",
                    format="swiss",
                    rounds=None,
                    best_of=None,
                    options=GameOptions(),
                    turn_time=None,
                    max_players=None,
                )
            except ServiceError as error:
                assert error.code == "tournament_cap"
                return False
            return True

        made = await asyncio.gather(*(create(bot, n) for n in range(4) for bot in (first, other)))
        assert sum(made) == 3
        assert len(await first.tournaments.of_guild(7)) == 3
    finally:
        await first.close()
        await other.close()

"""What members see of a tournament, item by item: the sign-up's final state, kicks,
deadlines and reminders, the ``tournament`` option, the cap, the standings and their
legend, tournament games' labels, the wording, languages and cancelling. Played
through the real commands and buttons (helpers from ``test_tournaments``)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.games.errors import ServiceError
from rules.game import GameOptions
from tests.cogs.helpers import challenge_and_accept, dm_message, flat_components, private_text
from tests.cogs.test_tournaments import open_tournament, play_round, said, texts, tournament_table


def message(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


def ends(channel: Any) -> list[Any]:
    """The channel's end-of-game announcements."""
    return [m for m in channel.history() if m.content.startswith("Game #") and " is over." in m.content]


async def test_a_kick_is_a_kick(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 3)
    tid, signup = await open_tournament(channel, organiser, members, name="Night", format="swiss", rounds=1)
    assert "1 day per turn. 1 round." in signup.content  # not "1440 minutes", not "1 rounds"
    await organiser.slash(channel, "schotten tournament start")
    (game,) = [p for p in await bot.db.tournaments.pairings(tid, 1) if p.black is not None]
    by_id = {m.id: m for m in members}
    judy, ken = by_id[game.black], by_id[game.white]
    kicked = await organiser.slash(channel, "schotten tournament kick", member=judy.user)
    assert kicked.ephemeral and "was removed from Tournament #" in said(kicked)
    # Her game reads as a removal, not a resignation: the game itself says so.
    (end,) = ends(channel)
    assert f"{judy.user.name} was removed from the tournament; {ken.user.name} wins." in end.content
    record = await bot.service.get(game.game_id)
    assert record.game.result.reason == "kicked" and str(record.game.log[-1][1]) == "kick"
    result_line = f"{judy.user.name} was removed from the tournament; {ken.user.name} wins."
    board = " ".join(message(channel, record.board_message_id).content.split())  # lines wrap at 40
    assert f"Last: {judy.user.name} was removed from the tournament" in board and result_line in board
    for player in (judy, ken):
        dm = dm_message(player, record.id).content
        assert result_line in dm and "resign" not in dm.lower(), dm
    assert "resign" not in (board + end.content).lower()
    # Her history says how the game was lost, and so does its record file.
    history = private_text(await judy.slash(channel, "schotten history"))
    line = next(x for x in history.splitlines() if f"`#{record.id}`" in x)
    assert "**lost** against" in line and "by removal from the tournament" in line, line
    exported = await ken.slash(channel, "schotten export", game=record.id)
    (attachment,) = exported.response.attachments
    text = (await attachment.read()).decode("utf-8")
    assert f"Result: {1 - record.players.index(judy.id)} kicked " in text and text.endswith(" kick\n")
    # She is told.
    dms = [m.content for m in judy.user.dm_channel.history() if m.author.bot]
    assert any("You were removed from Tournament #" in text and "Night" in text for text in dms), dms
    # The round is over: the tournament ends, and she is on no podium.
    assert (await bot.db.tournaments.get(tid)).status == "finished"
    (podium,) = texts(channel, "The podium")
    places = [line.split(" ", 1)[1] for line in podium.splitlines()[1:]]
    others = {m.user.name for m in members if m is not judy}
    assert {name for place in places for name in place.split(", ")} == others  # not judy
    final = texts(channel, "final standings")[-1]
    assert f"x {judy.user.name}" in final  # marked as removed
    signup = message(channel, signup.id)
    assert f"{judy.user.name} (removed)" in signup.content and "The tournament is over." in signup.content


async def test_the_deadline_is_shown_and_a_short_turn_is_reminded(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 3)
    tid, signup = await open_tournament(
        channel, organiser, members, name="Blitz", format="swiss", turn_time=5
    )
    assert "5 minutes per turn." in signup.content
    await organiser.slash(channel, "schotten tournament start")
    (pairing,) = [p for p in await bot.db.tournaments.pairings(tid, 1) if p.black is not None]
    record = await bot.service.get(pairing.game_id)
    board = message(channel, record.board_message_id)
    label = "Tournament #1 **Blitz** (Swiss), round 1 of 2"
    assert (
        label in board.content
        and "Turn ends <t:" in board.content
        and "(5 minutes per turn)" in board.content
    )
    mover = next(m for m in members if m.id == record.current_user)
    dm = dm_message(mover, record.id)
    assert label in dm.content and "Turn ends <t:" in dm.content
    # A casual game of the same players, for comparison: no label, the usual reminder.
    casual = await bot.service.create_game(
        guild_id=channel.guild.id, channel_id=channel.id, players=record.players, options=GameOptions()
    )
    reminder = bot.settings.turn_reminder
    assert reminder == 43200
    started = record.turn_started_at
    due = {r.id for r in await bot.service.games_to_remind(reminder, now=started + 151)}
    assert record.id in due and casual.id not in due  # half of 5 minutes
    assert record.id not in {r.id for r in await bot.service.games_to_remind(reminder, now=started + 149)}
    assert casual.id in {r.id for r in await bot.service.games_to_remind(reminder, now=started + reminder)}


async def test_tournament_games_have_no_rematch(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 3)
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="Cup", format="swiss", rounds=1)
    await organiser.slash(channel, "schotten tournament start")
    await play_round(bot, channel, by_id, tid)
    (end,) = ends(channel)
    assert "Rematch" not in [c.get("label") for c in flat_components(end)]
    # A casual game between the same two still offers one.
    first, second = members[0], members[1]
    game_id = await challenge_and_accept(env, channel, first, second)
    await first.slash(channel, "schotten resign", game=game_id)
    assert "Rematch" in [c.get("label") for c in flat_components(ends(channel)[-1])]


async def test_the_tournament_option(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 3)
    by_id = {m.id: m for m in members}
    await organiser.slash(channel, "schotten tournament create", name="Spring", format="swiss")
    choices = await members[0].autocomplete(channel, "schotten tournament standings", "tournament", "")
    assert [c["value"] for c in choices] == [1] and "Spring" in choices[0]["name"]
    # Without the option the command picks as before, and a refusal names the tournament.
    refused = await organiser.slash(channel, "schotten tournament start")
    assert "0 players have joined Tournament" not in private_text(refused)
    assert "0 players have joined Spring; it needs at least 3." in private_text(refused)
    await organiser.slash(channel, "schotten tournament cancel")
    tid, _ = await open_tournament(channel, organiser, members, name="Summer", format="swiss", rounds=1)
    for command in ("start", "standings", "leave", "cancel"):
        offered = await organiser.autocomplete(channel, f"schotten tournament {command}", "tournament", "sum")
        assert [c["value"] for c in offered] == [tid], command
    kick = await organiser.autocomplete(
        channel, "schotten tournament kick", "tournament", "", member=members[0].user
    )
    assert tid in [c["value"] for c in kick]
    started = await organiser.slash(channel, "schotten tournament start")
    assert "Summer" in said(started)
    await play_round(bot, channel, by_id, tid)
    assert (await bot.db.tournaments.get(tid)).status == "finished"
    # Once the last tournament ended, its final standings (not "no tournament").
    shown = await members[0].slash(channel, "schotten tournament standings")
    assert "Summer" in said(shown) and "final standings" in said(shown)


async def test_a_cap_on_open_tournaments(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, _ = tournament_table(env, 0)
    assert bot.tournaments.max_open == 5  # MAX_OPEN_TOURNAMENTS' default
    for n in range(5):
        created = await organiser.slash(channel, "schotten tournament create", name=f"T{n}", format="swiss")
        assert not created.ephemeral
    refused = await organiser.slash(channel, "schotten tournament create", name="T5", format="swiss")
    assert "This server has 5 tournaments open or running" in private_text(refused)
    assert len(await bot.tournaments.of_guild(channel.guild.id)) == 5
    # Created at once, they are counted one after the other.
    bot.tournaments.max_open = 8

    async def create(n: int) -> bool:
        try:
            await bot.tournaments.create(
                guild_id=channel.guild.id,
                channel_id=channel.id,
                organiser_id=organiser.id,
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

    made = await asyncio.gather(*(create(n) for n in range(6)))
    assert sum(made) == 3 and len(await bot.tournaments.of_guild(channel.guild.id)) == 8


async def test_the_list_is_never_cut(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, _ = tournament_table(env, 0)
    bot.tournaments.max_open = 0
    for n in range(40):
        await organiser.slash(
            channel, "schotten tournament create", name=f"{n:02d} " + "x" * 90, format="swiss"
        )
    rows = await bot.tournaments.of_guild(channel.guild.id)
    oldest, second = rows[-1], rows[-2]
    await bot.db.tournaments.set_status(oldest.id, "running", expected=("open",), now=1.0, rounds=3)
    await bot.db.tournaments.set_status(second.id, "finished", expected=("open",), now=1.0)
    listed = private_text(await organiser.slash(channel, "schotten tournaments"))
    assert len(listed) <= 2000
    lines = listed.splitlines()
    assert f"Tournament #{oldest.id} " in lines[1] and "round 0 of 3" in lines[1]  # the running one first
    assert "more tournaments" in lines[-1]
    shown = sum(1 for line in lines if line.startswith("Tournament #"))
    assert f"and {40 - shown} more tournaments" in lines[-1]


async def test_standings_after_each_round_with_a_legend(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 4)
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="Night", format="swiss", rounds=2)
    await organiser.slash(channel, "schotten tournament start")
    assert not texts(channel, "standings")  # nothing played yet
    await play_round(bot, channel, by_id, tid)
    (after_one,) = [m for m in channel.history() if ": standings after round 1" in m.content]
    assert "Pts BH SB St" in after_one.content
    assert "-# Pts points (win 1, draw ½, bye 1) · BH Buchholz" in after_one.content
    mid = await members[0].slash(channel, "schotten tournament standings")
    assert "standings after round 1" in said(mid)  # round 2 is in play
    await play_round(bot, channel, by_id, tid)
    (final,) = [m for m in channel.history() if ": final standings" in m.content]
    assert final.id > after_one.id  # posted anew, at the bottom
    moved = message(channel, after_one.id)
    assert "out of date" in moved.content and moved.content.endswith(f"/{channel.id}/{final.id}")
    # Standings, then the podium.
    assert texts(channel, "The podium")[0] == [m.content for m in channel.history()][-1]


async def test_a_true_three_way_tie_shares_the_podium(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 3)
    by_id = {m.id: m for m in members}
    a, b, c = sorted(by_id)
    beats = {(a, b), (b, c), (c, a)}
    tid, _ = await open_tournament(channel, organiser, members, name="Cycle", format="round-robin")
    await organiser.slash(channel, "schotten tournament start")
    for _ in range(3):
        await play_round(bot, channel, by_id, tid, loser=lambda w, k: k if (w, k) in beats else w)
    final = texts(channel, "final standings")[-1]
    assert "Pts DE SB St" in final and "DE direct encounter" in final
    assert [line.split()[0] for line in final.split("```")[1].strip().splitlines()[1:]] == ["1.", "1.", "1."]
    (podium,) = texts(channel, "The podium")
    lines = podium.splitlines()
    assert len(lines) == 2 and lines[1].startswith("🥇 ") and lines[1].count(",") == 2


async def test_a_knockout_podium_and_bracket(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 4)
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="Cup", format="knockout")
    await organiser.slash(channel, "schotten tournament start")
    semis = await bot.db.tournaments.pairings(tid, 1)
    losers = {by_id[p.black].user.name for p in semis}
    await play_round(bot, channel, by_id, tid)
    after = texts(channel, "bracket after round 1")
    assert len(after) == 1 and "R1" in after[0] and "* went through" in after[0]
    await play_round(bot, channel, by_id, tid)
    (podium,) = texts(channel, "The podium")
    third = next(line for line in podium.splitlines() if line.startswith("🥉"))
    assert {name.strip() for name in third[2:].split(",")} == losers  # both semi-final losers
    assert texts(channel, "final bracket")


async def test_leaving_a_cancelled_tournament_says_so(simcord_env):
    _, channel, organiser, members = tournament_table(simcord_env, 3)
    tid, _ = await open_tournament(channel, organiser, members, name="Doomed", format="swiss")
    await organiser.slash(channel, "schotten tournament cancel", tournament=tid)
    left = await members[0].slash(channel, "schotten tournament leave", tournament=tid)
    assert "Doomed was cancelled." in said(left) and "is over" not in said(left)


async def test_private_standings_in_the_members_language(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 3)
    tid, _ = await open_tournament(channel, organiser, members, name="Liga", format="swiss")
    await organiser.slash(channel, "schotten tournament start")
    await members[0].slash(channel, "schotten language", language="de")
    assert await bot.languages.for_guild(channel.guild.id) == "en"
    shown = await members[0].slash(channel, "schotten tournament standings", tournament=tid)
    assert shown.ephemeral and "Tabelle" in said(shown) and "standings" not in said(shown)


async def test_cancelling_turns_the_games_casual_and_tells_the_players(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = tournament_table(env, 4)
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="Rained off", format="swiss")
    await organiser.slash(channel, "schotten tournament start")
    games = await bot.db.tournaments.pairings(tid, 1)
    cancelled = await organiser.slash(channel, "schotten tournament cancel")
    assert "You cancelled" in said(cancelled)
    assert texts(channel, "Games in progress go on as casual games, not rated.")
    for pairing in games:
        for user_id in (pairing.white, pairing.black):
            dms = [m.content for m in by_id[user_id].user.dm_channel.history() if m.author.bot]
            assert any(f"Your game #{pairing.game_id} goes on as a casual game" in d for d in dms), dms
        record = await bot.service.get(pairing.game_id)
        assert record.is_active and "round 1 of" not in message(channel, record.board_message_id).content
    # Played out, unrated: nobody's rating moves.
    for pairing in games:
        await by_id[pairing.black].slash(channel, "schotten resign", game=pairing.game_id)
    scope = f"guild:{channel.guild.id}"
    for member in members:
        assert await bot.db.ratings.get_rating(scope, member.id) is None
    assert len(ends(channel)) == 2 and not any("Ratings:" in m.content for m in ends(channel))

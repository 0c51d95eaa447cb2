"""The server's tournaments on its ladder page: tournaments played through simcord with
the real commands (``tests.cogs.test_tournaments``), then the page fetched by its link:
the list, the standings or the bracket and the round's pairings, every name escaped."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import discord

from bot.app import SchottenBot
from bot.tournaments import standings
from bot.tournaments.standings import format_points
from tests.cogs.test_tournaments import ORGANISER, open_tournament, play_round
from tests.web.browser import browser, screenshot_path
from tests.web.helpers import everything_served, get
from tests.web.test_pages import HOSTILE, scan

__all__ = ["browser"]  # the fixture

TAG = re.compile(r"<[^>]+>")


def hostile_table(env: Any, names: tuple[str, ...]) -> tuple[Any, Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("tournaments")
    events = guild.create_role("events", permissions=discord.Permissions(manage_events=True))
    organiser = guild.add_member(env.create_user(ORGANISER), roles=[events])
    members = [guild.add_member(env.create_user(name)) for name in names]
    return guild, channel, organiser, members


async def ladder_html(bot: SchottenBot, guild_id: int) -> str:
    bot.web.sources._ladders.clear()  # the ladder is reused for a few seconds
    served = await everything_served(bot.web.links.ladder(guild_id), events=False)
    scan(served, set(), HOSTILE)  # tournament data is public: only the names are checked
    return served[0][1].decode()


def section(page: str, tournament_id: int) -> str:
    start = page.index(f'<section class="tournament" id="tournament-{tournament_id}">')
    return page[start : page.index("</section>", start)]


def rows(table_html: str, css_class: str) -> list[list[str]]:
    """The cells of a table's body rows, as text (tags dropped, entities decoded)."""
    body = table_html.split(f'<table class="{css_class}">', 1)[1].split("</table>", 1)[0]
    body = body.split("<tbody>", 1)[1]
    return [
        [html.unescape(TAG.sub("", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]


async def test_a_swiss_on_the_ladder_with_standings_and_pairings(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, organiser, members = hostile_table(env, (*HOSTILE, "carol"))
    by_id = {m.id: m for m in members}
    name = f"{HOSTILE[0]} Cup {HOSTILE[1]}"
    tid, _ = await open_tournament(channel, organiser, members, name=name, format="swiss", rounds=2)

    page = await ladder_html(bot, guild.id)
    assert 'id="tournaments"' in page and html.escape(name) in page
    assert 'id="tournament-list"' in page and "open for sign-up" in page
    assert f'id="tournament-{tid}"' not in page  # nothing to show before the start

    await organiser.slash(channel, "schotten tournament start")
    page = await ladder_html(bot, guild.id)
    part = section(page, tid)
    pairings = rows(part, "pairings")
    assert len(pairings) == 2  # three players: a game and a bye
    game = next(r for r in pairings if r[2] != "bye")
    assert game[3] == "in play"
    assert any(r[2] == "bye" for r in pairings)
    assert "Round 1: pairings" in part and "1 / 2" in page and "running" in page

    assert await play_round(bot, channel, by_id, tid) == 1
    assert await play_round(bot, channel, by_id, tid) == 2
    assert (await bot.db.tournaments.get(tid)).status == "finished"
    page = await ladder_html(bot, guild.id)
    part = section(page, tid)
    assert html.escape(name) in part
    table = rows(part, "standings")
    assert [r[0] for r in table] == ["1", "2", "3"]
    assert {r[1] for r in table} == {*HOSTILE, "carol"}  # the names, escaped in the HTML
    assert sum(float(r[2]) for r in table) == 4  # a game and a bye in each of two rounds
    assert "Buchholz cut-1" in part and "Sonneborn-Berger" in part
    final = rows(part, "pairings")
    assert "Round 2: pairings" in part
    assert [r[3] for r in final if r[2] != "bye"] == ["1-0"]  # black resigns every game
    for hostile in HOSTILE:
        assert html.escape(hostile, quote=True) in part
    # The same data as the Discord standings: the leader and the points.
    state = await bot.tournaments.state(tid)
    ranked = standings(state.core_entrants(), state.results, state.byes())
    names = {m.id: m.user.name for m in members}
    assert [r[1] for r in table] == [names[s.user_id] for s in ranked]


async def test_a_knockout_shows_its_bracket(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, organiser, members = hostile_table(env, (*HOSTILE, "carol", "dave"))
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name=HOSTILE[1], format="knockout")
    await organiser.slash(channel, "schotten tournament start")
    for expected in (1, 2):
        assert await play_round(bot, channel, by_id, tid) == expected
    assert (await bot.db.tournaments.get(tid)).status == "finished"
    page = await ladder_html(bot, guild.id)
    part = section(page, tid)
    bracket = html.unescape(part.split('<pre class="bracket">', 1)[1].split("</pre>", 1)[0])
    assert "Round 1" in bracket and "Round 2" in bracket
    assert bracket.count("\n") == 4  # two titles, two ties, one final: five lines
    assert "<table" not in part.split("<h4>", 2)[1]  # a bracket, not standings
    assert "Round 2: pairings" in part
    assert html.escape(HOSTILE[1], quote=True) in page and "finished" in page


async def test_the_ladder_with_a_tournament_in_chromium(simcord_env, simcord_bot, browser):
    """In a real browser: the tournament is shown, no name became an element, and the
    Content Security Policy refused nothing (screenshot: ``ladder-tournaments``)."""
    from playwright.async_api import expect

    from tests.web.test_browser import _new_page

    env, bot = simcord_env, simcord_bot
    guild, channel, organiser, members = hostile_table(env, (*HOSTILE, "carol"))
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name=HOSTILE[0], format="swiss", rounds=2)
    await organiser.slash(channel, "schotten tournament start")
    await play_round(bot, channel, by_id, tid)
    await open_tournament(channel, organiser, members[:1], name="Next week", format="round-robin")
    errors: list[str] = []
    page = await _new_page(browser, errors)
    await page.goto(bot.web.links.ladder(guild.id))
    await expect(page.locator("#tournament-list tbody tr")).to_have_count(2)
    await expect(page.locator(f"#tournament-{tid} .standings .name")).to_have_count(3)
    await expect(page.locator(f"#tournament-{tid} h3")).to_have_text(f"#{tid} {HOSTILE[0]}")
    await expect(page.locator(f"#tournament-{tid} .pairings tbody tr")).to_have_count(2)
    assert await page.locator("img").count() == 0 and await page.locator("script").count() == 1
    await page.screenshot(path=str(screenshot_path("ladder-tournaments")), full_page=True)
    assert errors == [], errors


async def test_a_round_robin_on_the_ladder_is_tie_broken_by_the_direct_encounter(simcord_env, simcord_bot):
    # Its order is points, direct encounter, Sonneborn-Berger, stones: the ladder's
    # column says so, and holds each player's direct-encounter points, not Buchholz.
    env, bot = simcord_env, simcord_bot
    guild, channel, organiser, members = hostile_table(env, ("ivan", "judy", "ken"))
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="Berger", format="round-robin")
    await organiser.slash(channel, "schotten tournament start")
    while (await bot.db.tournaments.get(tid)).status == "running":
        await play_round(bot, channel, by_id, tid)
    part = section(await ladder_html(bot, guild.id), tid)
    assert "Direct encounter" in part and "Buchholz" not in part
    state = await bot.tournaments.state(tid)
    ranked = standings(state.core_entrants(), state.results, state.byes(), order="round-robin")
    names = {m.id: m.user.name for m in members}
    assert [(r[1], r[3]) for r in rows(part, "standings")] == [
        (names[s.user_id], format_points(s.direct)) for s in ranked
    ]


async def test_a_withdrawal_reads_as_one_on_the_game_pages(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, organiser, members = hostile_table(env, ("ann", "ben", "cat"))
    tid, _ = await open_tournament(channel, organiser, members, name="Cup", format="swiss", rounds=1)
    await organiser.slash(channel, "schotten tournament start")
    (pairing,) = [p for p in await bot.db.tournaments.pairings(tid, 1) if p.black is not None]
    leaver, stayer = (next(m for m in members if m.id == who) for who in (pairing.white, pairing.black))
    await leaver.slash(channel, "schotten tournament leave")
    withdrew = f"{leaver.user.name} withdrew from the tournament"
    result = f"{withdrew}; {stayer.user.name} wins."
    # The replay: its status at the end, its list of moves and its record file.
    replay = bot.web.links.replay(pairing.game_id)
    served = dict(await everything_served(replay, events=False))
    page = served[replay].decode()
    assert f'<p id="status" class="status">{result}</p>' in page and f">{withdrew}</a></li>" in page
    positions = (await get(f"{replay}/positions.json"))[1].decode()
    assert result in positions
    seat = (await bot.service.get(pairing.game_id)).players.index(leaver.id)
    record = served[f"{replay}/record.txt"].decode()
    assert f"\nResult: {1 - seat} withdrawn 0-0\n" in record and record.endswith(f"\n{seat} withdraw\n")
    # The watch page: the game's status and its turns.
    status, body, _ = await get(f"{bot.web.links.watch(pairing.game_id)}/state")
    state = json.loads(body)["state"]
    assert status == 200 and state["status"] == result and state["turns"] == [{"text": withdrew, "step": 1}]
    for text in (page, positions, record, body.decode()):
        assert "resign" not in text.lower()

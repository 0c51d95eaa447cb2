""" "Now playing" on the ladder (the server's capability link): the server's games in
play, each linking to its watch page, and in a tournament's round the pairings in play
linking to theirs; finished games and other servers' games are not listed."""

from __future__ import annotations

import html
import random
import re

from tests.cogs.helpers import challenge_and_accept, setup_members
from tests.cogs.test_tournaments import open_tournament, play_round
from tests.web.helpers import get
from tests.web.test_pages import HOSTILE
from tests.web.test_phone_widths import play_to_the_end
from tests.web.test_tournament_ladder import hostile_table, ladder_html, section

LINK = re.compile(r'<a class="watch" href="([^"]+)">')


def playing(page: str) -> list[str]:
    block = page.split('<section id="now-playing">', 1)[1].split("</section>", 1)[0]
    return [html.unescape(url) for url in LINK.findall(block)]


async def test_the_ladder_lists_the_games_in_play(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob, carol) = setup_members(env, (*HOSTILE, "carol"))
    _, other_channel, (dave, erin) = setup_members(env, ("dave", "erin"))
    by_id = {alice.id: alice, bob.id: bob, carol.id: carol}
    links = bot.web.links
    page = await ladder_html(bot, guild.id)
    assert playing(page) == [] and "No game is being played in this server right now." in page

    finished = await challenge_and_accept(env, channel, alice, bob)
    await play_to_the_end(bot, by_id, finished, random.Random(8))
    live = await challenge_and_accept(env, channel, carol, alice)
    elsewhere = await challenge_and_accept(env, other_channel, dave, erin)
    page = await ladder_html(bot, guild.id)
    path = links.watch(live).removeprefix(links.public_url)
    assert playing(page) == [path]
    assert f"Game #{live}: carol against {html.escape(HOSTILE[0])}" in page
    status, body, _ = await get(links.public_url + path)
    assert status == 200 and f"Game #{live}" in body.decode()
    assert links.watch(finished).removeprefix(links.public_url) not in page
    assert links.watch(elsewhere).removeprefix(links.public_url) not in page

    await play_to_the_end(bot, by_id, live, random.Random(9))
    page = await ladder_html(bot, guild.id)
    assert playing(page) == []


async def test_a_tournament_rounds_games_in_play_link_to_their_pages(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, organiser, members = hostile_table(env, (*HOSTILE, "carol", "dave"))
    by_id = {m.id: m for m in members}
    tid, _ = await open_tournament(channel, organiser, members, name="Cup", format="swiss", rounds=2)
    await organiser.slash(channel, "schotten tournament start")
    page = await ladder_html(bot, guild.id)
    games = [p.game_id for p in await bot.db.tournaments.pairings(tid, 1)]
    assert len(games) == 2 and None not in games
    expected = sorted(bot.web.links.watch(g).removeprefix(bot.web.links.public_url) for g in games)
    part = section(page, tid)
    assert sorted(html.unescape(url) for url in LINK.findall(part)) == expected
    assert sorted(playing(page)) == expected
    await play_round(bot, channel, by_id, tid)  # round 1 over, round 2 paired and in play
    page = await ladder_html(bot, guild.id)
    round_two = [p.game_id for p in await bot.db.tournaments.pairings(tid, 2)]
    expected = sorted(bot.web.links.watch(g).removeprefix(bot.web.links.public_url) for g in round_two)
    assert sorted(html.unescape(url) for url in LINK.findall(section(page, tid))) == expected
    assert not set(games) & set(round_two)

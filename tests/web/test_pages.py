"""The web pages against the real bot, played through simcord: what they show, what
they never show (a hidden card, an unescaped name), and who gets 404."""

from __future__ import annotations

import asyncio
import html
import random
import re

from bot.app import SchottenBot
from rules.cards import CARDS_BY_ID
from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.web.helpers import base, everything_served, first_event, get

HOSTILE = ("<script>alert(1)</script>", '"><img src=x onerror=alert(2)>')
CARD = re.compile(r"(?<![A-Za-z0-9])([ROYGBP](?:10|[1-9]))(?![0-9])")
TOKEN = re.compile(r"/(watch|replay|ladder)/(\d+)/[A-Za-z0-9_-]{43}")


async def hidden_cards(bot: SchottenBot, game_id: int) -> set[str]:
    """Every card nobody at the table may see: both hands and both decks."""
    record = await bot.service.get(game_id)
    public = record.game.public_view()
    shown = {str(card) for stone in public.stones for side in stone.sides for card in side}
    shown |= {str(card) for _, card in public.discards}
    every = {str(card) for card in CARDS_BY_ID if card is not None}
    return every - shown


def scan(served: list[tuple[str, bytes]], hidden: set[str], names: tuple[str, ...]) -> None:
    for url, data in served:
        if url.split("?")[0].endswith(".png"):
            continue  # pictures: checked against the public view's picture instead
        text = TOKEN.sub(r"/\1/\2/TOKEN", data.decode())
        leaked = hidden & set(CARD.findall(text))
        assert not leaked, f"hidden cards {leaked} served at {url}"
        if url.endswith(("/events", "/state", "/record.txt")):
            continue  # JSON for textContent, and a plain text download: not HTML
        for name in names:
            assert name not in text, f"unescaped name {name!r} at {url}"


async def test_live_page_shows_the_table_and_never_a_hidden_card(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env, HOSTILE)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    watch = bot.web.links.watch(game_id)
    rng = random.Random(7)
    by_id = {alice.id: alice, bob.id: bob}
    turns = 0
    while True:
        record = await bot.service.get(game_id)
        hidden = await hidden_cards(bot, game_id) if not record.game.is_over else set()
        served = await everything_served(watch)
        scan(served, hidden, HOSTILE)
        page = served[0][1].decode()
        assert html.escape(HOSTILE[0]) in page and html.escape(HOSTILE[1], quote=True) in page
        # The picture is the public view's picture, nothing else.
        png = next(data for url, data in served if "board.png" in url)
        names = (HOSTILE[0], HOSTILE[1])
        expected = await bot.web.sources.pictures.board(
            record.game.public_view(), names, game_id=game_id, bottom=0
        )
        assert png == expected
        if record.game.is_over:
            break
        await dm_turn(by_id[record.current_user], rng, game_id)
        turns += 1
    assert turns > 5
    # Finished: the replay with both hands, every step, and the record file.
    replay = bot.web.links.replay(game_id)
    served = await everything_served(replay)
    scan(served, set(), HOSTILE)
    page = served[0][1].decode()
    assert "hand" in page and 'id="record"' in page
    status, body, _headers = await get(f"{replay}/record.txt")
    assert status == 200 and b"schotten-record" in body


async def test_a_move_reaches_an_open_event_stream(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    events = bot.web.links.watch(game_id) + "/events"
    first = await first_event(events)
    version = int(re.search(r'"version":(\d+)', first).group(1))
    import aiohttp

    async with aiohttp.ClientSession() as session, session.get(events) as response:
        await response.content.readuntil(b"\n\n")  # the game as it is
        record = await bot.service.get(game_id)
        mover = alice if record.current_user == alice.id else bob
        # The move completes with the stream open: were the bot's work to wait on the
        # web server (which runs detached from it), simcord could not settle the move
        # and would fail it. How long a move takes with pages open: bench/web.py.
        await dm_turn(mover, random.Random(1), game_id)
        async with asyncio.timeout(60):  # only against a hang: the event comes or not
            event = (await response.content.readuntil(b"\n\n")).decode()
        assert int(re.search(r'"version":(\d+)', event).group(1)) > version


async def test_forged_and_foreign_links_are_404(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    guild, channel, (alice, bob, carol) = setup_members(env, ("alice", "bob", "carol"))
    game_id = await challenge_and_accept(env, channel, alice, bob)
    other_id = await challenge_and_accept(env, channel, carol, alice)
    links = bot.web.links
    root = base(bot)
    good = links.watch(game_id)
    token = good.rsplit("/", 1)[1]
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for url in (
        f"{root}/watch/{game_id}",
        f"{root}/watch/{game_id}/",
        f"{root}/watch/{game_id}/{forged}",
        f"{root}/watch/{other_id}/{token}",
        f"{root}/watch/{game_id}/{token}x",
        f"{root}/replay/{game_id}/{token}",
        links.replay(game_id),  # still being played
        f"{root}/ladder/{guild.id}/{token}",
        f"{root}/watch/{game_id}/{forged}/events",
        f"{root}/watch/{game_id}/{forged}/board.png",
        f"{root}/watch/{game_id}/{forged}/state",
        f"{root}/watch/{other_id}/{token}/state",
        f"{root}/",
        f"{root}/static/../server.py",
    ):
        status, body, headers = await get(url)
        assert status == 404, url
        assert "Game #" not in body.decode() and "alice" not in body.decode()
        assert "default-src 'self'" in headers["Content-Security-Policy"]
    status, _, headers = await get(good)
    assert status == 200
    assert headers["Content-Security-Policy"].startswith("default-src 'self'; img-src 'self' data:;")
    assert headers["Referrer-Policy"] == "no-referrer"
    status, _, _ = await get(links.ladder(guild.id))
    assert status == 200
    # A server that turned the links off: its pages show nothing.
    await links.set_enabled(guild.id, False)
    for url in (good, links.ladder(guild.id)):
        status, _, _ = await get(url)
        assert status == 404, url
    await links.set_enabled(guild.id, True)
    status, _, _ = await get(good)
    assert status == 200


async def test_event_streams_per_client_are_limited(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    bot.web.sources.slots.per_group = 2
    events = bot.web.links.watch(game_id) + "/events"
    import aiohttp

    async with aiohttp.ClientSession() as session:
        open_ = [await session.get(events) for _ in range(2)]
        third = await session.get(events)
        assert [r.status for r in open_] == [200, 200] and third.status == 429
        for response in [*open_, third]:
            response.close()
        # The server frees a stream's place once it sees the client gone: ask until it
        # has (however busy the machine), a bounded number of times.
        for _ in range(100):
            fourth = await session.get(events)
            fourth.close()
            if fourth.status != 429:
                break
            await asyncio.sleep(0.1)
        assert fourth.status == 200


async def test_pages_speak_the_viewers_language(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    url = bot.web.links.watch(game_id)
    pages = {}
    for header in ("en-GB,en;q=0.9", "de-DE,de;q=0.9,en;q=0.5", "fr-CH, fr;q=0.9, en;q=0.8", "ja"):
        status, body, _ = await get(url, **{"Accept-Language": header})
        assert status == 200
        pages[header] = body.decode()
    assert '<html lang="en"' in pages["en-GB,en;q=0.9"] and "Moves" in pages["en-GB,en;q=0.9"]
    assert (
        '<html lang="de"' in pages["de-DE,de;q=0.9,en;q=0.5"] and "Züge" in pages["de-DE,de;q=0.9,en;q=0.5"]
    )
    assert (
        '<html lang="fr"' in pages["fr-CH, fr;q=0.9, en;q=0.8"]
        and "Coups" in pages["fr-CH, fr;q=0.9, en;q=0.8"]
    )
    assert '<html lang="en"' in pages["ja"]

"""The table's server side against the real bot, the other player in simcord: a seat's
state and legal moves, a move posted through the game service (the channel's board and
the DMs follow), a stale version, wrong links, a finished game, and the scan of
everything a seat is served for the other hand and the deck order."""

from __future__ import annotations

import asyncio
import json
import random
import re

import aiohttp

from bot.app import SchottenBot
from tests.cogs.helpers import (
    challenge_and_accept,
    dm_message,
    dm_turn,
    flat_components,
    hand_in,
    setup_members,
)
from tests.web.helpers import get

CARD = re.compile(r"(?<![A-Za-z0-9])([ROYGBP](?:10|[1-9]))(?![0-9])")


async def post(url: str, data: object, content_type: str = "application/json") -> tuple[int, dict]:
    body = json.dumps(data).encode()
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=body, headers={"Content-Type": content_type}) as response,
    ):
        text = await response.text()
        try:
            return response.status, json.loads(text)
        except ValueError:
            return response.status, {"text": text}


async def get_json(url: str) -> tuple[int, dict]:
    status, body, _ = await get(url)
    try:
        return status, json.loads(body)
    except ValueError:
        return status, {}


async def hidden_from(bot: SchottenBot, game_id: int, seat: int) -> set[str]:
    """Every clan card the seat may not know: the other hand and both decks (all but its
    own hand and what lies face up)."""
    game = (await bot.service.get(game_id)).game
    public = game.public_view()
    known = {str(card) for card in game.view(seat).hand}
    known |= {str(card) for stone in public.stones for side in stone.sides for card in side}
    known |= {str(card) for _, card in public.discards}
    every = {f"{c}{v}" for c in "ROYGBP" for v in range(1, game.ruleset.max_value + 1)}
    return every - known


async def first_state_event(url: str) -> dict:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200, response.status
        async with asyncio.timeout(5):
            event = (await response.content.readuntil(b"\n\n")).decode()
    assert event.startswith("event: state\n"), event
    return json.loads(event.split("data: ", 1)[1])


async def start(env, bot):
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await bot.service.get(game_id)
    by_id = {alice.id: alice, bob.id: bob}
    return channel, (by_id[record.players[0]], by_id[record.players[1]]), game_id


async def test_a_seat_plays_a_move_that_discord_shows(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    channel, members, game_id = await start(env, bot)
    record = await bot.service.get(game_id)
    seat = record.current_player
    url = bot.web.links.seat(game_id, seat)
    status, state = await get_json(url + "/state")
    assert status == 200
    assert state["seat"] == seat and state["version"] == record.version
    assert sorted(card["id"] for card in state["hand"]) == sorted(str(c) for c in record.game.view(seat).hand)
    assert state["players"][1 - seat]["hand"] == len(record.game.view(1 - seat).hand)
    assert "hand" not in state["players"][1 - seat] or isinstance(state["players"][1 - seat]["hand"], int)
    status, legal = await get_json(url + "/legal")
    assert {m["move"] for m in legal["legal"]} == {str(m) for m in record.game.view(seat).legal_moves()}
    # The DM of the player shows the hand the seat shows.
    assert hand_in(dm_message(members[seat], game_id).content) == [c["label"] for c in state["hand"]]

    play = next(m for m in legal["legal"] if m["kind"] == "play")
    status, after = await post(url + "/move", {"move": play["move"], "version": record.version})
    assert status == 200, after
    assert after["version"] > record.version
    await bot.web.table.settled()
    moved = await bot.service.get(game_id)
    assert any(str(move) == play["move"] for _, move in moved.game.log)
    # Discord follows: the board was posted for the other player's turn.
    assert moved.current_player == 1 - seat
    board = next(m for m in channel.history() if m.id == moved.board_message_id)
    assert f"{play['card']}" in board.content
    # The same request again: refused as stale, with the table as it is now.
    status, stale = await post(url + "/move", {"move": play["move"], "version": record.version})
    assert status == 409 and stale["state"]["version"] == moved.version and stale["error"]
    assert len(moved.game.log) == len((await bot.service.get(game_id)).game.log)


async def test_refusals_change_nothing(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, _, game_id = await start(env, bot)
    record = await bot.service.get(game_id)
    mover = record.current_player
    waiting = bot.web.links.seat(game_id, 1 - mover)
    version = record.version
    legal = [str(m) for m in record.game.view(mover).legal_moves()]
    # Not the seat's turn: the engine refuses, by its message.
    status, answer = await post(waiting + "/move", {"move": legal[0], "version": version})
    assert status == 422 and answer["error"]
    # Nonsense, a form, a huge move.
    for data, kind in (
        ({"move": "fly away", "version": version}, "application/json"),
        ({"move": legal[0], "version": str(version)}, "application/json"),
        ({"move": legal[0], "version": version}, "application/x-www-form-urlencoded"),
        ({"move": "play " + "R7" * 100 + " 1", "version": version}, "application/json"),
    ):
        status, answer = await post(bot.web.links.seat(game_id, mover) + "/move", data, kind)
        assert status == 400, (data, kind, answer)
    assert (await bot.service.get(game_id)).version == version


async def test_wrong_links_are_404_and_a_finished_game_is_410(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, members, game_id = await start(env, bot)
    links = bot.web.links
    good = links.seat(game_id, 0)
    other = links.seat(game_id, 1)
    token = good.rsplit("/", 1)[1]
    forged = [
        good[:-3] + ("abc" if not good.endswith("abc") else "xyz"),
        f"{links.public_url}/table/{game_id}/1/{token}",  # seat 0's token on seat 1
        f"{links.public_url}/table/{game_id + 1}/0/{token}",
        f"{links.public_url}/table/{game_id}/2/{token}",
        links.watch(game_id).replace("/watch/", "/table/").replace(f"/{game_id}/", f"/{game_id}/0/"),
    ]
    for url in forged:
        for suffix in ("", "/state", "/legal", "/events"):
            status, _, _ = await get(url + suffix)
            assert status == 404, url + suffix
        status, _ = await post(url + "/move", {"move": "pass", "version": 0})
        assert status == 404, url
    assert (await get(good))[0] == 200 and (await get(other))[0] == 200
    # Played to the end in Discord: every seat link is then refused as over.
    rng = random.Random(4)
    by_id = {m.id: m for m in members}
    while not (record := await bot.service.get(game_id)).game.is_over:
        await dm_turn(by_id[record.current_user], rng, game_id)
    for url in (good, other):
        status, body, _ = await get(url)
        assert status == 410 and b"/replay/" in body
        status, answer = await get_json(url + "/state")
        assert status == 410 and answer["replay"].startswith("/replay/")
        status, answer = await post(url + "/move", {"move": "pass", "version": record.version})
        assert status == 410


async def test_a_discord_move_reaches_the_seat_stream(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, members, game_id = await start(env, bot)
    record = await bot.service.get(game_id)
    mover = record.current_player
    events = bot.web.links.seat(game_id, 1 - mover) + "/events"
    async with aiohttp.ClientSession() as session, session.get(events) as response:
        first = (await response.content.readuntil(b"\n\n")).decode()
        assert json.loads(first.split("data: ", 1)[1])["version"] == record.version
        await dm_turn(members[mover], random.Random(2), game_id)
        moved = await bot.service.get(game_id)
        async with asyncio.timeout(5):
            while True:
                event = (await response.content.readuntil(b"\n\n")).decode()
                if event.startswith("event: state"):
                    state = json.loads(event.split("data: ", 1)[1])
                    if state["version"] == moved.version:
                        break
    assert state["current"] == 1 - mover
    assert {m["move"] for m in state["legal"]} == {str(m) for m in moved.game.view(1 - mover).legal_moves()}


async def test_a_seat_is_served_no_hidden_card(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, members, game_id = await start(env, bot)
    rng = random.Random(11)
    by_id = {m.id: m for m in members}
    for _ in range(6):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            break
        for seat in (0, 1):
            url = bot.web.links.seat(game_id, seat)
            hidden = await hidden_from(bot, game_id, seat)
            served = [(await get(url))[1], (await get(url + "/state"))[1], (await get(url + "/legal"))[1]]
            served.append(json.dumps(await first_state_event(url + "/events")).encode())
            for data in served:
                leaked = hidden & set(CARD.findall(data.decode()))
                assert not leaked, f"seat {seat} was served {leaked}"
        await dm_turn(by_id[record.current_user], rng, game_id)


def link_urls(message) -> list[str]:
    return [c["url"] for c in flat_components(message) if c.get("style") == 5]


async def test_the_seat_link_is_in_private_messages_only(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    channel, members, game_id = await start(env, bot)
    links = bot.web.links
    record = await bot.service.get(game_id)
    for seat in (0, 1):
        assert links.seat(game_id, seat) in link_urls(dm_message(members[seat], game_id))
    for message in channel.history():  # the board, the challenge: public, no seat
        assert not any("/table/" in url for url in link_urls(message))
    mover = members[record.current_player]
    shown = await mover.slash(channel, "schotten hand")
    assert shown.ephemeral and links.seat(game_id, record.current_player) in link_urls(shown.response)
    # Choosing a card redraws the DM's controls: the link stays.
    message = dm_message(mover, game_id)
    select = next(c for c in flat_components(message) if c.get("custom_id", "").startswith("st:card:"))
    await mover.user.select(message, [select["options"][0]["value"]], custom_id=select["custom_id"])
    assert links.seat(game_id, record.current_player) in link_urls(dm_message(mover, game_id))
    # A server that turned its links off: none, and the seat shows nothing.
    await links.set_enabled(channel.guild.id, False)
    shown = await mover.slash(channel, "schotten hand")
    assert not any("/table/" in url for url in link_urls(shown.response))
    assert (await get(links.seat(game_id, 0)))[0] == 404


async def test_a_seat_speaks_its_members_language(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, members, game_id = await start(env, bot)
    await bot.languages.choose("user", members[0].id, "de")
    await bot.languages.choose("user", members[1].id, "fr")
    german, french = (bot.web.links.seat(game_id, seat) for seat in (0, 1))
    status, body, _ = await get(german, **{"Accept-Language": "en"})
    page = body.decode()
    assert status == 200 and '<html lang="de">' in page and "Stein {number} beanspruchen" in page
    status, state = await get_json(german + "/state")
    assert "am Zug" in state["status"]  # "Du bist am Zug" or "<name> ist am Zug"
    assert all(" an Stein " in m["label"] for m in state["legal"] if m["kind"] == "play")
    status, body, _ = await get(french)
    assert '<html lang="fr">' in body.decode() and "Revendiquer la borne {number}" in body.decode()


async def test_the_scan_covers_the_script_and_style(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, _, game_id = await start(env, bot)
    for seat in (0, 1):
        hidden = await hidden_from(bot, game_id, seat)
        for name in ("table.js", "table.css"):
            status, body, headers = await get(f"{bot.web.links.public_url}/static/table/{name}")
            assert status == 200 and headers["Content-Type"].startswith(("text/javascript", "text/css"))
            assert not hidden & set(CARD.findall(body.decode()))

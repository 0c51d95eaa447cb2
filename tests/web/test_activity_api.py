"""The Activity's server side against a fake Discord (``tests/web/fake_discord.py``) and
the real bot in simcord: a code exchanged for a session bound to Discord's user, refused,
expired and replayed codes, forged and expired sessions, a page that claims another user,
the channel's games (one's own with its seat, others public only) and a member who
cannot see or act on a game they do not play. No code, token or secret in the log."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator

import aiohttp
import pytest_asyncio

from bot.app import SchottenBot, create_bot
from bot.settings import Settings
from bot.text import i18n
from bot.text.catalogue import t
from bot.web.activity import ACTIVITY
from tests.cogs.helpers import challenge_and_accept, setup_members
from tests.web.conftest import SECRET, free_port
from tests.web.fake_discord import CLIENT_ID, CLIENT_SECRET, FakeDiscord
from tests.web.helpers import first_event, get
from tests.web.test_table_api import hidden_from, post


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.close()


@pytest_asyncio.fixture
async def simcord_bot(fake_discord: FakeDiscord) -> AsyncIterator[SchottenBot]:
    port = free_port()
    settings = Settings(
        web_port=port,
        public_url=f"http://127.0.0.1:{port}",
        web_secret=SECRET,
        discord_client_id=CLIENT_ID,
        discord_client_secret=CLIENT_SECRET,
        discord_api_base=fake_discord.base,
    )
    bot = create_bot(database=":memory:", settings=settings, web=True)
    yield bot
    await bot.close()


def root(bot: SchottenBot) -> str:
    return bot.web.links.public_url


async def sign_in(bot: SchottenBot, code: str, **extra: object) -> tuple[int, dict]:
    return await post(f"{root(bot)}/activity/token", {"code": code, **extra})


async def get_json(url: str) -> tuple[int, dict]:
    status, body, _ = await get(url)
    try:
        return status, json.loads(body)
    except ValueError:
        return status, {"text": body.decode(errors="replace")}


async def start(env, bot, names=("alice", "bob", "carol")):
    _, channel, members = setup_members(env, names)
    game_id = await challenge_and_accept(env, channel, members[0], members[1])
    return channel, members, game_id


async def test_a_code_signs_the_member_in_and_opens_their_seat(
    simcord_env, simcord_bot, fake_discord, caplog
):
    caplog.set_level(logging.DEBUG)
    env, bot = simcord_env, simcord_bot
    channel, (alice, _bob, _), game_id = await start(env, bot)
    code = fake_discord.grant(alice.id, locale="de")
    status, signed = await sign_in(bot, code)
    assert status == 200, signed
    assert signed["user"]["id"] == str(alice.id) and signed["language"] == "de"
    with i18n.use("de"):
        assert signed["texts"]["your_games"] == t("activity.your_games")
        assert signed["table_texts"]["your_hand"] == t("table.your_hand")
    assert fake_discord.tokens[signed["access_token"]] == alice.id  # what authenticate needs
    session = signed["session"]

    status, listed = await get_json(f"{root(bot)}/activity/s/{session}/games?channel={channel.id}")
    assert status == 200, listed
    record = await bot.service.get(game_id)
    seat = record.players.index(alice.id)
    assert [(g["game"], g["seat"]) for g in listed["mine"]] == [(game_id, seat)]
    assert listed["watch"] == []
    base = root(bot) + listed["mine"][0]["base"]
    status, state = await get_json(f"{base}/state")
    assert status == 200 and state["seat"] == seat
    assert sorted(c["id"] for c in state["hand"]) == sorted(str(c) for c in record.game.view(seat).hand)
    with i18n.use("de"):  # Discord's locale, not the browser's
        assert state["status"] in (t("table.your_turn"), t("web.to_play", name="bob"))
    # A move from the Activity goes through the game service like the table's.
    if record.current_player == seat:
        play = next(m for m in state["legal"] if m["kind"] == "play")
        status, after = await post(f"{base}/move", {"move": play["move"], "version": state["version"]})
        assert status == 200, after
        assert after["version"] > state["version"]
    # Nothing secret in the log: no code, access token, session or client secret.
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for secret in (code, signed["access_token"], session, CLIENT_SECRET):
        assert secret not in logged


async def test_refused_expired_and_replayed_codes_open_nothing(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    _, (alice, _, _), _ = await start(env, bot)
    status, answer = await sign_in(bot, "a-code-discord-never-issued")
    assert status == 401 and answer["signin"] and "session" not in answer
    expired = fake_discord.grant(alice.id)
    fake_discord.expire(expired)
    status, answer = await sign_in(bot, expired)
    assert status == 401 and "session" not in answer
    # Replayed: refused by us even though this Discord would take it again.
    fake_discord.accept_reuse = True
    code = fake_discord.grant(alice.id)
    assert (await sign_in(bot, code))[0] == 200
    status, answer = await sign_in(bot, code)
    assert status == 401 and "session" not in answer
    assert fake_discord.exchanges.count(code) == 1  # the replay never reached Discord
    # Malformed requests: no code, not JSON.
    assert (await post(f"{root(bot)}/activity/token", {}))[0] == 400
    assert (await post(f"{root(bot)}/activity/token", {"code": "x"}, content_type="text/plain"))[0] == 400


async def test_forged_and_expired_sessions_are_refused(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    channel, (alice, bob, _), game_id = await start(env, bot)
    session = (await sign_in(bot, fake_discord.grant(alice.id)))[1]["session"]
    user, expires, language, mac = session.split(".")
    forged = [
        f"{bob.id}.{expires}.{language}.{mac}",  # another user, the same signature
        f"{user}.{int(expires) + 86400}.{language}.{mac}",  # longer
        f"{user}.{expires}.{language}.{'A' * len(mac)}",
        "nothing",
    ]
    for token in forged:
        status, answer = await get_json(f"{root(bot)}/activity/s/{token}/games?channel={channel.id}")
        assert status == 401, token
        status, answer = await get_json(f"{root(bot)}/activity/s/{token}/game/{game_id}/state")
        assert status == 401 and "hand" not in answer
    sessions = bot.web.app[ACTIVITY].sessions
    sessions.clock = lambda: time.time() + sessions.ttl + 1
    status, _ = await get_json(f"{root(bot)}/activity/s/{session}/game/{game_id}/state")
    assert status == 401


async def test_the_page_cannot_claim_another_user(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    _, (alice, _bob, carol), game_id = await start(env, bot)
    status, signed = await sign_in(
        bot, fake_discord.grant(carol.id), user_id=str(alice.id), user={"id": alice.id}
    )
    assert status == 200 and signed["user"]["id"] == str(carol.id)
    status, _ = await get_json(
        f"{root(bot)}/activity/s/{signed['session']}/game/{game_id}/state?user={alice.id}"
    )
    assert status == 404


async def test_a_spectator_sees_the_public_view_only_and_cannot_move(simcord_env, simcord_bot, fake_discord):
    env, bot = simcord_env, simcord_bot
    channel, (_alice, _bob, carol), game_id = await start(env, bot)
    session = (await sign_in(bot, fake_discord.grant(carol.id)))[1]["session"]
    status, listed = await get_json(f"{root(bot)}/activity/s/{session}/games?channel={channel.id}")
    assert status == 200 and listed["mine"] == []
    assert [g["game"] for g in listed["watch"]] == [game_id]
    shown = json.dumps(listed)
    record = await bot.service.get(game_id)
    for seat in (0, 1):
        hidden = await hidden_from(bot, game_id, seat)
        assert not any(f'"{card}"' in shown for card in hidden)
        assert not any(f'"{card}"' in shown for card in record.game.view(seat).hand)
    assert '"hand":[' not in shown.replace(" ", "")
    # Watching it: the spectator's state and its event stream, public only.
    watch = f"{root(bot)}/activity/s/{session}/watch/{game_id}"
    status, data = await get_json(f"{watch}/state")
    assert status == 200 and data["state"]["game"] == game_id and data["state"]["version"] == record.version
    hands = [len(record.game.hand(seat)) for seat in (0, 1)]
    assert [p["hand"] for p in data["state"]["players"]] == hands
    event = await first_event(f"{watch}/events")
    assert event.startswith("event: game\n") and f'"version":{record.version}' in event
    for seat in (0, 1):
        for served in (json.dumps(data), event):
            assert not any(f'"{card}"' in served for card in record.game.view(seat).hand)
    base = f"{root(bot)}/activity/s/{session}/game/{game_id}"
    for path in ("/state", "/legal", "/events"):
        assert (await get(base + path))[0] == 404
    legal = [str(m) for m in record.game.view(record.current_player).legal_moves()]
    status, _ = await post(base + "/move", {"move": legal[0], "version": record.version})
    assert status == 404
    assert (await bot.service.get(game_id)).version == record.version


async def test_the_activity_is_off_without_its_settings():
    port = free_port()
    settings = Settings(web_port=port, public_url=f"http://127.0.0.1:{port}", web_secret=SECRET)
    bot = create_bot(database=":memory:", settings=settings, web=True)
    try:
        await bot.web.start(port=0)
        status, _ = await post(f"http://127.0.0.1:{bot.web.port}/activity/token", {"code": "abc"})
        assert status == 404
    finally:
        await bot.web.close()
        await bot.close()


async def test_the_page_may_be_framed_by_discord_only(simcord_bot):
    bot = simcord_bot
    await bot.web.start(port=0)
    try:
        local = f"http://127.0.0.1:{bot.web.port}"
        async with (
            aiohttp.ClientSession() as client,
            client.get(f"{local}/activity?frame_id=f", allow_redirects=False) as moved,
        ):
            assert moved.status == 302 and moved.headers["Location"] == "/activity/?frame_id=f"
        status, body, headers = await get(f"{local}/activity/?frame_id=f&instance_id=i&platform=desktop")
        assert status == 200
        csp = headers["Content-Security-Policy"]
        ancestors = csp.split("frame-ancestors", 1)[1].split(";")[0].split()
        assert "https://discord.com" in ancestors and "https://*.discordsays.com" in ancestors
        assert all(origin.startswith("https://") and "discord" in origin for origin in ancestors)
        assert "X-Frame-Options" not in headers
        assert b'id="activity-data"' in body and str(CLIENT_ID).encode() in body
        assert CLIENT_SECRET.encode() not in body
        status, script, _ = await get(f"{local}/activity/static/activity.js")
        assert status == 200 and b"frame_id" in script
        # Every other page still refuses to be framed.
        _, _, headers = await get(f"{local}/watch/1/x")
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Frame-Options"] == "DENY"
    finally:
        await bot.web.close()


async def test_watching_is_for_games_one_does_not_play_with_a_valid_session(
    simcord_env, simcord_bot, fake_discord
):
    env, bot = simcord_env, simcord_bot
    channel, (alice, _bob, carol), game_id = await start(env, bot)
    alices = (await sign_in(bot, fake_discord.grant(alice.id)))[1]["session"]
    carols = (await sign_in(bot, fake_discord.grant(carol.id)))[1]["session"]
    # A player's own game is at their seat, not watched.
    for path in ("/state", "/events"):
        assert (await get(f"{root(bot)}/activity/s/{alices}/watch/{game_id}{path}"))[0] == 404
    # A forged or altered session, an unknown game, a game id in other digits.
    assert (await get(f"{root(bot)}/activity/s/{carols}x/watch/{game_id}/state"))[0] == 401
    assert (await get(f"{root(bot)}/activity/s/{carols}/watch/{game_id + 100}/state"))[0] == 404
    assert (await get(f"{root(bot)}/activity/s/{carols}/watch/²/state"))[0] == 404
    # A game of the bot's DMs (a practice game there) is nobody else's to watch.
    await alice.user.slash("schotten practice", difficulty="random")
    practice = max(row.id for row in await bot.db.games.all_active_games())
    assert (await bot.service.get(practice)).guild_id is None
    assert (await get(f"{root(bot)}/activity/s/{carols}/watch/{practice}/state"))[0] == 404
    # The server turns its links off: nothing to watch any more.
    assert (await get(f"{root(bot)}/activity/s/{carols}/watch/{game_id}/state"))[0] == 200
    await bot.web.links.set_enabled(channel.guild.id, False)
    for path in ("/state", "/events"):
        assert (await get(f"{root(bot)}/activity/s/{carols}/watch/{game_id}{path}"))[0] == 404


async def test_streams_inside_discord_are_counted_per_member_not_per_address(
    simcord_env, simcord_bot, fake_discord
):
    """Inside Discord every member's requests come through Discord's proxy, from its
    addresses (here all from 127.0.0.1). Before, the limit per client counted them by
    address: the ninth watcher of a game night got "too many pages from your address"."""
    env, bot = simcord_env, simcord_bot
    _, (_alice, _bob, carol, dave), game_id = await start(env, bot, ("alice", "bob", "carol", "dave"))
    bot.web.sources.slots.per_group = 1
    sessions = [(await sign_in(bot, fake_discord.grant(m.id)))[1]["session"] for m in (carol, dave)]
    watch = [f"{root(bot)}/activity/s/{session}/watch/{game_id}/events" for session in sessions]
    async with aiohttp.ClientSession() as client:
        carols = await client.get(watch[0])
        daves = await client.get(watch[1])  # another member, the same address
        again = await client.get(watch[0])  # the same member's second page
        try:
            assert [carols.status, daves.status] == [200, 200]
            assert again.status == 429 and await again.text() == t("web.too_many.member")
        finally:
            for response in (carols, daves, again):
                response.close()

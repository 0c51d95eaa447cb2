"""What the web pages may take of the bot's process, and how they answer what they refuse.

The pages alone (``WebCompanion`` on a SQLite database in memory, listening on a port the
system picks), without Discord: the overall cap on event streams and the one per client
(an IPv4 address, an IPv6 /64), refusals that read nothing and are logged as a summary,
the same security headers on every error answer, numbers in URLs (Unicode digits), and
the streams of a server that turns its links off, in this process and in another one.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass

import aiohttp
import pytest
import pytest_asyncio

from bot.archive.history import History
from bot.community.stats import Rankings
from bot.games.errors import GameNotFound
from bot.games.live import LiveGame
from bot.games.service import GameService
from bot.settings import Settings
from bot.storage import DatabaseUnavailable, Storage, open_database
from bot.web import server
from bot.web.answers import SECURITY_HEADERS
from bot.web.companion import WebCompanion
from bot.web.links import OFF_TTL
from bot.web.server import GameSource
from bot.web.standalone import PlaceholderNames
from rules.game import GameOptions
from tests.bot.conftest import FakeClock, play_randomly

SECRET = "test-secret-for-the-web-limits-0123456789"
GUILD = 77
HANG_GUARD = 20.0  # seconds before a test that waits for an answer gives up (not a speed goal)


@dataclass
class Site:
    db: Storage
    web: WebCompanion
    clock: FakeClock
    live: int  # a game in progress in GUILD
    finished: int  # a finished game in GUILD

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.web.port}"

    def url(self, link: str) -> str:
        return self.origin + link.removeprefix("http://127.0.0.1")

    @property
    def events(self) -> str:
        assert self.web.links is not None
        return self.url(self.web.links.watch(self.live)) + "/events"


async def _companion(db: Storage, clock: FakeClock) -> WebCompanion:
    settings = Settings(web_port=0, public_url="http://127.0.0.1", web_secret=SECRET)
    web = WebCompanion(
        settings,
        db,
        history=History(db.games, db.ratings),
        rankings=Rankings(db.ratings),
        names=PlaceholderNames(),
        poll_interval=0.02,
        clock=clock,
    )
    await web.start(port=0)
    return web


@pytest_asyncio.fixture
async def site() -> AsyncIterator[Site]:
    db = open_database(":memory:")
    await db.connect()
    await db.migrate()
    clock = FakeClock()
    service = GameService(db, clock=clock)
    options = GameOptions()
    finished = await service.create_game(
        guild_id=GUILD, channel_id=1, players=(1, 2), options=options, seed=3
    )
    await play_randomly(service, finished, random.Random(3))
    live = await service.create_game(guild_id=GUILD, channel_id=1, players=(3, 4), options=options, seed=4)
    web = await _companion(db, clock)
    try:
        yield Site(db, web, clock, live.id, finished.id)
    finally:
        await web.close()
        await db.close()


async def _get(url: str, **headers: str) -> tuple[int, str, dict[str, str]]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return response.status, await response.text(errors="replace"), dict(response.headers)


def _secured(headers: dict[str, str]) -> bool:
    return all(headers.get(name) == value for name, value in SECURITY_HEADERS.items())


# -- numbers in URLs --------------------------------------------------------------------


@pytest.mark.parametrize("digit", ["²", "٣", "１", "-1", "+1", " 1", "1_0", "9" * 40])
async def test_numbers_in_urls_are_ascii_digits_only(
    site: Site, digit: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: ``isdigit()`` took "²", ``int()`` refused it: HTTP 500, a traceback in the
    log, no security headers. Now a number is ASCII digits or nothing: 404 in a path,
    the page's default in a query."""
    assert site.web.links is not None
    links = site.web.links
    watch, replay = site.url(links.watch(site.live)), site.url(links.replay(site.finished))
    ladder = site.url(links.ladder(GUILD))
    token = watch.rsplit("/", 1)[1]
    caplog.set_level(logging.INFO)
    for url, expected in (
        (f"{site.origin}/watch/{digit}/{token}", 404),
        (f"{site.origin}/watch/{digit}/{token}/events", 404),
        (f"{site.origin}/watch/{digit}/{token}/board.png", 404),
        (f"{site.origin}/replay/{digit}/{token}", 404),
        (f"{site.origin}/ladder/{digit}/{token}", 404),
        (f"{replay}/board/{digit}.png", 404),
        (f"{replay}?step={digit}", 200),  # the last step
        (f"{ladder}?page={digit}", 200),  # the first page
    ):
        status, body, headers = await _get(url)
        assert status == expected, (url, status)
        assert _secured(headers), url
        assert "Traceback" not in body
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


# -- event streams: the limits ----------------------------------------------------------


async def _open(session: aiohttp.ClientSession, url: str, address: str) -> aiohttp.ClientResponse:
    # The test connects from loopback, where X-Forwarded-For names the client (a proxy).
    return await session.get(url, headers={"X-Forwarded-For": address})


async def test_event_streams_have_an_overall_cap(site: Site) -> None:
    """Before: only the limit per address existed; 2,000 streams from one IPv6 block were
    all accepted."""
    assert site.web.sources is not None
    site.web.sources.slots.total = 3
    async with aiohttp.ClientSession() as session:
        opened = [await _open(session, site.events, f"10.0.0.{n}") for n in range(1, 4)]
        refused = await _open(session, site.events, "10.0.0.9")
        assert [r.status for r in opened] == [200, 200, 200]
        assert refused.status == 429 and _secured(dict(refused.headers))
        assert "Too many live pages" in await refused.text()
        opened[0].close()
        async with asyncio.timeout(HANG_GUARD):
            while site.web.sources.slots.open == 3:  # the server notices the closed page
                await asyncio.sleep(0.01)
        again = await _open(session, site.events, "10.0.0.9")
        assert again.status == 200
        for response in [*opened, refused, again]:
            response.close()


async def test_ipv6_clients_are_counted_per_64(site: Site) -> None:
    assert site.web.sources is not None
    site.web.sources.slots.per_group = 2
    async with aiohttp.ClientSession() as session:
        one_block = [await _open(session, site.events, f"2001:db8:1:1::{n:x}") for n in (1, 0xBEEF)]
        same_block = await _open(session, site.events, "2001:db8:1:1:ffff:ffff:ffff:ffff")
        next_block = await _open(session, site.events, "2001:db8:1:2::1")
        assert [r.status for r in one_block] == [200, 200]
        assert same_block.status == 429 and "your address" in await same_block.text()
        assert next_block.status == 200
        for response in [*one_block, same_block, next_block]:
            response.close()


async def test_a_seat_s_streams_are_counted_against_its_member(site: Site) -> None:
    """A seat's link names its member: their pages count against them, wherever they
    come from, and not against the address (a proxy's, Discord's) they share."""
    assert site.web.sources is not None and site.web.links is not None
    site.web.sources.slots.per_group = 1
    seats = [site.url(site.web.links.seat(site.live, seat)) + "/events" for seat in (0, 1)]
    async with aiohttp.ClientSession() as session:
        first = await _open(session, seats[0], "203.0.113.7")
        second = await _open(session, seats[1], "203.0.113.7")  # the other member, one address
        watcher = await _open(session, site.events, "203.0.113.7")  # nobody known: by address
        elsewhere = await _open(session, seats[0], "198.51.100.1")  # the first member again
        assert [first.status, second.status, watcher.status] == [200, 200, 200]
        assert elsewhere.status == 429 and "too many live pages" in await elsewhere.text()
        for response in (first, second, watcher, elsewhere):
            response.close()


class CountingGames:
    """The pages' games, counting the reads."""

    def __init__(self, inner: GameSource) -> None:
        self.inner = inner
        self.reads = 0

    async def get(self, game_id: int) -> LiveGame:
        self.reads += 1
        return await self.inner.get(game_id)


async def test_refusals_read_nothing_and_are_logged_as_a_summary(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    assert site.web.sources is not None
    sources = site.web.sources
    sources.slots.total = 1
    games = CountingGames(sources.games)
    sources.games = games
    caplog.set_level(logging.INFO, logger="bot.web")
    async with aiohttp.ClientSession() as session:
        kept = await _open(session, site.events, "10.0.0.1")
        assert kept.status == 200 and games.reads == 1
        for n in range(40):
            refused = await _open(session, site.events, f"10.1.0.{n}")
            assert refused.status == 429
            assert len(await refused.read()) < 200  # a short answer
            refused.close()
        assert games.reads == 1  # no refusal read the database
        summaries = [r.getMessage() for r in caplog.records if r.name == "bot.web.limits"]
        assert len(summaries) == 1, summaries  # the first refusal, not one line each
        site.clock.now += 61  # a minute later: one summary of what was refused meanwhile
        refused = await _open(session, site.events, "10.1.0.99")
        refused.close()
        summaries = [r.getMessage() for r in caplog.records if r.name == "bot.web.limits"]
        assert len(summaries) == 2 and "40 event streams over the limit of all" in summaries[1], summaries
        kept.close()


# -- error answers ----------------------------------------------------------------------


class FailingGames:
    def __init__(self, error: Exception) -> None:
        self.error = error

    async def get(self, game_id: int) -> LiveGame:
        raise self.error


async def test_every_error_answer_has_the_security_headers(site: Site) -> None:
    assert site.web.sources is not None and site.web.links is not None
    watch = site.url(site.web.links.watch(site.live))
    status, _, headers = await _get(f"{site.origin}/nothing")
    assert status == 404 and _secured(headers)
    async with aiohttp.ClientSession() as session, session.post(watch, data=b"x") as response:
        assert response.status in (404, 405) and _secured(dict(response.headers))
    # A request aiohttp cannot read (a header line without a colon): its own 400.
    reader, writer = await asyncio.open_connection("127.0.0.1", site.web.port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n")
    await writer.drain()
    async with asyncio.timeout(HANG_GUARD):
        answer = (await reader.read()).decode(errors="replace")
    writer.close()
    head = answer.split("\r\n\r\n", 1)[0]
    assert re.match(r"HTTP/1\.[01] 400 ", head), head
    assert f"Content-Security-Policy: {SECURITY_HEADERS['Content-Security-Policy']}" in head
    assert "Traceback" not in answer
    for error, expected in (
        (GameNotFound(site.live), 404),
        (DatabaseUnavailable("stopped"), 503),
        (RuntimeError("a bug"), 500),
    ):
        site.web.sources.games = FailingGames(error)
        for url in (watch, watch + "/events", watch + "/board.png"):
            status, body, headers = await _get(url)
            assert status == expected, (url, error)
            assert _secured(headers) and "Traceback" not in body and "a bug" not in body


async def test_a_database_away_is_one_summary_not_a_line_per_poll(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    """Every watched game's feed polls each second; before, each failed poll logged a
    traceback of its own while the database was away."""
    assert site.web.sources is not None
    feeds = site.web.sources.feeds
    polls = 0

    async def unavailable(game_id: int) -> None:
        nonlocal polls
        polls += 1
        raise DatabaseUnavailable("stopped")

    feeds.read_row = unavailable
    caplog.set_level(logging.INFO)
    async with aiohttp.ClientSession() as session, session.get(site.events) as response:
        assert response.status == 200
        async with asyncio.timeout(HANG_GUARD):
            while polls < 20:
                await asyncio.sleep(0.01)
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(logged) == 1 and "could not be read" in logged[0].getMessage(), logged


# -- turning the links off --------------------------------------------------------------


async def _first_event(response: aiohttp.ClientResponse) -> str:
    async with asyncio.timeout(HANG_GUARD):
        return (await response.content.readuntil(b"\n\n")).decode()


async def _rest(response: aiohttp.ClientResponse) -> str:
    """Everything the stream sends until it closes."""
    async with asyncio.timeout(HANG_GUARD):
        return (await response.content.read()).decode()


async def test_turning_links_off_closes_the_open_streams(site: Site) -> None:
    """Before: ``/schotten web links:off`` left the streams already open running."""
    assert site.web.links is not None
    async with aiohttp.ClientSession() as session, session.get(site.events) as response:
        assert "event: game" in await _first_event(response)
        await site.web.links.set_enabled(GUILD, False)
        assert re.search(r"event: end", await _rest(response))
    status, _, _ = await _get(site.events)
    assert status == 404


async def test_links_turned_off_by_another_process_close_this_ones_streams(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process (here a second set of pages on the same database, with its own
    remembered choices) turns the links off: this process's streams close once their
    game's feed reads the choice again, ``OFF_TTL`` after it last did (not only at the
    stream's next keep-alive, put out of reach here)."""
    monkeypatch.setattr(server, "KEEPALIVE", 3600.0)
    other = await _companion(site.db, FakeClock())
    try:
        assert site.web.links is not None and other.links is not None
        async with aiohttp.ClientSession() as session, session.get(site.events) as response:
            assert "event: game" in await _first_event(response)
            await other.links.set_enabled(GUILD, False)
            site.clock.now += OFF_TTL + 1  # this process's remembered choice is out of date
            assert "event: end" in await _rest(response)
    finally:
        await other.close()


# -- out of descriptors -----------------------------------------------------------------


async def test_out_of_descriptors_pauses_accepting_once(site: Site, caplog: pytest.LogCaptureFixture) -> None:
    """asyncio's own accept loop (Python 3.11) goes on calling accept() after EMFILE, logs
    a traceback and schedules a retry for each: 118,777 log lines within seconds at 128
    open files. The listener stops at the first, pauses once and counts it."""
    listener = site.web.listener
    assert listener is not None
    left, right = socket.socketpair()

    class Exhausted:
        calls = 0

        def fileno(self) -> int:
            return left.fileno()

        def accept(self) -> tuple[socket.socket, object]:
            Exhausted.calls += 1
            raise OSError(24, "Too many open files")

    caplog.set_level(logging.INFO)
    loop = asyncio.get_running_loop()
    loop.add_reader(left.fileno(), lambda: None)
    try:
        listener._accept(Exhausted())  # type: ignore[arg-type]
        assert Exhausted.calls == 1
        assert list(listener._paused) == [left.fileno()]  # one retry, later
        assert not loop.remove_reader(left.fileno())  # no longer watched meanwhile
        assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1
    finally:
        for handle in listener._paused.values():
            handle.cancel()
        listener._paused.clear()
        left.close()
        right.close()

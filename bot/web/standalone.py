"""``python -m bot web``: the web pages alone, beside bot processes on one PostgreSQL
database (sharded deployments), or on a SQLite file no bot is using.

Moves made by the bot processes reach the open live pages by polling: each watched
game's stored version is read once a second (per game, not per page). The pages are
served at once; display names come from Discord's HTTP API once ``DISCORD_TOKEN`` logs
in (no gateway connection; tried again while Discord is unreachable), until then, and
without a token, pages show ``#<user id>``.

:func:`login_retrying` is also the bot's first login (``bot/cli/main.py``).

``/healthz``, ``/readyz`` (the database only) and ``/metrics`` are served as by the bot:
with the pages, or on ``METRICS_PORT`` (``bot/web/health.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time

import aiohttp
import discord

from bot.archive.history import History
from bot.community.languages import Languages
from bot.community.names import NameBook
from bot.community.stats import Rankings
from bot.settings import Settings, web_port_error
from bot.storage import open_database
from bot.web.companion import WebCompanion
from bot.web.health import Operations
from bot.web.operator import OperatorServer

log = logging.getLogger(__name__)

# Errors of a network that does not reach Discord (yet).
NETWORK_ERRORS = (OSError, TimeoutError, aiohttp.ClientError, discord.DiscordServerError)
LOGIN_RETRY_FIRST = 2.0  # seconds before the second try at a login, doubled each time
LOGIN_RETRY_MAX = 120.0
NAME_TIMEOUT = 2.0  # seconds a page waits for a name from Discord before it shows the id


async def login_retrying(client: discord.Client, token: str) -> None:
    """Log ``client`` in, trying again while the network does not reach Discord (discord.py
    retries only once connected), one log line each time. A refused token and errors of
    ``setup_hook`` (which runs after the login's requests) are raised."""
    delay = LOGIN_RETRY_FIRST
    while True:
        try:
            await client.login(token)
            return
        except NETWORK_ERRORS as error:
            if client.application is not None:  # logged in: setup_hook failed, not the network
                raise
            log.warning(
                "Cannot reach Discord to log in (%s: %s); trying again in %.0f s",
                type(error).__name__,
                error,
                delay,
            )
        # The next login opens a new HTTP session, leaving this one unclosed; its
        # connector closes with it, so discord.py must make a new one too.
        await client.http.close()
        client.http.connector = discord.utils.MISSING
        await asyncio.sleep(delay)
        delay = min(delay * 2, LOGIN_RETRY_MAX)


class PlaceholderNames:
    """Names without Discord: ``#<user id>``."""

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        return f"#{user_id}"

    async def pair(self, players: tuple[int, int], guild_id: int | None) -> tuple[str, str]:
        return await self.name(players[0], guild_id), await self.name(players[1], guild_id)


class DiscordNames(PlaceholderNames):
    """Names from Discord once ``book`` is set (logged in); ``#<user id>`` before, and
    whenever Discord does not answer within ``NAME_TIMEOUT``."""

    def __init__(self) -> None:
        self.book: NameBook | None = None

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        if self.book is not None:
            with contextlib.suppress(*NETWORK_ERRORS, discord.DiscordException):
                async with asyncio.timeout(NAME_TIMEOUT):
                    return await self.book.name(user_id, guild_id)
        return await super().name(user_id, guild_id)


async def read_names(client: discord.Client, token: str, names: DiscordNames) -> None:
    """Log in (HTTP only) and let ``names`` ask Discord from then on."""
    try:
        await login_retrying(client, token)
    except discord.LoginFailure:
        log.error("Discord refused DISCORD_TOKEN; the pages show user ids instead of names")
        return
    except discord.HTTPException as error:
        log.error("Discord refused the login (%s); the pages show user ids instead of names", error)
        return
    names.book = NameBook(client)
    log.info("Logged in to Discord: the pages show players' names")


async def serve(settings: Settings, stop: asyncio.Event) -> None:
    """Serve the pages until ``stop`` is set."""
    db = open_database(settings.database)
    await db.connect()
    client: discord.Client | None = None
    web: WebCompanion | None = None
    operations = Operations(db, clock=time.time)
    operator: OperatorServer | None = None
    if settings.metrics_port:
        operator = OperatorServer(operations, settings.metrics_host, settings.metrics_port)
    names = DiscordNames()
    reading: asyncio.Task[None] | None = None
    try:
        if operator is not None:
            await operator.start()
        version = await db.migrate()
        log.info("Database %s at schema version %d", db.path, version)
        web = WebCompanion(
            settings,
            db,
            history=History(db.games, db.ratings),
            rankings=Rankings(db.ratings),
            names=names,
            operations=operations,
            language=Languages(db.players, clock=time.time).for_user,
        )
        try:
            await web.start()
        except OSError as error:
            raise web_port_error(settings.web_host, settings.web_port, error) from None
        if settings.token:  # after the pages: Discord may be unreachable for a while
            client = discord.Client(intents=discord.Intents.none())
            reading = asyncio.create_task(read_names(client, settings.token, names))
        await stop.wait()
    finally:
        if reading is not None:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reading
        if web is not None:
            await web.close()
        if operator is not None:
            await operator.close()
        if client is not None:
            await client.close()
        await db.close()


async def run(settings: Settings) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signum, stop.set)
    await serve(settings, stop)

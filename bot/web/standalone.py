"""``python -m bot web``: the web pages alone, beside bot processes on one PostgreSQL
database (sharded deployments), or on a SQLite file no bot is using.

Moves made by the bot processes reach the open live pages by polling: each watched
game's stored version is read once a second (per game, not per page). Display names
come from Discord's HTTP API when ``DISCORD_TOKEN`` is set (no gateway connection), else
pages show ``#<user id>``.

``/healthz``, ``/readyz`` (the database only) and ``/metrics`` are served as by the bot:
with the pages, or on ``METRICS_PORT`` (``bot/web/health.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time

import discord

from bot.archive.history import History
from bot.community.languages import Languages
from bot.community.names import NameBook
from bot.community.stats import Rankings
from bot.settings import Settings
from bot.storage import open_database
from bot.web.companion import WebCompanion
from bot.web.health import Operations
from bot.web.operator import OperatorServer

log = logging.getLogger(__name__)


class PlaceholderNames:
    """Names without Discord: ``#<user id>``."""

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        return f"#{user_id}"

    async def pair(self, players: tuple[int, int], guild_id: int | None) -> tuple[str, str]:
        return f"#{players[0]}", f"#{players[1]}"


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
    try:
        if operator is not None:
            await operator.start()
        version = await db.migrate()
        log.info("Database %s at schema version %d", db.path, version)
        names: NameBook | PlaceholderNames = PlaceholderNames()
        if settings.token:
            client = discord.Client(intents=discord.Intents.none())
            await client.login(settings.token)  # HTTP only: fetch_user for the names
            names = NameBook(client)
        # The table's moves: a game service of this process, with the outbox (the bot's
        # timers publish what it owes on Discord); the members' languages as stored.
        web = WebCompanion(
            settings,
            db,
            history=History(db.games, db.ratings),
            rankings=Rankings(db.ratings),
            names=names,
            operations=operations,
            language=Languages(db.players, clock=time.time).for_user,
        )
        await web.start()
        await stop.wait()
    finally:
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

"""``WebCompanion``: the web pages inside the bot's process and event loop, or alone
(``python -m bot web``, on the bot's PostgreSQL database).

The server runs in tasks of its own: started from a fresh ``contextvars.Context``, it
carries none of the bot's context (nothing of a command's language, and in tests not
simcord's mark on the bot's work, which would make every simulated move wait for the
open event streams).

It shares the bot's process, so it is bounded (``limits.py``): ``WEB_MAX_STREAMS`` event
streams in all, ``MAX_STREAMS_PER_CLIENT`` per client, and its connections
(``listener.py``, its own accept loop) to the streams and some for pages, never more
than half the process's open-file limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from aiohttp import web

from bot.archive.history import History
from bot.community.stats import Rankings
from bot.games.errors import GameNotFound
from bot.games.live import LiveGame, from_row
from bot.games.service import GameService
from bot.pictures.cache import PictureCache
from bot.settings import Settings
from bot.storage import Storage
from bot.web.activity import SIGN_INS_PER_MINUTE, Activity
from bot.web.activity import register as register_activity
from bot.web.activity_lobby import Lobby
from bot.web.answers import GuardedHandler
from bot.web.discord_oauth import OAuth
from bot.web.feeds import Feeds
from bot.web.health import Operations, install
from bot.web.limits import (
    MAX_STREAMS_PER_CLIENT,
    AddressRate,
    Refusals,
    StreamSlots,
    budget,
    open_file_limit,
)
from bot.web.links import Links
from bot.web.listener import Listener
from bot.web.server import NameSource, Sources, make_app
from bot.web.sessions import Sessions
from bot.web.table import Hinter, Mover, Table, register
from bot.web.tokens import Signer, load_secret

log = logging.getLogger(__name__)

T = TypeVar("T")


class StoredGames:
    """Games as stored now: the pages may run beside other bot processes (shards), whose
    moves no cache of this process has seen."""

    def __init__(self, db: Storage) -> None:
        self.db = db

    async def get(self, game_id: int) -> LiveGame:
        row = await self.db.games.get_game(game_id)
        if row is None:
            raise GameNotFound(game_id)
        return from_row(row)

    async def of_member(self, user_id: int) -> list[LiveGame]:
        """The member's active games, wherever they are played (the Activity in a DM)."""
        return [from_row(row) for row in await self.db.games.active_games(user_id)]

    async def in_channel(self, channel_id: int) -> list[LiveGame]:
        """The channel's active games (the Activity's list)."""
        return [from_row(row) for row in await self.db.games.active_games_in_channel(channel_id)]


def detached(coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
    """A task in an empty context: no context variable of the caller reaches it."""
    return contextvars.Context().run(asyncio.get_running_loop().create_task, coro)


class WebCompanion:
    """Starts and stops the web pages. ``links`` (for the cogs' buttons) is set once
    :meth:`prepare` has read the secret.

    The table's moves go through ``mover`` (the bot's ``GameService``); alone, through a
    service of its own with the outbox, whose entries the bot's timers publish. ``table``'s
    ``publish`` is set by the table's cog (its ``Publisher.publish``)."""

    def __init__(
        self,
        settings: Settings,
        db: Storage,
        *,
        history: History,
        rankings: Rankings,
        names: NameSource,
        poll_interval: float = 1.0,
        streams_per_client: int = MAX_STREAMS_PER_CLIENT,
        clock: Callable[[], float] = time.monotonic,
        operations: Operations | None = None,
        mover: Mover | None = None,
        hinter: Hinter | None = None,
        language: Callable[[int], Awaitable[str]] | None = None,
    ) -> None:
        self.settings = settings
        self.db = db
        self.games = StoredGames(db)
        self.history = history
        self.rankings = rankings
        self.names = names
        self.poll_interval = poll_interval
        self.streams_per_client = streams_per_client
        self.clock = clock  # the links' cache and the refusals' summaries
        self.refusals = Refusals(clock)
        # /healthz, /readyz, /metrics: served with the pages unless METRICS_PORT gives
        # them a port of their own (bot/web/operator.py).
        self.operations = operations
        self.links: Links | None = None
        self.sources: Sources | None = None
        self.app: web.Application | None = None
        self.listener: Listener | None = None
        self._runner: web.AppRunner | None = None
        self.port: int | None = None  # the port listened on (WEB_PORT, or the one given for 0 in tests)
        if mover is None:
            service = GameService(db, turn_timeout=settings.turn_timeout, outbox=True)
            service.listeners.append(self.on_commit)
            mover = service
        self.table = Table(mover=mover, language=language, hinter=hinter)
        # Starting games from the Activity: set by the table's cog (the bot's services and
        # its side in Discord) before the pages start; None alone (no Discord to post to).
        self.lobby: Lobby | None = None

    async def prepare(self) -> Links:
        secret = await load_secret(self.db.players, self.settings.web_secret)
        self.links = Links(self.settings.public_url, Signer(secret), self.db.players, clock=self.clock)
        return self.links

    def on_commit(self, record: LiveGame) -> None:
        """``GameService.listeners``: a game moved in this process."""
        if self.sources is not None:
            self.sources.feeds.notify(record.id)

    async def start(self, *, port: int | None = None) -> None:
        """Listen on ``WEB_HOST``:``WEB_PORT`` (or ``port``; 0 picks a free one)."""
        await detached(self._start(self.settings.web_port if port is None else port))

    async def _start(self, port: int) -> None:
        links = self.links or await self.prepare()
        feeds = Feeds(
            self.db.games.get_game, interval=self.poll_interval, allowed=links.enabled, failures=self.refusals
        )
        links.turned_off.append(feeds.turned_off)
        allowed = budget(self.settings.web_max_streams, open_file_limit())
        self.sources = Sources(
            games=self.games,
            history=self.history,
            rankings=self.rankings,
            ratings=self.db.ratings,
            names=self.names,
            pictures=PictureCache(256, workers=2),
            tournaments=self.db.tournaments,
            matches=self.db.challenges.get_match,
            live_games=self.db.games.guild_active_games,
            links=links,
            feeds=feeds,
            slots=StreamSlots(self.refusals, total=allowed.streams, per_group=self.streams_per_client),
        )
        self.app = make_app(self.sources)
        if self.operations is not None:
            slots = self.sources.slots
            self.operations.streams = lambda: slots.open
            if not self.settings.metrics_port:
                install(self.app, self.operations)
        register(self.app, self.table)
        if self.settings.activity:
            assert self.settings.discord_client_id is not None and self.settings.discord_client_secret
            oauth = OAuth(
                self.settings.discord_client_id,
                self.settings.discord_client_secret,
                self.settings.discord_api_base,
            )
            sessions = Sessions(links.signer)
            sign_ins = AddressRate(
                self.refusals, self.clock, "Activity sign-ins over the limit per address", SIGN_INS_PER_MINUTE
            )
            activity = Activity(
                oauth,
                links.public_url,
                sessions,
                self.games.in_channel,
                self.games.of_member,
                sign_ins,
                lobby=self.lobby,
            )
            register_activity(self.app, activity)
        runner = web.AppRunner(
            self.app, handle_signals=False, shutdown_timeout=1.0, handler_cancellation=True
        )
        await runner.setup()
        server, loop = runner.server, asyncio.get_running_loop()
        assert server is not None  # set up above
        listener = Listener(
            lambda: GuardedHandler(server, loop=loop, refusals=self.refusals),
            max_connections=allowed.connections,
            refusals=self.refusals,
        )
        try:
            self.port = await listener.start(self.settings.web_host, port)
        except BaseException:
            listener.close()
            await runner.cleanup()
            raise
        self._runner, self.listener = runner, listener
        log.info(
            "Web pages on http://%s:%d (links: %s; at most %d connections, %d live pages)",
            self.settings.web_host,
            self.port,
            self.settings.public_url,
            allowed.connections,
            allowed.streams,
        )

    async def close(self) -> None:
        await detached(self._close())

    async def _close(self) -> None:
        runner, self._runner = self._runner, None
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.close()
        sources = self.sources
        if sources is not None:
            await sources.feeds.close()
        if runner is not None:
            with contextlib.suppress(Exception):
                await runner.cleanup()
        if sources is not None:
            sources.pictures.close()

"""``Feeds``: how a move reaches the open live pages of its game.

One feed per watched game, shared by all its pages: a task that reads the game's stored
version when woken and at least every ``interval`` seconds, and wakes every page when it
changed. In the bot's process ``GameService.listeners`` wakes it at once after a commit;
alone (``python -m bot web``, PostgreSQL) the polling finds moves other processes made.
A page then sends the game as it is now (``LivePages.payload``, built once per version
and language), so a page that missed a version skips to the latest.

Each poll also asks ``allowed`` whether the game's server still shows its pages (the
links' choice, which another process may change: the database is the truth); when it
no longer does, the pages are woken and close. :meth:`Feeds.turned_off` wakes them at
once when this process turned the links off.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from bot.games.errors import GameUnreadable
from bot.games.live import LiveGame, from_row
from bot.storage import GameRow
from bot.web.limits import Refusals

ReadRow = Callable[[int], Awaitable[GameRow | None]]  # the stored game; None: no such game
Allowed = Callable[[int | None], Awaitable[bool]]  # whether a server's (None: DMs) pages show


async def _always(guild_id: int | None) -> bool:
    return True


class Feed:
    def __init__(self, record: LiveGame) -> None:
        self.game_id = record.id
        self.record = record
        self.pages: set[asyncio.Event] = set()
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None


class Feeds:
    def __init__(
        self,
        read_row: ReadRow,
        *,
        interval: float = 1.0,
        allowed: Allowed = _always,
        failures: Refusals | None = None,
    ) -> None:
        self.read_row = read_row
        self.interval = interval
        self.allowed = allowed
        # A failed poll is counted and logged as a summary (every watched game polls
        # each ``interval``: one line each would flood the log while the database is away).
        self.failures = failures or Refusals(time.monotonic)
        self._feeds: dict[int, Feed] = {}

    def __len__(self) -> int:
        return sum(len(feed.pages) for feed in self._feeds.values())

    def subscribe(self, record: LiveGame) -> asyncio.Event:
        """An event set whenever the game's version changes (then :meth:`record` is the
        game as stored); :meth:`unsubscribe` it."""
        game_id = record.id
        feed = self._feeds.get(game_id)
        if feed is None:
            feed = self._feeds[game_id] = Feed(record)
            feed.task = asyncio.get_running_loop().create_task(self._poll(feed), name=f"web-feed-{game_id}")
        page = asyncio.Event()
        feed.pages.add(page)
        return page

    def unsubscribe(self, game_id: int, page: asyncio.Event) -> None:
        feed = self._feeds.get(game_id)
        if feed is None:
            return
        feed.pages.discard(page)
        if not feed.pages:
            del self._feeds[game_id]
            if feed.task is not None:
                feed.task.cancel()

    def record(self, game_id: int) -> LiveGame | None:
        """The latest record of a watched game (None: nobody watches it)."""
        feed = self._feeds.get(game_id)
        return None if feed is None else feed.record

    def turned_off(self, guild_id: int) -> None:
        """``guild_id`` turned its links off in this process: wake its pages now."""
        for feed in self._feeds.values():
            if feed.record.guild_id == guild_id:
                for page in feed.pages:
                    page.set()

    def notify(self, game_id: int) -> None:
        """A commit of ``game_id`` (``GameService.listeners``): check it now."""
        feed = self._feeds.get(game_id)
        if feed is not None:
            feed.wake.set()

    async def _poll(self, feed: Feed) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(feed.wake.wait(), self.interval)
            feed.wake.clear()
            try:
                if not await self.allowed(feed.record.guild_id):
                    for page in feed.pages:
                        page.set()  # each page checks again and closes
                    continue
                row = await self.read_row(feed.game_id)
                if row is None or row.version == feed.record.version:
                    continue
                feed.record = from_row(row)
            except GameUnreadable:
                continue
            except Exception as error:  # the database does not answer: tried again next poll
                self.failures.count("live pages: a watched game could not be read", error)
                continue
            for page in feed.pages:
                page.set()

    async def close(self) -> None:
        tasks = [feed.task for feed in self._feeds.values() if feed.task is not None]
        self._feeds.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

"""A thread per game: where a game's board lives, decided once at its start.

A server that chose threads (``/schotten settings threads:on``, or nothing: the default,
``bot.preferences``) gets, for each game started in one of its channels where the bot
may create threads (Create Public Threads and Send Messages in Threads), a public
thread named ``#<game> · <name> – <name>``: the board, its turn pings, the reminders and
the game's talk live there. The channel keeps the challenge, Discord's own "started a
thread" line and the result, with a link to the thread; the thread is archived after
the game. Elsewhere (threads off, the permissions missing, a game in a thread or in
DMs) the board stays in the channel, as before.

The decision is stored (``games.thread_id``: 0 the channel, else the thread) before
anything is posted where it points, so every process and every later publication
finds the board in the same place. Creating the thread and storing it are two steps;
a process that dies between them leaves a thread that the recovery (``recovering``)
finds among the server's active threads by its name, which starts with the game's
number, and adopts instead of creating another.
"""

from __future__ import annotations

import logging
from typing import Final

import discord

from bot.app import SchottenBot
from bot.games.live import LiveGame
from bot.games.lru import LRU
from bot.text.catalogue import t
from cogs.table.messages import Names

log = logging.getLogger("cogs.table.publisher")  # the publisher's log: these are its steps

IN_CHANNEL: Final = 0  # games.thread_id of a game whose board is in its channel
# A week: a game's thread never archives itself while the game runs (a turn may last a
# day); it is archived at the game's end, or by Discord after a week of quiet.
AUTO_ARCHIVE: Final = 10080
MAX_NAME: Final = 100  # Discord's limit for a channel's name
PLACES_KEPT: Final = 1024


def thread_name(game_id: int, names: Names) -> str:
    """``#12 · alice – bob``: the game's number first, in every language (the recovery
    recognises the thread by it), the names as typed (a channel name shows no markdown
    and pings nobody) on one line, cut to Discord's limit."""
    name0, name1 = (" ".join(name.split()) for name in names)
    return f"{_prefix(game_id)}{name0} – {name1}"[:MAX_NAME]


def _prefix(game_id: int) -> str:
    return f"#{game_id} · "


def may_create_threads(bot: SchottenBot, channel_id: int) -> bool:
    """Whether the bot may open a game's thread in the channel: a text channel where it
    has Create Public Threads and Send Messages in Threads. A channel this process does
    not hold in its cache (another shard's) is tried, and falls back on a refusal."""
    channel = bot.get_channel(channel_id)
    if channel is None:
        return True
    if not isinstance(channel, discord.TextChannel):
        return False  # a thread, a voice channel's chat, a forum: the board stays there
    permissions = channel.permissions_for(channel.guild.me)
    return permissions.create_public_threads and permissions.send_messages_in_threads


class Threads:
    """Where each game's board lives (the publisher's, one per bot)."""

    def __init__(self, bot: SchottenBot) -> None:
        self.bot = bot
        # game -> thread id or IN_CHANNEL, as decided (a decision never changes)
        self._places: LRU[int, int] = LRU(PLACES_KEPT)

    async def thread_of(self, record: LiveGame) -> int | None:
        """The game's thread, None when its board is in its channel (or not placed yet).
        Another process may have placed it since this one read the game: then the
        stored place is read once."""
        place = record.thread_id if record.thread_id is not None else self._places.get(record.id)
        if place is None and record.channel_id is not None and record.guild_id is not None:
            place = await self.bot.delivery.thread_of(record.id)
        if place is not None:
            self._places.put(record.id, place)
        return place or None

    async def place(self, record: LiveGame, names: Names, *, recovering: bool) -> int | None:
        """Decide where a new game's board lives, once: its thread's id (opened now, or
        adopted when ``recovering`` finds the one an interrupted attempt opened), or
        None for its channel."""
        known = await self.thread_of(record)
        if known is not None or self._places.get(record.id) == IN_CHANNEL:
            return known
        thread_id = None
        if (
            record.guild_id is not None
            and record.channel_id is not None
            and await self.bot.preferences.threads(record.guild_id)
            and may_create_threads(self.bot, record.channel_id)
        ):
            thread_id = await self._open(record, names, recovering=recovering)
        place = IN_CHANNEL if thread_id is None else thread_id
        await self.bot.service.set_message_ids(record.id, thread_id=place)
        self._places.put(record.id, place)
        return thread_id

    async def _open(self, record: LiveGame, names: Names, *, recovering: bool) -> int | None:
        assert record.channel_id is not None and record.guild_id is not None
        if recovering:
            found = await self._find(record.guild_id, record.channel_id, record.id)
            if found is not None:
                log.info("thread of game %s was opened already; adopted", record.id)
                return found
        try:
            data = await self.bot.http.start_thread_without_message(
                record.channel_id,
                name=thread_name(record.id, names),
                auto_archive_duration=AUTO_ARCHIVE,
                type=discord.ChannelType.public_thread.value,
            )
        except discord.HTTPException as error:
            if error.status >= 500 or error.status == 429:
                raise  # Discord's trouble, not a refusal: the outbox tries again later
            # Refused (a permission taken away, a channel that holds no threads): the
            # board goes to the channel, as where threads are off.
            log.info("could not open a thread for game %s (%s); the channel it is", record.id, error.status)
            return None
        return int(data["id"])

    async def _find(self, guild_id: int, channel_id: int, game_id: int) -> int | None:
        """The active thread of ``channel_id`` named for ``game_id`` (one request, on
        the recovery's path only)."""
        try:
            listed = await self.bot.http.get_active_threads(guild_id)
        except discord.HTTPException:
            log.info("could not list the active threads of server %s", guild_id)
            return None
        prefix = _prefix(game_id)
        for thread in listed.get("threads", []):
            if int(thread.get("parent_id") or 0) == channel_id and thread.get("name", "").startswith(prefix):
                return int(thread["id"])
        return None

    def channel(self, record: LiveGame, thread_id: int) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(
            thread_id, guild_id=record.guild_id, type=discord.ChannelType.public_thread
        )

    async def archive(self, record: LiveGame, thread_id: int) -> None:
        """Archive a finished game's thread (it opens again if somebody writes in it)."""
        try:
            await self.bot.http.edit_channel(thread_id, archived=True)
        except discord.HTTPException:
            # Without the permission to archive it, Discord does after a week of quiet.
            log.info("could not archive the thread of game %s", record.id)

    def forget(self, game_id: int) -> None:
        self._places.pop(game_id)


def link(thread_id: int) -> str:
    """The line under a result in the channel that leads to the game's thread."""
    return t("thread.link", thread=f"<#{thread_id}>")


__all__ = ["AUTO_ARCHIVE", "IN_CHANNEL", "Threads", "link", "may_create_threads", "thread_name"]

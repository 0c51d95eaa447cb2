"""A player's DM for a game, the DM half of the publisher: the hand message edited after
every change, sent anew when it is gone, never to the bot's own AI seat, and a member
whose DMs refuse us remembered (``bot.delivery``) so that the channel tells them once.

Also what the publisher's two halves share: the nonce of each message a publication
sends, and the bot's recent messages in a channel, read when recovering.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence

import discord

from bot.app import SchottenBot
from bot.games.live import LiveGame
from bot.text import i18n
from cogs.table.messages import Names
from cogs.table.requests import Seat
from rules.cards import Card

log = logging.getLogger("cogs.table.publisher")  # the publisher's log: these are its steps

CANNOT_DM = 50007  # Discord's error code: the user does not accept DMs from us
# How far back the recovery looks for what an interrupted publication already posted:
# one request each (Discord's maximum is 100). A busy channel may have buried it deeper.
RECENT_MESSAGES = 50
RECENT_DMS = 10


def nonce(record: LiveGame, what: str) -> str:
    """The nonce of one message a publication sends (``what``: b board, e end, r
    reminder, d0/d1 a DM). With it Discord (``enforce_nonce``) returns the message it
    already made for the same nonce within a few minutes instead of making another:
    a send repeated after a lost answer, or by the recovery soon after a crash."""
    return f"st{record.id}.{record.version}{what}"[:25]


async def recent_messages(
    bot: SchottenBot, channel: discord.abc.Messageable, limit: int = RECENT_MESSAGES
) -> list[discord.Message]:
    """The bot's messages among the channel's latest ``limit`` (one request); none if
    Discord will not say."""
    me = bot.user
    try:
        return [m async for m in channel.history(limit=limit) if me is not None and m.author.id == me.id]
    except discord.HTTPException:
        log.info("could not read the recent messages of channel %s", getattr(channel, "id", None))
        return []


class DirectMessages(ABC):
    """The DM half of :class:`~cogs.table.publisher.Publisher`, its base class."""

    bot: SchottenBot
    _dm_channels: dict[int, discord.DMChannel]

    @abstractmethod
    async def seat(self, record: LiveGame, player: int, names: Names, drawn: Sequence[Card] = ()) -> Seat:
        """A seat's hand message (the publisher's, in the current language)."""

    async def _update_dm(
        self,
        record: LiveGame,
        player: int,
        names: Names,
        drawn: Sequence[Card],
        *,
        first: bool = False,
        recovering: bool = False,
    ) -> None:
        """Edit the player's DM message; send one if they have none. ``first``: the
        game's first publication, which tries even DMs that refused us before (they
        may have been opened since)."""
        user_id = record.players[player]
        message_id = record.dm_message_ids[player]
        if message_id is None:
            if record.ai_player == player or (not first and await self.bot.delivery.dm_closed(user_id)):
                return
            new_id = await self._send_dm(record, player, names, drawn, recovering=recovering)
            if new_id is not None:
                await self.bot.service.set_message_ids(record.id, dm_message_ids={player: new_id})
            return
        channel = await self._dm_channel(user_id)
        if channel is None:
            return
        with i18n.use(await self.bot.languages.for_user(user_id)):
            seat = await self.seat(record, player, names, drawn)
        try:
            # Our own DM message, edited through the REST API: unlike an interaction
            # token this never expires. One call, with the picture if any.
            await channel.get_partial_message(message_id).edit(
                content=seat.content, view=seat.view, attachments=seat.attachments()
            )
        except discord.NotFound:
            new_id = await self._send_dm(record, player, names, drawn)
            await self.bot.service.set_message_ids(record.id, dm_message_ids={player: new_id})
        except discord.Forbidden:
            await self.bot.delivery.set_dm_closed(user_id, True)

    async def _send_dm(
        self,
        record: LiveGame,
        player: int,
        names: Names,
        drawn: Sequence[Card] = (),
        *,
        recovering: bool = False,
    ) -> int | None:
        """Send the player their hand; its message id (None: no DM). ``recovering``:
        the same message sent by an interrupted attempt is adopted instead."""
        if record.ai_player == player:
            return None  # the bot's own AI seat: the bot never DMs itself
        user_id = record.players[player]
        channel = await self._dm_channel(user_id)
        if channel is None:
            return None
        with i18n.use(await self.bot.languages.for_user(user_id)):
            seat = await self.seat(record, player, names, drawn)
        if recovering:
            for message in await recent_messages(self.bot, channel, RECENT_DMS):
                if message.content == seat.content:
                    return message.id
        try:
            message = await channel.send(
                seat.content,
                view=seat.view or discord.utils.MISSING,
                file=seat.upload(),
                nonce=nonce(record, f"d{player}"),
            )
        except discord.Forbidden as error:
            if error.code == CANNOT_DM:
                log.info("user %s does not accept DMs (game %s)", user_id, record.id)
            else:
                log.warning("DM to user %s refused (game %s): code %s", user_id, record.id, error.code)
            await self.bot.delivery.set_dm_closed(user_id, True)
            await self.bot.delivery.owe_dm_tip(record.id, user_id)
            return None
        await self.bot.delivery.set_dm_closed(user_id, False)  # they opened their DMs again
        return message.id

    async def _dm_channel(self, user_id: int) -> discord.DMChannel | None:
        channel = self._dm_channels.get(user_id)
        if channel is not None:
            return channel
        try:
            # By id: fetching the user first would cost a request more.
            channel = await self.bot.create_dm(discord.Object(user_id))
        except discord.HTTPException:
            log.warning("cannot open a DM channel with user %s", user_id)
            return None
        self._dm_channels[user_id] = channel
        return channel


__all__ = ["CANNOT_DM", "RECENT_MESSAGES", "DirectMessages", "nonce", "recent_messages"]

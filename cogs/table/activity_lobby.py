"""The Discord side of starting a game from the Activity (``bot.web.activity_lobby``):
what the bot sees of a channel and its members, and what the channel shows, as when the
game is started with ``/schotten challenge`` or ``/schotten practice``: the challenge's
public message with its Accept and Decline buttons (answerable in Discord too), that
message edited once answered, the new game's board and DMs, a practice game's notice.
"""

from __future__ import annotations

import logging

import discord

from bot.app import SchottenBot
from bot.games.challenges import Challenge
from bot.games.live import LiveGame
from bot.storage import DatabaseUnavailable
from bot.text import i18n
from bot.text.catalogue import t
from bot.web.activity_lobby import Lobby
from cogs.table.lobby import challenge_text, challenge_view
from cogs.table.requests import publishing
from cogs.ui.replies import NO_MENTIONS

log = logging.getLogger(__name__)


class ActivityDesk:
    """:class:`bot.web.activity_lobby.LobbyDiscord` for the bot."""

    def __init__(self, bot: SchottenBot) -> None:
        self.bot = bot

    @property
    def bot_id(self) -> int | None:
        return None if self.bot.user is None else self.bot.user.id

    def _channel(self, channel_id: int) -> discord.abc.GuildChannel | discord.Thread | None:
        channel = self.bot.get_channel(channel_id)
        return channel if isinstance(channel, discord.abc.GuildChannel | discord.Thread) else None

    def guild_of(self, channel_id: int) -> int | None:
        channel = self._channel(channel_id)
        return None if channel is None else int(channel.guild.id)

    async def may_play(self, channel_id: int, user_id: int) -> bool:
        channel = self._channel(channel_id)
        if channel is None:
            return False
        member = channel.guild.get_member(user_id)
        if member is None:
            try:
                member = await channel.guild.fetch_member(user_id)
            except discord.HTTPException:
                return False
        if member.bot:
            return False
        permissions = channel.permissions_for(member)
        if not (permissions.view_channel and permissions.send_messages):
            return False
        self.bot.names.remember(member)
        return True

    async def challenge_posted(self, challenge: Challenge) -> None:
        row = challenge.row
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        with i18n.use(await self._language(row.guild_id)):
            text, answers = challenge_text(challenge), challenge_view(challenge.id)
        assert row.opponent_id is not None  # the Activity's challenges name their opponent
        message = await channel.send(
            text,
            view=answers,
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(row.opponent_id)], roles=False, everyone=False
            ),
        )
        try:
            await self.bot.challenges.set_message(challenge.id, message.id)
        except DatabaseUnavailable as error:
            log.warning("could not store the message of challenge %s: %s", challenge.id, error)

    async def challenge_answered(self, challenge: Challenge, record: LiveGame | None) -> None:
        row = challenge.row
        if row.message_id is not None:
            channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
            who = {"challenger": f"<@{row.challenger_id}>", "opponent": f"<@{row.opponent_id}>"}
            with i18n.use(await self._language(row.guild_id)):
                if record is None:
                    text = t("challenge.declined", **who)
                else:
                    text = t("challenge.accepted", game_id=record.id, **who)
                answers = challenge_view(challenge.id, disabled=True)
            try:
                await channel.get_partial_message(row.message_id).edit(
                    content=text, view=answers, allowed_mentions=NO_MENTIONS
                )
            except discord.HTTPException:
                log.info("could not update answered challenge %s", row.id)
        if record is not None:
            await publishing(self.bot).start(record)

    async def practice_started(self, record: LiveGame, level: str) -> None:
        if record.channel_id is not None:
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            user_id = record.players[0]
            with i18n.use(await self._language(record.guild_id)):
                text = t(
                    "practice.started", mention=f"<@{user_id}>", level=t(f"level.{level}"), game_id=record.id
                )
            await channel.send(text, allowed_mentions=NO_MENTIONS)
        await publishing(self.bot).start(record)
        self.bot.opponent.notice(await self.bot.service.get(record.id))

    async def _language(self, guild_id: int | None) -> str:
        if guild_id is None:
            return i18n.current()
        try:
            return await self.bot.languages.for_guild(guild_id)
        except DatabaseUnavailable:
            return i18n.current()


def install(bot: SchottenBot) -> None:
    """Let the Activity start games (when the bot serves the pages)."""
    if bot.web is not None:
        bot.web.lobby = Lobby(bot.challenges, bot.opponent, ActivityDesk(bot))

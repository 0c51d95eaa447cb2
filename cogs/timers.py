"""Turn timers and challenge expiry, driven from the database.

Deadlines live in the ``games`` table (``deadline``, ``turn_started_at``, ``reminded``)
and challenge expiry in ``challenges.expires_at``, so a restart loses nothing: the loop
simply finds what became due while the bot was away. The player to move is reminded
once per turn (``TURN_REMINDER`` seconds in), then forfeits at the deadline
(``TURN_TIMEOUT``); a forfeit is published like any other outcome.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord
from discord.ext import commands, tasks

from bot import i18n
from bot.app import SchottenBot
from bot.text import t
from cogs.lobby import Lobby
from cogs.table import Table

log = logging.getLogger(__name__)

INTERVAL = 60.0  # seconds between checks; turns last hours, so a minute late is fine


class Timers(commands.Cog):
    def __init__(self, bot: SchottenBot, table: Table, lobby: Lobby) -> None:
        self.bot = bot
        self.table = table
        self.lobby = lobby

    async def cog_load(self) -> None:
        self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    @tasks.loop(seconds=INTERVAL)
    async def tick(self) -> None:
        try:
            await self.run_once()
        except Exception:
            # One bad round must not stop the timers for good.
            log.exception("turn timer round failed")

    @tick.before_loop
    async def before_tick(self) -> None:
        await self.bot.wait_until_ready()

    async def run_once(self) -> None:
        await self.lobby.expire_due()
        service = self.bot.service
        reminder = self.bot.settings.turn_reminder
        if reminder:
            for record in await service.games_to_remind(reminder):
                if record.current_user is None or record.deadline is None:
                    continue
                if not await service.mark_reminded(record.id, record.version):
                    continue
                channel = self.table.channel(record)
                if channel is None:
                    continue
                deadline = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
                with i18n.use(await self.bot.languages.for_guild(record.guild_id)):
                    text = t(
                        "timer.reminder",
                        mention=f"<@{record.current_user}>",
                        game_id=record.id,
                        deadline=deadline,
                    )
                try:
                    await channel.send(
                        text,
                        allowed_mentions=discord.AllowedMentions(
                            users=[discord.Object(record.current_user)], roles=False, everyone=False
                        ),
                    )
                except discord.HTTPException:
                    log.info("could not remind game %s", record.id)
        for outcome in await service.forfeit_overdue():
            try:
                await self.table.publish(outcome)
            except Exception:
                # Committed; the next publish of this game shows it. The others go on.
                log.exception("publishing the forfeit of game %d failed", outcome.game.id)


__all__ = ["INTERVAL", "Timers"]

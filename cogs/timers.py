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
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.text import t
from cogs.challenge import expire_due, now
from cogs.table import table_for

log = logging.getLogger(__name__)

INTERVAL = 60.0  # seconds between checks; turns last hours, so a minute late is fine


class Timers(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

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
        bot: Any = self.bot
        await expire_due(bot)
        current = now()
        settings = bot.settings
        table = table_for(bot)
        if settings.turn_reminder:
            for record in await bot.service.games_to_remind(settings.turn_reminder, now=current):
                if record.current_user is None or record.deadline is None:
                    continue
                if not await bot.service.mark_reminded(record.id, record.version):
                    continue
                channel = table._channel(record)
                if channel is None:
                    continue
                deadline = discord.utils.format_dt(datetime.fromtimestamp(record.deadline, tz=UTC), "R")
                try:
                    await channel.send(
                        t(
                            "timer.reminder",
                            mention=f"<@{record.current_user}>",
                            game_id=record.id,
                            deadline=deadline,
                        ),
                        allowed_mentions=discord.AllowedMentions(
                            users=[discord.Object(record.current_user)], roles=False, everyone=False
                        ),
                    )
                except discord.HTTPException:
                    log.info("could not remind game %s", record.id)
        for outcome in await bot.service.forfeit_overdue(now=current):
            await table.publish(outcome)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Timers(bot))

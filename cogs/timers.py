"""Turn timers and challenge expiry, driven from the database.

Deadlines live in the ``games`` table (``deadline``, ``turn_started_at``, ``reminded``)
and challenge expiry in ``challenges.expires_at``, so a restart loses nothing: the loop
simply finds what became due while the bot was away. The player to move is reminded
once per turn (``TURN_REMINDER`` seconds in; a game with its own, shorter turn time, a
tournament's, half-way through the turn if that is sooner), then forfeits at the
deadline (``TURN_TIMEOUT``, or the game's own turn time); a forfeit is published like
any other outcome. The AI's turns have no deadline; one whose task failed is restarted
(``Opponent.restart_stalled``).
"""

from __future__ import annotations

import logging

from discord.ext import commands, tasks

from bot.app import SchottenBot
from cogs.table.lobby import expire_due
from cogs.table.publisher import Publisher
from cogs.tournaments import advance_due

log = logging.getLogger(__name__)

INTERVAL = 60.0  # seconds between checks; turns last hours, so a minute late is fine


class Timers(commands.Cog):
    def __init__(self, bot: SchottenBot, publisher: Publisher) -> None:
        self.bot = bot
        self.publisher = publisher

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
        # First what committed changes still owe (a crash, a failed publication).
        await self.publisher.publish_pending()
        await expire_due(self.bot)
        service = self.bot.service
        reminder = self.bot.settings.turn_reminder
        if reminder:
            for record in await service.games_to_remind(reminder):
                if record.current_user is None or record.deadline is None:
                    continue
                claimed, entry = await service.claim_reminder(record.id, record.version)
                if claimed:  # this process (of all) claimed it: the reminder is ours to send
                    await self.publisher.remind(record, outbox_id=entry)
        for outcome in await service.forfeit_overdue():
            try:
                await self.publisher.publish(outcome)
            except Exception:
                # Committed and in the outbox: a later round publishes it. The others go on.
                log.exception("publishing the forfeit of game %d failed", outcome.game.id)
        # The AI's turns whose task failed (the database went away while it played).
        await self.bot.opponent.restart_stalled()
        try:
            # Tournaments whose round ended while no process advanced them (a crash).
            await advance_due(self.bot, self.publisher)
        except Exception:
            log.exception("advancing the tournaments failed")


__all__ = ["INTERVAL", "Timers"]

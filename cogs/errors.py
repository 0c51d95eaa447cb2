"""Installs :func:`cogs.ui.replies.reply_error` as the app-command tree's error handler,
so that every command's and component's error reaches the user privately."""

from __future__ import annotations

import logging

from discord import app_commands
from discord.ext import commands

from bot.app import SchottenBot
from cogs.ui import Interaction
from cogs.ui.replies import is_database_error, is_user_error, reply_error, unwrap

log = logging.getLogger(__name__)


class Errors(commands.Cog):
    def __init__(self, bot: SchottenBot) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error

    async def cog_load(self) -> None:
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        self.bot.tree.on_error = self._previous  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        logged = False
        if not is_user_error(unwrap(error)) and not is_database_error(unwrap(error)):
            # A real failure: whatever was installed before (discord.py's logger, a test
            # harness) sees it too.
            try:
                await self._previous(interaction, error)
                logged = True
            except Exception:  # pragma: no cover - the previous handler's own failure
                log.exception("previous tree error handler failed")
        await reply_error(interaction, error, logged=logged)


async def setup(bot: SchottenBot) -> None:
    await bot.add_cog(Errors(bot))

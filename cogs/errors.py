"""One place that turns errors into ephemeral replies (Red-DiscordBot style).

Cogs and components raise; :func:`reply_error` translates. Engine errors
(``rules.errors.RulesError``) and service errors (``bot.errors.ServiceError``) are the
user's mistakes: they get their catalogue text, privately, and are not logged as
failures. Anything else is a bug: the user gets a generic apology and the traceback
goes to the log (never the exception text to the user: it might name a card).

The tree's ``on_error`` is replaced while this cog is loaded; DynamicItems call
:func:`reply_error` themselves because discord.py only logs their exceptions.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import AmbiguousGame, ServiceError
from bot.text import error_text, t
from rules.errors import RulesError

log = logging.getLogger(__name__)


def is_user_error(error: BaseException) -> bool:
    return isinstance(error, (RulesError, ServiceError))


def unwrap(error: BaseException) -> BaseException:
    """The exception a command raised, without discord.py's wrapper."""
    if isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)):
        cause: BaseException = error.__cause__ or getattr(error, "original", None) or error
        return cause
    return error


def ambiguous_text(error: AmbiguousGame, names: Any = None) -> str:
    lines = []
    for record in error.games:
        opponent = names(record) if names is not None else ""
        lines.append(t("games.ambiguous_line", game_id=record.id, opponent=opponent).rstrip())
    return t("error.ambiguous_game", games="\n".join(lines))


def message_for(error: BaseException, interaction: discord.Interaction | None = None) -> str:
    if isinstance(error, AmbiguousGame):
        namer = None
        if interaction is not None:
            from cogs.table import opponent_namer  # local: table imports this module indirectly

            namer = opponent_namer(interaction.client, interaction.user.id)
        return ambiguous_text(error, namer)
    if isinstance(error, app_commands.CommandOnCooldown):
        return t("error.cooldown", seconds=round(error.retry_after, 1))
    if is_user_error(error):
        return error_text(error)
    return t("error.generic")


async def reply_error(
    interaction: discord.Interaction, error: BaseException, *, logged: bool = False
) -> None:
    """Answer ``interaction`` ephemerally with the translated ``error``."""
    error = unwrap(error)
    if not logged and not is_user_error(error) and not isinstance(error, app_commands.CommandOnCooldown):
        command = interaction.command.qualified_name if interaction.command else None
        custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
        log.error("unexpected error (command=%s custom_id=%s)", command, custom_id, exc_info=error)
    text = message_for(error, interaction)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply (interaction %s)", interaction.id)


class Errors(commands.Cog):
    """Installs :func:`reply_error` as the app-command tree's error handler."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._previous: Any = None

    async def cog_load(self) -> None:
        tree = self.bot.tree
        self._previous = tree.on_error
        tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def cog_unload(self) -> None:
        if self._previous is not None:
            self.bot.tree.on_error = self._previous  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = unwrap(error)
        logged = False
        expected = is_user_error(original) or isinstance(original, app_commands.CommandOnCooldown)
        # A real failure: whatever was installed before (discord.py's logger, a test
        # harness) sees it too.
        if not expected and self._previous is not None:
            try:
                await self._previous(interaction, error)
                logged = True
            except Exception:  # pragma: no cover - the previous handler's own failure
                log.exception("previous tree error handler failed")
        await reply_error(interaction, original, logged=logged)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Errors(bot))

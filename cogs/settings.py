"""``/schotten settings``: a member's turn pings, and a server's game threads.

* ``pings``: when the bot pings the member for their turn: ``every-turn``, ``away`` (the
  default: only when they have not used the bot in the last minute) or ``never``
  (``bot.preferences``; the rule is :mod:`cogs.table.pings`);
* ``threads`` (Manage Server, in a server): ``on``, each new game of the server in its
  own thread where the bot may create one (:mod:`cogs.table.threads`), or ``off``.

Without an option it shows both, privately. Every answer is private.
:func:`settings_command` builds the subcommand, which :mod:`cogs.schotten` adds to the
``/schotten`` group (a command object belongs to one bot's tree).
"""

from __future__ import annotations

from discord import app_commands

from bot.community.preferences import PING_MODES, parse_pings
from bot.games.errors import ServiceError
from bot.text.catalogue import t
from cogs.ui import Interaction
from cogs.ui.replies import answer, defer_early
from cogs.ui.translator import name as _name
from cogs.ui.translator import text as ls

THREAD_CHOICES = ("on", "off")


async def settings(interaction: Interaction, threads: str | None = None, pings: str | None = None) -> None:
    """Change the caller's turn pings and/or (Manage Server) the server's threads; show
    what is in effect when neither is given."""
    bot = interaction.client
    if threads is not None:
        # Refusals first, before any database work (answered privately within 3 s).
        if interaction.guild_id is None:
            raise ServiceError("settings_server_dm")
        if not interaction.permissions.manage_guild:
            raise ServiceError("settings_manage_server")
    await defer_early(interaction)  # before the database: answered within 3 s
    lines = []
    mode = parse_pings(pings)
    if mode is not None:
        await bot.preferences.choose_pings(interaction.user.id, mode)
        lines.append(t(f"settings.pings.{mode}"))
    if threads is not None and interaction.guild_id is not None:
        on = threads == "on"
        await bot.preferences.choose_threads(interaction.guild_id, on)
        lines.append(t("settings.threads.on" if on else "settings.threads.off"))
        allowed = interaction.app_permissions
        if on and not (allowed.create_public_threads and allowed.send_messages_in_threads):
            lines.append(t("settings.threads.on_not_here"))
    if not lines:
        current = await bot.preferences.pings(interaction.user.id)
        lines.append(t("settings.current", pings=t(f"choice.pings.{current}")))
        if interaction.guild_id is not None:
            on = await bot.preferences.threads(interaction.guild_id)
            lines.append(t("settings.current_server", threads=t(f"settings.state.{'on' if on else 'off'}")))
    await answer(interaction, "\n".join(lines))


SettingsCommand = app_commands.Command[app_commands.Group, [str | None, str | None], None]


def settings_command() -> SettingsCommand:
    """A new ``settings`` subcommand (one per bot: a command has one parent group)."""
    command: SettingsCommand = app_commands.Command(
        name=_name("cmd.name.settings"),
        description=ls("cmd.settings"),
        callback=settings,
    )
    command = app_commands.rename(threads=_name("opt.threads"), pings=_name("opt.pings"))(command)
    command = app_commands.describe(threads=ls("cmd.settings.threads"), pings=ls("cmd.settings.pings"))(
        command
    )
    return app_commands.choices(
        threads=[app_commands.Choice(name=ls(f"choice.threads.{on}"), value=on) for on in THREAD_CHOICES],
        pings=[app_commands.Choice(name=ls(f"choice.pings.{mode}"), value=mode) for mode in PING_MODES],
    )(command)


__all__ = ["settings", "settings_command"]

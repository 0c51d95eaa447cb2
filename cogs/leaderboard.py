"""``/schotten leaderboard`` and ``/schotten stats`` (issue 6).

Both join the ``/schotten`` group of :mod:`cogs.game` from this extension's ``setup``
(``bot.tree.get_command("schotten").add_command(...)``); extensions load in name order,
so the group exists by then. The leaderboard is paged with two DynamicItem buttons whose
``custom_id`` carries the scope and the page (``st:lb:<global|guild id>:<page>:<p|n>``),
so they keep working after a restart; a button never leads past the last page (it is
disabled there, and a page that no longer exists shows the last one).
"""

from __future__ import annotations

import math
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import ServiceError
from bot.ratings import GLOBAL_SCOPE, guild_scope
from bot.stats import player_stats
from bot.text import t
from cogs.components import _Guarded
from cogs.table import table_for

PAGE_SIZE = 10
NAME_WIDTH = 17


def _scope(scope_id: str) -> str:
    return GLOBAL_SCOPE if scope_id == "global" else guild_scope(int(scope_id))


def _cell(name: str) -> str:
    name = name.replace("`", "'")
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def _rating(value: float) -> int:
    return round(value)


async def leaderboard_message(bot: Any, scope_id: str, page: int) -> tuple[str, discord.ui.View | None]:
    """The text and buttons of one leaderboard page (the last one if ``page`` is past it)."""
    scope = _scope(scope_id)
    guild_id = None if scope_id == "global" else int(scope_id)
    total = await bot.db.leaderboard_size(scope)
    if total == 0:
        where = t("leaderboard.where.global" if guild_id is None else "leaderboard.where.server")
        raise ServiceError("leaderboard_empty", where=where)
    pages = math.ceil(total / PAGE_SIZE)
    page = max(0, min(page, pages - 1))
    rows = await bot.db.leaderboard_page(scope, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    table = table_for(bot)
    lines = [t("leaderboard.header")]
    for rank, row in enumerate(rows, start=page * PAGE_SIZE + 1):
        name = await table.name(row.user_id, guild_id)
        lines.append(
            t(
                "leaderboard.line",
                rank=rank,
                name=_cell(name),
                rating=_rating(row.rating),
                record=f"{row.wins}-{row.losses}-{row.draws}",
                games=row.games,
            ).rstrip()
        )
    if guild_id is None:
        title = t("leaderboard.title.global")
    else:
        guild = bot.get_guild(guild_id)
        title = t("leaderboard.title.server", guild=guild.name if guild else t("leaderboard.this_server"))
    body = "\n".join(lines)
    text = f"**{title}**\n```\n{body}\n```"
    if pages == 1:
        return text, None
    text += "\n" + t("leaderboard.page", page=page + 1, pages=pages)
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardButton(scope_id, page - 1, "p", disabled=page == 0))
    view.add_item(LeaderboardButton(scope_id, page + 1, "n", disabled=page + 1 >= pages))
    return text, view


class LeaderboardButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"st:lb:(?P<scope>global|\d+):(?P<page>-?\d+):(?P<dir>[pn])",
):
    """Shows page ``page`` of a leaderboard; anyone may turn the pages."""

    def __init__(self, scope_id: str, page: int, direction: str, *, disabled: bool = False) -> None:
        self.scope_id = scope_id
        self.page = page
        super().__init__(
            discord.ui.Button(
                label=t("leaderboard.prev" if direction == "p" else "leaderboard.next"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:lb:{scope_id}:{max(page, 0)}:{direction}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(match["scope"], int(match["page"]), match["dir"])

    async def run(self, interaction: discord.Interaction) -> None:
        text, view = await leaderboard_message(interaction.client, self.scope_id, self.page)
        await interaction.response.edit_message(content=text, view=view)


@app_commands.command(name="leaderboard", description=t("cmd.leaderboard"))
@app_commands.describe(scope=t("cmd.leaderboard.scope"))
@app_commands.choices(
    scope=[
        app_commands.Choice(name=t("choice.scope.server"), value="server"),
        app_commands.Choice(name=t("choice.scope.global"), value="global"),
    ]
)
async def leaderboard(interaction: discord.Interaction, scope: str | None = None) -> None:
    if scope is None:
        scope = "global" if interaction.guild_id is None else "server"
    if scope == "server" and interaction.guild_id is None:
        raise ServiceError("leaderboard_server_dm")
    scope_id = "global" if scope == "global" else str(interaction.guild_id)
    text, view = await leaderboard_message(interaction.client, scope_id, 0)
    await interaction.response.send_message(
        text, view=view or discord.utils.MISSING, allowed_mentions=discord.AllowedMentions.none()
    )


def _rating_line(key: str, row: Any) -> str:
    return t(key, rating=_rating(row.rating), games=row.games)


@app_commands.command(name="stats", description=t("cmd.stats"))
@app_commands.describe(member=t("cmd.stats.member"))
async def stats(interaction: discord.Interaction, member: discord.User | None = None) -> None:
    bot: Any = interaction.client
    target = member or interaction.user
    table = table_for(bot)
    found = None
    if not target.bot:
        found = await player_stats(
            bot.db, target.id, guild_id=interaction.guild_id, caller_id=interaction.user.id
        )
    if found is None:
        if target.id == interaction.user.id:
            raise ServiceError("stats_none_self")
        raise ServiceError("stats_none", name=target.display_name)
    table.remember_name(target)
    name = target.display_name
    lines = [t("stats.title", name=name)]
    if interaction.guild_id is not None:
        if found.guild_rating is not None:
            lines.append(_rating_line("stats.rating_server", found.guild_rating))
        else:
            lines.append(t("stats.rating_server_none"))
    if found.global_rating is not None:
        lines.append(_rating_line("stats.rating_global", found.global_rating))
    lines.append(
        t("stats.record", games=found.games, wins=found.wins, losses=found.losses, draws=found.draws)
    )
    lines.append(t("stats.stones", stones=found.stones_won))
    lines.append(t("stats.streak", current=found.current_streak, best=found.best_streak))
    lines.append(t("stats.recent"))
    for recent in found.recent:
        opponent = await table.name(recent.opponent_id, interaction.guild_id)
        lines.append(
            t(
                "stats.recent_line",
                game_id=recent.game_id,
                outcome=t(f"stats.outcome.{recent.outcome}"),
                opponent=opponent,
                stones=f"{recent.stones[0]}-{recent.stones[1]}",
            )
        )
    if found.head_to_head is not None:
        wins, losses, draws = found.head_to_head
        # The caller's record against the member, told from the member's side.
        if wins + losses + draws:
            lines.append(t("stats.h2h", name=name, wins=losses, losses=wins, draws=draws))
        else:
            lines.append(t("stats.h2h_none", name=name))
    await interaction.response.send_message("\n".join(lines), allowed_mentions=discord.AllowedMentions.none())


COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (leaderboard, stats)


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("schotten")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.leaderboard needs the /schotten group of cogs.game, loaded first")
    for command in COMMANDS:
        # A copy per bot: add_command sets the command's parent, and tests run many bots.
        group.add_command(command._copy_with(parent=group, binding=None), override=True)
    bot.add_dynamic_items(LeaderboardButton)


async def teardown(bot: commands.Bot) -> None:
    group = bot.tree.get_command("schotten")
    if isinstance(group, app_commands.Group):
        for command in COMMANDS:
            group.remove_command(command.name)
    bot.remove_dynamic_items(LeaderboardButton)

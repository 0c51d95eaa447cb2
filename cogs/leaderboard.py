"""The texts of ``/schotten leaderboard`` and ``/schotten stats``.

The leaderboard is paged with two buttons (:class:`LeaderboardButton`) whose
``custom_id`` carries the scope and the page (``st:lb:<global|guild id>:<page>:<p|n>``),
so they keep working after a restart; a button never leads past the last page (it is
disabled there, and a page that no longer exists shows the last one).
"""

from __future__ import annotations

import re
from typing import Self

import discord

from bot.app import SchottenBot
from bot.community.ratings import GLOBAL_SCOPE, guild_scope
from bot.games.errors import ServiceError
from bot.storage import RatingRow
from bot.text import i18n
from bot.text.catalogue import t
from cogs.ui import Interaction
from cogs.ui.components import Button, Component, buttons
from cogs.ui.replies import public_language

NAME_WIDTH = 17


def _cell(name: str) -> str:
    """A name in the leaderboard's code block: no backtick can close it."""
    name = name.replace("`", "'")
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def _text(name: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


async def leaderboard_message(
    bot: SchottenBot, scope_id: str, page: int
) -> tuple[str, discord.ui.View | None]:
    """The text and buttons of one leaderboard page (the last one if ``page`` is past it)."""
    guild_id = None if scope_id == "global" else int(scope_id)
    scope = GLOBAL_SCOPE if guild_id is None else guild_scope(guild_id)
    found = await bot.rankings.page(scope, page)
    if found is None:
        where = t("leaderboard.where.global" if guild_id is None else "leaderboard.where.server")
        raise ServiceError("leaderboard_empty", where=where)
    lines = [t("leaderboard.header")]
    for rank, row in enumerate(found.rows, start=found.first_rank):
        name = await bot.names.name(row.user_id, guild_id)
        lines.append(
            t(
                "leaderboard.line",
                rank=rank,
                name=_cell(name),
                rating=round(row.rating),
                record=f"{row.wins}-{row.losses}-{row.draws}",
                games=row.games,
            ).rstrip()
        )
    if guild_id is None:
        title = t("leaderboard.title.global")
    else:
        guild = bot.get_guild(guild_id)
        title = t(
            "leaderboard.title.server", guild=_text(guild.name) if guild else t("leaderboard.this_server")
        )
    body = "\n".join(lines)
    text = f"**{title}**\n```\n{body}\n```"
    if found.pages > 1:
        text += "\n" + t("leaderboard.page", page=found.page + 1, pages=found.pages)
    return text, leaderboard_view(scope_id, found.page, found.pages)


class LeaderboardButton(
    Component[Button], template=r"st:lb:(?P<scope>global|\d+):(?P<page>-?\d+):(?P<dir>[pn])"
):
    """Shows page ``page`` of a leaderboard; anyone may turn the pages."""

    def __init__(self, scope_id: str, page: int, direction: str, *, disabled: bool = False) -> None:
        self.scope_id, self.page = scope_id, page
        super().__init__(
            discord.ui.Button(
                label=t("leaderboard.prev" if direction == "p" else "leaderboard.next"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:lb:{scope_id}:{max(page, 0)}:{direction}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["scope"], int(match["page"]), match["dir"])

    async def run(self, interaction: Interaction) -> None:
        with i18n.use(await public_language(interaction)):
            text, view = await leaderboard_message(interaction.client, self.scope_id, self.page)
        await interaction.response.edit_message(content=text, view=view)


def leaderboard_view(scope_id: str, page: int, pages: int) -> discord.ui.View | None:
    if pages <= 1:
        return None
    return buttons(
        LeaderboardButton(scope_id, page - 1, "p", disabled=page == 0),
        LeaderboardButton(scope_id, page + 1, "n", disabled=page + 1 >= pages),
    )


def _rating_line(key: str, row: RatingRow) -> str:
    return t(key, rating=round(row.rating), games=row.games)


async def stats_text(
    bot: SchottenBot, target: discord.User | discord.Member, *, guild_id: int | None, caller_id: int
) -> str:
    """``/schotten stats``: rating, record, streaks, recent games, and the caller's record
    against ``target``."""
    found = None
    if not target.bot:
        found = await bot.rankings.player(target.id, guild_id=guild_id, caller_id=caller_id)
    if found is None:
        if target.id == caller_id:
            raise ServiceError("stats_none_self")
        raise ServiceError("stats_none", name=_text(target.display_name))
    bot.names.remember(target)
    name = _text(target.display_name)
    lines = [t("stats.title", name=name)]
    if guild_id is not None:
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
        opponent = await bot.names.name(recent.opponent_id, guild_id)
        lines.append(
            t(
                "stats.recent_line",
                game_id=recent.game_id,
                outcome=t(f"stats.outcome.{recent.outcome}"),
                opponent=_text(opponent),
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
    return "\n".join(lines)


__all__ = ["LeaderboardButton", "leaderboard_message", "leaderboard_view", "stats_text"]

"""The texts of ``/schotten leaderboard`` and ``/schotten stats``.

The leaderboard is public, its code block at most 40 columns wide in every language.
It is paged with two buttons (:class:`LeaderboardButton`) whose ``custom_id`` carries
the scope and the page (``st:lb:<global|guild id>:<page>:<p|n>``), so they keep working
after a restart; a button never leads past the last page (it is disabled there, and a
page that no longer exists shows the last one). A button acts only on a leaderboard
message, and a server's leaderboard only in that server.

Stats are a private reply, of the games the asker may see there
(:class:`~bot.storage.Audience`).
"""

from __future__ import annotations

import re
from typing import Self

import discord

from bot.app import SchottenBot
from bot.community.ratings import GLOBAL_SCOPE, guild_scope
from bot.community.stats import LeaderboardPage
from bot.games.errors import ServiceError
from bot.storage import Audience, RatingRow
from bot.text import i18n
from bot.text.catalogue import t
from cogs.ui import Interaction
from cogs.ui.checks import BadControl, bounded, require_message_of, snowflake
from cogs.ui.components import Button, Component, buttons
from cogs.ui.replies import defer_update, public_language, update

WIDTH = 40  # a code block's lines, in every language: a phone shows 40 columns unwrapped
NAME_WIDTH = 17  # at most; less when the numbers or the headings need the room
MAX_PAGE = 100_000  # far past any leaderboard's last page; a larger number is no page at all


def _cell(name: str, width: int) -> str:
    """A name in the leaderboard's code block: no backtick can close it."""
    name = name.replace("`", "'")
    return name if len(name) <= width else name[: width - 1] + "…"


def _table(rows: list[tuple[int, str, int, str, int]]) -> list[str]:
    """The leaderboard's lines (rank, name, rating, W-L-D, games), headings first, each
    at most :data:`WIDTH` columns: the columns are as wide as their widest cell or
    heading, and the names get what is left (up to :data:`NAME_WIDTH`)."""
    heads = [t(f"leaderboard.col.{column}") for column in ("rank", "player", "rating", "record", "games")]
    cells = [[str(rank), name, str(rating), record, str(games)] for rank, name, rating, record, games in rows]
    widths = [max(len(line[i]) for line in [heads, *cells]) for i in range(5)]
    widths[1] = max(4, min(NAME_WIDTH, WIDTH - (widths[0] + widths[2] + widths[3] + widths[4] + 4)))
    aligned = []
    for line in [heads, *cells]:
        rank, name, rating, record, games = line
        text = " ".join(
            (
                rank.rjust(widths[0]),
                _cell(name, widths[1]).ljust(widths[1]),
                rating.rjust(widths[2]),
                record.ljust(widths[3]),
                games.rjust(widths[4]),
            )
        )
        aligned.append(text.rstrip()[:WIDTH])  # the last resort of absurd numbers
    return aligned


def _text(name: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


async def leaderboard_page(bot: SchottenBot, scope_id: str, page: int) -> LeaderboardPage:
    """One page of ratings (the last one if ``page`` is past it); refused if empty."""
    guild_id = None if scope_id == "global" else int(scope_id)
    scope = GLOBAL_SCOPE if guild_id is None else guild_scope(guild_id)
    found = await bot.rankings.page(scope, page)
    if found is None:
        where = t("leaderboard.where.global" if guild_id is None else "leaderboard.where.server")
        raise ServiceError("leaderboard_empty", where=where)
    return found


async def leaderboard_message(
    bot: SchottenBot, scope_id: str, page: int, found: LeaderboardPage | None = None
) -> tuple[str, discord.ui.View | None]:
    """The text and buttons of one leaderboard page (the last one if ``page`` is past
    it); ``found``: that page, read already."""
    guild_id = None if scope_id == "global" else int(scope_id)
    if found is None:
        found = await leaderboard_page(bot, scope_id, page)
    rows = [
        (
            rank,
            await bot.names.name(row.user_id, guild_id),
            round(row.rating),
            f"{row.wins}-{row.losses}-{row.draws}",
            row.games,
        )
        for rank, row in enumerate(found.rows, start=found.first_rank)
    ]
    if guild_id is None:
        title = t("leaderboard.title.global")
    else:
        guild = bot.get_guild(guild_id)
        title = t(
            "leaderboard.title.server", guild=_text(guild.name) if guild else t("leaderboard.this_server")
        )
    body = "\n".join(_table(rows))
    text = f"**{title}**\n```\n{body}\n```"
    if found.pages > 1:
        text += "\n" + t("leaderboard.page", page=found.page + 1, pages=found.pages)
    return text, leaderboard_view(scope_id, found.page, found.pages)


class LeaderboardButton(
    Component[Button], template=r"st:lb:(?P<scope>global|\d+):(?P<page>-?\d+):(?P<dir>[pn])"
):
    """Shows page ``page`` of a leaderboard; anyone may turn the pages. It acts only on
    a leaderboard, and a server's only in that server."""

    refusal: ServiceError | None = None  # a forged or mangled id: refused when clicked

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
        try:
            scope_id = match["scope"]
            if scope_id != "global":
                scope_id = str(snowflake(scope_id))
            page = match["page"]
            # A page before the first is the first (buttons of old versions said -1).
            return cls(scope_id, 0 if page.startswith("-") else bounded(page, MAX_PAGE), match["dir"])
        except BadControl as error:
            item = cls("global", 0, match["dir"])  # a stand-in that refuses the click
            item.refusal = error
            return item

    async def run(self, interaction: Interaction) -> None:
        if self.refusal is not None:
            raise self.refusal
        require_message_of(interaction, "st:lb:")
        if self.scope_id != "global" and self.scope_id != str(interaction.guild_id):
            raise BadControl()  # another server's ratings
        await defer_update(interaction)  # before the database: answered within 3 s
        with i18n.use(await public_language(interaction)):
            text, view = await leaderboard_message(interaction.client, self.scope_id, self.page)
        await update(interaction, content=text, view=view)


def leaderboard_view(scope_id: str, page: int, pages: int) -> discord.ui.View | None:
    if pages <= 1:
        return None
    return buttons(
        LeaderboardButton(scope_id, page - 1, "p", disabled=page == 0),
        LeaderboardButton(scope_id, page + 1, "n", disabled=page + 1 >= pages),
    )


def _rating_line(key: str, row: RatingRow) -> str:
    return t(key, rating=round(row.rating), games=row.games)


async def stats_text(bot: SchottenBot, target: discord.User | discord.Member, *, audience: Audience) -> str:
    """``/schotten stats``: ratings (this server's, the global one), then the record,
    streaks and recent games of what ``audience`` may see (the games of its server and
    the asker's own games in DMs), and the asker's record against ``target`` there."""
    guild_id, caller_id = audience.guild_id, audience.asker_id
    found = None
    if not target.bot:
        found = await bot.rankings.player(target.id, audience=audience)
    if found is None:
        here = "_dm" if guild_id is None else "_here"
        if target.id == caller_id:
            raise ServiceError(f"stats_none_self{here}")
        raise ServiceError(f"stats_none{here}", name=_text(target.display_name))
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

"""Link buttons to the web pages (``bot/web``): Watch, Replay, Ladder, and a player's own
seat at the table (Play on the board: in their DM and private replies only); beside
Watch and Play on the board, Play in Discord (``cogs.ui.activity``) when the Activity is on. None when
the web pages are off or the server turned its links off (``/schotten web``)."""

from __future__ import annotations

from contextlib import suppress
from typing import Literal, overload

import discord

from bot.app import SchottenBot
from bot.games.live import LiveGame
from bot.text.catalogue import t
from cogs.ui.activity import with_activity_button

LinkKind = Literal["watch", "replay", "ladder"]


@overload
async def with_link(
    view: discord.ui.View, bot: SchottenBot, kind: LinkKind, object_id: int, guild_id: int | None
) -> discord.ui.View: ...


@overload
async def with_link(
    view: None, bot: SchottenBot, kind: LinkKind, object_id: int, guild_id: int | None
) -> discord.ui.View | None: ...


@overload
async def with_link(
    view: discord.ui.View | None, bot: SchottenBot, kind: LinkKind, object_id: int, guild_id: int | None
) -> discord.ui.View | None: ...


async def with_link(
    view: discord.ui.View | None, bot: SchottenBot, kind: LinkKind, object_id: int, guild_id: int | None
) -> discord.ui.View | None:
    """``view`` with a link button to the page of ``kind`` added (a new view if None)."""
    web = bot.web
    links = None if web is None else web.links
    if links is None or not await links.enabled(guild_id):
        return view
    url = {"watch": links.watch, "replay": links.replay, "ladder": links.ladder}[kind](object_id)
    view = view or discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=t(f"web.link.{kind}"), url=url))
    if kind == "watch":  # a board: its game may be played in Discord too
        return with_activity_button(view, bot, object_id) or view
    return view


async def with_seat_link(
    view: discord.ui.View | None, bot: SchottenBot, record: LiveGame, player: int
) -> discord.ui.View | None:
    """``view`` with "Play on the board", the link to ``player``'s own seat at the table,
    while the game is played. Only for a message its player alone sees (their DM, an
    ephemeral reply): the link carries their hand. In the first row with room; a message
    with five full rows (a ruse's steps with many claims) goes without it, rarely."""
    web = bot.web
    links = None if web is None else web.links
    if links is None or not record.is_active or not await links.enabled(record.guild_id):
        return view
    view = view or discord.ui.View(timeout=None)
    with suppress(ValueError):  # five full rows
        view.add_item(
            discord.ui.Button(
                style=discord.ButtonStyle.link, label=t("web.link.seat"), url=links.seat(record.id, player)
            )
        )
    return with_activity_button(view, bot, record.id)

"""Link buttons to the web pages (``bot/web``): Watch, Replay, Ladder. None when the
web pages are off or the server turned its links off (``/schotten web``)."""

from __future__ import annotations

from typing import Literal, overload

import discord

from bot.app import SchottenBot
from bot.text.catalogue import t

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
    return view

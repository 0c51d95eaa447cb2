"""Play in Discord: the button under boards and hands that opens the table inside Discord
(the Activity, ``bot/web/activity.py``).

A click answers with Discord's ``LAUNCH_ACTIVITY`` callback (``launch_activity()``) when
the Activity is configured (``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET``) and the
server's links are on; otherwise, or if Discord refuses to launch it, a private answer
with the web link: the clicker's own seat if they play the game (the answer is theirs
alone), else the live page. The button is only added where the Activity is configured.
"""

from __future__ import annotations

import logging
import re
from contextlib import suppress
from typing import Self

import discord

from bot.app import SchottenBot
from bot.games.errors import GameNotFound
from bot.text.catalogue import t
from cogs.ui import Interaction
from cogs.ui.components import Button, Component
from cogs.ui.replies import answer

log = logging.getLogger(__name__)


class PlayInDiscord(Component[Button], template=r"st:act:(?P<game>[0-9]{1,19})"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.primary,
                label=t("activity.play_in_discord"),
                custom_id=f"st:act:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction) -> None:
        bot = interaction.client
        web = bot.web
        links = None if web is None else web.links
        if links is None:
            await answer(interaction, t("web.links_unavailable"))
            return
        try:
            record = await bot.service.get(self.game_id)
        except GameNotFound:
            record = None
        # A custom id can be forged: a game of another server (or none) is not shown to
        # a member who does not play it.
        if record is None or (
            record.guild_id != interaction.guild_id and interaction.user.id not in record.players
        ):
            await answer(interaction, t("error.game_not_found"))
            return
        if not await links.enabled(record.guild_id):
            await answer(interaction, t("web.links_unavailable"))
            return
        if bot.settings.activity:
            try:
                await interaction.response.launch_activity()
                return
            except discord.HTTPException as error:  # not launchable here (a DM, an old client)
                log.info("Game %d: Discord refused to launch the Activity (%s)", self.game_id, error.status)
        view = discord.ui.View(timeout=None)
        if record.is_active and interaction.user.id in record.players:
            url, label = links.seat(record.id, record.players.index(interaction.user.id)), t("web.link.seat")
        else:
            url, label = links.watch(self.game_id), t("web.link.watch")
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label, url=url))
        await answer(interaction, t("activity.use_link"), view=view)


def with_activity_button(
    view: discord.ui.View | None, bot: SchottenBot, game_id: int
) -> discord.ui.View | None:
    """``view`` with Play in Discord when the Activity is configured (a message with five
    full rows goes without it)."""
    if not bot.settings.activity or bot.web is None:
        return view
    view = view or discord.ui.View(timeout=None)
    with suppress(ValueError):
        view.add_item(PlayInDiscord(game_id))
    return view

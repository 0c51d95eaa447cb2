"""The Rematch button on the end-of-game announcement (issue 6).

Either player may press it; that makes an ordinary challenge (same options, and the
same target for a match) from the presser to the other player, who accepts or
declines it with the usual buttons (:mod:`cogs.challenge`). The button is a
DynamicItem keyed by the finished game's id (``st:rematch:<game>``), so it works after
a restart. Pressing it again while the offer is open, or while the rematch is being
played, is refused like a second challenge would be.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ext import commands

from bot.errors import GameFinished, ServiceError
from bot.text import t
from cogs.components import _Guarded


def rematch_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id))
    return view


class RematchButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"st:rematch:(?P<game>\d+)"
):
    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=t("rematch.button"),
                style=discord.ButtonStyle.primary,
                custom_id=f"st:rematch:{game_id}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await ask_rematch(interaction, self.game_id)


async def ask_rematch(interaction: discord.Interaction, game_id: int) -> None:
    from cogs.challenge import create_challenge

    bot: Any = interaction.client
    record = await bot.service.get(game_id)
    if record.is_active:
        raise GameFinished(game_id)  # pragma: no cover - the button is only on finished games
    if record.player_of(interaction.user.id) is None:
        raise ServiceError("rematch_not_player", game_id=game_id)
    if interaction.guild is None or record.channel_id is None:
        raise ServiceError("rematch_no_channel")
    points = None
    if record.match_id is not None:
        match = await bot.db.get_match(record.match_id)
        if match is not None and match.status == "active":
            raise ServiceError("rematch_match_running", match_id=match.id)
        points = None if match is None else match.target
    other_id = record.opponent_of(interaction.user.id)
    opponent = interaction.guild.get_member(other_id)
    if opponent is None:
        try:
            opponent = await interaction.guild.fetch_member(other_id)
        except discord.NotFound:
            raise ServiceError("not_a_member") from None
    await create_challenge(interaction, opponent, record.options, points=points, rematch_of=game_id)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(RematchButton)


async def teardown(bot: commands.Bot) -> None:
    bot.remove_dynamic_items(RematchButton)

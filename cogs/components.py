"""The game's buttons and selects as DynamicItems.

A DynamicItem is rebuilt from its ``custom_id`` on every click, so nothing is kept in
memory: after a restart every button and select still works. The ids carry what the
click means (``st:play:<game>:<version>:<card>:<stone>``); the version lets the service
refuse a control from an earlier turn (``StaleControl``) without changing the game.

Callbacks delegate to :mod:`cogs.table`; errors go to :func:`cogs.errors.reply_error`
because discord.py only logs exceptions raised by DynamicItems.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord.ext import commands

from bot.text import t

_CARD = r"[A-Za-z0-9]+|-"


class _Guarded:
    """Mixin for the DynamicItems below: runs :meth:`run` and answers every exception
    through the one error handler."""

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.run(interaction)
        except Exception as error:
            from cogs.errors import is_user_error, reply_error

            if is_user_error(error):
                await reply_error(interaction, error)
            else:
                # A bug: let the tree's handler log it (and tests see it), then apologise.
                await interaction.client.tree.on_error(interaction, error)  # type: ignore[attr-defined]

    async def run(self, interaction: discord.Interaction) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


def _table(interaction: discord.Interaction) -> Any:
    from cogs.table import table_for

    return table_for(interaction.client)


# ------------------------------------------------------------------- challenges


class AcceptButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"st:chal:(?P<id>\d+):accept"
):
    def __init__(self, challenge_id: int, *, disabled: bool = False) -> None:
        self.challenge_id = challenge_id
        super().__init__(
            discord.ui.Button(
                label=t("challenge.accept"),
                style=discord.ButtonStyle.success,
                custom_id=f"st:chal:{challenge_id}:accept",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["id"]))

    async def run(self, interaction: discord.Interaction) -> None:
        from cogs.challenge import answer_challenge

        await answer_challenge(interaction, self.challenge_id, accept=True)


class DeclineButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"st:chal:(?P<id>\d+):decline"
):
    def __init__(self, challenge_id: int, *, disabled: bool = False) -> None:
        self.challenge_id = challenge_id
        super().__init__(
            discord.ui.Button(
                label=t("challenge.decline"),
                style=discord.ButtonStyle.danger,
                custom_id=f"st:chal:{challenge_id}:decline",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["id"]))

    async def run(self, interaction: discord.Interaction) -> None:
        from cogs.challenge import answer_challenge

        await answer_challenge(interaction, self.challenge_id, accept=False)


# ------------------------------------------------------------------------ board


class ShowHandButton(_Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"st:hand:(?P<game>\d+)"):
    """On the public board: answers the clicking player, ephemerally, with their hand
    and controls (the way to play with DMs closed)."""

    def __init__(self, game_id: int, *, disabled: bool = False) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=t("board.show_hand"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:hand:{game_id}",
                disabled=disabled,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await _table(interaction).show_hand(interaction, self.game_id)


# --------------------------------------------------------------- hand controls


class CardSelect(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"st:card:(?P<game>\d+):(?P<version>\d+):(?P<stone>\d+)",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        stone: int,
        *,
        options: list[discord.SelectOption] | None = None,
        item: discord.ui.Select | None = None,
    ) -> None:
        self.game_id, self.version, self.stone = game_id, version, stone
        super().__init__(
            item
            or discord.ui.Select(
                custom_id=f"st:card:{game_id}:{version}:{stone}",
                placeholder=t("controls.card"),
                options=options or [],
                row=0,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), int(match["stone"]), item=item)

    async def run(self, interaction: discord.Interaction) -> None:
        card = self.item.values[0] if self.item.values else None
        await _table(interaction).select(
            interaction, self.game_id, self.version, card=card, stone=self.stone or None
        )


class StoneSelect(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"st:stone:(?P<game>\d+):(?P<version>\d+):(?P<card>{_CARD})",
):
    def __init__(
        self,
        game_id: int,
        version: int,
        card: str,
        *,
        options: list[discord.SelectOption] | None = None,
        item: discord.ui.Select | None = None,
    ) -> None:
        self.game_id, self.version, self.card = game_id, version, card
        super().__init__(
            item
            or discord.ui.Select(
                custom_id=f"st:stone:{game_id}:{version}:{card}",
                placeholder=t("controls.stone"),
                options=options or [],
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), match["card"], item=item)

    async def run(self, interaction: discord.Interaction) -> None:
        stone = int(self.item.values[0]) if self.item.values else None
        card = None if self.card == "-" else self.card
        await _table(interaction).select(interaction, self.game_id, self.version, card=card, stone=stone)


class PlayButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"st:play:(?P<game>\d+):(?P<version>\d+):(?P<card>{_CARD}):(?P<stone>\d+)",
):
    def __init__(self, game_id: int, version: int, card: str, stone: int, *, disabled: bool = False) -> None:
        self.game_id, self.version, self.card, self.stone = game_id, version, card, stone
        super().__init__(
            discord.ui.Button(
                label=t("controls.play"),
                style=discord.ButtonStyle.primary,
                custom_id=f"st:play:{game_id}:{version}:{card}:{stone}",
                disabled=disabled,
                row=2,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), match["card"], int(match["stone"]))

    async def run(self, interaction: discord.Interaction) -> None:
        if self.card == "-" or not self.stone:
            from bot.errors import ServiceError

            raise ServiceError("choose_first")
        await _table(interaction).play_text(
            interaction, self.game_id, f"play {self.card} {self.stone}", self.version
        )


class PassButton(
    _Guarded, discord.ui.DynamicItem[discord.ui.Button], template=r"st:pass:(?P<game>\d+):(?P<version>\d+)"
):
    def __init__(self, game_id: int, version: int) -> None:
        self.game_id, self.version = game_id, version
        super().__init__(
            discord.ui.Button(
                label=t("controls.pass"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:pass:{game_id}:{version}",
                row=2,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await _table(interaction).play_text(interaction, self.game_id, "pass", self.version)


class ClaimButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"st:claim:(?P<game>\d+):(?P<version>\d+):(?P<stone>\d+)",
):
    def __init__(self, game_id: int, version: int, stone: int, *, row: int | None = None) -> None:
        self.game_id, self.version, self.stone = game_id, version, stone
        super().__init__(
            discord.ui.Button(
                label=t("controls.claim", stone=stone),
                style=discord.ButtonStyle.success,
                custom_id=f"st:claim:{game_id}:{version}:{stone}",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), int(match["stone"]))

    async def run(self, interaction: discord.Interaction) -> None:
        await _table(interaction).play_text(interaction, self.game_id, f"claim {self.stone}", self.version)


class DrawButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"st:draw:(?P<game>\d+):(?P<version>\d+):(?P<deck>clan|tactic|none)",
):
    """Ends the turn by drawing, when the player could still claim first (standard
    timing) or must choose a deck (tactics)."""

    def __init__(self, game_id: int, version: int, deck: str, *, tactics: bool = False) -> None:
        self.game_id, self.version, self.deck = game_id, version, deck
        label = t(f"controls.draw.{deck}") if tactics else t("controls.end_turn")
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:draw:{game_id}:{version}:{deck}",
                row=2,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), match["deck"])

    async def run(self, interaction: discord.Interaction) -> None:
        await _table(interaction).play_text(interaction, self.game_id, f"draw {self.deck}", self.version)


DYNAMIC_ITEMS = (
    AcceptButton,
    DeclineButton,
    ShowHandButton,
    CardSelect,
    StoneSelect,
    PlayButton,
    PassButton,
    ClaimButton,
    DrawButton,
)


async def setup(bot: commands.Bot) -> None:
    # Registered once per bot: a click on any of these ids, in any message, ever,
    # reaches the matching class (that is what survives restarts).
    bot.add_dynamic_items(*DYNAMIC_ITEMS)

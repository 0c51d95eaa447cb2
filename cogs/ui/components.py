"""The base of every button and select: a DynamicItem that answers its own clicks.

A DynamicItem is rebuilt from its ``custom_id`` on every click, so nothing is kept in
memory: after a restart every button and select still works. The ids carry what the
click means (``st:play:<game>:<version>:<card>:<stone>``); the version lets the service
refuse a control from an earlier turn (``StaleControl``) without changing the game.

Each component lives next to the code it calls (the hand controls with a player's
requests in :mod:`cogs.table.requests`, the challenge and rematch buttons in
:mod:`cogs.table.lobby`, the page buttons in :mod:`cogs.leaderboard` and :mod:`cogs.history`):
its :meth:`Component.run` decodes nothing more than its id and does the work, reaching
the services through ``interaction.client``. Every subclass is registered as it is
defined (:func:`every`); the extension adds them all to the bot. Errors are answered by
:func:`cogs.ui.replies.report` because discord.py only logs exceptions raised in
components.
"""

from __future__ import annotations

import re
from typing import Self, TypeVar

import discord

from cogs.ui import ClientT, Interaction, ours
from cogs.ui.replies import report

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
ItemT = TypeVar("ItemT", Button, Select)
ComponentClass = type[discord.ui.DynamicItem[Button]] | type[discord.ui.DynamicItem[Select]]

_EVERY: list[ComponentClass] = []


class Component(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """The base of every component. Subclasses give the real ``template``, decode a
    match of it in :meth:`from_match` and answer a click in :meth:`run`; the base's own
    template matches nothing."""

    def __init_subclass__(cls, *, template: str | re.Pattern[str]) -> None:
        super().__init_subclass__(template=template)
        _EVERY.append(cls)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> Self:
        # discord.py then fills this item's state (a select's values) from the click.
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        ours_ = ours(interaction)
        await ours_.client.enter(interaction)  # never waits long for the database
        try:
            await self.run(ours_)
        except Exception as error:
            await report(ours_, error)

    async def run(self, interaction: Interaction) -> None:
        raise NotImplementedError


def every() -> tuple[ComponentClass, ...]:
    """Every component class defined so far (the modules that define them imported)."""
    return tuple(_EVERY)


def select_menu(
    custom_id: str, placeholder: str, options: list[discord.SelectOption], row: int, *, choose: int = 1
) -> Select:
    """A select of exactly ``choose`` options."""
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=options,
        row=row,
        min_values=choose,
        max_values=choose,
    )


def buttons(*items: Component[Button]) -> discord.ui.View:
    """A message's row of buttons, kept as long as the message (no timeout)."""
    controls = discord.ui.View(timeout=None)
    for item in items:
        controls.add_item(item)
    return controls


__all__ = ["Button", "Component", "ComponentClass", "ItemT", "Select", "buttons", "every", "select_menu"]

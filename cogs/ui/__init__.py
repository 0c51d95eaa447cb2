"""The cog layer's building blocks, bottom to top (each module imports only the ones
above it in this list):

* :mod:`cogs.ui.replies`: answering an interaction with an error, privately;
* :mod:`cogs.ui.checks`: what a component checks of a forgeable click before acting
  (the message's kind, numbers the databases can hold);
* :mod:`cogs.ui.components`: the base class of every button and select (a DynamicItem
  that answers its own click) and the registry of their classes;
* :mod:`cogs.ui.translator`: the command picker in each user's language.

The buttons and selects themselves live next to the code they call. Nothing here keeps
state, calls a service or sends a message of its own accord.
"""

from __future__ import annotations

from typing import TypeAlias, TypeVar, cast

import discord

from bot.app import SchottenBot

#: Every interaction the bot receives: ``interaction.client`` is the typed bot.
Interaction: TypeAlias = discord.Interaction[SchottenBot]

ClientT = TypeVar("ClientT", bound=discord.Client)


def ours(interaction: discord.Interaction[ClientT]) -> Interaction:
    """An interaction as discord.py hands it to a component, typed as the bot's own."""
    if not isinstance(interaction.client, SchottenBot):
        raise TypeError(f"not a SchottenBot: {type(interaction.client).__name__}")
    return cast(Interaction, interaction)


__all__ = ["ClientT", "Interaction", "ours"]

"""Checks a component makes of its click before it acts: the click is anybody's to
forge (any custom id on any message the user can see, with any numbers in it), so a
control

* acts only on a message of its own kind (:func:`require_message_of`): a page button
  forged onto a game's board must not rewrite the board;
* acts only on the game, challenge or tournament of the message it is on
  (:func:`require_own_subject`): a Play button of game 2 forged onto the DM of game 1,
  or an Accept sent from a game's DM, is refused;
* reads only numbers the databases can hold (:func:`snowflake`, :func:`bounded`): a
  30-digit id is bad input, refused privately like any other, not a crash.

Each refusal is a :class:`~bot.games.errors.ServiceError`, answered privately by the
component's error reply and not logged as a failure.
"""

from __future__ import annotations

import re
from typing import Literal

import discord

from bot.games.errors import ServiceError
from bot.games.live import LiveGame
from cogs.ui import Interaction
from cogs.ui.replies import defer_update

MAX_ID = 2**63 - 1  # Discord's ids (and the games') as both databases store them: signed 64 bits


class BadControl(ServiceError):
    """A control whose id no message of ours carries: forged, or mangled."""

    code = "bad_control"
    template = "That control is not one of mine."


class OutdatedControl(ServiceError):
    """A control of an earlier version of the bot whose id lacks what it needs now."""

    code = "control_outdated"
    template = "That control is out of date."


def snowflake(text: str) -> int:
    """An id from a custom id: a positive number that fits the databases."""
    value = int(text)
    if not 0 < value <= MAX_ID:
        raise BadControl()
    return value


def bounded(text: str, limit: int) -> int:
    """A page or a step from a custom id: 0 to ``limit``."""
    if len(text) > len(str(limit)):
        raise BadControl()
    value = int(text)
    if not 0 <= value <= limit:
        raise BadControl()
    return value


def custom_ids(interaction: Interaction) -> list[str]:
    """The custom ids of the components on the clicked message."""
    message = interaction.message
    if message is None:
        return []
    found = []
    for row in message.components:
        for item in getattr(row, "children", ()):
            custom_id = getattr(item, "custom_id", None)
            if custom_id:
                found.append(custom_id)
    return found


def require_message_of(
    interaction: Interaction, prefix: str | tuple[str, ...], *, private: bool = False
) -> list[str]:
    """Refuse a click unless every control on its message is one of ``prefix`` (or of
    the prefixes: the message is of the control's own kind) and, when ``private``, the
    message is a reply only the user sees. Returns the message's custom ids."""
    ids = custom_ids(interaction)
    if not ids or not all(custom_id.startswith(prefix) for custom_id in ids):
        raise BadControl()
    message = interaction.message
    if private and (message is None or (message.guild is not None and not message.flags.ephemeral)):
        raise OutdatedControl()
    return ids


Subject = tuple[Literal["game", "challenge", "tournament"], int]

# The kinds of custom id that act on one game (its hand controls, its board's buttons,
# Rematch under its end), one challenge or one tournament, the id right after the kind.
# Pages and replays are not among them: they act on what their own checks allow
# (require_message_of and the asker's rights), not on one game in progress.
_GAME_KINDS = frozenset(
    {
        "hand",
        "txt",
        "card",
        "stone",
        "play",
        "pass",
        "claim",
        "draw",
        "mv",
        "hint",
        "tgt",
        "dst",
        "ret",
        "rematch",
    }
)
_SUBJECT = re.compile(r"st:(?P<kind>[a-z]+):(?P<id>\d{1,19})(?::|$)")


def subject_of(custom_id: str) -> Subject | None:
    """What a control with this custom id acts on (None: nothing of the kind)."""
    found = _SUBJECT.match(custom_id)
    if found is None:
        return None
    kind, number = found["kind"], int(found["id"])
    if kind in _GAME_KINDS:
        return ("game", number)
    if kind == "chal":
        return ("challenge", number)
    if kind == "tour":
        return ("tournament", number)
    return None


async def require_own_subject(interaction: Interaction) -> None:
    """Refuse a click whose control acts on another game, challenge or tournament than
    the message it is on: a modified client can put any custom id on any message it
    sees. Called by a component once it has acknowledged the click (it reads the
    database), before it acts. What binds a message to its subject is what Discord
    gives and no client chooses, the message's id and channel, checked against the
    database (so it holds after a restart and in every process):

    * a private reply (ephemeral): stored with the game and the member it was made for
      (``bot.delivery``); one the bot does not know is out of date (made before it kept
      them: "Show my hand" gives a new one). Only a game's controls live on one;
    * a DM: the game's DM message of the clicking player (``LiveGame.dm_message_ids``);
    * a channel's message: in the game's, the challenge's or the tournament's channel,
      and the challenge's or sign-up's own message once stored;
    * and on every message other than a private reply, which is the bot's own, every
      control acts on the same subject.
    """
    if interaction.type is not discord.InteractionType.component or interaction.data is None:
        return
    subject = subject_of(str(interaction.data.get("custom_id", "")))
    if subject is None:
        return
    kind, number = subject
    message = interaction.message
    if message is None or number > MAX_ID:
        raise BadControl()
    await defer_update(interaction)  # a no-op after the component's own acknowledgement
    bot, user_id = interaction.client, interaction.user.id
    if message.flags.ephemeral:
        if kind != "game":
            raise BadControl()
        mine = await bot.delivery.is_private_reply(message.id, number, user_id)
        if mine is None:
            raise OutdatedControl()
        if not mine:
            raise BadControl()
        return
    me = bot.user
    if me is None or message.author.id != me.id:
        raise BadControl()
    if {subject_of(other) for other in custom_ids(interaction)} - {None} != {subject}:
        raise BadControl()
    channel_id = message.channel.id
    if kind == "challenge":
        own = await bot.challenges.on_message(number, channel_id, message.id)
    elif kind == "tournament":
        own = await bot.tournaments.on_signup(number, channel_id, message.id)
    else:
        # As stored: another process may have sent the DM anew since this one cached it.
        own = _on_game_message(await bot.service.get(number), message, user_id)
        own = own or _on_game_message(await bot.service.reload(number), message, user_id)
    if not own:
        raise BadControl()


def _on_game_message(record: LiveGame, message: discord.Message, user_id: int) -> bool:
    """Whether ``message`` is one of the game's: the clicking player's DM of it, or a
    message in its channel (its board, its end)."""
    if message.guild is None:
        player = record.player_of(user_id)
        return player is not None and record.dm_message_ids[player] == message.id
    return record.channel_id == message.channel.id


__all__ = [
    "MAX_ID",
    "BadControl",
    "OutdatedControl",
    "Subject",
    "bounded",
    "custom_ids",
    "require_message_of",
    "require_own_subject",
    "snowflake",
    "subject_of",
]

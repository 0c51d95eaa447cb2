"""Checks a component makes of its click before it acts: the click is anybody's to
forge (any custom id on any message the user can see, with any numbers in it), so a
control

* acts only on a message of its own kind (:func:`require_message_of`): a page button
  forged onto a game's board must not rewrite the board;
* reads only numbers the databases can hold (:func:`snowflake`, :func:`bounded`): a
  30-digit id is bad input, refused privately like any other, not a crash.

Each refusal is a :class:`~bot.games.errors.ServiceError`, answered privately by the
component's error reply and not logged as a failure.
"""

from __future__ import annotations

from bot.games.errors import ServiceError
from cogs.ui import Interaction

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


__all__ = [
    "MAX_ID",
    "BadControl",
    "OutdatedControl",
    "bounded",
    "custom_ids",
    "require_message_of",
    "snowflake",
]

"""The Discord runtime of the Schotten-Totten bot: ``create_bot`` builds it.

``create_bot`` is imported lazily so that the storage and the service (used by tests
and tools) load without importing discord.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.version import VERSION as __version__

if TYPE_CHECKING:
    from bot.app import create_bot

__all__ = ["__version__", "create_bot"]


def __getattr__(name: str) -> Any:
    if name == "create_bot":
        from bot.app import create_bot

        return create_bot
    raise AttributeError(f"module 'bot' has no attribute {name!r}")

"""The Discord runtime of the Schotten-Totten bot: ``create_bot`` builds it.

``create_bot`` is imported lazily so that the storage and the service (used by tests
and tools) load without importing discord.py.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _installed_version
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import create_bot

__all__ = ["DISTRIBUTION", "__version__", "create_bot"]

DISTRIBUTION = "schotten-totten-bot"
# The version is written once, in pyproject.toml; the installed metadata carries it here.
try:
    __version__ = _installed_version(DISTRIBUTION)
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "unknown"


def __getattr__(name: str) -> Any:
    if name == "create_bot":
        from bot.app import create_bot

        return create_bot
    raise AttributeError(f"module 'bot' has no attribute {name!r}")

"""``Preferences`` (``bot.preferences``): the settings ``/schotten settings`` changes.

* A member's **turn pings** (``pings``): ``every-turn`` (a ping at each of their turns),
  ``away`` (the default: only when they are not at the table, see
  :mod:`bot.community.presence`) or ``never``;
* a server's **threads** (``threads``, Manage Server): ``on`` (each game of a channel
  gets its own thread: the board, its turn pings and the game's talk), ``off`` (the
  board in the channel). Not chosen: on wherever the bot may create threads.

Stored in the ``preferences`` table (migration 10); kept in memory for ``TTL`` seconds
only, since another process of the bot may store a new choice. ``threads_default`` and
``pings_default`` are what a server or member who chose nothing gets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal, get_args

from bot.storage import LanguageScope, PlayerStore

PingMode = Literal["every-turn", "away", "never"]
PING_MODES: Final[tuple[PingMode, ...]] = get_args(PingMode)
TTL: Final = 60.0


def parse_pings(value: str | None) -> PingMode | None:
    """A stored or chosen ping mode; None for anything else (the default applies)."""
    for mode in PING_MODES:
        if value == mode:
            return mode
    return None


def parse_threads(value: str | None) -> bool | None:
    """A stored threads setting: True (on), False (off), None (not chosen)."""
    return {"on": True, "off": False}.get(value or "")


class Preferences:
    # Servers that chose nothing get threads where the bot may create them; members who
    # chose nothing are pinged only when away. (The test suite runs its older tests with
    # the classic values: boards in the channel, a ping every turn; tests/conftest.py.)
    threads_default: bool = True
    pings_default: PingMode = "away"

    def __init__(self, store: PlayerStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[tuple[LanguageScope, int, str], tuple[float, str | None]] = {}

    async def _value(self, scope: LanguageScope, scope_id: int, name: str) -> str | None:
        key = (scope, scope_id, name)
        now = self.clock()
        known = self._known.get(key)
        if known is not None and now - known[0] < TTL:
            return known[1]
        value = await self.store.preference(scope, scope_id, name)
        self._known[key] = (now, value)
        return value

    async def _choose(self, scope: LanguageScope, scope_id: int, name: str, value: str) -> None:
        await self.store.set_preference(scope, scope_id, name, value, now=self.clock())
        self._known[(scope, scope_id, name)] = (self.clock(), value)

    async def pings(self, user_id: int) -> PingMode:
        """When the member wants to be pinged for their turn."""
        return parse_pings(await self._value("user", user_id, "pings")) or self.pings_default

    async def choose_pings(self, user_id: int, mode: PingMode) -> None:
        await self._choose("user", user_id, "pings", mode)

    async def threads(self, guild_id: int) -> bool:
        """Whether the server wants a thread per game (where the bot may create one)."""
        chosen = parse_threads(await self._value("guild", guild_id, "threads"))
        return self.threads_default if chosen is None else chosen

    async def choose_threads(self, guild_id: int, on: bool) -> None:
        await self._choose("guild", guild_id, "threads", "on" if on else "off")


__all__ = ["PING_MODES", "PingMode", "Preferences", "parse_pings", "parse_threads"]

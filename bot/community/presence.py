"""``Presence`` (``bot.presence``): whether a member is at the table, and whether a
turn is worth a ping.

Every command and click a member makes (``SchottenBot.enter``) notes them as seen;
the time is stored in ``players.seen_at`` (migration 10) at most every
``RECORD_EVERY`` seconds per member and process, in the background (an answer never
waits for it), so that every process of the bot knows it. A member seen in the last
``AT_TABLE`` seconds is at the table: they moved, clicked or typed a command a moment
ago, and the board changing under their eyes is enough.

:func:`wants_ping` is the rule, pure: at most one turn ping per turn (the caller
knows whether this turn had its ping), and then the member's choice
(:mod:`bot.community.preferences`): every turn, only when away, or never.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

from bot.community.preferences import PingMode
from bot.games.lru import LRU
from bot.storage import PlayerStore

log = logging.getLogger(__name__)

AT_TABLE: Final = 60.0  # seconds: a member seen this recently needs no ping
RECORD_EVERY: Final = 10.0  # seconds between two writes of one member's time (per process)
REMEMBERED: Final = 4096  # members whose latest time this process keeps


def wants_ping(
    mode: PingMode,
    *,
    now: float,
    last_seen: float | None,
    pinged_this_turn: bool = False,
) -> bool:
    """Whether the player to move is pinged for their turn now: never twice in one turn,
    and then as they chose: ``every-turn`` always, ``never`` not, ``away`` unless seen in
    the last ``AT_TABLE`` seconds."""
    if pinged_this_turn:
        return False
    if mode == "never":
        return False
    if mode == "every-turn":
        return True
    return last_seen is None or now - last_seen >= AT_TABLE


class Presence:
    def __init__(self, store: PlayerStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._seen: LRU[int, float] = LRU(REMEMBERED)  # the latest time this process saw
        self._written: LRU[int, float] = LRU(REMEMBERED)  # the latest time it stored
        self._writes: set[asyncio.Task[None]] = set()

    def seen(self, user_id: int) -> None:
        """The member used the bot just now: remember it, and store it in the background
        unless it was stored less than ``RECORD_EVERY`` seconds ago. Never waits."""
        now = self.clock()
        self._seen.put(user_id, now)
        written = self._written.get(user_id)
        if written is not None and now - written < RECORD_EVERY:
            return
        self._written.put(user_id, now)
        task = asyncio.get_running_loop().create_task(self._write(user_id, now))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _write(self, user_id: int, when: float) -> None:
        try:
            await self.store.set_seen_at(user_id, when)
        except Exception as error:  # a lost write only costs a ping too many
            log.info("could not record when user %s was seen: %s", user_id, type(error).__name__)

    async def written(self) -> None:
        """Wait for the writes in flight (a clean shutdown does; so do tests)."""
        while self._writes:
            await asyncio.gather(*self._writes)

    async def last_seen(self, user_id: int) -> float | None:
        """When the member last used the bot, in this process or any other."""
        here = self._seen.get(user_id)
        stored = await self.store.seen_at(user_id)
        known = [t for t in (here, stored) if t is not None]
        return max(known) if known else None


__all__ = ["AT_TABLE", "RECORD_EVERY", "Presence", "wants_ping"]

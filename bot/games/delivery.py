"""``Delivery``: what the bot remembers about reaching players, kept across restarts.

* Whether a user's DMs refused the bot (``dm_status``), so it stops trying until they
  use a command again.
* A tip owed to a player whose DM was refused: told once per game, privately, the next
  time they use the bot (``dm_tips``).
* The separate message that mentioned the player to move (``games.ping_message_id``),
  which versions before the mention moved into the board posted: deleted at the game's
  next turn, also after a restart.
* The private replies (ephemeral messages) that carry a game's controls, by message id
  (``private_messages``), so that their controls act only on their own game.
* Where a game's board lives (``games.thread_id``: its channel or its own thread) and
  which of its turns was last pinged (``games.pinged_turn``: one ping per turn).
* The outbox: publications owed for committed changes (``outbox``, written by the
  service in the change's transaction). A publisher claims one (:meth:`Delivery.claim`:
  a lease of ``PUBLISH_LEASE`` seconds, taken by a conditional update, so one process
  of any number gets it), publishes, then marks it done. One whose publisher crashed is
  found by :meth:`Delivery.pending` once its lease has run out and published again.

The in-memory maps only save database round trips: every change is written first, and
a game's entries are dropped when it ends (:meth:`Delivery.forget_game`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.storage import DatabaseUnavailable, DeliveryStore, OutboxRow

log = logging.getLogger(__name__)

# Seconds a publisher holds a publication: long enough for a board and two DMs under
# Discord's rate limits; after a crash, another process takes it over after this.
PUBLISH_LEASE = 120.0
# A publication younger than this is left to the process that committed it.
RECOVERY_GRACE = 30.0
# Claims of one publication before it is given up (e.g. its channel is gone).
PUBLISH_ATTEMPTS = 5


class Delivery:
    def __init__(self, store: DeliveryStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._dm_closed: dict[int, bool] = {}
        self._tips: set[tuple[int, int]] | None = None  # (game id, user id); None: not loaded
        self._pings: dict[int, int | None] = {}

    # -- DMs -------------------------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool:
        closed = self._dm_closed.get(user_id)
        if closed is None:
            closed = self._dm_closed[user_id] = await self.store.dm_closed(user_id)
        return closed

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        """Remember whether the user's DMs refuse us (written on a change only)."""
        if await self.dm_closed(user_id) != closed:
            await self.store.set_dm_closed(user_id, closed, now=self.clock())
            self._dm_closed[user_id] = closed

    async def owe_dm_tip(self, game_id: int, user_id: int) -> None:
        """A DM to ``user_id`` in ``game_id`` was refused: tell them once how to open DMs."""
        if await self.store.queue_dm_tip(game_id, user_id, now=self.clock()):
            (await self._pending_tips()).add((game_id, user_id))

    async def take_dm_tip(self, game_id: int, user_id: int) -> bool:
        """True once per player and game while a tip is owed: the caller then tells them."""
        pending = await self._pending_tips()
        key = (game_id, user_id)
        if key not in pending:
            return False
        pending.discard(key)
        return await self.store.take_dm_tip(game_id, user_id, now=self.clock())

    async def _pending_tips(self) -> set[tuple[int, int]]:
        if self._tips is None:
            loaded = set(await self.store.pending_dm_tips())
            if self._tips is None:  # another task may have loaded them meanwhile
                self._tips = loaded
        return self._tips

    # -- turn mentions ---------------------------------------------------------------

    async def ping_message(self, game_id: int) -> int | None:
        """The message that mentions the player to move in ``game_id``, if any."""
        if game_id in self._pings:
            return self._pings[game_id]
        return await self.store.get_ping_message_id(game_id)

    async def set_ping_message(self, game_id: int, message_id: int | None) -> None:
        if await self.ping_message(game_id) != message_id:
            await self.store.set_ping_message_id(game_id, message_id)
        self._pings[game_id] = message_id

    # -- threads and pings -----------------------------------------------------------

    async def thread_of(self, game_id: int) -> int | None:
        """Where the game's board lives as stored: None undecided, 0 its channel, else
        its thread. Read when this process's copy of the game does not know it yet."""
        return await self.store.thread_of(game_id)

    async def pinged(self, game_id: int, turn: int) -> bool:
        """Whether the player of ``turn`` (the game's version when it began) has had
        their turn ping."""
        return await self.store.pinged_turn(game_id) == turn

    async def mark_pinged(self, game_id: int, turn: int) -> None:
        """The player of ``turn`` was pinged for it (or told otherwise, e.g. by a round's
        announcement)."""
        await self.store.set_pinged_turn(game_id, turn)

    # -- outbox ----------------------------------------------------------------------

    async def claim(self, entry_id: int) -> bool:
        """Take the publication ``entry_id``: True for the one caller that may publish it."""
        now = self.clock()
        return await self.store.claim_outbox(entry_id, now=now, until=now + PUBLISH_LEASE)

    async def claim_start(self, game_id: int, version: int) -> int | None:
        """Take a new game's first publication (recorded by ``insert_game`` at the game's
        first ``version``): its id for the one caller that may publish it; None when
        another process holds it or it was published already."""
        now = self.clock()
        return await self.store.claim_outbox_of(game_id, version, now=now, until=now + PUBLISH_LEASE)

    async def done(self, entry_id: int) -> None:
        await self.store.finish_outbox(entry_id)

    async def pending(self) -> list[OutboxRow]:
        """Publications nobody is making: left by a crash, or by a failed attempt."""
        now = self.clock()
        return await self.store.pending_outbox(
            now=now, created_before=now - RECOVERY_GRACE, max_attempts=PUBLISH_ATTEMPTS
        )

    # -- private replies with controls -------------------------------------------------

    async def private_reply(self, message_id: int, game_id: int, user_id: int) -> None:
        """The ephemeral ``message_id`` carries ``game_id``'s controls for ``user_id``:
        its controls act for them on that game only (``cogs/ui/checks.py``)."""
        await self.store.add_private_message(message_id, game_id, user_id, now=self.clock())

    async def is_private_reply(self, message_id: int, game_id: int, user_id: int) -> bool | None:
        """Whether the ephemeral ``message_id`` carries ``game_id``'s controls for
        ``user_id``; None: it carries none this bot keeps (not its own, made before it
        kept them, or of a game that has ended)."""
        owner = await self.store.private_message(message_id)
        return None if owner is None else owner == (game_id, user_id)

    async def forget_private_replies(self, game_id: int) -> None:
        """A finished game's private replies: their controls have nothing left to do.
        Never raises: rows left by a database that did not answer only take room."""
        try:
            await self.store.forget_private_messages(game_id)
        except DatabaseUnavailable as error:
            log.warning("could not forget the private replies of game %d: %s", game_id, error)

    # -- hygiene ---------------------------------------------------------------------

    def games_in_memory(self) -> set[int]:
        return set(self._pings) | {game_id for game_id, _ in self._tips or ()}

    def forget_game(self, game_id: int) -> None:
        """Drop a finished game's entries (its stored rows stay)."""
        self._pings.pop(game_id, None)
        if self._tips is not None:
            self._tips = {key for key in self._tips if key[0] != game_id}


__all__ = ["PUBLISH_ATTEMPTS", "PUBLISH_LEASE", "RECOVERY_GRACE", "Delivery"]

"""``DeliveryStore``: what publishing a game to Discord owes and knows.

The outbox (migration 5): a publication owed for a committed change, added in that
change's transaction and claimed by a lease (a conditional update, so one process of
any number gets it). Whether a user's DMs refuse the bot, the tip owed once per game
to a player whose DM was refused, and the turn mention older versions posted
(migration 4). Where a game's board lives (its thread) and which of its turns was
last pinged (migration 10).
"""

from __future__ import annotations

from bot.storage.rows import OutboxKind, OutboxRow
from bot.storage.sql import Executor, outbox_row


class DeliveryStore:
    """The ``outbox``, ``dm_status``, ``dm_tips`` and ``private_messages`` tables and
    ``games.ping_message_id``, ``games.thread_id`` and ``games.pinged_turn``."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    # -- DMs (migration 4) -----------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool:
        """Whether the user's DMs refused the bot last time it tried."""
        row = await self._db.one("SELECT closed FROM dm_status WHERE user_id = $1", user_id)
        return row is not None and bool(row["closed"])

    async def set_dm_closed(self, user_id: int, closed: bool, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO dm_status (user_id, closed, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET closed = excluded.closed, updated_at = excluded.updated_at",
            user_id,
            int(closed),
            now,
        )

    async def queue_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool:
        """Note that ``user_id`` is to be told how to open their DMs in ``game_id``.
        Returns False if they have been told already in that game (the tip is given once)."""
        async with self._db.atomic():
            await self._db.execute(
                "INSERT INTO dm_tips (game_id, user_id, told, updated_at) VALUES ($1, $2, 0, $3)"
                " ON CONFLICT (game_id, user_id) DO NOTHING",
                game_id,
                user_id,
                now,
            )
            row = await self._db.one(
                "SELECT told FROM dm_tips WHERE game_id = $1 AND user_id = $2", game_id, user_id
            )
        return row is not None and not row["told"]

    async def take_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool:
        """Mark a queued tip as told; True only for the one caller that did so."""
        return (
            await self._db.execute(
                "UPDATE dm_tips SET told = 1, updated_at = $1"
                " WHERE game_id = $2 AND user_id = $3 AND told = 0",
                now,
                game_id,
                user_id,
            )
            == 1
        )

    async def pending_dm_tips(self) -> list[tuple[int, int]]:
        """``(game_id, user_id)`` of the tips queued and not told yet, in active games."""
        rows = await self._db.all(
            "SELECT game_id, user_id FROM dm_tips WHERE told = 0"
            " AND game_id IN (SELECT id FROM games WHERE status = 'active') ORDER BY game_id, user_id"
        )
        return [(row["game_id"], row["user_id"]) for row in rows]

    async def get_ping_message_id(self, game_id: int) -> int | None:
        """The message mentioning the player to move in ``game_id`` (migration 4), if any."""
        row = await self._db.one("SELECT ping_message_id FROM games WHERE id = $1", game_id)
        return None if row is None else row["ping_message_id"]

    async def set_ping_message_id(self, game_id: int, message_id: int | None) -> None:
        await self._db.execute("UPDATE games SET ping_message_id = $1 WHERE id = $2", message_id, game_id)

    # -- threads and pings (migration 10) -------------------------------------------

    async def thread_of(self, game_id: int) -> int | None:
        """Where the game's board lives as stored: None undecided, 0 its channel, else
        its thread (``GameStore.set_message_ids`` stores it)."""
        found = await self._db.value("SELECT thread_id FROM games WHERE id = $1", game_id)
        return None if found is None else int(found)

    async def pinged_turn(self, game_id: int) -> int | None:
        """The turn of the game last pinged: the game's version when it began."""
        found = await self._db.value("SELECT pinged_turn FROM games WHERE id = $1", game_id)
        return None if found is None else int(found)

    async def set_pinged_turn(self, game_id: int, turn: int) -> None:
        await self._db.execute("UPDATE games SET pinged_turn = $1 WHERE id = $2", turn, game_id)

    # -- outbox (migration 5) --------------------------------------------------------

    async def add_outbox(self, game_id: int, version: int, kind: OutboxKind, *, now: float) -> int:
        """Record a publication owed for ``game_id`` at ``version``; call it inside the
        transaction of the change it shows. Returns its id."""
        return int(
            await self._db.value(
                "INSERT INTO outbox (game_id, version, kind, created_at)"
                " VALUES ($1, $2, $3, $4) RETURNING id",
                game_id,
                version,
                kind,
                now,
            )
        )

    async def outbox_entry(self, game_id: int, version: int) -> int | None:
        """The id of the publication a change of ``game_id`` to ``version`` recorded (not
        a reminder), while it is owed; None when there is none."""
        entry = await self._db.value(
            "SELECT min(id) FROM outbox WHERE game_id = $1 AND version = $2 AND kind <> 'reminder'",
            game_id,
            version,
        )
        return None if entry is None else int(entry)

    async def claim_outbox(self, entry_id: int, *, now: float, until: float) -> bool:
        """Take the publication for this caller until ``until`` (a lease); True only for
        the one caller that did, while it is not done and nobody else holds it."""
        return (
            await self._db.execute(
                "UPDATE outbox SET claimed_until = $1, attempts = attempts + 1"
                " WHERE id = $2 AND (claimed_until IS NULL OR claimed_until <= $3)",
                until,
                entry_id,
                now,
            )
            == 1
        )

    async def claim_outbox_of(self, game_id: int, version: int, *, now: float, until: float) -> int | None:
        """:meth:`claim_outbox` by game and version (a new game's first publication,
        whose id its creator does not hand on): the claimed entry's id, or None."""
        entry = await self._db.value(
            "UPDATE outbox SET claimed_until = $1, attempts = attempts + 1"
            " WHERE id = (SELECT min(id) FROM outbox"
            "  WHERE game_id = $2 AND version = $3 AND kind <> 'reminder')"
            " AND (claimed_until IS NULL OR claimed_until <= $4) RETURNING id",
            until,
            game_id,
            version,
            now,
        )
        return None if entry is None else int(entry)

    async def pending_outbox(
        self, *, now: float, created_before: float, max_attempts: int, limit: int = 100
    ) -> list[OutboxRow]:
        """Publications nobody holds (never claimed, or their lease ran out), recorded
        before ``created_before``, tried fewer than ``max_attempts`` times; oldest first."""
        rows = await self._db.all(
            "SELECT * FROM outbox WHERE (claimed_until IS NULL OR claimed_until <= $1)"
            " AND created_at <= $2 AND attempts < $3 ORDER BY id LIMIT $4",
            now,
            created_before,
            max_attempts,
            limit,
        )
        return [outbox_row(row) for row in rows]

    async def outbox_summary(self, *, max_attempts: int) -> tuple[int, float | None, int]:
        """For the operator (``/metrics``, ``/readyz``): the publications still owed (tried
        fewer than ``max_attempts`` times), the oldest one's ``created_at`` (None: none
        owed), and those given up."""
        row = await self._db.one(
            "SELECT coalesce(sum(CASE WHEN attempts < $1 THEN 1 ELSE 0 END), 0),"
            " min(CASE WHEN attempts < $1 THEN created_at END),"
            " coalesce(sum(CASE WHEN attempts >= $1 THEN 1 ELSE 0 END), 0) FROM outbox",
            max_attempts,
        )
        if row is None:
            return 0, None, 0
        owed, oldest, given_up = row[0], row[1], row[2]
        return int(owed), None if oldest is None else float(oldest), int(given_up)

    async def finish_outbox(self, entry_id: int) -> None:
        """The publication is done (or no longer needed): forget it."""
        await self._db.execute("DELETE FROM outbox WHERE id = $1", entry_id)

    # -- private replies with controls (migration 10) ---------------------------------

    async def add_private_message(self, message_id: int, game_id: int, user_id: int, *, now: float) -> None:
        """Remember that the ephemeral ``message_id`` carries ``game_id``'s controls for
        ``user_id`` (again: unchanged)."""
        await self._db.execute(
            "INSERT INTO private_messages (message_id, game_id, user_id, created_at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (message_id) DO NOTHING",
            message_id,
            game_id,
            user_id,
            now,
        )

    async def private_message(self, message_id: int) -> tuple[int, int] | None:
        """The game and the member an ephemeral message's controls were made for."""
        row = await self._db.one(
            "SELECT game_id, user_id FROM private_messages WHERE message_id = $1", message_id
        )
        return None if row is None else (int(row["game_id"]), int(row["user_id"]))

    async def forget_private_messages(self, game_id: int) -> None:
        """A finished game's private replies: their controls have nothing left to do."""
        await self._db.execute("DELETE FROM private_messages WHERE game_id = $1", game_id)

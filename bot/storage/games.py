"""``GameStore``: games (their snapshot, version, deadlines, message ids) and their moves.

The snapshot and the move log of a game change together, in a move's transaction
(``GameService`` holds it): ``save_game_state`` is a compare-and-set on the game's
version, so of two writers of the same game (in one process or several) one wins and
the other gets ``ConcurrentUpdate``; ``append_moves`` then refuses a log position taken
already, also with ``ConcurrentUpdate``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.errors import ConcurrentUpdate, KeyTaken
from bot.storage.rows import UNSET, GameRow, GameStatus, MoveRow, Unset
from bot.storage.sql import MAX_INTEGER, Executor, ensure_players, game_row, move_row, to_json


class GameStore:
    """The ``games`` and ``moves`` tables."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    # -- games -----------------------------------------------------------------------

    async def insert_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: Mapping[str, Any],
        seed: int,
        first_player: int,
        match_id: int | None,
        state: Mapping[str, Any],
        version: int,
        now: float,
        deadline: float | None,
        ai_player: int | None = None,
        ai_level: str | None = None,
        turn_timeout: float | None = None,
    ) -> int:
        """Insert a new active game (and its players); returns its id. ``ai_player``: the
        seat the bot's AI plays (with ``ai_level``), None for a game between two people."""
        async with self._db.atomic():
            await ensure_players(self._db, players, now)
            game_id = await self._db.value(
                """
                INSERT INTO games (guild_id, channel_id, player0, player1, options, seed, first_player,
                                   match_id, status, state, version, turn_started_at, deadline,
                                   created_at, updated_at, ai_player, ai_level, turn_timeout)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', $9, $10, $11, $12, $13, $14, $15, $16, $17)
                RETURNING id
                """,
                guild_id,
                channel_id,
                players[0],
                players[1],
                to_json(options),
                seed,
                first_player,
                match_id,
                to_json(state),
                version,
                now,
                deadline,
                now,
                now,
                ai_player,
                ai_level,
                turn_timeout,
            )
        return int(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        if not 0 < game_id <= MAX_INTEGER:
            return None  # no such row, and a number the database would refuse
        row = await self._db.one("SELECT * FROM games WHERE id = $1", game_id)
        return None if row is None else game_row(row)

    async def active_games(self, user_id: int) -> list[GameRow]:
        """The user's active games, oldest first."""
        rows = await self._db.all(
            "SELECT * FROM games WHERE status = 'active' AND (player0 = $1 OR player1 = $1) ORDER BY id",
            user_id,
        )
        return [game_row(row) for row in rows]

    async def guild_active_games(self, guild_id: int, limit: int = 20) -> list[GameRow]:
        """A server's active games, newest first, at most ``limit`` (the web's
        "now playing" list)."""
        if not 0 <= guild_id <= MAX_INTEGER:
            return []
        rows = await self._db.all(
            "SELECT * FROM games WHERE status = 'active' AND guild_id = $1 ORDER BY id DESC LIMIT $2",
            guild_id,
            limit,
        )
        return [game_row(row) for row in rows]

    async def active_games_in_channel(self, channel_id: int, limit: int = 25) -> list[GameRow]:
        """The channel's active games, oldest first (at most ``limit``)."""
        if not 0 < channel_id <= MAX_INTEGER:
            return []
        rows = await self._db.all(
            "SELECT * FROM games WHERE status = 'active' AND channel_id = $1 ORDER BY id LIMIT $2",
            channel_id,
            limit,
        )
        return [game_row(row) for row in rows]

    async def all_active_games(self) -> list[GameRow]:
        rows = await self._db.all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
        return [game_row(row) for row in rows]

    async def ai_turns_since(self, before: float) -> list[int]:
        """The active games against the AI where the AI is to move (its turns alone have
        no deadline) and nothing was stored since ``before``, by id."""
        rows = await self._db.all(
            "SELECT id FROM games WHERE status = 'active' AND ai_player IS NOT NULL"
            " AND deadline IS NULL AND updated_at <= $1 ORDER BY id",
            before,
        )
        return [int(row["id"]) for row in rows]

    async def save_game_state(
        self,
        game_id: int,
        *,
        expected_version: int,
        version: int,
        state: Mapping[str, Any],
        status: GameStatus,
        turn_started_at: float | None,
        deadline: float | None,
        reminded: bool,
        now: float,
    ) -> None:
        """Replace the snapshot of a game that is still at ``expected_version``."""
        count = await self._db.execute(
            """
            UPDATE games SET state = $1, version = $2, status = $3, turn_started_at = $4, deadline = $5,
                             reminded = $6, updated_at = $7
            WHERE id = $8 AND version = $9
            """,
            to_json(state),
            version,
            status,
            turn_started_at,
            deadline,
            int(reminded),
            now,
            game_id,
            expected_version,
        )
        if count != 1:
            raise ConcurrentUpdate(f"game {game_id} is no longer at version {expected_version}")

    async def set_message_ids(
        self,
        game_id: int,
        *,
        board_message_id: int | Unset | None = UNSET,
        dm_message_ids: Mapping[int, int | None] | None = None,
        thread_id: int | Unset | None = UNSET,
    ) -> None:
        """Store the board message id, DM message ids (by engine player 0/1) and/or
        where the board lives (``thread_id``: 0 the channel, else the game's thread)."""
        sets: list[str] = []
        params: list[int | None] = []
        if not isinstance(board_message_id, Unset):
            params.append(board_message_id)
            sets.append(f"board_message_id = ${len(params)}")
        if not isinstance(thread_id, Unset):
            params.append(thread_id)
            sets.append(f"thread_id = ${len(params)}")
        for player, message_id in (dm_message_ids or {}).items():
            if player not in (0, 1):
                raise ValueError(f"player must be 0 or 1, not {player!r}")
            params.append(message_id)
            sets.append(("dm_message_id0", "dm_message_id1")[player] + f" = ${len(params)}")
        if sets:
            # The column names come from the fixed tuple above, never from input.
            await self._db.execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ${len(params) + 1}", *params, game_id
            )

    async def games_due(self, now: float) -> list[GameRow]:
        """Active games whose player to move has run out of time."""
        rows = await self._db.all(
            "SELECT * FROM games WHERE status = 'active' AND deadline <= $1 ORDER BY deadline", now
        )
        return [game_row(row) for row in rows]

    async def games_to_remind(self, now: float, after: float) -> list[GameRow]:
        """Active games whose turn started at least ``after`` seconds ago, not yet
        reminded; a game with its own, shorter turn time (a tournament's) half-way
        through its turn, if that comes first."""
        rows = await self._db.all(
            """
            SELECT * FROM games WHERE status = 'active' AND reminded = 0 AND turn_started_at IS NOT NULL
                                  AND turn_started_at + CASE WHEN turn_timeout IS NOT NULL
                                                              AND turn_timeout / 2 < $1
                                                         THEN turn_timeout / 2 ELSE $1 END <= $2
            ORDER BY turn_started_at
            """,
            float(after),
            float(now),
        )
        return [game_row(row) for row in rows]

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Mark the current turn as reminded; False if the game has moved on meanwhile
        (or another process reminded it first)."""
        return (
            await self._db.execute(
                "UPDATE games SET reminded = 1"
                " WHERE id = $1 AND version = $2 AND status = 'active' AND reminded = 0",
                game_id,
                version,
            )
            == 1
        )

    # -- moves -----------------------------------------------------------------------

    async def append_moves(
        self, game_id: int, entries: Sequence[tuple[int, int, str]], *, version: int, now: float
    ) -> None:
        """Append log entries ``(seq, player, move_text)`` of one commit at ``version``.

        An entry already at its position means that another writer committed a move of
        this game first: ``ConcurrentUpdate``, as from ``save_game_state``."""
        try:
            await self._db.executemany(
                "INSERT INTO moves (game_id, seq, player, move, version, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                [(game_id, seq, player, move, version, float(now)) for seq, player, move in entries],
            )
        except KeyTaken as error:
            raise ConcurrentUpdate(f"game {game_id} has moves at these positions already") from error

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._db.all("SELECT * FROM moves WHERE game_id = $1 ORDER BY seq", game_id)
        return [move_row(row) for row in rows]

    # -- finished games --------------------------------------------------------------

    async def finished_games_in_guild(
        self, guild_id: int, *, after_id: int = 0, limit: int = 500
    ) -> list[GameRow]:
        """Finished games of ``guild_id`` with an id above ``after_id``, by id, at most ``limit``."""
        rows = await self._db.all(
            "SELECT * FROM games WHERE guild_id = $1 AND status = 'finished' AND id > $2"
            " ORDER BY id LIMIT $3",
            guild_id,
            after_id,
            limit,
        )
        return [game_row(row) for row in rows]

"""``SqlStorage``: every query of the storage API, once, for both backends.

The statements are written for PostgreSQL, with ``$1``-style parameters; SQLite runs
them as they are, apart from the parameter style, which ``Database`` translates
(``$1`` becomes ``?1``). So they keep to what both dialects accept: ``RETURNING``,
``ON CONFLICT``, ``COUNT(*) FILTER (...)``, ``CAST`` rather than ``::``, and plain
column types (booleans are stored as 0 and 1). Every value is a bound parameter; the
only names put into a statement come from fixed tables in this module.

A backend (``database.py``, ``postgres.py``) adds how to connect, migrate and hold a
transaction, and runs statements: ``_execute``, ``_executemany`` and ``_all`` (and, if it
has quicker ones, ``_one`` and ``_value``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any, Final, Self, TypeAlias

from bot.storage.errors import ConcurrentUpdate, KeyTaken
from bot.storage.rows import (
    UNSET,
    ChallengeRow,
    ChallengeStatus,
    GameRow,
    GameStatus,
    LanguageScope,
    MatchRow,
    MoveRow,
    OutboxKind,
    OutboxRow,
    RatingRow,
    ResultRow,
    Unset,
)

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import AsyncIterator

    import asyncpg

# A row as a driver returns it; both kinds are read by column name (and by position).
Row: TypeAlias = "sqlite3.Row | asyncpg.Record"

# The table and key column of each language scope: fixed names, never user input.
_LANGUAGE_TABLES: Final = {"user": ("user_languages", "user_id"), "guild": ("guild_languages", "guild_id")}
# LIMIT for "no limit": SQLite refuses LIMIT NULL, PostgreSQL a negative limit.
_NO_LIMIT: Final = 2**62


class SqlStorage(ABC):
    """The storage API (``protocol.py``) in SQL; a backend supplies the primitives."""

    # -- what a backend supplies -------------------------------------------------------

    @abstractmethod
    def _in_transaction(self) -> bool:
        """Whether the current task holds an open ``transaction()`` of this database."""
        raise NotImplementedError

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Self]:
        raise NotImplementedError

    @abstractmethod
    async def _execute(self, sql: str, *params: object) -> int:
        """Run one statement; returns the number of rows it changed."""
        raise NotImplementedError

    @abstractmethod
    async def _executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        """Run one statement for each row; ``KeyTaken`` if one meets a row with its key."""
        raise NotImplementedError

    @abstractmethod
    async def _all(self, sql: str, *params: object) -> Sequence[Row]:
        raise NotImplementedError

    async def _one(self, sql: str, *params: object) -> Row | None:
        rows = await self._all(sql, *params)
        return rows[0] if rows else None

    async def _value(self, sql: str, *params: object) -> Any:
        """The first column of the first row (None without a row)."""
        row = await self._one(sql, *params)
        return None if row is None else row[0]

    @asynccontextmanager
    async def _atomic(self) -> AsyncIterator[None]:
        """A transaction unless the caller already holds one."""
        if self._in_transaction():
            yield
        else:
            async with self.transaction():
                yield

    # -- meta ------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = $1", key)
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def delete_meta(self, key: str) -> None:
        await self._execute("DELETE FROM meta WHERE key = $1", key)

    async def meta_keys(self, prefix: str) -> list[str]:
        """The meta keys that start with ``prefix``, sorted."""
        rows = await self._all(
            "SELECT key FROM meta WHERE substr(key, 1, length($1)) = $1 ORDER BY key", prefix
        )
        return [str(row["key"]) for row in rows]

    # -- players ---------------------------------------------------------------------

    async def ensure_players(self, user_ids: Iterable[int], now: float) -> None:
        await self._executemany(
            "INSERT INTO players (user_id, created_at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING",
            [(user_id, float(now)) for user_id in user_ids],
        )

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
    ) -> int:
        """Insert a new active game (and its players); returns its id. ``ai_player``: the
        seat the bot's AI plays (with ``ai_level``), None for a game between two people."""
        async with self._atomic():
            await self.ensure_players(players, now)
            game_id = await self._value(
                """
                INSERT INTO games (guild_id, channel_id, player0, player1, options, seed, first_player,
                                   match_id, status, state, version, turn_started_at, deadline,
                                   created_at, updated_at, ai_player, ai_level)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'active', $9, $10, $11, $12, $13, $14, $15, $16)
                RETURNING id
                """,
                guild_id,
                channel_id,
                players[0],
                players[1],
                _json(options),
                seed,
                first_player,
                match_id,
                _json(state),
                version,
                now,
                deadline,
                now,
                now,
                ai_player,
                ai_level,
            )
        return int(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = $1", game_id)
        return None if row is None else _game(row)

    async def active_games(self, user_id: int) -> list[GameRow]:
        """The user's active games, oldest first."""
        rows = await self._all(
            "SELECT * FROM games WHERE status = 'active' AND (player0 = $1 OR player1 = $1) ORDER BY id",
            user_id,
        )
        return [_game(row) for row in rows]

    async def all_active_games(self) -> list[GameRow]:
        return [
            _game(row) for row in await self._all("SELECT * FROM games WHERE status = 'active' ORDER BY id")
        ]

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
        count = await self._execute(
            """
            UPDATE games SET state = $1, version = $2, status = $3, turn_started_at = $4, deadline = $5,
                             reminded = $6, updated_at = $7
            WHERE id = $8 AND version = $9
            """,
            _json(state),
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
    ) -> None:
        """Store the board message id and/or DM message ids (by engine player 0/1)."""
        sets: list[str] = []
        params: list[int | None] = []
        if not isinstance(board_message_id, Unset):
            params.append(board_message_id)
            sets.append(f"board_message_id = ${len(params)}")
        for player, message_id in (dm_message_ids or {}).items():
            if player not in (0, 1):
                raise ValueError(f"player must be 0 or 1, not {player!r}")
            params.append(message_id)
            sets.append(("dm_message_id0", "dm_message_id1")[player] + f" = ${len(params)}")
        if sets:
            # The column names come from the fixed tuple above, never from input.
            await self._execute(
                f"UPDATE games SET {', '.join(sets)} WHERE id = ${len(params) + 1}", *params, game_id
            )

    async def games_due(self, now: float) -> list[GameRow]:
        """Active games whose player to move has run out of time."""
        rows = await self._all(
            "SELECT * FROM games WHERE status = 'active' AND deadline <= $1 ORDER BY deadline", now
        )
        return [_game(row) for row in rows]

    async def games_to_remind(self, now: float, after: float) -> list[GameRow]:
        """Active games whose turn started at least ``after`` seconds ago, not yet reminded."""
        rows = await self._all(
            """
            SELECT * FROM games WHERE status = 'active' AND reminded = 0 AND turn_started_at IS NOT NULL
                                  AND turn_started_at + $1 <= $2
            ORDER BY turn_started_at
            """,
            float(after),
            float(now),
        )
        return [_game(row) for row in rows]

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Mark the current turn as reminded; False if the game has moved on meanwhile
        (or another process reminded it first)."""
        return (
            await self._execute(
                "UPDATE games SET reminded = 1"
                " WHERE id = $1 AND version = $2 AND status = 'active' AND reminded = 0",
                game_id,
                version,
            )
            == 1
        )

    async def get_ping_message_id(self, game_id: int) -> int | None:
        """The message mentioning the player to move in ``game_id`` (migration 4), if any."""
        row = await self._one("SELECT ping_message_id FROM games WHERE id = $1", game_id)
        return None if row is None else row["ping_message_id"]

    async def set_ping_message_id(self, game_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE games SET ping_message_id = $1 WHERE id = $2", message_id, game_id)

    # -- languages (migration 6) -----------------------------------------------------

    async def language(self, scope: LanguageScope, scope_id: int) -> tuple[str | None, str | None]:
        """A user's or a server's ``(chosen, discord)`` language codes (None: unknown)."""
        table, column = _LANGUAGE_TABLES[scope]
        row = await self._one(f"SELECT chosen, discord FROM {table} WHERE {column} = $1", scope_id)
        return (None, None) if row is None else (row["chosen"], row["discord"])

    async def set_language(
        self,
        scope: LanguageScope,
        scope_id: int,
        *,
        chosen: str | Unset | None = UNSET,
        discord: str | Unset | None = UNSET,
        now: float,
    ) -> None:
        """Store a chosen language and/or the one Discord reported (UNSET: unchanged)."""
        table, column = _LANGUAGE_TABLES[scope]
        async with self._atomic():
            await self._execute(
                f"INSERT INTO {table} ({column}, updated_at) VALUES ($1, $2)"
                f" ON CONFLICT ({column}) DO NOTHING",
                scope_id,
                now,
            )
            for name, value in (("chosen", chosen), ("discord", discord)):
                if not isinstance(value, Unset):
                    await self._execute(
                        f"UPDATE {table} SET {name} = $1, updated_at = $2 WHERE {column} = $3",
                        value,
                        now,
                        scope_id,
                    )

    # -- DMs (migration 4) -----------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool:
        """Whether the user's DMs refused the bot last time it tried."""
        row = await self._one("SELECT closed FROM dm_status WHERE user_id = $1", user_id)
        return row is not None and bool(row["closed"])

    async def set_dm_closed(self, user_id: int, closed: bool, *, now: float) -> None:
        await self._execute(
            "INSERT INTO dm_status (user_id, closed, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET closed = excluded.closed, updated_at = excluded.updated_at",
            user_id,
            int(closed),
            now,
        )

    async def queue_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool:
        """Note that ``user_id`` is to be told how to open their DMs in ``game_id``.
        Returns False if they have been told already in that game (the tip is given once)."""
        async with self._atomic():
            await self._execute(
                "INSERT INTO dm_tips (game_id, user_id, told, updated_at) VALUES ($1, $2, 0, $3)"
                " ON CONFLICT (game_id, user_id) DO NOTHING",
                game_id,
                user_id,
                now,
            )
            row = await self._one(
                "SELECT told FROM dm_tips WHERE game_id = $1 AND user_id = $2", game_id, user_id
            )
        return row is not None and not row["told"]

    async def take_dm_tip(self, game_id: int, user_id: int, *, now: float) -> bool:
        """Mark a queued tip as told; True only for the one caller that did so."""
        return (
            await self._execute(
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
        rows = await self._all(
            "SELECT game_id, user_id FROM dm_tips WHERE told = 0"
            " AND game_id IN (SELECT id FROM games WHERE status = 'active') ORDER BY game_id, user_id"
        )
        return [(row["game_id"], row["user_id"]) for row in rows]

    # -- outbox (migration 5) --------------------------------------------------------

    async def add_outbox(self, game_id: int, version: int, kind: OutboxKind, *, now: float) -> int:
        """Record a publication owed for ``game_id`` at ``version``; call it inside the
        transaction of the change it shows. Returns its id."""
        return int(
            await self._value(
                "INSERT INTO outbox (game_id, version, kind, created_at)"
                " VALUES ($1, $2, $3, $4) RETURNING id",
                game_id,
                version,
                kind,
                now,
            )
        )

    async def claim_outbox(self, entry_id: int, *, now: float, until: float) -> bool:
        """Take the publication for this caller until ``until`` (a lease); True only for
        the one caller that did, while it is not done and nobody else holds it."""
        return (
            await self._execute(
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
        entry = await self._value(
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
        rows = await self._all(
            "SELECT * FROM outbox WHERE (claimed_until IS NULL OR claimed_until <= $1)"
            " AND created_at <= $2 AND attempts < $3 ORDER BY id LIMIT $4",
            now,
            created_before,
            max_attempts,
            limit,
        )
        return [_outbox(row) for row in rows]

    async def finish_outbox(self, entry_id: int) -> None:
        """The publication is done (or no longer needed): forget it."""
        await self._execute("DELETE FROM outbox WHERE id = $1", entry_id)

    # -- moves -----------------------------------------------------------------------

    async def append_moves(
        self, game_id: int, entries: Sequence[tuple[int, int, str]], *, version: int, now: float
    ) -> None:
        """Append log entries ``(seq, player, move_text)`` of one commit at ``version``.

        An entry already at its position means that another writer committed a move of
        this game first: ``ConcurrentUpdate``, as from ``save_game_state``."""
        try:
            await self._executemany(
                "INSERT INTO moves (game_id, seq, player, move, version, created_at)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                [(game_id, seq, player, move, version, float(now)) for seq, player, move in entries],
            )
        except KeyTaken as error:
            raise ConcurrentUpdate(f"game {game_id} has moves at these positions already") from error

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._all("SELECT * FROM moves WHERE game_id = $1 ORDER BY seq", game_id)
        return [MoveRow(**{key: row[key] for key in row.keys()}) for row in rows]  # noqa: SIM118

    # -- results and ratings ---------------------------------------------------------

    async def record_result(
        self,
        game_id: int,
        *,
        guild_id: int | None,
        players: tuple[int, int],
        winner: int | None,
        reason: str,
        stones: tuple[int, int],
        moves: int,
        now: float,
    ) -> ResultRow:
        """Write the result of a finished game. Call it inside the transaction of the
        move that finished it, where rating updates for the same result also belong."""
        winner_id = None if winner is None else players[winner]
        loser_id = None if winner is None else players[1 - winner]
        await self._execute(
            """
            INSERT INTO results (game_id, guild_id, winner_id, loser_id, player0, player1, winner, reason,
                                 stones0, stones1, moves, finished_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
            """,
            game_id,
            guild_id,
            winner_id,
            loser_id,
            *players,
            winner,
            reason,
            *stones,
            moves,
            now,
        )
        return ResultRow(game_id, guild_id, winner_id, loser_id, players, winner, reason, stones, moves, now)

    async def get_result(self, game_id: int) -> ResultRow | None:
        row = await self._one("SELECT * FROM results WHERE game_id = $1", game_id)
        return None if row is None else _result(row)

    async def recent_results(self, *, guild_id: int | None = None, limit: int = 20) -> list[ResultRow]:
        if guild_id is None:
            rows = await self._all("SELECT * FROM results ORDER BY finished_at DESC LIMIT $1", limit)
        else:
            rows = await self._all(
                "SELECT * FROM results WHERE guild_id = $1 ORDER BY finished_at DESC LIMIT $2",
                guild_id,
                limit,
            )
        return [_result(row) for row in rows]

    async def get_rating(self, scope: str, user_id: int) -> RatingRow | None:
        row = await self._one("SELECT * FROM ratings WHERE scope = $1 AND user_id = $2", scope, user_id)
        return None if row is None else _rating(row)

    async def save_rating(
        self, rating: RatingRow, *, game_id: int | None = None, before: float | None = None
    ) -> None:
        """Insert or replace a rating; with ``game_id`` also log the change from ``before``."""
        async with self._atomic():
            await self._execute(
                """
                INSERT INTO ratings (scope, user_id, rating, games, wins, losses, draws, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (scope, user_id) DO UPDATE SET
                    rating = excluded.rating, games = excluded.games, wins = excluded.wins,
                    losses = excluded.losses, draws = excluded.draws, updated_at = excluded.updated_at
                """,
                rating.scope,
                rating.user_id,
                rating.rating,
                rating.games,
                rating.wins,
                rating.losses,
                rating.draws,
                rating.updated_at,
            )
            if game_id is not None:
                await self._execute(
                    "INSERT INTO rating_changes (game_id, scope, user_id, before, after)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    game_id,
                    rating.scope,
                    rating.user_id,
                    rating.rating if before is None else before,
                    rating.rating,
                )

    async def leaderboard(self, scope: str, *, limit: int = 10, min_games: int = 1) -> list[RatingRow]:
        rows = await self._all(
            "SELECT * FROM ratings WHERE scope = $1 AND games >= $2"
            " ORDER BY rating DESC, games DESC LIMIT $3",
            scope,
            min_games,
            limit,
        )
        return [_rating(row) for row in rows]

    # -- challenges ------------------------------------------------------------------

    async def create_challenge(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        options: Mapping[str, Any],
        now: float,
        expires_at: float,
        message_id: int | None = None,
    ) -> ChallengeRow:
        async with self._atomic():
            await self.ensure_players([u for u in (challenger_id, opponent_id) if u is not None], now)
            row = await self._one(
                """
                INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, options, message_id,
                                        created_at, expires_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                RETURNING *
                """,
                guild_id,
                channel_id,
                challenger_id,
                opponent_id,
                _json(options),
                message_id,
                now,
                expires_at,
            )
        assert row is not None
        return _challenge(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one("SELECT * FROM challenges WHERE id = $1", challenge_id)
        return None if row is None else _challenge(row)

    async def pending_challenges(self, *, user_id: int | None = None) -> list[ChallengeRow]:
        """Pending challenges (by or to ``user_id`` if given), oldest first."""
        if user_id is None:
            rows = await self._all("SELECT * FROM challenges WHERE status = 'pending' ORDER BY id")
        else:
            rows = await self._all(
                "SELECT * FROM challenges WHERE status = 'pending'"
                " AND (challenger_id = $1 OR opponent_id = $1) ORDER BY id",
                user_id,
            )
        return [_challenge(row) for row in rows]

    async def expired_challenges(self, now: float) -> list[ChallengeRow]:
        rows = await self._all(
            "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= $1 ORDER BY expires_at",
            now,
        )
        return [_challenge(row) for row in rows]

    async def set_challenge_message(self, challenge_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE challenges SET message_id = $1 WHERE id = $2", message_id, challenge_id)

    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus, *, game_id: int | None = None
    ) -> bool:
        """Move a pending challenge to ``status``. Returns False if it was no longer pending,
        so that of two simultaneous answers (accept and cancel, or two accepts) one wins."""
        return (
            await self._execute(
                "UPDATE challenges SET status = $1, game_id = $2 WHERE id = $3 AND status = 'pending'",
                status,
                game_id,
                challenge_id,
            )
            == 1
        )

    # -- player stats and leaderboard pages ----------------------------------------------

    async def leaderboard_page(
        self, scope: str, *, offset: int = 0, limit: int = 10, min_games: int = 1
    ) -> list[RatingRow]:
        """Ratings of ``scope`` by rank (rating, then games, then user id), one page."""
        rows = await self._all(
            """
            SELECT * FROM ratings WHERE scope = $1 AND games >= $2
            ORDER BY rating DESC, games DESC, user_id LIMIT $3 OFFSET $4
            """,
            scope,
            min_games,
            limit,
            offset,
        )
        return [_rating(row) for row in rows]

    async def leaderboard_size(self, scope: str, *, min_games: int = 1) -> int:
        count = await self._value(
            "SELECT COUNT(*) FROM ratings WHERE scope = $1 AND games >= $2", scope, min_games
        )
        return int(count or 0)

    async def player_results(
        self, user_id: int, *, guild_id: int | None = None, limit: int | None = None
    ) -> list[ResultRow]:
        """Results of the rated games ``user_id`` played (in ``guild_id`` if given), newest
        first. Practice games against the bot's AI are left out."""
        # guild_id NULL means any guild.
        rows = await self._all(
            """
            SELECT * FROM results
            WHERE (player0 = $1 OR player1 = $1)
              AND game_id IN (SELECT id FROM games WHERE ai_player IS NULL)
              AND (CAST($2 AS BIGINT) IS NULL OR guild_id = $2)
            ORDER BY finished_at DESC, game_id DESC LIMIT $3
            """,
            user_id,
            guild_id,
            _NO_LIMIT if limit is None else limit,
        )
        return [_result(row) for row in rows]

    async def head_to_head(self, user_id: int, opponent_id: int) -> tuple[int, int, int]:
        """``user_id``'s (wins, losses, draws) in games against ``opponent_id``, everywhere."""
        row = await self._one(
            """
            SELECT COUNT(*) FILTER (WHERE winner_id = $1) AS wins,
                   COUNT(*) FILTER (WHERE winner_id = $2) AS losses,
                   COUNT(*) FILTER (WHERE winner_id IS NULL) AS draws
            FROM results
            WHERE ((player0 = $1 AND player1 = $2) OR (player0 = $2 AND player1 = $1))
              AND game_id IN (SELECT id FROM games WHERE ai_player IS NULL)
            """,
            user_id,
            opponent_id,
        )
        assert row is not None
        return int(row["wins"]), int(row["losses"]), int(row["draws"])

    async def rating_changes(self, game_id: int) -> list[tuple[str, int, float, float]]:
        """How the result of ``game_id`` moved ratings: ``(scope, user_id, before, after)``."""
        rows = await self._all(
            "SELECT scope, user_id, before, after FROM rating_changes WHERE game_id = $1"
            " ORDER BY scope, user_id",
            game_id,
        )
        return [(row["scope"], row["user_id"], row["before"], row["after"]) for row in rows]

    # -- matches ---------------------------------------------------------------------------

    async def insert_match(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: Mapping[str, Any],
        target: int,
        now: float,
    ) -> MatchRow:
        async with self._atomic():
            await self.ensure_players(players, now)
            row = await self._one(
                """
                INSERT INTO matches (guild_id, channel_id, player0, player1, options, target,
                                     created_at, updated_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                RETURNING *
                """,
                guild_id,
                channel_id,
                players[0],
                players[1],
                _json(options),
                target,
                now,
                now,
            )
        assert row is not None
        return _match(row)

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._one("SELECT * FROM matches WHERE id = $1", match_id)
        return None if row is None else _match(row)

    async def update_match(
        self, match_id: int, *, scores: tuple[int, int], games: int, winner_id: int | None, now: float
    ) -> None:
        """Store a match's score after a game; a ``winner_id`` finishes the match."""
        await self._execute(
            """
            UPDATE matches SET score0 = $1, score1 = $2, games = $3, winner_id = $4, status = $5,
                               updated_at = $6
            WHERE id = $7
            """,
            *scores,
            games,
            winner_id,
            "active" if winner_id is None else "finished",
            now,
            match_id,
        )

    async def active_matches(self) -> list[MatchRow]:
        rows = await self._all("SELECT * FROM matches WHERE status = 'active' ORDER BY id")
        return [_match(row) for row in rows]

    async def match_games(self, match_id: int) -> list[GameRow]:
        rows = await self._all("SELECT * FROM games WHERE match_id = $1 ORDER BY id", match_id)
        return [_game(row) for row in rows]

    # -- finished games: history, replays, export -----------------------------------

    async def finished_games_count(self, user_id: int) -> int:
        """How many finished games ``user_id`` played (practice games included)."""
        count = await self._value("SELECT COUNT(*) FROM results WHERE player0 = $1 OR player1 = $1", user_id)
        return int(count or 0)

    async def finished_results_page(self, user_id: int, *, offset: int, limit: int) -> list[ResultRow]:
        """Results of ``user_id``'s finished games (practice games included), newest first."""
        rows = await self._all(
            """
            SELECT * FROM results WHERE player0 = $1 OR player1 = $1
            ORDER BY finished_at DESC, game_id DESC LIMIT $2 OFFSET $3
            """,
            user_id,
            limit,
            offset,
        )
        return [_result(row) for row in rows]

    async def finished_games_in_guild(
        self, guild_id: int, *, after_id: int = 0, limit: int = 500
    ) -> list[GameRow]:
        """Finished games of ``guild_id`` with an id above ``after_id``, by id, at most ``limit``."""
        rows = await self._all(
            "SELECT * FROM games WHERE guild_id = $1 AND status = 'finished' AND id > $2"
            " ORDER BY id LIMIT $3",
            guild_id,
            after_id,
            limit,
        )
        return [_game(row) for row in rows]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _game(row: Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        players=(row["player0"], row["player1"]),
        options=json.loads(row["options"]),
        seed=row["seed"],
        first_player=row["first_player"],
        match_id=row["match_id"],
        status=row["status"],
        state=json.loads(row["state"]),
        version=row["version"],
        board_message_id=row["board_message_id"],
        dm_message_ids=(row["dm_message_id0"], row["dm_message_id1"]),
        turn_started_at=row["turn_started_at"],
        deadline=row["deadline"],
        reminded=bool(row["reminded"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        ai_player=row["ai_player"],
        ai_level=row["ai_level"],
    )


def _challenge(row: Row) -> ChallengeRow:
    return ChallengeRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opponent_id=row["opponent_id"],
        options=json.loads(row["options"]),
        message_id=row["message_id"],
        status=row["status"],
        game_id=row["game_id"],
        created_at=row["created_at"],
        expires_at=row["expires_at"],
    )


def _outbox(row: Row) -> OutboxRow:
    return OutboxRow(
        id=row["id"],
        game_id=row["game_id"],
        version=row["version"],
        kind=row["kind"],
        created_at=row["created_at"],
        claimed_until=row["claimed_until"],
        attempts=row["attempts"],
    )


def _result(row: Row) -> ResultRow:
    return ResultRow(
        game_id=row["game_id"],
        guild_id=row["guild_id"],
        winner_id=row["winner_id"],
        loser_id=row["loser_id"],
        players=(row["player0"], row["player1"]),
        winner=row["winner"],
        reason=row["reason"],
        stones=(row["stones0"], row["stones1"]),
        moves=row["moves"],
        finished_at=row["finished_at"],
    )


def _rating(row: Row) -> RatingRow:
    return RatingRow(**{key: row[key] for key in row.keys()})  # noqa: SIM118 - sqlite3.Row


def _match(row: Row) -> MatchRow:
    return MatchRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        players=(row["player0"], row["player1"]),
        options=json.loads(row["options"]),
        target=row["target"],
        scores=(row["score0"], row["score1"]),
        games=row["games"],
        status=row["status"],
        winner_id=row["winner_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )

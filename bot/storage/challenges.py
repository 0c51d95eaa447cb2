"""``ChallengeStore``: challenges and matches, the two ways players agree to play.

A challenge's answer is a conditional update (``resolve_challenge``: only a pending
challenge changes), so of two answers that race exactly one wins. Accepting inserts
the game (``GameStore.insert_game``) and the match in the answer's transaction.
``lock_channel`` holds a channel's row (migration 10) for a transaction that counts the
channel's open challenges against a limit and then stores one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.storage.rows import ChallengeRow, ChallengeStatus, GameRow, MatchRow
from bot.storage.sql import MAX_INTEGER, Executor, challenge_row, ensure_players, game_row, match_row, to_json


class ChallengeStore:
    """The ``challenges``, ``channel_locks`` and ``matches`` tables."""

    def __init__(self, db: Executor) -> None:
        self._db = db

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
        async with self._db.atomic():
            await ensure_players(self._db, [u for u in (challenger_id, opponent_id) if u is not None], now)
            row = await self._db.one(
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
                to_json(options),
                message_id,
                now,
                expires_at,
            )
        assert row is not None
        return challenge_row(row)

    async def lock_channel(self, channel_id: int, now: float) -> None:
        """Hold the channel's row until the caller's transaction ends (call inside one).

        Like ``PlayerStore.lock`` for a member: challenges of several members in one
        channel, in one process or several, are counted one after the other. The upsert
        takes the row lock on PostgreSQL (a second caller waits, then sees at READ
        COMMITTED what the first committed); SQLite's ``BEGIN IMMEDIATE`` already runs
        one writing transaction at a time."""
        await self._db.execute(
            "INSERT INTO channel_locks (channel_id, locked_at) VALUES ($1, $2)"
            " ON CONFLICT (channel_id) DO UPDATE SET locked_at = excluded.locked_at",
            channel_id,
            now,
        )

    async def pending_in_channel(self, channel_id: int, now: float) -> list[ChallengeRow]:
        """The channel's pending challenges not yet past their time, oldest first."""
        rows = await self._db.all(
            "SELECT * FROM challenges WHERE status = 'pending' AND channel_id = $1 AND expires_at > $2"
            " ORDER BY id",
            channel_id,
            now,
        )
        return [challenge_row(row) for row in rows]

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        if not 0 < challenge_id <= MAX_INTEGER:
            return None  # no such row, and a number the database would refuse
        row = await self._db.one("SELECT * FROM challenges WHERE id = $1", challenge_id)
        return None if row is None else challenge_row(row)

    async def pending_challenges(self, *, user_id: int | None = None) -> list[ChallengeRow]:
        """Pending challenges (by or to ``user_id`` if given), oldest first."""
        if user_id is None:
            rows = await self._db.all("SELECT * FROM challenges WHERE status = 'pending' ORDER BY id")
        else:
            rows = await self._db.all(
                "SELECT * FROM challenges WHERE status = 'pending'"
                " AND (challenger_id = $1 OR opponent_id = $1) ORDER BY id",
                user_id,
            )
        return [challenge_row(row) for row in rows]

    async def expired_challenges(self, now: float) -> list[ChallengeRow]:
        rows = await self._db.all(
            "SELECT * FROM challenges WHERE status = 'pending' AND expires_at <= $1 ORDER BY expires_at",
            now,
        )
        return [challenge_row(row) for row in rows]

    async def set_challenge_message(self, challenge_id: int, message_id: int | None) -> None:
        await self._db.execute(
            "UPDATE challenges SET message_id = $1 WHERE id = $2", message_id, challenge_id
        )

    async def resolve_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        *,
        game_id: int | None = None,
        now: float | None = None,
    ) -> bool:
        """Move a pending challenge to ``status`` (answered at ``now``). Returns False if it
        was no longer pending, so that of two simultaneous answers (accept and cancel, or
        two accepts) one wins."""
        return (
            await self._db.execute(
                "UPDATE challenges SET status = $1, game_id = $2, resolved_at = $3"
                " WHERE id = $4 AND status = 'pending'",
                status,
                game_id,
                now,
                challenge_id,
            )
            == 1
        )

    async def last_unanswered(self, challenger_id: int, opponent_id: int) -> float | None:
        """When ``challenger_id``'s latest challenge to ``opponent_id`` was declined or
        expired, if one was (the re-challenge cooldown counts from then)."""
        value = await self._db.value(
            "SELECT MAX(resolved_at) FROM challenges WHERE challenger_id = $1 AND opponent_id = $2"
            " AND status IN ('declined', 'expired')",
            challenger_id,
            opponent_id,
        )
        return None if value is None else float(value)

    # -- matches ---------------------------------------------------------------------

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
        async with self._db.atomic():
            await ensure_players(self._db, players, now)
            row = await self._db.one(
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
                to_json(options),
                target,
                now,
                now,
            )
        assert row is not None
        return match_row(row)

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._db.one("SELECT * FROM matches WHERE id = $1", match_id)
        return None if row is None else match_row(row)

    async def update_match(
        self, match_id: int, *, scores: tuple[int, int], games: int, winner_id: int | None, now: float
    ) -> None:
        """Store a match's score after a game; a ``winner_id`` finishes the match."""
        await self._db.execute(
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
        rows = await self._db.all("SELECT * FROM matches WHERE status = 'active' ORDER BY id")
        return [match_row(row) for row in rows]

    async def match_games(self, match_id: int) -> list[GameRow]:
        rows = await self._db.all("SELECT * FROM games WHERE match_id = $1 ORDER BY id", match_id)
        return [game_row(row) for row in rows]

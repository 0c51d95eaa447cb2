"""``TournamentStore``: tournaments, their entrants and their pairings (migration 8).

Every change that could race is a conditional update of the tournament's row, so of
two processes (or two clicks) exactly one wins: joining and leaving first touch the row
``WHERE status = 'open'`` (on PostgreSQL that also makes a concurrent start wait for
them, and them for it), the start moves ``open`` to ``running``, a round is paired by
the transaction that moves ``round`` from N to N + 1, and the end is ``running`` to
``finished``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.storage.rows import (
    EntrantRow,
    EntrantStatus,
    PairingRow,
    TournamentGameRow,
    TournamentRow,
    TournamentStatus,
)
from bot.storage.sql import Executor, Row, to_json


def tournament_row(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organiser_id=row["organiser_id"],
        name=row["name"],
        format=row["format"],
        rounds=row["rounds"],
        best_of=row["best_of"],
        options=json.loads(row["options"]),
        turn_time=row["turn_time"],
        max_players=row["max_players"],
        status=row["status"],
        round=row["round"],
        signup_message_id=row["signup_message_id"],
        standings_message_id=row["standings_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def entrant_row(row: Row) -> EntrantRow:
    return EntrantRow(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        rating=row["rating"],
        status=row["status"],
        joined_at=row["joined_at"],
    )


def pairing_row(row: Row) -> PairingRow:
    return PairingRow(
        tournament_id=row["tournament_id"],
        round=row["round"],
        board=row["board"],
        white=row["white"],
        black=row["black"],
        game_id=row["game_id"],
        match_id=row["match_id"],
        winner_id=row["winner_id"],
        done=bool(row["done"]),
    )


class TournamentStore:
    """The ``tournaments``, ``tournament_entrants`` and ``tournament_pairings`` tables."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    # -- tournaments -----------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        format: str,
        rounds: int | None,
        best_of: int,
        options: Mapping[str, Any],
        turn_time: float,
        max_players: int | None,
        now: float,
    ) -> TournamentRow:
        row = await self._db.one(
            """
            INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, format, rounds, best_of,
                                     options, turn_time, max_players, created_at, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
            RETURNING *
            """,
            guild_id,
            channel_id,
            organiser_id,
            name,
            format,
            rounds,
            best_of,
            to_json(options),
            turn_time,
            max_players,
            now,
        )
        assert row is not None
        return tournament_row(row)

    async def get(self, tournament_id: int) -> TournamentRow | None:
        row = await self._db.one("SELECT * FROM tournaments WHERE id = $1", tournament_id)
        return None if row is None else tournament_row(row)

    async def of_guild(self, guild_id: int, statuses: Sequence[TournamentStatus]) -> list[TournamentRow]:
        """The server's tournaments in one of ``statuses``, newest first."""
        marks = ", ".join(f"${i}" for i in range(2, len(statuses) + 2))
        rows = await self._db.all(
            f"SELECT * FROM tournaments WHERE guild_id = $1 AND status IN ({marks}) ORDER BY id DESC",
            guild_id,
            *statuses,
        )
        return [tournament_row(row) for row in rows]

    async def running(self) -> list[TournamentRow]:
        rows = await self._db.all("SELECT * FROM tournaments WHERE status = 'running' ORDER BY id")
        return [tournament_row(row) for row in rows]

    async def touch_open(self, tournament_id: int, now: float) -> bool:
        """Claim the tournament's row while sign-up is open (a join or a leave): False if
        it is no longer open. On PostgreSQL the row stays locked until the transaction
        ends, so a start waits for the sign-up change, or the change for the start."""
        return (
            await self._db.execute(
                "UPDATE tournaments SET updated_at = $1 WHERE id = $2 AND status = 'open'", now, tournament_id
            )
            == 1
        )

    async def set_status(
        self,
        tournament_id: int,
        status: TournamentStatus,
        *,
        expected: Sequence[TournamentStatus],
        now: float,
        rounds: int | None = None,
    ) -> bool:
        """Move the tournament to ``status`` if it is in one of ``expected`` (one winner)."""
        marks = ", ".join(f"${i}" for i in range(5, len(expected) + 5))
        return (
            await self._db.execute(
                f"UPDATE tournaments SET status = $1, updated_at = $2, rounds = COALESCE($3, rounds)"
                f" WHERE id = $4 AND status IN ({marks})",
                status,
                now,
                rounds,
                tournament_id,
                *expected,
            )
            == 1
        )

    async def advance_round(self, tournament_id: int, from_round: int, now: float) -> bool:
        """Move a running tournament from round ``from_round`` to the next: True for the
        one caller (of any process) that did."""
        return (
            await self._db.execute(
                "UPDATE tournaments SET round = round + 1, updated_at = $1"
                " WHERE id = $2 AND round = $3 AND status = 'running'",
                now,
                tournament_id,
                from_round,
            )
            == 1
        )

    async def finish(self, tournament_id: int, last_round: int, now: float) -> bool:
        return (
            await self._db.execute(
                "UPDATE tournaments SET status = 'finished', updated_at = $1"
                " WHERE id = $2 AND round = $3 AND status = 'running'",
                now,
                tournament_id,
                last_round,
            )
            == 1
        )

    async def set_message(self, tournament_id: int, kind: str, message_id: int | None) -> None:
        column = {"signup": "signup_message_id", "standings": "standings_message_id"}[kind]
        await self._db.execute(
            f"UPDATE tournaments SET {column} = $1 WHERE id = $2", message_id, tournament_id
        )

    # -- entrants --------------------------------------------------------------------

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self._db.all(
            "SELECT * FROM tournament_entrants WHERE tournament_id = $1 ORDER BY joined_at, user_id",
            tournament_id,
        )
        return [entrant_row(row) for row in rows]

    async def entrant(self, tournament_id: int, user_id: int) -> EntrantRow | None:
        row = await self._db.one(
            "SELECT * FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2",
            tournament_id,
            user_id,
        )
        return None if row is None else entrant_row(row)

    async def add_entrant(self, tournament_id: int, user_id: int, rating: float, now: float) -> bool:
        """False if the user is an entrant (or was kicked) already."""
        return (
            await self._db.execute(
                "INSERT INTO tournament_entrants (tournament_id, user_id, rating, joined_at)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (tournament_id, user_id) DO NOTHING",
                tournament_id,
                user_id,
                rating,
                now,
            )
            == 1
        )

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        return (
            await self._db.execute(
                "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 AND status = 'in'",
                tournament_id,
                user_id,
            )
            == 1
        )

    async def set_entrant_status(
        self, tournament_id: int, user_id: int, status: EntrantStatus, *, expected: EntrantStatus = "in"
    ) -> bool:
        return (
            await self._db.execute(
                "UPDATE tournament_entrants SET status = $1"
                " WHERE tournament_id = $2 AND user_id = $3 AND status = $4",
                status,
                tournament_id,
                user_id,
                expected,
            )
            == 1
        )

    async def tournaments_of(self, user_id: int, guild_id: int) -> list[TournamentRow]:
        """The open or running tournaments of the server that ``user_id`` is in."""
        rows = await self._db.all(
            "SELECT t.* FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id"
            " WHERE e.user_id = $1 AND t.guild_id = $2 AND t.status IN ('open', 'running')"
            " ORDER BY t.id DESC",
            user_id,
            guild_id,
        )
        return [tournament_row(row) for row in rows]

    # -- pairings --------------------------------------------------------------------

    async def add_pairing(
        self,
        tournament_id: int,
        round_no: int,
        board: int,
        white: int,
        black: int | None,
        *,
        game_id: int | None = None,
        match_id: int | None = None,
        winner_id: int | None = None,
        done: bool = False,
    ) -> None:
        await self._db.execute(
            "INSERT INTO tournament_pairings (tournament_id, round, board, white, black, game_id, match_id,"
            " winner_id, done) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            tournament_id,
            round_no,
            board,
            white,
            black,
            game_id,
            match_id,
            winner_id,
            int(done),
        )

    async def pairings(self, tournament_id: int, round_no: int | None = None) -> list[PairingRow]:
        if round_no is None:
            rows = await self._db.all(
                "SELECT * FROM tournament_pairings WHERE tournament_id = $1 ORDER BY round, board",
                tournament_id,
            )
        else:
            rows = await self._db.all(
                "SELECT * FROM tournament_pairings WHERE tournament_id = $1 AND round = $2 ORDER BY board",
                tournament_id,
                round_no,
            )
        return [pairing_row(row) for row in rows]

    async def pairing_of(
        self, *, game_id: int | None = None, match_id: int | None = None
    ) -> PairingRow | None:
        """The pairing a game (or a knockout tie's match) is played for, if any."""
        if match_id is not None:
            row = await self._db.one("SELECT * FROM tournament_pairings WHERE match_id = $1", match_id)
        else:
            row = await self._db.one("SELECT * FROM tournament_pairings WHERE game_id = $1", game_id)
        return None if row is None else pairing_row(row)

    async def cancelled_game(self, game_id: int, match_id: int | None) -> bool:
        """Whether the game (or its knockout tie's match) was played for a tournament that
        was cancelled: such a game goes on as a casual game, unrated."""
        column, key = ("match_id", match_id) if match_id is not None else ("game_id", game_id)
        row = await self._db.one(
            "SELECT 1 AS hit FROM tournament_pairings p JOIN tournaments t ON t.id = p.tournament_id"
            f" WHERE p.{column} = $1 AND t.status = 'cancelled'",
            key,
        )
        return row is not None

    async def decide(self, pairing: PairingRow, winner_id: int | None) -> bool:
        """Record a pairing's outcome, once: False if it was decided already."""
        return (
            await self._db.execute(
                "UPDATE tournament_pairings SET winner_id = $1, done = 1"
                " WHERE tournament_id = $2 AND round = $3 AND board = $4 AND done = 0",
                winner_id,
                pairing.tournament_id,
                pairing.round,
                pairing.board,
            )
            == 1
        )

    async def games(self, tournament_id: int) -> list[TournamentGameRow]:
        """Every finished game of the tournament (a knockout tie's games included), by round."""
        rows = await self._db.all(
            """
            SELECT p.round, g.player0, g.player1, g.first_player, r.winner_id, r.stones0, r.stones1, r.reason
            FROM tournament_pairings p
            JOIN games g ON g.id = p.game_id OR (p.match_id IS NOT NULL AND g.match_id = p.match_id)
            JOIN results r ON r.game_id = g.id
            WHERE p.tournament_id = $1
            ORDER BY p.round, g.id
            """,
            tournament_id,
        )
        out = []
        for row in rows:
            players = (row["player0"], row["player1"])
            stones = (row["stones0"], row["stones1"])
            first = row["first_player"]
            out.append(
                TournamentGameRow(
                    round=row["round"],
                    first=players[first],
                    second=players[1 - first],
                    winner_id=row["winner_id"],
                    first_stones=stones[first],
                    second_stones=stones[1 - first],
                    reason=row["reason"],
                )
            )
        return out

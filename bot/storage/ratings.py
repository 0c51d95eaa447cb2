"""``RatingStore``: what finished games leave behind, results and ratings.

A game's result, its rating changes and its match score are written in the
transaction of the move that finished it. The rest is read: the leaderboard, a
player's results and finished games by page, head-to-head records. What a member is
shown of players' results is limited to what an :class:`~bot.storage.rows.Audience`
may see: the results of the server asked in, and the asker's own games in DMs.
"""

from __future__ import annotations

from bot.storage.rows import Audience, RatingRow, ResultRow
from bot.storage.sql import NO_LIMIT, Executor, rating_row, result_row


def _seen(audience: Audience | None, first: int) -> tuple[str, list[int | None]]:
    """The condition that keeps the results ``audience`` may see (none: all), with its
    parameters numbered from ``first``: the server's games, and the games in DMs the
    asker played. Asked in DMs (no server), ``guild_id = NULL`` holds for no row."""
    if audience is None:
        return "", []
    a, b = first, first + 1
    condition = f"AND (guild_id = ${a} OR (guild_id IS NULL AND (player0 = ${b} OR player1 = ${b})))"
    return condition, [audience.guild_id, audience.asker_id]


class RatingStore:
    """The ``results``, ``ratings`` and ``rating_changes`` tables."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    # -- results ---------------------------------------------------------------------

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
        await self._db.execute(
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
        row = await self._db.one("SELECT * FROM results WHERE game_id = $1", game_id)
        return None if row is None else result_row(row)

    async def recent_results(self, *, guild_id: int | None = None, limit: int = 20) -> list[ResultRow]:
        if guild_id is None:
            rows = await self._db.all("SELECT * FROM results ORDER BY finished_at DESC LIMIT $1", limit)
        else:
            rows = await self._db.all(
                "SELECT * FROM results WHERE guild_id = $1 ORDER BY finished_at DESC LIMIT $2",
                guild_id,
                limit,
            )
        return [result_row(row) for row in rows]

    async def player_results(
        self, user_id: int, *, audience: Audience | None = None, limit: int | None = None
    ) -> list[ResultRow]:
        """Results of the rated games ``user_id`` played (those ``audience`` may see, if
        given), newest first. Practice games against the bot's AI are left out."""
        seen, params = _seen(audience, 3)
        rows = await self._db.all(
            f"""
            SELECT * FROM results
            WHERE (player0 = $1 OR player1 = $1)
              AND game_id IN (SELECT id FROM games WHERE ai_player IS NULL) {seen}
            ORDER BY finished_at DESC, game_id DESC LIMIT $2
            """,
            user_id,
            NO_LIMIT if limit is None else limit,
            *params,
        )
        return [result_row(row) for row in rows]

    async def head_to_head(
        self, user_id: int, opponent_id: int, *, audience: Audience | None = None
    ) -> tuple[int, int, int]:
        """``user_id``'s (wins, losses, draws) in games against ``opponent_id`` (those
        ``audience`` may see, if given; else everywhere)."""
        seen, params = _seen(audience, 3)
        row = await self._db.one(
            f"""
            SELECT COUNT(*) FILTER (WHERE winner_id = $1) AS wins,
                   COUNT(*) FILTER (WHERE winner_id = $2) AS losses,
                   COUNT(*) FILTER (WHERE winner_id IS NULL) AS draws
            FROM results
            WHERE ((player0 = $1 AND player1 = $2) OR (player0 = $2 AND player1 = $1))
              AND game_id IN (SELECT id FROM games WHERE ai_player IS NULL) {seen}
            """,
            user_id,
            opponent_id,
            *params,
        )
        assert row is not None
        return int(row["wins"]), int(row["losses"]), int(row["draws"])

    async def finished_games_count(self, user_id: int, *, audience: Audience | None = None) -> int:
        """How many finished games ``user_id`` played (practice games included; those
        ``audience`` may see, if given)."""
        seen, params = _seen(audience, 2)
        count = await self._db.value(
            f"SELECT COUNT(*) FROM results WHERE (player0 = $1 OR player1 = $1) {seen}", user_id, *params
        )
        return int(count or 0)

    async def finished_results_page(
        self, user_id: int, *, offset: int, limit: int, audience: Audience | None = None
    ) -> list[ResultRow]:
        """Results of ``user_id``'s finished games (practice games included; those
        ``audience`` may see, if given), newest first."""
        seen, params = _seen(audience, 4)
        rows = await self._db.all(
            f"""
            SELECT * FROM results WHERE (player0 = $1 OR player1 = $1) {seen}
            ORDER BY finished_at DESC, game_id DESC LIMIT $2 OFFSET $3
            """,
            user_id,
            limit,
            offset,
            *params,
        )
        return [result_row(row) for row in rows]

    # -- ratings ---------------------------------------------------------------------

    async def get_rating(self, scope: str, user_id: int) -> RatingRow | None:
        row = await self._db.one("SELECT * FROM ratings WHERE scope = $1 AND user_id = $2", scope, user_id)
        return None if row is None else rating_row(row)

    async def save_rating(
        self, rating: RatingRow, *, game_id: int | None = None, before: float | None = None
    ) -> None:
        """Insert or replace a rating; with ``game_id`` also log the change from ``before``."""
        async with self._db.atomic():
            await self._db.execute(
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
                await self._db.execute(
                    "INSERT INTO rating_changes (game_id, scope, user_id, before, after)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    game_id,
                    rating.scope,
                    rating.user_id,
                    rating.rating if before is None else before,
                    rating.rating,
                )

    async def rating_changes(self, game_id: int) -> list[tuple[str, int, float, float]]:
        """How the result of ``game_id`` moved ratings: ``(scope, user_id, before, after)``."""
        rows = await self._db.all(
            "SELECT scope, user_id, before, after FROM rating_changes WHERE game_id = $1"
            " ORDER BY scope, user_id",
            game_id,
        )
        return [(row["scope"], row["user_id"], row["before"], row["after"]) for row in rows]

    async def leaderboard(self, scope: str, *, limit: int = 10, min_games: int = 1) -> list[RatingRow]:
        rows = await self._db.all(
            "SELECT * FROM ratings WHERE scope = $1 AND games >= $2"
            " ORDER BY rating DESC, games DESC LIMIT $3",
            scope,
            min_games,
            limit,
        )
        return [rating_row(row) for row in rows]

    async def leaderboard_page(
        self, scope: str, *, offset: int = 0, limit: int = 10, min_games: int = 1
    ) -> list[RatingRow]:
        """Ratings of ``scope`` by rank (rating, then games, then user id), one page."""
        rows = await self._db.all(
            """
            SELECT * FROM ratings WHERE scope = $1 AND games >= $2
            ORDER BY rating DESC, games DESC, user_id LIMIT $3 OFFSET $4
            """,
            scope,
            min_games,
            limit,
            offset,
        )
        return [rating_row(row) for row in rows]

    async def leaderboard_size(self, scope: str, *, min_games: int = 1) -> int:
        count = await self._db.value(
            "SELECT COUNT(*) FROM ratings WHERE scope = $1 AND games >= $2", scope, min_games
        )
        return int(count or 0)

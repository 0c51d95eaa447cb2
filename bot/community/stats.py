"""Ratings and player statistics on top of the storage.

* :func:`rate_result` is a ``GameService`` result hook: it runs inside the transaction
  of the move that finished a game, right after its result row is written, so a result
  and its rating changes commit together or not at all. :func:`install` registers it.
* Ratings are Elo (see :mod:`bot.community.ratings` for why and the parameters), kept per scope:
  ``global`` for every game and ``guild:<id>`` for the games of one server. A game
  played in DMs (no guild) counts for the global rating only. Every finished game is
  rated: resigning, running out of time and leaving a tournament (withdrawn or removed)
  are losses; a draw (both passed with equal stones) is a draw. A declined or expired
  challenge never becomes a game, so it counts for nothing.
* Matches are scored by :mod:`bot.games.matches`, whose hook :func:`install` registers after
  the rating hook.
* :class:`Rankings` reads what ``/schotten leaderboard`` and ``/schotten stats`` show.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.community.ratings import GLOBAL_SCOPE, INITIAL_RATING, elo_update, guild_scope, score_for
from bot.games.matches import MatchService, next_first_player, next_match_game, score_match
from bot.storage import Audience, RatingRow, RatingStore, Repositories, ResultRow

if TYPE_CHECKING:
    from bot.games.live import LiveGame
    from bot.games.service import GameService

RECENT_RESULTS = 5


def scopes_for(guild_id: int | None) -> list[str]:
    """The rating scopes a game in ``guild_id`` (None: DMs) counts for."""
    return [GLOBAL_SCOPE] if guild_id is None else [GLOBAL_SCOPE, guild_scope(guild_id)]


def _new_rating(scope: str, user_id: int, now: float) -> RatingRow:
    return RatingRow(scope, user_id, INITIAL_RATING, 0, 0, 0, 0, now)


async def rate_result(tx: Repositories, record: LiveGame, result: ResultRow) -> None:
    """Update both players' ratings in every scope of the game (a result hook, in the
    transaction ``tx``). A practice game against the bot's AI is not rated, nor a game
    of a cancelled tournament (it went on as a casual game)."""
    if record.vs_ai or await tx.tournaments.cancelled_game(record.id, record.match_id):
        return
    await rate(tx.ratings, result)


async def rate(db: RatingStore, result: ResultRow) -> None:
    now = result.finished_at
    score = score_for(result.winner)
    for scope in scopes_for(result.guild_id):
        rows = [
            await db.get_rating(scope, user_id) or _new_rating(scope, user_id, now)
            for user_id in result.players
        ]
        update = elo_update(
            (rows[0].rating, rows[1].rating), score, games_played=(rows[0].games, rows[1].games)
        )
        for player, row in enumerate(rows):
            won = result.winner == player
            lost = result.winner is not None and not won
            await db.save_rating(
                RatingRow(
                    scope=scope,
                    user_id=row.user_id,
                    rating=update.after[player],
                    games=row.games + 1,
                    wins=row.wins + int(won),
                    losses=row.losses + int(lost),
                    draws=row.draws + int(result.winner is None),
                    updated_at=now,
                ),
                game_id=result.game_id,
                before=row.rating,
            )


def install(service: GameService, matches: MatchService | None = None) -> None:
    """Register the result hooks on ``service``: ratings first, then the match score."""
    service.result_hooks.append(rate_result)
    if matches is not None:
        service.result_hooks.append(matches.result_hook)
    else:

        async def match_hook(tx: Repositories, record: LiveGame, result: ResultRow) -> None:
            await score_match(service, tx, record, result)

        service.result_hooks.append(match_hook)


# -------------------------------------------------------------------------- stats


@dataclass(frozen=True)
class RecentResult:
    game_id: int
    opponent_id: int
    outcome: str  # "win" | "loss" | "draw"
    reason: str
    stones: tuple[int, int]  # own, opponent's


@dataclass(frozen=True)
class PlayerStats:
    user_id: int
    guild_rating: RatingRow | None  # None: no game in this server (or asked in DMs)
    global_rating: RatingRow | None
    games: int
    wins: int
    losses: int
    draws: int
    stones_won: int
    current_streak: int  # wins in a row up to the latest game
    best_streak: int
    recent: list[RecentResult]
    head_to_head: tuple[int, int, int] | None  # (wins, losses, draws) vs the caller


def outcome_for(result: ResultRow, user_id: int) -> str:
    if result.winner_id is None:
        return "draw"
    return "win" if result.winner_id == user_id else "loss"


def streaks(outcomes_newest_first: Sequence[str]) -> tuple[int, int]:
    """(current, best) winning streaks; a loss or a draw ends a streak."""
    current = 0
    for outcome in outcomes_newest_first:
        if outcome != "win":
            break
        current += 1
    best = run = 0
    for outcome in outcomes_newest_first:
        run = run + 1 if outcome == "win" else 0
        best = max(best, run)
    return current, best


async def player_stats(db: RatingStore, user_id: int, *, audience: Audience) -> PlayerStats | None:
    """Everything ``/schotten stats`` shows for ``user_id`` to ``audience``; None if they
    finished no game it may see. Record, stones, streaks, recent games and the
    head-to-head count the games of the server asked in and the asker's own games in
    DMs, nothing of other servers; the ratings are this server's and the global one
    (which the global leaderboard shows anyone)."""
    guild_id, caller_id = audience.guild_id, audience.asker_id
    results = await db.player_results(user_id, audience=audience)
    if not results:
        return None
    outcomes = [outcome_for(r, user_id) for r in results]
    current, best = streaks(outcomes)
    recent = []
    for result in results[:RECENT_RESULTS]:
        me = result.players.index(user_id)
        recent.append(
            RecentResult(
                game_id=result.game_id,
                opponent_id=result.players[1 - me],
                outcome=outcome_for(result, user_id),
                reason=result.reason,
                stones=(result.stones[me], result.stones[1 - me]),
            )
        )
    return PlayerStats(
        user_id=user_id,
        guild_rating=None if guild_id is None else await db.get_rating(guild_scope(guild_id), user_id),
        global_rating=await db.get_rating(GLOBAL_SCOPE, user_id),
        games=len(results),
        wins=outcomes.count("win"),
        losses=outcomes.count("loss"),
        draws=outcomes.count("draw"),
        stones_won=sum(r.stones[r.players.index(user_id)] for r in results),
        current_streak=current,
        best_streak=best,
        recent=recent,
        head_to_head=None
        if caller_id == user_id
        else await db.head_to_head(caller_id, user_id, audience=audience),
    )


# ---------------------------------------------------------------------- rankings

LEADERBOARD_PAGE_SIZE = 10


@dataclass(frozen=True)
class LeaderboardPage:
    scope: str
    page: int  # from 0; the last page when more was asked for
    pages: int
    first_rank: int
    rows: list[RatingRow]


RatingChange = tuple[int, float, float]  # user id, rating before, after


class Rankings:
    """What the leaderboard, the stats and the end of a game read about ratings."""

    def __init__(self, ratings: RatingStore) -> None:
        self.ratings = ratings

    async def page(
        self, scope: str, page: int, *, size: int = LEADERBOARD_PAGE_SIZE
    ) -> LeaderboardPage | None:
        """One page of ``scope``'s leaderboard; None when nobody is rated there."""
        total = await self.ratings.leaderboard_size(scope)
        if total == 0:
            return None
        pages = math.ceil(total / size)
        page = max(0, min(page, pages - 1))
        rows = await self.ratings.leaderboard_page(scope, offset=page * size, limit=size)
        return LeaderboardPage(scope, page, pages, page * size + 1, rows)

    async def changes(self, game_id: int, scope: str) -> list[RatingChange]:
        """The rating changes a finished game made in ``scope``."""
        return [
            (user_id, before, after)
            for change_scope, user_id, before, after in await self.ratings.rating_changes(game_id)
            if change_scope == scope
        ]

    async def player(self, user_id: int, *, audience: Audience) -> PlayerStats | None:
        return await player_stats(self.ratings, user_id, audience=audience)


__all__ = [
    "LeaderboardPage",
    "MatchService",
    "PlayerStats",
    "Rankings",
    "RecentResult",
    "install",
    "next_first_player",
    "next_match_game",
    "player_stats",
    "rate",
    "rate_result",
    "scopes_for",
    "streaks",
]

"""Ratings, matches and player statistics on top of the storage (issue 6).

* :func:`rate_result` and :func:`match_hook` are ``GameService.result_hooks``: they run
  inside the transaction of the move that finished a game, right after its result row
  is written, so a result, its rating changes, the match score and the match's next
  game commit together or not at all. :func:`install` registers them.
* Ratings are Elo (see :mod:`bot.ratings` for why and the parameters), kept per scope:
  ``global`` for every game and ``guild:<id>`` for the games of one server. A game
  played in DMs (no guild) counts for the global rating only. Every finished game is
  rated: resigning and running out of time are losses; a draw (both passed with equal
  stones) is a draw. A declined or expired challenge never becomes a game, so it
  counts for nothing.
* Matches: the rulebook's scoring (:func:`rules.game.match_points`: the winner 5 points,
  the loser 1 per stone owned). When a game of a match ends and nobody has reached the
  target, the next game is created in the same transaction: the previous winner moves
  first; after a draw, the player who did not start the previous game starts. When both
  reach the target in the same game, the higher score wins the match; equal scores play
  on.
* :func:`player_stats` gathers what ``/schotten stats`` shows.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.ratings import GLOBAL_SCOPE, INITIAL_RATING, elo_update, guild_scope, score_for
from bot.storage import MatchRow, RatingRow, ResultRow, Storage
from rules.game import Game, GameOptions, Result, match_points

if TYPE_CHECKING:
    from bot.service import GameRecord, GameService

RECENT_RESULTS = 5


def scopes_for(guild_id: int | None) -> list[str]:
    """The rating scopes a game in ``guild_id`` (None: DMs) counts for."""
    return [GLOBAL_SCOPE] if guild_id is None else [GLOBAL_SCOPE, guild_scope(guild_id)]


def _new_rating(scope: str, user_id: int, now: float) -> RatingRow:
    return RatingRow(scope, user_id, INITIAL_RATING, 0, 0, 0, 0, now)


async def rate_result(db: Storage, record: GameRecord, result: ResultRow) -> None:
    """Update both players' ratings in every scope of the game (a result hook). A
    practice game against the bot's AI (issue 7) is not rated."""
    if getattr(record, "ai_player", None) is not None:
        return
    await rate(db, result)


async def rate(db: Storage, result: ResultRow) -> None:
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


# ------------------------------------------------------------------------ matches


def match_winner(match: MatchRow, scores: tuple[int, int]) -> int | None:
    """The user id who won the match at ``scores``, None while it goes on."""
    if max(scores) < match.target or scores[0] == scores[1]:
        return None
    return match.players[0] if scores[0] > scores[1] else match.players[1]


def next_first_player(record: GameRecord, result: Result) -> int:
    """Engine player who starts the next game of a match: the winner; after a draw,
    the player who did not start this one."""
    return (1 - record.first_player) if result.winner is None else result.winner


def match_hook(service: GameService) -> Any:
    """A result hook that scores ``service``'s match games and starts the next one."""

    async def hook(db: Storage, record: GameRecord, result: ResultRow) -> None:
        if record.match_id is None:
            return
        match = await db.get_match(record.match_id)
        if match is None or match.status != "active":
            return
        engine_result = Result(result.winner, result.reason, result.stones)
        points = match_points(engine_result)
        # Match scores are by match player; the game's players are in the match's order,
        # but map by user id all the same.
        scores = [match.scores[0], match.scores[1]]
        for player, user_id in enumerate(record.players):
            scores[match.players.index(user_id)] += points[player]
        total = (scores[0], scores[1])
        winner_id = match_winner(match, total)
        now = result.finished_at
        await db.update_match(match.id, scores=total, games=match.games + 1, winner_id=winner_id, now=now)
        if winner_id is not None:
            return
        first = record.players[next_first_player(record, engine_result)]
        await insert_match_game(service, db, match, first_user=first, now=now)

    return hook


async def insert_match_game(
    service: GameService, db: Storage, match: MatchRow, *, first_user: int, now: float
) -> int:
    """Create the next game of ``match`` (inside the caller's transaction); its id."""
    options = GameOptions.from_dict(match.options)
    seed = secrets.randbits(62)
    first_player = match.players.index(first_user)
    game = Game.new(seed=seed, options=options, first_player=first_player)
    service._apply_forced(game)
    game_id = await db.insert_game(
        guild_id=match.guild_id,
        channel_id=match.channel_id,
        players=match.players,
        options=options.to_dict(),
        seed=seed,
        first_player=first_player,
        match_id=match.id,
        state=game.to_dict(),
        version=game.version,
        now=now,
        deadline=None if game.is_over else now + service.turn_timeout,
    )
    if game.log:
        await db.append_moves(game_id, service._entries(game, 0), version=game.version, now=now)
    return game_id


async def next_match_game(db: Storage, match_id: int) -> int | None:
    """The active game of a match, if any (the one that follows a finished game)."""
    for row in reversed(await db.match_games(match_id)):
        if row.status == "active":
            return row.id
    return None


def install(service: GameService) -> None:
    """Register the rating and match hooks on ``service`` (ratings first)."""
    service.result_hooks.append(rate_result)
    service.result_hooks.append(match_hook(service))


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


async def player_stats(
    db: Storage, user_id: int, *, guild_id: int | None, caller_id: int | None = None
) -> PlayerStats | None:
    """Everything ``/schotten stats`` shows for ``user_id``; None if they never finished
    a game. Record, stones and streaks count every game (the global record)."""
    results = await db.player_results(user_id)
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
        if caller_id is None or caller_id == user_id
        else await db.head_to_head(caller_id, user_id),
    )

"""``MatchService``: matches to a number of points, game after game.

The rulebook's scoring (:func:`rules.game.match_points`): the winner scores 5, the loser
1 per stone owned. :meth:`MatchService.result_hook` runs inside the transaction that
records a game's result, so the result, the match score and the match's next game
commit together or not at all. The previous winner starts the next game; after a draw,
the player who did not start the previous one. When both reach the target in the same
game, the higher score wins the match; equal scores play on.

The scores of matches in progress are kept in memory for the board's score line; the
database stays the truth, and :meth:`MatchService.refresh` re-reads a match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.storage import ChallengeStore, MatchRow, Repositories, ResultRow
from rules.game import GameOptions, Result, match_points, parse_reason

if TYPE_CHECKING:
    from bot.games.live import LiveGame
    from bot.games.service import GameService


def match_winner(match: MatchRow, scores: tuple[int, int]) -> int | None:
    """The user id who won the match at ``scores``, None while it goes on."""
    if max(scores) < match.target or scores[0] == scores[1]:
        return None
    return match.players[0] if scores[0] > scores[1] else match.players[1]


def game_points(match: MatchRow, result: Result) -> tuple[int, int]:
    """What a game scores in ``match``, by engine player: the rulebook's points, or in a
    best-of match (a tournament's knockout tie: ``options["best_of"]``, ``target`` the
    wins needed) one per game won, nothing for a draw."""
    if match.options.get("best_of"):
        if result.winner is None:
            return (0, 0)
        return (1, 0) if result.winner == 0 else (0, 1)
    return match_points(result)


def next_first_player(record: LiveGame, result: Result) -> int:
    """Engine player who starts the next game of a match: the winner; after a draw,
    the player who did not start this one."""
    return (1 - record.first_player) if result.winner is None else result.winner


async def next_match_game(store: ChallengeStore, match_id: int) -> int | None:
    """The active game of a match, if any (the one that follows a finished game)."""
    for row in reversed(await store.match_games(match_id)):
        if row.status == "active":
            return row.id
    return None


async def score_match(games: GameService, tx: Repositories, record: LiveGame, result: ResultRow) -> None:
    """Score a finished game of a match and create the next game: a result hook's work,
    in the transaction ``tx`` of the move that finished the game."""
    if record.match_id is None:
        return
    match = await tx.challenges.get_match(record.match_id)
    if match is None or match.status != "active":
        return
    engine_result = Result(result.winner, parse_reason(result.reason), result.stones)
    points = game_points(match, engine_result)
    # Match scores are by match player: map the game's players by user id.
    scores = [match.scores[0], match.scores[1]]
    for player, user_id in enumerate(record.players):
        scores[match.players.index(user_id)] += points[player]
    total = (scores[0], scores[1])
    winner_id = match_winner(match, total)
    await tx.challenges.update_match(
        match.id, scores=total, games=match.games + 1, winner_id=winner_id, now=result.finished_at
    )
    if winner_id is not None:
        return
    first_user = record.players[next_first_player(record, engine_result)]
    await games.insert_game(
        tx,
        guild_id=match.guild_id,
        channel_id=match.channel_id,
        players=match.players,
        options=GameOptions.from_dict(match.options),
        first_player=match.players.index(first_user),
        match_id=match.id,
        turn_timeout=match.options.get("turn_time"),
    )


class MatchService:
    """Matches in progress, on the matches of ``store`` (``ChallengeStore``)."""

    def __init__(self, store: ChallengeStore, games: GameService) -> None:
        self.store = store
        self.games = games
        self._active: dict[int, MatchRow] = {}

    async def load(self) -> None:
        """Read the matches in progress (at start-up)."""
        self._active = {match.id: match for match in await self.store.active_matches()}

    def cached(self, match_id: int) -> MatchRow | None:
        """A match in progress as last read, without a database round trip."""
        return self._active.get(match_id)

    async def refresh(self, match_id: int) -> MatchRow | None:
        match = await self.store.get_match(match_id)
        if match is not None and match.status == "active":
            self._active[match_id] = match
        else:
            self._active.pop(match_id, None)
        return match

    async def get(self, match_id: int) -> MatchRow | None:
        return await self.store.get_match(match_id)

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int | None,
        players: tuple[int, int],
        options: GameOptions,
        target: int,
        tx: Repositories | None = None,
    ) -> MatchRow:
        """A new match (its first game is created by the caller, in its transaction ``tx``)."""
        return await (self.store if tx is None else tx.challenges).insert_match(
            guild_id=guild_id,
            channel_id=channel_id,
            players=players,
            options=options.to_dict(),
            target=target,
            now=self.games.clock(),
        )

    async def next_game(self, match_id: int) -> int | None:
        """The active game of a match, if any (the one that follows a finished game)."""
        return await next_match_game(self.store, match_id)

    async def result_hook(self, tx: Repositories, record: LiveGame, result: ResultRow) -> None:
        """Score a finished game of a match and create the next game (a result hook)."""
        await score_match(self.games, tx, record, result)


__all__ = [
    "MatchService",
    "game_points",
    "match_winner",
    "next_first_player",
    "next_match_game",
    "score_match",
]

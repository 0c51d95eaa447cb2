"""``History``: the finished games of the database, for players and the operator.

* :meth:`History.page` is one page of a member's finished games, newest first, with
  the opponent, the result and the change of the member's global rating
  (``/schotten history``): only those of the server asked in and the asker's own
  games in DMs (an :class:`~bot.storage.Audience`).
* :meth:`History.game` loads a game's header; :meth:`StoredGame.finished` then gives
  its whole record (seed, options, moves, result) for ``/schotten replay`` and
  ``/schotten export``, and refuses a game still in progress: its moves and seed would
  tell the hands.
* :meth:`History.guild_games` is every finished game of a server
  (``python -m bot export``).

Who may see a game is the cogs' decision (they know the caller's servers); this
service only reads.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.archive.record_file import RecordFile, RecordPlayer, Replayable
from bot.community.ratings import GLOBAL_SCOPE
from bot.community.stats import outcome_for
from bot.games.errors import GameNotFound, ServiceError
from bot.storage import Audience, GameRow, GameStore, RatingStore, ResultRow
from rules.game import GameOptions, Result, parse_reason

HISTORY_PAGE_SIZE = 10
JSON_FORMAT = "schotten-game"  # the objects of `python -m bot export`, one a line
JSON_VERSION = 1


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class GameInProgress(ServiceError):
    """A replay or an export of a game that is not over."""

    code = "record_in_progress"
    template = "Game #{game_id} is still being played."

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id=game_id)


@dataclass(frozen=True)
class HistoryEntry:
    """One finished game as one player saw it."""

    game_id: int
    guild_id: int | None  # None: played in DMs
    opponent_id: int
    outcome: str  # "win" | "loss" | "draw"
    reason: str  # rules.game.Result.reason
    stones: tuple[int, int]  # own, opponent's
    finished_at: float
    rating: tuple[float, float] | None  # the player's global rating before and after; None: unrated


@dataclass(frozen=True)
class HistoryPage:
    user_id: int
    page: int  # from 0; the last page when more was asked for
    pages: int
    total: int
    entries: list[HistoryEntry]


@dataclass(frozen=True)
class FinishedGame(Replayable):
    """Everything stored about a finished game, except its snapshot."""

    id: int
    guild_id: int | None
    channel_id: int | None
    players: tuple[int, int]  # Discord user ids of engine players 0 and 1
    options: GameOptions
    seed: int
    first_player: int
    moves: tuple[tuple[int, str], ...]  # the log: (engine player, move notation)
    result: ResultRow
    created_at: float
    ai_player: int | None

    @property
    def engine_result(self) -> Result:
        return Result(self.result.winner, parse_reason(self.result.reason), self.result.stones)

    def record(self, names: tuple[str, str]) -> RecordFile:
        """The game as a record file's contents, with the players' display names."""
        return RecordFile(
            options=self.options,
            seed=self.seed,
            players=(RecordPlayer(self.players[0], names[0]), RecordPlayer(self.players[1], names[1])),
            first_player=self.first_player,
            result=self.engine_result,
            moves=self.moves,
            game_id=self.id,
            started_at=self.created_at,
            finished_at=self.result.finished_at,
        )

    def to_json(self) -> dict[str, object]:
        """One line of ``python -m bot export`` (``docs/game-records.md``)."""
        result = self.result
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "id": self.id,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "seed": self.seed,
            "options": self.options.to_dict(),
            "players": list(self.players),
            "first_player": self.first_player,
            "ai_player": self.ai_player,
            "moves": [[player, move] for player, move in self.moves],
            "result": {
                "winner": result.winner,
                "winner_id": result.winner_id,
                "reason": result.reason,
                "stones": list(result.stones),
            },
            "created_at": _iso(self.created_at),
            "finished_at": _iso(result.finished_at),
        }


@dataclass(frozen=True)
class StoredGame:
    """A game's header: enough to decide who may see it. Its record only once it is over."""

    id: int
    guild_id: int | None
    players: tuple[int, int]
    finished_game: FinishedGame | None  # None: still in progress

    def finished(self) -> FinishedGame:
        """The whole record; :class:`GameInProgress` while the game is being played."""
        if self.finished_game is None:
            raise GameInProgress(self.id)
        return self.finished_game


class History:
    """Reads finished games: a player's history, a game's record, a server's games."""

    def __init__(self, games: GameStore, ratings: RatingStore) -> None:
        self.games = games
        self.ratings = ratings

    async def page(
        self, user_id: int, page: int, *, audience: Audience, size: int = HISTORY_PAGE_SIZE
    ) -> HistoryPage | None:
        """One page of ``user_id``'s finished games that ``audience`` may see (the games
        of the server asked in, and the asker's own games in DMs), newest first
        (practice games against the bot included); None when there is none."""
        total = await self.ratings.finished_games_count(user_id, audience=audience)
        if total == 0:
            return None
        pages = math.ceil(total / size)
        page = max(0, min(page, pages - 1))
        results = await self.ratings.finished_results_page(
            user_id, offset=page * size, limit=size, audience=audience
        )
        entries = []
        for result in results:
            me = result.players.index(user_id)
            rating = None
            for scope, changed_id, before, after in await self.ratings.rating_changes(result.game_id):
                if scope == GLOBAL_SCOPE and changed_id == user_id:
                    rating = (before, after)
            entries.append(
                HistoryEntry(
                    game_id=result.game_id,
                    guild_id=result.guild_id,
                    opponent_id=result.players[1 - me],
                    outcome=outcome_for(result, user_id),
                    reason=result.reason,
                    stones=(result.stones[me], result.stones[1 - me]),
                    finished_at=result.finished_at,
                    rating=rating,
                )
            )
        return HistoryPage(user_id, page, pages, total, entries)

    async def game(self, game_id: int) -> StoredGame:
        """The game with this id (``GameNotFound`` if there is none). The moves and the
        seed are read only when it is over."""
        row = await self.games.get_game(game_id)
        if row is None:
            raise GameNotFound(game_id)
        finished = None
        if row.status == "finished":
            result = await self.ratings.get_result(game_id)
            if result is not None:
                finished = await self._finished(row, result)
        return StoredGame(row.id, row.guild_id, row.players, finished)

    async def guild_games(self, guild_id: int) -> AsyncIterator[FinishedGame]:
        """Every finished game played in ``guild_id``, oldest first."""
        after = 0
        while rows := await self.games.finished_games_in_guild(guild_id, after_id=after):
            for row in rows:
                result = await self.ratings.get_result(row.id)
                if result is not None:
                    yield await self._finished(row, result)
            after = rows[-1].id

    async def _finished(self, row: GameRow, result: ResultRow) -> FinishedGame:
        moves = tuple((move.player, move.move) for move in await self.games.moves(row.id))
        return FinishedGame(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            players=row.players,
            options=GameOptions.from_dict(row.options),
            seed=row.seed,
            first_player=row.first_player,
            moves=moves,
            result=result,
            created_at=row.created_at,
            ai_player=row.ai_player,
        )


__all__ = [
    "HISTORY_PAGE_SIZE",
    "JSON_FORMAT",
    "JSON_VERSION",
    "FinishedGame",
    "GameInProgress",
    "History",
    "HistoryEntry",
    "HistoryPage",
    "StoredGame",
]

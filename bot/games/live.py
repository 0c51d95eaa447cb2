"""A live game as the services hold it (``LiveGame``, read from its stored row with
``from_row``), what one request changed (``MoveOutcome``), and the engine steps every
commit shares (the forced moves, the log entries to store)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.games.errors import GameUnreadable, NotAPlayer
from bot.storage import GameRow, ResultRow
from rules.game import Applied, Game, GameOptions, Result

log = logging.getLogger(__name__)

# A forced move never repeats forever; this bounds a buggy engine instead of hanging.
MAX_FORCED_MOVES = 64


@dataclass(frozen=True)
class LiveGame:
    """A game as stored: who plays it where, and the engine ``Game`` at ``version``.

    Treat ``game`` as read-only: the service replaces the record after every move
    rather than changing it, so a record you hold stays a consistent snapshot.
    """

    id: int
    guild_id: int | None
    channel_id: int | None
    players: tuple[int, int]  # Discord user ids; players[i] is engine player i
    options: GameOptions
    seed: int
    status: Literal["active", "finished"]
    game: Game
    version: int
    board_message_id: int | None = None
    dm_message_ids: tuple[int | None, int | None] = (None, None)  # by engine player
    created_at: float = 0.0
    updated_at: float = 0.0
    turn_started_at: float | None = None
    deadline: float | None = None  # the player to move forfeits after this time
    reminded: bool = False
    match_id: int | None = None
    first_player: int = 0  # engine player who moved first
    ai_player: int | None = None  # engine seat of the bot's own AI; None: two people
    ai_level: str | None = None  # the AI's difficulty (rules.ai LEVELS) when ai_player is set
    turn_timeout: float | None = None  # seconds per turn (a tournament's); None: the service's
    # Where the board lives: None not decided yet (or a game older than threads: its
    # channel), 0 the channel, else the game's thread. Set once, at the game's start.
    thread_id: int | None = None

    @property
    def vs_ai(self) -> bool:
        """A game against the bot's AI: unrated, the AI's turns have no deadline."""
        return self.ai_player is not None

    @property
    def ai_to_move(self) -> bool:
        return self.ai_player is not None and self.current_player == self.ai_player

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    @property
    def result(self) -> Result | None:
        return self.game.result if self.game.is_over else None

    @property
    def current_player(self) -> int | None:
        """Engine player to move (0/1), None when over."""
        return None if self.game.is_over else self.game.current_player

    @property
    def current_user(self) -> int | None:
        """Discord user id of the player to move, None when over."""
        player = self.current_player
        return None if player is None else self.players[player]

    def player_of(self, user_id: int) -> int | None:
        """Engine player (0/1) of ``user_id``, None for a spectator."""
        if user_id == self.players[0]:
            return 0
        if user_id == self.players[1]:
            return 1
        return None

    def require_player(self, user_id: int) -> int:
        """Engine player (0/1) of ``user_id``; ``NotAPlayer`` for anyone else."""
        player = self.player_of(user_id)
        if player is None:
            raise NotAPlayer(self.id, user_id)
        return player

    def opponent_of(self, user_id: int) -> int | None:
        player = self.player_of(user_id)
        return None if player is None else self.players[1 - player]


@dataclass(frozen=True)
class MoveOutcome:
    """What one request changed, for the cogs to announce.

    ``applied[0]`` is the request's own move (absent for resign/forfeit when the engine
    returns no record); the rest were forced and applied automatically.
    """

    game: LiveGame
    applied: list[Applied] = field(default_factory=list)
    finished: bool = False
    previous_version: int = 0
    turn_changed: bool = False  # the player to move is now someone else
    result: ResultRow | None = None  # the stored result, when this finished the game
    outbox_id: int | None = None  # the publication recorded with the commit (see GameService)


def options_to_dict(options: GameOptions) -> dict[str, Any]:
    """JSON-compatible form of ``GameOptions`` for the database."""
    return dict(options.to_dict())


def from_row(row: GameRow) -> LiveGame:
    """The record of a stored row; ``GameUnreadable`` if its state cannot be loaded."""
    try:
        options = GameOptions.from_dict(row.options)
        game = Game.from_dict(row.state)
    except Exception as error:
        # The type only: an engine message about a stored state may name cards.
        log.error("Game %d: stored state unreadable (%s); skipped", row.id, type(error).__name__)
        raise GameUnreadable(row.id) from None
    return LiveGame(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        players=row.players,
        options=options,
        seed=row.seed,
        status=row.status,
        game=game,
        version=row.version,
        board_message_id=row.board_message_id,
        dm_message_ids=row.dm_message_ids,
        created_at=row.created_at,
        updated_at=row.updated_at,
        turn_started_at=row.turn_started_at,
        deadline=row.deadline,
        reminded=row.reminded,
        match_id=row.match_id,
        first_player=row.first_player,
        ai_player=row.ai_player,
        ai_level=row.ai_level,
        turn_timeout=row.turn_timeout,
        thread_id=row.thread_id,
    )


def apply_forced(game: Game) -> list[Applied]:
    """Apply the moves the rules force now (``Game.forced_move``), one after another."""
    applied = []
    for _ in range(MAX_FORCED_MOVES):
        if game.is_over:
            break
        forced = game.forced_move()
        if forced is None:
            break
        applied.append(game.apply(forced))
    return applied


def log_entries(game: Game, start: int) -> list[tuple[int, int, str]]:
    """Log entries from index ``start`` as ``(seq, player, text)``; seq counts from 1."""
    return [(start + i + 1, player, str(move)) for i, (player, move) in enumerate(game.log[start:])]

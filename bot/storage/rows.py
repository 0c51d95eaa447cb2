"""The storage layer's row types: what every backend returns, whatever its driver."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

GameStatus = Literal["active", "finished"]
LanguageScope = Literal["user", "guild"]
ChallengeStatus = Literal["pending", "accepted", "declined", "cancelled", "expired"]


class Unset:
    """The type of ``UNSET``: "leave this column as it is", where None would store NULL."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = Unset()


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    players: tuple[int, int]
    options: dict[str, Any]
    seed: int
    first_player: int
    match_id: int | None
    status: GameStatus
    state: dict[str, Any]
    version: int
    board_message_id: int | None
    dm_message_ids: tuple[int | None, int | None]
    turn_started_at: float | None
    deadline: float | None
    reminded: bool
    created_at: float
    updated_at: float
    ai_player: int | None = None  # the seat the bot's AI plays (migration 3); None: two people
    ai_level: str | None = None  # the AI's difficulty when ai_player is set
    turn_timeout: float | None = None  # seconds per turn (migration 8); None: the bot's TURN_TIMEOUT
    thread_id: int | None = None  # where the board lives (migration 10): None undecided, 0 the channel


OutboxKind = Literal["move", "turn", "reminder"]


@dataclass(frozen=True)
class OutboxRow:
    """A publication owed for a committed change (migration 5): which game, at which
    version, and what kind; never the text, which is rendered from the stored game."""

    id: int
    game_id: int
    version: int
    kind: OutboxKind
    created_at: float
    claimed_until: float | None
    attempts: int


@dataclass(frozen=True)
class MoveRow:
    game_id: int
    seq: int
    player: int
    move: str
    version: int
    created_at: float


@dataclass(frozen=True)
class ResultRow:
    game_id: int
    guild_id: int | None
    winner_id: int | None
    loser_id: int | None
    players: tuple[int, int]
    winner: int | None
    reason: str
    stones: tuple[int, int]
    moves: int
    finished_at: float


@dataclass(frozen=True)
class Audience:
    """Who asks to see results, and where: the results of the server ``guild_id``
    (None: asked in DMs, no server's), and the games in DMs ``asker_id`` played. What a
    member may be shown of anybody's finished games, never another server's."""

    guild_id: int | None
    asker_id: int


@dataclass(frozen=True)
class RatingRow:
    scope: str
    user_id: int
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    updated_at: float


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    challenger_id: int
    opponent_id: int | None
    options: dict[str, Any]
    message_id: int | None
    status: ChallengeStatus
    game_id: int | None
    created_at: float
    expires_at: float


@dataclass(frozen=True)
class MatchRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    players: tuple[int, int]
    options: dict[str, Any]
    target: int
    scores: tuple[int, int]
    games: int
    status: GameStatus
    winner_id: int | None
    created_at: float
    updated_at: float


TournamentStatus = Literal["open", "running", "finished", "cancelled"]
EntrantStatus = Literal["in", "withdrawn", "kicked"]


@dataclass(frozen=True)
class TournamentRow:
    """A tournament (migration 8); ``round`` is the round in play, 0 while sign-up is open."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    format: str
    rounds: int | None
    best_of: int
    options: dict[str, Any]
    turn_time: float
    max_players: int | None
    status: TournamentStatus
    round: int
    signup_message_id: int | None
    standings_message_id: int | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class EntrantRow:
    tournament_id: int
    user_id: int
    rating: float
    status: EntrantStatus
    joined_at: float


@dataclass(frozen=True)
class PairingRow:
    """One board of a round: ``black`` None is a bye; ``done`` with ``winner_id`` None a draw."""

    tournament_id: int
    round: int
    board: int
    white: int
    black: int | None
    game_id: int | None
    match_id: int | None
    winner_id: int | None
    done: bool


@dataclass(frozen=True)
class TournamentGameRow:
    """A finished game of a tournament, for its standings: ``first`` moved first."""

    round: int
    first: int
    second: int
    winner_id: int | None
    first_stones: int
    second_stones: int
    reason: str

"""Persistence: SQLite through aiosqlite. The only package that contains SQL."""

from bot.storage.database import (
    UNSET,
    ChallengeRow,
    ChallengeStatus,
    ConcurrentUpdate,
    Database,
    ForeignDatabase,
    GameRow,
    GameStatus,
    MatchRow,
    MoveRow,
    RatingRow,
    ResultRow,
    backup,
)
from bot.storage.schema import MigrationError, latest_version

__all__ = [
    "UNSET",
    "ChallengeRow",
    "ChallengeStatus",
    "ConcurrentUpdate",
    "Database",
    "ForeignDatabase",
    "GameRow",
    "GameStatus",
    "MatchRow",
    "MigrationError",
    "MoveRow",
    "RatingRow",
    "ResultRow",
    "backup",
    "latest_version",
]

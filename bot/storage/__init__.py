"""Persistence: the only package that contains SQL.

``Storage`` (``protocol.py``) is the typed API; ``Database`` implements it on SQLite
(aiosqlite, the default) and ``PostgresDatabase`` on PostgreSQL (asyncpg).
``open_database(target)`` picks the backend from the target.
"""

from __future__ import annotations

import os

from bot.storage.database import (
    UNSET,
    ChallengeRow,
    ChallengeStatus,
    ConcurrentUpdate,
    Database,
    ForeignDatabase,
    GameRow,
    GameStatus,
    LanguageScope,
    MatchRow,
    MoveRow,
    OutboxKind,
    OutboxRow,
    RatingRow,
    ResultRow,
    backup,
)
from bot.storage.errors import DatabaseInUse, StorageError
from bot.storage.postgres import PostgresDatabase
from bot.storage.protocol import Storage, is_postgres_url
from bot.storage.schema import MigrationError, latest_version


def open_database(target: str | os.PathLike[str]) -> Storage:
    """The storage for ``target``: a ``postgresql://`` (or ``postgres://``) URL gives
    ``PostgresDatabase``, anything else is a SQLite file path (or ``":memory:"``).

    Nothing is opened yet: ``await storage.connect()`` (or ``async with storage:``).
    """
    if is_postgres_url(target):
        return PostgresDatabase(os.fspath(target))
    return Database(target)


__all__ = [
    "UNSET",
    "ChallengeRow",
    "ChallengeStatus",
    "ConcurrentUpdate",
    "Database",
    "DatabaseInUse",
    "ForeignDatabase",
    "GameRow",
    "GameStatus",
    "LanguageScope",
    "MatchRow",
    "MigrationError",
    "MoveRow",
    "OutboxKind",
    "OutboxRow",
    "PostgresDatabase",
    "RatingRow",
    "ResultRow",
    "Storage",
    "StorageError",
    "backup",
    "latest_version",
    "open_database",
]

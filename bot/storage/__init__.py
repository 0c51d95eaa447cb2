"""Persistence: the only package that contains SQL.

``Storage`` (``protocol.py``) is the typed API and ``rows.py`` its row types. Every
query is written once, in ``SqlStorage`` (``queries.py``); ``Database`` runs them on
SQLite (aiosqlite, the default) and ``PostgresDatabase`` on PostgreSQL (asyncpg).
``open_database(target)`` picks the backend from the target.
"""

from __future__ import annotations

import os

from bot.storage.database import Database, ForeignDatabase, backup
from bot.storage.errors import ConcurrentUpdate, DatabaseInUse, StorageError
from bot.storage.postgres import PostgresDatabase
from bot.storage.protocol import Storage, is_postgres_url
from bot.storage.rows import (
    UNSET,
    ChallengeRow,
    ChallengeStatus,
    GameRow,
    GameStatus,
    LanguageScope,
    MatchRow,
    MoveRow,
    OutboxKind,
    OutboxRow,
    RatingRow,
    ResultRow,
    Unset,
)
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
    "Unset",
    "backup",
    "latest_version",
    "open_database",
]

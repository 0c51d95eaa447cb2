"""Persistence: the only package that contains SQL.

The queries are in repositories, one per aggregate, each written once for both
backends against the ``Executor`` protocol (``sql.py``): ``GameStore`` (``games.py``),
``ChallengeStore`` (``challenges.py``: challenges and matches), ``RatingStore``
(``ratings.py``: results and ratings), ``PlayerStore`` (``players.py``: players,
languages, meta) and ``DeliveryStore`` (``delivery.py``: the outbox, DM state). They
return the row types of ``rows.py``. ``Storage`` (``backend.py``) is a database with
all of them (``storage.games``, ...); ``Database`` runs it on SQLite (aiosqlite, the
default) and ``PostgresDatabase`` on PostgreSQL (asyncpg). ``open_database(target)``
picks the backend from the target.
"""

from __future__ import annotations

import os

from bot.storage.backend import Storage, is_postgres_url
from bot.storage.challenges import ChallengeStore
from bot.storage.database import Database, ForeignDatabase, backup
from bot.storage.delivery import DeliveryStore
from bot.storage.errors import (
    ConcurrentUpdate,
    DatabaseInUse,
    DatabaseUnavailable,
    OutcomeUnknown,
    ReadOnlyDatabase,
    StorageError,
    outcome_unknown,
)
from bot.storage.games import GameStore
from bot.storage.mark import DatabaseRegressed
from bot.storage.players import PlayerStore
from bot.storage.postgres import PostgresDatabase
from bot.storage.ratings import RatingStore
from bot.storage.repositories import Repositories
from bot.storage.rows import (
    UNSET,
    Audience,
    ChallengeRow,
    ChallengeStatus,
    EntrantRow,
    GameRow,
    GameStatus,
    LanguageScope,
    MatchRow,
    MoveRow,
    OutboxKind,
    OutboxRow,
    PairingRow,
    RatingRow,
    ResultRow,
    TournamentGameRow,
    TournamentRow,
    Unset,
)
from bot.storage.schema import MigrationError, latest_version
from bot.storage.sql import Executor
from bot.storage.tournaments import TournamentStore


def open_database(target: str | os.PathLike[str], *, timeout: float | None = None) -> Storage:
    """The storage for ``target``: a ``postgresql://`` (or ``postgres://``) URL gives
    ``PostgresDatabase``, anything else is a SQLite file path (or ``":memory:"``).

    Nothing is opened yet: ``await storage.connect()`` (or ``async with storage:``).
    ``timeout``: the seconds any one statement may take before it fails with
    ``DatabaseUnavailable`` (default ``DEFAULT_TIMEOUT``).
    """
    if is_postgres_url(target):
        return PostgresDatabase(os.fspath(target), timeout=timeout)
    return Database(target, timeout=timeout)


__all__ = [
    "UNSET",
    "Audience",
    "ChallengeRow",
    "ChallengeStatus",
    "ChallengeStore",
    "ConcurrentUpdate",
    "Database",
    "DatabaseInUse",
    "DatabaseRegressed",
    "DatabaseUnavailable",
    "DeliveryStore",
    "EntrantRow",
    "Executor",
    "ForeignDatabase",
    "GameRow",
    "GameStatus",
    "GameStore",
    "LanguageScope",
    "MatchRow",
    "MigrationError",
    "MoveRow",
    "OutboxKind",
    "OutboxRow",
    "OutcomeUnknown",
    "PairingRow",
    "PlayerStore",
    "PostgresDatabase",
    "RatingRow",
    "RatingStore",
    "ReadOnlyDatabase",
    "Repositories",
    "ResultRow",
    "Storage",
    "StorageError",
    "TournamentGameRow",
    "TournamentRow",
    "TournamentStore",
    "Unset",
    "backup",
    "is_postgres_url",
    "latest_version",
    "open_database",
    "outcome_unknown",
]

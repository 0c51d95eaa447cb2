"""Errors of the storage layer that are not a backend driver's own."""

from __future__ import annotations

import sqlite3

import asyncpg


class StorageError(RuntimeError):
    """The database cannot be used: the message says why and what to do."""


class DatabaseUnavailable(StorageError):
    """A statement failed because the database cannot be reached or used right now (a
    timeout, a lost connection, a full disk), not because of what it asked. Raised in
    place of the driver's error, before the statement could have taken effect: the
    user is told the database is unreachable and that nothing was changed."""


class OutcomeUnknown(DatabaseUnavailable):
    """The COMMIT itself timed out or lost its connection: the transaction may or may not
    have been committed. Only a later read can tell; never say "nothing was changed"."""


class ReadOnlyDatabase(StorageError):
    """The database opens but refuses writes (a read-only file or folder, a read-only
    PostgreSQL server or role): the bot refuses to start on it."""


class DatabaseInUse(StorageError):
    """Another process holds this SQLite database; SQLite serves one bot process."""


class ConcurrentUpdate(RuntimeError):
    """A game row was not at the version the writer expected: another writer (another
    service, another process) committed this game first. The service reloads the game
    and answers the request as a stale one; it never reaches a user."""


class KeyTaken(Exception):
    """An insert met a row with the same primary or unique key. Backends raise it from
    ``executemany`` in place of their driver's own error, for the repositories to interpret."""


def outcome_unknown(error: BaseException) -> bool:
    """Whether ``error``, raised by a transaction, leaves its outcome unknown: the
    database went away or answered too late (a lost connection, a timeout, an I/O
    error), possibly after its COMMIT was durable. The caller must read the data back
    before it tells anyone what happened. A refusal (``ConcurrentUpdate``, ``KeyTaken``,
    a constraint) is an answer, not an unknown."""
    if isinstance(error, ConcurrentUpdate | KeyTaken | sqlite3.IntegrityError):
        return False
    return isinstance(
        error,
        OSError  # ConnectionError and its kin
        | TimeoutError
        | StorageError  # the backends' "cannot reach the database"
        | sqlite3.OperationalError  # disk I/O error, database is locked, ...
        | asyncpg.PostgresConnectionError
        | asyncpg.exceptions.OperatorInterventionError  # admin shutdown, terminated backend
        | asyncpg.InterfaceError  # the connection was closed under the statement
        | asyncpg.InternalClientError,  # its protocol left mid-operation by a dropped connection
    )

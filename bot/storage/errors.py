"""Errors of the storage layer that are not a backend driver's own."""

from __future__ import annotations


class StorageError(RuntimeError):
    """The database cannot be used: the message says why and what to do."""


class DatabaseInUse(StorageError):
    """Another process holds this SQLite database; SQLite serves one bot process."""


class ConcurrentUpdate(RuntimeError):
    """A game row was not at the version the writer expected: another writer (another
    service, another process) committed this game first. The service reloads the game
    and answers the request as a stale one; it never reaches a user."""


class KeyTaken(Exception):
    """An insert met a row with the same primary or unique key. Backends raise it from
    ``executemany`` in place of their driver's own error, for the repositories to interpret."""

"""Errors of the storage layer that are not a backend driver's own."""

from __future__ import annotations


class StorageError(RuntimeError):
    """The database cannot be used: the message says why and what to do."""


class DatabaseInUse(StorageError):
    """Another process holds this SQLite database; SQLite serves one bot process."""

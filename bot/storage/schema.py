"""Versioned schema migrations: ``migrations/NNN_name.sql``, applied in order.

SQLite's are ``migrations/NNN_name.sql``, PostgreSQL's ``migrations/postgres/NNN_name.sql``
with the same numbers and names: version N is the same schema on both backends.
SQLite's ``PRAGMA user_version`` (PostgreSQL: the ``schema_version`` table) is the
number of the last migration applied.
Each migration runs in its own transaction together with the version bump, so a crash
leaves the database at one version or the next, never in between. Released migration
files are never edited: a change of schema is a new file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

Dialect = Literal["sqlite", "postgres"]

_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


class MigrationError(RuntimeError):
    pass


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


@cache
def migrations(dialect: Dialect = "sqlite") -> tuple[Migration, ...]:
    """Every migration shipped with the package, by version 1, 2, ... without gaps."""
    folder = resources.files(__package__) / "migrations"
    if dialect == "postgres":
        folder = folder / "postgres"
    found = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps: {[m.version for m in found]}")
    return tuple(found)


def latest_version() -> int:
    return len(migrations())

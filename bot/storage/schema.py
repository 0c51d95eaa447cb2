"""Versioned schema migrations: ``migrations/NNN_name.sql``, applied in order.

The database's ``PRAGMA user_version`` is the number of the last migration applied.
Each migration runs in its own transaction together with the version bump, so a crash
leaves the database at one version or the next, never in between. Released migration
files are never edited: a change of schema is a new file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


class MigrationError(RuntimeError):
    pass


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


@cache
def migrations() -> tuple[Migration, ...]:
    """Every migration shipped with the package, by version 1, 2, ... without gaps."""
    found = []
    for entry in (resources.files(__package__) / "migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1..n without gaps: {[m.version for m in found]}")
    return tuple(found)


def latest_version() -> int:
    return len(migrations())

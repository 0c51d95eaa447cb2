"""The high-water mark of a SQLite database, kept beside it: ``<database>.mark``.

A SQLite database in WAL mode is two files (and ``-shm``): what was committed since the
last checkpoint lives in ``<database>-wal`` only. Lose that file (deleted by hand, a
backup or a copy that took the main file alone) and the database opens without
complaint, holding an older state or only its empty schema; migrating it and starting
would then carry on as if the games had never been.

So the bot records, outside the data that can vanish, what the database is known to
hold: its identity (a random id stored in its ``meta`` table, ``database_id``), its
schema version and the highest game id it has given. The mark is written atomically
after the migrations, about once a minute while the bot commits, and at close. At the
next open (``Database.connect``, and ``python -m bot check``) a database that no longer
reaches its mark (missing, empty, at a lower schema version, with a lower highest game
id, or another database altogether) is refused with :class:`DatabaseRegressed`, and
nothing is written to it. A new database (no mark, no file) starts as always.

The mark only ever understates the database (it is written from committed data, some
time after), so it never refuses a database that is whole. To accept a database that
is behind its mark on purpose (a backup restored), move the mark away: README.md,
"Recovering".

PostgreSQL has no such mark. Its write-ahead log is the server's, never a file beside
the bot, and the bot's processes may run on several machines, each without the others'
files; a server that loses data is recovered by the server's own means (a base backup
and its WAL). The bot still refuses a schema newer than itself there, like here.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Final

from bot.storage.errors import StorageError

SUFFIX: Final = ".mark"
IDENTITY_KEY: Final = "database_id"  # the meta row that names a database
RECOVERING: Final = 'README.md, section "Recovering"'


class DatabaseRegressed(StorageError):
    """The database holds less than its mark says it did: data was lost. Refused unchanged."""


@dataclass(frozen=True)
class Mark:
    database_id: str | None
    schema_version: int
    max_game_id: int
    written_at: float = 0.0


def mark_path(database: str | os.PathLike[str]) -> Path:
    return Path(os.fspath(database) + SUFFIX)


def read_mark(database: str | os.PathLike[str]) -> Mark | None:
    """The mark beside ``database``, or None if there is none."""
    path = mark_path(database)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
        return Mark(
            database_id=None if data["database_id"] is None else str(data["database_id"]),
            schema_version=int(data["schema_version"]),
            max_game_id=int(data["max_game_id"]),
            written_at=float(data.get("written_at", 0.0)),
        )
    except (ValueError, KeyError, TypeError) as error:
        raise DatabaseRegressed(
            f"{path} (the record of what {database} holds) is unreadable ({error}); "
            f"the bot does not start without knowing. See {RECOVERING}."
        ) from error


def write_mark(database: str | os.PathLike[str], mark: Mark) -> None:
    """Replace the mark beside ``database`` atomically (written, synced, renamed)."""
    path = mark_path(database)
    data = asdict(mark) | {"written_at": mark.written_at or time.time()}
    # A file of its own for each writer (two connections of one file, in tests, may
    # write at once); the rename makes the whole mark appear at once.
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(data, file, sort_keys=True)
            file.write("\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise
    with contextlib.suppress(OSError):  # the rename itself durable (not on every platform)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def inspect(conn: sqlite3.Connection) -> Mark:
    """What an open database holds now: its identity, schema version and highest game id
    (from ``sqlite_sequence``, which remembers ids given even to rows deleted since)."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    database_id = None
    if "meta" in names:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (IDENTITY_KEY,)).fetchone()
        database_id = None if row is None else str(row[0])
    max_game_id = 0
    if "games" in names:
        max_game_id = int(conn.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0])
    if "sqlite_sequence" in names:
        row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
        if row is not None:
            max_game_id = max(max_game_id, int(row[0]))
    return Mark(database_id=database_id, schema_version=version, max_game_id=max_game_id)


def verify(database: str | os.PathLike[str]) -> None:
    """Refuse (``DatabaseRegressed``) a database that no longer reaches its mark; nothing
    is written to it. No mark: nothing to compare, the database is taken as it is."""
    mark = read_mark(database)
    if mark is None:
        return
    path = Path(database)
    if not path.is_file() or path.stat().st_size == 0:
        found = None
    else:
        uri = path.resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True)
        try:
            found = inspect(conn)
        finally:
            conn.close()
    problem = _shortfall(mark, found)
    if problem is not None:
        raise DatabaseRegressed(
            f"{path.resolve()} {problem}, but {mark_path(database).resolve()} records that it held "
            f"schema version {mark.schema_version} and games up to #{mark.max_game_id}. Its data "
            "was lost (for example its -wal file deleted, or the main file copied without it); "
            "the bot refuses to start rather than set up an empty database, and left the file "
            "unchanged. Restore the database from a backup, or, to accept it as it is, move the "
            f".mark file away. See {RECOVERING}."
        )


def _shortfall(mark: Mark, found: Mark | None) -> str | None:
    if found is None:
        return "is missing or empty"
    if found.schema_version < mark.schema_version:
        return f"is at schema version {found.schema_version}"
    if mark.database_id is not None and found.database_id != mark.database_id:
        if found.database_id is None:
            return "has no identity (its meta table lost it)"
        return f"is another database (identity {found.database_id}, not {mark.database_id})"
    if found.max_game_id < mark.max_game_id:
        return f"holds games up to #{found.max_game_id} only"
    return None


__all__ = [
    "IDENTITY_KEY",
    "SUFFIX",
    "DatabaseRegressed",
    "Mark",
    "inspect",
    "mark_path",
    "read_mark",
    "verify",
    "write_mark",
]

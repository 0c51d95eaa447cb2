"""``python -m bot export --guild ID [--out FILE]``: every finished game of a server as
JSON lines, for the operator.

One JSON object a line, oldest game first (``docs/game-records.md`` lists the fields):
id, seed, options, players, first player, moves, result, dates. No Discord and no token
are needed; the database is only read (a SQLite file read-only, without the bot's lock),
so the bot may keep running meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from typing import TextIO

import asyncpg

from bot.archive.history import History
from bot.settings import README_SECTION, PostgresUrl, Settings, SettingsError
from bot.storage import (
    Database,
    ForeignDatabase,
    Storage,
    StorageError,
    is_postgres_url,
    latest_version,
    open_database,
)


class ExportError(Exception):
    """Something the operator must fix; the message says what."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot export",
        description="Write every finished game of a server as JSON lines (one game a line).",
    )
    parser.add_argument("--guild", type=int, required=True, metavar="ID", help="the server's id")
    parser.add_argument(
        "--out", metavar="FILE", help="a new file to write (default: standard output); never overwritten"
    )
    parser.add_argument(
        "--database",
        metavar="PATH_OR_URL",
        help="the database file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)",
    )
    parser.add_argument(
        "--env-file", default=".env", help="settings file read under the environment (default .env)"
    )
    return parser.parse_args(argv)


async def _open(path: str, setting: str) -> Storage:
    """The database at ``path``, opened to read only: a SQLite file without the bot's
    lock (the bot may hold it) and without writing anything beside it."""
    shown = PostgresUrl.parse(path, setting or "--database").shown if is_postgres_url(path) else path
    where = f"{shown} ({setting})" if setting else shown
    if is_postgres_url(path):
        db: Storage = open_database(path)
    elif path == ":memory:" or not Path(path).is_file():
        raise ExportError(f"there is no database at {where}")
    else:
        db = Database(path, read_only=True)
    try:
        await db.connect()
    except ForeignDatabase:
        raise ExportError(f"{where} is not a Schotten-Totten bot database") from None
    except (StorageError, sqlite3.Error, OSError) as error:
        raise ExportError(f"cannot open the database {where}: {_reason(error, path)}") from None
    try:
        version = await db.schema_version()
        if version == 0:
            raise ExportError(f"{where} is not a database of this bot (it has no schema)")
        if version < latest_version():
            raise ExportError(
                f"{where} is at schema version {version}; start the bot once to migrate it "
                f"to version {latest_version()}"
            )
        if version > latest_version():
            raise ExportError(f"{where} is at schema version {version}, newer than this bot; update the bot")
    except BaseException:
        await db.close()
        raise
    return db


def _reason(error: BaseException, url: str) -> str:
    """The error's message, without the password that a URL in it may carry."""
    return PostgresUrl.parse(url).mask(str(error)) if is_postgres_url(url) else str(error)


async def export_guild(database: str, guild_id: int, out: TextIO, setting: str = "") -> int:
    """Write the finished games of ``guild_id`` to ``out``; returns how many. ``setting``
    names where ``database`` came from (``DATABASE_PATH``), for the messages."""
    db = await _open(database, setting)
    count = 0
    try:
        async for game in History(db.games, db.ratings).guild_games(guild_id):
            out.write(json.dumps(game.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
            count += 1
    finally:
        await db.close()
    return count


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    database, setting = args.database, "--database"
    if database is None:
        try:
            settings = Settings.from_env(env_file=args.env_file)
        except SettingsError as error:
            print(f"error: {error}\nSee {README_SECTION}.", file=sys.stderr)
            return 2
        database = settings.database
        setting = "DATABASE_URL" if settings.database_url else "DATABASE_PATH"
    elif is_postgres_url(database):
        try:
            PostgresUrl.parse(database, "--database")
        except SettingsError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    if args.out is not None and Path(args.out).exists():  # as backup: a new file, never overwritten
        print(f"error: {args.out} exists; give the export a new name.", file=sys.stderr)
        return 1
    try:
        if args.out is None:
            count = asyncio.run(export_guild(database, args.guild, sys.stdout, setting))
            sys.stdout.flush()
        else:
            out = Path(args.out)
            partial = out.with_name(out.name + ".partial")
            try:
                with partial.open("w", encoding="utf-8") as file:
                    count = asyncio.run(export_guild(database, args.guild, file, setting))
                partial.replace(out)  # a file that is there is complete
            except BaseException:
                partial.unlink(missing_ok=True)
                raise
    except ExportError as error:
        print(f"error: {error}.", file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error, StorageError, asyncpg.PostgresError) as error:
        print(f"error: {_reason(error, database)}", file=sys.stderr)
        return 1
    where = "standard output" if args.out is None else args.out
    print(f"Exported {count} finished game(s) of server {args.guild} to {where}.", file=sys.stderr)
    return 0


__all__ = ["ExportError", "export_guild", "main", "parse_args"]

"""``python -m bot export --guild ID [--out FILE]``: every finished game of a server as
JSON lines, for the operator.

One JSON object a line, oldest game first (``docs/game-records.md`` lists the fields):
id, seed, options, players, first player, moves, result, dates. No Discord and no token
are needed; the database is only read, so the bot may keep running meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from pathlib import Path
from typing import TextIO

from bot.archive.history import History
from bot.settings import README_SECTION, Settings, SettingsError
from bot.storage import Storage, is_postgres_url, latest_version, open_database


class ExportError(Exception):
    """Something the operator must fix; the message says what."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot export",
        description="Write every finished game of a server as JSON lines (one game a line).",
    )
    parser.add_argument("--guild", type=int, required=True, metavar="ID", help="the server's id")
    parser.add_argument("--out", metavar="FILE", help="where to write (default: standard output)")
    parser.add_argument(
        "--database",
        metavar="PATH_OR_URL",
        help="the database file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)",
    )
    parser.add_argument(
        "--env-file", default=".env", help="settings file read under the environment (default .env)"
    )
    return parser.parse_args(argv)


async def _open(path: str) -> Storage:
    if not is_postgres_url(path) and (path == ":memory:" or not Path(path).is_file()):
        raise ExportError(f"there is no database at {path} (DATABASE_PATH)")
    db = open_database(path)
    await db.connect()
    try:
        version = await db.schema_version()
        if version == 0:
            raise ExportError(f"{path} is not a database of this bot")
        if version < latest_version():
            raise ExportError(
                f"{path} is at schema version {version}; start the bot once to migrate it "
                f"to version {latest_version()}"
            )
        if version > latest_version():
            raise ExportError(f"{path} is at schema version {version}, newer than this bot; update the bot")
    except BaseException:
        await db.close()
        raise
    return db


async def export_guild(database: str, guild_id: int, out: TextIO) -> int:
    """Write the finished games of ``guild_id`` to ``out``; returns how many."""
    db = await _open(database)
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
    database = args.database
    if database is None:
        try:
            database = Settings.from_env(env_file=args.env_file).database
        except SettingsError as error:
            print(f"error: {error}\nSee {README_SECTION}.", file=sys.stderr)
            return 2
    try:
        if args.out is None:
            count = asyncio.run(export_guild(database, args.guild, sys.stdout))
            sys.stdout.flush()
        else:
            out = Path(args.out)
            partial = out.with_name(out.name + ".partial")
            try:
                with partial.open("w", encoding="utf-8") as file:
                    count = asyncio.run(export_guild(database, args.guild, file))
                partial.replace(out)  # a file that is there is complete
            except BaseException:
                partial.unlink(missing_ok=True)
                raise
    except ExportError as error:
        print(f"error: {error}.", file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    where = "standard output" if args.out is None else args.out
    print(f"Exported {count} finished game(s) of server {args.guild} to {where}.", file=sys.stderr)
    return 0


__all__ = ["ExportError", "export_guild", "main", "parse_args"]

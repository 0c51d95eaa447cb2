"""``python -m bot check``: what a start would do, without starting.

Reads and validates the settings, opens the database read-only (SQLite: without the
bot's lock, so it may run beside the bot; nothing is created or migrated) and reports
its schema version and what a start would do with it. Needs no token and no Discord.
Exit status 0 when a start would get past the database, 1 when it would not.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path
from typing import TextIO
from urllib.parse import urlsplit

import asyncpg

from bot.pictures import lettering
from bot.settings import Settings
from bot.storage import Database, ForeignDatabase, MigrationError, StorageError, latest_version
from bot.storage.mark import verify as verify_mark
from bot.storage.postgres import PostgresDatabase, redact


def describe_settings(settings: Settings) -> list[str]:
    lines = []
    if settings.token:
        lines.append("DISCORD_TOKEN is set (not checked: only Discord can, at the start)")
    else:
        lines.append("DISCORD_TOKEN is not set: the bot will not start without it")
    if settings.sharded:
        ids = "all" if settings.shard_ids is None else ", ".join(map(str, settings.shard_ids))
        lines.append(f"shards: {ids} of SHARD_COUNT={settings.shard_count}")
        if settings.shard_ids is not None and 0 not in settings.shard_ids:
            lines.append("this process does not sync the commands (the one with shard 0 does)")
    if settings.dev_guild_id:
        lines.append(f"commands are synced to the server DEV_GUILD_ID={settings.dev_guild_id} only")
    else:
        lines.append("commands are synced globally (up to an hour to appear; see DEV_GUILD_ID)")
    return lines


def _plan(where: str, version: int) -> tuple[bool, str]:
    latest = latest_version()
    if version > latest:
        return False, f"{where} is at schema version {version}, newer than this bot ({latest}): update it"
    if version == latest:
        return True, f"{where} is at schema version {version}: up to date"
    if version == 0:
        return True, f"{where} is empty: a start would set it up at schema version {latest}"
    return True, f"{where} is at schema version {version}: a start would migrate from {version} to {latest}"


async def _check_sqlite(path: str) -> tuple[bool, str]:
    where = f"the SQLite database {Path(path).resolve()} (DATABASE_PATH)"
    if path == ":memory:":
        return True, "DATABASE_PATH=:memory: keeps nothing: every start begins with an empty database"
    target = Path(path)
    try:
        verify_mark(path)  # a database behind its mark lost data: a start refuses it
    except StorageError as error:
        return False, str(error)
    if not target.exists():
        folder = target.resolve().parent
        existing = next(p for p in (folder, *folder.parents) if p.exists())
        if not os.access(existing, os.W_OK | os.X_OK):
            return False, f"cannot create {target.resolve()} (DATABASE_PATH): {existing} is not writable"
        made = "" if folder.is_dir() else f" (and the folder {folder})"
        return True, (
            f"there is no database at {target.resolve()} (DATABASE_PATH): a start would create "
            f"a new one{made} at schema version {latest_version()}"
        )
    if not target.is_file():
        return False, f"{target.resolve()} (DATABASE_PATH) is not a file"
    db = Database(path, read_only=True)
    try:
        await db.connect()
        version = await db.schema_version()
    except ForeignDatabase as error:
        return False, str(error)
    except (sqlite3.Error, OSError, StorageError) as error:
        return False, f"cannot open {where}: {error}"
    finally:
        await db.close()
    ok, text = _plan(where, version)
    if ok and not os.access(target, os.W_OK):
        return False, f"{text}, but the bot cannot write to it"
    lock = Path(str(target.resolve()) + ".lock")
    if lock.is_file() and (holder := lock.read_text(errors="replace").strip()):
        text += f"; its lock file names pid {holder} (the last bot that ran on it, maybe running now)"
    return ok, text


async def _check_postgres(url: str) -> tuple[bool, str]:
    where = f"the PostgreSQL database {redact(url)} (DATABASE_URL)"
    db = PostgresDatabase(url, pool_size=1)
    try:
        await db.connect()
        version = await db.schema_version()
    except (StorageError, asyncpg.PostgresError, OSError, MigrationError) as error:
        text = str(error)
        password = _password(url)
        return False, f"cannot use {where}: {text.replace(password, '***') if password else text}"
    finally:
        await db.close()
    return _plan(where, version)


def _password(url: str) -> str | None:
    return urlsplit(url).password


def check(settings: Settings, out: TextIO) -> int:
    """Print what a start would do; 0 if the database is usable, 1 if not."""
    for line in describe_settings(settings):
        print(line, file=out)
    print(lettering.describe(), file=out)
    if settings.database_url:
        ok, text = asyncio.run(_check_postgres(settings.database_url))
    else:
        ok, text = asyncio.run(_check_sqlite(settings.database_path))
    print(text if ok else f"error: {text}", file=out)
    print("The settings are valid." if ok else "A start would stop at the database.", file=out)
    return 0 if ok else 1


__all__ = ["check", "describe_settings"]

"""``python -m bot check``: what a start would do, without starting.

Reads and validates the settings, tries the web pages' port (binds it and lets it go),
opens the database read-only (SQLite: without the bot's lock, so it may run beside the
bot; nothing is created or migrated; PostgreSQL: whether the role may write, in a
transaction rolled back) and reports its schema version and what a start would do with
it. Never contacts Discord. Exits with the status a start would stop with: 2 for a
setting (no token, a taken port), 1 for the database, else 0.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import urllib.request
from pathlib import Path
from typing import TextIO

import asyncpg

from bot.pictures import lettering
from bot.settings import PostgresUrl, Settings, SettingsError, try_web_port
from bot.storage import Database, ForeignDatabase, MigrationError, StorageError, latest_version
from bot.storage.mark import verify as verify_mark
from bot.storage.postgres import PostgresDatabase, write_refusal

SETTINGS_ERROR = 2  # what `python -m bot` exits with for a setting it cannot use
DATABASE_ERROR = 1  # ... and for a database it cannot use


def describe_settings(settings: Settings) -> list[str]:
    lines = []
    if settings.token:
        lines.append("DISCORD_TOKEN is set (not checked: only Discord can, at the start)")
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


async def _check_postgres(url: PostgresUrl) -> tuple[bool, str]:
    where = f"the PostgreSQL database {url.shown} (DATABASE_URL)"
    db = PostgresDatabase(url.url, pool_size=1)
    try:
        await db.connect()
        version = await db.schema_version()
        refusal = await write_refusal(url.url, version)
    except (StorageError, asyncpg.PostgresError, OSError, MigrationError) as error:
        return False, f"cannot use {where}: {url.mask(str(error))}"
    finally:
        await db.close()
    ok, text = _plan(where, version)
    if ok and refusal is not None:
        return False, f"{where} refuses the writes a start needs: {url.mask(refusal)}"
    return ok, text


def check(settings: Settings, out: TextIO) -> int:
    """Print what a start would do; exit with the status a start would stop with:
    2 for a setting, 1 for the database, 0 when it would get to Discord."""
    status = 0
    for line in describe_settings(settings):
        print(line, file=out)
    print(lettering.describe(), file=out)
    if not settings.token:
        print("error: DISCORD_TOKEN is not set: a start would stop at once (exit status 2)", file=out)
        status = SETTINGS_ERROR
    if settings.web_port:
        try:
            try_web_port(settings.web_host, settings.web_port)
        except SettingsError as error:
            if _bot_answers(settings):
                print(
                    f"the web port {settings.web_port} is held by a running Schotten-Totten bot"
                    " (this one, running now): a start needs it free",
                    file=out,
                )
            else:
                print(f"error: {error}", file=out)
                status = SETTINGS_ERROR
        else:
            print(f"the web pages can listen on {settings.web_host}:{settings.web_port}", file=out)
    for warning in settings.web_warnings():
        print(f"warning: {warning}", file=out)
    postgres = settings.postgres
    if postgres is not None:
        ok, text = asyncio.run(_check_postgres(postgres))
    else:
        ok, text = asyncio.run(_check_sqlite(settings.database_path))
    print(text if ok else f"error: {text}", file=out)
    if not ok:
        status = status or DATABASE_ERROR
    if status == 0:
        print("The settings are valid.", file=out)
    else:
        print("A start would stop there.", file=out)
    return status


def _bot_answers(settings: Settings) -> bool:
    """Whether a bot of ours answers ``/healthz`` on the taken web port (or on
    ``METRICS_PORT``, where it is served then): the bot running now, whose own port it is."""
    host = settings.web_host if settings.web_host not in ("", "0.0.0.0", "::") else "127.0.0.1"
    ports = [settings.web_port] + ([settings.metrics_port] if settings.metrics_port else [])
    for port in ports:
        url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/healthz"
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                body = json.loads(answer.read(4096))
        except (OSError, ValueError):
            continue
        if isinstance(body, dict) and body.get("status") == "ok" and "version" in body:
            return True
    return False


__all__ = ["check", "describe_settings"]

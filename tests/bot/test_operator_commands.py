"""The operator's commands as the README gives them: check, backup, export and
migrate-to-postgres. Each refusal is a message (no traceback, no password), none takes
the running bot's lock, and none leaves a file beside a database the bot does not own."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import Database, latest_version
from bot.storage.postgres import PostgresDatabase

ROOT = Path(__file__).resolve().parents[2]


def bot(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    unset = {"DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS"}
    environ = {k: v for k, v in os.environ.items() if k not in unset}
    environ["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=environ | env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


async def make_database(path: Path, version: int | None = None) -> None:
    async with Database(path) as db:
        await db.migrate(version)


def beside(path: Path) -> set[str]:
    return {p.name for p in path.parent.iterdir()}


# -- check --------------------------------------------------------------------------


def test_check_without_a_database_says_a_start_would_create_it(tmp_path: Path) -> None:
    proc = bot("check", cwd=tmp_path, DATABASE_PATH="data/schotten.db")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "would create a new one (and the folder" in proc.stdout
    assert "DISCORD_TOKEN is not set" in proc.stdout  # no token needed to check
    assert "pictures: " in proc.stdout  # whether names in every script can be drawn
    assert list(tmp_path.iterdir()) == []  # nothing created


async def test_check_reports_the_version_and_the_migration_without_touching_the_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    await make_database(path, latest_version() - 1)
    (tmp_path / "bot.db.lock").unlink()
    files = beside(path)
    before = path.read_bytes()
    proc = bot("check", cwd=tmp_path, DATABASE_PATH=str(path), DISCORD_TOKEN="x")
    assert proc.returncode == 0, proc.stdout
    assert f"would migrate from {latest_version() - 1} to {latest_version()}" in proc.stdout
    assert "DISCORD_TOKEN is set" in proc.stdout
    assert path.read_bytes() == before  # not migrated
    # No lock file (SQLite's own -wal and -shm may appear: the bot's database is in WAL mode).
    assert beside(path) - {"bot.db-wal", "bot.db-shm"} == files


async def test_check_beside_a_running_bot(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with Database(path) as running:  # holds the lock, as the bot does
        await running.migrate()
        proc = await asyncio.to_thread(bot, "check", cwd=tmp_path, DATABASE_PATH=str(path))
    assert proc.returncode == 0, proc.stdout
    assert f"at schema version {latest_version()}: up to date" in proc.stdout
    assert f"lock file names pid {os.getpid()}" in proc.stdout


def test_check_refuses_another_programs_file_and_bad_settings(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    proc = bot("check", cwd=tmp_path, DATABASE_PATH=str(other))
    assert proc.returncode == 1
    assert "not a Schotten-Totten bot database" in proc.stdout
    assert beside(other) == {"notes.db"}
    bad = bot("check", cwd=tmp_path, SHARD_IDS="1")
    assert bad.returncode == 2 and "SHARD_IDS needs SHARD_COUNT" in bad.stderr


def test_check_on_postgresql_never_shows_the_password(tmp_path: Path) -> None:
    with __import__("socket").socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = bot("check", cwd=tmp_path, DATABASE_URL=f"postgresql://bot:hunter2@127.0.0.1:{port}/bot")
    assert proc.returncode == 1
    assert "cannot connect to PostgreSQL" in proc.stdout and "bot:***@" in proc.stdout
    assert "hunter2" not in proc.stdout + proc.stderr


async def test_check_on_an_empty_postgresql_database(tmp_path: Path, postgres_database: str) -> None:
    url = postgres_database.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    proc = await asyncio.to_thread(bot, "check", cwd=tmp_path, DATABASE_URL=url)
    assert proc.returncode == 0, proc.stdout
    assert f"is empty: a start would set it up at schema version {latest_version()}" in proc.stdout
    assert "hunter2" not in proc.stdout
    async with PostgresDatabase(postgres_database) as db:
        assert await db.schema_version() == 0  # migrating nothing


# -- backup -------------------------------------------------------------------------


async def test_backup_as_the_readme_writes_it_from_a_fresh_clone(tmp_path: Path) -> None:
    # `python -m bot backup backups/schotten-$(date +%F).db`: backups/ does not exist yet.
    await make_database(tmp_path / "schotten.db")
    proc = bot("backup", "backups/schotten-2026-01-01.db", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    copy = tmp_path / "backups" / "schotten-2026-01-01.db"
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
    conn.close()
    assert beside(copy) == {copy.name}


async def test_backup_into_a_folder_it_cannot_create_names_the_folder(tmp_path: Path) -> None:
    await make_database(tmp_path / "schotten.db")
    (tmp_path / "file").write_text("not a folder")
    proc = bot("backup", "file/inner/copy.db", cwd=tmp_path)
    assert proc.returncode == 1
    assert "cannot create the folder file/inner for the backup" in proc.stderr
    assert "DATABASE_PATH" not in proc.stderr  # the live database is not to blame


# -- export -------------------------------------------------------------------------


async def test_export_beside_a_running_bot_and_from_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "schotten.db"
    async with Database(path) as running:  # holds the lock, as the running bot does
        await running.migrate()
        proc = await asyncio.to_thread(bot, "export", "--guild", "1", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert "Exported 0 finished game(s) of server 1" in proc.stderr
    assert bot("backup", "backups/copy.db", cwd=tmp_path).returncode == 0
    backup = tmp_path / "backups" / "copy.db"
    proc = bot("export", "--guild", "1", "--database", str(backup), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert beside(backup) == {"copy.db"}  # no copy.db.lock


def test_export_refuses_another_programs_file_and_names_the_option(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    proc = bot("export", "--guild", "1", "--database", str(other), cwd=tmp_path)
    assert proc.returncode == 2
    assert "is not a Schotten-Totten bot database" in proc.stderr
    assert beside(other) == {"notes.db"}
    missing = bot("export", "--guild", "1", "--database", "/missing.db", cwd=tmp_path)
    assert missing.returncode == 2
    assert "no database at /missing.db (--database)" in missing.stderr
    assert "DATABASE_PATH" not in missing.stderr


def test_export_from_postgresql_it_cannot_reach_shows_no_password(tmp_path: Path) -> None:
    url = "postgresql://bot:hunter2@127.0.0.1:1/bot"
    proc = bot("export", "--guild", "1", cwd=tmp_path, DATABASE_URL=url)
    assert proc.returncode == 2
    assert "cannot open the database postgresql://bot:***@127.0.0.1:1/bot (DATABASE_URL)" in proc.stderr
    assert "hunter2" not in proc.stderr


async def test_export_from_an_empty_postgresql_database_shows_no_password(
    tmp_path: Path, postgres_database: str
) -> None:
    url = postgres_database.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    proc = await asyncio.to_thread(bot, "export", "--guild", "1", "--database", url, cwd=tmp_path)
    assert proc.returncode == 2
    assert "is not a database of this bot" in proc.stderr and "postgres:***@" in proc.stderr
    assert "hunter2" not in proc.stderr


# -- migrate-to-postgres ------------------------------------------------------------


def test_migrate_from_a_missing_file_says_not_found(tmp_path: Path) -> None:
    proc = bot(
        "migrate-to-postgres",
        "--from",
        "typo.db",
        "--to",
        "postgresql://bot:hunter2@127.0.0.1:1/x",
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert "typo.db not found" in proc.stderr
    assert "hunter2" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("command", ["check", "backup", "export", "migrate-to-postgres"])
def test_help_of_each_operator_command(tmp_path: Path, command: str) -> None:
    proc = bot(command, "--help", cwd=tmp_path)
    assert proc.returncode == 0 and "usage" in proc.stdout

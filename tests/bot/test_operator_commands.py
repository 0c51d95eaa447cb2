"""The operator's commands as the README gives them: check, backup, export and
migrate-to-postgres. Each refusal is a message (no traceback, no password), none takes
the running bot's lock, and none leaves a file beside a database the bot does not own."""

from __future__ import annotations

import asyncio
import http.server
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import asyncpg
import pytest

from bot.storage import Database, latest_version
from bot.storage.postgres import PostgresDatabase

ROOT = Path(__file__).resolve().parents[2]


def bot(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    unset = {"DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS"}
    environ = {
        k: v for k, v in os.environ.items() if k not in unset and not k.startswith(("WEB_", "PUBLIC_"))
    }
    environ["PYTHONPATH"] = str(ROOT)
    environ["WEB_PORT"] = "0"  # no fixed port in tests: a test that tries one passes its own
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
    proc = bot("check", cwd=tmp_path, DATABASE_PATH="data/schotten.db", DISCORD_TOKEN="x")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "would create a new one (and the folder" in proc.stdout
    assert "pictures: " in proc.stdout  # whether names in every script can be drawn
    assert "The settings are valid." in proc.stdout
    assert list(tmp_path.iterdir()) == []  # nothing created


def test_check_without_a_token_exits_as_a_start_would(tmp_path: Path) -> None:
    # A start without DISCORD_TOKEN exits 2 (a setting): so does check, after checking the rest.
    start = bot(cwd=tmp_path)
    assert start.returncode == 2 and "DISCORD_TOKEN is not set" in start.stderr
    proc = bot("check", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert "error: DISCORD_TOKEN is not set: a start would stop at once" in proc.stdout
    assert "there is no database at" in proc.stdout  # the database is still reported
    assert "The settings are valid." not in proc.stdout


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
        proc = await asyncio.to_thread(bot, "check", cwd=tmp_path, DATABASE_PATH=str(path), DISCORD_TOKEN="x")
    assert proc.returncode == 0, proc.stdout
    assert f"at schema version {latest_version()}: up to date" in proc.stdout
    assert f"lock file names pid {os.getpid()}" in proc.stdout


def test_check_refuses_another_programs_file_and_bad_settings(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    proc = bot("check", cwd=tmp_path, DATABASE_PATH=str(other), DISCORD_TOKEN="x")
    assert proc.returncode == 1
    assert "not a Schotten-Totten bot database" in proc.stdout
    assert beside(other) == {"notes.db"}
    bad = bot("check", cwd=tmp_path, SHARD_IDS="1")
    assert bad.returncode == 2 and "SHARD_IDS needs SHARD_COUNT" in bad.stderr


def test_check_on_postgresql_never_shows_the_password(tmp_path: Path) -> None:
    with __import__("socket").socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = bot(
        "check",
        cwd=tmp_path,
        DATABASE_URL=f"postgresql://bot:hunter2@127.0.0.1:{port}/bot",
        DISCORD_TOKEN="x",
    )
    assert proc.returncode == 1
    assert "cannot connect to PostgreSQL" in proc.stdout and "bot:***@" in proc.stdout
    assert "hunter2" not in proc.stdout + proc.stderr


async def test_check_on_an_empty_postgresql_database(tmp_path: Path, postgres_database: str) -> None:
    url = postgres_database.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    proc = await asyncio.to_thread(bot, "check", cwd=tmp_path, DATABASE_URL=url, DISCORD_TOKEN="x")
    assert proc.returncode == 0, proc.stdout
    assert f"is empty: a start would set it up at schema version {latest_version()}" in proc.stdout
    assert "hunter2" not in proc.stdout
    async with PostgresDatabase(postgres_database) as db:
        assert await db.schema_version() == 0  # migrating nothing


def test_check_tries_the_web_port(tmp_path: Path) -> None:
    with socket.socket() as taken:  # another program listens on the port
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        proc = bot("check", cwd=tmp_path, DISCORD_TOKEN="x", WEB_HOST="127.0.0.1", WEB_PORT=port)
    assert proc.returncode == 2, proc.stdout
    assert f"error: Cannot serve the web pages on WEB_HOST=127.0.0.1 WEB_PORT={port}: the port is taken" in (
        proc.stdout
    )
    free = bot("check", cwd=tmp_path, DISCORD_TOKEN="x", WEB_HOST="127.0.0.1", WEB_PORT=port)
    assert free.returncode == 0, free.stdout
    assert f"the web pages can listen on 127.0.0.1:{port}" in free.stdout
    # The default PUBLIC_URL follows WEB_PORT, with a warning: links that open only here.
    assert f"warning: PUBLIC_URL=http://localhost:{port} names this machine" in free.stdout


def test_check_beside_the_running_bot_names_its_port_as_the_bots(tmp_path: Path) -> None:
    # The bot running now holds WEB_PORT and answers /healthz there as the bot does
    # (bot/web/health.py): check may run beside it, so that is no error.
    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"status": "ok", "version": "0"}).encode() if self.path == "/healthz" else b""
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Health)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        port = str(server.server_address[1])
        proc = bot("check", cwd=tmp_path, DISCORD_TOKEN="x", WEB_HOST="127.0.0.1", WEB_PORT=port)
    finally:
        server.shutdown()
        server.server_close()
    assert proc.returncode == 0, proc.stdout
    assert f"the web port {port} is held by a running Schotten-Totten bot" in proc.stdout


def test_check_refuses_shards_that_sqlite_cannot_serve(tmp_path: Path) -> None:
    proc = bot("check", cwd=tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="0")
    assert proc.returncode == 2
    assert "SHARD_IDS=0 leaves shard(s) 1 of SHARD_COUNT=2 to other processes" in proc.stderr
    start = bot(cwd=tmp_path, DISCORD_TOKEN="x", SHARD_COUNT="2", SHARD_IDS="0")
    assert start.returncode == 2 and "SHARD_IDS=0 leaves shard(s) 1" in start.stderr
    assert list(tmp_path.iterdir()) == []  # refused before the database


@pytest.mark.parametrize("password", ["s3cr#tzq", "p@ss/w:rd"])
@pytest.mark.parametrize(
    "command",
    [("check",), (), ("migrate-to-postgres", "--from", "x.db"), ("export", "--guild", "1"), ("web",)],
)
def test_database_url_with_special_characters_is_one_line_without_the_password(
    tmp_path: Path, password: str, command: tuple[str, ...]
) -> None:
    url = f"postgresql://schotten:{password}@127.0.0.1:1/schotten"
    proc = bot(*command, cwd=tmp_path, DATABASE_URL=url, DISCORD_TOKEN="x")  # no traceback (bot())
    assert proc.returncode == 2
    (line,) = [line for line in proc.stderr.splitlines() if "DATABASE_URL" in line]
    assert "DATABASE_URL is not a usable PostgreSQL URL" in line and "percent-encoded" in line
    output = proc.stdout + proc.stderr
    for i in range(len(password) - 2):
        assert password[i : i + 3] not in output
    assert "int()" not in output


async def test_check_on_postgresql_with_an_encoded_password_masks_it(
    tmp_path: Path, postgres_database: str
) -> None:
    # The test server trusts every connection: any password gets in, and must not show.
    url = postgres_database.replace("postgresql://postgres@", "postgresql://postgres:p%40ss%2Fw%3Ard%23@")
    proc = await asyncio.to_thread(bot, "check", cwd=tmp_path, DATABASE_URL=url, DISCORD_TOKEN="x")
    assert proc.returncode == 0, proc.stdout
    assert "postgres:***@" in proc.stdout
    assert "p%40ss" not in proc.stdout and "p@ss" not in proc.stdout and "w%3Ard" not in proc.stdout


async def test_check_refuses_a_postgresql_role_that_may_not_write(
    tmp_path: Path, postgres_database: str
) -> None:
    owner = await asyncpg.connect(postgres_database)
    try:
        await owner.execute("DROP ROLE IF EXISTS reader; CREATE ROLE reader LOGIN")
    finally:
        await owner.close()
    reader = postgres_database.replace("postgresql://postgres@", "postgresql://reader:hunter2@")

    def check() -> subprocess.CompletedProcess[str]:
        return bot("check", cwd=tmp_path, DATABASE_URL=reader, DISCORD_TOKEN="x")

    # An empty database the role may not create tables in (PostgreSQL 15: nobody but the
    # owner may create in the schema public).
    proc = await asyncio.to_thread(check)
    assert proc.returncode == 1, proc.stdout
    assert "refuses the writes a start needs: permission denied for schema public" in proc.stdout
    assert "hunter2" not in proc.stdout
    async with PostgresDatabase(postgres_database) as db:  # the owner sets it up
        await db.migrate()
    owner = await asyncpg.connect(postgres_database)
    try:
        await owner.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
        proc = await asyncio.to_thread(check)
        assert proc.returncode == 1, proc.stdout
        assert "the role may not read and write the tables" in proc.stdout
        await owner.execute("GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO reader")
        proc = await asyncio.to_thread(check)
        assert proc.returncode == 0, proc.stdout
        await owner.execute("ALTER ROLE reader SET default_transaction_read_only = on")
        proc = await asyncio.to_thread(check)
        assert proc.returncode == 1 and "transactions are read-only" in proc.stdout, proc.stdout
        async with PostgresDatabase(postgres_database) as db:  # check changed nothing
            assert await db.schema_version() == latest_version()
            assert "schotten_check_write" not in {
                row[0] for row in await owner.fetch("SELECT tablename FROM pg_tables")
            }
    finally:
        await owner.execute("REASSIGN OWNED BY reader TO postgres; DROP OWNED BY reader; DROP ROLE reader")
        await owner.close()


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


async def test_export_never_overwrites_its_out_file(tmp_path: Path) -> None:
    await make_database(tmp_path / "schotten.db")
    (tmp_path / "games.jsonl").write_text("keep")
    proc = bot("export", "--guild", "1", "--out", "games.jsonl", cwd=tmp_path)
    assert proc.returncode == 1
    assert "games.jsonl exists; give the export a new name" in proc.stderr
    assert (tmp_path / "games.jsonl").read_text() == "keep"
    assert bot("export", "--guild", "1", "--out", "new.jsonl", cwd=tmp_path).returncode == 0
    assert (tmp_path / "new.jsonl").read_text() == ""  # no finished game


# -- migrate-to-postgres ------------------------------------------------------------


@pytest.mark.parametrize(("option", "command"), [("--to", "migrate-to-postgres"), ("--database", "export")])
def test_a_url_option_with_special_characters_names_the_option(
    tmp_path: Path, option: str, command: str
) -> None:
    url = "postgresql://bot:s3cr#tzq@127.0.0.1:1/x"
    args = ("--from", "x.db") if command == "migrate-to-postgres" else ("--guild", "1")
    proc = bot(command, *args, option, url, cwd=tmp_path)
    assert proc.returncode == 2
    assert f"error: {option} is not a usable PostgreSQL URL: it holds a '#'" in proc.stderr
    assert "s3cr" not in proc.stderr and "tzq" not in proc.stderr


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


async def test_git_ignores_every_file_the_bot_keeps_beside_its_database(tmp_path: Path) -> None:
    path = tmp_path / "schotten.db"
    async with Database(path) as db:
        await db.migrate()
        beside_it = beside(path)  # the database, its -wal and -shm, lock and mark
    assert {"schotten.db", "schotten.db.lock", "schotten.db.mark"} <= beside_it | beside(path)
    names = sorted(beside_it | beside(path) | {"schotten.db.mark.old"})  # README: a mark moved away
    proc = subprocess.run(
        ["git", "check-ignore", "--no-index", "--verbose", "--non-matching", *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    not_ignored = [line.split("\t")[1] for line in proc.stdout.splitlines() if line.startswith("::")]
    assert not_ignored == [], proc.stdout

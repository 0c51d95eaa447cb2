"""``python -m bot``: instructions without a token, clean shutdown on signals."""

from __future__ import annotations

import asyncio
import importlib.metadata
import io
import json
import logging
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import discord.http
import pytest

import bot.cli.main as entry
from bot.app import SchottenBot, create_bot
from bot.cli.main import configure_logging
from bot.settings import Settings
from bot.storage import Database, latest_version
from bot.web import standalone
from bot.web.companion import WebCompanion
from tests.ports import free_port

HERE = Path(__file__).resolve().parent


def environment(**values: str) -> dict[str, str]:
    """This process's environment without the bot's settings, and ``values``. A bot
    started with it serves its web pages on a free port, never on WEB_PORT's default."""
    unset = {"DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS"}
    env = {k: v for k, v in os.environ.items() if k not in unset and not k.startswith(("WEB_", "PUBLIC_"))}
    env["WEB_PORT"] = str(free_port())
    env.update(values)
    return env


def test_without_token_prints_instructions(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    output = proc.stdout + proc.stderr
    assert "DISCORD_TOKEN" in output
    assert 'README.md, section "Set-up"' in output
    assert "Traceback" not in output
    assert not (tmp_path / "schotten.db").exists()  # nothing was started


def test_token_from_env_file_and_malformed_setting(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nTURN_TIMEOUT=soon\n")
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "TURN_TIMEOUT" in proc.stderr and "Configuration" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signal_shuts_down_cleanly(tmp_path: Path, signum: signal.Signals) -> None:
    db_path = tmp_path / "bot.db"
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=str(db_path), LOG_LEVEL="INFO"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n", proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    assert f"Received {signum.name}" in stderr
    assert f"Database {db_path} closed" in stderr
    assert "not-a-real-token" not in stderr
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()


def test_unusable_database_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    folder = tmp_path / "a-directory.db"
    folder.mkdir()  # SQLite cannot open a directory as a database
    proc = subprocess.run(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=str(folder)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Cannot use the database" in proc.stderr and "DATABASE_PATH" in proc.stderr
    assert "Traceback" not in proc.stderr
    # The log's first line names the version, for whoever reads a log later.
    version = importlib.metadata.version("schotten-totten-bot")
    assert f"schotten-totten-bot {version} starting the bot" in proc.stderr.splitlines()[0]


def test_database_directory_is_created(tmp_path: Path) -> None:
    db_path = tmp_path / "data" / "bot" / "schotten.db"
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=str(db_path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n"
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert db_path.is_file()


def test_another_programs_database_is_refused_with_a_message(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    before = other.read_bytes()
    proc = subprocess.run(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=str(other)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "not a Schotten-Totten bot database" in proc.stderr and "DATABASE_PATH" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert other.read_bytes() == before


def start_and_stop(tmp_path: Path, **settings: str) -> str:
    """Standard error of a bot started (without Discord) and stopped with SIGTERM."""
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=environment(
            **{
                "DISCORD_TOKEN": "not-a-real-token",
                "DATABASE_PATH": str(tmp_path / "s.db"),
                "LOG_LEVEL": "INFO",
            }
            | settings
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "ready\n", proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    return stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_start_up_log_has_no_voice_warnings_and_no_colour_codes_in_a_pipe(tmp_path: Path) -> None:
    port = free_port()
    # A PUBLIC_URL of a proxy: a local one is warned about (the next test).
    stderr = start_and_stop(tmp_path, WEB_PORT=str(port), PUBLIC_URL="https://schotten.example.org")
    assert "Database" in stderr and "opened" in stderr  # the log is there
    assert f"Web pages on http://127.0.0.1:{port} " in stderr  # on the port it was given
    assert "PyNaCl" not in stderr and "davey" not in stderr  # the bot uses no voice
    assert "WARNING" not in stderr
    assert "\x1b[" not in stderr  # stderr is a pipe here, not a terminal


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_runs_on_postgresql_with_database_url(tmp_path: Path, postgres_database: str) -> None:
    stderr = start_and_stop(tmp_path, DATABASE_URL=postgres_database)
    assert f"Database {postgres_database} at schema version {latest_version()}" in stderr
    assert f"Database {postgres_database} closed" in stderr
    assert not list(tmp_path.glob("*.db*"))  # no SQLite file on the side


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("stream", "coloured"), [(io.StringIO(), False), (Terminal(), True)])
def test_log_colours_only_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, stream: io.StringIO, coloured: bool
) -> None:
    # discord.py also colours when it thinks it runs in Docker, whatever the stream is.
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        configure_logging(logging.INFO, stream=stream)
        logging.getLogger("bot.test").info("hello")
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    assert "hello" in stream.getvalue()
    assert ("\x1b[" in stream.getvalue()) is coloured


def test_json_log_format_is_one_object_a_line() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        configure_logging(logging.INFO, stream=stream, json_lines=True)
        logging.getLogger("bot.test").info('a line with\nsecond line and "quotes" and é')
        try:
            raise ValueError("broken")
        except ValueError:
            logging.getLogger("bot.test").exception("failed")
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    lines = stream.getvalue().splitlines()
    entries = [json.loads(line) for line in lines]  # each line is JSON on its own
    assert len(lines) == 2
    assert entries[0]["message"] == 'a line with\nsecond line and "quotes" and é'
    assert entries[0]["level"] == "INFO" and entries[0]["logger"] == "bot.test"
    assert entries[0]["time"].endswith("+00:00")
    assert entries[1]["level"] == "ERROR" and "ValueError: broken" in entries[1]["exception"]


def test_version_from_the_package_metadata(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--version"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"schotten-totten-bot {importlib.metadata.version('schotten-totten-bot')}"
    assert (
        importlib.metadata.version("schotten-totten-bot")
        == tomllib.loads((HERE.parents[1] / "pyproject.toml").read_text())["project"]["version"]
    )


def test_clear_guild_commands_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # python -m bot clear-guild-commands ID: logs in without the gateway, empties that
    # server's commands and forgets it was synced there. Discord is faked at login/sync.
    db_path = tmp_path / "bot.db"

    async def earlier_dev_guild() -> None:
        async with Database(db_path) as db:
            await db.migrate()
            await db.players.set_meta("command_sync:4242", "fingerprint")
            await db.players.set_meta("command_sync:global", "fingerprint")

    asyncio.run(earlier_dev_guild())
    synced: list[tuple[int | None, list[str]]] = []

    async def login(self: SchottenBot, token: str) -> None:
        await self.setup_hook()

    async def sync(
        self: discord.app_commands.CommandTree, *, guild: discord.abc.Snowflake | None = None
    ) -> list:
        synced.append((None if guild is None else guild.id, [c.name for c in self.get_commands(guild=guild)]))
        return []

    monkeypatch.setattr(SchottenBot, "login", login)
    monkeypatch.setattr(discord.app_commands.CommandTree, "sync", sync)
    monkeypatch.setattr(entry, "configure_logging", lambda level, **options: None)
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(db_path))
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    assert entry.main(["clear-guild-commands", "4242"]) == 0
    assert synced == [(4242, [])]
    with sqlite3.connect(db_path) as conn:
        # (database_id: the database's identity, mark.py)
        keys = [
            row[0] for row in conn.execute("SELECT key FROM meta WHERE key <> 'database_id' ORDER BY key")
        ]
    conn.close()
    assert keys == ["command_sync:global"]


def test_clear_guild_commands_needs_a_number_and_a_token(tmp_path: Path) -> None:
    for args, expected in (
        (["clear-guild-commands", "my-server"], "invalid int"),
        (["clear-guild-commands", "1"], "DISCORD_TOKEN"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "bot", *args],
            cwd=tmp_path,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2 and expected in proc.stderr
        assert "Traceback" not in proc.stderr


async def test_backup_while_the_database_is_open_in_wal_mode(tmp_path: Path) -> None:
    db_path, copy = tmp_path / "live.db", tmp_path / "backups" / "copy.db"
    copy.parent.mkdir()
    async with Database(db_path) as db:
        await db.migrate()
        await db.players.set_meta("committed", "yes")
        # The row is committed but still only in the -wal file: a plain copy of the
        # database file alone would miss it.
        assert (await db.one("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
        assert Path(f"{db_path}-wal").stat().st_size > 0
        proc = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", "backup", str(copy)],
            cwd=tmp_path,
            env=environment(DATABASE_PATH=str(db_path)),  # no token needed
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert f"Backed up {db_path} to {copy}." in proc.stdout
        await db.players.set_meta("later", "not in the backup")
    assert not Path(f"{copy}-wal").exists()  # a single, self-contained file
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        assert meta.pop("database_id")  # the same database: the same identity (mark.py)
        assert meta == {"committed": "yes"}
    conn.close()
    async with Database(copy) as restored:  # the bot opens a backup as its own database
        assert await restored.migrate() == latest_version()
        assert await restored.players.get_meta("committed") == "yes"


def test_backup_never_overwrites_and_needs_a_database(tmp_path: Path) -> None:
    existing = tmp_path / "existing.db"
    existing.write_bytes(b"keep")
    for db_path, target, expected in (
        (tmp_path / "missing.db", tmp_path / "new.db", "no database at"),
        (existing, existing, "exists"),
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "bot", "backup", str(target)],
            cwd=tmp_path,
            env=environment(DATABASE_PATH=str(db_path)),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 1 and expected in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    assert existing.read_bytes() == b"keep"
    assert not (tmp_path / "missing.db").exists() and not (tmp_path / "new.db").exists()


def start_against_unreachable_gateway(tmp_path: Path, **settings: str) -> subprocess.Popen[str]:
    """``python -m bot`` logged in to a fake Discord whose gateway refuses connections."""
    return subprocess.Popen(
        [sys.executable, str(HERE / "unreachable_gateway_start.py")],
        cwd=tmp_path,
        env=environment(
            DISCORD_TOKEN="not-a-real-token",
            DATABASE_PATH=str(tmp_path / "g.db"),
            LOG_LEVEL="INFO",
            **settings,
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_sharded_bot_stops_on_a_signal_while_the_gateway_fails(
    tmp_path: Path, signum: signal.Signals
) -> None:
    # discord.py retries a shard's connection every 5 s, even after close(): the signal
    # must still end the process, at once (Discord's close completes: no CLOSE_TIMEOUT,
    # no further attempt to connect) and without a traceback.
    proc = start_against_unreachable_gateway(tmp_path, SHARD_COUNT="2", SHARD_IDS="0,1")
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "Failed to connect for shard_id" in line:
                break
        else:
            pytest.fail("".join(lines))
        proc.send_signal(signum)
        rest, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = "".join(lines) + rest
    assert proc.returncode == 0, output
    assert "Traceback" not in output
    assert f"Received {signum.name}" in output and "Stopped" in output
    assert "Cannot connect to host" in output  # the failure is logged, on one line
    after_signal = output.split(f"Received {signum.name}", 1)[1]
    assert "Closing Discord took over" not in after_signal, output  # close() did not hang
    assert "Failed to connect" not in after_signal, output  # and no retry came after it


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_unsharded_bot_keeps_trying_the_gateway_and_stops_on_a_signal(tmp_path: Path) -> None:
    # discord.py's retry of a first connection that failed breaks (an AttributeError): the
    # bot connects anew, one line each time, as a sharded one does, until a signal.
    proc = start_against_unreachable_gateway(tmp_path)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        assert "starting the bot" in proc.stdout.readline()  # the version's line first
        for line in proc.stdout:
            lines.append(line)
            if len([seen for seen in lines if "Cannot reach Discord's gateway; trying again" in seen]) == 2:
                break
        else:
            pytest.fail("".join(lines))
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = "".join(lines) + rest
    assert proc.returncode == 0, output
    assert "Traceback" not in output and "Received SIGTERM" in output and "Stopped" in output
    assert "Cannot connect to host" in output  # discord.py's own line, on one line


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_unsharded_bot_stops_on_a_signal_once_ready(tmp_path: Path) -> None:
    proc = start_against_unreachable_gateway(tmp_path)
    lines = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line == "ready\n":
                break
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = "".join(lines) + rest
    assert proc.returncode == 0, output
    assert "Traceback" not in output and "Database" in output and "closed" in output


def test_database_is_checked_before_logging_in(tmp_path: Path) -> None:
    # A wrong DATABASE_PATH shows without a working token: nothing reaches Discord.
    folder = tmp_path / "a-directory.db"
    folder.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=str(folder)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Cannot use the database" in proc.stderr
    assert "logging in" not in proc.stderr and "Traceback" not in proc.stderr


def test_a_taken_web_port_is_one_line_naming_the_setting_before_discord(tmp_path: Path) -> None:
    with socket.socket() as taken:  # another program listens on the port
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [sys.executable, str(HERE / "unreachable_gateway_start.py")],
            cwd=tmp_path,
            env=environment(
                DISCORD_TOKEN="not-a-real-token",
                DATABASE_PATH=str(tmp_path / "s.db"),
                WEB_HOST="127.0.0.1",
                WEB_PORT=str(port),
            ),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert proc.returncode == 2, proc.stderr  # a setting, as settings errors are
    (line,) = [line for line in proc.stderr.splitlines() if "WEB_PORT" in line]
    assert f"Cannot serve the web pages on WEB_HOST=127.0.0.1 WEB_PORT={port}: the port is taken" in line
    assert "Cannot reach Discord" not in proc.stderr and "Traceback" not in proc.stderr
    assert "logging in" not in proc.stderr  # refused before Discord


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_links_follow_web_port_and_a_local_public_url_is_warned_about(tmp_path: Path) -> None:
    port = free_port()
    stderr = start_and_stop(tmp_path, WEB_HOST="127.0.0.1", WEB_PORT=str(port))
    assert f"Web pages on http://127.0.0.1:{port} (links: http://localhost:{port};" in stderr
    assert f"WARNING ] bot: PUBLIC_URL=http://localhost:{port} names this machine" in stderr
    other = free_port()
    stderr = start_and_stop(
        tmp_path, WEB_HOST="127.0.0.1", WEB_PORT=str(port), PUBLIC_URL=f"http://127.0.0.1:{other}"
    )
    assert f"names port {other}, but the web pages listen on WEB_PORT={port}" in stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("shards", [{}, {"SHARD_COUNT": "2", "SHARD_IDS": "0,1"}])
def test_first_login_is_tried_again_while_the_network_fails(tmp_path: Path, shards: dict[str, str]) -> None:
    proc = start_against_unreachable_gateway(tmp_path, FAIL_LOGINS="3", **shards)
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line == "ready\n":  # logged in at the fourth try: setup_hook ran
                break
        else:
            pytest.fail("".join(lines))
        proc.send_signal(signal.SIGTERM)
        rest, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = "".join(lines) + rest
    retries = [line for line in lines if "Cannot reach Discord to log in" in line]
    assert len(retries) == 3, output
    assert all("OSError: [Errno 101] Network is unreachable" in line for line in retries)
    assert "trying again in 0 s" in retries[0]
    assert "Traceback" not in output and "Unclosed" not in output


async def test_web_alone_serves_at_once_and_reads_names_once_discord_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # `python -m bot web` with a token: the pages are served while Discord cannot be
    # reached, with ids for names; once it answers, the names come from Discord.
    reachable = asyncio.Event()
    me = {"id": "1", "username": "bot", "discriminator": "0", "avatar": None, "bot": True}
    alice = {"id": "42", "username": "alice", "discriminator": "0", "avatar": None, "global_name": "Alice"}

    async def request(self: discord.http.HTTPClient, route: discord.http.Route, **kwargs: Any) -> Any:
        if not reachable.is_set():
            raise OSError(101, "Network is unreachable")
        if route.path == "/users/@me":
            return me
        if route.url.endswith("/users/42"):
            return alice
        raise discord.HTTPException(SimpleNamespace(status=404, reason="Not Found"), "Unknown User")

    async def application_info(self: discord.Client) -> Any:
        return SimpleNamespace(id=1, interactions_endpoint_url=None, flags=discord.ApplicationFlags())

    servers: list[WebCompanion] = []

    class Served(WebCompanion):
        async def start(self, *, port: int | None = None) -> None:
            await super().start(port=port)
            servers.append(self)

    monkeypatch.setattr(discord.http.HTTPClient, "request", request)
    monkeypatch.setattr(discord.Client, "application_info", application_info)
    monkeypatch.setattr(standalone, "WebCompanion", Served)
    monkeypatch.setattr(standalone, "LOGIN_RETRY_FIRST", 0.01)
    caplog.set_level(logging.INFO)
    # WEB_PORT=0 is refused by `python -m bot web`; here it lets the OS choose the port.
    settings = Settings(token="not-a-real-token", database_path=str(tmp_path / "w.db"), web_port=0)
    stop = asyncio.Event()
    serving = asyncio.create_task(standalone.serve(settings, stop))
    try:
        while not servers and not serving.done():
            await asyncio.sleep(0.01)
        (web,) = servers
        url = f"http://127.0.0.1:{web.port}/watch/1/forged"
        async with aiohttp.ClientSession() as session, session.get(url) as response:
            assert response.status == 404  # served: a page that says "Nothing here"
        assert await web.names.name(42) == "#42"
        while "Cannot reach Discord to log in" not in caplog.text:
            await asyncio.sleep(0.01)
        reachable.set()
        while "the pages show players' names" not in caplog.text:
            await asyncio.sleep(0.01)
        assert await web.names.name(42) == "Alice"
        assert await web.names.pair((42, 7), None) == ("Alice", "#7")  # unknown: the id
    finally:
        stop.set()
        await serving
    assert "Traceback" not in caplog.text


async def test_a_bot_without_pages_links_to_the_pages_served_elsewhere(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # WEB_PORT=0 on the bot processes, one `python -m bot web` at PUBLIC_URL: the links.
    caplog.set_level(logging.INFO)
    elsewhere = Settings.from_env({"WEB_PORT": "0", "PUBLIC_URL": "https://games.example"}, env_file=None)
    bot = create_bot(database=str(tmp_path / "b.db"), settings=elsewhere, web=True, extensions=[])
    bot.sync_on_start = False
    try:
        await bot.setup_hook()
        assert bot.web is not None and bot.web.links is not None
        assert bot.web.links.watch(1).startswith("https://games.example/watch/1/")
        assert bot.web.port is None  # serves nothing itself
        assert "Web pages served elsewhere (WEB_PORT=0; links: https://games.example)" in caplog.text
    finally:
        await bot.close()
    off = create_bot(
        database=":memory:", settings=Settings.from_env({"WEB_PORT": "0"}, env_file=None), web=True
    )
    assert off.web is None  # no pages, no PUBLIC_URL: no links
    await off.close()

"""``python -m bot``: instructions without a token, clean shutdown on signals."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import latest_version

HERE = Path(__file__).resolve().parent


def environment(**values: str) -> dict[str, str]:
    unset = {"DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "DATABASE_URL"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
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


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_runs_on_postgresql_with_database_url(tmp_path: Path, postgres_database: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_URL=postgres_database),
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
    assert f"Database {postgres_database} at schema version {latest_version()}" in stderr
    assert f"Database {postgres_database} closed" in stderr
    assert not list(tmp_path.glob("*.db*"))  # no SQLite file on the side


def test_unreachable_database_url_is_a_message(tmp_path: Path) -> None:
    url = f"postgresql://bot:hunter2@/schotten?host={tmp_path}"  # no server at that socket
    proc = subprocess.run(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "Cannot use the database" in proc.stderr and "(DATABASE_URL)" in proc.stderr
    assert "hunter2" not in proc.stderr
    assert "Traceback" not in proc.stderr

"""SQLite serves one bot process: a second process on the same file is refused at start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import Database, DatabaseInUse

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock")

HOLDER = """
import asyncio, sys
from bot.storage import Database

async def main(path):
    async with Database(path) as db:
        await db.migrate()
        print("ready", flush=True)
        sys.stdin.readline()

asyncio.run(main(sys.argv[1]))
"""


def environment(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))}
    env["WEB_PORT"] = "0"  # no fixed port in tests
    env.update(values)
    return env


def start_holder(path: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "ready\n", proc.stderr.read() if proc.stderr else ""
    return proc


def stop_holder(proc: subprocess.Popen[str]) -> None:
    try:
        proc.communicate("\n", timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


async def test_a_second_process_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    holder = start_holder(path)
    try:
        db = Database(path)
        with pytest.raises(DatabaseInUse, match=rf"in use by another process \(pid {holder.pid};") as error:
            await db.connect()
        assert "DATABASE_URL" in str(error.value)  # says how to run several
        assert not db.is_open
        await db.close()
    finally:
        stop_holder(holder)
    assert holder.returncode == 0
    async with Database(path) as db:  # the lock went with the process
        assert await db.schema_version() > 0


async def test_a_killed_process_does_not_leave_the_database_locked(tmp_path: Path) -> None:
    path = tmp_path / "killed.db"
    holder = start_holder(path)
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=10)
    async with Database(path) as db:
        assert await db.schema_version() > 0


async def test_one_process_may_open_its_database_twice(tmp_path: Path) -> None:
    path = tmp_path / "twice.db"
    async with Database(path) as first, Database(path) as second:
        await first.migrate()
        assert await second.schema_version() == await first.schema_version()
    # Both closed: another process may take it now.
    holder = start_holder(path)
    stop_holder(holder)
    assert holder.returncode == 0


def test_a_second_bot_stops_before_contacting_discord(tmp_path: Path) -> None:
    """``python -m bot`` twice on one DATABASE_PATH: the second exits with a message;
    the first keeps running and shuts down cleanly."""
    db_path = tmp_path / "bot.db"
    env = environment(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=str(db_path))
    first = subprocess.Popen(
        [sys.executable, str(HERE / "fake_discord_start.py")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert first.stdout is not None
        assert first.stdout.readline() == "ready\n", first.stderr.read() if first.stderr else ""
        second = subprocess.run(
            [sys.executable, str(HERE / "fake_discord_start.py")],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1
        assert second.stdout == ""  # never got as far as setup_hook
        assert "Cannot use the database" in second.stderr and "in use by another process" in second.stderr
        assert f"pid {first.pid}" in second.stderr
        assert "Traceback" not in second.stderr
        assert first.poll() is None
        first.send_signal(signal.SIGTERM)
        _, stderr = first.communicate(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 0, stderr

"""Commands the README gives work as written."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import discord

ROOT = Path(__file__).resolve().parents[1]


def test_bare_pytest_selection_collects() -> None:
    # `pytest` (unlike `python -m pytest`) does not put the working directory on sys.path,
    # so the tests' `from tests.cogs.helpers import ...` needs the pytest configuration.
    pytest_script = Path(sys.executable).with_name("pytest")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(pytest_script), "tests/bot", "-k", "storage", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "test_storage.py" in proc.stdout


def test_invite_link_grants_what_the_bot_needs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    values = set(re.findall(r"[?&]permissions=(\d+)", readme))
    assert len(values) == 1, values
    (value,) = values
    granted = discord.Permissions(int(value))
    # Seeing the channel, posting and editing the board there or in a thread, slash commands.
    needed = discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        read_message_history=True,
        use_application_commands=True,
    )
    assert needed <= granted
    assert not granted.administrator and not granted.manage_messages and not granted.mention_everyone
    assert f"`{value}`" in readme  # the text names the same integer as the link


def test_operator_commands_work_as_written_on_a_fresh_clone(tmp_path: Path) -> None:
    # A new operator's path: check, a first start (here: only its database part), a
    # backup and an export, each command exactly as the README prints it.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = {
        name: re.search(rf"^\s*(\.venv/bin/python -m bot {name}\b[^\n`]*)$", readme, re.MULTILINE)
        for name in ("check", "backup")
    }
    missing = [name for name, found in commands.items() if found is None]
    assert not missing, missing
    export = re.search(r"`(\.venv/bin/python -m bot export --guild ID --out games\.jsonl)`", readme)
    assert export is not None
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_", "SHARD_", "WEB_"))
    }
    env["PYTHONPATH"] = str(ROOT)
    # Set-up: cp .env.example .env, then the token after DISCORD_TOKEN=.
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    (tmp_path / ".env").write_text(example.replace("\nDISCORD_TOKEN=\n", "\nDISCORD_TOKEN=x\n"))
    with socket.socket() as sock:  # check tries WEB_PORT: a free one, not 8080
        sock.bind(("127.0.0.1", 0))
        env["WEB_PORT"] = str(sock.getsockname()[1])

    def run(command: str) -> subprocess.CompletedProcess[str]:
        command = command.replace(".venv/bin/python", shlex.quote(sys.executable)).replace("ID", "1")
        proc = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
        return proc

    check = commands["check"]
    assert check is not None
    first = run(check.group(1))
    assert first.returncode == 0 and "a start would create a new one" in first.stdout
    asyncio.run(_first_start(tmp_path / "schotten.db"))  # what `make run` does to the database
    assert "up to date" in run(check.group(1)).stdout
    backup = commands["backup"]
    assert backup is not None
    proc = run(backup.group(1))
    assert proc.returncode == 0, proc.stderr
    (copy,) = (tmp_path / "backups").iterdir()
    assert copy.name.startswith("schotten-20") and copy.name.endswith(".db")
    proc = run(export.group(1))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "games.jsonl").read_text() == ""  # no finished game yet
    proc = run(export.group(1).replace("games.jsonl", f"from-backup.jsonl --database {copy}"))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [copy.name]
    assert run(export.group(1)).returncode == 1  # never overwritten: a new name each time


async def _first_start(path: Path) -> None:
    from bot.storage import Database

    async with Database(path) as db:
        await db.migrate()

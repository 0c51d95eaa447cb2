"""Commands the README gives work as written."""

from __future__ import annotations

import os
import re
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

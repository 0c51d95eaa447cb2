"""A SQLite database that lost its data is refused, not set up again as a new one.

The reported case: ``schotten.db-wal`` deleted while the bot ran, then a crash. The data
file held only what the last checkpoint had put there, and the restarted bot migrated
it and came up with no games, without a word. Here the bot plays a game on a file; the
state a crash would then leave (the main file as it is, without its ``-wal``, and the
mark beside it) is copied aside while the bot still runs; a start on that copy must
stop with a message that names the files and the README's recovery section, and leave
the file as it was.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import simcord

import bot.storage.database as database
from bot.app import create_bot
from bot.storage import Database, DatabaseRegressed, backup
from bot.storage.mark import mark_path, read_mark
from tests.cogs.helpers import challenge_and_accept, dm_message, hand_in, setup_members
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
FAKE_START = ROOT / "tests" / "bot" / "fake_discord_start.py"


def environment(**values: str) -> dict[str, str]:
    unset = {"DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "DATABASE_URL"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env["PYTHONPATH"] = str(ROOT)
    env["WEB_PORT"] = str(free_port())  # should the bot start after all: not on 8080
    env.update(values)
    return env


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def wait_for_mark(path: Path, game_id: int) -> None:
    for _ in range(500):
        recorded = read_mark(path)
        if recorded is not None and recorded.max_game_id >= game_id:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the mark never recorded game #{game_id}: {read_mark(path)}")


@pytest.mark.parametrize("checkpointed", [False, True], ids=["nothing-checkpointed", "schema-checkpointed"])
async def test_a_database_that_lost_its_wal_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checkpointed: bool
) -> None:
    monkeypatch.setattr(database, "MARK_INTERVAL", 0.0)  # the mark after every commit
    live = tmp_path / "live" / "schotten.db"
    live.parent.mkdir()
    lost = tmp_path / "lost" / "schotten.db"
    lost.parent.mkdir()
    bot = create_bot(database=live)
    try:
        async with simcord.run(bot) as env:
            if checkpointed:  # the schema reached the main file, the games did not
                await bot.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            _, channel, members = setup_members(env)
            game_id = await challenge_and_accept(env, channel, *members)
            record = await bot.service.get(game_id)
            mover = members[0] if record.current_user == members[0].id else members[1]
            card = hand_in(dm_message(mover, game_id).content)[0]
            await mover.slash(channel, "schotten play", card=card, stone=5)
            await wait_for_mark(live, game_id)
            # The crash after the -wal file was deleted: the main file and the mark only.
            shutil.copyfile(live, lost)
            shutil.copyfile(mark_path(live), mark_path(lost))
    finally:
        await bot.close()
    before = digest(lost)
    with sqlite3.connect(f"{lost.resolve().as_uri()}?mode=ro", uri=True) as conn:
        version_before = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()

    start = subprocess.run(
        [sys.executable, str(FAKE_START)],
        cwd=tmp_path,
        env=environment(DISCORD_TOKEN="not-a-real-token", DATABASE_PATH=str(lost)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert start.returncode == 1, start.stderr
    assert "ready" not in start.stdout
    message = start.stderr
    assert "refuses to start" in message and str(mark_path(lost).resolve()) in message
    assert str(lost.resolve()) in message and 'section "Recovering"' in message
    assert "Traceback" not in message
    assert "migrated" not in message  # no migration ran ...
    assert digest(lost) == before  # ... and the file is as it was
    with sqlite3.connect(f"{lost.resolve().as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == version_before
    conn.close()
    assert not Path(str(lost) + ".lock").exists()

    check = subprocess.run(
        [sys.executable, "-m", "bot", "check"],
        cwd=tmp_path,
        env=environment(DATABASE_PATH=str(lost), DISCORD_TOKEN="x"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 1 and "refuses to start" in check.stdout, check.stdout
    assert digest(lost) == before

    # The README's way to start afresh on purpose: move the mark away.
    mark_path(lost).rename(tmp_path / "schotten.db.mark.old")
    check = subprocess.run(
        [sys.executable, "-m", "bot", "check"],
        cwd=tmp_path,
        env=environment(DATABASE_PATH=str(lost), DISCORD_TOKEN="x"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stdout


async def test_a_new_database_starts_and_is_marked(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with Database(path) as db:
        await db.migrate()
        recorded = read_mark(path)
        assert recorded is not None and recorded.schema_version == await db.schema_version()
        assert recorded.database_id and recorded.max_game_id == 0
    async with Database(path) as db:  # whole: opens again
        assert await db.schema_version() == recorded.schema_version
        assert await db.players.get_meta("database_id") == recorded.database_id


async def test_behind_its_mark_or_another_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    early = tmp_path / "early.db"
    async with Database(path) as db:
        await db.migrate()
        backup(path, early)  # a backup from before the game
        await db.players.ensure_players([1, 2], now=0)
        await db.execute(
            "INSERT INTO games (guild_id, channel_id, player0, player1, options, seed, first_player,"
            " status, state, version, created_at, updated_at)"
            " VALUES (1, 1, 1, 2, '{}', 1, 0, 'active', '{}', 0, 0, 0)"
        )
    assert read_mark(path).max_game_id == 1  # written at close
    # A backup put in its place: behind the mark.
    saved = tmp_path / "saved.db"
    shutil.move(path, saved)
    shutil.copyfile(early, path)
    with pytest.raises(DatabaseRegressed, match=r"holds games up to #0 only"):
        await Database(path).connect()
    # Another database altogether.
    path.unlink()
    other = tmp_path / "other.db"
    async with Database(other) as db:
        await db.migrate()
    shutil.copyfile(other, path)
    with pytest.raises(DatabaseRegressed, match="is another database"):
        await Database(path).connect()
    # No database at all.
    path.unlink()
    with pytest.raises(DatabaseRegressed, match="is missing or empty"):
        await Database(path).connect()
    assert not path.exists()  # not created
    # A lower schema version.
    stale = json.loads(mark_path(path).read_text())
    shutil.copyfile(saved, path)
    async with Database(path) as db:  # the right one again: accepted
        assert await db.schema_version() == stale["schema_version"]
    mark_path(path).write_text(json.dumps(stale | {"schema_version": stale["schema_version"] + 1}))
    with pytest.raises(DatabaseRegressed, match="is at schema version"):
        await Database(path).connect()

"""Crash durability: a worker applying moves to several games is killed with SIGKILL
at random moments. After every kill each game loads, every move the worker had
reported as committed is there, and replaying each move log gives the saved state.

On both backends: a SQLite file, and a PostgreSQL database whose server stays up while
its client is killed (the server must roll back the client's open transaction)."""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import asyncpg
import pytest

from bot.service import GameService
from bot.storage import open_database
from rules.game import Game

WORKER = Path(__file__).with_name("durability_worker.py")
KILLS = {"sqlite": 25, "postgres": 12}
GAMES = 4

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def run_and_kill(db_path: str, seed: int, rng: random.Random) -> list[tuple[int, int]]:
    """Start the worker, let it work for a random moment, SIGKILL it; returns the
    commits it reported."""
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), db_path, str(GAMES), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:  # drain the pipe continuously, so the worker never blocks on it
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line == "ready\n":
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        if not ready.wait(timeout=30):
            proc.kill()
            raise AssertionError(f"worker did not start: {proc.communicate()[1]}")
        time.sleep(rng.uniform(0.01, 0.4))
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    commits = []
    for line in lines:
        words = line.split()
        # A line cut by the kill has no newline yet: it was never fully reported.
        if line.endswith("\n") and words[:1] == ["committed"]:
            commits.append((int(words[1]), int(words[2])))
    return commits


async def game_ids(target: str) -> list[int]:
    if target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            return [row["id"] for row in await conn.fetch("SELECT id FROM games ORDER BY id")]
        finally:
            await conn.close()
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]


async def check(target: str, reported: dict[int, int]) -> int:
    """Every game loads and replays to its snapshot; nothing reported is missing.
    Returns how many moves are stored."""
    total = 0
    async with open_database(target) as db:
        await db.migrate()
        service = GameService(db)
        ids = await game_ids(target)
        assert set(reported) <= set(ids)
        for game_id in ids:
            record = await service.get(game_id)
            moves = await db.moves(game_id)
            assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
            assert record.version == len(moves) == record.game.version
            assert record.version >= reported.get(game_id, 0), f"game {game_id} lost committed moves"
            replayed = Game.replay(
                record.seed,
                record.options,
                [(m.player, m.move) for m in moves],
                first_player=record.first_player,
            )
            assert replayed.to_dict() == record.game.to_dict()
            assert record.is_active == (not record.game.is_over)
            assert (await db.get_result(game_id) is not None) == record.game.is_over
            total += len(moves)
    return total


async def test_sigkill_never_loses_a_committed_move(backend: str, db_target: str) -> None:
    rng = random.Random(2024)
    reported: dict[int, int] = {}
    stored = 0
    for round_ in range(KILLS[backend]):
        for game_id, version in run_and_kill(db_target, seed=round_, rng=rng):
            reported[game_id] = max(version, reported.get(game_id, 0))
        now_stored = await check(db_target, reported)
        assert now_stored >= stored  # the log only grows
        stored = now_stored
    assert stored > 100, "the worker hardly moved: the test proves nothing"


TWO_PROCESS_KILLS = 20


def start_worker(db_path: str, seed: int) -> tuple[subprocess.Popen[str], list[str], threading.Event]:
    proc = subprocess.Popen(
        [sys.executable, str(WORKER), db_path, str(GAMES), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line == "ready\n":
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    return proc, lines, ready


def commits_of(lines: list[str]) -> list[tuple[int, int]]:
    return [
        (int(line.split()[1]), int(line.split()[2]))
        for line in list(lines)
        if line.endswith("\n") and line.startswith("committed ")
    ]


async def test_sigkill_one_of_two_processes_loses_nothing(postgres_database: str) -> None:
    """Two workers play the same games on one PostgreSQL; one of them is killed with
    SIGKILL at a random moment, 20 times, while the other goes on (it is then stopped
    too, and both start again). Every move either of them reported is stored, and every
    game replays to its snapshot."""
    rng = random.Random(77)
    reported: dict[int, int] = {}
    stored = 0
    for round_ in range(TWO_PROCESS_KILLS):
        workers = [start_worker(postgres_database, seed=2 * round_ + i) for i in range(2)]
        try:
            for proc, _, ready in workers:
                assert ready.wait(timeout=30), proc.stderr.read() if proc.stderr else ""
            time.sleep(rng.uniform(0.05, 0.4))
            victim = rng.randrange(2)
            workers[victim][0].send_signal(signal.SIGKILL)
            workers[victim][0].wait(timeout=10)
            time.sleep(rng.uniform(0.05, 0.2))  # the survivor goes on alone
            survivor = workers[1 - victim][0]
            assert survivor.poll() is None, survivor.stderr.read() if survivor.stderr else ""
            survivor.send_signal(signal.SIGKILL)
            survivor.wait(timeout=10)
        finally:
            for proc, _, _ in workers:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        time.sleep(0.05)  # the readers drain the last complete lines
        for _, lines, _ in workers:
            for game_id, version in commits_of(lines):
                reported[game_id] = max(version, reported.get(game_id, 0))
        now_stored = await check(postgres_database, reported)
        assert now_stored >= stored
        stored = now_stored
    assert stored > 100, "the workers hardly moved: the test proves nothing"

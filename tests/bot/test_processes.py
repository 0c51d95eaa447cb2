"""Two bot processes on one PostgreSQL database, playing the same games at once.

Real OS processes, each with its own ``GameService`` (cache, locks, connection pool):
every move is applied exactly once, none is lost, the losers of races get the ordinary
"moved on" answer, and nothing ends in a traceback.
"""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from bot.games.service import GameService
from bot.storage import open_database
from rules.game import Game, GameOptions
from tests.bot.conftest import ALICE, BOB

WORKER = Path(__file__).with_name("contention_worker.py")
ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 2
GAMES = 8


async def test_two_processes_play_the_same_games_each_move_once(postgres_database: str) -> None:
    async with open_database(postgres_database) as db:
        await db.migrate()
        service = GameService(db)
        ids = [
            (
                await service.create_game(
                    guild_id=1,
                    channel_id=10 + i,
                    players=(ALICE + 10 * i, BOB + 10 * i),
                    options=GameOptions(tactics=i % 2 == 1),
                    seed=100 + i,
                )
            ).id
            for i in range(GAMES)
        ]
        procs = [
            subprocess.Popen(
                [sys.executable, str(WORKER), postgres_database, str(seed), *map(str, ids)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
            for seed in range(PROCESSES)
        ]
        try:
            for proc in procs:
                assert proc.stdout is not None
                assert await asyncio.to_thread(proc.stdout.readline) == "ready\n"
            for proc in procs:  # both start together
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
            outputs = [await asyncio.to_thread(proc.communicate, timeout=240) for proc in procs]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
        for proc, (out, err) in zip(procs, outputs, strict=True):
            assert proc.returncode == 0, err
            assert "Traceback" not in err and "ConcurrentUpdate" not in err, err
            assert out.endswith("done\n")

        applied: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
        by_process = [0] * PROCESSES
        stale = 0
        for index, (out, _) in enumerate(outputs):
            for line in out.splitlines():
                words = line.split()
                if words[0] == "applied":
                    applied[int(words[1])].append((int(words[2]), int(words[3])))
                    by_process[index] += 1
                elif words[0] == "stale":
                    stale += 1
        assert all(count > 0 for count in by_process), by_process  # both played
        assert stale > 0, "no request ever lost a race: the test proves nothing"

        for game_id in ids:
            row = await db.games.get_game(game_id)
            assert row is not None and row.status == "finished"
            steps = sorted(applied[game_id])
            # Each version was moved from exactly once, by one process or the other, and
            # the moves chain from the start to the stored game: none lost, none twice.
            befores = [before for before, _ in steps]
            assert len(befores) == len(set(befores)), f"game {game_id}: a version moved twice"
            assert steps[0][0] == 0 and steps[-1][1] == row.version
            assert all(a[1] == b[0] for a, b in itertools.pairwise(steps))
            moves = await db.games.moves(game_id)
            assert [m.seq for m in moves] == list(range(1, row.version + 1))
            replayed = Game.replay(
                row.seed,
                GameOptions.from_dict(row.options),
                [(m.player, m.move) for m in moves],
                first_player=row.first_player,
            )
            assert replayed.to_dict() == row.state
        assert len(await db.ratings.recent_results(limit=100)) == GAMES  # one result per game

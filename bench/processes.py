"""Benchmark: moves/s and latency of the game service, 1 process on SQLite against N
processes on one PostgreSQL database.

    .venv/bin/python bench/processes.py [--games 200] [--processes 2] [--inflight 50]
                                        [--duration 10]

Each run starts ``--games`` games, split between the processes as shards would split
them (game i goes to process i mod N), then each process keeps ``--inflight`` moves in
flight at once (each game at most one) for ``--duration`` seconds: the move of the
game's player to move, through ``GameService.apply`` with the control's version (the
engine, the compare-and-set commit, the move log, the outbox entry the bot writes).
Finished games are replaced outside the measurement. A move's latency is the time of
its ``apply`` call, queueing behind the other moves of its process included.

No Discord here: what a move costs on Discord (REST calls per move, split into those
that count against the bot's global rate limit and those that do not) is measured by
``bench/discord_moves.py``. PostgreSQL is a throwaway server started with the system's
binaries (``tests/pgserver.py``: Unix socket only, fsync off), so its commits are cheaper
than a production server's; SQLite runs with ``synchronous=FULL`` on the local disk.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games.service import GameService  # noqa: E402
from bot.storage import open_database  # noqa: E402
from rules.game import GameOptions  # noqa: E402


async def _new_game(service: GameService, slot: int, rng: random.Random) -> int:
    record = await service.create_game(
        guild_id=1,
        channel_id=1000 + slot,
        players=(2 * slot + 1, 2 * slot + 2),
        options=GameOptions(),
        seed=rng.randrange(2**62),
    )
    return record.id


async def setup(target: str, games: int) -> None:
    async with open_database(target) as db:
        await db.migrate()
        service = GameService(db)
        rng = random.Random(1)
        for slot in range(games):
            await _new_game(service, slot, rng)


async def worker(target: str, index: int, processes: int, inflight: int, duration: float) -> None:
    rng = random.Random(index)
    async with open_database(target) as db:
        service = GameService(db, outbox=True)
        rows = await db.games.all_active_games()
        slots = [
            row.channel_id - 1000
            for row in rows
            if row.channel_id and (row.channel_id - 1000) % processes == index
        ]
        game_of = {row.channel_id - 1000: row.id for row in rows if row.channel_id}
        for slot in slots:
            await service.get(game_of[slot])
        queue: asyncio.Queue[int] = asyncio.Queue()
        for slot in slots:
            queue.put_nowait(slot)
        latencies: list[float] = []
        stale = 0
        stop = time.perf_counter() + duration

        async def drive() -> None:
            nonlocal stale
            while time.perf_counter() < stop:
                slot = await queue.get()
                record = await service.get(game_of[slot])
                if not record.is_active:
                    game_of[slot] = await _new_game(service, slot, rng)
                    queue.put_nowait(slot)
                    continue
                user = record.current_user
                assert user is not None
                move = rng.choice(record.game.legal_moves())
                start = time.perf_counter()
                try:
                    await service.apply(record.id, user, move, expected_version=record.version)
                except Exception:
                    stale += 1
                latencies.append(time.perf_counter() - start)
                queue.put_nowait(slot)

        began = time.perf_counter()
        await asyncio.gather(*(drive() for _ in range(min(inflight, len(slots)))))
        elapsed = time.perf_counter() - began
        print(
            json.dumps(
                {"moves": len(latencies), "elapsed": elapsed, "latencies": latencies, "refused": stale}
            )
        )


def run(target: str, processes: int, args: argparse.Namespace) -> dict[str, float]:
    asyncio.run(setup(target, args.games))
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--worker",
                target,
                str(i),
                str(processes),
                str(args.inflight),
                str(args.duration),
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for i in range(processes)
    ]
    results = [json.loads(proc.communicate()[0]) for proc in procs]
    latencies = sorted(x for r in results for x in r["latencies"])
    moves = sum(r["moves"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    return {
        "moves_per_s": moves / elapsed,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(0.99 * (len(latencies) - 1))],
        "moves": moves,
        "refused": sum(r["refused"] for r in results),
    }


Run = Callable[[str, int, argparse.Namespace], dict[str, float]]


def compare(run: Run, args: argparse.Namespace) -> tuple[dict[str, float], dict[str, float]]:
    """``run`` with 1 process on a new SQLite file, then with ``args.processes`` on a new
    database of a throwaway PostgreSQL server."""
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = run(str(Path(tmp) / "bench.db"), 1, args)
    from tests.pgserver import PostgresServer

    server = PostgresServer()
    server.start()
    try:
        return sqlite, run(server.create_database(), args.processes, args)
    finally:
        server.stop()


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        target, index, processes, inflight, duration = sys.argv[2:7]
        asyncio.run(worker(target, int(index), int(processes), int(inflight), float(duration)))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--inflight", type=int, default=50)
    parser.add_argument("--duration", type=float, default=10.0)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    sqlite, postgres = compare(run, args)
    for name, r in (("1 process, SQLite", sqlite), (f"{args.processes} processes, PostgreSQL", postgres)):
        print(
            f"{name:28}: {r['moves_per_s']:7.0f} moves/s, p50 {r['p50_ms']:6.1f} ms,"
            f" p99 {r['p99_ms']:6.1f} ms ({r['moves']:.0f} moves, {r['refused']:.0f} refused;"
            f" {args.games} games, {args.inflight} moves in flight per process)"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""Benchmark: the whole bot through simulated Discord, 1 process on SQLite against N
processes (shards) on one PostgreSQL database.

    .venv/bin/python bench/discord_processes.py [--games 200] [--processes 2]
                                                [--inflight 20] [--duration 10]

Each process is the real bot (``create_bot``, every cog) on its own simcord world, as
a shard of the bot would be: with N processes, ``SHARD_COUNT=N`` and process i runs
shard i, and its server lives on that shard. The ``--games`` games are split between
the processes and started the way members start one (``/schotten challenge``, Accept).
Then, in all processes at once for ``--duration`` seconds, each keeps ``--inflight``
moves in flight (each game at most one): a move is the next move of the game's player
to move, sent as a ``/schotten play|claim|pass`` interaction, and a new one is sent as
soon as one is done. A move's time runs from its arrival to the bot having finished
with it (answer, board, DMs: ``make_move``), queueing included.

REST calls per move are counted as ``bench/discord_moves.py`` counts them (its
``Meter``): all of them, and those to interaction endpoints (answers to interactions,
which Discord does not count against the bot's global limit of about 50 requests/s);
the rest do count against it.

Figures (one run each, on the 2-core development machine while other benchmarks ran
on it: load average 2.75 before, 3.38 after; PostgreSQL is a throwaway server from the
system's binaries, Unix socket, fsync off; SQLite a file in WAL mode, synchronous=FULL;
the simulated Discord runs inside each bot process and takes much of its CPU):

    200 games in progress, 20 moves in flight per process, 10 s
    1 process, SQLite          41.6 moves/s, p50  485 ms, p99  731 ms, 13 ms CPU/move
    2 processes, PostgreSQL    53.0 moves/s, p50  693 ms, p99 1441 ms, 17 ms CPU/move
    REST calls per move (both): 3.00 against the global limit, 2.00 to interaction endpoints

The CPU per move (the bot processes' CPU time over the moves) is the figure that does
not depend on the load; with the cores already busy, moves/s mostly follows it.

simcord's bookkeeping, not the bot, once made a move on PostgreSQL cost about three
times the CPU (37 ms against 13 on SQLite, 1 process each). simcord keeps a list of the
bot's pending loop callbacks and timers, and every callback the loop runs removes
itself from it by a linear scan (``list.remove`` in ``simcord._runtime``, a dataclass
comparison per entry); cancelled timers leave the list only when simcord settles, which
this driver never does while measuring. asyncpg's pool arms a timer (the idle
connection's ``max_inactive_connection_lifetime``) on each release of a connection and
cancels it on the next acquire: some five to six cancelled timers per move, so the list
grew to about 1,700 entries in a 10 s run on PostgreSQL (it stays at 1 on SQLite, whose
driver uses a thread instead) and each of the ~90 loop callbacks of a move scanned it.
Under cProfile that scan (``list.remove`` with the ``__eq__`` it calls) was 69% of the
process's CPU on PostgreSQL. The cost grows with the run's length, which is also why 2
processes (half the moves each) showed less CPU per move than 1. The driver therefore
drops the cancelled timers from simcord's list every 0.1 s
(``drop_cancelled_callbacks``): 1 process on PostgreSQL went from 37.3 to 15.3 ms of CPU
per move, against 12.7 on SQLite (same conditions, load 2.5-3). Releasing pooled
connections without asyncpg's reset query (``bot/storage/postgres.py``) also removed 6
of 16 statements per move here (one of the 6 connection releases is the driver's own read).

Latency is mostly queueing: with 20 moves in flight, p50 is about 20 / moves/s. On
Discord the REST budget decides first: ~50 requests/s over 3 counted calls is about 16
moves/s per bot, however many processes share the work.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402

from bench.discord_moves import (  # noqa: E402
    Meter,
    Profile,
    Timer,
    choose,
    emit_slash,
    percentile,
    visible_command,
)
from bench.processes import compare  # noqa: E402
from bot.app import create_bot  # noqa: E402
from bot.community.preferences import Preferences  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.storage import open_database  # noqa: E402
from tests.cogs.helpers import challenge_and_accept  # noqa: E402


def drop_cancelled_callbacks(env: simcord.Env) -> None:
    """Forget the cancelled timers in simcord's list of the bot's pending callbacks, as
    each settle of simcord does (the driver never settles while measuring). Every
    callback the bot's loop runs is removed from that list by a linear scan
    (``list.remove``, a dataclass comparison per entry), and asyncpg's pool leaves one
    cancelled timer there per connection release: left alone, the list grows by some
    five entries per move and the CPU per move with it (see the module docstring).
    Private to simcord (3.2): without the attribute, nothing is dropped."""
    work = getattr(env, "_work", None)
    if work is not None and isinstance(getattr(work, "callbacks", None), list):
        work.callbacks = [r for r in work.callbacks if r.handle is None or not r.handle.cancelled()]


async def serve(target: str, index: int, processes: int, games: int, inflight: int, duration: float) -> None:
    """One process: its share of the games on its own simulated Discord; measures
    after a line on standard input, so that all processes measure at the same time."""
    rng = random.Random(index)
    settings = Settings(shard_count=processes, shard_ids=(index,)) if processes > 1 else Settings()
    # Boards in the channel, a ping every turn: the calls counted per move are the
    # channel's (bench/discord_pings.py compares with a thread per game).
    Preferences.threads_default, Preferences.pings_default = False, "every-turn"
    # Each process's simulated Discord starts empty: sync the commands to it even when
    # the shared database says another process synced them.
    bot = create_bot(database=target, settings=settings, force_sync=True)
    bot.freeze_startup_objects = True  # as `python -m bot` does
    timer = Timer()  # wraps make_move: each move's time, from its arrival
    try:
        # Not 300 s as in discord_moves.py: on PostgreSQL a settle with that limit waited
        # minutes (a timer of the connection pool, within the limit, it seems).
        async with simcord.run(bot, settle_timeout=20) as env:
            guild = env.create_guild(shard_id=index if processes > 1 else None)
            mine = range(index, games, processes)
            channels = {slot: guild.create_text_channel(f"table-{slot}") for slot in mine}
            members = {
                slot: [guild.add_member(env.create_user(f"p{slot}-{i}")) for i in (0, 1)] for slot in mine
            }
            by_id = {m.id: m for pair in members.values() for m in pair}
            channel_of = {}
            for slot in mine:
                game_id = await challenge_and_accept(env, channels[slot], *members[slot])
                channel_of[game_id] = channels[slot]
            first = next(iter(by_id.values()))
            root = visible_command(env, first, next(iter(channels.values())), "schotten")
            print("ready", flush=True)
            await asyncio.to_thread(sys.stdin.readline)

            meter = Meter(Profile(), env, keep_logs=False)
            meter.start()
            over: set[int] = set()
            began = time.perf_counter()
            stop = began + duration
            pruned = began
            while time.perf_counter() < stop:
                await asyncio.sleep(0.002)  # the driver's own CPU stays small
                if time.perf_counter() - pruned > 0.1:
                    drop_cancelled_callbacks(env)
                    pruned = time.perf_counter()
                if len(timer.started) >= inflight:
                    continue
                busy = set(timer.game_of.values())
                idle = [g for g in channel_of if g not in busy and g not in over]
                for game_id in rng.sample(idle, min(len(idle), inflight - len(busy))):
                    record = await bot.service.get(game_id)
                    if record.game.is_over:
                        over.add(game_id)  # not replaced: a new game is not a move
                        continue
                    name, options = choose(record, rng)
                    mover = record.game.current_player
                    assert mover is not None  # the game is not over
                    member = by_id[record.players[mover]]
                    interaction = emit_slash(env, member, channel_of[game_id], root, name, options)
                    timer.started[interaction] = time.perf_counter()
                    timer.game_of[interaction] = game_id
            while timer.started:  # the moves in flight finish, and count
                await asyncio.sleep(0.002)
            elapsed = timer.last_done - began
            meter.stop()
            moves = len(timer.latencies)
            split = meter.breakdown(moves)
            print(
                json.dumps(
                    {
                        "moves": moves,
                        "elapsed": elapsed,
                        "latencies": timer.latencies,
                        "errors": timer.errors,
                        "finished": len(over),
                        "rest": split["rest_per_move"] * moves,
                        "rest_interaction": split["rest_interaction_per_move"] * moves,
                        "cpu": (split["loop_ms"] + split["threads_ms"]) * moves / 1000,
                    }
                ),
                flush=True,
            )
    finally:
        await bot.close()


async def migrate(target: str) -> None:
    async with open_database(target) as db:
        await db.migrate()


def run(target: str, processes: int, args: argparse.Namespace) -> dict[str, float]:
    asyncio.run(migrate(target))
    procs = [
        subprocess.Popen(
            [sys.executable, __file__, "--worker", target, str(i), str(processes)]
            + [str(value) for value in (args.games, args.inflight, args.duration)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for i in range(processes)
    ]
    for proc in procs:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if line != "ready\n":
            for other in procs:
                other.kill()
            raise SystemExit(f"a bot process did not start: {line!r}")
    for proc in procs:  # all measure at once
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = [json.loads(proc.communicate()[0]) for proc in procs]
    latencies = sorted(x for r in results for x in r["latencies"])
    moves = sum(r["moves"] for r in results)
    rest = sum(r["rest"] for r in results)
    interaction = sum(r["rest_interaction"] for r in results)
    return {
        "moves_per_s": moves / max(r["elapsed"] for r in results),
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 99),
        "moves": moves,
        "errors": sum(r["errors"] for r in results),
        "finished": sum(r["finished"] for r in results),
        "global_per_move": (rest - interaction) / moves,
        "cpu_ms_per_move": 1000 * sum(r["cpu"] for r in results) / moves,
        "interaction_per_move": interaction / moves,
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        target, index, processes, games, inflight, duration = sys.argv[2:8]
        logging.basicConfig(level=logging.WARNING)
        asyncio.run(serve(target, int(index), int(processes), int(games), int(inflight), float(duration)))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games in progress, split between processes")
    parser.add_argument("--processes", type=int, default=2, help="processes (shards) on PostgreSQL")
    parser.add_argument("--inflight", type=int, default=20, help="moves in flight per process")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds measured")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    sqlite, postgres = compare(run, args)
    print(f"{args.games} games in progress, {args.inflight} moves in flight per process, {args.duration:g} s")
    for name, r in (("1 process, SQLite", sqlite), (f"{args.processes} processes, PostgreSQL", postgres)):
        print(
            f"{name:26}: {r['moves_per_s']:6.1f} moves/s,"
            f" p50 {r['p50_ms']:6.1f} ms, p99 {r['p99_ms']:6.1f} ms,"
            f" {r['cpu_ms_per_move']:.0f} ms of bot-process CPU per move;"
            f" REST calls per move: {r['global_per_move']:.2f} against the global limit,"
            f" {r['interaction_per_move']:.2f} to interaction endpoints"
            f" ({r['moves']:.0f} moves, {r['finished']:.0f} games ended, {r['errors']:.0f} errors)"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

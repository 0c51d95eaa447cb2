"""Benchmark: many concurrent games driven through simcord, the whole stack per move.

    python bench/discord_moves.py [--games 100] [--burst 1 10 100] [--seed 1]

Each game is started the way members start one (``/schotten challenge``, Accept). Then,
round after round, ``burst`` games (of those still running) each receive the next move
of their player to move as a ``/schotten play|claim|pass`` interaction, all emitted at
the same instant; the bot handles them concurrently. A move's time runs from the
moment its INTERACTION_CREATE is emitted to the moment the bot has finished with it:
gateway parsing, the command, the game service (lock, engine, SQLite commit on a file
database in WAL mode), rendering, the DM edits, the board message and the ephemeral
answer. Queueing behind the other moves of the burst is included.

The driver picks moves from the true game state (it plays both sides); the bot sees
only interactions. Prints p50/p95/p99/max per move and moves per second (moves over
the time from each wave's first emit to the bot finishing its last move of the wave).

The bot shares its one event loop with the simulated Discord, so the figures include
simcord's work (HTTP routing, gateway events, its settling scans, which grow with the
number of tasks in flight).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord
from simcord import actors as _actors
from simcord import interactions as _ix
from simcord.enums import AppCommandType, InteractionType

from bot.app import create_bot
from cogs import table as table_module
from rules.moves import Claim, Draw, Pass, PlayCard


class Timer:
    """Wraps Table.move: records emit -> done for every benchmarked interaction."""

    def __init__(self) -> None:
        self.started: dict[int, float] = {}
        self.latencies: list[float] = []
        self.errors = 0
        self.last_done = 0.0
        original = table_module.Table.move
        timer = self

        async def timed_move(self: Any, interaction: Any, *args: Any, **kwargs: Any) -> None:
            try:
                await original(self, interaction, *args, **kwargs)
            except Exception:
                timer.errors += 1
                raise
            finally:
                start = timer.started.pop(interaction.id, None)
                if start is not None:
                    timer.last_done = time.perf_counter()
                    timer.latencies.append(timer.last_done - start)

        table_module.Table.move = timed_move  # type: ignore[method-assign]


def emit_slash(
    env: simcord.Env, actor: Any, channel: Any, root: dict[str, Any], name: str, options: dict
) -> int:
    """Emit one slash-command interaction without waiting for the bot (simcord's
    ``actor.slash`` emits and then settles; a burst needs many in flight at once)."""
    parts = name.split()
    leaf, nesting = _ix.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = _ix.build_options(actor, name, leaf, options, channel_id=channel.id)
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": root.get("type", AppCommandType.CHAT_INPUT),
        "options": _ix.nest_options(root, nesting, leaf_options),
    }
    if resolved:
        data["resolved"] = resolved
    record, payload = _ix.base_payload(
        env.backend,
        type=InteractionType.APPLICATION_COMMAND,
        channel_id=channel.id,
        guild_id=actor.guild.id,
        user_id=actor.id,
        data=data,
    )
    env.backend.emit("INTERACTION_CREATE", payload)
    return record.id


def choose(record: Any, rng: random.Random) -> tuple[str, dict[str, Any]]:
    legal = record.game.legal_moves()
    claims = [m for m in legal if isinstance(m, Claim)]
    if claims:
        return "schotten claim", {"stone": rng.choice(claims).stone, "game": record.id}
    plays = [m for m in legal if isinstance(m, PlayCard)]
    if plays:
        move = rng.choice(plays)
        return "schotten play", {"card": str(move.card), "stone": move.stone, "game": record.id}
    # "pass" also ends a turn that could still claim (a Draw is then the move).
    assert any(isinstance(m, (Pass, Draw)) for m in legal), legal
    return "schotten pass", {"game": record.id}


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def run(games: int, bursts: list[int], moves_per_burst: int, seed: int) -> list[dict[str, float]]:
    """One bot, ``games`` games always in progress (a finished game is replaced by a new
    challenge, outside the timing); for each burst size, ``moves_per_burst`` moves."""
    rng = random.Random(seed)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=os.path.join(tmp, "bench.sqlite"))
        timer = Timer()
        async with simcord.run(bot, settle_timeout=300) as env:
            guild = env.create_guild()
            channels = [guild.create_text_channel(f"table-{i}") for i in range(games)]
            members = [guild.add_member(env.create_user(f"player{i}")) for i in range(2 * games)]
            by_id = {m.id: m for m in members}
            channel_of: dict[int, Any] = {}
            root = _actors._resolve_visible_command(
                members[0], channels[0].id, "schotten", AppCommandType.CHAT_INPUT
            )

            async def start_game(slot: int) -> int:
                a, b, channel = members[2 * slot], members[2 * slot + 1], channels[slot]
                shown = await a.slash(channel, "schotten challenge", opponent=b)
                accepted = await b.click(shown.response, label="Accept")
                game_id = int(accepted.response.content.split("#")[1].split(" ")[0].rstrip("."))
                channel_of[game_id] = channel
                return game_id

            slots = {slot: await start_game(slot) for slot in range(games)}
            finished = 0
            for burst in bursts:
                timer.latencies.clear()
                moves = 0
                wall = 0.0
                while moves < moves_per_burst:
                    wave = rng.sample(sorted(slots), min(burst, len(slots)))
                    records = [await bot.service.get(slots[slot]) for slot in wave]
                    start = time.perf_counter()
                    for record in records:
                        name, options = choose(record, rng)
                        actor = by_id[record.current_user]
                        interaction_id = emit_slash(env, actor, channel_of[record.id], root, name, options)
                        timer.started[interaction_id] = time.perf_counter()
                    await env.settle(timeout=300)
                    # Until the bot finished its last move of the wave: simcord's own
                    # settling afterwards is not the bot's time.
                    wall += timer.last_done - start
                    moves += len(records)
                    for slot in wave:
                        if (await bot.service.get(slots[slot])).game.is_over:
                            finished += 1
                            slots[slot] = await start_game(slot)
                lat = timer.latencies
                result = {
                    "games": games,
                    "burst": burst,
                    "moves": moves,
                    "errors": timer.errors,
                    "p50_ms": statistics.median(lat) * 1000,
                    "p95_ms": percentile(lat, 95) * 1000,
                    "p99_ms": percentile(lat, 99) * 1000,
                    "max_ms": max(lat) * 1000,
                    "moves_per_s": moves / wall,
                    "finished_games": finished,
                }
                report(result)
                results.append(result)
        await bot.db.close()
    return results


def report(r: dict[str, float]) -> None:
    print(
        f"{r['burst']:>5} {r['moves']:>6} {r['p50_ms']:>7.1f} {r['p95_ms']:>7.1f} {r['p99_ms']:>7.1f}"
        f" {r['max_ms']:>7.1f} {r['moves_per_s']:>8.0f} {r['finished_games']:>9}"
        + (f"  ({r['errors']} errors)" if r["errors"] else ""),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games in progress at once (default 100)")
    parser.add_argument(
        "--burst", type=int, nargs="+", default=[1, 10, 100], help="moves emitted at the same instant"
    )
    parser.add_argument("--moves", type=int, default=1000, help="moves measured per burst size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPU(s)")
    print(f"{args.games} games in progress (one per channel), file SQLite database (WAL, synchronous=FULL)")
    columns = ("burst", 5), ("moves", 6), ("p50 ms", 7), ("p95 ms", 7), ("p99 ms", 7), ("max ms", 7)
    columns += ("moves/s", 8), ("finished", 9)
    print(" ".join(name.rjust(width) for name, width in columns))
    sys.stdout.flush()
    asyncio.run(run(args.games, args.burst, args.moves, args.seed))


if __name__ == "__main__":
    main()

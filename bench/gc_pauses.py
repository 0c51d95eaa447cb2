"""Benchmark: garbage-collection pauses of the event loop with many games in progress.

    python bench/gc_pauses.py [--games 300] [--moves 3000] [--cached-games 64 100000]

Every live object is walked by each full (generation 2) collection, and the loop is
paused meanwhile. The bot's own share of the heap grows with the games in progress:
the game service's loaded games and the table's memoised views. This script holds
``--games`` games in progress the way the bot does (a real ``GameService`` on a file
SQLite database, and the table's views of the running bot, built by ``create_bot`` but
not connected), freezes the start-up heap as ``python -m bot`` does, then makes
``--moves`` moves at random games, rendering both players' messages after each move
as the table does. It reports every collection the loop suffered (count and longest,
per generation), the longest pause of all, the tracked objects left, and a forced full
collection at the end, for each size of the game cache (100000: every game stays
loaded, as the bot kept them before the cache was bounded).

Not included: discord.py's own caches (guilds, channels, members), which a real
process holds too and which do not depend on the games in progress. Target: the
longest pause <= 50 ms with 300 games.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/gc_pauses.py` from anywhere
    sys.path.insert(0, str(ROOT))

from bot.app import create_bot  # noqa: E402
from bot.games.service import GameService  # noqa: E402
from cogs.table.publisher import Publisher  # noqa: E402
from rules.claims import prepare  # noqa: E402
from rules.game import GameOptions  # noqa: E402
from rules.rulesets import RULESETS  # noqa: E402

TARGET_MS = 50.0
OPTIONS = (GameOptions(), GameOptions(tactics=True), GameOptions(ruleset="battle-line"))


class Pauses:
    """Every collection's duration, by generation, from ``gc.callbacks``."""

    def __init__(self) -> None:
        self.durations: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0
        self.active = False

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if not self.active:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.durations[info["generation"]].append(time.perf_counter() - self._started)


async def run(games: int, moves: int, cached: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=os.path.join(tmp, "gc.sqlite"), sync_commands=False)
        await bot.db.connect()
        await bot.db.migrate()
        service = GameService(bot.db, turn_timeout=86400, cached_games=cached)
        bot.service = service
        table = Publisher(bot)
        names = ("Alice", "Bob")

        def render(game_id: int) -> None:
            record = service_record[game_id]
            table.board(record, names)
            for player in (0, 1):
                table.hand(record, player, names)
                table.controls(record, player)

        service_record = {}

        async def new_game(slot: int) -> int:
            record = await service.create_game(
                guild_id=1,
                channel_id=slot,
                players=(2 * slot + 1, 2 * slot + 2),
                options=OPTIONS[slot % len(OPTIONS)],
                seed=rng.randrange(2**62),
            )
            service_record[record.id] = record
            return record.id

        for ruleset in RULESETS.values():
            prepare(ruleset)
        gc.collect()
        gc.freeze()  # the start-up heap, as `python -m bot` freezes it
        slots = [await new_game(slot) for slot in range(games)]
        for slot, game_id in enumerate(slots):  # every game some way in
            for _ in range(rng.randrange(4, 20)):
                record = await service.get(game_id)
                if record.game.is_over:
                    slots[slot] = game_id = await new_game(slot)
                    continue
                outcome = await service.apply(
                    game_id, record.current_user or 0, rng.choice(record.game.legal_moves())
                )
                service_record[game_id] = outcome.game
            render(game_id)
        service_record.clear()  # the bench's own references: only the bot's remain

        pauses = Pauses()
        gc.callbacks.append(pauses)
        pauses.active = True
        started = time.perf_counter()
        for _ in range(moves):
            slot = rng.randrange(games)
            record = await service.get(slots[slot])
            if record.game.is_over:
                slots[slot] = await new_game(slot)
                render(slots[slot])
                service_record.clear()
                continue
            outcome = await service.apply(
                record.id, record.current_user or 0, rng.choice(record.game.legal_moves())
            )
            service_record[record.id] = outcome.game
            render(record.id)
            service_record.clear()
        elapsed = time.perf_counter() - started
        pauses.active = False
        gc.callbacks.remove(pauses)
        tracked = len(gc.get_objects())
        forced = time.perf_counter()
        gc.collect()
        forced = time.perf_counter() - forced
        gc.unfreeze()
        await bot.db.close()
        await bot.opponent.close()
    longest = {gen: max(d, default=0.0) * 1000 for gen, d in pauses.durations.items()}
    return {
        "cached": cached,
        "moves_per_s": moves / elapsed,
        "gen0": len(pauses.durations[0]),
        "gen1": len(pauses.durations[1]),
        "gen2": len(pauses.durations[2]),
        "longest0": longest[0],
        "longest1": longest[1],
        "longest2": longest[2],
        "longest": max(longest.values()),
        "tracked": tracked,
        "forced_ms": forced * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--cached-games", type=int, nargs="+", default=[64, 100000])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, {os.cpu_count()} CPU(s), load average {load:.2f}")
    print(
        f"{args.games} games in progress, {args.moves} moves at random games, both players' messages rendered"
    )
    print(
        f"{'cached':>7} {'moves/s':>8} {'gen0':>6} {'gen1':>5} {'gen2':>5} {'max gen1 ms':>12}"
        f" {'max gen2 ms':>12} {'tracked':>8} {'full gc ms':>11}"
    )
    worst = {}
    for cached in args.cached_games:
        r = asyncio.run(run(args.games, args.moves, cached, args.seed))
        worst[cached] = r["longest"]
        print(
            f"{r['cached']:>7} {r['moves_per_s']:>8.0f} {r['gen0']:>6} {r['gen1']:>5} {r['gen2']:>5}"
            f" {r['longest1']:>12.1f} {r['longest2']:>12.1f} {r['tracked']:>8} {r['forced_ms']:>11.1f}",
            flush=True,
        )
    print(f"\nTarget: the longest pause <= {TARGET_MS:.0f} ms with {args.games} games in progress.")
    for cached, longest in worst.items():
        verdict = "meets" if longest <= TARGET_MS else "MISSES"
        print(f"  {cached:>7} games cached: longest pause {longest:6.1f} ms -> {verdict} the target")


if __name__ == "__main__":
    main()

"""AI benchmark: win rates, decision times and the event loop's lag. Prints its figures.

    python bench/ai.py                 # every level vs random and vs the heuristic, 200 games each
    python bench/ai.py --games 40      # quicker
    python bench/ai.py --tactics       # the tactics variant instead of the base game

Win rates: each pairing plays ``--games`` games, seats alternating, seeds 0..N-1; a draw
counts half; Wilson 95% intervals. Decision time: every ``choose_move`` call of the tested
level (forced moves are applied without asking the AI, as the bot's service does), measured
while ``--workers`` games run in parallel. Loop lag: ``choose_move`` at the strongest level
runs in a ``ProcessPoolExecutor`` via ``loop.run_in_executor`` (as the bot will call it)
while a ticker coroutine sleeps 10 ms and records how late it wakes up.

Targets: hard >= 95% vs random, >= 70% vs heuristic, p95 <= 1.5 s, lag <= 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/ai.py` from anywhere, any interpreter
    sys.path.insert(0, str(ROOT))

from rules.ai import LEVELS, choose_move  # noqa: E402
from rules.game import Game, GameOptions  # noqa: E402
from rules.view import PlayerView  # noqa: E402

HEURISTIC = "medium"


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(args: tuple[str, str, int, bool]) -> tuple[float, list[float]]:
    """One game, the tested level in seat ``seed % 2``: (its score, its decision times)."""
    level, opponent, seed, tactics = args
    seat = seed % 2
    levels = (level, opponent) if seat == 0 else (opponent, level)
    game = Game.new(seed, GameOptions(tactics=tactics))
    times: list[float] = []
    turn = 0
    while not game.is_over:
        p = game.current_player
        forced = game.forced_move()
        if forced is not None:
            game.apply(forced)
            continue
        t0 = time.perf_counter()
        move = choose_move(game.view(p), level=levels[p], seed=seed * 10_007 + turn)
        if p == seat:
            times.append(time.perf_counter() - t0)
        game.apply(move, p)
        turn += 1
    winner = game.result.winner
    return (0.5 if winner is None else float(winner == seat)), times


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def win_rates(
    levels: list[str],
    games: int,
    workers: int,
    tactics: bool,
    opponents: tuple[str, ...] = ("random", HEURISTIC),
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {lv: [] for lv in levels}
    print(f"{'level':<8} {'vs':<8} {'games':>5} {'win%':>6}  {'95% CI':<15} {'time':>6}", flush=True)
    with ProcessPoolExecutor(workers) as pool:
        for level in levels:
            for opponent in opponents:
                t0 = time.perf_counter()
                jobs = [(level, opponent, seed, tactics) for seed in range(games)]
                results = list(pool.map(play_game, jobs, chunksize=1))
                score = sum(r for r, _ in results)
                for _, ts in results:
                    times[level].extend(ts)
                lo, hi = wilson(score, games)
                print(
                    f"{level:<8} {opponent:<8} {games:>5} {100 * score / games:>5.1f}%"
                    f"  [{100 * lo:4.1f}, {100 * hi:5.1f}] {time.perf_counter() - t0:>5.0f}s",
                    flush=True,
                )
    print(f"\n{'level':<8} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for level in levels:
        ts = times[level]
        print(
            f"{level:<8} {len(ts):>9} {1000 * pct(ts, 0.5):>8.1f} {1000 * pct(ts, 0.95):>8.1f}"
            f" {1000 * max(ts, default=float('nan')):>8.1f}"
        )
    return times


def sample_views(count: int, tactics: bool) -> list[PlayerView]:
    """Positions where the AI has a real decision, from heuristic self-play."""
    views: list[PlayerView] = []
    seed = 10_000
    while len(views) < count:
        game = Game.new(seed, GameOptions(tactics=tactics))
        while not game.is_over and len(views) < count:
            p = game.current_player
            forced = game.forced_move()
            if forced is not None:
                game.apply(forced)
                continue
            view = game.view(p)
            if view.phase == "play":
                views.append(view)
            game.apply(choose_move(view, level=HEURISTIC, seed=seed), p)
        seed += 1
    return views


async def measure_lag(level: str, views: list[PlayerView], workers: int) -> tuple[list[float], float]:
    """Run the decisions in a process pool while a ticker measures the loop's lag."""
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            t0 = loop.time()
            await asyncio.sleep(0.010)
            lags.append(loop.time() - t0 - 0.010)

    with ProcessPoolExecutor(workers) as pool:
        await loop.run_in_executor(pool, partial(choose_move, views[0], level="random"))  # warm up
        tick = asyncio.create_task(ticker())
        t0 = time.perf_counter()
        for i, view in enumerate(views):
            await loop.run_in_executor(pool, partial(choose_move, view, level=level, seed=i))
        wall = time.perf_counter() - t0
        done.set()
        await tick
    return lags, wall


async def measure_inline_lag(level: str, views: list[PlayerView]) -> tuple[list[float], float]:
    """What the executor avoids: the same decisions run on the event loop."""
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            t0 = loop.time()
            await asyncio.sleep(0.010)
            lags.append(loop.time() - t0 - 0.010)

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    t0 = time.perf_counter()
    for i, view in enumerate(views):
        choose_move(view, level=level, seed=i)
        await asyncio.sleep(0)
    done.set()
    await tick
    return lags, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--tactics", action="store_true")
    parser.add_argument("--lag-decisions", type=int, default=40)
    parser.add_argument("--opponents", default=f"random,{HEURISTIC}")
    parser.add_argument("--skip-games", action="store_true")
    args = parser.parse_args(argv)
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    variant = "tactics variant" if args.tactics else "base game"
    print(f"AI benchmark, {variant}, {args.games} games per pairing, {args.workers} workers", flush=True)
    t0 = time.perf_counter()
    if not args.skip_games:
        opponents = tuple(o.strip() for o in args.opponents.split(",") if o.strip())
        win_rates(levels, args.games, args.workers, args.tactics, opponents)
    strongest = levels[-1]
    views = sample_views(args.lag_decisions, args.tactics)
    lags, wall = asyncio.run(measure_lag(strongest, views, 1))
    print(
        f"\nloop lag while {strongest} thinks in a process pool ({len(views)} decisions, {wall:.1f}s):"
        f" ticks {len(lags)}, p50 {1000 * statistics.median(lags):.1f} ms,"
        f" p95 {1000 * pct(lags, 0.95):.1f} ms, max {1000 * max(lags):.1f} ms"
    )
    inline, _ = asyncio.run(measure_inline_lag(strongest, views[:5]))
    print(f"for contrast, the same on the loop itself (5 decisions): max lag {1000 * max(inline):.0f} ms")
    print(f"total {time.perf_counter() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

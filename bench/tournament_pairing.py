"""Benchmark: the time to pair one Swiss round, on one core.

    python bench/tournament_pairing.py [--players 64 512] [--round 3] [--runs 5] [--seed S]

For each size: rounds 1 .. round-1 are paired with ``pair_swiss`` and played with random
results (wins either way and draws, stones at random), then round ``--round`` is paired
``--runs`` times, each on a tournament of its own seed; prints p50 and max. The process is
pinned to one CPU where the system allows it, and the load average is printed before and
after: pairing is pure Python, so a busy machine slows it in proportion.

Targets (docs/tournaments.md): 64 players <= 50 ms, 512 players <= 2 s.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/tournament_pairing.py` from anywhere
    sys.path.insert(0, str(ROOT))

from bot.tournaments.model import Entrant, GameResult, History  # noqa: E402
from bot.tournaments.swiss import pair_swiss  # noqa: E402

TARGETS = {64: 0.050, 512: 2.0}


def history_before(entrants: list[Entrant], rounds: int, rng: random.Random) -> History:
    """``rounds`` rounds paired by ``pair_swiss`` with random results."""
    history = History()
    for round_no in range(1, rounds + 1):
        results = list(history.results)
        byes = list(history.byes)
        for pairing in pair_swiss(entrants, history, round_no):
            if pairing.black is None:
                byes.append(pairing)
                continue
            roll = rng.random()
            winner = pairing.white if roll < 0.45 else pairing.black if roll < 0.9 else None
            results.append(
                GameResult(
                    round_no, pairing.white, pairing.black, winner, rng.randint(0, 5), rng.randint(0, 5)
                )
            )
        history = History(tuple(results), tuple(byes))
    return history


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, nargs="+", default=[64, 512])
    parser.add_argument("--round", type=int, default=3, help="the round timed (default 3)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, pinned to one")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for size in args.players:
        times = []
        for run in range(args.runs):
            rng = random.Random(args.seed * 1000 + run)
            entrants = [Entrant(10_000 + i, rng.uniform(1200, 1800)) for i in range(size)]
            history = history_before(entrants, args.round - 1, rng)
            start = time.perf_counter()
            pairings = pair_swiss(entrants, history, args.round)
            times.append(time.perf_counter() - start)
            assert sum(len(p.players) for p in pairings) == size
        target = TARGETS.get(size)
        p50, worst = statistics.median(times), max(times)
        verdict = (
            ""
            if target is None
            else f"  target <= {target * 1000:.0f} ms: " + ("met" if worst <= target else "MISSED")
        )
        timing = f"p50 {p50 * 1000:8.1f} ms  max {worst * 1000:8.1f} ms"
        print(f"{size:4d} players, round {args.round}: {timing}{verdict}")
    print(f"load average after:  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

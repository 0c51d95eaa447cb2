"""Board pictures: render time and bytes per picture over every position of full games.

What it measures: ``bot.pictures.board.board_png`` (draw, quantize, PNG) on one core,
one thread, for every position (after each move, the start included) of ``--games``
seeded random games in each configuration (Schotten-Totten and Battle Line, with and
without tactics), drawn from the first player's side in English, then the same
positions' hands (``hand_png``). The fonts are loaded before timing. The load average is
printed: on a busy machine the wall times are an upper bound, so the render thread's CPU
time is printed too (``time.thread_time``: the work of one core, whatever the load).

    .venv/bin/python bench/pictures.py [--games 5] [--language en]

Targets: p99 <= 20 ms a board on one core; <= 60 KB a picture.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/pictures.py` from anywhere
    sys.path.insert(0, str(ROOT))

from bot.pictures.board import board_png  # noqa: E402
from bot.pictures.hand import hand_png  # noqa: E402
from bot.text import i18n  # noqa: E402
from rules.cards import Card  # noqa: E402
from rules.game import Game, GameOptions  # noqa: E402
from rules.view import PublicView  # noqa: E402

CONFIGS = {
    "st": GameOptions(),
    "st+t": GameOptions(tactics=True),
    "bl": GameOptions(ruleset="battle-line"),
    "bl+t": GameOptions(ruleset="battle-line", tactics=True),
}
TARGET_MS = 20.0
TARGET_BYTES = 60_000


def positions(options: GameOptions, seed: int) -> list[tuple[PublicView, tuple[Card, ...]]]:
    """Every position of one random game: its public view and the first player's hand."""
    game = Game.new(seed=seed, options=options)
    rng = random.Random(seed)
    out = [(game.public_view(), game.hand(0))]
    while not game.is_over:
        game.apply(game.forced_move() or rng.choice(game.legal_moves()))
        out.append((game.public_view(), game.hand(0)))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=5, help="games per configuration (default 5)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--language", default="en")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    names = ("Alice", "Bob")
    ok = True
    all_ms: list[float] = []
    all_bytes: list[int] = []
    cpu_ms: list[float] = []  # the render thread's CPU time: one core's work, whatever the load
    with i18n.use(args.language):
        board_png(Game.new(seed=0).public_view(), names)  # fonts loaded, caches warm
        print(f"{'config':6} {'boards':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} "
              f"{'mean KB':>7} {'max KB':>7}")  # fmt: skip
        hand_ms: list[float] = []
        hand_bytes: list[int] = []
        for label, options in CONFIGS.items():
            times: list[float] = []
            sizes: list[int] = []
            for seed in range(args.first_seed, args.first_seed + args.games):
                for public, hand in positions(options, seed):
                    start, cpu = time.perf_counter(), time.thread_time()
                    data = board_png(public, names, bottom=0, game_id=seed)
                    times.append((time.perf_counter() - start) * 1000)
                    cpu_ms.append((time.thread_time() - cpu) * 1000)
                    sizes.append(len(data))
                    start = time.perf_counter()
                    hand_bytes.append(len(hand_png(hand)))
                    hand_ms.append((time.perf_counter() - start) * 1000)
            all_ms += times
            all_bytes += sizes
            print(
                f"{label:6} {len(times):6} {statistics.median(times):7.1f} {percentile(times, 0.99):7.1f} "
                f"{max(times):7.1f} {statistics.mean(sizes) / 1000:7.1f} {max(sizes) / 1000:7.1f}"
            )
    p99 = percentile(all_ms, 0.99)
    cpu_p99 = percentile(cpu_ms, 0.99)
    largest = max(all_bytes)
    print(
        f"{'all':6} {len(all_ms):6} {statistics.median(all_ms):7.1f} {p99:7.1f} {max(all_ms):7.1f} "
        f"{statistics.mean(all_bytes) / 1000:7.1f} {largest / 1000:7.1f}"
    )
    print(
        f"hands: {len(hand_ms)}, p50 {statistics.median(hand_ms):.1f} ms, "
        f"p99 {percentile(hand_ms, 0.99):.1f} ms, mean {statistics.mean(hand_bytes) / 1000:.1f} KB, "
        f"max {max(hand_bytes) / 1000:.1f} KB"
    )
    print(
        f"boards' CPU time: p50 {statistics.median(cpu_ms):.1f} ms, p99 {cpu_p99:.1f} ms, "
        f"max {max(cpu_ms):.1f} ms"
    )
    for what, met in (
        (f"p99 <= {TARGET_MS:.0f} ms a board (wall): {p99:.1f} ms", p99 <= TARGET_MS),
        (f"p99 <= {TARGET_MS:.0f} ms a board (CPU): {cpu_p99:.1f} ms", cpu_p99 <= TARGET_MS),
        (f"<= {TARGET_BYTES // 1000} KB a picture: largest {largest / 1000:.1f} KB", largest <= TARGET_BYTES),
    ):
        ok &= met
        print(f"{'met' if met else 'MISSED'}: {what}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

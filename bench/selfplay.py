"""Random self-play benchmark: complete games per second on one core.

What it measures: whole games from ``Game.new`` to the end, one process, one thread.
Each decision is uniform over ``game.legal_moves()``; when ``game.forced_move()`` names a
move (the lone "draw", a pass with nothing else to do) it is applied without asking the
player, as the bot's service does. Claims are listed in ``legal_moves()`` only when
provable, so every decision runs the claim proofs (cached per stone). Also reported:
applied moves per second and ``clone()`` calls per second (what a search AI leans on).

    python bench/selfplay.py [--seconds 3] [--all]

Target for the base game: >= 500 games/s.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/selfplay.py` from anywhere, any interpreter
    sys.path.insert(0, str(ROOT))

from rules.game import Game, GameOptions  # noqa: E402


def play_one(seed: int, options: GameOptions, rng: random.Random) -> int:
    g = Game.new(seed, options)
    moves = 0
    while not g.is_over:
        move = g.forced_move()
        if move is None:
            move = rng.choice(g.legal_moves())
        g.apply(move)
        moves += 1
    return moves


def bench(options: GameOptions, seconds: float) -> None:
    rng = random.Random(0)
    games = moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        moves += play_one(games, options, rng)
        games += 1
    label = f"{options.ruleset}{' + tactics' if options.tactics else ''}, {options.claim_timing} claims"
    rate = f"{games / elapsed:7.0f} games/s  {moves / elapsed:9.0f} moves/s"
    print(f"{label}: {rate}  {moves / games:5.1f} moves/game")


def bench_clone(seconds: float) -> None:
    g = Game.new(1)
    rng = random.Random(1)
    for _ in range(30):  # a mid-game position
        g.apply(g.forced_move() or rng.choice(g.legal_moves()))
    n = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(1000):
            g.clone()
        n += 1000
    print(f"clone() mid-game: {n / elapsed:9.0f} /s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    ap.add_argument("--all", action="store_true", help="also Battle Line, tactics and turn-start timing")
    args = ap.parse_args()
    # Other processes on the machine slow one core down; say so next to the figures.
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load:.2f}")
    bench(GameOptions(), args.seconds)
    if args.all:
        bench(GameOptions(claim_timing="turn-start"), args.seconds)
        bench(GameOptions(ruleset="battle-line"), args.seconds)
        bench(GameOptions(tactics=True), args.seconds)
        bench(GameOptions(ruleset="battle-line", tactics=True), args.seconds)
    bench_clone(min(args.seconds, 1.0))


if __name__ == "__main__":
    main()

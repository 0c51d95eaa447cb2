"""Train the learned evaluation (rules/ai/learned.py) from self-play, from fixed seeds.

    python bench/train_ai.py                         # make train-ai: play, fit, write the weights
    python bench/train_ai.py --games 4 --weights /tmp/w.json --data /tmp/d.jsonl   # a tiny run
    python bench/train_ai.py --from-data bench/results/train-ai.jsonl              # refit only

Plays ``--games`` games in each configuration (``--configs``, default all four), game
``i`` of a configuration from deal ``--first-seed + i``, between a pair of players taken
in turn from ``--pairs`` (default ``PAIRS``, fast players; the seats alternate). At
every decision of the game, with chance 1 / ``--every`` (from the game's seed), the
position is recorded from BOTH seats' views (their features, :mod:`rules.ai.features`)
with that seat's result (1 won, 0 lost, 0.5 drawn). The games go to ``--data`` (JSON
lines, outside git: bench/results/ is ignored). Every ``--holdout``-th game of each
configuration is held out: the logistic regression (standardized features, L2 ``--l2``,
Newton's method, pure Python) is fitted on the others, and the held-out games' positions
give the figures printed per configuration: log loss, accuracy and Brier score of the
learned value against the probability model's own chance to win the game (the baseline).
The weights, with the feature names, the seeds and those figures, go to ``--weights``
(default the shipped rules/ai/weights/learned.json). ``--processes`` plays the games in
several processes and writes the same file. With the defaults about 10-15 minutes of one
core.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/train_ai.py` from anywhere
    sys.path.insert(0, str(ROOT))

from bench.ai import CONFIGS  # noqa: E402
from rules.ai import PLAYERS, decide  # noqa: E402
from rules.ai.features import NAMES, features  # noqa: E402
from rules.ai.learned import Weights, predict  # noqa: E402
from rules.game import Game  # noqa: E402

#: The self-play pairs, in turn: fast players of different styles (the model's one ply,
#: its slips, two baselines that play tactic cards their own ways).
PAIRS = (
    ("one-ply", "easy"),
    ("greedy", "one-ply"),
    ("sniper", "easy"),
    ("probability", "one-ply"),
    ("easy", "sniper"),
    ("one-ply", "one-ply"),
)
WEIGHTS = ROOT / "rules" / "ai" / "weights" / "learned.json"
DATA = ROOT / "bench" / "results" / "train-ai.jsonl"
GAME_INDEX = NAMES.index("game")


def play(config: str, seed: int, index: int, every: int, pairs: tuple[tuple[str, str], ...] = PAIRS) -> dict:
    """One self-play game, its sampled positions from both seats."""
    names = pairs[index % len(pairs)]
    if index // len(pairs) % 2:
        names = (names[1], names[0])
    game = Game.new(seed, CONFIGS[config])
    pick = random.Random(seed * 7919 + 17)
    rows: list[tuple[int, list[float]]] = []
    spent = 0.0  # seconds in features()
    while not game.is_over:
        forced = game.forced_move()
        if forced is not None:
            game.apply(forced)
            continue
        p = game.current_player
        assert p is not None
        if pick.random() < 1.0 / every:
            views = [game.view(seat) for seat in (0, 1)]
            t0 = time.perf_counter()
            rows += [(seat, features(views[seat])) for seat in (0, 1)]
            spent += time.perf_counter() - t0
        game.apply(decide(game.view(p), level=names[p], seed=seed * 10_007 + game.version).move, p)
    assert game.result is not None
    winner = game.result.winner
    return {
        "config": config,
        "seed": seed,
        "index": index,
        "players": list(names),
        "winner": winner,
        "rows": rows,
        "features_s": spent,
    }


def label(g: dict, seat: int) -> float:
    return 0.5 if g["winner"] is None else float(g["winner"] == seat)


def dataset(games: list[dict]) -> tuple[list[list[float]], list[float]]:
    xs, ys = [], []
    for g in games:
        for seat, x in g["rows"]:
            xs.append(x)
            ys.append(label(g, seat))
    return xs, ys


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        piv = m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / piv
            if f:
                row, top = m[r], m[c]
                for k in range(c, n + 1):
                    row[k] -= f * top[k]
    out = [0.0] * n
    for c in range(n - 1, -1, -1):
        out[c] = (m[c][n] - sum(m[c][k] * out[k] for k in range(c + 1, n))) / m[c][c]
    return out


def fit(xs: list[list[float]], ys: list[float], l2: float, iterations: int = 12) -> Weights:
    """Logistic regression on standardized features, L2 on the weights (not the
    intercept), by Newton's method."""
    d = len(NAMES)
    n = len(xs)
    mean = [sum(x[j] for x in xs) / n for j in range(d)]
    scale = []
    for j in range(d):
        var = sum((x[j] - mean[j]) ** 2 for x in xs) / n
        scale.append(math.sqrt(var) if var > 1e-12 else 1.0)
    zs = [[1.0, *((x[j] - mean[j]) / scale[j] for j in range(d))] for x in xs]
    beta = [0.0] * (d + 1)
    for _ in range(iterations):
        grad = [0.0] * (d + 1)
        hess = [[0.0] * (d + 1) for _ in range(d + 1)]
        for z, y in zip(zs, ys, strict=True):
            t = sum(b * v for b, v in zip(beta, z, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, t))))
            r, w = y - p, p * (1.0 - p)
            for i, zi in enumerate(z):
                grad[i] += r * zi
                if zi:
                    wz, row = w * zi, hess[i]
                    for k in range(i, d + 1):
                        row[k] += wz * z[k]
        for i in range(d + 1):
            for k in range(i):
                hess[i][k] = hess[k][i]
        for i in range(1, d + 1):
            grad[i] -= l2 * beta[i]
            hess[i][i] += l2
        step = solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return Weights(NAMES, tuple(mean), tuple(scale), tuple(beta[1:]), beta[0], {})


def scores(ps: list[float], ys: list[float]) -> dict[str, float]:
    eps = 1e-6
    n = max(1, len(ys))
    loss = -sum(
        y * math.log(max(eps, p)) + (1 - y) * math.log(max(eps, 1 - p)) for p, y in zip(ps, ys, strict=True)
    )
    right = sum(1.0 if y == 0.5 else float((p > 0.5) == (y > 0.5)) for p, y in zip(ps, ys, strict=True))
    brier = sum((p - y) ** 2 for p, y in zip(ps, ys, strict=True))
    return {"positions": len(ys), "log_loss": loss / n, "accuracy": right / n, "brier": brier / n}


def held_out_figures(weights: Weights, games: list[dict]) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    for config in [*CONFIGS, "all"]:
        xs, ys = dataset([g for g in games if config in ("all", g["config"])])
        if not ys:
            continue
        out[config] = {
            "learned": scores([predict(weights, x) for x in xs], ys),
            "model": scores([x[GAME_INDEX] for x in xs], ys),
        }
    return out


def print_figures(figures: dict[str, dict[str, dict[str, float]]], n_games: int) -> None:
    print(f"\nheld-out games: {n_games} (figures per position, both seats)")
    print(f"{'config':<6} {'positions':>9} {'log loss':>17} {'accuracy':>15} {'Brier':>15}")
    print(f"{'':<6} {'':>9} {'learned  model':>17} {'learned model':>15} {'learned model':>15}")
    for config, f in figures.items():
        a, b = f["learned"], f["model"]
        print(
            f"{config:<6} {a['positions']:>9.0f} {a['log_loss']:>8.3f} {b['log_loss']:>7.3f}"
            f" {a['accuracy']:>8.3f} {b['accuracy']:>6.3f} {a['brier']:>8.3f} {b['brier']:>6.3f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="self-play games per configuration")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument(
        "--first-seed", type=int, default=70_000, help="deal of each configuration's first game"
    )
    parser.add_argument("--every", type=int, default=4, help="record a decision with chance 1/EVERY")
    parser.add_argument("--holdout", type=int, default=4, help="hold out every HOLDOUT-th game")
    parser.add_argument(
        "--pairs", default=None, help="self-play pairs A:B,C:D (default: PAIRS, the fast players)"
    )
    parser.add_argument(
        "--without", default="", metavar="NAME,...", help="fit with these features held at zero (an ablation)"
    )
    parser.add_argument("--processes", type=int, default=1, help="play the games in this many processes")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 penalty on the standardized weights")
    parser.add_argument("--data", default=str(DATA), help="write the games here (JSON lines)")
    parser.add_argument("--from-data", default=None, help="fit on these saved games instead of playing")
    parser.add_argument("--weights", default=str(WEIGHTS), help="write the weights here")
    args = parser.parse_args(argv)
    configs = [c for c in args.configs.split(",") if c]
    dropped = [name for name in args.without.split(",") if name]
    if set(dropped) - set(NAMES):
        parser.error(f"--without: unknown features {sorted(set(dropped) - set(NAMES))}")
    pairs: tuple[tuple[str, str], ...] = PAIRS
    if args.pairs:
        pairs = tuple((a, b) for a, _, b in (p.partition(":") for p in args.pairs.split(",") if p))
        unknown = {name for pair in pairs for name in pair} - set(PLAYERS)
        if unknown:
            parser.error(f"unknown players {sorted(unknown)}; choose from {', '.join(PLAYERS)}")
    t0 = time.perf_counter()
    games: list[dict] = []
    if args.from_data:
        with open(args.from_data, encoding="utf-8") as f:
            games = [json.loads(line) for line in f if line.strip()]
        games = [g for g in games if g["config"] in configs]
    else:
        Path(args.data).parent.mkdir(parents=True, exist_ok=True)
        jobs = [(config, args.first_seed + i, i) for config in configs for i in range(args.games)]
        with open(args.data, "w", encoding="utf-8") as f, ProcessPoolExecutor(args.processes) as pool:
            played = pool.map(play, *zip(*jobs, strict=True), repeat(args.every), repeat(pairs))
            for g in played:  # in order: the same file for any --processes
                games.append(g)
                f.write(json.dumps(g) + "\n")
                f.flush()
                if g["index"] == args.games - 1:
                    print(f"{g['config']}: {args.games} games, {time.perf_counter() - t0:.0f} s", flush=True)
    zeroed = [NAMES.index(name) for name in dropped]
    for g in games:  # after the file is written: the saved games keep every feature
        for _, x in g["rows"]:
            for i in zeroed:
                x[i] = 0.0
    calls = sum(len(g["rows"]) for g in games)
    if calls and not args.from_data:
        cost = 1000 * sum(g["features_s"] for g in games) / calls
        print(f"features: {calls} calls, {cost:.2f} ms a call (from a view, the model counted afresh)")
    train = [g for g in games if g["index"] % args.holdout]
    test = [g for g in games if not g["index"] % args.holdout]
    xs, ys = dataset(train)
    if not xs:
        print("no training positions", file=sys.stderr)
        return 1
    t1 = time.perf_counter()
    weights = fit(xs, ys, args.l2)
    figures = held_out_figures(weights, test)
    secs = time.perf_counter() - t1
    print(f"fit: {len(train)} games, {len(xs)} positions, {len(NAMES)} features, {secs:.1f} s")
    print_figures(figures, len(test))
    seeds = {c: [args.first_seed, args.first_seed + args.games - 1] for c in configs}
    meta = {
        "model": "logistic regression on standardized features",
        "training": {
            "command": " ".join(["python bench/train_ai.py", *(sys.argv[1:] if argv is None else argv)]),
            "deals": seeds,
            "pairs": sorted({tuple(sorted(g["players"])) for g in games}),
            "every": args.every,
            "holdout": args.holdout,
            "l2": args.l2,
            "without": dropped,
            "games": len(train),
            "positions": len(xs),
        },
        "held_out": figures,
    }
    out = Weights(weights.names, weights.mean, weights.scale, weights.coef, weights.intercept, meta)
    Path(args.weights).parent.mkdir(parents=True, exist_ok=True)
    Path(args.weights).write_text(json.dumps(out.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"weights: {args.weights} ({time.perf_counter() - t0:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""How well do ``hard``'s playouts predict real games? A diagnostic of the playout policy.

    python bench/ai_calibration.py collect --games 1200 --out positions.pkl
    python bench/ai_calibration.py score positions.pkl [--set NAME=VALUE ...]

``collect`` plays ``medium-old`` against itself (base game by default) and keeps a quarter of
the decisions: the mover's view and whether the mover went on to win. ``score`` runs
``--playouts`` playouts from every kept view (the search's own dealing and playout, the
stone margin left out) and fits a logistic curve from the playouts' mean to the result
on the even seeds; it prints the log loss on the odd seeds, with that of the ``medium-old``
heuristic's board value and of both together. Lower is better; a coin toss scores
0.693. ``--set`` changes a number of ``rules/ai/playout.py`` as in ``bench/ai.py``, so
playout policies can be compared in a minute instead of hundreds of games.

What it showed (docs/ai.md, "Rejected ideas"): the playouts predict the
result far better than the heuristic's board value, but a policy that predicts better
did not play better.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/ai_calibration.py` from anywhere
    sys.path.insert(0, str(ROOT))

from bench.ai import CONFIGS, apply_settings, parse_settings, to_decide  # noqa: E402
from rules.ai import decide, heuristic, mcts, playout  # noqa: E402
from rules.ai.situation import from_view  # noqa: E402
from rules.game import Game  # noqa: E402
from rules.view import PlayerView  # noqa: E402

Position = tuple[PlayerView, float, int]  # the mover's view, the mover's result, the seed


def collect(games: int, first_seed: int, config: str, keep: float) -> list[Position]:
    rng = random.Random(first_seed)
    out: list[Position] = []
    for seed in range(first_seed, first_seed + games):
        game = Game.new(seed, CONFIGS[config])
        views = []
        while (p := to_decide(game)) is not None:
            view = game.view(p)
            if view.phase == "play" and rng.random() < keep:
                views.append(view)
            game.apply(decide(view, level="medium-old", seed=seed * 7919 + game.version).move, p)
        assert game.result is not None
        winner = game.result.winner
        out += [(v, 0.5 if winner is None else float(winner == v.player), seed) for v in views]
    return out


def _logit(p: float) -> float:
    p = min(max(p, 0.01), 0.99)
    return math.log(p / (1 - p))


def _prob(w: list[float], x: list[float]) -> float:
    z = sum(a * b for a, b in zip(w, x, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def fit_logistic(xs: list[list[float]], ys: list[float], steps: int = 25) -> list[float]:
    """Newton's method on the log loss (a little L2 keeps it well posed)."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(steps):
        g = [1e-3 * wi for wi in w]
        h = [[1e-3 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys, strict=True):
            p = _prob(w, x)
            for i in range(k):
                g[i] += (p - y) * x[i]
                for j in range(k):
                    h[i][j] += p * (1 - p) * x[i] * x[j]
        a = [[*row, g[i]] for i, row in enumerate(h)]  # solve h d = g
        for c in range(k):
            pivot = max(range(c, k), key=lambda r: abs(a[r][c]))
            a[c], a[pivot] = a[pivot], a[c]
            for r in range(k):
                if r != c:
                    f = a[r][c] / a[c][c]
                    a[r] = [u - f * v for u, v in zip(a[r], a[c], strict=True)]
        w = [w[i] - a[i][k] / a[i][i] for i in range(k)]
    return w


def log_loss(w: list[float], xs: list[list[float]], ys: list[float]) -> float:
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(max(_prob(w, x), 1e-6), 1 - 1e-6)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(ys)


def score(positions: list[Position], playouts: int) -> None:
    playout.MARGIN = 0.0  # the result only: the question is who wins
    rows = []
    for k, (view, result, seed) in enumerate(positions):
        if result == 0.5:
            continue
        root = mcts.Root(view)
        rng = random.Random(k)
        mean = 0.0
        for _ in range(playouts):
            world = root.deal(random.Random(rng.getrandbits(64)))
            mean += world.rollout(0, random.Random(rng.getrandbits(64))) / playouts
        sit = from_view(view)
        board = heuristic.Evaluator(sit).board_value(sit.stones, sit.hand)
        rows.append((seed, result, _logit(mean), board - 4.5))
    features: dict[str, Callable[[tuple[int, float, float, float]], list[float]]] = {
        "playouts": lambda r: [1.0, r[2]],
        "heuristic board value": lambda r: [1.0, r[3]],
        "both": lambda r: [1.0, r[2], r[3]],
    }
    train = [r for r in rows if r[0] % 2 == 0]
    test = [r for r in rows if r[0] % 2 == 1]
    print(f"{len(rows)} positions ({len(train)} to fit, {len(test)} to test), {playouts} playouts each")
    for name, f in features.items():
        w = fit_logistic([f(r) for r in train], [r[1] for r in train])
        loss = log_loss(w, [f(r) for r in test], [r[1] for r in test])
        print(f"  {name:22s} log loss {loss:.4f}  weights {[round(x, 3) for x in w]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play medium-old against itself and keep labelled positions")
    c.add_argument("--games", type=int, default=1200)
    c.add_argument("--first-seed", type=int, default=20000)
    c.add_argument("--config", default="st", choices=sorted(CONFIGS))
    c.add_argument("--keep", type=float, default=0.25, help="share of the decisions kept")
    c.add_argument("--out", required=True)
    s = sub.add_parser("score", help="how well the playouts predict the kept positions' results")
    s.add_argument("positions")
    s.add_argument("--playouts", type=int, default=32)
    s.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    if args.command == "collect":
        positions = collect(args.games, args.first_seed, args.config, args.keep)
        with open(args.out, "wb") as out:
            pickle.dump(positions, out)
        print(f"{len(positions)} positions from {args.games} games")
        return 0
    try:
        apply_settings(parse_settings(args.set))
    except ValueError as error:
        parser.error(str(error))
    with open(args.positions, "rb") as f:
        score(pickle.load(f), args.playouts)
    return 0


if __name__ == "__main__":
    sys.exit(main())

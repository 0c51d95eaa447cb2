"""AI benchmark: win rates per pairing and configuration, an Elo ladder, decision times.

    python bench/ai.py --readme-table --processes 2      # the README's table (hours: make bench-ai)
    python bench/ai.py                                   # the target matrix (long: hours)
    python bench/ai.py --pairings hard:greedy --configs st --games 20
    python bench/ai.py --ladder --games 10               # every pair of players, then Elo
    python bench/ai.py --ladder-from results.jsonl       # Elo from saved results only
    python bench/ai.py --report a.jsonl b.jsonl          # the table from saved results
    python bench/ai.py --pairings hard:medium --configs st --set NOISE=0.2 --out v.jsonl
    python bench/ai.py --compare design.jsonl v.jsonl    # a variant of hard, paired by deal

Each pairing plays ``--games`` deals (seeds ``--first-seed``...), every deal twice with
the players' seats swapped (same cards, same first seat), so 2 x games games. A draw
counts as half a win. Win rates carry Wilson 95% intervals; a target counts as met when
the interval's lower bound meets it. Decision times are measured for the first player
of a pairing on every ``choose_move`` call it gets (forced moves are applied without
asking the AI, as the bot's service does); the search reports its playouts and whether
its wall-clock safety cap stopped it ("cap fired").

Configurations: ``st`` Schotten-Totten, ``st+t`` with tactics, ``bl`` Battle Line,
``bl+t`` with tactics. ``--out FILE`` appends one JSON line per game, so several runs
(or machines) can be pooled; the Elo ladder is fitted (maximum likelihood, Bradley-Terry
on the Elo scale, random anchored at 0) on every game of the run plus ``--ladder-from``.

``--readme-table`` plays exactly the games behind the README's table ("How strong is the
practice AI", hard's rows and medium's), on the deals recorded in ``README_TABLE``, and
prints that table. Every
player is deterministic for a seed and its playout budget, so the same games give the
same figures on any machine, unless hard's wall-clock safety cap fires on a loaded one
(the run reports it as "cap").

Targets (the lower bound of the interval): hard >= 70% vs probability and medium-old in
every configuration; medium above hard-old (> 50%); hard's decision time p95 <= 2 s on one
core at the default budget. A run's table also shows the bars from before the probability
model (>= 75% vs greedy, sniper and medium, >= 95% vs random).
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/ai.py` from anywhere, any interpreter
    sys.path.insert(0, str(ROOT))

from rules.ai import HARD_BUDGET, PLAYERS, decide, learned, mcts, model, planner, playout  # noqa: E402
from rules.ai.learned import Weights  # noqa: E402
from rules.game import Game, GameOptions  # noqa: E402

CONFIGS = {
    "st": GameOptions("schotten-totten", False),
    "st+t": GameOptions("schotten-totten", True),
    "bl": GameOptions("battle-line", False),
    "bl+t": GameOptions("battle-line", True),
}
TARGETS = {
    "probability": 0.70,
    "medium-old": 0.70,
    "greedy": 0.75,
    "sniper": 0.75,
    "medium": 0.75,
    "random": 0.95,
}
DEFAULT_PAIRINGS = "hard:probability,hard:medium-old,hard:greedy,hard:sniper,hard:random"


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def to_decide(game: Game) -> int | None:
    """Apply forced moves (as the bot's service does, without asking the AI); then the
    player who must decide, or None once the game is over."""
    while not game.is_over:
        forced = game.forced_move()
        if forced is None:
            return game.current_player
        game.apply(forced)
    return None


def play_game(
    job: tuple[str, str, str, int, int, int | None], watch: Callable[[Game], None] | None = None
) -> dict:
    """One game: player ``a`` in seat ``seat_a`` against ``b``. Returns a's score and
    a's decision times, playouts and cap firings. ``watch`` sees the game before every
    decision (``bench/ai_oracle.py`` hands it to its search)."""
    a, b, config, seed, seat_a, iterations = job
    budget = iterations  # None: each level's default; an int: playouts (medium a quarter)
    names = (a, b) if seat_a == 0 else (b, a)
    game = Game.new(seed, CONFIGS[config])
    times: list[float] = []
    capped = playouts = 0
    cpu = time.process_time()
    while (p := to_decide(game)) is not None:
        if watch is not None:
            watch(game)
        t0 = time.perf_counter()
        d = decide(game.view(p), level=names[p], seed=seed * 10_007 + game.version * 2 + p, budget=budget)
        if p == seat_a:
            times.append(time.perf_counter() - t0)
            capped += d.capped
            playouts += d.iterations
        game.apply(d.move, p)
    assert game.result is not None
    winner = game.result.winner
    score = 0.5 if winner is None else float(winner == seat_a)
    row = {
        "a": a, "b": b, "config": config, "seed": seed, "seat_a": seat_a, "score": score,
        "times": times, "capped": capped, "playouts": playouts, "cpu": time.process_time() - cpu,
    }  # fmt: skip
    if _SETTINGS:
        row["set"] = dict(_SETTINGS)
    if _WEIGHTS:
        row["weights"] = _WEIGHTS[0]
    return row


# --------------------------------------------------------------------------- variants

# The search's numeric constants changed by --set in this process (and, through the
# pool's initializer, in its workers): a variant to compare with --compare.
_SETTINGS: dict[str, int | float] = {}
_WEIGHTS: list[str] = []  # --weights: the learned evaluation's weights file, if not the shipped one
_TUNABLE = (playout, mcts, model, planner)  # the modules whose constants --set changes, where they are read


def _module_of(name: str) -> object | None:
    for module in _TUNABLE:
        if name.isupper() and type(getattr(module, name, None)) in (int, float):
            return module
    return None


def parse_settings(items: list[str]) -> dict[str, int | float]:
    """``NAME=VALUE`` pairs for the numeric constants of the search and its playouts
    (``rules/ai/mcts.py``, ``rules/ai/playout.py``); ValueError names what is wrong."""
    out: dict[str, int | float] = {}
    for item in items:
        name, _, text = item.partition("=")
        module = _module_of(name)
        if module is None:
            raise ValueError(f"--set {item}: {name} is not a number of rules/ai/mcts.py or playout.py")
        old = getattr(module, name)
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            raise ValueError(f"--set {item}: {text!r} is not a number") from None
        if type(old) is float and type(value) in (int, float):
            out[name] = float(value)  # 2 for a float: 2.0
        elif type(value) is type(old) and isinstance(value, int):
            out[name] = value
        else:
            raise ValueError(f"--set {item}: {name} is a {type(old).__name__}")
    return out


def apply_settings(settings: dict[str, int | float], weights: str | None = None) -> None:
    """The constants of ``--set`` and the learned evaluation's ``--weights`` file, in
    this process (and, as the pool's initializer, in each worker)."""
    _SETTINGS.clear()
    _SETTINGS.update(settings)
    for name, value in settings.items():
        setattr(_module_of(name), name, value)
    _WEIGHTS[:] = [] if weights is None else [weights]
    learned.use(None if weights is None else Weights.from_json(json.loads(Path(weights).read_text("utf-8"))))


def saved_games(paths: list[str]) -> Iterator[dict]:
    """The games of JSON-lines files written by ``--out``, in order."""
    for path in paths:
        with open(path) as f:
            yield from (json.loads(line) for line in f if line.strip())


def sign_test(better: int, worse: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven if the
    variants were equally strong (games both won or both lost say nothing)."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(path_a: str, path_b: str) -> None:
    """Variant B against A on the games both played (same pairing, config, deal, seat)."""

    def load(path: str) -> dict[tuple, dict]:
        return {(r["a"], r["b"], r["config"], r["seed"], r["seat_a"]): r for r in saved_games([path])}

    a, b = load(path_a), load(path_b)
    groups: dict[tuple[str, str, str], list[tuple[dict, dict]]] = defaultdict(list)
    for key in sorted(set(a) & set(b)):
        groups[key[:3]].append((a[key], b[key]))
    print(f"{'pairing':<16} {'config':<6} {'games':>5} {'A':>7} {'B':>7} {'B better':>8} {'B worse':>7}"
          f" {'sign p':>7} {'cpu/game A':>10} {'B':>6}")  # fmt: skip
    for (pa, pb, config), pairs in sorted(groups.items()):
        n = len(pairs)
        better = sum(1 for x, y in pairs if y["score"] > x["score"])
        worse = sum(1 for x, y in pairs if y["score"] < x["score"])

        def cpu(rows: list[dict]) -> str:
            values = [r["cpu"] for r in rows if "cpu" in r]
            return f"{sum(values) / len(values):.1f}s" if values else "-"

        score_a = 100 * sum(x["score"] for x, _ in pairs) / n
        score_b = 100 * sum(y["score"] for _, y in pairs) / n
        print(
            f"{pa + ':' + pb:<16} {config:<6} {n:>5} {score_a:>6.1f}% {score_b:>6.1f}%"
            f" {better:>8} {worse:>7} {sign_test(better, worse):>7.3f}"
            f" {cpu([x for x, _ in pairs]):>10} {cpu([y for _, y in pairs]):>6}"
        )
    for name, path, rows in (("A", path_a, a), ("B", path_b, b)):
        variants = {json.dumps(r.get("set", {}), sort_keys=True) for r in rows.values()}
        print(f"{name}: {path}, --set {' | '.join(sorted(variants))}")


def elo_ladder(results: list[dict], anchor: str = "random") -> dict[str, float]:
    """Elo ratings fitted to every game (Bradley-Terry MLE by gradient steps)."""
    score: dict[tuple[str, str], float] = defaultdict(float)
    games: dict[tuple[str, str], int] = defaultdict(int)
    players: set[str] = set()
    for r in results:
        a, b = r["a"], r["b"]
        players |= {a, b}
        score[(a, b)] += r["score"]
        score[(b, a)] += 1 - r["score"]
        games[(a, b)] += 1
        games[(b, a)] += 1
    # Hunter's MM iteration for Bradley-Terry strengths; a pinch of prior (one drawn
    # game against each opponent met) keeps 100% scores finite.
    gamma = {p: 1.0 for p in players}
    wins = {p: sum(score[(x, y)] + 0.5 for (x, y) in games if x == p) for p in players}
    for _ in range(2000):
        new = {}
        for p in players:
            denom = sum((n + 1) / (gamma[p] + gamma[y]) for (x, y), n in games.items() if x == p)
            new[p] = wins[p] / denom if denom else gamma[p]
        norm = math.exp(sum(math.log(g) for g in new.values()) / len(new))
        gamma = {p: g / norm for p, g in new.items()}
    rating = {p: 400 * math.log10(g) for p, g in gamma.items()}
    base = rating.get(anchor, 0.0)
    return {p: r - base for p, r in rating.items()}


def timing(
    configs: list[str], positions: int, iterations: int | None, levels: tuple[str, ...] = ("hard", "medium")
) -> None:
    """hard's and medium's decision times on positions from greedy-vs-one-ply games, one
    process: wall time and the process's CPU time (what one core would take without
    contention)."""
    print(f"\n{'timing':<8} {'config':<6} {'decisions':>9} {'wall p50':>9} {'wall p95':>9} {'cpu p50':>8}"
          f" {'cpu p95':>8} {'cpu max':>8} {'playouts':>8} {'cap':>4}", flush=True)  # fmt: skip
    budget = iterations  # None: each level's default; an int: playouts (medium a quarter)
    for config in configs:
        walls: dict[str, list[float]] = defaultdict(list)
        cpus: dict[str, list[float]] = defaultdict(list)
        playouts: dict[str, list[int]] = defaultdict(list)
        capped: dict[str, int] = defaultdict(int)
        seed = 50_000
        while len(walls[levels[0]]) < positions:
            game = Game.new(seed, CONFIGS[config])
            names = ("greedy", "one-ply")
            while len(walls[levels[0]]) < positions and (p := to_decide(game)) is not None:
                view = game.view(p)
                for level in levels:
                    w0, c0 = time.perf_counter(), time.process_time()
                    d = decide(view, level=level, seed=seed + game.version, budget=budget)
                    walls[level].append(time.perf_counter() - w0)
                    cpus[level].append(time.process_time() - c0)
                    playouts[level].append(d.iterations)
                    capped[level] += d.capped
                game.apply(decide(view, level=names[p], seed=seed).move, p)
            seed += 1
        for level in levels:
            w, c, n = walls[level], cpus[level], playouts[level]
            print(
                f"{level:<8} {config:<6} {len(w):>9}"
                f" {1000 * pct(w, 0.5):>9.0f} {1000 * pct(w, 0.95):>9.0f}"
                f" {1000 * pct(c, 0.5):>8.0f} {1000 * pct(c, 0.95):>8.0f} {1000 * max(c):>8.0f}"
                f" {sum(n) / len(n):>8.0f} {capped[level]:>4}",
                flush=True,
            )


HEADER = (
    f"{'pairing':<16} {'config':<6} {'games':>5} {'score%':>7}  {'95% CI':<14} {'target':<13}"
    f" {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'cap':>4} {'secs':>5}"
)


def summary_line(a: str, b: str, config: str, rows: list[dict], secs: float | None) -> str:
    """One row of the table: a's score against b with its interval and verdict, and a's
    decision times (wall) and cap firings over ``rows`` (games of that pairing)."""
    score = sum(r["score"] for r in rows)
    n = len(rows)
    ts = [t for r in rows for t in r.get("times", [])]
    cap = sum(r.get("capped", 0) for r in rows)
    lo, hi = wilson(score, n)
    target = TARGETS.get(b) if a == "hard" else None
    verdict = "-" if target is None else (f">={target:.0%} " + ("met" if lo >= target else "NOT met"))
    return (
        f"{a + ':' + b:<16} {config:<6} {n:>5} {100 * score / n:>6.1f}%"
        f"  [{100 * lo:4.1f}, {100 * hi:5.1f}]"
        f" {verdict:<13} {1000 * pct(ts, 0.5):>7.0f} {1000 * pct(ts, 0.95):>7.0f}"
        f" {1000 * max(ts, default=float('nan')):>7.0f} {cap:>4} {'-' if secs is None else f'{secs:.0f}':>5}"
    )


def report(paths: list[str], pairings: set[tuple[str, str]] | None, configs: set[str] | None) -> None:
    """The table again from saved JSON lines, pooled over files (runs on other seeds,
    sessions or machines); a game played twice (same variant, pairing, config, seed and
    seat) counts once. Variants of hard (``--set``) get rows of their own."""
    games: dict[tuple, dict] = {}
    for r in saved_games(paths):
        variant = json.dumps(r.get("set", {}), sort_keys=True)
        games[(r["a"], r["b"], r["config"], variant, r["seed"], r["seat_a"])] = r
    groups: dict[tuple[str, str, str, str], list[dict]] = defaultdict(list)
    for (a, b, config, variant, _, _), r in sorted(games.items()):
        if (pairings is None or (a, b) in pairings) and (configs is None or config in configs):
            groups[(a, b, config, variant)].append(r)
    print(HEADER)
    for (a, b, config, variant), rows in sorted(
        groups.items(), key=lambda kv: (kv[0][2], kv[0][1], kv[0][0])
    ):
        seeds = sorted({r["seed"] for r in rows})
        label = "" if variant == "{}" else f"  --set {variant}"
        print(summary_line(a, b, config, rows, None) + f"  seeds {seeds[0]}-{seeds[-1]}{label}")
    # An Elo ladder per configuration, from the games of the players as they are (no variants).
    for config in sorted({key[2] for key in groups}):
        rows = [r for (a, b, c, variant), rs in groups.items() if c == config and variant == "{}" for r in rs]
        players = {r["a"] for r in rows} | {r["b"] for r in rows}
        if len(players) < 3 or "random" not in players:
            continue
        ladder = elo_ladder(rows)
        ranked = ", ".join(f"{p} {r:.0f}" for p, r in sorted(ladder.items(), key=lambda kv: -kv[1]))
        print(f"Elo {config} ({len(rows)} games, random = 0): {ranked}")


# --------------------------------------------------------------------------- the README's table

# The deals behind the README's table, per row (a player and its opponent) and
# configuration, each played from both seats: the base game on deals 1000-1099, the
# others on 9000-9099 (the heuristic's weight was tuned on other deals); the baselines
# without a target (greedy, sniper, random) only on the first 20 of them, a check.
README_ROWS = {
    ("hard", "probability"): "hard against probability (formations by probability, stones by position)",
    ("hard", "medium-old"): "hard against medium-old (the heuristic before the model)",
    ("hard", "greedy"): "hard against greedy (builds formations, claims at once), 40 games a cell",
    ("hard", "sniper"): "hard against sniper (saves its tactic cards), 40 games a cell",
    ("hard", "random"): "hard against random, 40 games a cell",
    ("medium", "hard-old"): "medium against hard-old (the search before the model)",
}
README_COLUMNS = {
    "st": "Schotten-Totten",
    "st+t": "with tactics",
    "bl": "Battle Line",
    "bl+t": "Battle Line, tactics",
}
_BASE, _OTHERS = range(1000, 1100), range(9000, 9100)
#: The lower bound a row's player must reach (``medium`` against the old ``hard``: above it).
README_TARGETS = {"probability": TARGETS["probability"], "medium-old": TARGETS["medium-old"], "hard-old": 0.5}
README_TABLE: dict[tuple[str, str, str], list[int]] = {
    (a, b, config): list(_BASE if config == "st" else _OTHERS)[: 100 if b in README_TARGETS else 20]
    for a, b in README_ROWS
    for config in README_COLUMNS
}


def readme_cell(b: str, rows: list[dict]) -> str:
    """One cell of the README's table: the score, its Wilson 95% interval and the verdict."""
    score = sum(r["score"] for r in rows)
    lo, hi = wilson(score, len(rows))
    verdict = "" if lo >= README_TARGETS.get(b, 0.0) else ", not met"
    return f"{100 * score / len(rows):.1f}% ({100 * lo:.1f}-{100 * hi:.1f}){verdict}"


def readme_table(rows: list[dict]) -> str:
    """The README's table (Markdown) from the games of its cells."""
    cells: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    for r in rows:
        key = (r["a"], r["b"], r["config"])
        if r["seed"] in README_TABLE.get(key, ()):
            cells[key].append(r)
    lines = [
        "| player against | " + " | ".join(README_COLUMNS.values()) + " |",
        "| --- " * (len(README_COLUMNS) + 1) + "|",
    ]
    for (a, b), label in README_ROWS.items():
        row = [readme_cell(b, cells[a, b, c]) if cells[a, b, c] else "-" for c in README_COLUMNS]
        lines.append(f"| {label} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def _pairings(text: str) -> list[tuple[str, str]]:
    return [(a.strip(), b.strip()) for a, _, b in (p.partition(":") for p in text.split(",") if p.strip())]


def _configs(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--pairings", default=None, help=f"a:b,... (a is measured), default {DEFAULT_PAIRINGS}"
    )
    parser.add_argument("--ladder", action="store_true", help="every pair of --players instead")
    parser.add_argument("--players", default=",".join(PLAYERS))
    parser.add_argument("--configs", default=None, help=f"default {','.join(CONFIGS)}")
    parser.add_argument("--games", type=int, default=100, help="deals per pairing (each played twice)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=None, help="hard's playouts (default: the default)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--progress", type=int, default=40, help="print a running score every N games")
    parser.add_argument("--out", default=None, help="append every game as a JSON line")
    parser.add_argument("--ladder-from", default=None, help="JSON lines of earlier runs, for the Elo ladder")
    parser.add_argument("--timing", type=int, default=0, help="time hard and medium on N positions a config")
    parser.add_argument("--timing-levels", default="hard,medium", help="the players --timing times")
    parser.add_argument("--report", nargs="+", metavar="FILE", help="only the table from saved JSON lines")
    parser.add_argument(
        "--readme-table", action="store_true",
        help="the README's games (fixed deals; not with --pairings, --configs, --games, --first-seed),"
        " and its table; with --report, that table from saved games",
    )  # fmt: skip
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help="change a number of rules/ai/mcts.py or playout.py for this run (a variant of hard): NOISE=0.2",
    )  # fmt: skip
    parser.add_argument(
        "--weights", default=None, metavar="FILE",
        help="the learned evaluation's weights for this run (from bench/train_ai.py), not the shipped ones",
    )  # fmt: skip
    parser.add_argument(
        "--compare", nargs=2, metavar=("A", "B"), help="only: saved games of variant B against A, paired"
    )
    args = parser.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    try:
        settings = parse_settings(args.set)
    except ValueError as error:
        parser.error(str(error))
    try:
        apply_settings(settings, args.weights)
    except (OSError, ValueError, KeyError) as error:  # only a --weights file can fail here
        parser.error(f"--weights {args.weights}: {error}")
    if args.report:  # filtered by --pairings and --configs only where they are given
        pairs = None if args.pairings is None else set(_pairings(args.pairings))
        report(args.report, pairs, None if args.configs is None else set(_configs(args.configs)))
        if args.readme_table:
            print("\n" + readme_table(list(saved_games(args.report))))
        return 0
    args.pairings = args.pairings or DEFAULT_PAIRINGS
    configs = _configs(args.configs or ",".join(CONFIGS))
    if args.timing:
        load = os.getloadavg()
        print(f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs", flush=True)
        timing(configs, args.timing, args.budget, tuple(args.timing_levels.split(",")))
        return 0

    if args.ladder:
        players = [p.strip() for p in args.players.split(",") if p.strip()]
        pairings = list(combinations(players, 2))
    else:
        pairings = _pairings(args.pairings)
    # The cells to play: a pairing, a configuration and its deals.
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    cells = [(a, b, config, seeds) for a, b in pairings for config in configs]
    if args.readme_table:
        cells = [(a, b, config, deals) for (a, b, config), deals in README_TABLE.items()]
        pairings = list(README_ROWS)
    budget = args.budget if args.budget is not None else HARD_BUDGET.iterations
    load = os.getloadavg()
    print(
        f"AI benchmark: {len(cells)} cells ({len(pairings)} pairings), {len(cells[0][3])} deals x 2 seats,"
        f" hard budget {budget} playouts (cap {HARD_BUDGET.seconds}s), {args.processes} processes,"
        f" load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs"
        + "".join(f", {name}={value}" for name, value in settings.items())
        + (f", weights {args.weights}" if args.weights else ""),
        flush=True,
    )
    print(HEADER, flush=True)
    t_start = time.perf_counter()
    results: list[dict] = []
    times_by_player: dict[str, list[float]] = defaultdict(list)
    caps: dict[str, int] = defaultdict(int)
    out = open(args.out, "a") if args.out else None  # noqa: SIM115
    summary: list[str] = []
    init = (settings, args.weights)
    with ProcessPoolExecutor(args.processes, initializer=apply_settings, initargs=init) as pool:
        for a, b, config, deals in cells:
            t0 = time.perf_counter()
            jobs = [(a, b, config, seed, seat, args.budget) for seed in deals for seat in (0, 1)]
            rows = []
            for row in pool.map(play_game, jobs, chunksize=1):
                rows.append(row)
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                if len(rows) % args.progress == 0 and len(rows) < len(jobs):
                    sofar = sum(r["score"] for r in rows)
                    lo, hi = wilson(sofar, len(rows))
                    print(
                        f"  ... {a}:{b} {config} after {len(rows)} games: {100 * sofar / len(rows):.1f}%"
                        f" [{100 * lo:.1f}, {100 * hi:.1f}], {time.perf_counter() - t0:.0f}s",
                        flush=True,
                    )
            results.extend(rows)
            times_by_player[a].extend(t for r in rows for t in r["times"])
            caps[a] += sum(r["capped"] for r in rows)
            line = summary_line(a, b, config, rows, time.perf_counter() - t0)
            print(line, flush=True)
            summary.append(line)
    if out:
        out.close()
    print(f"\n{'player':<8} {'decisions':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cap fired':>9}")
    for player, ts in times_by_player.items():
        print(
            f"{player:<8} {len(ts):>9} {1000 * pct(ts, 0.5):>8.1f} {1000 * pct(ts, 0.95):>8.1f}"
            f" {1000 * max(ts, default=float('nan')):>8.1f} {caps[player]:>9}"
        )
    if args.readme_table:
        print("\n" + readme_table(results))
    pooled = list(results)
    if args.ladder_from:
        pooled.extend(saved_games([args.ladder_from]))
    if pooled:
        ladder = elo_ladder(pooled)
        n_games = len(pooled)
        print(f"\nElo ladder ({n_games} games, random = 0; all configurations pooled):")
        for player, rating in sorted(ladder.items(), key=lambda kv: -kv[1]):
            print(f"  {player:<8} {rating:>7.0f}")
    load = os.getloadavg()
    print(
        f"\ntotal {time.perf_counter() - t_start:.0f}s,"
        f" load at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    return 0


if __name__ == "__main__":
    try:
        status = main()
        sys.stdout.flush()  # here, where a closed pipe is caught, not at the interpreter's exit
    except BrokenPipeError:
        # The reader went away (`... --compare A B | head`): stop quietly, as Unix tools do.
        # stdout goes to /dev/null first so the interpreter's own flush at exit cannot
        # raise again (the recipe in the Python docs' notes on SIGPIPE).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    sys.exit(status)

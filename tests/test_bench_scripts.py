"""The benchmark scripts run as bench/README.md says: ``python bench/<name>.py``."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def bench(name: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # -S: no site-packages, so not the project's editable install either; the script
    # must find the repository's packages itself, as under a plain python3.
    return subprocess.run(
        [sys.executable, "-S", str(ROOT / "bench" / f"{name}.py"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("name", ["claims", "selfplay", "ai", "ai_oracle", "train_ai"])
def test_engine_benchmarks_import_without_an_install(name: str, tmp_path: Path) -> None:
    proc = bench(name, "--help", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "usage:" in proc.stdout


def test_claims_benchmark_reports_the_speed_up_per_kind(tmp_path: Path) -> None:
    proc = bench("claims", "--positions", "8", "--naive", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "vs naive full : >= 100x on" in out and "vs naive first: >= 100x on" in out
    assert "lowest" in out and "p99 <= 1 ms:" in out
    assert "which flatters" in out  # the total is labelled for what it is


def test_ai_report_pools_saved_games_and_counts_each_once(tmp_path: Path) -> None:
    def game(seed: int, seat: int, score: float, config: str = "st", **variant: float) -> str:
        row = {"a": "hard", "b": "medium", "config": config, "seed": seed, "seat_a": seat,
               "score": score, "times": [0.1, 0.3], "capped": 0, "playouts": 800}  # fmt: skip
        return json.dumps(row | ({"set": variant} if variant else {})) + "\n"

    # Two runs on different deals, the second repeating one game of the first.
    (tmp_path / "a.jsonl").write_text("".join(game(s, seat, 1.0) for s in range(10) for seat in (0, 1)))
    (tmp_path / "b.jsonl").write_text(
        game(9, 1, 1.0) + "".join(game(s, seat, 0.0) for s in range(10, 15) for seat in (0, 1))
        + game(0, 0, 0.5, config="bl") + game(0, 0, 1.0, NOISE=0.3)
    )  # fmt: skip
    proc = bench("ai", "--report", "a.jsonl", "b.jsonl", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    rows = {
        line.split()[1]: line.split()
        for line in lines
        if line.startswith("hard:medium") and "--set" not in line
    }
    st = rows["st"]
    assert st[2:4] == ["30", "66.7%"]  # 20 wins of 30 games, the repeated one counted once
    assert "NOT" in st and st[-1] == "0-14"  # its lower bound is below 75%; the seeds it pools
    assert rows["bl"][2:4] == ["1", "50.0%"]
    (variant,) = [line.split() for line in lines if "--set" in line]  # a variant's games: a row of its own
    assert variant[1:4] == ["st", "1", "100.0%"] and variant[-2:] == ['{"NOISE":', "0.3}"]
    only_bl = bench("ai", "--report", "a.jsonl", "b.jsonl", "--configs", "bl", cwd=tmp_path)
    assert "hard:medium      st " not in only_bl.stdout and "hard:medium      bl " in only_bl.stdout


def test_ai_variant_runs_record_their_settings_and_compare_paired(tmp_path: Path) -> None:
    refused = bench("ai", "--set", "NOPE=1", cwd=tmp_path)
    assert refused.returncode == 2
    assert "NOPE is not a number of rules/ai/mcts.py or playout.py" in refused.stderr
    assert "is a float" in bench("ai", "--set", "NOISE=True", cwd=tmp_path).stderr

    run = bench("ai", "--pairings", "hard:random", "--configs", "st", "--games", "1", "--budget", "20",
                "--set", "NOISE=0.5", "--out", "b.jsonl", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "NOISE=0.5" in run.stdout
    rows = [json.loads(line) for line in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert [r["set"] for r in rows] == [{"NOISE": 0.5}] * 2 and all(r["cpu"] > 0 for r in rows)

    # A variant that won 10 games its baseline lost and lost 1 it won, on 14 paired games
    # (and one game the baseline alone played, which is left out).
    def game(seed: int, score: float) -> str:
        return json.dumps(
            {"a": "hard", "b": "medium", "config": "st", "seed": seed, "seat_a": 0, "score": score}
        )

    base = [0.0] * 10 + [1.0] + [1.0] * 3 + [1.0]
    variant = [1.0] * 10 + [0.0] + [1.0] * 3
    (tmp_path / "a.jsonl").write_text("\n".join(game(i, x) for i, x in enumerate(base)))
    (tmp_path / "v.jsonl").write_text("\n".join(game(i, x) for i, x in enumerate(variant)))
    out = bench("ai", "--compare", "a.jsonl", "v.jsonl", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    row = next(line.split() for line in out.stdout.splitlines() if line.startswith("hard:medium"))
    assert row[2:8] == ["14", "28.6%", "92.9%", "10", "1", "0.012"]  # 2 x 12/2048


def test_the_oracle_search_is_dealt_the_real_hidden_cards(tmp_path: Path) -> None:
    from bench import ai_oracle
    from rules.ai.mcts import Root
    from rules.game import Game, GameOptions

    game = Game.new(5, GameOptions("schotten-totten", tactics=True))
    root = Root(game.view(0))
    ai_oracle._playing.append(game)
    try:
        world = ai_oracle._true_world(root, None)
    finally:
        ai_oracle._playing.pop()
    assert world.hands[1] == list(game.hand(1)) and world.hands[0] == list(game.hand(0))
    assert (world.clan, world.tac) == (game._clan_deck, game._tactic_deck)
    assert root.deal(random.Random(0)).hands[1] != list(game.hand(1))  # the honest search guesses

    run = bench(
        "ai_oracle",
        "--opponent",
        "random",
        "--games",
        "1",
        "--budget",
        "20",
        "--out",
        "o.jsonl",
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "2 games" in run.stdout
    rows = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert [(r["seat_a"], r["set"]) for r in rows] == [(0, {"ORACLE": True}), (1, {"ORACLE": True})]


def test_ai_report_fits_an_elo_ladder_per_configuration(tmp_path: Path) -> None:
    def games(a: str, b: str, wins: int, n: int) -> str:
        return "".join(
            json.dumps({"a": a, "b": b, "config": "bl", "seed": i, "seat_a": 0, "score": float(i < wins)})
            + "\n"
            for i in range(n)
        )

    (tmp_path / "g.jsonl").write_text(
        games("hard", "medium", 15, 20) + games("medium", "random", 19, 20) + games("hard", "random", 20, 20)
    )
    out = bench("ai", "--report", "g.jsonl", cwd=tmp_path).stdout
    (line,) = [line for line in out.splitlines() if line.startswith("Elo bl")]
    ranked = [part.split()[0] for part in line.split(": ", 1)[1].split(", ")]
    assert ranked == ["hard", "medium", "random"] and line.endswith("random 0") and "(60 games" in line


def test_ai_stops_quietly_when_its_reader_goes_away(tmp_path: Path) -> None:
    # `bench/ai.py --compare A B | head`: once head has its lines, the next print finds the
    # pipe closed; that ends the run with no traceback.
    row = {"a": "hard", "b": "medium", "config": "st", "seed": 0, "seat_a": 0, "score": 1.0}
    (tmp_path / "a.jsonl").write_text(json.dumps(row) + "\n")
    proc = subprocess.Popen(
        [sys.executable, "-S", str(ROOT / "bench" / "ai.py"), "--report", "a.jsonl"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # stdout buffered, as in a clean environment: the pipe then fails at the last flush
        env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert err == ""


def test_the_readme_table_is_printed_from_the_games_of_its_deals(tmp_path: Path) -> None:
    from bench import ai

    def game(a: str, b: str, config: str, seed: int, seat: int, score: float) -> dict:
        return {"a": a, "b": b, "config": config, "seed": seed, "seat_a": seat, "score": score}

    rows = [game("hard", "medium-old", "st", s, seat, 1.0) for s in range(1000, 1100) for seat in (0, 1)]
    rows += [game("hard", "medium-old", "st", 5, 0, 0.0)]  # not a deal of the table: left out
    # A baseline's row is a check on the first 20 deals: later ones are left out.
    rows += [game("hard", "sniper", "st+t", s, t, float(s < 9017)) for s in range(9000, 9100) for t in (0, 1)]
    deals = range(9000, 9100)
    rows += [game("medium", "hard-old", "bl", s, t, float(s < 9060)) for s in deals for t in (0, 1)]
    rows += [game("medium", "random", "bl", 9000, 0, 1.0)]  # not a row of the table
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    lines = ai.readme_table(rows).splitlines()
    assert lines[0].startswith("| player against | Schotten-Totten | with tactics | Battle Line |")
    medium_old = "| hard against medium-old (the heuristic before the model) | 100.0% (98.1-100.0) | - |"
    medium_old += " - | - |"
    assert lines[2].startswith("| hard against probability (") and lines[2].endswith("| - | - | - | - |")
    assert lines[3] == medium_old
    sniper = "| hard against sniper (saves its tactic cards), 40 games a cell | - | 85.0% (70.9-92.9) |"
    sniper += " - | - |"
    assert lines[5] == sniper
    assert lines[6] == "| hard against random, 40 games a cell | - | - | - | - |"
    # 60% of 200 games: the lower bound (53.1%) is above even, so medium is above hard-old.
    medium = "| medium against hard-old (the search before the model) | - | - | 60.0% (53.1-66.5) | - |"
    assert lines[7] == medium
    assert len(ai.README_TABLE["hard", "sniper", "st+t"]) == 20
    assert len(ai.README_TABLE["hard", "medium-old", "st"]) == 100
    assert len(ai.README_TABLE["hard", "probability", "bl"]) == 100
    out = bench("ai", "--report", "t.jsonl", "--readme-table", cwd=tmp_path).stdout
    assert medium_old in out


def test_ai_runs_with_other_weights_record_them_and_refuse_a_bad_file(tmp_path: Path) -> None:
    from bench import ai
    from rules.ai import learned

    shipped = json.loads((ROOT / "rules" / "ai" / "weights" / "learned.json").read_text())
    other = dict(shipped, intercept=shipped["intercept"] + 1.0)
    (tmp_path / "w.json").write_text(json.dumps(other))
    try:
        ai.apply_settings({}, str(tmp_path / "w.json"))
        assert learned.load().intercept == other["intercept"]
    finally:
        ai.apply_settings({})
    assert learned.load().intercept == shipped["intercept"]

    run = bench("ai", "--pairings", "medium-learned:random", "--configs", "st+t", "--games", "1",
                "--budget", "8", "--weights", "w.json", "--out", "g.jsonl", cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "weights w.json" in run.stdout
    assert [json.loads(line)["weights"] for line in (tmp_path / "g.jsonl").read_text().splitlines()] == [
        "w.json"
    ] * 2
    (tmp_path / "bad.json").write_text(json.dumps(dict(shipped, features=shipped["features"][:-1])))
    refused = bench("ai", "--pairings", "medium-learned:random", "--weights", "bad.json", cwd=tmp_path)
    assert refused.returncode == 2 and "--weights bad.json: weights are for features" in refused.stderr

"""The learned evaluation: its features see only the view, its weights load, its value
is ordered where it must be, its training runs end to end, and the players that use it
are deterministic."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from rules.ai import decide, learned, mcts, planner
from rules.ai.determinize import sample_game
from rules.ai.features import NAMES, features
from rules.ai.learned import Weights, predict
from rules.ai.situation import from_view
from rules.game import Game, GameOptions
from tests.rules.test_ai import positions

ROOT = Path(__file__).resolve().parents[2]
#: An int keeps each player's own budget (short playouts for the learned players), smaller.
PLAYOUTS = 40


def train_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ai", ROOT / "bench" / "train_ai.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_ai"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ruleset", ["schotten-totten", "battle-line"])
def test_features_see_only_the_view(ruleset: str) -> None:
    """Games that deal the opponent other cards and the decks in another order, but look
    the same to the viewer: the same features."""
    differ = 0
    for game, view in positions(range(2), tactics=True, every=6, ruleset=ruleset):
        p = view.player
        other = sample_game(view, random.Random(differ + 1))
        assert from_view(other.view(p)) == from_view(view)
        if other.hand(1 - p) != game.hand(1 - p):
            differ += 1
        assert features(other.view(p)) == features(view)
    assert differ >= 3


def test_features_change_with_what_the_viewer_holds() -> None:
    """The other side of the test above: the feature vector is not blind to the hand."""
    for _, view in positions(range(3), tactics=True, every=4):
        if view.phase != "play" or not any(c.is_tactic for c in view.hand):
            continue
        bare = replace(view, hand=tuple(c for c in view.hand if not c.is_tactic))
        assert features(bare) != features(view)
        return
    pytest.fail("no position with a tactic card in hand")


def test_the_shipped_weights_load_and_match_the_features() -> None:
    path = ROOT / "rules" / "ai" / learned.WEIGHTS_FILE
    assert path.stat().st_size < 1_000_000
    data = json.loads(path.read_text(encoding="utf-8"))
    assert tuple(data["features"]) == NAMES
    w = learned.load()
    assert w.names == NAMES and len(w.coef) == len(NAMES)
    assert w.meta["training"]["deals"] and w.meta["held_out"]["all"]["learned"]["positions"] > 0
    with pytest.raises(ValueError, match="features"):
        Weights.from_json({**data, "features": data["features"][::-1]})


def test_the_value_is_ordered_where_it_must_be() -> None:
    # A finished game: the winner's view is worth 1, the loser's 0.
    game = Game.new(3, GameOptions())
    while not game.is_over:
        forced = game.forced_move()
        if forced is not None:
            game.apply(forced)
            continue
        p = game.current_player
        game.apply(decide(game.view(p), level="one-ply", seed=1).move, p)
    assert game.result is not None and game.result.winner is not None
    winner = game.result.winner
    assert learned.value(game.view(winner)) == 1.0 and learned.value(game.view(1 - winner)) == 0.0
    # A position the model calls nearly won is worth more than the same one nearly lost.
    w = learned.load()
    g, logit, mean = NAMES.index("game"), NAMES.index("game_logit"), NAMES.index("stones_mean")
    for _, view in positions(range(2), tactics=True, every=8):
        x = features(view)
        won, lost = list(x), list(x)
        won[g], won[logit], won[mean] = 0.95, 2.94, 0.7
        lost[g], lost[logit], lost[mean] = 0.05, -2.94, 0.3
        assert 0.0 <= predict(w, lost) < predict(w, won) <= 1.0


def test_training_runs_end_to_end_and_writes_loadable_weights(tmp_path: Path) -> None:
    train = train_module()
    weights, data = tmp_path / "w.json", tmp_path / "d.jsonl"
    args = ["--games", "2", "--configs", "st+t", "--holdout", "2", "--every", "3"]
    assert train.main([*args, "--weights", str(weights), "--data", str(data)]) == 0
    loaded = Weights.from_json(json.loads(weights.read_text(encoding="utf-8")))
    assert loaded.names == NAMES
    assert loaded.meta["training"]["deals"] == {"st+t": [70_000, 70_001]}
    assert set(loaded.meta["held_out"]) == {"st+t", "all"}
    games = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    assert [g["seed"] for g in games] == [70_000, 70_001] and all(g["rows"] for g in games)
    # Refitting from the saved games gives the same weights.
    again = tmp_path / "again.json"
    assert train.main([*args, "--weights", str(again), "--from-data", str(data)]) == 0
    assert json.loads(again.read_text())["coef"] == json.loads(weights.read_text())["coef"]


def test_the_fit_recovers_a_known_logistic_model() -> None:
    train = train_module()
    rng = random.Random(4)
    d = len(NAMES)
    truth = [0.0] * d
    truth[0], truth[5] = 1.5, -1.0
    xs, ys = [], []
    for _ in range(3000):
        x = [rng.gauss(0.0, 1.0) for _ in range(d)]
        z = sum(t * v for t, v in zip(truth, x, strict=True))
        xs.append(x)
        ys.append(1.0 if rng.random() < 1.0 / (1.0 + 2.718281828 ** (-z)) else 0.0)
    w = train.fit(xs, ys, l2=0.01)
    coef = [c / s for c, s in zip(w.coef, w.scale, strict=True)]
    assert abs(coef[0] - 1.5) < 0.25 and abs(coef[5] + 1.0) < 0.25
    assert max(abs(c) for i, c in enumerate(coef) if i not in (0, 5)) < 0.25


@pytest.mark.parametrize("tactics", [False, True])
@pytest.mark.parametrize("level", ["hard-learned", "medium-learned"])
def test_the_measurement_players_are_deterministic(level: str, tactics: bool) -> None:
    found = [v for _, v in positions(range(1), tactics=tactics, every=7) if v.phase == "play"]
    for view in found[:3]:
        a = decide(view, level=level, seed=11, budget=PLAYOUTS)
        b = decide(view, level=level, seed=11, budget=PLAYOUTS)
        assert a.move == b.move and a.iterations == b.iterations
        assert a.move in view.legal_moves()


def test_hard_learned_ranks_with_the_learned_value() -> None:
    """Its search's ranking term is the learned value of the position after each move,
    not the model's (which charges a set cost for a tactic card)."""
    for _, view in positions(range(3), tactics=True, every=3):
        if view.phase != "play" or not any(c.is_tactic for c in view.hand):
            continue
        sit = from_view(view)
        fitted, model = planner.LearnedMoveValues(sit), planner.MoveValues(sit)
        moves = view.legal_moves()
        assert [fitted.value(m) for m in moves] != [model.value(m) for m in moves]
        assert all(0.0 <= fitted.value(m) <= 1.0 for m in moves)
        return
    pytest.fail("no position with a tactic card in hand")


def test_the_learned_leaves_follow_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    view = next(v for _, v in positions(range(1), tactics=True, every=9) if v.phase == "play" and v.my_turn)
    short = decide(view, level="hard-learned", seed=2, budget=PLAYOUTS)
    monkeypatch.setattr(mcts, "LEARNED_LEAF_PLIES", 0)
    full = decide(view, level="hard-learned", seed=2, budget=PLAYOUTS)
    assert short.search is not None and full.search is not None
    assert short.search.stats != full.search.stats  # another value at the playouts' ends


def test_training_takes_its_pairs_from_the_command(tmp_path: Path) -> None:
    train = train_module()
    data, weights = tmp_path / "d.jsonl", tmp_path / "w.json"
    args = ["--games", "2", "--configs", "st+t", "--holdout", "2", "--every", "2", "--pairs", "random:easy"]
    assert train.main([*args, "--data", str(data), "--weights", str(weights)]) == 0
    games = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    assert [g["players"] for g in games] == [["random", "easy"], ["easy", "random"]]
    assert json.loads(weights.read_text())["training"]["pairs"] == [["easy", "random"]]
    again = tmp_path / "again.jsonl"
    assert train.main([*args, "--processes", "2", "--data", str(again), "--weights", str(weights)]) == 0
    parallel = [json.loads(line) for line in again.read_text(encoding="utf-8").splitlines()]
    for g in (*games, *parallel):
        g.pop("features_s")  # the time spent, the only field that may differ
    assert parallel == games
    with pytest.raises(SystemExit):
        train.main(["--pairs", "nobody:easy", "--data", str(data), "--weights", str(weights)])
    # An ablation: the same games fitted with two features held at zero.
    ablated = tmp_path / "ablated.json"
    without = ["--without", "played_mine,held_traitor", "--from-data", str(data), "--weights", str(ablated)]
    assert train.main([*args, *without]) == 0
    fitted = json.loads(ablated.read_text())
    assert fitted["training"]["without"] == ["played_mine", "held_traitor"]
    for name in ("played_mine", "held_traitor"):
        assert fitted["coef"][NAMES.index(name)] == 0.0
    assert json.loads(weights.read_text())["coef"] != fitted["coef"]
    with pytest.raises(SystemExit):
        train.main([*args, "--without", "nothing_like_this", "--from-data", str(data)])

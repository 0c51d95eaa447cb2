"""The search's truncated playouts: they stop after their turns, and the model values their
ends; ``hard`` and ``medium`` use them without tactic cards, ``hard-old`` never."""

from __future__ import annotations

import random

import pytest

from rules.ai import HARD_BUDGET, MEDIUM_SHARE, PLAYOUT_BUDGET, Budget, decide, mcts
from rules.ai.model import Model, game_chance
from rules.ai.playout import MARGIN, STONES, World
from rules.ai.situation import from_view
from rules.game import GameOptions
from rules.view import PlayerView
from tests.rules.test_ai import positions

LEAVES = Budget(iterations=60, seconds=None, leaf_plies=3)


def views(options: GameOptions, seeds: range, every: int = 5) -> list[PlayerView]:
    """Decision points of the play phase from random self-play."""
    found = positions(seeds, options.tactics, every, options.ruleset)
    return [view for _, view in found if view.phase == "play"]


def on_table(world: World) -> int:
    return sum(len(side) for sides in world.sides for side in sides)


def test_a_truncated_playout_stops_after_its_turns() -> None:
    view = views(GameOptions(), range(1))[1]  # early: no game ends in three turns
    world = mcts.Root(view).deal(random.Random(1))
    before = on_table(world)
    assert world.rollout(1, random.Random(2), 3) is None
    assert on_table(world) == before + 3  # no tactic cards: every turn puts a card down
    assert world.winner is None


@pytest.mark.parametrize("options", [GameOptions(), GameOptions("battle-line", True)])
def test_a_playout_that_ends_within_its_turns_is_scored_like_a_full_one(options: GameOptions) -> None:
    for view in views(options, range(2), every=9):
        world = mcts.Root(view).deal(random.Random(3))
        full, cut = world.copy(), world.copy()
        assert cut.rollout(1, random.Random(4), 1000) == full.rollout(1, random.Random(4))


ALL = [GameOptions(), GameOptions(tactics=True), GameOptions("battle-line"), GameOptions("battle-line", True)]


@pytest.mark.parametrize("options", ALL)
def test_a_leaf_at_the_root_is_the_models_value_of_the_view(options: GameOptions) -> None:
    """A world dealt from the view and not played on: the AI's hand and the unseen clan
    cards are the view's, so the leaf's value is the model's value of the view."""
    checked = 0
    for view in views(options, range(2), every=7):
        sit = from_view(view)
        ps = Model(sit).stones(sit.stones, sit.hand)
        expected = (1 - MARGIN) * game_chance(ps) + MARGIN * sum(ps) / STONES
        leaf = mcts.Leaf(from_view(view))
        for seed in range(2):
            assert leaf.value(mcts.Root(view).deal(random.Random(seed))) == pytest.approx(expected, abs=1e-9)
            checked += 1
    assert checked >= 6


def test_a_leaf_counts_the_cards_played_in_the_playout() -> None:
    """After three turns the model sees the cards put down: the AI's new card at its side
    and the opponent's out of the pool."""
    view = views(GameOptions("battle-line"), range(1))[1]
    world = mcts.Root(view).deal(random.Random(5))
    start = mcts.Leaf(from_view(view)).value(world.copy())
    assert world.rollout(1, random.Random(6), 3) is None
    leaf = mcts.Leaf(from_view(view))
    value = leaf.value(world)
    assert 0.0 <= value <= 1.0 and value != start
    sit = from_view(view)
    assert world.owners_at_end() == world.final_owners
    played = {c for sides in world.sides for side in sides for c in side} - {
        c for st in sit.stones for c in (*st.mine, *st.theirs)
    }
    assert len(played) == 3
    assert not played & {c for c in world.hands[1] + world.clan}


class Counting:
    """Counts the leaves the search values."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        value = mcts.Leaf.value

        def counted(leaf: mcts.Leaf, world: World) -> float:
            self.calls += 1
            return value(leaf, world)

        monkeypatch.setattr(mcts.Leaf, "value", counted)


def test_hard_values_its_playouts_ends_with_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    assert HARD_BUDGET.leaf_plies == 3 and PLAYOUT_BUDGET.leaf_plies is None
    leaves = Counting(monkeypatch)
    view = views(GameOptions("battle-line"), range(1))[2]
    a = decide(view, level="hard", seed=7, budget=LEAVES)
    assert a.move in view.legal_moves() and a.iterations >= 60
    assert 0 < leaves.calls <= a.iterations  # a playout that ends the game needs no leaf
    b = decide(view, level="hard", seed=7, budget=LEAVES)
    assert (a.move, a.search and a.search.stats) == (b.move, b.search and b.search.stats)
    for score, _ in a.search.stats.values() if a.search else ():
        assert 0.0 <= score <= 1.0


def test_hard_and_medium_use_leaves_hard_old_plays_out(monkeypatch: pytest.MonkeyPatch) -> None:
    leaves = Counting(monkeypatch)
    view = views(GameOptions(), range(1))[2]
    decide(view, level="hard-old", seed=1, budget=40)
    assert leaves.calls == 0
    d = decide(view, level="hard", seed=1, budget=40)
    assert d.iterations >= 40 and leaves.calls > 0
    before = leaves.calls
    d = decide(view, level="medium", seed=1)  # a quarter of hard's 200, on six moves
    assert d.iterations == 200 // MEDIUM_SHARE and leaves.calls > before


@pytest.mark.parametrize("ruleset", ["schotten-totten", "battle-line"])
def test_with_tactic_cards_searches_play_out(monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    leaves = Counting(monkeypatch)
    searched = 0
    for view in views(GameOptions(ruleset, True), range(1))[:6]:
        for level in ("hard", "medium"):
            d = decide(view, level=level, seed=1, budget=40)
            searched += d.iterations > 0
    assert searched >= 3 and leaves.calls == 0

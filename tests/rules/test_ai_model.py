"""The probability model (rules/ai/model.py) against brute force on small positions, and
the players built on it: legal in every configuration, reproducible for a seed."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from rules.ai import PLAYERS, choose_move, model
from rules.ai.model import Model, game_chance, stone_chance
from rules.ai.situation import from_view, side_key
from rules.cards import ClanCard, parse_cards
from rules.game import Game, GameOptions
from rules.rulesets import get_ruleset

ST = get_ruleset("schotten-totten")


def _model(pool: str) -> Model:
    m = Model(from_view(Game.new(1, GameOptions()).view(0)))
    m.pool = [c for c in parse_cards(pool) if isinstance(c, ClanCard)]
    m.n = len(m.pool)
    return m


def _brute_one_missing(side: str, certain: str, pool: str, access: int) -> dict[int, float]:
    """The best completion of a side missing one card, over every ``access``-subset of the
    pool (each equally likely), the certain cards always there."""
    side_cards, sure, cards = parse_cards(side), parse_cards(certain), parse_cards(pool)
    subsets = list(combinations(cards, access))
    out: dict[int, float] = {}
    for seen in subsets:
        best = max(side_key([*side_cards, c], 3, False, ST) for c in [*sure, *seen])
        out[best] = out.get(best, 0.0) + 1.0 / len(subsets)
    return out


@pytest.mark.parametrize(
    ("side", "certain", "pool", "access"),
    [
        ("R7 R8", "", "R9 R6 Y7 G7 B2 P3 O9", 2),
        ("R7 R8", "B9", "R9 R6 Y7 G7 B2 P3 O9", 3),
        ("G5 Y5", "", "R5 B5 G4 G6 Y9 P1", 1),
        ("G5 Y5", "", "R5 B5 G4 G6 Y9 P1", 4),
        ("B1 P9", "O3", "R1 R2 B5 P8 G9 Y9 O9", 2),
    ],
)
def test_one_missing_card_is_exact(side: str, certain: str, pool: str, access: int) -> None:
    m = _model(pool)
    dist = m.side_dist(parse_cards(side), 3, False, parse_cards(certain), float(access))
    brute = _brute_one_missing(side, certain, pool, access)
    assert sum(p for _, p in dist) == pytest.approx(1.0)
    assert dict(dist) == pytest.approx(brute)


def test_two_missing_cards_give_a_distribution() -> None:
    m = _model("R9 R6 Y7 G7 B2 P3 O9 R5 Y8")
    dist = m.side_dist(parse_cards("R7"), 3, False, parse_cards("R8 B1"), 4.0)
    keys = [k for k, _ in dist]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert sum(p for _, p in dist) == pytest.approx(1.0)
    assert all(p > 0 for _, p in dist)
    assert keys[0] == side_key(parse_cards("R7 R8 R9"), 3, False, ST)  # the colour run can come


def test_a_complete_side_is_certain_and_too_few_cards_is_no_side() -> None:
    m = _model("R1")
    run = side_key(parse_cards("R7 R8 R9"), 3, False, ST)
    assert m.side_dist(parse_cards("R7 R8 R9"), 3, False, (), 1.0) == ((run, 1.0),)
    assert m.side_dist(parse_cards("R7"), 3, False, (), 1.0) == ((model.NO_SIDE, 1.0),)


def test_stone_chance_against_brute_force() -> None:
    rng = random.Random(3)
    for _ in range(50):
        mine = _random_dist(rng)
        theirs = _random_dist(rng)
        tie = rng.choice((0.0, 0.5, 1.0))
        brute = sum(
            p * q * (1.0 if a > b else tie if a == b else 0.0) for (a, p), (b, q) in product(mine, theirs)
        )
        assert stone_chance(mine, theirs, tie) == pytest.approx(brute)


def _random_dist(rng: random.Random) -> tuple[tuple[int, float], ...]:
    keys = sorted(rng.sample(range(20), rng.randint(1, 6)), reverse=True)
    weights = [rng.random() for _ in keys]
    total = sum(weights)
    return tuple((k, w / total) for k, w in zip(keys, weights, strict=True))


def _wins(owned: list[bool]) -> bool:
    return sum(owned) >= 5 or any(all(owned[i : i + 3]) for i in range(len(owned) - 2))


def test_game_chance_against_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(20):
        ps = [rng.choice((0.0, 1.0, rng.random())) for _ in range(9)]
        brute = 0.0
        for outcome in product((True, False), repeat=9):
            q = 1.0
            for p, mine in zip(ps, outcome, strict=True):
                q *= p if mine else 1.0 - p
            me, them = _wins(list(outcome)), _wins([not x for x in outcome])
            brute += q * (1.0 if me and not them else 0.5 if me and them else 0.0)
        assert game_chance(ps) == pytest.approx(brute)


def test_game_chance_is_symmetric_and_even_at_the_start() -> None:
    assert game_chance([0.5] * 9) == pytest.approx(0.5)
    ps = [0.2, 0.9, 0.4, 0.6, 0.5, 0.3, 0.7, 0.1, 0.8]
    assert game_chance(ps) + game_chance([1 - p for p in ps]) == pytest.approx(1.0)


NEW_PLAYERS = ("easy", "medium", "probability", "hard")
CONFIGS = [GameOptions(r, t) for r in ("schotten-totten", "battle-line") for t in (False, True)]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: f"{o.ruleset}{'+t' if o.tactics else ''}")
def test_the_model_players_play_legal_games(options: GameOptions) -> None:
    for seed in range(2):
        game = Game.new(seed, options)
        names = ("medium", "probability") if seed == 0 else ("probability", "easy")
        while not game.is_over:
            forced = game.forced_move()
            if forced is not None:
                game.apply(forced)
                continue
            p = game.current_player
            assert p is not None
            view = game.view(p)
            move = choose_move(view, level=names[p], seed=seed)
            assert move in view.legal_moves()
            game.apply(move, p)


@pytest.mark.parametrize("level", NEW_PLAYERS)
def test_the_model_players_are_reproducible(level: str) -> None:
    assert level in PLAYERS
    game = Game.new(11, GameOptions("battle-line", True))
    for _ in range(12):
        p = game.current_player
        assert p is not None
        game.apply(choose_move(game.view(p), level="medium", seed=1), p)
    view = game.view(game.current_player or 0)
    budget = 40 if level == "hard" else None
    assert choose_move(view, level=level, seed=9, budget=budget) == choose_move(
        view, level=level, seed=9, budget=budget
    )

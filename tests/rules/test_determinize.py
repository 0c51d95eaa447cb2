"""Determinization (rules.ai.determinize): a full game consistent with what one player
sees, the hidden cards dealt at random; and Game.from_view, which it is built on."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.ai.determinize import sample_game
from rules.game import Game
from tests.rules.test_game_properties import OPTIONS, every_card, full_set, random_game_from


def test_sample_game_keeps_what_the_player_sees():
    g = Game.new(11)
    for _ in range(10):
        g.apply(g.forced_move() or g.legal_moves()[-1])
    p = g.current_player
    d = sample_game(g.view(p), random.Random(1))
    assert d.hand(p) == g.hand(p)
    assert d.stones == g.stones and d.deck_sizes == g.deck_sizes
    assert len(d.hand(1 - p)) == len(g.hand(1 - p))
    assert sorted(d.hand(1 - p) + tuple(d._clan_deck)) == sorted(g.hand(1 - p) + tuple(g._clan_deck))
    assert set(d.legal_moves()) == set(g.legal_moves())
    assert d.hand(1 - p) != g.hand(1 - p) or d._clan_deck != g._clan_deck
    assert d.seed is None and d.log == []


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), options=OPTIONS)
def test_determinized_games_are_consistent_and_playable(seed, options):
    g = Game.new(seed, options)
    rng = random.Random(seed)
    while not g.is_over and g.version < 40:
        g.apply(rng.choice(g.legal_moves()))
    if g.is_over:
        return
    p = g.current_player
    d = sample_game(g.view(p), rng)
    assert every_card(d) == full_set(options)
    assert d.view(p).hand == g.view(p).hand and d.stones == g.stones
    assert set(d.legal_moves()) == set(g.legal_moves())
    random_game_from(d, rng)


def test_from_view_with_the_real_hidden_cards_is_the_game():
    g = Game.new(5)
    for _ in range(12):
        g.apply(g.forced_move() or g.legal_moves()[0])
    p = g.current_player
    view = g.view(p)
    d = Game.from_view(
        view, opponent_hand=list(g.hand(1 - p)), clan_deck=g._clan_deck, tactic_deck=g._tactic_deck
    )
    # The same view but for the history: the game has no log (and so version 0).
    assert dataclasses.replace(d.view(p), last_moves=view.last_moves, version=view.version) == view
    assert d.view(1 - p).hand == g.hand(1 - p) and d.to_dict()["decks"] == g.to_dict()["decks"]
    assert d.legal_moves() == g.legal_moves()


def test_from_view_refuses_hidden_cards_that_do_not_fit():
    g = Game.new(5)
    view = g.view(0)
    hand, deck = list(g.hand(1)), g._clan_deck
    with pytest.raises(ValueError, match="decks"):
        Game.from_view(view, opponent_hand=hand, clan_deck=deck[1:], tactic_deck=[])
    with pytest.raises(ValueError, match="opponent"):
        Game.from_view(view, opponent_hand=hand[1:], clan_deck=deck, tactic_deck=[])

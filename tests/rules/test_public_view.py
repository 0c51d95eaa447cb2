"""The public view: what everybody may see, the same from either player's view."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.cards import parse_card
from rules.game import Game, GameOptions
from rules.moves import Draw, Scout, ScoutReturn
from rules.positions import position
from rules.view import PlayerView, PublicView

CONFIGS = [
    GameOptions(),
    GameOptions(tactics=True),
    GameOptions(ruleset="battle-line"),
    GameOptions(ruleset="battle-line", tactics=True, claim_timing="turn-start"),
]


def test_a_public_view_has_no_hand_and_no_viewer() -> None:
    fields = {f.name for f in dataclasses.fields(PublicView)}
    assert not fields & {"hand", "player", "known_deck_cards", "opponent_known_cards", "_legal"}
    assert {"hand_sizes", "hand_tactics", "stones", "deck_sizes", "last_moves"} <= fields
    # Everything else a player view holds is there.
    hidden = {"hand", "player", "known_deck_cards", "opponent_known_cards", "_legal"}
    hidden |= {"opponent_hand_size", "opponent_hand_tactics"}  # as hand_sizes, hand_tactics
    assert {f.name for f in dataclasses.fields(PlayerView)} - hidden <= fields


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: f"{o.ruleset}-{o.tactics}")
def test_both_players_see_the_same_public_view_at_every_position(options: GameOptions) -> None:
    for seed in range(3):
        game = Game.new(seed=seed, options=options)
        rng = random.Random(seed)
        while True:
            public = game.public_view()
            assert game.view(0).public() == public == game.view(1).public()
            assert public.hand_sizes == (len(game.hand(0)), len(game.hand(1)))
            assert public.version == game.version and public.stones == game.stones
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_moves()))


def test_a_scout_return_is_hidden_even_from_its_player() -> None:
    c = parse_card
    game = position(
        hands=("Scout R1 R2", "G1"),
        clan_deck="B1 B2 B3",
        tactic_deck="Fog Mud",
        options=GameOptions(tactics=True),
    )
    game.apply(Scout())
    for _ in range(3):
        game.apply(Draw("clan"))
    game.apply(ScoutReturn((c("R1"), c("R2"))))
    assert game.view(0).last_moves[-1] == (0, ScoutReturn((c("R1"), c("R2"))))
    assert game.view(0).public().last_moves[-1] == (0, None) == game.public_view().last_moves[-1]
    assert game.public_view().hand_tactics == (0, 0) and game.public_view().hand_sizes == (3, 1)

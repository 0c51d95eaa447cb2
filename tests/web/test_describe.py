"""``describe_board`` on engine games with tactics (which simcord's DM turns do not play):
terrain, formations, owners, decks, and nothing of a hand."""

from __future__ import annotations

import random
import re

from bot.text import i18n
from bot.text.notation import card_text
from bot.web.describe import describe_board
from rules.game import Game
from rules.values import GameOptions

NAMES = ("Ann", "Ben")
WORD = re.compile(r"[^\s:;,()]+")


def test_every_stone_terrain_and_formation_is_described_and_no_hand_card():
    seen_terrain = seen_formation = seen_owner = False
    for seed in range(6):
        game = Game.new(seed, GameOptions(tactics=True), 0)
        rng = random.Random(seed)
        while not game.is_over:
            public = game.public_view()
            lines = describe_board(public, NAMES, "status")
            assert lines[0] == "status" and len(lines) >= 1 + len(public.stones) + 3
            on_board = {card_text(c) for s in public.stones for side in s.sides for c in side}
            on_board |= {card_text(c) for s in public.stones for c, _ in s.terrain}
            on_board |= {card_text(c) for _, c in public.discards}
            hands = {card_text(c) for seat in (0, 1) for c in game.hand(seat)}
            words = set(WORD.findall(" ".join(lines)))
            assert not (hands - on_board) & words, "a hand card in the description"
            for stone, line in zip(public.stones, lines[1:], strict=False):
                assert line.startswith(f"Stone {stone.number}: Ann: ")
                for seat in (0, 1):
                    for card in stone.sides[seat]:
                        assert card_text(card) in line
                for card, _ in stone.terrain:
                    assert "terrain: " in line and card_text(card) in line
                    seen_terrain = True
                if stone.owner is not None:
                    assert line.endswith(f"claimed by {NAMES[stone.owner]}")
                    seen_owner = True
                else:
                    assert line.endswith("not claimed")
                seen_formation |= bool(
                    re.search(r"\((sum|run|colour|three of a kind|colour run), \d+\)", line)
                )
            clan, tactic = public.deck_sizes
            assert f"Clan deck: {clan} cards; tactics deck: {tactic} cards" in lines
            assert f"Ann holds {public.hand_sizes[0]} card" in " ".join(lines)
            game.apply(rng.choice(game.legal_moves()))
    assert seen_terrain and seen_formation and seen_owner


def test_the_description_speaks_the_viewers_language():
    game = Game.new(1, GameOptions(), 0)
    public = game.public_view()
    with i18n.use("fr"):
        lines = describe_board(public, NAMES, "")
    assert lines[0] == "Borne 1 : Ann : aucune carte ; Ben : aucune carte; non revendiquée"
    assert lines[-3] == f"Pioche : {public.deck_sizes[0]} cartes"
    assert lines[-2] == f"Ann a {public.hand_sizes[0]} cartes en main"

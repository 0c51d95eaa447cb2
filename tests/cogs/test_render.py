"""bot.text.render: the board fits a phone (40 columns) and never shows a hand."""

from __future__ import annotations

import random

import pytest

from bot.text.render import WIDTH, render_board, render_hand, render_last, render_move
from rules.cards import parse_card
from rules.game import Game, GameOptions
from rules.moves import Claim, Draw, Pass, PlayCard
from tests.cogs.helpers import cards_in


def random_games(options: GameOptions, count: int, seed: int):
    rng = random.Random(seed)
    for n in range(count):
        game = Game.new(seed=seed * 1000 + n, options=options)
        yield game
        for _ in range(rng.randrange(10, 200)):
            if game.is_over:
                break
            move = game.forced_move() or rng.choice(game.legal_moves())
            game.apply(move)
            yield game


@pytest.mark.parametrize(
    "options",
    [
        GameOptions(),
        GameOptions(ruleset="battle-line"),
        GameOptions(tactics=True),
        GameOptions(ruleset="battle-line", tactics=True, claim_timing="turn-start"),
    ],
    ids=["base", "battle-line", "tactics", "battle-line-tactics"],
)
def test_board_is_narrow_and_shows_no_hand(options):
    names = ("A-very-long-display-name-indeed", "Bob")
    for game in random_games(options, 6, seed=3):
        hands = {str(c) for p in (0, 1) for c in game.hand(p)}
        for player in (0, 1):
            board = render_board(game.view(player), names, game_id=12345)
            assert max(len(line) for line in board.splitlines()) <= WIDTH, board
            assert not hands & cards_in(board), board


def test_board_layout():
    game = Game.new(seed=7, options=GameOptions())
    while game.version < 12:
        game.apply(game.forced_move() or game.legal_moves()[0])
    view = game.view(0)
    board = render_board(view, ("Alice", "Bob"), game_id=3).splitlines()
    assert board[0] == "Game #3: Schotten-Totten"
    assert board[1].startswith("Bob (")  # the opponent above the stones
    numbers = [str(n) for n in range(1, 10)]
    assert any([s.strip("^v").rstrip("MF") for s in line.split()] == numbers for line in board)
    # Each table card sits in its stone's column.
    for stone in view.stones:
        for card in stone.sides[0]:
            rows = [line for line in board if str(card) in line.split()]
            assert rows, card
            column = rows[0].index(str(card)) // 4
            assert column == stone.number - 1
    assert render_hand(view).split() == sorted(render_hand(view).split(), key=lambda c: parse_card(c).id)


def test_moves_read_as_sentences_and_draws_hide_the_card():
    names = ("Alice", "Bob")
    assert render_move(0, PlayCard(parse_card("R7"), 3), names) == "Alice played R7 at 3"
    assert render_move(1, Claim(4), names) == "Bob claimed stone 4"
    assert render_move(1, Pass(), names) == "Bob passed"
    assert render_move(0, Draw("clan"), names) == "Alice drew a card"
    last = render_last(
        [
            (0, PlayCard(parse_card("R7"), 3)),
            (1, Claim(2)),
            (1, PlayCard(parse_card("G1"), 5)),
            (1, Draw("clan")),
        ],
        names,
    )
    assert last == "Bob claimed stone 2; Bob played G1 at 5"

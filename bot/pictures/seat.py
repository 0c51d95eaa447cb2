"""A player's own picture: the board from their side with their hand below it, for their
DM and their private replies.

One picture rather than two attachments: Discord lays two images out side by side, each
half as wide, which on a phone makes the board unreadable. The board is drawn from a
:class:`rules.view.PublicView` only (:func:`bot.pictures.board.draw_board` refuses
anything else); the hand is the ``cards`` given, which the caller takes from the
owner's own view, for the owner's eyes only.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.pictures import theme
from bot.pictures.board import draw_board
from bot.pictures.hand import draw_hand
from rules.cards import Card
from rules.view import PublicView


def draw_seat(
    public: PublicView,
    names: Sequence[str],
    cards: Sequence[Card],
    *,
    bottom: int,
    game_id: int | None = None,
    you: int | None = None,
) -> Image.Image:
    """The board (``bottom`` below the stones) with the hand ``cards`` centred under it."""
    board = draw_board(public, names, bottom=bottom, game_id=game_id, you=you)
    hand = draw_hand(cards)
    width = max(board.width, hand.width)
    image = Image.new("RGB", (width, board.height + hand.height), theme.BACKGROUND)
    image.paste(board, ((width - board.width) // 2, 0))
    image.paste(hand, ((width - hand.width) // 2, board.height))
    return image


def seat_png(
    public: PublicView,
    names: Sequence[str],
    cards: Sequence[Card],
    *,
    bottom: int,
    game_id: int | None = None,
    you: int | None = None,
) -> bytes:
    """:func:`draw_seat` as PNG bytes."""
    return theme.png(draw_seat(public, names, cards, bottom=bottom, game_id=game_id, you=you))


__all__ = ["draw_seat", "seat_png"]

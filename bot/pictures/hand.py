"""A player's hand as a picture, for their private reply or DM.

It takes the cards explicitly (the owner's, which the caller has from their own
:class:`rules.view.PlayerView`), never a view: what it draws is exactly what it is
given. The cards are sorted as the text hand is (:func:`bot.text.render.sort_hand`) and
labelled in the same notation (``R7``, ``Leader``) in the current language.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PIL import Image, ImageDraw

from bot.pictures import theme
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.render import card_text, short_card, sort_hand
from rules.cards import Card, ClanCard

MAX_WIDTH = 800
PER_ROW = 4  # cards a row: a hand of 7 in two rows, wide enough for legible names
CARD_W = 180
CARD_H = 124
GAP = 10
EMPTY_SIZE = 24


def draw_hand(cards: Sequence[Card]) -> Image.Image:
    """The cards in rows of :data:`PER_ROW`: each shows its colour and its label big, a
    tactic card its full name under its short one. Every text is legible at Discord's
    preview width (:func:`bot.pictures.theme.smallest_text` of the widest hand)."""
    ordered = sort_hand(cards)
    if not ordered:
        text = t("picture.empty_hand")
        width = theme.measure(text, EMPTY_SIZE) + 2 * 24
        image = Image.new("RGB", (min(width, MAX_WIDTH), 64), theme.BACKGROUND)
        theme.paste_text(image, (24, 32), text, EMPTY_SIZE, theme.MUTED)
        return image
    columns = min(PER_ROW, len(ordered))
    rows = -(-len(ordered) // PER_ROW)
    width = GAP + columns * (CARD_W + GAP)
    image = Image.new("RGB", (width, GAP + rows * (CARD_H + GAP)), theme.BACKGROUND)
    language = i18n.current()
    for index, card in enumerate(ordered):
        tile = theme.sprite(("hand", language, card.id), partial(_card, card))
        row, column = divmod(index, PER_ROW)
        image.paste(tile, (GAP + column * (CARD_W + GAP), GAP + row * (CARD_H + GAP)), tile)
    return image


def hand_png(cards: Sequence[Card]) -> bytes:
    """:func:`draw_hand` as PNG bytes."""
    return theme.png(draw_hand(cards))


SMALLEST = theme.smallest_text(GAP + PER_ROW * (CARD_W + GAP))


def _card(card: Card) -> Image.Image:
    tile = Image.new("RGBA", (CARD_W, CARD_H))
    draw = ImageDraw.Draw(tile)
    x0, y0, x1, y1 = box = (0, 0, CARD_W - 1, CARD_H - 1)
    fill, edge, ink = theme.card_colours(card)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=edge, width=3)
    if isinstance(card, ClanCard):
        label = card_text(card)
        # The label in the corner, as on a printed card, and big in the middle.
        draw.text((x0 + 10, y0 + 6), label, font=theme.font(SMALLEST, bold=True), fill=ink)
        theme.centred_text(draw, (x0, y0 + 20, x1, y1), label, size=56, smallest=SMALLEST, fill=ink)
        return tile
    theme.centred_text(
        draw, (x0, y0 + 6, x1, y0 + 56), short_card(card), size=40, smallest=SMALLEST, fill=ink
    )
    lines = theme.wrap(card_text(card), SMALLEST, x1 - x0 - 12, bold=True)[:2]
    y = y1 - 22 - 28 * (len(lines) - 1)
    for line in lines:
        draw.text(((x0 + x1) / 2, y), line, font=theme.font(SMALLEST, bold=True), fill=ink, anchor="mm")
        y += 28
    return tile

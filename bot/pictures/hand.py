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
CARD_W = 100
CARD_H = 140
GAP = 10


def draw_hand(cards: Sequence[Card]) -> Image.Image:
    """The cards side by side, as large as 800 pixels allow: each shows its colour and
    its label big, a tactic card its full name under its short one."""
    ordered = sort_hand(cards)
    if not ordered:
        face = theme.font(24)
        text = t("picture.empty_hand")
        width = int(face.getlength(text)) + 2 * 24
        image = Image.new("RGB", (min(width, MAX_WIDTH), 64), theme.BACKGROUND)
        ImageDraw.Draw(image).text((24, 32), text, font=face, fill=theme.MUTED, anchor="lm")
        return image
    card_w = min(CARD_W, (MAX_WIDTH - GAP) // len(ordered) - GAP)
    width = GAP + len(ordered) * (card_w + GAP)
    image = Image.new("RGB", (width, CARD_H + 2 * GAP), theme.BACKGROUND)
    language = i18n.current()
    for index, card in enumerate(ordered):
        tile = theme.sprite(("hand", language, card.id, card_w), partial(_card, card, card_w))
        image.paste(tile, (GAP + index * (card_w + GAP), GAP), tile)
    return image


def hand_png(cards: Sequence[Card]) -> bytes:
    """:func:`draw_hand` as PNG bytes."""
    return theme.png(draw_hand(cards))


def _card(card: Card, width: int) -> Image.Image:
    tile = Image.new("RGBA", (width, CARD_H))
    draw = ImageDraw.Draw(tile)
    x0, y0, x1, y1 = box = (0, 0, width - 1, CARD_H - 1)
    fill, edge, ink = theme.card_colours(card)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=edge, width=3)
    if isinstance(card, ClanCard):
        label = card_text(card)
        # The label in the corner, as on a printed card, and big in the middle.
        draw.text((x0 + 8, y0 + 6), label, font=theme.font(20, bold=True), fill=ink)
        theme.centred_text(draw, (x0, y0 + 30, x1, y1 - 10), label, size=44, fill=ink)
        return tile
    theme.centred_text(draw, (x0, y0 + 20, x1, y0 + 80), short_card(card), size=36, fill=ink)
    name = card_text(card)
    lines = theme.wrap(name, 17, x1 - x0 - 10, bold=True)
    if len(lines) == 1:  # one word too long for a line: shrink it instead
        size = theme.fitting_size(name, 17, x1 - x0 - 10, bold=True)
        lines = [name]
    else:
        size = 17
    y = y1 - 16 - 20 * (len(lines) - 1)
    for line in lines:
        draw.text(((x0 + x1) / 2, y), line, font=theme.font(size, bold=True), fill=ink, anchor="mm")
        y += 20
    return tile

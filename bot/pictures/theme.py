"""What the pictures look like: colours, fonts, and the small drawing helpers both
pictures share.

The fonts are shipped in ``fonts/`` (DejaVu Sans Condensed, cut down to the characters
in :data:`COVERED`; ``fonts/README.md``) for every text of the catalogue; names in other
scripts and emoji come from the system's Noto fonts (:mod:`bot.pictures.lettering`).
Each thread loads its own font objects: a FreeType face is not meant to be used by two
threads at once, and renders run in a thread pool.

Every text is at least :data:`LEGIBLE` pixels tall once the picture is shown
:data:`PREVIEW` pixels wide (Discord's preview), see :func:`smallest_text`, and every
text colour has a WCAG AA contrast (4.5:1) on what it is drawn on (:data:`TEXT_PAIRS`).
"""

from __future__ import annotations

import io
import math
import threading
import unicodedata
from collections.abc import Callable, Hashable
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.pictures import lettering
from rules.cards import Card, ClanCard, Tactic, TacticCard, TacticKind

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"

#: The code points the shipped fonts draw (the ranges they were cut to).
COVERED: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E),
    (0xA0, 0xFF),
    (0x100, 0x17F),
    (0x218, 0x21B),
    (0x370, 0x3FF),
    (0x400, 0x45F),
    (0x2010, 0x2027),
    (0x2030, 0x203A),
    (0x20AC, 0x20AC),
    (0x2190, 0x2193),
    (0x25B2, 0x25BC),
)

RGB = tuple[int, int, int]

BACKGROUND: RGB = (31, 35, 42)
PANEL: RGB = (45, 51, 61)
TURN_PANEL: RGB = (66, 54, 16)
GOLD: RGB = (246, 196, 52)
TEXT: RGB = (238, 238, 238)
MUTED: RGB = (166, 172, 182)
DARK_TEXT: RGB = (28, 28, 30)
SLOT: RGB = (64, 71, 83)
STONE: RGB = (156, 160, 168)
STONE_CLAIMED: RGB = (240, 240, 240)
HIGHLIGHT: RGB = (64, 226, 255)
TACTIC_CARD: RGB = (238, 228, 204)
TACTIC_EDGE: RGB = (150, 118, 60)
MUD: RGB = (125, 86, 50)
FOG: RGB = (176, 190, 208)
MUD_TINT: RGB = (52, 45, 40)
FOG_TINT: RGB = (44, 52, 62)

DIM = 0.65  # how far a stone's losing cards fade into the background (their text stays TEXT)

PREVIEW = 400  # how wide Discord shows a picture in a channel, in pixels
LEGIBLE = 12  # the smallest text height there, in pixels


def smallest_text(width: int) -> int:
    """The smallest font size a picture ``width`` pixels wide may use."""
    return math.ceil(LEGIBLE * width / PREVIEW)


#: Each clan colour's fill, and whether its letter is written dark (on a light fill).
CLAN_COLOURS: dict[str, tuple[RGB, bool]] = {
    "R": ((196, 32, 32), False),
    "O": ((247, 127, 0), True),
    "Y": ((252, 214, 70), True),
    "G": ((24, 122, 50), False),
    "B": ((30, 96, 214), False),
    "P": ((128, 50, 196), False),
}

#: A card of each look (a clan colour, a morale card, each terrain), for the palette.
CARD_SAMPLES: tuple[Card, ...] = (
    *(ClanCard(colour, 1) for colour in "ROYGBP"),
    TacticCard(Tactic.LEADER),
    TacticCard(Tactic.FOG),
    TacticCard(Tactic.MUD),
)

_local = threading.local()


def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped font at ``size`` pixels, loaded once per thread."""
    fonts: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = {}
    found = fonts.get((size, bold))
    if found is None:
        found = fonts[(size, bold)] = ImageFont.truetype(
            str(BOLD if bold else REGULAR), size, layout_engine=ImageFont.Layout.BASIC
        )
    return found


def covered(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in COVERED)


NAME_LENGTH = 64  # characters of a name kept (Discord's are at most 32)
_KEPT_FORMATS = {"\u200c", "\u200d"}  # the joiners, which emoji and Arabic need


def clean(name: str) -> str:
    """A member's name for a picture: control and format characters (direction
    overrides among them) dropped, spaces collapsed, bounded; every script kept
    (:mod:`bot.pictures.lettering` draws it); ``?`` only if nothing is left."""
    kept = "".join(
        char
        for char in name[:NAME_LENGTH]
        if char in _KEPT_FORMATS or unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs", "Cn")
    )
    return " ".join(kept.split()) or "?"


def measure(text: str, size: int, *, bold: bool = False) -> int:
    """How wide ``text`` is drawn (in every script: see :func:`text_tile`)."""
    if all(covered(char) for char in text):
        return math.ceil(font(size, bold=bold).getlength(text))
    return text_tile(text, size, TEXT, bold=bold).width


def fit(text: str, size: int, width: int, *, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to at most ``width`` pixels."""
    if measure(text, size, bold=bold) <= width:
        return text
    while text and measure(text + "…", size, bold=bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def fitting_size(text: str, size: int, width: int, *, smallest: int, bold: bool = False) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` is
    ``width`` wide or less (``smallest`` if none is)."""
    while size > smallest and measure(text, size, bold=bold) > width:
        size -= 1
    return size


def wrap(text: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width`` pixels; a word wider than a line is broken."""
    if measure(text, size, bold=bold) <= width:
        return [text]
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if current and measure(candidate, size, bold=bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
        while measure(current, size, bold=bold) > width and len(current) > 1:
            cut = len(current) - 1
            while cut > 1 and measure(current[:cut], size, bold=bold) > width:
                cut -= 1
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    return lines


def mix(colour: RGB, other: RGB, amount: float) -> RGB:
    """``colour`` moved ``amount`` (0-1) of the way towards ``other``."""
    r, g, b = (round(a + (o - a) * amount) for a, o in zip(colour, other, strict=True))
    return (r, g, b)


def card_colours(card: Card, *, dim: bool = False) -> tuple[RGB, RGB, RGB]:
    """A card's fill, edge and text colours; ``dim``: a stone's loser's card, faded
    into the background with light text."""
    if dim:
        fill, edge, _ = card_colours(card)
        return mix(fill, BACKGROUND, DIM), mix(edge, BACKGROUND, DIM), TEXT
    if isinstance(card, ClanCard):
        fill, dark = CLAN_COLOURS[card.colour]
        return fill, mix(fill, (0, 0, 0), 0.35), DARK_TEXT if dark else TEXT
    assert isinstance(card, TacticCard)
    if card.kind is TacticKind.TERRAIN:
        fill = MUD if card.tactic.name == "MUD" else FOG
        return fill, mix(fill, (0, 0, 0), 0.35), TEXT if fill == MUD else DARK_TEXT
    return TACTIC_CARD, TACTIC_EDGE, DARK_TEXT


def centred_text(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    *,
    size: int,
    smallest: int,
    fill: RGB,
    bold: bool = True,
) -> None:
    """``text`` (a catalogue text) in the middle of ``box``, shrunk to fit its width,
    down to ``smallest``."""
    x0, y0, x1, y1 = box
    size = fitting_size(text, size, x1 - x0 - 6, smallest=smallest, bold=bold)
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, font=font(size, bold=bold), fill=fill, anchor="mm")


def sprite(key: Hashable, make: Callable[[], Image.Image]) -> Image.Image:
    """The picture part ``make()`` draws (a card, a stone), made once and pasted after:
    drawing text is most of a picture's time. ``key`` names everything the part depends
    on, the language included. Two threads may both make a part at first; either copy
    is kept, and a made part is only read."""
    found = _sprites.get(key)
    if found is None:
        found = _sprites[key] = make()
    return found


_sprites: dict[Hashable, Image.Image] = {}


def text_tile(text: str, size: int, fill: RGB, *, bold: bool = False) -> Image.Image:
    """``text`` on a transparent tile as tall as the font's line, kept: names and counts
    come back on every board of a game. Any script: what the shipped font lacks is
    drawn by :func:`bot.pictures.lettering.render`. At most :data:`TEXT_TILES` are kept
    (names change; they are dropped all at once when full)."""
    key = (text, size, fill, bold)
    found = _text_tiles.get(key)
    if found is None:
        if len(_text_tiles) >= TEXT_TILES:
            _text_tiles.clear()
        face = font(size, bold=bold)
        if all(covered(char) for char in text):
            ascent, descent = face.getmetrics()
            found = Image.new("RGBA", (max(1, math.ceil(face.getlength(text))), ascent + descent))
            ImageDraw.Draw(found).text((0, ascent), text, font=face, fill=fill, anchor="ls")
        else:
            found = lettering.render(text, size, fill, face, covered, bold=bold)
        _text_tiles[key] = found
    return found


TEXT_TILES = 2048
_text_tiles: dict[tuple[str, int, RGB, bool], Image.Image] = {}


def paste_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    bold: bool = False,
    anchor: str = "lm",
) -> None:
    """:func:`text_tile` pasted at ``xy``: ``anchor`` "lm" (left, middle of the line),
    "rm" (right), "mm" (centred) or "la" (left, top)."""
    tile = text_tile(text, size, fill, bold=bold)
    x, y = xy
    if anchor[0] == "r":
        x -= tile.width
    elif anchor[0] == "m":
        x -= tile.width / 2
    if anchor[1] == "m":
        y -= tile.height / 2
    image.paste(tile, (round(x), round(y)), tile)


#: Every text colour on every colour it is written on (cards aside: :func:`card_colours`,
#: plain and dimmed): each has a WCAG AA contrast (tests/bot/test_picture_legibility.py).
TEXT_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    (TEXT, PANEL),  # a player's name
    (TEXT, TURN_PANEL),
    (MUTED, PANEL),  # a player's counts
    (MUTED, TURN_PANEL),
    (DARK_TEXT, GOLD),  # "to play", "winner"
    (TEXT, BACKGROUND),  # the lines under the board, the hand
    (MUTED, BACKGROUND),
    (GOLD, BACKGROUND),
    (DARK_TEXT, STONE),  # a stone's number
    (DARK_TEXT, STONE_CLAIMED),
    (DARK_TEXT, GOLD),  # a claimed stone's check
)

#: Shapes and their edges (no text), for the palette's antialiasing ramps.
SHAPE_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    (GOLD, TURN_PANEL),
    (HIGHLIGHT, BACKGROUND),
    (HIGHLIGHT, MUD_TINT),
    (HIGHLIGHT, FOG_TINT),
    (STONE, BACKGROUND),
    (STONE_CLAIMED, BACKGROUND),
    (GOLD, STONE_CLAIMED),
    (GOLD, BACKGROUND),
    (GOLD, MUD_TINT),
    (GOLD, FOG_TINT),
    (SLOT, BACKGROUND),
    (SLOT, MUD_TINT),
    (SLOT, FOG_TINT),
    (PANEL, BACKGROUND),
    (TURN_PANEL, BACKGROUND),
    (mix(STONE, (0, 0, 0), 0.4), STONE),
    (STONE, MUD_TINT),
    (STONE, FOG_TINT),
    (STONE_CLAIMED, MUD_TINT),
    (STONE_CLAIMED, FOG_TINT),
)


def contrast(ink: RGB, ground: RGB) -> float:
    """The WCAG 2 contrast ratio of two colours (1 to 21)."""

    def luminance(colour: RGB) -> float:
        def channel(value: int) -> float:
            v = value / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(value) for value in colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(ink), luminance(ground)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@cache
def palette() -> Image.Image:
    """The pictures' one palette: every colour of the theme, each card's colours dimmed,
    and the shades antialiased text and edges take between a colour and what lies under
    it. Mapping a picture onto a fixed palette costs a millisecond; choosing a palette
    per picture (median cut, octree) ten times more."""
    colours: list[RGB] = []

    def add(colour: RGB) -> None:
        if colour not in colours:
            colours.append(colour)

    def ramp(ink: RGB, under: RGB, steps: int = 4) -> None:
        for step in range(steps + 1):
            add(mix(ink, under, step / steps))

    for card in CARD_SAMPLES:
        for dim in (False, True):
            fill, edge, ink = card_colours(card, dim=dim)
            ramp(ink, fill)  # Pillow antialiases text, not shapes: a shape's edge is one colour
            add(edge)
    for ink, under in (*TEXT_PAIRS, *SHAPE_PAIRS):
        ramp(ink, under)
    assert len(colours) <= 256, len(colours)
    image = Image.new("P", (1, 1))
    image.putpalette([value for colour in colours for value in colour])
    return image


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes: mapped onto the theme's :func:`palette` (no dithering: the
    pictures are flat colours and text), then compressed."""
    paletted = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", compress_level=3)
    return out.getvalue()

"""The board as a picture, drawn from a :class:`rules.view.PublicView` only.

The picture takes nothing with a hand in it: whatever a caller holds, the hidden cards
cannot reach the pixels. It is the text board (:func:`bot.text.render.render_board`)
drawn: the same orientation (``bottom`` below the stones), the same card notation in the
current language, the same catalogue texts.

Layout, 800 pixels wide (about 750 high; 3 card slots a side, 4 once
a stone has Mud)::

    [ Bob  (to play)                                     ]   the top player's bar
    [ 6 cards in hand · 1 stone                          ]
      card slots of the top player, the first played nearest the stones
      (1) (2) (3) ...  the stones
      card slots of the bottom player
    [ Alice                                              ]
    [ 5 cards in hand · 2 stones                         ]
    Game #12: Schotten-Totten · Deck: 38
    ■ Last: Bob played B3 at 3                 (the same cyan marks it on the board)

Legible in a channel: shown 400 pixels wide (Discord's preview) every text is at least
12 pixels tall (:func:`bot.pictures.theme.smallest_text`: 24 here). The player to play
has a gold bar. A claimed stone is white with a gold ring, a gold check and a gold
arrow pointing at its owner, and its owner's cards there are framed in gold (shape,
not colour alone); its loser's cards are dimmed. A stone's Mud or Fog tints its column
and is named on the stone. Everything the last turn did (a card played, a stone claimed,
a terrain placed) is outlined in cyan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from PIL import Image, ImageDraw

from bot.pictures import lettering, theme
from bot.pictures.theme import RGB
from bot.text import i18n
from bot.text.catalogue import t
from bot.text.render import card_text, last_turn, render_last, render_result, short_card
from rules.cards import Card, Tactic, TacticCard, TacticKind
from rules.moves import Claim, Deserter, PlayCard, Redeploy, Traitor
from rules.rulesets import get_ruleset
from rules.view import PublicView, StoneView

WIDTH = 800
SMALLEST = theme.smallest_text(WIDTH)  # 24: 12 pixels at 400 wide
MARGIN = 13  # left and right of the nine columns
COLUMN = 86  # one stone's column
CARD_W = 78
CARD_H = 46
PITCH = 51  # from one card slot to the next
CARD_SIZE = 30  # the card label's font size
BAR_H = 84  # two lines: the name (and "to play"), the counts
NAME_SIZE = 28
STONE_ROW = 128  # Fog's badge, the stone, Mud's badge
STONE_W = 62
STONE_H = 44
BADGE_H = 30
ARROW = 12  # how far a claimed stone's arrow reaches towards its owner
INFO_SIZE = SMALLEST
LINE_H = 32
GAP = 8


@dataclass(frozen=True, slots=True)
class Highlights:
    """What the last turn changed on the board, to outline."""

    cards: frozenset[tuple[int, int, Card]]  # (stone, side, card)
    stones: frozenset[int]
    terrain: frozenset[tuple[int, Tactic]]  # (stone, FOG or MUD)


def highlights(public: PublicView) -> Highlights:
    """The cards, stones and terrain the latest turn played, claimed or moved (draws and
    a Scout's return change nothing on the table)."""
    cards: set[tuple[int, int, Card]] = set()
    stones: set[int] = set()
    terrain: set[tuple[int, Tactic]] = set()
    found = last_turn(public.last_moves)
    if found is not None:
        player, turn = found
        for move in turn:
            placed: tuple[Card, int] | None = None
            if isinstance(move, PlayCard):
                placed = (move.card, move.stone)
            elif isinstance(move, Claim):
                stones.add(move.stone)
            elif isinstance(move, Redeploy):
                if move.to_stone is None:
                    stones.add(move.from_stone)
                else:
                    placed = (move.card, move.to_stone)
            elif isinstance(move, Traitor):
                placed = (move.card, move.to_stone)
            elif isinstance(move, Deserter):
                stones.add(move.stone)
            if placed is not None:
                card, stone = placed
                if isinstance(card, TacticCard) and card.kind is TacticKind.TERRAIN:
                    terrain.add((stone, card.tactic))
                else:
                    cards.add((stone, player, card))
    return Highlights(frozenset(cards), frozenset(stones), frozenset(terrain))


@dataclass(frozen=True, slots=True)
class _Line:
    text: str
    colour: RGB
    bold: bool = False
    marker: RGB | None = None  # a small square before the line (the highlight's colour)


def draw_board(
    public: PublicView,
    names: Sequence[str] = ("Player 1", "Player 2"),
    *,
    bottom: int = 0,
    game_id: int | None = None,
    you: int | None = None,
) -> Image.Image:
    """The board as an RGB image, ``bottom``'s side below the stones (the channel's
    picture: the first player's; a player's own: theirs). ``names``: player 0's and
    player 1's display names; ``you``: the player addressed as "you" in the texts (see
    :func:`bot.text.render.render_result`). Texts are in the current language."""
    if not isinstance(public, PublicView):  # the guarantee is the type: refuse anything else
        raise TypeError(f"draw_board takes a PublicView, not {type(public).__name__}")
    names = [theme.clean(name) for name in names]
    top = 1 - bottom
    slots = (
        4
        if any(s.mud is not None or len(s.sides[0]) > 3 or len(s.sides[1]) > 3 for s in public.stones)
        else 3
    )
    side_h = slots * PITCH + 10
    # In the sentences under the board each name keeps its own direction.
    info = _info_lines(public, [lettering.isolate(name) for name in names], game_id, you)
    info_lines = [
        (line, wrapped)
        for line in info
        for wrapped in theme.wrap(line.text, INFO_SIZE, WIDTH - 2 * MARGIN - 24, bold=line.bold)
    ]
    y_top_bar = GAP
    y_top_side = y_top_bar + BAR_H
    y_stones = y_top_side + side_h
    y_bottom_side = y_stones + STONE_ROW
    y_bottom_bar = y_bottom_side + side_h
    y_info = y_bottom_bar + BAR_H + GAP
    height = y_info + LINE_H * len(info_lines) + GAP

    image = Image.new("RGB", (WIDTH, height), theme.BACKGROUND)
    draw = ImageDraw.Draw(image)
    marks = highlights(public)
    for index, stone in enumerate(public.stones):
        x0 = MARGIN + index * COLUMN
        _terrain_tint(draw, stone, x0, y_top_side + 2, y_bottom_side + side_h - 2)
        _side(image, draw, stone, top, x0, y_top_side, side_h=side_h, top=True, marks=marks)
        _side(image, draw, stone, bottom, x0, y_bottom_side, side_h=side_h, top=False, marks=marks)
        _stone(image, draw, stone, bottom, x0, y_stones, marks=marks)
    _bar(image, draw, public, names, top, y_top_bar)
    _bar(image, draw, public, names, bottom, y_bottom_bar)
    y = y_info
    shown: set[int] = set()
    for line, text in info_lines:
        x = MARGIN
        if line.marker is not None and id(line) not in shown:
            draw.rounded_rectangle((x, y + 8, x + 16, y + 24), radius=3, outline=line.marker, width=3)
        shown.add(id(line))
        theme.paste_text(image, (x + 24, y + LINE_H / 2), text, INFO_SIZE, line.colour, bold=line.bold)
        y += LINE_H
    return image


def board_png(
    public: PublicView,
    names: Sequence[str] = ("Player 1", "Player 2"),
    *,
    bottom: int = 0,
    game_id: int | None = None,
    you: int | None = None,
) -> bytes:
    """:func:`draw_board` as PNG bytes (on the theme's palette)."""
    return theme.png(draw_board(public, names, bottom=bottom, game_id=game_id, you=you))


# ------------------------------------------------------------------ the parts


def _bar(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    public: PublicView,
    names: Sequence[str],
    player: int,
    y: int,
) -> None:
    """A player's name, whether they are to play (or won), and their counts."""
    box = (MARGIN - 6, y + 3, WIDTH - MARGIN + 6, y + BAR_H - 3)
    current = public.current_player == player and public.result is None
    won = public.result is not None and public.result.winner == player
    if current:
        draw.rounded_rectangle(box, radius=10, fill=theme.TURN_PANEL, outline=theme.GOLD, width=3)
    else:
        draw.rounded_rectangle(box, radius=10, fill=theme.PANEL)
    first = y + 3 + (BAR_H - 6) // 4  # the middle of each line
    second = y + 3 + 3 * (BAR_H - 6) // 4
    x = MARGIN + 6
    room = WIDTH - 2 * MARGIN - 12
    pill = t("picture.to_play") if current else t("picture.winner") if won else None
    pill_width = theme.measure(pill, SMALLEST, bold=True) + 20 if pill is not None else 0
    name = theme.fit(names[player], NAME_SIZE, room - pill_width - 12, bold=True)
    theme.paste_text(image, (x, first), name, NAME_SIZE, theme.TEXT, bold=True)
    x += theme.measure(name, NAME_SIZE, bold=True) + 12
    if pill is not None:
        half = (SMALLEST + 8) // 2
        draw.rounded_rectangle((x, first - half, x + pill_width, first + half), radius=half, fill=theme.GOLD)
        theme.paste_text(image, (x + 10, first), pill, SMALLEST, theme.DARK_TEXT, bold=True)
    owned = sum(1 for stone in public.stones if stone.owner == player)
    counts = [t("picture.cards", n=public.hand_sizes[player])]
    if public.options.tactics:
        counts.append(t("picture.tactics", n=public.tactics_played[player]))
    counts.append(t("picture.stones", n=owned))
    text = theme.fit(" · ".join(counts), SMALLEST, room)
    theme.paste_text(image, (MARGIN + 6, second), text, SMALLEST, theme.MUTED)


def _terrain_tint(draw: ImageDraw.ImageDraw, stone: StoneView, x0: int, y0: int, y1: int) -> None:
    if stone.mud is None and stone.fog is None:
        return
    tint = theme.MUD_TINT if stone.mud is not None else theme.FOG_TINT
    draw.rounded_rectangle((x0 + 2, y0, x0 + COLUMN - 2, y1), radius=8, fill=tint)


def _side(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    stone: StoneView,
    player: int,
    x0: int,
    y_area: int,
    *,
    side_h: int,
    top: bool,
    marks: Highlights,
) -> None:
    """One player's cards at a stone, the first played nearest the stone, and the empty
    slots still to fill while the stone is open."""
    cards = stone.sides[player]
    count = len(cards) if stone.owner is not None else max(stone.needed, len(cards))
    pitch = PITCH
    if count > 1 and (count - 1) * PITCH + CARD_H > side_h - 12:  # more cards than slots: overlap
        pitch = (side_h - 12 - CARD_H) // (count - 1)
    x = x0 + (COLUMN - CARD_W) // 2
    lost = stone.owner is not None and stone.owner != player
    if stone.owner == player:  # the claimed stone's owner: their cards framed in gold
        draw.rounded_rectangle(
            (x0 + 2, y_area + 1, x0 + COLUMN - 2, y_area + side_h - 1), radius=8, outline=theme.GOLD, width=3
        )
    for slot in range(count):
        # The top side's slots grow upwards from the stones, the bottom side's downwards.
        y = y_area + side_h - 6 - CARD_H - slot * pitch if top else y_area + 6 + slot * pitch
        if slot >= len(cards):
            empty = theme.sprite(("slot",), _slot)
            image.paste(empty, (x, y), empty)
            continue
        card = cards[slot]
        tile = theme.sprite(("card", i18n.current(), card.id, lost), partial(_card, card, dim=lost))
        image.paste(tile, (x, y), tile)
        if (stone.number, player, card) in marks.cards:
            outer = (x - 3, y - 3, x + CARD_W + 3, y + CARD_H + 3)
            draw.rounded_rectangle(outer, radius=9, outline=theme.HIGHLIGHT, width=4)


def _slot() -> Image.Image:
    tile = Image.new("RGBA", (CARD_W, CARD_H))
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, CARD_W - 1, CARD_H - 1), radius=7, outline=theme.SLOT, width=2
    )
    return tile


def _card(card: Card, *, dim: bool) -> Image.Image:
    fill, edge, ink = theme.card_colours(card, dim=dim)
    tile = Image.new("RGBA", (CARD_W, CARD_H))
    draw = ImageDraw.Draw(tile)
    box = (0, 0, CARD_W - 1, CARD_H - 1)
    draw.rounded_rectangle(box, radius=7, fill=fill, outline=edge, width=2)
    theme.centred_text(draw, box, short_card(card), size=CARD_SIZE, smallest=SMALLEST, fill=ink)
    return tile


def _stone(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    stone: StoneView,
    bottom: int,
    x0: int,
    y0: int,
    *,
    marks: Highlights,
) -> None:
    """The stone with its number; once claimed white with a gold ring, a gold check
    and a gold arrow at its owner; its Fog (above) and Mud (below) named."""
    cx = x0 + COLUMN // 2
    cy = y0 + STONE_ROW // 2
    claimed = stone.owner is not None
    owner_below = stone.owner == bottom
    tile = theme.sprite(("stone", stone.number, claimed), partial(_stone_tile, stone.number, claimed))
    box = (cx - STONE_W // 2, cy - STONE_H // 2, cx + STONE_W // 2, cy + STONE_H // 2)
    image.paste(tile, box[:2], tile)
    if claimed:
        _claim_marks(draw, box, below=owner_below)
    if stone.number in marks.stones:
        ring = (box[0] - 5, box[1] - 5, box[2] + 5, box[3] + 5)
        draw.ellipse(ring, outline=theme.HIGHLIGHT, width=4)
    for tactic, placed, y in ((Tactic.FOG, stone.fog, y0), (Tactic.MUD, stone.mud, y0 + STONE_ROW - BADGE_H)):
        if placed is None:
            continue
        badge = theme.sprite(("badge", i18n.current(), tactic), partial(_badge, tactic))
        image.paste(badge, (x0 + 4, y), badge)
        if (stone.number, tactic) in marks.terrain:
            outer = (x0 + 1, y - 3, x0 + COLUMN - 1, y + BADGE_H + 3)
            draw.rounded_rectangle(outer, radius=7, outline=theme.HIGHLIGHT, width=3)


def claim_check_centre(box: tuple[int, int, int, int], *, below: bool) -> tuple[int, int]:
    """Where a claimed stone's check sits: on its rim, on its owner's side."""
    _, y0, x1, y1 = box
    return (x1 - 4, y1 - 6 if below else y0 + 6)


def _claim_marks(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], *, below: bool) -> None:
    """A gold check on the stone and a gold arrow from it to its owner's side."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) // 2
    if below:
        draw.polygon([(cx - 12, y1 + 1), (cx + 12, y1 + 1), (cx, y1 + 1 + ARROW)], fill=theme.GOLD)
    else:
        draw.polygon([(cx - 12, y0 - 1), (cx + 12, y0 - 1), (cx, y0 - 1 - ARROW)], fill=theme.GOLD)
    mx, my = claim_check_centre(box, below=below)
    draw.ellipse((mx - 11, my - 11, mx + 11, my + 11), fill=theme.GOLD, outline=theme.DARK_TEXT, width=2)
    draw.line(
        [(mx - 6, my), (mx - 2, my + 5), (mx + 6, my - 5)], fill=theme.DARK_TEXT, width=3, joint="curve"
    )


def _stone_tile(number: int, claimed: bool) -> Image.Image:
    tile = Image.new("RGBA", (STONE_W + 1, STONE_H + 1))
    draw = ImageDraw.Draw(tile)
    box = (0, 0, STONE_W, STONE_H)
    if claimed:
        draw.ellipse(box, fill=theme.STONE_CLAIMED, outline=theme.GOLD, width=4)
    else:
        draw.ellipse(box, fill=theme.STONE, outline=theme.mix(theme.STONE, (0, 0, 0), 0.4), width=2)
    center = (STONE_W / 2, STONE_H / 2)
    draw.text(center, str(number), font=theme.font(28, bold=True), fill=theme.DARK_TEXT, anchor="mm")
    return tile


def _badge(tactic: Tactic) -> Image.Image:
    card = _TERRAIN[tactic]
    fill, _, ink = theme.card_colours(card)
    tile = Image.new("RGBA", (COLUMN - 8, BADGE_H))
    draw = ImageDraw.Draw(tile)
    box = (0, 0, COLUMN - 9, BADGE_H - 1)
    draw.rounded_rectangle(box, radius=5, fill=fill)
    # The card's short name (Mud, Fog: as on a card), which fits a column at a legible size.
    theme.centred_text(draw, box, short_card(card), size=SMALLEST, smallest=SMALLEST, fill=ink)
    return tile


_TERRAIN = {tactic: TacticCard(tactic) for tactic in (Tactic.FOG, Tactic.MUD)}


def _info_lines(
    public: PublicView, names: Sequence[str], game_id: int | None, you: int | None
) -> list[_Line]:
    """The lines under the board: the game and the decks, the last turn, the ruses and
    discards, the result."""
    ruleset = get_ruleset(public.options.ruleset).title
    heading = t("board.title", game_id=game_id, ruleset=ruleset) if game_id is not None else ruleset
    clan, tactic = public.deck_sizes
    decks = (
        t("board.decks", clan=clan, tactic=tactic) if public.options.tactics else t("board.deck", clan=clan)
    )
    lines = [_Line(f"{heading} · {decks}", theme.MUTED)]
    last = render_last(public.last_moves, names)
    if last:
        lines.append(_Line(t("board.last", text=last), theme.TEXT, marker=theme.HIGHLIGHT))
    ruses: list[list[Card]] = [[], []]
    discarded: list[Card] = []
    for owner, card in public.discards:
        if isinstance(card, TacticCard) and card.kind is TacticKind.RUSE:
            ruses[owner].append(card)
        else:
            discarded.append(card)
    for player, played in enumerate(ruses):
        if played:
            cards = " ".join(card_text(c) for c in played)
            text = (
                t("board.your_ruses", cards=cards)
                if player == you
                else t("board.ruses", name=names[player], cards=cards)
            )
            lines.append(_Line(text, theme.MUTED))
    if discarded:
        lines.append(
            _Line(t("board.discarded", cards=" ".join(card_text(c) for c in discarded)), theme.MUTED)
        )
    if public.result is not None:
        result = render_result(public.result, names, you=you)
        lines.append(_Line(t("board.over", result=result), theme.GOLD, bold=True))
    return lines

"""The pictures read in a channel: every text legible at Discord's 400-pixel preview,
every text colour with a WCAG AA contrast, a claimed stone marked by more than where it
stands."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageDraw

from bot.pictures import board, samples, seat, theme
from bot.pictures.board import draw_board
from bot.pictures.hand import draw_hand
from bot.text import i18n
from rules.cards import Tactic, TacticCard, parse_cards
from rules.game import Game, GameOptions
from rules.positions import position

NAMES = ("Alice", "Bob")
CONFIGS = [
    GameOptions(),
    GameOptions(tactics=True),
    GameOptions(ruleset="battle-line"),
    GameOptions(ruleset="battle-line", tactics=True),
]


@pytest.fixture
def drawn_sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The font size of every text drawn from now on (the kept parts are dropped first,
    so that each is drawn again)."""
    sizes: list[int] = []
    original = ImageDraw.ImageDraw.text

    def recording(
        self: ImageDraw.ImageDraw, xy: object, text: object, *args: object, **kwargs: object
    ) -> None:
        face = kwargs.get("font")
        assert face is not None, "every text is drawn with an explicit font"
        if str(text).strip():
            sizes.append(int(face.size))  # type: ignore[attr-defined]
        original(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    monkeypatch.setattr(theme, "_sprites", {})
    monkeypatch.setattr(theme, "_text_tiles", {})
    yield sizes


def smallest_at_preview(sizes: list[int], image: Image.Image) -> float:
    assert sizes, "nothing was drawn"
    return min(sizes) * theme.PREVIEW / image.width


def terrain_game(options: GameOptions) -> Game:
    """A position with Mud and Fog on the table, four cards on the Mud stone (the tallest
    board), a claimed stone each, ruses and discards."""
    battle_line = options.ruleset == "battle-line"
    high = "10" if battle_line else "9"
    return position(
        options=options,
        hands=("Y6 P7 O2 B5 R3 Scout ShieldBearer", "G4 R4 B8 P8 O8 Y8 Traitor"),
        sides={
            1: (f"R7 R8 R{high}", "B2 G5 Y1"),
            2: ("O3 O4 P2", f"G{high} Y9 P9"),
            3: ("B1 B6 B7 B3", "Leader G8 G7 G6"),
            4: ("P5", "O9 R6"),
        },
        owners={1: 0, 2: 1},
        mud={3: 1},
        fog={4: 0},
        discards=((0, "Redeploy"), (1, "G1")),
        tactics_played=(3, 2),
        current=1,
    )


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: f"{o.ruleset}{'+tactics' if o.tactics else ''}")
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_board_text_is_12_pixels_at_400_wide(
    options: GameOptions, language: str, drawn_sizes: list[int]
) -> None:
    game = Game.new(seed=11, options=options)
    rng = random.Random(11)
    for _ in range(30):  # into the game: cards on both sides, perhaps a claim
        if game.is_over:
            break
        game.apply(game.forced_move() or rng.choice(game.legal_moves()))
    with i18n.use(language):
        publics = [game.public_view()]
        if options.tactics:
            publics.append(terrain_game(options).public_view())
        for public in publics:
            drawn_sizes.clear()
            image = draw_board(public, ("Maximiliane-Wilhelmine", "Bob"), bottom=0, game_id=123)
            assert smallest_at_preview(drawn_sizes, image) >= theme.LEGIBLE, (min(drawn_sizes), image.width)
            drawn_sizes.clear()
            hand_cards = game.hand(0)
            mine = seat.draw_seat(public, NAMES, hand_cards, bottom=0, game_id=123)
            assert smallest_at_preview(drawn_sizes, mine) >= theme.LEGIBLE


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_hand_text_is_12_pixels_at_400_wide(language: str, drawn_sizes: list[int]) -> None:
    tactics = [TacticCard(tactic) for tactic in Tactic]
    with i18n.use(language):
        for cards in (tactics[:5], tactics[5:], parse_cards("R1 O9 Y3"), []):
            drawn_sizes.clear()
            image = draw_hand(cards)
            assert smallest_at_preview(drawn_sizes, image) >= theme.LEGIBLE, (language, cards)


def test_the_measure_fails_a_small_text(drawn_sizes: list[int]) -> None:
    """The check above can fail: an old-style 14-pixel badge on an 800-pixel picture."""
    image = Image.new("RGB", (800, 100))
    ImageDraw.Draw(image).text((0, 0), "Mud", font=theme.font(14))
    assert smallest_at_preview(drawn_sizes, image) < theme.LEGIBLE


# ------------------------------------------------------------------ contrast


def test_contrast_is_computed_as_wcag_says() -> None:
    assert theme.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert theme.contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    # The measure: the old muted text on the old gold "to play" bar.
    assert theme.contrast((166, 172, 182), (88, 72, 22)) == pytest.approx(3.9, abs=0.02)


def text_pairs() -> list[tuple[str, theme.RGB, theme.RGB]]:
    pairs = [(f"theme {i}", ink, ground) for i, (ink, ground) in enumerate(theme.TEXT_PAIRS)]
    for card in theme.CARD_SAMPLES:
        for dim in (False, True):
            fill, _, ink = theme.card_colours(card, dim=dim)
            pairs.append((f"{card}{' dimmed' if dim else ''}", ink, fill))
    return pairs


@pytest.mark.parametrize(("where", "ink", "ground"), text_pairs(), ids=lambda v: str(v))
def test_every_text_colour_has_aa_contrast(where: str, ink: theme.RGB, ground: theme.RGB) -> None:
    assert theme.contrast(ink, ground) >= 4.5, where


def test_the_bars_use_the_listed_pairs() -> None:
    """What the bars draw is on the list the contrast test checks: the counts' colour
    on the gold bar's fill."""
    image = draw_board(samples.sample_public(), NAMES, bottom=0)
    assert image.getpixel((board.MARGIN + 2, board.GAP + board.BAR_H // 2)) == theme.TURN_PANEL
    assert (theme.MUTED, theme.TURN_PANEL) in theme.TEXT_PAIRS
    assert (theme.DARK_TEXT, theme.GOLD) in theme.TEXT_PAIRS


# ------------------------------------------------------------------ claims


def stone_box(number: int, y_stones: int) -> tuple[int, int, int, int]:
    x0 = board.MARGIN + (number - 1) * board.COLUMN
    return (x0, y_stones, x0 + board.COLUMN, y_stones + board.STONE_ROW)


def claimed_and_open() -> Game:
    return position(
        hands=("Y6 P7", "G4 R4"),
        sides={1: ("R7 R8 R9", "B2 G5 Y1"), 2: ("O3 O4 P2", "G9 Y9 P9")},
        owners={1: 0, 2: 1},
        current=0,
    )


def stone_oval(cx: int, cy: int) -> tuple[int, int, int, int]:
    return (
        cx - board.STONE_W // 2,
        cy - board.STONE_H // 2,
        cx + board.STONE_W // 2,
        cy + board.STONE_H // 2,
    )


def stones_row_y(public_slots: int = 3) -> int:
    side_h = public_slots * board.PITCH + 10
    return board.GAP + board.BAR_H + side_h


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    data = image.tobytes()
    step = len(image.getbands())
    return [tuple(data[i : i + step]) for i in range(0, len(data), step)]


def gold_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    return sum(1 for pixel in pixels(image.crop(box)) if pixel == theme.GOLD)


@pytest.mark.parametrize("bottom", [0, 1])
def test_a_claimed_stone_has_a_check_an_arrow_and_its_owners_side_framed(bottom: int) -> None:
    public = claimed_and_open().public_view()
    image = draw_board(public, NAMES, bottom=bottom)
    y = stones_row_y()
    side_h = 3 * board.PITCH + 10
    for number, owner in ((1, 0), (2, 1)):
        x0, y0, x1, y1 = stone_box(number, y)
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
        box = (
            cx - board.STONE_W // 2,
            cy - board.STONE_H // 2,
            cx + board.STONE_W // 2,
            cy + board.STONE_H // 2,
        )
        below = owner == bottom
        # The check: a gold disc with a dark tick, on the owner's side of the rim.
        mx, my = board.claim_check_centre(box, below=below)
        disc = (mx - 10, my - 10, mx + 10, my + 10)
        assert gold_pixels(image, disc) > 60
        assert sum(1 for p in pixels(image.crop(disc)) if p == theme.DARK_TEXT) > 10
        # The arrow: gold just past the stone towards the owner, none on the other side.
        towards = (
            (cx - 4, box[3] + 2, cx + 4, box[3] + 8) if below else (cx - 4, box[1] - 8, cx + 4, box[1] - 2)
        )
        away = (cx - 4, box[1] - 8, cx + 4, box[1] - 2) if below else (cx - 4, box[3] + 2, cx + 4, box[3] + 8)
        assert gold_pixels(image, towards) > 20 and gold_pixels(image, away) == 0
        # The owner's cards framed in gold, the other side not.
        owner_area = (x0, y1, x1, y1 + side_h) if below else (x0, y0 - side_h, x1, y0)
        other_area = (x0, y0 - side_h, x1, y0) if below else (x0, y1, x1, y1 + side_h)
        assert gold_pixels(image, owner_area) > 200 and gold_pixels(image, other_area) == 0
    # An open stone has none of it.
    x0, y0, x1, y1 = stone_box(5, y)
    assert gold_pixels(image, (x0, y0 - side_h, x1, y1 + side_h)) == 0


def test_the_claim_marks_are_more_than_colour() -> None:
    """In greyscale (no colour at all) a claimed stone still differs from the same stone
    open, by shapes: its check (a dark tick on a light disc) and its arrow."""
    claimed = position(hands=("Y6", "G4"), sides={3: ("R7 R8 R9", "B2 G5 Y1")}, owners={3: 0}, current=0)
    unclaimed = position(hands=("Y6", "G4"), sides={3: ("R7 R8 R9", "B2 G5 Y1")}, current=0)
    x0, y0, x1, y1 = stone_box(3, stones_row_y())
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    box = stone_oval(cx, cy)
    mx, my = board.claim_check_centre(box, below=True)
    marks = [(mx - 11, my - 11, mx + 11, my + 11), (cx - 12, box[3], cx + 12, box[3] + board.ARROW + 2)]

    def grey(game: Game, area: tuple[int, int, int, int]) -> list[int]:
        image = draw_board(game.public_view(), NAMES, bottom=0).convert("L")
        return [p[0] for p in pixels(image.crop(area))]

    for area in marks:
        changed = sum(
            1 for a, b in zip(grey(claimed, area), grey(unclaimed, area), strict=True) if abs(a - b) > 80
        )
        assert changed > 40, area

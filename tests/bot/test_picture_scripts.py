"""Names in every script on the pictures: Arabic, Hebrew, Chinese, Japanese, Korean and
emoji drawn with the system's Noto fonts (never "?" or empty boxes), right-to-left text
in reading order, and a distinguishable stand-in where no font has a character.

The tests that draw with the system fonts skip with a hint without them, except in CI
(CI=true), where that is a failure: .ci/run installs them.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from bot.pictures import board, lettering, samples, theme
from bot.pictures.board import draw_board
from bot.pictures.cache import PictureCache, PictureKey

NAMES = {
    "arabic": "مريم أحمد",
    "hebrew": "דוד לוי",
    "chinese": "王小明",
    "japanese": "さくら",
    "korean": "김민준",
    "emoji": "Sam 🐉",
}


@pytest.fixture
def fresh_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(theme, "_sprites", {})
    monkeypatch.setattr(theme, "_text_tiles", {})


@pytest.fixture
def system_fonts(fresh_tiles: None) -> Iterator[None]:
    missing = lettering.missing_fonts()
    if missing:
        reason = f"system fonts missing ({', '.join(missing)}): {lettering.INSTALL_HINT}"
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the fonts for names in every script: {reason}", pytrace=False)
        pytest.skip(reason)
    yield


def top_bar(names: tuple[str, str]) -> Image.Image:
    """The top bar (player 1's with bottom=0), where a name is written."""
    image = draw_board(samples.sample_public(), names, bottom=0)
    return image.crop((0, board.GAP, board.WIDTH, board.GAP + board.BAR_H))


def differ(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is not None


@pytest.mark.parametrize("script", list(NAMES))
def test_each_script_is_drawn_by_a_font_that_has_it(script: str, system_fonts: None) -> None:
    name = NAMES[script]
    for bold in (False, True):
        runs = lettering.runs(name, theme.covered, bold)
        drawn = "".join(run.text for run in runs)
        assert drawn == name  # nothing replaced: no placeholder, no "?"
        for run in runs:
            for char in run.text:
                if char != " ":
                    assert (run.face is None and theme.covered(char)) or (
                        run.face is not None and ord(char) in run.face.chars
                    ), (script, char)
    tile = theme.text_tile(name, 28, theme.TEXT, bold=True)
    question = theme.text_tile("?" * len(name), 28, theme.TEXT, bold=True)
    assert tile.getbbox() is not None and differ(tile, question)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("مريم", "דוד"),  # Arabic and Hebrew
        ("王明", "김민"),  # Chinese and Korean
        ("さくら", "サクラ"),  # hiragana and katakana
        ("Sam 🐉", "Sam 🐍"),  # only the emoji differ
        ("Sam 🐉", "Sam"),
    ],
)
def test_names_differing_only_by_script_or_emoji_give_different_pictures(
    one: str, other: str, system_fonts: None
) -> None:
    assert differ(top_bar(("Alice", one)), top_bar(("Alice", other)))


def test_emoji_are_drawn_in_colour(system_fonts: None) -> None:
    tile = theme.text_tile("🐉", 28, theme.TEXT)
    data = tile.tobytes()
    colours = {data[i : i + 3] for i in range(0, len(data), 4) if data[i + 3] > 200}
    assert len(colours) > 5 and tile.height == theme.text_tile("Sam", 28, theme.TEXT).height


@pytest.mark.parametrize("raqm", [True, False])
def test_right_to_left_names_read_right_to_left(
    raqm: bool, system_fonts: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hebrew alef-bet: alef (written first) is drawn on the right, with raqm and
    without it."""
    if raqm and not lettering.RAQM:
        reason = "Pillow has no raqm layout here (it loads the system's FriBiDi): apt-get install libraqm0"
        if os.environ.get("CI"):
            pytest.fail(f"CI needs raqm to shape right-to-left names: {reason}", pytrace=False)
        pytest.skip(reason)
    monkeypatch.setattr(lettering, "RAQM", raqm)
    pair = theme.text_tile("אב", 40, theme.TEXT)
    alef = theme.text_tile("א", 40, theme.TEXT)
    bet = theme.text_tile("ב", 40, theme.TEXT)

    def distance(part: Image.Image, letter: Image.Image) -> int:
        width = min(part.width, letter.width)
        diff = ImageChops.difference(
            part.crop((0, 0, width, part.height)), letter.crop((0, 0, width, letter.height))
        )
        return sum(diff.getchannel("A").tobytes())

    left = pair.crop((0, 0, bet.width, pair.height))
    right = pair.crop((pair.width - alef.width, 0, pair.width, pair.height))
    assert distance(left, bet) < distance(left, alef)
    assert distance(right, alef) < distance(right, bet)


def test_a_name_keeps_its_direction_inside_a_sentence(system_fonts: None) -> None:
    """An Arabic name in an English line stays where the sentence has it: the line reads
    left to right, the name right to left."""
    name = NAMES["arabic"]
    sentence = theme.text_tile(f"Last: {lettering.isolate(name)} played", 28, theme.TEXT)
    alone = theme.text_tile(name, 28, theme.TEXT)
    start = theme.measure("Last: ", 28)
    placed = sentence.crop((start, 0, start + alone.width, sentence.height))
    assert not differ(placed, alone)
    first = theme.text_tile(f"{lettering.isolate(name)}'s ruses", 28, theme.TEXT)  # the name leads
    assert not differ(first.crop((0, 0, alone.width, first.height)), alone)


# ------------------------------------------------------------------ without the fonts


def test_without_the_fonts_a_stand_in_tells_names_apart(
    fresh_tiles: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lettering, "faces", lambda bold: ())
    stand_ins = {
        name: "".join(run.text for run in lettering.runs(name, theme.covered, False))
        for name in NAMES.values()
    }
    assert stand_ins["مريم أحمد"] != "?" and "?" not in "".join(stand_ins.values())
    assert stand_ins["Sam 🐉"] == "Sam [1F409]"
    assert lettering.runs("Sam 🐍", theme.covered, False)[0].text == "Sam [1F40D]"
    assert len(set(stand_ins.values())) == len(NAMES)
    assert all(
        run.face is None for name in NAMES.values() for run in lettering.runs(name, theme.covered, True)
    )
    assert differ(top_bar(("Alice", "王小明")), top_bar(("Alice", "김민준")))
    assert differ(top_bar(("Alice", "Sam 🐉")), top_bar(("Alice", "Sam 🐍")))


def test_check_says_which_fonts_are_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lettering, "faces", lambda bold: ())
    line = lettering.describe()
    assert "Noto Sans CJK JP" in line and "[1F409]" in line and "fonts-noto-cjk" in line
    monkeypatch.setattr(lettering, "RAQM", False)
    assert "libraqm0" in lettering.describe()


def test_the_stand_in_is_stable_and_short() -> None:
    assert lettering.placeholder("🐉") == "[1F409]"
    assert lettering.placeholder("🐉\ufe0f") == "[1F409]"  # a variation selector is no character of its own
    long = lettering.placeholder("王小明")
    assert long == lettering.placeholder("王小明") != lettering.placeholder("王小朋") and len(long) == 7


async def test_the_picture_pool_reads_the_fonts_before_the_first_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order: list[str] = []
    monkeypatch.setattr(lettering, "warm", lambda: order.append(f"warm {threading.get_ident()}"))
    pictures = PictureCache()
    try:
        await pictures.get(PictureKey(1, 1, 0, "en", "board"), lambda: order.append("render") or b"png")
    finally:
        pictures.close()
    assert order[1] == "render" and order[0] != f"warm {threading.get_ident()}"  # first, off the loop

"""Text in every script: member names in Arabic, Hebrew, Chinese, Japanese, Korean or
with emoji, drawn with the right font for each character.

The shipped DejaVu subset (:data:`bot.pictures.theme.COVERED`) draws the catalogue's
texts and Latin, Greek and Cyrillic names. Other scripts come from the system's Noto
fonts (Debian's ``fonts-noto-core``, ``fonts-noto-cjk`` and ``fonts-noto-color-emoji``;
the Dockerfile and ``.ci/run`` install them), found with fontconfig (``fc-match``) or at
Debian's paths: a full CJK font is 16 MB a weight, too big to ship in the wheel.

A text is split into runs by the first font that has each character (spaces and
punctuation stay in the run they are in) and drawn run by run. Right-to-left runs are
shaped by Pillow's raqm layout (``libraqm0``) when it is there; without it their letters
are reversed, unjoined but in reading order. Runs are ordered right to left when the
text's first strong character is Arabic or Hebrew. What no font draws (a missing font,
a rare script) becomes a bracketed short code, ``[1F409]`` for one character, a stable
hash for more, so two names that differ only there still differ on the picture: never a
"?" or an empty box.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import unicodedata
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

RAQM: bool = bool(features.check("raqm"))
EMOJI_SIZE = 109  # the only size Noto Color Emoji's bitmaps (CBDT) load at


@dataclass(frozen=True, slots=True)
class SystemFont:
    """A system font for some scripts: its fontconfig family, the Debian files it is
    in (regular, bold) and the face index in a collection."""

    family: str
    regular: str
    bold: str
    index: int = 0
    colour: bool = False  # a colour bitmap font (emoji): drawn at EMOJI_SIZE and scaled
    rtl: bool = False


NOTO = "/usr/share/fonts/truetype/noto/"
CJK = "/usr/share/fonts/opentype/noto/"
SYSTEM_FONTS: tuple[SystemFont, ...] = (
    SystemFont(
        "Noto Sans Arabic", NOTO + "NotoSansArabic-Regular.ttf", NOTO + "NotoSansArabic-Bold.ttf", rtl=True
    ),
    SystemFont(
        "Noto Sans Hebrew", NOTO + "NotoSansHebrew-Regular.ttf", NOTO + "NotoSansHebrew-Bold.ttf", rtl=True
    ),
    SystemFont("Noto Sans CJK JP", CJK + "NotoSansCJK-Regular.ttc", CJK + "NotoSansCJK-Bold.ttc"),
    SystemFont("Noto Color Emoji", NOTO + "NotoColorEmoji.ttf", NOTO + "NotoColorEmoji.ttf", colour=True),
)
INSTALL_HINT = "apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libraqm0"


@dataclass(frozen=True, slots=True)
class Face:
    """A font file found on this machine, with the characters it has."""

    font: SystemFont
    path: str
    index: int
    chars: frozenset[int] = field(repr=False)


def _fc_match(family: str, bold: bool) -> tuple[str, int] | None:
    """fontconfig's file for ``family`` if it has that family (it always answers with
    something, a fallback when the family is missing)."""
    if shutil.which("fc-match") is None:
        return None
    pattern = f"{family}:weight={'bold' if bold else 'regular'}"
    try:
        out = subprocess.run(
            ["fc-match", "--format=%{family}\t%{file}\t%{index}", pattern],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    parts = out.split("\t")
    if len(parts) != 3 or family not in parts[0].split(","):
        return None
    return parts[1], int(parts[2] or 0)


def _coverage(path: str, index: int) -> frozenset[int]:
    from fontTools.ttLib import TTFont  # only read once per font, when a name needs it

    with TTFont(path, fontNumber=index, lazy=True) as font:
        return frozenset(font.getBestCmap())


def _locate(font: SystemFont, bold: bool) -> tuple[str, int] | None:
    located = _fc_match(font.family, bold)
    if located is None:
        path = font.bold if bold else font.regular
        located = (path, font.index) if Path(path).is_file() else None
    return located


@cache
def _family_chars(font: SystemFont) -> frozenset[int] | None:
    """The characters of a family, read once from its regular face (Noto's bold faces
    have the same ones; a CJK font's table takes half a second to read)."""
    located = _locate(font, False) or _locate(font, True)
    if located is None:
        return None
    try:
        return _coverage(*located)
    except Exception:  # an unreadable font is as good as a missing one
        return None


@cache
def faces(bold: bool) -> tuple[Face, ...]:
    """The system fonts found, in the order they are tried after the shipped one."""
    found: list[Face] = []
    for font in SYSTEM_FONTS:
        located = _locate(font, bold)
        chars = _family_chars(font) if located is not None else None
        if located is not None and chars is not None:
            found.append(Face(font, located[0], located[1], chars))
    return tuple(found)


def warm() -> None:
    """Find the fonts and read their characters now (about a second), not while the
    first name in another script waits for its picture."""
    faces(False)
    faces(True)


def missing_fonts() -> list[str]:
    """The system fonts not found (for the tests' hint and ``python -m bot check``)."""
    have = {face.font.family for face in faces(False)}
    return [font.family for font in SYSTEM_FONTS if font.family not in have]


def describe() -> str:
    """One line for ``python -m bot check``: which fonts the pictures found."""
    missing = missing_fonts()
    shaping = "" if RAQM else "; right-to-left names unshaped (no raqm: apt-get install libraqm0)"
    if not missing:
        return f"pictures: fonts for names in every script found{shaping}"
    return (
        f"pictures: no {', '.join(missing)}: such names show as codes like [1F409] ({INSTALL_HINT}){shaping}"
    )


# ------------------------------------------------------------------ runs


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    face: Face | None  # None: the shipped font


def _strong(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("L", "R", "AL")


def _joiner(char: str) -> bool:
    """Characters that belong with the one before them (combining marks, the emoji
    joiner and variation selectors, skin tones)."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Me")
        or code in (0x200D, 0xFE0F, 0xFE0E, 0x20E3)
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
    )


def placeholder(text: str) -> str:
    """What stands for characters no font draws: their code for one, a hash for more."""
    codes = [ord(char) for char in text if not _joiner(char)] or [ord(text[0])]
    if len(codes) == 1:
        return f"[{codes[0]:X}]"
    return f"[{zlib.crc32(text.encode()) & 0xFFFFF:05X}]"


#: Stands, while splitting, for characters no font has.
MISSING = Face(SystemFont("", "", ""), "", 0, frozenset())


def runs(text: str, shipped: Callable[[str], bool], bold: bool) -> list[Run]:
    """``text`` as runs in logical order, each with the font that draws it; what none
    draws already replaced by its :func:`placeholder`."""
    found = faces(bold) if not all(shipped(char) for char in text) else ()

    def pick(char: str, current: Face | None, first: bool) -> Face | None:
        if char == " " and current is not None and current.font.colour:
            return None  # an emoji font's space is an emoji wide
        if not first and (_joiner(char) or not _strong(char)):  # stays in its run if it can
            if current is MISSING and _joiner(char):
                return MISSING
            if current is None and shipped(char):
                return None
            if current is not None and ord(char) in current.chars:
                return current
        if shipped(char):
            return None
        return next((face for face in found if ord(char) in face.chars), MISSING)

    grouped: list[tuple[Face | None, str]] = []
    for index, char in enumerate(text):
        current = grouped[-1][0] if grouped else None
        face = pick(char, current, index == 0)
        if grouped and face is current:
            grouped[-1] = (face, grouped[-1][1] + char)
        else:
            grouped.append((face, char))
    pieces: list[tuple[Face | None, str]] = []
    for face, part in grouped:
        if face is MISSING:
            pieces.append((None, placeholder(part)))
        elif face is None:
            pieces.append((None, part))
        else:  # spaces at a run's ends are the shipped font's, between runs
            core = part.strip(" ")
            lead = part[: len(part) - len(part.lstrip(" "))]
            trail = part[len(part.rstrip(" ")) :] if core else ""
            pieces.extend(((None, lead), (face, core), (None, trail)) if core else ((None, part),))
    out: list[Run] = []
    for face, part in pieces:
        if not part:
            continue
        if out and face is None and out[-1].face is None:  # placeholders join shipped text
            out[-1] = Run(out[-1].text + part, None)
        else:
            out.append(Run(part, face))
    return out


def right_to_left(text: str) -> bool:
    """Whether ``text`` reads right to left: its first strong character does."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


# ------------------------------------------------------------------ drawing

_local = threading.local()


def system_font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    """``face`` at ``size`` (an emoji font at its one size), loaded once per thread."""
    loaded: dict[tuple[str, int, int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if loaded is None:
        loaded = _local.fonts = {}
    size = EMOJI_SIZE if face.font.colour else size
    key = (face.path, face.index, size, bool(RAQM))
    found = loaded.get(key)
    if found is None:
        layout = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC
        found = loaded[key] = ImageFont.truetype(face.path, size, index=face.index, layout_engine=layout)
    return found


def _visual(run: Run) -> str:
    """A right-to-left run's letters in drawing order when raqm cannot shape them."""
    if run.face is not None and run.face.font.rtl and not RAQM:
        return run.text[::-1]
    return run.text


def run_image(
    run: Run, size: int, fill: tuple[int, int, int], shipped: ImageFont.FreeTypeFont
) -> Image.Image:
    """One run on a transparent tile as tall as the shipped font's line, its baseline
    on the shipped font's."""
    ascent, descent = shipped.getmetrics()
    height = ascent + descent
    if run.face is None:
        face = shipped
        width = max(1, round(face.getlength(run.text)))
        tile = Image.new("RGBA", (width, height))
        ImageDraw.Draw(tile).text((0, ascent), run.text, font=face, fill=fill, anchor="ls")
        return tile
    face = system_font(run.face, size)
    text = _visual(run)
    options: dict[str, str] = {}
    if RAQM and run.face.font.rtl:
        options["direction"] = "rtl"
    if run.face.font.colour:  # drawn big in colour, then scaled to the line
        left, top, right, bottom = (round(edge) for edge in face.getbbox(text, anchor="ls"))
        big = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)))
        ImageDraw.Draw(big).text((-left, -top), text, font=face, embedded_color=True, anchor="ls")
        scale = size / EMOJI_SIZE
        small = big.resize(
            (max(1, round(big.width * scale)), max(1, round(big.height * scale))), Image.Resampling.LANCZOS
        )
        tile = Image.new("RGBA", (small.width + 2, height))
        tile.paste(small, (1, max(0, ascent + round(top * scale))), small)
        return tile
    width = max(1, round(face.getlength(text, **options)))  # type: ignore[arg-type]
    tile = Image.new("RGBA", (width, height))
    ImageDraw.Draw(tile).text((0, ascent), text, font=face, fill=fill, anchor="ls", **options)  # type: ignore[arg-type]
    return tile


FSI, PDI = "\u2068", "\u2069"  # a name set apart in a sentence (first strong isolate)


def isolate(name: str) -> str:
    """``name`` to put in a sentence: drawn in its own direction, the sentence in its."""
    return f"{FSI}{name}{PDI}"


def _segments(text: str) -> list[tuple[str, bool]]:
    """``text`` cut at its isolates: (text, isolated) in logical order."""
    out: list[tuple[str, bool]] = []
    rest = text
    while rest:
        start = rest.find(FSI)
        if start < 0:
            out.append((rest.replace(PDI, ""), False))
            break
        if start:
            out.append((rest[:start].replace(PDI, ""), False))
        end = rest.find(PDI, start)
        end = len(rest) if end < 0 else end
        out.append((rest[start + 1 : end], True))
        rest = rest[end + 1 :]
    return [(part, isolated) for part, isolated in out if part]


def render(
    text: str,
    size: int,
    fill: tuple[int, int, int],
    shipped: ImageFont.FreeTypeFont,
    covered: Callable[[str], bool],
    *,
    bold: bool,
) -> Image.Image:
    """``text`` on a transparent tile, run by run, in visual order: the text's
    direction is its first strong character's outside isolates (:func:`isolate`), each
    isolate's its own."""
    segments = _segments(text)
    outside = "".join(part for part, isolated in segments if not isolated)
    paragraph = right_to_left(outside if any(_strong(char) for char in outside) else text.replace(FSI, ""))
    ordered: list[Image.Image] = []
    for part, isolated in reversed(segments) if paragraph else segments:
        images = [run_image(run, size, fill, shipped) for run in runs(part, covered, bold)]
        if right_to_left(part) if isolated else paragraph:
            images.reverse()
        ordered.extend(images)
    ascent, descent = shipped.getmetrics()
    tile = Image.new("RGBA", (max(1, sum(image.width for image in ordered)), ascent + descent))
    x = 0
    for image in ordered:
        tile.paste(image, (x, 0), image)
        x += image.width
    return tile

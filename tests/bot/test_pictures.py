"""The board and hand pictures: what they take, what they show, and the cache."""

from __future__ import annotations

import asyncio
import inspect
import io
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image

from bot.pictures import board, cache, hand, samples, theme
from bot.pictures.board import board_png, draw_board, highlights
from bot.pictures.cache import PictureCache, PictureKey
from bot.pictures.hand import hand_png
from bot.text import i18n
from bot.text.catalogue import CATALOGUE, t
from rules.cards import parse_card, parse_cards
from rules.game import Game, GameOptions
from rules.moves import Claim, PlayCard
from rules.view import PublicView

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Alice", "Bob")
CONFIGS = [
    GameOptions(),
    GameOptions(tactics=True),
    GameOptions(ruleset="battle-line"),
    GameOptions(ruleset="battle-line", tactics=True),
]


def games(options: GameOptions, seed: int) -> list[Game]:
    """Every position of one random game (each a copy)."""
    game = Game.new(seed=seed, options=options)
    rng = random.Random(seed)
    out = [game.clone()]
    while not game.is_over:
        game.apply(game.forced_move() or rng.choice(game.legal_moves()))
        out.append(game.clone())
    return out


def opened(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: f"{o.ruleset}{'+tactics' if o.tactics else ''}")
def test_every_position_of_a_full_game_renders_small_and_from_public_views_alone(
    options: GameOptions,
) -> None:
    positions = games(options, seed=7)
    assert positions[-1].is_over
    for index, game in enumerate(positions):
        public = game.public_view()
        # Both players' views give the same public view: the picture cannot depend on
        # whose view (whose hand) it was drawn from.
        assert game.view(0).public() == public == game.view(1).public()
        bottom = index % 2
        data = board_png(public, NAMES, bottom=bottom, game_id=3)
        image = opened(data)
        # Taller than wide since the texts grew to be legible at 400 pixels wide.
        assert image.width <= 800 and image.height <= 1000 and image.mode == "P"
        assert len(data) <= 60_000
        if index % 25 == 0 or game.is_over:
            for player in (0, 1):
                from_view = board_png(game.view(player).public(), NAMES, bottom=bottom, game_id=3)
                assert from_view == data


def test_the_board_takes_only_a_public_view() -> None:
    parameters = inspect.signature(draw_board).parameters
    assert next(iter(parameters)) == "public" and parameters["public"].annotation == "PublicView"
    assert "hand" not in {f for f in PublicView.__dataclass_fields__}
    game = Game.new(seed=1)
    with pytest.raises(TypeError):
        board_png(game.view(0), NAMES)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        asyncio.run(PictureCache().board(game.view(0), NAMES, game_id=1, bottom=0))  # type: ignore[arg-type]


async def test_what_reaches_the_renderer_has_no_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []

    def recording(public: PublicView, *args: object, **kwargs: object) -> bytes:
        seen.append(public)
        return b"png"

    monkeypatch.setattr(cache, "board_png", recording)
    pictures = PictureCache()
    try:
        for game in games(GameOptions(tactics=True), seed=5)[::20]:
            for player in (0, 1):
                view = game.view(player)
                await pictures.board(view.public(), NAMES, game_id=1, bottom=player)
    finally:
        pictures.close()
    assert seen and all(type(public) is PublicView for public in seen)
    assert not any(hasattr(public, "hand") or hasattr(public, "player") for public in seen)


def test_a_hand_picture_is_made_from_the_cards_given_only() -> None:
    assert list(inspect.signature(hand_png).parameters) == ["cards"]
    cards = parse_cards("R7 B2 Leader G9")
    data = hand_png(cards)
    assert hand_png(list(reversed(cards))) == data  # sorted as the text hand is
    assert hand_png(parse_cards("R7 B2 Leader G8")) != data
    assert opened(data).width <= 800
    nine = parse_cards("R1 R2 R3 R4 R5 R6 R7 R8 Scout")  # Scout's draws: nine cards at most
    assert opened(hand_png(nine)).width <= 800
    assert opened(hand_png([])).width <= 800  # an empty hand says so


def test_pictures_are_deterministic() -> None:
    public = samples.sample_public()
    assert board_png(public, NAMES, bottom=1, game_id=9) == board_png(public, NAMES, bottom=1, game_id=9)
    assert board_png(public, NAMES, bottom=0) != board_png(public, NAMES, bottom=1)


def test_the_sides_turn_with_bottom() -> None:
    """The bottom player's bar is below the stones: the gold "to play" bar of Bob (player
    1, to play in the sample) is at the top with Alice at the bottom, and the reverse."""
    public = samples.sample_public()
    assert public.current_player == 1

    def gold_rows(bottom: int) -> list[int]:
        image = draw_board(public, NAMES, bottom=bottom)
        return [y for y in range(image.height) if image.getpixel((8, y)) == theme.GOLD]

    assert max(gold_rows(0)) < 100 and min(gold_rows(1)) > 400


@pytest.mark.parametrize("language", ["de", "fr"])
def test_texts_are_in_the_current_language(language: str) -> None:
    public = samples.sample_public()
    english = board_png(public, NAMES, game_id=4)
    with i18n.use(language):
        translated = board_png(public, NAMES, game_id=4)
        assert t("picture.to_play") != CATALOGUE["picture.to_play"]
    assert translated != english


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_fonts_draw_every_text_the_pictures_write(language: str) -> None:
    keys = [key for key in CATALOGUE if key.startswith(("picture.", "board.", "card.", "move.", "result."))]
    with i18n.use(language):
        for key in keys:
            entry = i18n.translated(key, language)
            texts = list(entry.forms) if entry else [str(CATALOGUE[key])]
            for text in texts:
                assert all(theme.covered(char) for char in text), (key, text)


def test_names_keep_every_script_and_lose_only_control_characters() -> None:
    assert theme.clean("Jürgen 🐉 Ørsted") == "Jürgen 🐉 Ørsted"
    assert theme.clean("Ελένη\u202e  Дмитрий\n") == "Ελένη Дмитрий"  # no direction override
    assert theme.clean("👩\u200d👧") == "👩\u200d👧"  # the joiner stays
    assert theme.clean("\u202e\u2068") == "?"
    assert len(theme.clean("x" * 500)) == theme.NAME_LENGTH
    board_png(samples.sample_public(), ("🐉", "名前" * 30))  # draws, cut to fit


def test_the_last_turn_is_highlighted() -> None:
    marks = highlights(samples.sample_public())
    assert marks.cards == {(6, 0, parse_card("Y6"))} and marks.stones == {6}
    game = samples.sample_game()
    assert game.log[-3:][0] == (0, PlayCard(parse_card("Y6"), 6)) and game.log[-2] == (0, Claim(6))
    assert highlights(Game.new(seed=1).public_view()).cards == frozenset()


def test_a_finished_game_says_who_won() -> None:
    last = games(GameOptions(tactics=True), seed=3)[-1]
    image = draw_board(last.public_view(), NAMES, bottom=0)
    assert image.width == board.WIDTH
    assert last.result is not None


# ------------------------------------------------------------------ the cache


async def test_the_cache_renders_once_per_key_off_the_event_loop() -> None:
    pictures = PictureCache(size=2)
    loop_thread = threading.get_ident()
    threads: list[int] = []

    def render() -> bytes:
        threads.append(threading.get_ident())
        return i18n.current().encode()

    key = PictureKey(1, 5, 0, "de", "board")
    try:
        results = await asyncio.gather(*(pictures.get(key, render) for _ in range(5)))
        assert results == [b"de"] * 5  # rendered in the key's language
        assert pictures.stats.renders == 1 and pictures.stats.hits == 4
        assert threads and loop_thread not in threads
        assert await pictures.get(key, render) == b"de" and pictures.stats.renders == 1
        for version in (6, 7):
            await pictures.get(PictureKey(1, version, 0, "de", "board"), render)
        assert key not in pictures and len(pictures) == 2  # the least recently used went
        pictures.forget(1)
        assert len(pictures) == 0
    finally:
        pictures.close()


async def test_the_cache_keys_boards_by_language_side_and_version() -> None:
    pictures = PictureCache()
    public = samples.sample_public()
    try:
        english = await pictures.board(public, NAMES, game_id=8, bottom=0, language="en")
        german = await pictures.board(public, NAMES, game_id=8, bottom=0, language="de")
        turned = await pictures.board(public, NAMES, game_id=8, bottom=1, language="en")
        assert len({english, german, turned}) == 3 and pictures.stats.renders == 3
        with i18n.use("de"):  # the caller's language by default
            assert await pictures.board(public, NAMES, game_id=8, bottom=0) == german
        assert pictures.stats.renders == 3
        assert english == board_png(public, NAMES, bottom=0, game_id=8)
        cards = parse_cards("R1 B2")
        mine = await pictures.hand(cards, game_id=8, version=public.version, player=0)
        assert mine == hand_png(cards)
        other = await pictures.hand(parse_cards("R1 B3"), game_id=8, version=public.version, player=0)
        assert other != mine  # the cards are part of the key
    finally:
        pictures.close()


async def test_a_failed_render_is_not_kept() -> None:
    pictures = PictureCache()

    def broken() -> bytes:
        raise RuntimeError("no")

    key = PictureKey(2, 1, 0, "en", "hand")
    try:
        with pytest.raises(RuntimeError):
            await pictures.get(key, broken)
        assert key not in pictures
        assert await pictures.get(key, lambda: b"ok") == b"ok"
    finally:
        pictures.close()


def test_modules_stay_small() -> None:
    for module in (board, cache, hand, samples, theme):
        assert len(inspect.getsource(module).splitlines()) < 600


def test_the_samples_and_the_bench_run(tmp_path: Path) -> None:
    assert samples.main(["--out", str(tmp_path)]) == 0
    assert opened((tmp_path / "board-sample.png").read_bytes()).width == 800
    assert (tmp_path / "hand-sample.png").exists()
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "pictures.py"), "--help"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "usage:" in proc.stdout, proc.stderr

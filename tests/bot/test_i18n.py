"""The catalogues: complete, consistent, compilable; plurals; cards in every language;
the board's width in every language."""

from __future__ import annotations

import io
import random
import re
import shutil
import string
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.text import i18n
from bot.text.catalogue import CATALOGUE, t_in
from bot.text.i18n import LANGUAGES, LOCALE_DIR, Plural
from bot.text.notation import card_text, move_text, read_card, read_move, short_card
from bot.text.render import WIDTH, render_board
from rules.cards import CARDS_BY_ID, ClanCard
from rules.game import Game, GameOptions

TRANSLATED = [language for language in LANGUAGES if language != i18n.ENGLISH]


def fields(text: str) -> set[str]:
    """The ``{placeholders}`` of a text, with their format specs."""
    return {f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None}


def english_forms(text: str | Plural) -> list[str]:
    return [text.one, text.other] if isinstance(text, Plural) else [text]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_key_is_translated_with_the_same_placeholders(language: str) -> None:
    entries = i18n.catalogue(language)
    missing = sorted(set(CATALOGUE) - set(entries))
    assert missing == [], f"{len(missing)} keys without a {language} translation: {missing[:10]}"
    for key, english in CATALOGUE.items():
        wanted = set().union(*(fields(form) for form in english_forms(english)))
        for form in entries[key].forms:
            assert fields(form) <= wanted, (key, form)
            if not isinstance(english, Plural):
                assert fields(form) == wanted, (key, form)


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_compiles_and_has_no_stale_entries(language: str) -> None:
    with (LOCALE_DIR / f"{language}.po").open("rb") as file:
        catalog = read_po(file, locale=language)
    write_mo(io.BytesIO(), catalog)  # what pybabel compile does: raises on a broken catalogue
    contexts = {message.context for message in catalog if message.id}
    assert contexts == set(CATALOGUE), "run python -m bot.text after changing bot/text/catalogue.py"
    assert not [message.context for message in catalog if message.id and message.fuzzy]


def test_the_catalogue_files_are_written_only_when_a_text_changed(tmp_path: Path) -> None:
    """``python -m bot.text`` leaves files whose texts did not change alone (their date
    too: before, every run rewrote every header's date); the shipped ones are current."""
    for source in LOCALE_DIR.iterdir():
        shutil.copy(source, tmp_path / source.name)
    assert i18n.update_catalogues(CATALOGUE, tmp_path) == []  # shipped as the tool writes them
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}

    changed = {**CATALOGUE, "ok.resigned": "You gave up game #{game_id}."}
    written = i18n.update_catalogues(changed, tmp_path)
    assert sorted(path.name for path in written) == ["de.po", "fr.po", "messages.pot"]
    with (tmp_path / "fr.po").open("rb") as file:
        message = read_po(file).get("You gave up game #{game_id}.", context="ok.resigned")
    assert message is not None and message.fuzzy  # the old French, for a translator to check
    assert message.string == t_in("fr", "ok.resigned")
    assert i18n.update_catalogues(changed, tmp_path) == []
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} != before


def test_plurals_follow_each_language() -> None:
    assert t_in("en", "board.hand_size", name="A", cards=1) == "A (1 card)"
    assert t_in("en", "board.hand_size", name="A", cards=2) == "A (2 cards)"
    assert t_in("de", "board.hand_size", name="A", cards=1) == "A (1 Karte)"
    assert t_in("de", "board.hand_size", name="A", cards=2) == "A (2 Karten)"
    assert t_in("fr", "board.hand_size", name="A", cards=1) == "A (1 carte)"
    assert t_in("fr", "board.hand_size", name="A", cards=2) == "A (2 cartes)"
    assert t_in("fr", "board.hand_size", name="A", cards=0) == "A (0 carte)"  # French: 0 is singular


def test_unsupported_languages_fall_back_to_english() -> None:
    assert i18n.normalize("pt-BR") == i18n.normalize(None) == "en"
    assert i18n.normalize("de") == "de" and i18n.normalize("fr") == "fr" and i18n.normalize("en-GB") == "en"
    assert t_in("pt-BR", "board.show_hand") == CATALOGUE["board.show_hand"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_cards_are_typed_as_they_are_shown(language: str) -> None:
    with i18n.use(language):
        letters = [t_in(language, f"card.colour.{c}") for c in "ROYGBP"]
        assert all(len(letter) == 1 for letter in letters) and len({x.upper() for x in letters}) == 6
        shown = {}
        for card in CARDS_BY_ID:
            text = card_text(card)
            assert " " not in text and len(short_card(card)) <= 3
            assert read_card(text) is card and read_card(text.lower()) is card
            shown.setdefault(text.upper(), card)
        assert len(shown) == len(set(CARDS_BY_ID))  # no two cards look alike


def test_gelb_and_gruen_are_told_apart() -> None:
    yellow = next(c for c in CARDS_BY_ID if isinstance(c, ClanCard) and c.colour == "Y" and c.value == 7)
    green = next(c for c in CARDS_BY_ID if isinstance(c, ClanCard) and c.colour == "G" and c.value == 7)
    with i18n.use("de"):
        assert read_card(card_text(yellow)) is yellow and read_card(card_text(green)) is green
        assert card_text(yellow) != card_text(green)
        assert read_card("Y7") is yellow  # the engine's letters still read where they mean nothing else
    with i18n.use("fr"):
        assert (card_text(yellow), card_text(green)) == ("J7", "V7")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_legal_move_reads_back_as_shown(language: str) -> None:
    rng = random.Random(language)
    with i18n.use(language):
        for options in (GameOptions(tactics=True), GameOptions(ruleset="battle-line", tactics=True)):
            game = Game.new(rng.randrange(1 << 30), options)
            while not game.is_over:
                moves = game.legal_moves()
                for move in moves:
                    assert read_move(move_text(move), max_value=game.ruleset.max_value) == move
                game.apply(rng.choice(moves))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_stays_within_its_width(language: str) -> None:
    rng = random.Random(7)
    names = ("Wilhelmina-Charlotte", "Jean-Baptiste Poquelin")
    with i18n.use(language):
        for options in (GameOptions(tactics=True), GameOptions(ruleset="battle-line", tactics=True)):
            game = Game.new(rng.randrange(1 << 30), options)
            while True:
                for player in (0, 1):
                    board = render_board(game.view(player), names, game_id=12345)
                    assert max(len(line) for line in board.splitlines()) <= WIDTH, board
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_moves()))


def test_command_names_and_descriptions_fit_discord() -> None:
    name = re.compile(r"^[-_\w]{1,32}$")
    for language in TRANSLATED:
        for key in CATALOGUE:
            text = t_in(language, key)
            if key.startswith(("cmd.name.", "opt.")):
                assert name.match(text) and text == text.lower(), (language, key, text)
            elif key.startswith(("cmd.", "choice.")):
                assert len(text) <= 100, (language, key, text)
        commands = [t_in(language, key) for key in CATALOGUE if key.startswith("cmd.name.")]
        assert len(set(commands)) == len(commands), language


COMMAND_IN_TEXT = re.compile(r"/schotten(?: ([\w-]+))?((?: [\w-]+:\S*)*)")


@pytest.mark.parametrize("language", LANGUAGES)
def test_commands_named_in_texts_are_named_as_the_picker_shows_them(language: str) -> None:
    """A German player types `/schotten spielen karte:R7`: a text telling them
    `/schotten play card:R7` names a command their picker does not show."""
    commands = {t_in(language, key) for key in CATALOGUE if key.startswith("cmd.name.")}
    options = {t_in(language, key) for key in CATALOGUE if key.startswith("opt.")}
    named = 0
    for key in CATALOGUE:
        text = t_in(language, key)
        for match in COMMAND_IN_TEXT.finditer(text):
            command, rest = match.group(1), match.group(2)
            assert command is None or command in commands, (language, key, match.group(0))
            for option in re.findall(r" ([\w-]+):", rest):
                assert option in options, (language, key, match.group(0))
            named += command is not None
    assert named >= 10  # the texts do name commands: the pattern finds them

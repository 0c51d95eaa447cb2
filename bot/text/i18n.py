"""Languages: which one a message is in, and the translated catalogues.

The English texts are the catalogue in :mod:`bot.text.catalogue` (the source, like gettext's
msgids in code). Translations are gettext catalogues in ``bot/text/locale/<lang>.po``, one
entry per key: ``msgctxt`` is the key, ``msgid`` the English text, ``msgstr`` the
translation (``msgstr[i]`` for plural forms, chosen by the catalogue's own
``Plural-Forms`` rule). They are read with Babel, so that translators can use any
gettext tool (Poedit, Weblate, ``pybabel``); ``python -m bot.text`` rewrites the
template ``messages.pot`` and merges new or changed English texts into every ``.po``.
Why gettext and not Fluent: ``docs/languages.md``.

The language of what is being written travels in a context variable: an interaction
sets its user's language (:func:`use`), the table sets the server's for a channel
message and each player's for their DM. Unsupported languages fall back to English, and
so does any entry a catalogue lacks.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ENGLISH = "en"
LANGUAGES = ("en", "de", "fr")  # what the bot speaks; the first is the fallback
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_current: ContextVar[str] = ContextVar("language", default=ENGLISH)


def normalize(tag: str | None) -> str:
    """The supported language of a Discord locale or a language tag (``de``, ``fr``,
    ``en-US``, ``pt-BR``...): its language if the bot speaks it, else English."""
    if not tag:
        return ENGLISH
    language = tag.replace("_", "-").split("-", 1)[0].lower()
    return language if language in LANGUAGES else ENGLISH


def current() -> str:
    return _current.get()


@contextmanager
def use(language: str) -> Iterator[str]:
    """Write in ``language`` (normalized) inside the ``with`` block."""
    language = normalize(language)
    token = _current.set(language)
    try:
        yield language
    finally:
        _current.reset(token)


def set_language(language: str) -> None:
    """Write in ``language`` from now on in this task (an interaction's handler)."""
    _current.set(normalize(language))


@dataclass(frozen=True)
class Plural:
    """An English text that depends on a number: ``one`` for 1, ``other`` otherwise.
    ``count`` names the parameter holding the number."""

    one: str
    other: str
    count: str = "n"


@dataclass(frozen=True)
class Translation:
    forms: tuple[str, ...]  # one form, or the plural forms in the catalogue's order
    plural: Callable[[int], int]  # the catalogue's Plural-Forms rule: n -> form index


def _rule(catalog: Catalog) -> Callable[[int], int]:
    rule: Callable[[int], int] = gettext.c2py(catalog.plural_expr)
    return rule


@cache
def catalogue(language: str) -> dict[str, Translation]:
    """The translated entries of ``language``: key -> translation (empty for English).
    Entries without a translation, or marked fuzzy, are left out (English is used)."""
    if language == ENGLISH:
        return {}
    with (LOCALE_DIR / f"{language}.po").open("rb") as file:
        catalog = read_po(file, locale=language)
    rule = _rule(catalog)
    entries: dict[str, Translation] = {}
    for message in catalog:
        if not message.id or message.context is None or message.fuzzy:
            continue
        raw = message.string if isinstance(message.string, tuple | list) else (message.string,)
        forms = tuple(form for form in raw if isinstance(form, str) and form)
        if forms and len(forms) == len(raw):
            entries[message.context] = Translation(forms, rule)
    return entries


def translated(key: str, language: str) -> Translation | None:
    return catalogue(language).get(key)


# -- keeping the catalogues in step with the English texts ----------------------------


def template(english: dict[str, str | Plural]) -> Catalog:
    """The ``.pot`` catalogue of the English texts."""
    pot = Catalog(project="schotten-totten-bot", header_comment="# The bot's messages: docs/languages.md.")
    for key, text in english.items():
        if isinstance(text, Plural):
            pot.add((text.one, text.other), context=key, flags=_flags(text.other))
        else:
            pot.add(text, context=key, flags=_flags(text))
    return pot


def _flags(text: str) -> tuple[str, ...]:
    return ("python-brace-format",) if "{" in text else ()


def update_catalogues(english: dict[str, str | Plural], folder: Path = LOCALE_DIR) -> list[Path]:
    """Write ``messages.pot`` and merge it into every language's ``.po`` in ``folder``:
    new keys are added untranslated, a changed English text keeps its translation marked
    fuzzy (not used until a translator has checked it), removed keys are dropped. The
    files written; one whose texts did not change is left alone, its header's date too."""
    pot = template(english)
    written = [path for path in [folder / "messages.pot"] if _write(path, pot)]
    for language in LANGUAGES[1:]:
        path = folder / f"{language}.po"
        if path.exists():
            with path.open("rb") as file:
                catalog = read_po(file, locale=language)
        else:
            catalog = Catalog(locale=language, project="schotten-totten-bot")
        before = {message.context: message for message in catalog if message.id and message.string}
        # A template of its own: Babel puts the template's new entries in as they are.
        catalog.update(template(english), no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        for message in catalog:  # a changed English text: its translation kept, fuzzy
            old = before.get(message.context)
            if message.id and not message.string and old is not None and type(old.id) is type(message.id):
                message.string = old.string
                message.flags.add("fuzzy")
        if _write(path, catalog, ignore_obsolete=True):
            written.append(path)
    catalogue.cache_clear()
    return written


def _write(path: Path, catalog: Catalog, *, ignore_obsolete: bool = False) -> bool:
    """Write ``catalog`` to ``path`` unless the file says the same but for its date."""
    text = io.BytesIO()
    write_po(text, catalog, width=100, ignore_obsolete=ignore_obsolete)
    if path.exists() and _undated(path.read_bytes()) == _undated(text.getvalue()):
        return False
    path.write_bytes(text.getvalue())
    return True


def _undated(po: bytes) -> list[bytes]:
    return [line for line in po.splitlines() if not line.startswith(b'"POT-Creation-Date: ')]

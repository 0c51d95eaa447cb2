"""Cards and moves as a player reads and types them, in their language.

The engine's notation is English (``R7``, ``Fog``, ``play R7 3``): it is what the move
log, the records and the components' custom ids hold. Players see a card in the current
language (:mod:`bot.text.i18n`): a colour letter from the catalogue (``card.colour.<R..P>``)
and the value, or the tactic card's name (``card.tactic.<name>``), and may type exactly
that. German writes Gelb as ``G`` and Grün as ``N``; French uses ``J`` (jaune), ``V``
(vert) and ``P`` (pourpre). A typed card is read in the current language first, then
as the engine's notation, so ``Y7`` still works in German where ``Y`` means nothing
else. Move words stay the engine's (``play``, ``claim``, ``draw clan``).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from functools import cache

from bot.text import i18n
from bot.text.catalogue import error_text, t
from rules.cards import CARDS_BY_ID, Card, ClanCard, TacticCard, parse_card
from rules.errors import ClaimNotProvable, NotationError
from rules.moves import Move, parse_move


def colour_letter(colour: str) -> str:
    return t(f"card.colour.{colour}")


def tactic_name(card: TacticCard) -> str:
    return t(f"card.tactic.{card.tactic.name.lower()}")


def card_text(card: Card) -> str:
    """A card as the player reads and types it: ``R7``, ``Leader``; ``G7`` (Gelb) in German."""
    if isinstance(card, ClanCard):
        return f"{colour_letter(card.colour)}{card.value}"
    return tactic_name(card)


def refusal_text(error: BaseException, *, resolve: Callable[[object], object] | None = None) -> str:
    """:func:`~bot.text.catalogue.error_text` with the error's cards in the reader's
    notation (``G1`` for Gelb in German, not the engine's ``Y1``), a claim's
    counter-example too; ``resolve`` replaces the other parameters first."""
    if isinstance(error, ClaimNotProvable) and error.counter_example:
        shown = " ".join(card_text(card) for card in error.counter_example)
        return t("error.claim_not_provable", stone=error.params["stone"], counter_example=shown)

    def shown_value(value: object) -> object:
        value = resolve(value) if resolve is not None else value
        return card_text(value) if isinstance(value, (ClanCard, TacticCard)) else value

    return error_text(error, resolve=shown_value)


def short_card(card: Card) -> str:
    """A card in at most 3 characters, for the board's columns."""
    if isinstance(card, ClanCard):
        return card_text(card)
    return t(f"card.short.{card.tactic.name.lower()}")


@cache
def _reading(language: str) -> dict[str, Card]:
    """What a card is called in ``language``, upper-cased, to the card."""
    with i18n.use(language):
        return {card_text(card).upper(): card for card in CARDS_BY_ID}


def read_card(text: str, *, max_value: int = 10) -> Card:
    """A card typed in the current language (or in the engine's notation)."""
    card = _reading(i18n.current()).get(text.strip().upper())
    if card is None:
        return parse_card(text, max_value=max_value)
    if isinstance(card, ClanCard) and card.value > max_value:
        raise NotationError(text)
    return card


def read_move(text: str, *, max_value: int = 10) -> Move:
    """A move typed with the engine's move words and cards in the current language."""
    words = text.split()
    for i, word in enumerate(words[1:], start=1):
        if word.isdigit() or word.lower() in ("clan", "tactic", "none"):
            continue
        with suppress(NotationError):  # not a card: the engine's parser names what is wrong
            words[i] = str(read_card(word, max_value=max_value))
    return parse_move(" ".join(words), max_value=max_value)


def move_text(move: Move) -> str:
    """A move in the notation :func:`read_move` reads, cards in the current language."""
    verb, *args = str(move).split()
    local = []
    for arg in args:
        try:
            local.append(card_text(parse_card(arg)))
        except NotationError:
            local.append(arg)
    return " ".join([verb, *local])


__all__ = [
    "card_text",
    "colour_letter",
    "move_text",
    "read_card",
    "read_move",
    "short_card",
    "tactic_name",
]

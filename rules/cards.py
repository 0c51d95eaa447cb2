"""Cards and their notation: clan cards like ``R7`` and the ten tactic cards.

Every card is an interned, immutable value: ``parse_card("r7") is parse_card("R7")``.
Each card has a small integer ``id`` so that hot paths (formations, proofs) can use
bit masks and lookup tables instead of objects.
"""

from __future__ import annotations

import enum
from typing import TypeGuard

from rules.errors import NotationError

COLOURS = "ROYGBP"
MAX_VALUE = 10  # Battle Line; Schotten-Totten uses 1-9 of the same cards


class TacticKind(enum.Enum):
    """What a tactic card does, in the rulebook's three groups."""

    MORALE = "morale"  # played like a clan card: a joker of some sort
    TERRAIN = "terrain"  # placed at a stone, changes how it is decided
    RUSE = "ruse"  # one-off action, laid face up beside the tactic deck


class Tactic(enum.Enum):
    LEADER = ("Leader", TacticKind.MORALE)
    REINFORCEMENT = ("Reinforcement", TacticKind.MORALE)
    SHIELD_BEARER = ("ShieldBearer", TacticKind.MORALE)
    FOG = ("Fog", TacticKind.TERRAIN)
    MUD = ("Mud", TacticKind.TERRAIN)
    SCOUT = ("Scout", TacticKind.RUSE)
    REDEPLOY = ("Redeploy", TacticKind.RUSE)
    DESERTER = ("Deserter", TacticKind.RUSE)
    TRAITOR = ("Traitor", TacticKind.RUSE)

    def __init__(self, text: str, kind: TacticKind) -> None:
        self.text = text
        self.kind = kind


class ClanCard:
    """A clan (troop) card: a colour letter and a value."""

    __slots__ = ("_text", "colour", "id", "value")
    colour: str
    value: int
    id: int
    _text: str
    is_tactic = False
    tactic: Tactic | None = None

    def __new__(cls, colour: str, value: int) -> ClanCard:
        return _clan(colour, value)

    @classmethod
    def _make(cls, colour: str, value: int) -> ClanCard:
        self = object.__new__(cls)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "id", COLOURS.index(colour) * MAX_VALUE + value - 1)
        object.__setattr__(self, "_text", f"{colour}{value}")
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (ClanCard, (self.colour, self.value))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text})"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id


class TacticCard:
    """A tactic card. Two Leaders exist; they are equal values, counted as a multiset."""

    __slots__ = ("id", "tactic")
    tactic: Tactic
    id: int
    is_tactic = True
    colour = None
    value = None

    def __new__(cls, tactic: Tactic) -> TacticCard:
        return _TACTIC_CARDS[tactic]

    @classmethod
    def _make(cls, tactic: Tactic, id_: int) -> TacticCard:
        self = object.__new__(cls)
        object.__setattr__(self, "tactic", tactic)
        object.__setattr__(self, "id", id_)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (TacticCard, (self.tactic,))

    @property
    def kind(self) -> TacticKind:
        return self.tactic.kind

    def __str__(self) -> str:
        return self.tactic.text

    def __repr__(self) -> str:
        return f"Card({self.tactic.text})"

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id


Card = ClanCard | TacticCard

_CLAN_CARDS: dict[tuple[str, int], ClanCard] = {
    (c, v): ClanCard._make(c, v) for c in COLOURS for v in range(1, MAX_VALUE + 1)
}
_TACTIC_CARDS: dict[Tactic, TacticCard] = {
    t: TacticCard._make(t, len(COLOURS) * MAX_VALUE + i) for i, t in enumerate(Tactic)
}
#: Every card by id: ``CARDS_BY_ID[card.id] is card``.
CARDS_BY_ID: tuple[Card, ...] = tuple(
    sorted([*_CLAN_CARDS.values(), *_TACTIC_CARDS.values()], key=lambda c: c.id)
)
_BY_TEXT: dict[str, Card] = {
    **{str(c).upper(): c for c in _CLAN_CARDS.values()},
    **{t.text.upper(): card for t, card in _TACTIC_CARDS.items()},
    # Friendly aliases a player is likely to type.
    "SHIELD-BEARER": _TACTIC_CARDS[Tactic.SHIELD_BEARER],
    "SHIELD_BEARER": _TACTIC_CARDS[Tactic.SHIELD_BEARER],
    "SHIELD BEARER": _TACTIC_CARDS[Tactic.SHIELD_BEARER],
}


def _clan(colour: str, value: int) -> ClanCard:
    try:
        return _CLAN_CARDS[(colour.upper(), value)]
    except (KeyError, AttributeError):
        raise NotationError(f"{colour}{value}") from None


def tactic_card(tactic: Tactic) -> TacticCard:
    return _TACTIC_CARDS[tactic]


def parse_card(text: str | Card, *, max_value: int = MAX_VALUE) -> Card:
    """Parse ``R7``, ``p1``, ``leader``, ``ShieldBearer`` ... (case-insensitive).

    ``max_value`` is the ruleset's highest value (9 for Schotten-Totten), so ``R10``
    is refused there. Raises :class:`NotationError` naming the bad text.
    """
    if isinstance(text, (ClanCard, TacticCard)):
        card: Card = text
    elif not isinstance(text, str):
        raise NotationError(repr(text))
    else:
        card_or_none = _BY_TEXT.get(text.strip().upper())
        if card_or_none is None:
            raise NotationError(text)
        card = card_or_none
    if isinstance(card, ClanCard) and card.value > max_value:
        raise NotationError(str(text))
    return card


def parse_cards(texts: str | list[str] | tuple[str, ...], *, max_value: int = MAX_VALUE) -> list[Card]:
    """Parse several cards: a sequence, or one string separated by spaces or commas."""
    if isinstance(texts, str):
        texts = [t for t in texts.replace(",", " ").split() if t]
    return [parse_card(t, max_value=max_value) for t in texts]


def is_joker(card: Card) -> TypeGuard[TacticCard]:
    """Morale tactics: their colour and value are chosen when the stone is decided."""
    return isinstance(card, TacticCard) and card.tactic.kind is TacticKind.MORALE

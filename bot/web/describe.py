"""The board in words, for a screen reader and for anyone who cannot see the picture:
per stone both sides' cards, the formation of a complete side, the terrain and the
owner; the decks, the hand sizes (and their tactic cards), the discards and whose turn it is.

Built from a ``PublicView`` only (what everybody at the table may see), in the current
language of the catalogue. The replay's steps pass the finished game's view of a step,
which is public too.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.text.catalogue import t
from bot.text.notation import card_text
from rules.cards import Card
from rules.formations import side_strength
from rules.view import PublicView, StoneView


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(card_text(card) for card in cards) or t("web.describe.no_cards")


def _side(stone: StoneView, seat: int, ruleset: str) -> str:
    cards = stone.sides[seat]
    shown = _cards(cards)
    if not stone.is_complete(seat):
        return shown
    try:
        strength = side_strength(cards, needed=stone.needed, fog=stone.fog is not None, ruleset=ruleset)
    except ValueError:  # a side the engine counts otherwise: say its cards only
        return shown
    formation = t(f"web.formation.{strength.formation.name.lower()}")
    return t("web.describe.formation", cards=shown, formation=formation, total=strength.total)


def _stone(stone: StoneView, names: Sequence[str], ruleset: str) -> str:
    parts = [
        t(
            "web.describe.stone",
            number=stone.number,
            name0=names[0],
            cards0=_side(stone, 0, ruleset),
            name1=names[1],
            cards1=_side(stone, 1, ruleset),
        )
    ]
    if stone.terrain:
        parts.append(t("web.describe.terrain", cards=_cards([card for card, _ in stone.terrain])))
    if stone.owner is None:
        parts.append(t("web.describe.open"))
    else:
        parts.append(t("web.describe.owner", name=names[stone.owner]))
    return "; ".join(parts)


def describe_board(public: PublicView, names: Sequence[str], status: str) -> list[str]:
    """The board as lines of text: whose turn (``status``), each stone, the decks, the
    hand sizes and the discards."""
    ruleset = public.options.ruleset
    lines = [status] if status else []
    lines += [_stone(stone, names, ruleset) for stone in public.stones]
    clan, tactic = public.deck_sizes
    if public.options.tactics:
        lines.append(t("web.describe.decks", clan=clan, tactic=tactic))
    else:
        lines.append(t("web.describe.deck", clan=clan))
    for seat in (0, 1):
        line = t("web.describe.hand", name=names[seat], n=public.hand_sizes[seat])
        if public.options.tactics:  # the tactic cards' backs differ: their number is public
            line += "; " + t("table.tactics_in_hand", count=public.hand_tactics[seat])
        lines.append(line)
    if public.discards:
        lines.append(t("web.describe.discards", cards=_cards([card for _, card in public.discards])))
    return lines

"""What the AI works from: a :class:`Situation` built from a :class:`PlayerView` only.

Everything is relative to the AI ("mine" / "theirs") and holds plain lists, so the
heuristic and the search can copy and edit it cheaply. The unseen clan cards are derived
from the table, the own hand and the discards: they are the opponent's clan cards plus
the clan deck, in unknown order. Nothing here can reach the opponent's hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeGuard

from rules.cards import COLOURS, Card, ClanCard, Tactic, TacticCard, is_joker
from rules.formations import side_strength, tables
from rules.moves import Move
from rules.rulesets import Ruleset, get_ruleset
from rules.values import Phase
from rules.view import PlayerView


@dataclass(slots=True)
class StoneState:
    mine: list[Card]
    theirs: list[Card]
    owner: int | None  # 0 = me, 1 = them (relative)
    fog: bool
    mud: bool
    first_complete: int | None  # relative, like owner

    @property
    def needed(self) -> int:
        return 4 if self.mud else 3

    @property
    def open(self) -> bool:
        return self.owner is None


@dataclass(slots=True)
class Situation:
    ruleset: Ruleset
    tactics: bool
    hand: list[Card]
    stones: list[StoneState]
    unseen_clan: list[ClanCard]  # opponent's clan cards + clan deck
    known_deck: list[tuple[str, int, Card]]  # cards I put back with Scout
    opp_known: list[Card]  # cards I put back with Scout that the opponent drew
    opp_hand_size: int
    opp_hand_tactics: int
    clan_deck: int
    tactic_deck: int
    tactics_played: tuple[int, int]  # (mine, theirs)
    phase: Phase
    legal: list[Move] = field(default_factory=list)

    @property
    def opp_clan_in_hand(self) -> int:
        return self.opp_hand_size - self.opp_hand_tactics


def _rel(who: int | None, me: int) -> int | None:
    return None if who is None else (0 if who == me else 1)


def from_view(view: PlayerView) -> Situation:
    me = view.player
    opts = view.options
    ruleset = get_ruleset(getattr(opts, "ruleset", "schotten-totten"))
    seen: set[Card] = set(view.hand)
    stones = []
    for st in view.stones:
        seen.update(st.sides[0])
        seen.update(st.sides[1])
        stones.append(
            StoneState(
                mine=list(st.sides[me]),
                theirs=list(st.sides[1 - me]),
                owner=_rel(st.owner, me),
                fog=st.fog is not None,
                mud=st.mud is not None,
                first_complete=_rel(st.first_complete, me),
            )
        )
    seen.update(card for _, card in view.discards)
    unseen = [c for c in ruleset.clan_deck() if c not in seen]
    return Situation(
        ruleset=ruleset,
        tactics=bool(getattr(opts, "tactics", False)),
        hand=list(view.hand),
        stones=stones,
        unseen_clan=unseen,
        known_deck=list(view.known_deck_cards),
        opp_known=list(getattr(view, "opponent_known_cards", ())),
        opp_hand_size=view.opponent_hand_size,
        opp_hand_tactics=view.opponent_hand_tactics,
        clan_deck=view.deck_sizes[0],
        tactic_deck=view.deck_sizes[1],
        tactics_played=(view.tactics_played[me], view.tactics_played[1 - me]),
        phase=view.phase,
        legal=view.legal_moves(),
    )


# --- side strength ----------------------------------------------------------------------
# Keys are ints ordered like sides: formation << 6 | total (the same scale as
# rules.formations). Clan-only sides take a fast path; jokers go through the engine.

SHIFT = 6
_KEY_CACHE: dict[tuple[tuple[int, ...], int, bool, str], int] = {}


def clan_key(cards: list[ClanCard], fog: bool) -> int:
    total = 0
    for c in cards:
        total += c.value
    if fog:
        return total
    c0 = cards[0]
    same_colour = all(c.colour == c0.colour for c in cards)
    vals = sorted(c.value for c in cards)
    run = all(vals[i + 1] == vals[i] + 1 for i in range(len(vals) - 1))
    if run and same_colour:
        return 4 << SHIFT | total
    if vals[0] == vals[-1]:
        return 3 << SHIFT | total
    if same_colour:
        return 2 << SHIFT | total
    if run:
        return 1 << SHIFT | total
    return total


def _clan_only(cards: list[Card]) -> TypeGuard[list[ClanCard]]:
    return not any(c.is_tactic for c in cards)


def side_key(cards: list[Card], needed: int, fog: bool, ruleset: Ruleset) -> int:
    """Strength key of a complete side (jokers at their best, strongest subset)."""
    if len(cards) == needed and _clan_only(cards):
        if needed == 3 and not fog:
            a, b, c = cards
            return tables(ruleset).triples[1 << a.id | 1 << b.id | 1 << c.id]
        return clan_key(cards, fog)
    k = (tuple(sorted(c.id for c in cards)), needed, fog, ruleset.name)
    key = _KEY_CACHE.get(k)
    if key is None:
        key = _KEY_CACHE[k] = side_strength(
            [c for c in cards if not c.is_tactic or is_joker(c)], needed=needed, fog=fog, ruleset=ruleset
        ).key
    return key


def formation_cards(cards: list[Card]) -> list[Card]:
    """The cards of a hand that can stand in a formation (clan cards and jokers)."""
    return [c for c in cards if not c.is_tactic or is_joker(c)]


def is_tactic(card: Card, tactic: Tactic) -> bool:
    return isinstance(card, TacticCard) and card.tactic is tactic


__all__ = ["COLOURS", "Situation", "StoneState", "clan_key", "from_view", "side_key"]

"""Formations: how strong one side of a stone is.

Public names:

- :class:`Formation`: the five formations, weakest first (``SUM`` < ``RUN`` < ``COLOUR``
  < ``THREE_OF_A_KIND`` < ``COLOUR_RUN``), each with an English ``.label``.
- :class:`Strength`: ``(formation, total)``, an immutable value ordered by ``<``/``==``/``>``
  exactly like the sides it describes (stronger is greater, equally strong is equal).
  Ties between equal strengths are decided by the claim rules, not here.
- :func:`formation_strength`: the public contract, one formation of exactly 3 cards
  (4 under Mud).
- :func:`side_strength`: a complete side, which may hold more cards than needed (Mud
  removed later): the strongest subset of ``needed`` cards counts.

Jokers (morale tactics) take their best colour and value for their owner: Leader any
colour and value, Reinforcement the ruleset's ``reinforcement_value`` (7, or 8 in Battle
Line) in any colour, ShieldBearer 1, 2 or 3 in any colour. Under Fog only the sum counts,
so every joker is at its highest value. Values never wrap: 8-9-1 is not a run.

For hot paths (rules.claims, the AIs) a strength is also a small int, its ``key``:
``formation << 6 | total`` (a total is at most 40), ordered like the strengths;
:func:`strength_of_key` turns one back into the cached :class:`Strength`.
``tables(ruleset).triples`` maps the id mask of every 3-card set of clan cards
(``1 << a.id | 1 << b.id | 1 << c.id``) to its key; it is built on first use, once per
ruleset and process.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from rules.cards import Card, ClanCard, Tactic, TacticCard, is_joker
from rules.rulesets import SCHOTTEN_TOTTEN, Ruleset, get_ruleset

__all__ = [
    "Formation",
    "Strength",
    "formation_strength",
    "side_strength",
    "strength_of_key",
]


class Formation(enum.IntEnum):
    """The five formations; a greater value is a stronger formation."""

    SUM = 0
    RUN = 1
    COLOUR = 2
    THREE_OF_A_KIND = 3  # "same value": four of a kind under Mud
    COLOUR_RUN = 4

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Formation.SUM: "Sum",
    Formation.RUN: "Run",
    Formation.COLOUR: "Colour",
    Formation.THREE_OF_A_KIND: "Three of a kind",
    Formation.COLOUR_RUN: "Colour run",
}


class Strength(NamedTuple):
    """How strong a side is: the formation first, then the sum of the values."""

    formation: Formation
    total: int

    @property
    def key(self) -> int:
        """The same order as a small int (what the hot paths compare)."""
        return self.formation << KEY_SHIFT | self.total

    def __str__(self) -> str:
        return f"{self.formation.label} ({self.total})"


KEY_SHIFT = 6  # totals stay below 64: at most 4 cards of value 10
_TOTAL_MASK = (1 << KEY_SHIFT) - 1
_STRENGTHS: dict[int, Strength] = {}


def strength_of_key(key: int) -> Strength:
    """The :class:`Strength` for an internal int key (cached, so no allocation)."""
    strength = _STRENGTHS.get(key)
    if strength is None:
        strength = _STRENGTHS[key] = Strength(Formation(key >> KEY_SHIFT), key & _TOTAL_MASK)
    return strength


# --- the evaluator ---------------------------------------------------------------------
# Values are handled as bit masks: bit ``v - 1`` stands for value ``v``. A joker is the mask
# of the values it may take; its colour is always free.

RUN_KEY = Formation.RUN << KEY_SHIFT
COLOUR_KEY = Formation.COLOUR << KEY_SHIFT
TRIPS_KEY = Formation.THREE_OF_A_KIND << KEY_SHIFT
COLOUR_RUN_KEY = Formation.COLOUR_RUN << KEY_SHIFT


def joker_fills(need: int, jokers: Sequence[int]) -> bool:
    """Can the jokers (value masks) take exactly the values in ``need``, one each?"""
    if not jokers:
        return need == 0
    first, rest = jokers[0], jokers[1:]
    options = need & first
    while options:
        bit = options & -options
        if joker_fills(need ^ bit, rest):
            return True
        options ^= bit
    return False


def best_key(
    values: Sequence[int], colours: Sequence[object], jokers: Sequence[int], max_value: int, fog: bool
) -> int:
    """Strength key of exactly these cards: clan ``values``/``colours`` plus ``jokers``
    (value masks), each joker at its best value and colour."""
    n = len(values) + len(jokers)
    top = sum(values) + sum(j.bit_length() for j in jokers)  # each joker at its highest value
    if fog:
        return top
    vmask = 0
    for v in values:
        vmask |= 1 << (v - 1)
    same_colour = len(set(colours)) <= 1
    run_total = 0
    if vmask.bit_count() == len(values):  # a run needs distinct values
        full = (1 << n) - 1
        for low in range(max_value - n + 1, 0, -1):  # highest window first
            window = full << (low - 1)
            if not vmask & ~window and joker_fills(window & ~vmask, jokers):
                run_total = n * low + n * (n - 1) // 2
                break
    if run_total and same_colour:
        return COLOUR_RUN_KEY | run_total
    if vmask.bit_count() <= 1:  # all clan values equal (or no clan card)
        candidates = (vmask,) if vmask else tuple(1 << v for v in range(max_value - 1, -1, -1))
        for bit in candidates:
            if all(j & bit for j in jokers):
                return TRIPS_KEY | n * bit.bit_length()
    if same_colour:
        return COLOUR_KEY | top
    if run_total:
        return RUN_KEY | run_total
    return top


class Tables:
    """Per-ruleset constants and lazily built lookup tables (see :func:`tables`)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.max_value = ruleset.max_value
        self.all_values = (1 << ruleset.max_value) - 1
        self.joker_values: dict[Tactic, int] = {
            Tactic.LEADER: self.all_values,
            Tactic.REINFORCEMENT: 1 << (ruleset.reinforcement_value - 1),
            Tactic.SHIELD_BEARER: 0b111,
        }
        self.clan_ids: tuple[int, ...] = tuple(c.id for c in ruleset.clan_deck())
        self.clan_mask = sum(1 << i for i in self.clan_ids)
        self._triples: dict[int, int] | None = None

    @property
    def triples(self) -> dict[int, int]:
        """Strength key of every 3-card set of clan cards, keyed by the mask of its ids."""
        if self._triples is None:
            # best_key's rules spelled out for three clan cards: this runs 24,804 times
            # (34,220 in Battle Line) on the first claim of a process.
            table: dict[int, int] = {}
            for a, b, c in combinations(self.ruleset.clan_deck(), 3):
                low, mid, high = sorted((a.value, b.value, c.value))
                run = mid == low + 1 and high == mid + 1
                if a.colour == b.colour == c.colour:
                    key = COLOUR_RUN_KEY if run else COLOUR_KEY
                elif low == high:
                    key = TRIPS_KEY
                else:
                    key = RUN_KEY if run else 0
                table[1 << a.id | 1 << b.id | 1 << c.id] = key | (low + mid + high)
            self._triples = table
        return self._triples


_TABLES: dict[str, Tables] = {}


def tables(ruleset: Ruleset | str = SCHOTTEN_TOTTEN) -> Tables:
    """The cached :class:`Tables` of a ruleset (given by object or name)."""
    name = ruleset.name if isinstance(ruleset, Ruleset) else ruleset
    t = _TABLES.get(name)
    if t is None:
        rs = get_ruleset(ruleset)
        t = _TABLES.get(rs.name)
        if t is None:
            t = _TABLES[rs.name] = Tables(rs)
        _TABLES[name] = t
    return t


def parse_side(cards: Iterable[str | Card], t: Tables) -> tuple[list[ClanCard], list[TacticCard], list[Card]]:
    """Split a side into clan cards and jokers, and all of them in their order; refuse
    cards that cannot lie on a side."""
    clan: list[ClanCard] = []
    jokers: list[TacticCard] = []
    every: list[Card] = []
    for item in cards:
        # Card objects of this ruleset skip the parser: this runs on the game's hot path.
        card = item if type(item) is ClanCard and t.clan_mask >> item.id & 1 else t.ruleset.parse_card(item)
        every.append(card)
        if type(card) is ClanCard:
            if card in clan:
                raise ValueError(f"{card} appears twice")
            clan.append(card)
        elif is_joker(card):
            jokers.append(card)
        else:
            raise ValueError(f"{card} is not part of a formation")
    return clan, jokers, every


def side_key(
    clan: Sequence[ClanCard], jokers: Sequence[TacticCard], needed: int, fog: bool, t: Tables
) -> int:
    """Strength key of a complete side (the strongest subset of ``needed`` cards)."""
    count = len(clan) + len(jokers)
    if count < needed:
        raise ValueError(f"a side needs {needed} cards, this one has {count}")
    if count == needed == 3 and not jokers and not fog:
        return t.triples[1 << clan[0].id | 1 << clan[1].id | 1 << clan[2].id]
    jvals = [t.joker_values[j.tactic] for j in jokers]
    if count == needed:
        return best_key([c.value for c in clan], [c.colour for c in clan], jvals, t.max_value, fog)
    best = -1
    items = [(c.value, c.colour, 0) for c in clan] + [(0, None, j) for j in jvals]
    for subset in combinations(items, needed):
        key = best_key(
            [v for v, _, j in subset if not j],
            [c for _, c, j in subset if not j],
            [j for _, _, j in subset if j],
            t.max_value,
            fog,
        )
        if key > best:
            best = key
    return best


def side_strength(
    cards: Iterable[str | Card],
    *,
    needed: int = 3,
    fog: bool = False,
    ruleset: Ruleset | str = SCHOTTEN_TOTTEN,
) -> Strength:
    """Strength of a complete side: card texts or objects, jokers included.

    ``needed`` is 3, or 4 under Mud; a side holding more cards than needed counts its
    strongest subset. Raises :class:`ValueError` for a side with fewer than ``needed``
    cards, a clan card twice, or a tactic that is no joker; ``NotationError`` (a
    ``ValueError``) for text that names no card of the ruleset.
    """
    t = tables(ruleset)
    clan, jokers, _ = parse_side(cards, t)
    return strength_of_key(side_key(clan, jokers, needed, fog, t))


def formation_strength(
    cards: Sequence[str | Card],
    *,
    fog: bool = False,
    ruleset: Ruleset | str = SCHOTTEN_TOTTEN,
) -> Strength:
    """Strength of one formation of exactly 3 cards (4 under Mud). Public contract.

    >>> formation_strength(["R7", "R8", "R9"]) > formation_strength(["Y9", "G9", "B9"])
    True
    """
    cards = list(cards)
    if len(cards) not in (3, 4):
        raise ValueError(f"a formation has 3 cards (4 under Mud), not {len(cards)}")
    return side_strength(cards, needed=len(cards), fog=fog, ruleset=ruleset)

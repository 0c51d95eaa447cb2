"""Claims: may a player take a stone now?

- :func:`prove_claim` returns a :class:`Proof` (``ok``, ``counter_example``, ``mine``,
  ``best_theirs``); the game uses it for legal moves and to explain a failed claim.
- :func:`claim_is_provable` is the public contract: the same answer as a bool.

The rule (`docs/rules.md`, Claims): if the opponent's side is complete the two sides are
compared and a tie goes to the side completed first. If it is incomplete, the claim holds
only if no completion of it from the clan cards not on the table (deck and both hands)
beats the claimer's side; an equal completion does not beat it, since the claimer
completed first. Jokers already on the opponent's side count as they lie, at their best
value; unplayed tactic cards are never considered. Too few clan cards left to complete
the opponent's side: the claim holds.

**Fast path for the game**: pass card objects for ``mine`` and ``theirs`` (a list or a
tuple) and ``unplayed`` as an ``int`` bit mask of card ids (``sum(1 << card.id for card
in ...)``, bit ``card.id`` set for every clan card not on the table). Bits of tactic
cards, of cards outside the ruleset and of cards on either side are ignored. ``unplayed``
may also be any iterable (set, frozenset, list) of card objects or texts; it is turned
into that mask first.

How it is fast: the strongest completion of the opponent's side is found without trying
every completion. Base game (3 clan cards a side, no Fog): the 3-card formations of the
ruleset are ranked once, strongest first, also per card and per pair already on a side;
the first entry whose missing cards are all unplayed is the strongest completion (a mask
test per entry, usually a handful). With very few unplayed cards, every completion is
looked up instead; in between, and whenever jokers, Mud or Fog are involved, the
formations are tried strongest first and the best completion of each is built directly
from per-colour bit masks of the unplayed values (highest run window the unplayed cards
and jokers can fill, highest value with enough colours left, best colour, highest
values): the first formation that can be reached, at its best total, is the strongest.
Figures: ``python bench/claims.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from rules.cards import CARDS_BY_ID, Card, ClanCard, TacticCard
from rules.formations import (
    COLOUR_KEY,
    COLOUR_RUN_KEY,
    RUN_KEY,
    TRIPS_KEY,
    Strength,
    Tables,
    parse_side,
    side_key,
    strength_of_key,
    tables,
)
from rules.rulesets import SCHOTTEN_TOTTEN, Ruleset

__all__ = ["Proof", "claim_is_provable", "prove_claim"]

_COLOUR_BITS = 10  # card.id = colour index * 10 + value - 1
_COLOUR_FIELD = (1 << _COLOUR_BITS) - 1


class Proof(NamedTuple):
    """The answer to a claim. ``bool(proof)`` is ``proof.ok``.

    ``mine``: the claimer's strength. ``counter_example`` (only when not ok): a full side
    the opponent could end with that beats ``mine``: their cards as they lie, then the
    unplayed clan cards that complete it (or just their side, when it is complete).
    ``best_theirs``: the strongest side the opponent has or can still reach; ``None`` when
    too few clan cards are left to complete it.
    """

    ok: bool
    counter_example: tuple[Card, ...] | None
    mine: Strength
    best_theirs: Strength | None

    def __bool__(self) -> bool:
        return self.ok


def _unplayed_mask(unplayed: Iterable[str | Card], t: Tables) -> int:
    mask = 0
    for item in unplayed:
        card = item if type(item) is ClanCard or type(item) is TacticCard else t.ruleset.parse_card(item)
        if type(card) is ClanCard:
            mask |= 1 << card.id
    return mask & t.clan_mask


def _supply(need: int, jokers: Sequence[int], avail: int) -> int:
    """Values of ``need`` the unplayed cards must give once the jokers took theirs, or -1."""
    if not jokers:
        return need if not need & ~avail else -1
    options = need & jokers[0]
    while options:
        bit = options & -options
        rest = _supply(need ^ bit, jokers[1:], avail)
        if rest >= 0:
            return rest
        options ^= bit
    return -1


def _top(fields: Sequence[int], m: int, max_value: int) -> tuple[int, list[int]]:
    """Sum and card ids of the ``m`` highest unplayed values over the given colour fields."""
    total = 0
    ids: list[int] = []
    for v in range(max_value, 0, -1):
        bit = 1 << (v - 1)
        for c, field in enumerate(fields):
            if field & bit:
                total += v
                ids.append(c * _COLOUR_BITS + v - 1)
                if len(ids) == m:
                    return total, ids
    return total, ids


def _ids_of(values: int, field_of: Sequence[int], colours: Sequence[int]) -> list[int]:
    """Card ids for each value bit, each from the first of ``colours`` that has it."""
    ids = []
    while values:
        bit = values & -values
        v = bit.bit_length()
        for c in colours:
            if field_of[c] & bit:
                ids.append(c * _COLOUR_BITS + v - 1)
                break
        values ^= bit
    return ids


def _runs(mask: int, n: int) -> int:
    """Bit ``l`` set for every run of ``n`` values ``l+1 .. l+n`` all in ``mask``."""
    for _ in range(n - 1):
        mask &= mask >> 1
    return mask


def _best_without_jokers(
    fields: list[int],
    vmask: int,
    colours: Sequence[int],
    distinct: bool,
    same_colour: bool,
    base: int,
    n: int,
    m: int,
    max_value: int,
) -> tuple[int, list[int]]:
    """:func:`best_completion` without jokers, on whole masks instead of trying windows."""
    # Windows that hold every clan value: start at most at the lowest, reach the highest.
    if vmask:
        low_bit = (vmask & -vmask).bit_length() - 1
        lows = ((1 << (low_bit + 1)) - 1) & ~((1 << max(0, vmask.bit_length() - n)) - 1)
    else:
        lows = -1
    run_sum = n * (n + 1) // 2  # the values 1..n; a window at bit l adds n * l

    if distinct and same_colour:
        best, best_colour = -1, 0
        for c in colours:
            found = _runs(fields[c] | vmask, n) & lows
            if found.bit_length() > best:
                best, best_colour = found.bit_length(), c
        if best > 0:
            low = best - 1
            need = (((1 << n) - 1) << low) & ~vmask
            return COLOUR_RUN_KEY | (run_sum + n * low), _ids_of(need, fields, (best_colour,))

    if vmask.bit_count() <= 1:
        # Values held by at least m colours (counting with a small bit-sliced counter).
        if vmask:
            have = [c for c in range(6) if fields[c] & vmask]
            enough = vmask if len(have) >= m else 0
        else:
            counts = [0] * (m + 1)
            for field in fields:
                for k in range(m, 0, -1):
                    counts[k] |= counts[k - 1] & field if k > 1 else field
            enough = counts[m]
        if enough:
            bit = 1 << (enough.bit_length() - 1)
            v = bit.bit_length()
            have = [c for c in range(6) if fields[c] & bit]
            return TRIPS_KEY | n * v, [c * _COLOUR_BITS + v - 1 for c in have[:m]]

    if same_colour:
        best, best_ids = -1, []
        for c in colours:
            if fields[c].bit_count() >= m:
                total, ids = _top((fields[c],), m, max_value)
                if total > best:
                    best, best_ids = total, [c * _COLOUR_BITS + i for i in ids]
        if best >= 0:
            return COLOUR_KEY | (base + best), best_ids

    if distinct:
        found = _runs(fields[0] | fields[1] | fields[2] | fields[3] | fields[4] | fields[5] | vmask, n) & lows
        if found:
            low = found.bit_length() - 1
            need = (((1 << n) - 1) << low) & ~vmask
            return RUN_KEY | (run_sum + n * low), _ids_of(need, fields, range(6))

    total, ids = _top(fields, m, max_value)
    return base + total, ids


def best_completion(
    clan: Sequence[ClanCard], jokers: Sequence[int], m: int, unplayed: int, fog: bool, t: Tables
) -> tuple[int, list[int]]:
    """Strongest key that ``m`` unplayed clan cards can give this side, and their ids.

    ``jokers`` are value masks. Requires at least ``m`` cards in ``unplayed``.
    """
    max_value = t.max_value
    fields = [unplayed >> (c * _COLOUR_BITS) & _COLOUR_FIELD for c in range(6)]
    n = len(clan) + len(jokers) + m
    base = sum(c.value for c in clan) + sum(j.bit_length() for j in jokers)
    if fog:
        total, ids = _top(fields, m, max_value)
        return base + total, ids

    vmask = 0
    colour_set = set()
    for card in clan:
        vmask |= 1 << (card.value - 1)
        colour_set.add(card.id // _COLOUR_BITS)
    distinct = vmask.bit_count() == len(clan)
    colours = tuple(colour_set) if colour_set else tuple(range(6))
    same_colour = len(colour_set) <= 1
    if not jokers:
        return _best_without_jokers(fields, vmask, colours, distinct, same_colour, base, n, m, max_value)
    full = (1 << n) - 1
    lows = range(max_value - n + 1, 0, -1)
    if clan:  # the window must hold the clan values: skip the hopeless ones
        lows = range(min(max_value - n + 1, clan[0].value), max(0, clan[0].value - n), -1)

    if distinct and same_colour:
        for low in lows:
            window = full << (low - 1)
            if vmask & ~window:
                continue
            need = window & ~vmask
            for c in colours:
                got = _supply(need, jokers, fields[c])
                if got >= 0:
                    return COLOUR_RUN_KEY | (n * low + n * (n - 1) // 2), _ids_of(got, fields, (c,))

    if vmask.bit_count() <= 1:
        bits = (vmask,) if vmask else tuple(1 << v for v in range(max_value - 1, -1, -1))
        for bit in bits:
            if all(j & bit for j in jokers):
                have = [c for c in range(6) if fields[c] & bit]
                if len(have) >= m:
                    v = bit.bit_length()
                    return TRIPS_KEY | n * v, [c * _COLOUR_BITS + v - 1 for c in have[:m]]

    if same_colour:
        best, best_ids = -1, []
        for c in colours:
            if fields[c].bit_count() >= m:
                total, ids = _top((fields[c],), m, max_value)
                if total > best:
                    best, best_ids = total, [c * _COLOUR_BITS + i for i in ids]
        if best >= 0:
            return COLOUR_KEY | (base + best), best_ids

    if distinct:
        anyval = fields[0] | fields[1] | fields[2] | fields[3] | fields[4] | fields[5]
        for low in lows:
            window = full << (low - 1)
            if vmask & ~window:
                continue
            got = _supply(window & ~vmask, jokers, anyval)
            if got >= 0:
                return RUN_KEY | (n * low + n * (n - 1) // 2), _ids_of(got, fields, range(6))

    total, ids = _top(fields, m, max_value)
    return base + total, ids


class _PlainTables:
    """Every 3-card clan formation sorted strongest first, and the same list split by
    the card(s) already on a side. The first entry whose missing cards are all unplayed
    is then the strongest completion. Built lazily, once per ruleset."""

    def __init__(self, t: Tables) -> None:
        ranked = sorted(t.triples.items(), key=lambda item: -item[1])
        self.masks = tuple(mask for mask, _ in ranked)
        self.keys = tuple(key for _, key in ranked)
        # Completions of one card (the other two as a mask) and of a pair (the third bit).
        by_card: dict[int, tuple[list[int], list[int]]] = {i: ([], []) for i in t.clan_ids}
        by_pair: dict[int, tuple[list[int], list[int]]] = {}
        for mask, key in ranked:
            bits = [mask & -mask]
            bits.append((mask ^ bits[0]) & -(mask ^ bits[0]))
            bits.append(mask ^ bits[0] ^ bits[1])
            for bit in bits:
                masks, keys = by_card[bit.bit_length() - 1]
                masks.append(mask ^ bit)
                keys.append(key)
                masks, keys = by_pair.setdefault(mask ^ bit, ([], []))
                masks.append(bit)
                keys.append(key)
        self.by_card = {i: (tuple(m), tuple(k)) for i, (m, k) in by_card.items()}
        self.by_pair = {i: (tuple(m), tuple(k)) for i, (m, k) in by_pair.items()}


_PLAIN: dict[str, _PlainTables] = {}

# How to find the strongest completion, by the number of missing cards and unplayed
# cards u: few cards, try every completion (C(u, k) table look-ups); many cards, scan the
# ranked list, where a possible completion comes early (after ~(51/u)^k entries); in
# between, build it formation by formation (best_completion), which costs the same anywhere.
_ENUMERATE_UP_TO = {1: 0, 2: 4, 3: 5}
_SCAN_FROM = {1: 0, 2: 8, 3: 14}


def _prove_plain(
    mine: Sequence[str | Card], theirs: Sequence[str | Card], pool: int, mine_completed_first: bool, t: Tables
) -> Proof | None:
    """The base-game case: 3 clan cards a side, no Fog, card objects. ``None``: not this case."""
    if len(mine) != 3:
        return None
    a, b, c = mine
    if type(a) is not ClanCard or type(b) is not ClanCard or type(c) is not ClanCard:
        return None  # a joker, or card texts
    triples = t.triples
    mine_mask = 1 << a.id | 1 << b.id | 1 << c.id
    mine_key = triples.get(mine_mask)
    if mine_key is None:  # a card twice, not this ruleset's
        return None
    their_clan: list[ClanCard] = []
    their_mask = 0
    for card in theirs:
        if type(card) is not ClanCard:
            return None
        their_mask |= 1 << card.id
        their_clan.append(card)
    missing = 3 - len(theirs)
    if their_mask & (mine_mask | ~t.clan_mask) or their_mask.bit_count() != 3 - missing:
        return None
    mine_strength = strength_of_key(mine_key)
    if missing <= 0:
        their_key = triples.get(their_mask)
        if their_key is None:
            return None
        ok = mine_key > their_key or (mine_key == their_key and mine_completed_first)
        return Proof(ok, None if ok else tuple(their_clan), mine_strength, strength_of_key(their_key))

    pool &= t.clan_mask & ~mine_mask & ~their_mask
    count = pool.bit_count()
    if count < missing:
        return Proof(True, None, mine_strength, None)
    best, best_mask = -1, 0
    if count >= _SCAN_FROM[missing]:  # the usual case
        plain = _PLAIN.get(t.ruleset.name)
        if plain is None:
            plain = _PLAIN[t.ruleset.name] = _PlainTables(t)
        if missing == 1:
            masks, keys = plain.by_pair[their_mask]
        elif missing == 2:
            masks, keys = plain.by_card[their_mask.bit_length() - 1]
        else:
            masks, keys = plain.masks, plain.keys
        for index, mask in enumerate(masks):
            if mask & pool == mask:
                best, best_mask = keys[index], mask | their_mask
                break
    elif count <= _ENUMERATE_UP_TO[missing]:
        ids = [i for i in t.clan_ids if pool >> i & 1]
        for trio in combinations(ids, missing):
            mask = their_mask
            for i in trio:
                mask |= 1 << i
            key = triples[mask]
            if key > best:
                best, best_mask = key, mask
    else:
        best, added_ids = best_completion(their_clan, (), missing, pool, False, t)
        best_mask = their_mask
        for i in added_ids:
            best_mask |= 1 << i
    if best <= mine_key:  # an equal completion loses: mine was complete first
        return Proof(True, None, mine_strength, strength_of_key(best))
    counter: list[Card] = list(their_clan)
    added = best_mask & ~their_mask
    while added:
        bit = added & -added
        counter.append(CARDS_BY_ID[bit.bit_length() - 1])
        added ^= bit
    return Proof(False, tuple(counter), mine_strength, strength_of_key(best))


def prove_claim(
    mine: Iterable[str | Card],
    theirs: Iterable[str | Card],
    unplayed: int | Iterable[str | Card],
    *,
    needed: int = 3,
    fog: bool = False,
    mine_completed_first: bool = True,
    ruleset: Ruleset | str = SCHOTTEN_TOTTEN,
) -> Proof:
    """Can the player with the complete side ``mine`` claim the stone now?

    ``theirs``: the opponent's side at the stone (possibly empty or complete);
    ``unplayed``: the clan cards not on the table, as an int mask of card ids (fast) or an
    iterable of cards; ``needed``: 3, or 4 under Mud; ``mine_completed_first`` decides a
    tie between two complete sides (an incomplete ``theirs`` can never have been
    completed first). Raises :class:`ValueError` if ``mine`` is incomplete.
    """
    t = tables(ruleset)
    # The game's lists and tuples as they are, anything else (read once) as a tuple.
    ours: Sequence[str | Card] = mine if type(mine) is tuple or type(mine) is list else tuple(mine)
    other: Sequence[str | Card] = theirs if type(theirs) is tuple or type(theirs) is list else tuple(theirs)
    pool = unplayed & t.clan_mask if isinstance(unplayed, int) else _unplayed_mask(unplayed, t)
    if needed == 3 and not fog:
        proof = _prove_plain(ours, other, pool, mine_completed_first, t)
        if proof is not None:  # None: jokers or card texts, the general path below
            return proof
    mine_clan, mine_jokers, _ = parse_side(ours, t)
    their_clan, their_jokers, their_cards = parse_side(other, t)
    mine_key = side_key(mine_clan, mine_jokers, needed, fog, t)
    mine_strength = strength_of_key(mine_key)
    missing = needed - len(their_clan) - len(their_jokers)
    if missing <= 0:
        their_key = side_key(their_clan, their_jokers, needed, fog, t)
        ok = mine_key > their_key or (mine_key == their_key and mine_completed_first)
        counter = None if ok else tuple(their_cards)
        return Proof(ok, counter, mine_strength, strength_of_key(their_key))

    for card in mine_clan:
        pool &= ~(1 << card.id)
    for card in their_clan:
        pool &= ~(1 << card.id)
    if pool.bit_count() < missing:
        return Proof(True, None, mine_strength, None)
    jvals = [t.joker_values[j.tactic] for j in their_jokers]
    their_key, ids = best_completion(their_clan, jvals, missing, pool, fog, t)
    if their_key <= mine_key:  # an equal completion loses: mine was complete first
        return Proof(True, None, mine_strength, strength_of_key(their_key))
    counter = (*their_cards, *(CARDS_BY_ID[i] for i in sorted(ids)))
    return Proof(False, counter, mine_strength, strength_of_key(their_key))


def prepare(ruleset: Ruleset | str = SCHOTTEN_TOTTEN) -> None:
    """Build a ruleset's lookup tables now (a few hundred ms, once per process) instead of
    inside the first proof, so a server can do it before it takes requests."""
    t = tables(ruleset)
    _ = t.triples
    if t.ruleset.name not in _PLAIN:
        _PLAIN[t.ruleset.name] = _PlainTables(t)


def claim_is_provable(
    mine: Sequence[str | Card],
    theirs: Sequence[str | Card],
    unplayed: Iterable[str | Card] | int,
    *,
    mud: bool = False,
    fog: bool = False,
    mine_completed_first: bool = True,
    ruleset: Ruleset | str = SCHOTTEN_TOTTEN,
) -> bool:
    """Public contract: may the player whose complete side is ``mine`` claim the stone now?

    Cards are texts or card objects; ``unplayed`` the clan cards not on the table (deck
    and both hands). A side that is not complete yet can never claim: ``False``.
    """
    needed = 4 if mud else 3
    mine = list(mine)
    if len(mine) < needed:
        return False
    return prove_claim(
        mine,
        theirs,
        unplayed,
        needed=needed,
        fog=fog,
        mine_completed_first=mine_completed_first,
        ruleset=ruleset,
    ).ok

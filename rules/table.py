"""The table of a game: the stones with both sides, the hands, the decks, the discards,
and what the rules ask of them (where a card fits, which stone can be claimed now). The
turns and moves are :class:`rules.game.Game`'s, which is a :class:`Table`; the tactic
cards' moves are in :mod:`rules.tactics`, the state as data in :mod:`rules.serialization`.

Internally stones are 0-8 and the decks are lists whose *end* is the top; the API and
the notation use stones 1-9. The clan cards not on the table (deck and both hands) are
kept as an int bit mask (``1 << card.id``) for the claim proofs.
"""

from __future__ import annotations

from typing import Self

from rules import errors
from rules.cards import CARDS_BY_ID, Card, ClanCard, Tactic, tactic_card
from rules.claims import prove_claim
from rules.moves import Claim, Draw, LogMove, Pass, PlayCard, Scout
from rules.rulesets import Ruleset
from rules.values import GameOptions, Phase, Reason, Result, TurnPhase
from rules.view import StoneView

STONES = 9

LEADER = tactic_card(Tactic.LEADER)
FOG = tactic_card(Tactic.FOG)
MUD = tactic_card(Tactic.MUD)
SCOUT = tactic_card(Tactic.SCOUT)
REDEPLOY = tactic_card(Tactic.REDEPLOY)
DESERTER = tactic_card(Tactic.DESERTER)
TRAITOR = tactic_card(Tactic.TRAITOR)

# Moves are interned so that legal move generation allocates nothing per move.
_PLAY = [[PlayCard(card, s) for s in range(STONES + 1)] for card in CARDS_BY_ID]
_CLAIM = [Claim(s) for s in range(STONES + 1)]
_PASS = Pass()
_DRAW_CLAN = Draw("clan")
_DRAW_TACTIC = Draw("tactic")
_DRAW_NONE = Draw(None)
_SCOUT = Scout()
_BIT = [1 << card.id for card in CARDS_BY_ID]
_ADJACENT = [(i, i + 1, i + 2) for i in range(STONES - 2)]


_FULL: dict[str, int] = {}


def _full_mask(rules: Ruleset) -> int:
    """The bit mask of every clan card of a ruleset."""
    mask = _FULL.get(rules.name)
    if mask is None:
        mask = _FULL[rules.name] = sum(_BIT[card.id] for card in rules.clan_deck())
    return mask


# The clan cards by id: their ids come first, 0 to 59 (CARDS_BY_ID holds them all).
_CLAN_BY_ID = [card for card in CARDS_BY_ID if isinstance(card, ClanCard)]
assert all(card.id == i for i, card in enumerate(_CLAN_BY_ID))


def _mask_cards(mask: int) -> list[ClanCard]:
    out = []
    while mask:
        low = mask & -mask
        out.append(_CLAN_BY_ID[low.bit_length() - 1])
        mask ^= low
    return out


# --------------------------------------------------------------------------- claims glue
# The formation and proof code lives in rules.formations / rules.claims; this is the
# only place that calls it.


def _prove(
    mine: list[Card], theirs: list[Card], unplayed: int, needed: int, fog: bool, first: bool, ruleset: Ruleset
) -> tuple[bool, tuple[Card, ...] | None]:
    """(ok, counter_example) from rules.claims; ``first``: the claimer completed first."""
    proof = prove_claim(
        mine, theirs, unplayed, needed=needed, fog=fog, mine_completed_first=first, ruleset=ruleset
    )
    return proof.ok, proof.counter_example


# A cached claim check (Table._check): the stone's epoch, the claimer's side length, ok,
# lost, the counter-example and its card mask.
_Proved = tuple[int, int, bool, bool, tuple[Card, ...] | None, int]


class Table:
    """The state of one game's table and the rules' questions about it (see the module)."""

    __slots__ = (
        "_cache",
        "_clan_deck",
        "_complete",
        "_current",
        "_epoch",
        "_first",
        "_fog",
        "_hands",
        "_known",
        "_known_hand",
        "_leaders",
        "_log",
        "_mud",
        "_owner",
        "_passes",
        "_phase",
        "_result",
        "_rules",
        "_scout_left",
        "_sides",
        "_tactic_deck",
        "_tactics_played",
        "_unplayed",
        "discards",
        "first_player",
        "options",
        "seed",
    )
    # Slot types, for the type checker (a slotted class declares them without values).
    seed: int | str | None  # None: a sampled game (AI search), not replayable
    options: GameOptions
    first_player: int | None
    discards: list[tuple[int, Card]]  # (who discarded it, card): face up, on the table
    _rules: Ruleset
    _hands: list[list[Card]]
    _clan_deck: list[Card]
    _tactic_deck: list[Card]
    _sides: list[list[list[Card]]]  # [stone][player] -> cards, in the order played
    _owner: list[int | None]
    _first: list[int | None]  # who completed their side first, per stone
    _fog: list[int | None]  # who placed Fog there, per stone
    _mud: list[int | None]
    _epoch: list[int]  # bumped when a stone changes, invalidating cached proofs
    _complete: list[int]  # per player: bit mask of stones where their side is complete
    _current: int  # stays the last mover's opponent once the game is over
    _phase: TurnPhase  # "over" is derived from _result
    _passes: int
    _tactics_played: list[int]
    _leaders: list[int]
    _scout_left: int
    _known: list[set[tuple[str, int]]]  # (deck, position) of cards a player put back with Scout
    _known_hand: list[list[Card]]  # of those, the ones the opponent drew
    _log: list[tuple[int, LogMove]]
    _result: Result | None
    _unplayed: int  # bit mask of clan card ids not on the table
    _cache: list[list[_Proved | None]]  # [player][stone], see _check

    # ---------------------------------------------------------------- construction

    def __init__(self) -> None:
        raise TypeError("use Game.new(seed, options), Game.from_dict(d) or Game.replay(...)")

    @classmethod
    def _blank(cls) -> Self:
        g = object.__new__(cls)
        g._cache = [[None] * STONES, [None] * STONES]
        return g

    def clone(self) -> Self:
        g = object.__new__(type(self))
        g._cache = [list(self._cache[0]), list(self._cache[1])]
        g.seed = self.seed
        g.options = self.options
        g._rules = self._rules
        g.first_player = self.first_player
        g._hands = [list(self._hands[0]), list(self._hands[1])]
        g._clan_deck = list(self._clan_deck)
        g._tactic_deck = list(self._tactic_deck)
        g._sides = [[list(a), list(b)] for a, b in self._sides]
        g._owner = list(self._owner)
        g._first = list(self._first)
        g._fog = list(self._fog)
        g._mud = list(self._mud)
        g._epoch = list(self._epoch)
        g._complete = list(self._complete)
        g.discards = list(self.discards)
        g._unplayed = self._unplayed
        g._current = self._current
        g._phase = self._phase
        g._passes = self._passes
        g._tactics_played = list(self._tactics_played)
        g._leaders = list(self._leaders)
        g._scout_left = self._scout_left
        g._known = [set(self._known[0]), set(self._known[1])]
        g._known_hand = [list(self._known_hand[0]), list(self._known_hand[1])]
        g._log = list(self._log)
        g._result = self._result
        return g

    # ---------------------------------------------------------------- public state

    @property
    def ruleset(self) -> Ruleset:
        return self._rules

    @property
    def current_player(self) -> int | None:
        return None if self._result is not None else self._current

    @property
    def phase(self) -> Phase:
        return "over" if self._result is not None else self._phase

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def log(self) -> list[tuple[int, LogMove]]:
        return list(self._log)

    @property
    def version(self) -> int:
        return len(self._log)

    @property
    def deck_sizes(self) -> tuple[int, int]:
        """(clan, tactic) cards left to draw."""
        return (len(self._clan_deck), len(self._tactic_deck))

    @property
    def tactics_played(self) -> tuple[int, int]:
        return (self._tactics_played[0], self._tactics_played[1])

    @property
    def consecutive_passes(self) -> int:
        return self._passes

    def hand(self, player: int) -> tuple[Card, ...]:
        return tuple(self._hands[player])

    def stone(self, number: int) -> StoneView:
        s = number - 1
        if not 0 <= s < STONES:
            raise errors.NoSuchStone(stone=number)
        a, b = self._sides[s]
        return StoneView(
            number, (tuple(a), tuple(b)), self._owner[s], self._fog[s], self._mud[s], self._first[s]
        )

    @property
    def stones(self) -> tuple[StoneView, ...]:
        return tuple(self.stone(n) for n in range(1, STONES + 1))

    def unplayed_clan_cards(self) -> list[ClanCard]:
        """The clan cards not on the table (deck and both hands), as the proofs see them."""
        return _mask_cards(self._unplayed)

    # ---------------------------------------------------------------- rule helpers

    def _needed(self, s: int) -> int:
        return 3 if self._mud[s] is None else 4

    def _playable(self, player: int) -> list[int]:
        """Internal stone indices where ``player`` can put a card."""
        owner, sides, mud = self._owner, self._sides, self._mud
        return [
            s
            for s in range(STONES)
            if owner[s] is None and len(sides[s][player]) < (3 if mud[s] is None else 4)
        ]

    def playable_stones(self, player: int) -> list[int]:
        """Stones (1-9) where ``player`` has a free place."""
        return [s + 1 for s in self._playable(player)]

    def can_play_card(self, player: int) -> bool:
        """Whether ``player`` holds a clan card and has a free place for it (else: pass)."""
        for card in self._hands[player]:
            if not card.is_tactic:
                break
        else:
            return False
        owner, sides, mud = self._owner, self._sides, self._mud
        for s in range(STONES):
            if owner[s] is None and len(sides[s][player]) < (3 if mud[s] is None else 4):
                return True
        return False

    def _may_play_tactic(self, player: int) -> bool:
        tp = self._tactics_played
        return self.options.tactics and tp[player] <= tp[1 - player]

    def _check(self, s: int, player: int) -> tuple[bool, bool, tuple[Card, ...] | None]:
        """Can ``player`` claim stone s now? -> (ok, lost, counter_example).

        ``lost``: both sides complete and the opponent's is stronger. Results are cached
        per stone; an entry stays valid while the stone's epoch and the claimer's side
        are unchanged and, for a failed proof, while its counter-example can still happen
        and the opponent's side is still open (once it is complete, a refusal becomes a
        comparison: lost, which the cached refusal cannot tell).
        """
        mine = self._sides[s][player]
        theirs = self._sides[s][1 - player]
        entry = self._cache[player][s]
        epoch = self._epoch[s]
        if entry is not None and entry[0] == epoch and entry[1] == len(mine):
            ok, lost, ce, ce_mask = entry[2], entry[3], entry[4], entry[5]
            if ok or lost:
                return ok, lost, ce
            # Still refuted if the opponent's side is still incomplete, still part of the
            # counter-example, and the counter-example's missing cards are all unplayed.
            opp = 0
            for c in theirs:
                opp |= _BIT[c.id]
            if (
                len(theirs) < self._needed(s)
                and opp & ce_mask == opp
                and (ce_mask & ~opp) & ~self._unplayed == 0
            ):
                return False, False, ce
        ok, ce = _prove(
            mine,
            theirs,
            self._unplayed,
            self._needed(s),
            self._fog[s] is not None,
            self._first[s] == player,
            self._rules,
        )
        # Both sides complete and not ok: lost (the comparison cannot change by itself).
        lost = not ok and len(theirs) >= self._needed(s)
        ce_mask = 0
        if not ok and not lost and ce is not None:
            for c in ce:
                ce_mask |= _BIT[c.id]
        result = (ok, lost, None if ok or lost else ce)
        self._cache[player][s] = (epoch, len(mine), result[0], result[1], result[2], ce_mask)
        return result

    def claimable_stones(self, player: int) -> list[int]:
        """Stones (1-9) ``player`` could claim right now (side complete and provable),
        regardless of whose turn it is."""
        if self._result is not None:
            return []
        out = []
        owner = self._owner
        mask = self._complete[player]  # only stones where the side is complete
        while mask:
            low = mask & -mask
            mask ^= low
            s = low.bit_length() - 1
            if owner[s] is None and self._check(s, player)[0]:
                out.append(s + 1)
        return out

    def _claims_allowed(self) -> bool:
        return self._phase == "play" or (self._phase == "draw" and self.options.claim_timing == "anytime")

    def _win_reason(self, player: int) -> Reason | None:
        owner = self._owner
        for a, b, c in _ADJACENT:
            if owner[a] == player and owner[b] == player and owner[c] == player:
                return "three_adjacent"
        if sum(1 for o in owner if o == player) >= 5:
            return "five_stones"
        return None

    def _stones_count(self) -> tuple[int, int]:
        n0 = sum(1 for o in self._owner if o == 0)
        n1 = sum(1 for o in self._owner if o == 1)
        return (n0, n1)

    def _update_first(self, s: int, actor: int) -> None:
        """Keep ``_first[s]`` = the player whose side was complete first. When both sides
        become complete at once (Mud leaving), the actor counts as the last to complete."""
        need = self._needed(s)
        c0 = len(self._sides[s][0]) >= need
        c1 = len(self._sides[s][1]) >= need
        bit = 1 << s
        complete = self._complete
        complete[0] = complete[0] | bit if c0 else complete[0] & ~bit
        complete[1] = complete[1] | bit if c1 else complete[1] & ~bit
        if c0 and c1:
            if self._first[s] is None:
                self._first[s] = 1 - actor
        elif c0:
            self._first[s] = 0
        elif c1:
            self._first[s] = 1
        else:
            self._first[s] = None

    def _count_complete(self) -> list[int]:
        """Per player, the bit mask of stones where the side is complete."""
        out = [0, 0]
        for s, sides in enumerate(self._sides):
            for p in (0, 1):
                if len(sides[p]) >= self._needed(s):
                    out[p] |= 1 << s
        return out

    def _draw_moves(self) -> list[Draw]:
        out = []
        if self._clan_deck:
            out.append(_DRAW_CLAN)
        if self._tactic_deck:
            out.append(_DRAW_TACTIC)
        return out

    def _own_cards_at(self, s: int, p: int) -> list[Card]:
        """p's cards at stone s: the side's cards and p's terrain there."""
        out = list(dict.fromkeys(self._sides[s][p]))
        if self._fog[s] == p:
            out.append(FOG)
        if self._mud[s] == p:
            out.append(MUD)
        return out

    def _terrain_free(self, s: int, card: Card) -> bool:
        return (self._fog if card is FOG else self._mud)[s] is None

    def _scout_ok(self, p: int) -> bool:
        """Scout needs two cards to put back after its (up to three) draws."""
        drawable = min(3, len(self._clan_deck) + len(self._tactic_deck))
        return len(self._hands[p]) - 1 + drawable >= 2

    # ---------------------------------------------------------------- changes

    def _end_turn(self, p: int) -> None:
        self._current = 1 - p
        self._phase = "play"

    def _wrong_phase(self) -> errors.IllegalMove:
        expected = {
            "play": "play a card (or pass) first",
            "draw": "draw a card to end your turn",
            "scout_draw": "draw your Scout cards first",
            "scout_return": "put two cards back on the decks first",
        }[self._phase]
        return errors.WrongPhase(expected=expected)

    def _stone_index(self, number: object) -> int:
        if not isinstance(number, int) or not 1 <= number <= STONES:
            raise errors.NoSuchStone(stone=number)
        return number - 1

    def _check_tactic_allowed(self, p: int) -> None:
        if not self.options.tactics:
            raise errors.TacticsNotInPlay()
        if not self._may_play_tactic(p):
            raise errors.TacticLimit()

    def _remove_from_hand(self, p: int, card: Card) -> None:
        self._hands[p].remove(card)
        known = self._known_hand[1 - p]  # the opponent no longer knows p holds it
        if known and card in known:
            known.remove(card)

    def _open_stone(self, number: object) -> int:
        s = self._stone_index(number)
        if self._owner[s] is not None:
            raise errors.StoneClaimed(stone=number)
        return s

    def _take(self, s: int, q: int, card: Card) -> None:
        """Remove q's card (a side card or q's terrain) from stone s."""
        if card is FOG and self._fog[s] == q:
            self._fog[s] = None
        elif card is MUD and self._mud[s] == q:
            self._mud[s] = None
        else:
            self._sides[s][q].remove(card)
        self._epoch[s] += 1

    def _has_at(self, s: int, q: int, card: Card) -> bool:
        if card is FOG:
            return self._fog[s] == q
        if card is MUD:
            return self._mud[s] == q
        return card in self._sides[s][q]

    def _put(self, t: int, p: int, card: Card) -> None:
        if card is FOG:
            self._fog[t] = p
        elif card is MUD:
            self._mud[t] = p
        else:
            self._sides[t][p].append(card)
        self._epoch[t] += 1
        self._update_first(t, p)

    # ---------------------------------------------------------------- printing

    def __str__(self) -> str:
        opts = self.options
        head = f"{self._rules.title}{' + tactics' if opts.tactics else ''} ({opts.claim_timing} claims)"
        if self._result:
            r = self._result
            who = "draw" if r.winner is None else f"P{r.winner} wins"
            state = f"over: {who} ({r.reason}), stones {r.stones[0]}-{r.stones[1]}"
        else:
            state = f"move {self.version}, P{self._current} to {self._phase}"
        lines = [head, state, f"P1 hand: {' '.join(map(str, self._hands[1])) or '-'}"]
        for s in range(STONES):
            a, b = self._sides[s]
            mark = {None: f" {s + 1} ", 0: f"v{s + 1}v", 1: f"^{s + 1}^"}[self._owner[s]]
            extra = []
            if self._fog[s] is not None:
                extra.append(f"Fog(P{self._fog[s]})")
            if self._mud[s] is not None:
                extra.append(f"Mud(P{self._mud[s]})")
            if self._first[s] is not None:
                extra.append(f"first P{self._first[s]}")
            left = " ".join(map(str, b)).rjust(28)
            right = " ".join(map(str, a)).ljust(28)
            lines.append(f"{left} [{mark}] {right} {' '.join(extra)}".rstrip())
        lines.append(f"P0 hand: {' '.join(map(str, self._hands[0])) or '-'}")
        decks = f"clan deck {len(self._clan_deck)}"
        if opts.tactics:
            t0, t1 = self._tactics_played
            decks += f", tactic deck {len(self._tactic_deck)}, tactics played {t0}-{t1}"
            if self.discards:
                decks += ", discards " + " ".join(f"{c}(P{p})" for p, c in self.discards)
        lines.append(decks)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<Game {self._rules.name} v{self.version} phase={self.phase}>"

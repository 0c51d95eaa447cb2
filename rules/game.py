"""The game: state, turns, legal moves, claims, serialization and replay.

A :class:`Game` is mutable (like OpenSpiel states) and cheap to :meth:`~Game.clone`, so
that an AI can search on copies. Every rule check happens before any change: an illegal
move raises an :class:`~rules.errors.IllegalMove` subclass and leaves the game untouched.

Internally stones are 0-8 and the decks are lists whose *end* is the top; the API and
the notation use stones 1-9. The clan cards not on the table (deck and both hands) are
kept as an int bit mask (``1 << card.id``) for the claim proofs.

Decisions where the rulebook leaves a detail open (`docs/rules.md` and `/schotten rules
decisions` say them too):

- A turn: claims -> play (or pass) -> claims (standard timing only) -> draw. A pass ends
  the turn at once (no draw); a claim never ends it. With both decks empty the draw is
  the move ``draw none``.
- Both players passing in a row: every stone decidable now is decided, then the normal
  win conditions (if only one player meets them), else more stones, else a draw.
  ``match_points`` gives each player 1 per stone in a draw.
- Ties go to the side completed first. If both sides become complete at once (Mud taken
  away), the player who acted counts as the last to complete.
- Leader: once a player has played a Leader, the second one stays in hand for good (a
  discarded Leader still lies on the table).
- Scout draws up to three cards from the decks in any mix (fewer when they run out) and
  then always puts two back; it may only be played when the hand will hold two cards.
- Terrain cards belong to whoever placed them: Deserter may discard the opponent's,
  Redeploy may move one's own to another unclaimed stone (without that terrain) or
  discard it.
- Traitor may put the card on any own side with a free place, the same stone included.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules import errors
from rules.cards import CARDS_BY_ID, Card, ClanCard, Tactic, TacticCard, TacticKind, tactic_card
from rules.claims import prove_claim
from rules.moves import (
    Claim,
    Deserter,
    Draw,
    Move,
    Pass,
    PlayCard,
    Redeploy,
    Scout,
    ScoutReturn,
    Traitor,
)
from rules.moves import Forfeit as Forfeit
from rules.moves import LogMove as LogMove
from rules.moves import Resign as Resign
from rules.moves import parse_log_move as parse_log_move
from rules.rulesets import Ruleset
from rules.values import REASONS as REASONS
from rules.values import ClaimTimingName as ClaimTimingName
from rules.values import GameOptions as GameOptions
from rules.values import Phase as Phase
from rules.values import Reason as Reason
from rules.values import Result as Result
from rules.values import TurnPhase as TurnPhase
from rules.values import match_points as match_points
from rules.values import parse_reason as parse_reason
from rules.view import PlayerView, PublicView, StoneView, public_moves

FORMAT = 1
STONES = 9

LEADER = tactic_card(Tactic.LEADER)
FOG = tactic_card(Tactic.FOG)
MUD = tactic_card(Tactic.MUD)
SCOUT = tactic_card(Tactic.SCOUT)
REDEPLOY = tactic_card(Tactic.REDEPLOY)
DESERTER = tactic_card(Tactic.DESERTER)
TRAITOR = tactic_card(Tactic.TRAITOR)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True, slots=True)
class Applied:
    """What one applied move did. Only ``drawn`` is private (to the mover)."""

    move: LogMove
    player: int
    drawn: Card | None = None
    decided: tuple[tuple[int, int], ...] = ()  # (stone 1-9, new owner) for each stone won
    result: Result | None = None

    @property
    def game_over(self) -> bool:
        return self.result is not None

    @property
    def public_move(self) -> LogMove | None:
        """The move as the opponent may see it: None for a Scout return (which cards went
        back is private to the mover), else the move itself."""
        return None if isinstance(self.move, ScoutReturn) else self.move


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


# --------------------------------------------------------------------------- the game

# A cached claim check (Game._check): the stone's epoch, the claimer's side length, ok,
# lost, the counter-example and its card mask.
_Proved = tuple[int, int, bool, bool, tuple[Card, ...] | None, int]


class Game:
    """One game of Schotten-Totten or Battle Line. See docs/architecture.md, "Game API"."""

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
    def _blank(cls) -> Game:
        g = object.__new__(cls)
        g._cache = [[None] * STONES, [None] * STONES]
        return g

    @classmethod
    def new(
        cls, seed: int | str, options: GameOptions | None = None, first_player: int | None = None
    ) -> Game:
        """A new game dealt from ``seed``: the same seed and options give the same deal.
        ``first_player`` None: chosen from the seed."""
        options = options or GameOptions()
        rules = options.rules
        rng = random.Random(seed)
        clan: list[Card] = list(rules.clan_deck())
        rng.shuffle(clan)
        drawn_first = rng.randrange(2)  # always drawn, so the deal does not depend on it
        if first_player is None:
            first_player = drawn_first
        if first_player not in (0, 1):
            raise ValueError("first_player must be 0, 1 or None")
        tactic: list[Card] = list(rules.tactic_deck()) if options.tactics else []
        rng.shuffle(tactic)
        g = cls._blank()
        g.seed = seed
        g.options = options
        g._rules = rules
        g.first_player = first_player
        n = rules.hand_size
        g._hands = [[clan.pop() for _ in range(n)], [clan.pop() for _ in range(n)]]
        g._clan_deck = clan
        g._tactic_deck = tactic
        g._sides = [[[], []] for _ in range(STONES)]
        g._owner = [None] * STONES
        g._first = [None] * STONES
        g._fog = [None] * STONES
        g._mud = [None] * STONES
        g._epoch = [0] * STONES
        g._complete = [0, 0]
        g.discards = []
        g._unplayed = _full_mask(rules)
        g._current = first_player
        g._phase = "play"
        g._passes = 0
        g._tactics_played = [0, 0]
        g._leaders = [0, 0]
        g._scout_left = 0
        g._known = [set(), set()]
        g._known_hand = [[], []]
        g._log = []
        g._result = None
        return g

    def clone(self) -> Game:
        g = object.__new__(Game)
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

    @classmethod
    def replay(
        cls,
        seed: int | str,
        options: GameOptions | None,
        log: Sequence[tuple[int, LogMove | str]],
        first_player: int | None = None,
    ) -> Game:
        """Rebuild a game from its seed and move log (moves or their text). When
        ``first_player`` is not given it is read from the log's first move."""
        options = options or GameOptions()
        entries = [(p, parse_log_move(m) if isinstance(m, str) else m) for p, m in log]
        if first_player is None:
            first_player = next((p for p, m in entries if not isinstance(m, (Resign, Forfeit))), None)
        g = cls.new(seed, options, first_player)
        for p, m in entries:
            g.apply(m, p)
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

    # ---------------------------------------------------------------- legal moves

    def legal_moves(self) -> list[Move]:
        """Every legal move of the current player (claims only when provable now)."""
        if self._result is not None:
            return []
        p = self._current
        phase = self._phase
        if phase == "play":
            moves: list[Move] = [_CLAIM[n] for n in self.claimable_stones(p)]
            stones = self._playable(p)
            hand = self._hands[p]
            has_clan = False
            for card in hand:
                if not card.is_tactic:
                    has_clan = True
                    row = _PLAY[card.id]
                    moves.extend([row[s + 1] for s in stones])
            if not (has_clan and stones):
                moves.append(_PASS)
            if self.options.tactics and self._may_play_tactic(p):
                moves.extend(self._tactic_moves(p, stones))
            return moves
        if phase == "draw":
            moves = (
                [_CLAIM[n] for n in self.claimable_stones(p)]
                if self.options.claim_timing == "anytime"
                else []
            )
            draws = self._draw_moves()
            moves.extend(draws or [_DRAW_NONE])
            return moves
        if phase == "scout_draw":
            return list(self._draw_moves())
        if phase == "scout_return":
            hand = self._hands[p]
            seen = set()
            out: list[Move] = []
            for i, a in enumerate(hand):
                for j, b in enumerate(hand):
                    if i != j and (a, b) not in seen:
                        seen.add((a, b))
                        out.append(ScoutReturn((a, b)))
            return out
        return []

    def _tactic_moves(self, p: int, stones: list[int]) -> list[Move]:
        """Tactic card moves of player p (the tactic limit already checked)."""
        moves: list[Move] = []
        owner, sides = self._owner, self._sides
        o = 1 - p
        open_stones = [s for s in range(STONES) if owner[s] is None]
        for card in dict.fromkeys(c for c in self._hands[p] if isinstance(c, TacticCard)):
            t = card.tactic
            if t.kind is TacticKind.MORALE:
                if t is Tactic.LEADER and self._leaders[p]:
                    continue
                row = _PLAY[card.id]
                moves.extend(row[s + 1] for s in stones)
            elif t.kind is TacticKind.TERRAIN:
                row = _PLAY[card.id]
                moves.extend(row[s + 1] for s in open_stones)
            elif t is Tactic.SCOUT:
                if self._scout_ok(p):
                    moves.append(_SCOUT)
            elif t is Tactic.REDEPLOY:
                for s in open_stones:
                    for c in self._own_cards_at(s, p):
                        if c.tactic is not None and c.tactic.kind is TacticKind.TERRAIN:
                            targets = [x for x in open_stones if x != s and self._terrain_free(x, c)]
                        else:
                            targets = [x for x in stones if x != s]
                        moves.extend(Redeploy(c, s + 1, x + 1) for x in targets)
                        moves.append(Redeploy(c, s + 1, None))
            elif t is Tactic.DESERTER:
                for s in open_stones:
                    moves.extend(Deserter(c, s + 1) for c in self._own_cards_at(s, o))
            elif t is Tactic.TRAITOR:
                for s in open_stones:
                    for c in sides[s][o]:
                        if not c.is_tactic:
                            moves.extend(Traitor(c, s + 1, x + 1) for x in stones)
        return moves

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

    def forced_move(self) -> Move | None:
        """The move the current player must make anyway (a lone draw, or a pass with
        nothing else to do), else None."""
        if self._result is not None:
            return None
        p = self._current
        phase = self._phase
        if phase == "draw":
            if self.options.claim_timing == "anytime" and self.claimable_stones(p):
                return None
            draws = self._draw_moves()
            if not draws:
                return _DRAW_NONE
            return draws[0] if len(draws) == 1 else None
        if phase == "scout_draw":
            draws = self._draw_moves()
            return draws[0] if len(draws) == 1 else None
        if phase == "play":
            if self.can_play_card(p) or self.claimable_stones(p):
                return None
            if self.options.tactics and self._may_play_tactic(p) and self._tactic_moves(p, self._playable(p)):
                return None
            return _PASS
        return None

    # ---------------------------------------------------------------- applying moves

    def apply(self, move: LogMove | str, player: int | None = None) -> Applied:
        """Apply ``move`` (or its text) for the current player (or check that ``player``
        is current). Raises an IllegalMove subclass and changes nothing when the move is not legal."""
        handler = _HANDLERS.get(type(move))
        if handler is None:
            if isinstance(move, str):
                return self.apply(parse_log_move(move, max_value=self._rules.max_value), player)
            if isinstance(move, (Resign, Forfeit)):
                return self._end_by(self._current if player is None else player, _END_REASON[type(move)])
            raise errors.NotationError(str(move), what="move")
        if self._result is not None:
            raise errors.GameOver()
        p = self._current
        if player is not None and player != p:
            raise errors.NotYourTurn()
        return handler(self, move, p)

    def resign(self, player: int) -> Applied:
        """``player`` resigns: the other player wins (reason "resigned")."""
        return self._end_by(player, "resigned")

    def forfeit(self, player: int) -> Applied:
        """``player`` ran out of time: the other player wins (reason "timeout")."""
        return self._end_by(player, "timeout")

    def _end_by(self, player: int, reason: Reason) -> Applied:
        if self._result is not None:
            raise errors.GameOver()
        if player not in (0, 1):
            raise ValueError("player must be 0 or 1")
        self._result = Result(1 - player, reason, self._stones_count())
        move: LogMove = Resign() if reason == "resigned" else Forfeit()
        self._log.append((player, move))
        return Applied(move, player, result=self._result)

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

    def _claim(self, move: Claim, p: int) -> Applied:
        s = self._stone_index(move.stone)
        if self._phase not in ("play", "draw"):
            raise self._wrong_phase()
        if not self._claims_allowed():
            raise errors.ClaimTiming()
        if self._owner[s] is not None:
            raise errors.StoneClaimed(stone=move.stone)
        if len(self._sides[s][p]) < self._needed(s):
            raise errors.SideIncomplete(stone=move.stone)
        ok, lost, ce = self._check(s, p)
        if not ok:
            if lost:
                raise errors.ClaimLost(stone=move.stone)
            raise errors.ClaimNotProvable(move.stone, ce)
        self._owner[s] = p
        self._log.append((p, move))
        reason = self._win_reason(p)
        if reason:
            self._result = Result(p, reason, self._stones_count())
        return Applied(move, p, decided=((move.stone, p),), result=self._result)

    def _play(self, move: PlayCard, p: int) -> Applied:
        card = move.card
        tactic = card.is_tactic
        if tactic and not self.options.tactics:
            raise errors.TacticsNotInPlay()
        if self._phase != "play":
            raise self._wrong_phase()
        if card not in self._hands[p]:
            raise errors.CardNotInHand(card=card)
        s = self._stone_index(move.stone)
        if self._owner[s] is not None:
            raise errors.StoneClaimed(stone=move.stone)
        side = self._sides[s][p]
        kind = card.kind if isinstance(card, TacticCard) else None
        if kind is TacticKind.RUSE:
            assert isinstance(card, TacticCard)
            verb = _RUSE_VERB[card]
            raise errors.BadTarget(reason=f"{card} is not placed at a stone: play it with `{verb}`.")
        if kind is not TacticKind.TERRAIN and len(side) >= (3 if self._mud[s] is None else 4):
            raise errors.StoneFull(stone=move.stone)
        if tactic:
            self._check_tactic_allowed(p)
            if card is LEADER and self._leaders[p]:
                raise errors.SecondLeader()
            if kind is TacticKind.TERRAIN and not self._terrain_free(s, card):
                raise errors.BadTarget(reason=f"There is already {card} at stone {move.stone}.")
        # -- all checks done: mutate
        self._remove_from_hand(p, card)
        self._passes = 0
        if not tactic:
            side.append(card)
            self._unplayed &= ~_BIT[card.id]
        else:
            self._tactics_played[p] += 1
            self._epoch[s] += 1
            if card is LEADER:
                self._leaders[p] += 1
            if card is FOG:
                self._fog[s] = p
            elif card is MUD:
                self._mud[s] = p
            else:
                side.append(card)
        self._update_first(s, p)
        self._phase = "draw"
        self._log.append((p, move))
        return Applied(move, p)

    def _check_tactic_allowed(self, p: int) -> None:
        if not self.options.tactics:
            raise errors.TacticsNotInPlay()
        if not self._may_play_tactic(p):
            raise errors.TacticLimit()

    def _pass(self, move: Pass, p: int) -> Applied:
        if self._phase != "play":
            raise self._wrong_phase()
        if self.can_play_card(p):
            raise errors.CannotPass()
        self._log.append((p, move))
        self._passes += 1
        if self._passes >= 2:
            decided = self._decide_all()
            return Applied(move, p, decided=decided, result=self._result)
        self._end_turn(p)
        return Applied(move, p)

    def _decide_all(self) -> tuple[tuple[int, int], ...]:
        """Both players passed: decide every stone that can be decided, then end."""
        decided = []
        for s in range(STONES):
            if self._owner[s] is not None:
                continue
            for q in (0, 1):
                if len(self._sides[s][q]) >= self._needed(s) and self._check(s, q)[0]:
                    self._owner[s] = q
                    decided.append((s + 1, q))
                    break
        n = self._stones_count()
        wins = [q for q in (0, 1) if self._win_reason(q)]
        if len(wins) == 1:
            winner: int | None = wins[0]
        elif n[0] != n[1]:
            winner = 0 if n[0] > n[1] else 1
        else:
            winner = None
        self._result = Result(winner, "both_passed", n)
        return tuple(decided)

    def _draw(self, move: Draw, p: int) -> Applied:
        if self._phase not in ("draw", "scout_draw"):
            raise self._wrong_phase()
        deck_name = move.deck
        if deck_name is None:
            if self._clan_deck or self._tactic_deck or self._phase == "scout_draw":
                raise errors.BadTarget(reason="There are still cards to draw: choose a deck.")
            self._log.append((p, move))
            self._end_turn(p)
            return Applied(move, p)
        if deck_name == "tactic" and not self.options.tactics:
            raise errors.TacticsNotInPlay()
        deck = self._clan_deck if deck_name == "clan" else self._tactic_deck
        if not deck:
            raise errors.DeckEmpty(deck=deck_name)
        card = deck.pop()
        self._hands[p].append(card)
        if self._known[0] or self._known[1]:
            top = (deck_name, len(deck))
            for q in (0, 1):
                if top in self._known[q]:
                    self._known[q].discard(top)
                    if q != p:  # q put it there with Scout: q knows p holds it now
                        self._known_hand[q].append(card)
        self._log.append((p, move))
        if self._phase == "draw":
            self._end_turn(p)
        else:
            self._scout_left -= 1
            if self._scout_left == 0 or not (self._clan_deck or self._tactic_deck):
                self._phase = "scout_return"
        return Applied(move, p, drawn=card)

    # ---- tactics: ruses

    def _ruse_start(self, card: TacticCard, p: int) -> None:
        if not self.options.tactics:
            raise errors.TacticsNotInPlay()
        if self._phase != "play":
            raise self._wrong_phase()
        if card not in self._hands[p]:
            raise errors.CardNotInHand(card=card)
        self._check_tactic_allowed(p)

    def _remove_from_hand(self, p: int, card: Card) -> None:
        self._hands[p].remove(card)
        known = self._known_hand[1 - p]  # the opponent no longer knows p holds it
        if known and card in known:
            known.remove(card)

    def _ruse_done(self, card: TacticCard, move: Move, p: int, phase: TurnPhase = "draw") -> Applied:
        self._remove_from_hand(p, card)
        self.discards.append((p, card))
        self._tactics_played[p] += 1
        self._passes = 0
        self._phase = phase
        self._log.append((p, move))
        return Applied(move, p)

    def _open_stone(self, number: object) -> int:
        s = self._stone_index(number)
        if self._owner[s] is not None:
            raise errors.StoneClaimed(stone=number)
        return s

    def _scout(self, move: Scout, p: int) -> Applied:
        self._ruse_start(SCOUT, p)
        if not self._scout_ok(p):
            raise errors.BadTarget(reason="Scout needs at least two cards to put back after drawing.")
        self._scout_left = 3
        applied = self._ruse_done(SCOUT, move, p, "scout_draw")
        if not (self._clan_deck or self._tactic_deck):
            self._phase = "scout_return"
        return applied

    def _scout_return(self, move: ScoutReturn, p: int) -> Applied:
        if self._phase != "scout_return":
            raise self._wrong_phase()
        a, b = move.cards
        hand = self._hands[p]
        need = 2 if a is b else 1
        if hand.count(a) < need or b not in hand:
            raise errors.CardNotInHand(card=a if a not in hand else b)
        for card in (a, b):
            self._remove_from_hand(p, card)
            deck = self._tactic_deck if card.is_tactic else self._clan_deck
            self._known[p].add(("tactic" if card.is_tactic else "clan", len(deck)))
            deck.append(card)
        self._log.append((p, move))
        self._end_turn(p)
        return Applied(move, p)

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

    def _redeploy(self, move: Redeploy, p: int) -> Applied:
        self._ruse_start(REDEPLOY, p)
        s = self._open_stone(move.from_stone)
        card = move.card
        if not self._has_at(s, p, card):
            raise errors.BadTarget(reason=f"You have no {card} at stone {move.from_stone}.")
        terrain = card is FOG or card is MUD
        t = None
        if move.to_stone is not None:
            t = self._open_stone(move.to_stone)
            if t == s:
                raise errors.BadTarget(reason="Redeploy moves a card to another stone.")
            if terrain:
                if not self._terrain_free(t, card):
                    raise errors.BadTarget(reason=f"There is already {card} at stone {move.to_stone}.")
            elif len(self._sides[t][p]) >= self._needed(t):
                raise errors.StoneFull(stone=move.to_stone)
        self._take(s, p, card)
        if t is None:
            self.discards.append((p, card))
        else:
            self._put(t, p, card)
        self._update_first(s, p)
        return self._ruse_done(REDEPLOY, move, p)

    def _put(self, t: int, p: int, card: Card) -> None:
        if card is FOG:
            self._fog[t] = p
        elif card is MUD:
            self._mud[t] = p
        else:
            self._sides[t][p].append(card)
        self._epoch[t] += 1
        self._update_first(t, p)

    def _deserter(self, move: Deserter, p: int) -> Applied:
        self._ruse_start(DESERTER, p)
        s = self._open_stone(move.stone)
        o = 1 - p
        if not self._has_at(s, o, move.card):
            raise errors.BadTarget(reason=f"Your opponent has no {move.card} at stone {move.stone}.")
        self._take(s, o, move.card)
        self.discards.append((o, move.card))
        self._update_first(s, p)
        return self._ruse_done(DESERTER, move, p)

    def _traitor(self, move: Traitor, p: int) -> Applied:
        self._ruse_start(TRAITOR, p)
        s = self._open_stone(move.from_stone)
        o = 1 - p
        card = move.card
        if card.is_tactic:
            raise errors.BadTarget(reason="Traitor can only take a clan card, not a tactic card.")
        if card not in self._sides[s][o]:
            raise errors.BadTarget(reason=f"Your opponent has no {card} at stone {move.from_stone}.")
        t = self._open_stone(move.to_stone)
        if len(self._sides[t][p]) >= self._needed(t):
            raise errors.StoneFull(stone=move.to_stone)
        self._take(s, o, card)
        self._update_first(s, p)
        self._put(t, p, card)
        return self._ruse_done(TRAITOR, move, p)

    # ---------------------------------------------------------------- views

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see. Never holds the opponent's hand or the deck order."""
        o = 1 - player
        last: list[tuple[int, LogMove | None]] = []
        for q, m in self._log:
            last.append((q, None if (q != player and isinstance(m, ScoutReturn)) else m))
        known = []
        for deck_name, idx in sorted(self._known[player]):
            deck = self._clan_deck if deck_name == "clan" else self._tactic_deck
            known.append((deck_name, len(deck) - 1 - idx, deck[idx]))
        legal = tuple(self.legal_moves()) if self.current_player == player else ()
        return PlayerView(
            player=player,
            options=self.options,
            hand=tuple(self._hands[player]),
            stones=self.stones,
            deck_sizes=self.deck_sizes,
            opponent_hand_size=len(self._hands[o]),
            opponent_hand_tactics=sum(1 for c in self._hands[o] if c.is_tactic),
            tactics_played=self.tactics_played,
            leaders_played=(self._leaders[0], self._leaders[1]),
            discards=tuple(self.discards),
            known_deck_cards=tuple(known),
            opponent_known_cards=tuple(self._known_hand[player]),
            current_player=self.current_player,
            phase=self.phase,
            consecutive_passes=self._passes,
            scout_draws_left=self._scout_left if self._phase == "scout_draw" else 0,
            last_moves=tuple(last),
            result=self._result,
            version=self.version,
            _legal=legal,
        )

    def public_view(self) -> PublicView:
        """What everybody may see (a spectator, the channel's board picture): the same as
        ``self.view(p).public()`` for either player, without computing legal moves."""
        return PublicView(
            options=self.options,
            stones=self.stones,
            deck_sizes=self.deck_sizes,
            hand_sizes=(len(self._hands[0]), len(self._hands[1])),
            hand_tactics=(
                sum(1 for c in self._hands[0] if c.is_tactic),
                sum(1 for c in self._hands[1] if c.is_tactic),
            ),
            tactics_played=self.tactics_played,
            leaders_played=(self._leaders[0], self._leaders[1]),
            discards=tuple(self.discards),
            current_player=self.current_player,
            phase=self.phase,
            consecutive_passes=self._passes,
            scout_draws_left=self._scout_left if self._phase == "scout_draw" else 0,
            last_moves=public_moves(tuple(self._log)),
            result=self._result,
            version=self.version,
        )

    @classmethod
    def from_view(
        cls,
        view: PlayerView,
        *,
        opponent_hand: list[Card],
        clan_deck: list[Card],
        tactic_deck: list[Card],
    ) -> Game:
        """A game as ``view`` shows it, with the cards the view hides given: the
        opponent's hand and both decks (their top last). The cards the viewer put back
        with Scout must lie where the view says (``known_deck_cards``). The game has no
        seed and an empty log, so it cannot be replayed; :mod:`rules.ai.determinize`
        deals the hidden cards at random for the AI's search.

        Raises ValueError when the hidden cards do not fit the view's counts."""
        if (len(clan_deck), len(tactic_deck)) != view.deck_sizes:
            raise ValueError(
                f"the decks hold {len(clan_deck)} and {len(tactic_deck)} cards, not {view.deck_sizes}"
            )
        if len(opponent_hand) != view.opponent_hand_size:
            raise ValueError(f"the opponent holds {view.opponent_hand_size} cards, not {len(opponent_hand)}")
        decks = {"clan": clan_deck, "tactic": tactic_deck}
        known: list[set[tuple[str, int]]] = [set(), set()]
        me, o = view.player, 1 - view.player
        for deck_name, depth, card in view.known_deck_cards:
            deck = decks[deck_name]
            idx = len(deck) - 1 - depth
            if not 0 <= idx < len(deck) or deck[idx] != card:
                raise ValueError(f"{card} is not {depth} cards deep in the {deck_name} deck")
            known[me].add((deck_name, idx))
        options = view.options
        g = cls._blank()
        g.seed = None
        g.options = options
        g._rules = options.rules
        g.first_player = None
        g._sides = [[list(st.sides[0]), list(st.sides[1])] for st in view.stones]
        g._owner = [st.owner for st in view.stones]
        g._first = [st.first_complete for st in view.stones]
        g._fog = [st.fog for st in view.stones]
        g._mud = [st.mud for st in view.stones]
        g._epoch = [0] * STONES
        g._complete = g._count_complete()
        g.discards = list(view.discards)
        hands: list[list[Card]] = [[], []]
        hands[me] = list(view.hand)
        hands[o] = list(opponent_hand)
        g._hands = hands
        g._clan_deck = list(clan_deck)
        g._tactic_deck = list(tactic_deck)
        g._unplayed = 0
        for c in g._clan_deck + hands[0] + hands[1]:
            if not c.is_tactic:
                g._unplayed |= _BIT[c.id]
        g._current = view.current_player if view.current_player is not None else 0
        g._phase = view.phase if view.phase != "over" else "play"
        g._passes = view.consecutive_passes
        g._tactics_played = list(view.tactics_played)
        g._leaders = list(view.leaders_played)
        g._scout_left = view.scout_draws_left
        g._known = known
        g._known_hand = [[], []]
        g._known_hand[me] = list(view.opponent_known_cards)
        g._log = []
        g._result = view.result
        return g

    # ---------------------------------------------------------------- serialization

    def to_dict(self) -> dict[str, Any]:
        """The whole state as a JSON-compatible dict (``"format": 1``)."""

        def cards(cs: list[Card] | tuple[Card, ...]) -> list[str]:
            return [str(c) for c in cs]

        return {
            "format": FORMAT,
            "seed": self.seed,
            "options": self.options.to_dict(),
            "first_player": self.first_player,
            "log": [[p, str(m)] for p, m in self._log],
            "current_player": self._current,
            "phase": self._phase,
            "hands": [cards(h) for h in self._hands],
            "decks": {"clan": cards(self._clan_deck), "tactic": cards(self._tactic_deck)},
            "stones": [
                {
                    "sides": [cards(a), cards(b)],
                    "owner": self._owner[s],
                    "first_complete": self._first[s],
                    "fog": self._fog[s],
                    "mud": self._mud[s],
                }
                for s, (a, b) in enumerate(self._sides)
            ],
            "discards": [[p, str(c)] for p, c in self.discards],
            "consecutive_passes": self._passes,
            "tactics_played": list(self._tactics_played),
            "leaders_played": list(self._leaders),
            "scout_draws_left": self._scout_left,
            "known_deck_cards": [sorted([d, i] for d, i in k) for k in self._known],
            "known_hand_cards": [cards(k) for k in self._known_hand],
            "result": self._result.to_dict() if self._result else None,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        if d.get("format") != FORMAT:
            raise errors.NotationError(str(d.get("format")), what="game format")
        options = GameOptions.from_dict(d["options"])
        rules = options.rules

        def cards(texts: list[str]) -> list[Card]:
            return [rules.parse_card(t) for t in texts]

        g = cls._blank()
        g.seed = d["seed"]
        g.options = options
        g._rules = rules
        g.first_player = d["first_player"]
        g._log = [(p, parse_log_move(m, max_value=rules.max_value)) for p, m in d["log"]]
        g._current = d["current_player"]
        g._phase = d["phase"]
        g._hands = [cards(h) for h in d["hands"]]
        g._clan_deck = cards(d["decks"]["clan"])
        g._tactic_deck = cards(d["decks"]["tactic"])
        g._sides = [[cards(st["sides"][0]), cards(st["sides"][1])] for st in d["stones"]]
        g._owner = [st["owner"] for st in d["stones"]]
        g._first = [st["first_complete"] for st in d["stones"]]
        g._fog = [st["fog"] for st in d["stones"]]
        g._mud = [st["mud"] for st in d["stones"]]
        g._epoch = [0] * STONES
        g._complete = g._count_complete()
        g.discards = [(p, rules.parse_card(c)) for p, c in d["discards"]]
        g._passes = d["consecutive_passes"]
        g._tactics_played = list(d["tactics_played"])
        g._leaders = list(d["leaders_played"])
        g._scout_left = d["scout_draws_left"]
        g._known = [{(dk, i) for dk, i in k} for k in d["known_deck_cards"]]
        g._known_hand = [cards(k) for k in d.get("known_hand_cards", [[], []])]
        g._result = Result.from_dict(d["result"]) if d["result"] else None
        g._unplayed = 0
        for c in g._clan_deck + g._hands[0] + g._hands[1]:
            if not c.is_tactic:
                g._unplayed |= _BIT[c.id]
        return g

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


_END_REASON: dict[type[Resign | Forfeit], Reason] = {Resign: "resigned", Forfeit: "timeout"}
_RUSE_VERB = {SCOUT: "scout", REDEPLOY: "redeploy", DESERTER: "deserter", TRAITOR: "traitor"}
# By the move's type; each handler takes a move of its key's type (hence the Any).
_HANDLERS: dict[type[object], Callable[[Game, Any, int], Applied]] = {
    Claim: Game._claim,
    PlayCard: Game._play,
    Pass: Game._pass,
    Draw: Game._draw,
    Scout: Game._scout,
    ScoutReturn: Game._scout_return,
    Redeploy: Game._redeploy,
    Deserter: Game._deserter,
    Traitor: Game._traitor,
}

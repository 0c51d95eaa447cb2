"""The game: turns, legal moves, claims and replay, on its table (:mod:`rules.table`).

A :class:`Game` is mutable (like OpenSpiel states) and cheap to :meth:`~Game.clone`, so
that an AI can search on copies. Every rule check happens before any change: an illegal
move raises an :class:`~rules.errors.IllegalMove` subclass and leaves the game untouched.

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
from typing import Any

from rules import errors
from rules.cards import Card, TacticCard, TacticKind
from rules.moves import Applied as Applied
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
from rules.moves import Ending as Ending
from rules.moves import Forfeit as Forfeit
from rules.moves import Kick as Kick
from rules.moves import LogMove as LogMove
from rules.moves import Resign as Resign
from rules.moves import Withdraw as Withdraw
from rules.moves import parse_log_move as parse_log_move
from rules.serialization import FORMAT as FORMAT
from rules.serialization import Serializable
from rules.table import (
    _BIT,
    _CLAIM,
    _DRAW_NONE,
    _PASS,
    _PLAY,
    DESERTER,
    FOG,
    LEADER,
    MUD,
    REDEPLOY,
    SCOUT,
    TRAITOR,
    _full_mask,
)
from rules.table import STONES as STONES
from rules.tactics import Tactics
from rules.values import REASONS as REASONS
from rules.values import ClaimTimingName as ClaimTimingName
from rules.values import GameOptions as GameOptions
from rules.values import GivingUp as GivingUp
from rules.values import Phase as Phase
from rules.values import Reason as Reason
from rules.values import Result as Result
from rules.values import TurnPhase as TurnPhase
from rules.values import match_points as match_points
from rules.values import parse_reason as parse_reason
from rules.view import PlayerView


class Game(Tactics, Serializable):
    """One game of Schotten-Totten or Battle Line. See docs/architecture.md, "Game API"."""

    __slots__ = ()

    # ---------------------------------------------------------------- construction

    def __init__(self) -> None:
        raise TypeError("use Game.new(seed, options), Game.from_dict(d) or Game.replay(...)")

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
            first_player = next((p for p, m in entries if type(m) not in _END_REASON), None)
        g = cls.new(seed, options, first_player)
        for p, m in entries:
            g.apply(m, p)
        return g

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
            if isinstance(move, Ending):
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

    def withdraw(self, player: int) -> Applied:
        """``player`` withdrew from the game's tournament: the other player wins (reason
        "withdrawn")."""
        return self._end_by(player, "withdrawn")

    def kick(self, player: int) -> Applied:
        """The tournament's organiser removed ``player`` from it: the other player wins
        (reason "kicked")."""
        return self._end_by(player, "kicked")

    def _end_by(self, player: int, reason: Reason) -> Applied:
        if self._result is not None:
            raise errors.GameOver()
        if player not in (0, 1):
            raise ValueError("player must be 0 or 1")
        self._result = Result(1 - player, reason, self._stones_count())
        move = _END_ENTRY[reason]
        self._log.append((player, move))
        return Applied(move, player, result=self._result)

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


# The log entries that end a game (not moves of the rules), and the reason each gives.
_END_REASON: dict[type[Ending], Reason] = {
    Resign: "resigned",
    Forfeit: "timeout",
    Withdraw: "withdrawn",
    Kick: "kicked",
}
_END_ENTRY: dict[Reason, Ending] = {reason: entry() for entry, reason in _END_REASON.items()}
#: How a player gives a game up, by the reason it then ends with (:data:`GivingUp`).
GIVE_UP: dict[GivingUp, Callable[[Game, int], Applied]] = {
    "resigned": Game.resign,
    "withdrawn": Game.withdraw,
    "kicked": Game.kick,
}
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

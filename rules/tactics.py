"""The tactic cards' moves: which ones a player may make (:meth:`Tactics._tactic_moves`)
and what the ruses do (Scout, Redeploy, Deserter, Traitor). Morale and terrain cards are
placed at a stone like a clan card (:meth:`rules.game.Game._play`).
"""

from __future__ import annotations

from rules import errors
from rules.cards import Tactic, TacticCard, TacticKind
from rules.moves import Applied, Deserter, Move, Redeploy, Scout, ScoutReturn, Traitor
from rules.table import _PLAY, _SCOUT, DESERTER, FOG, MUD, REDEPLOY, SCOUT, STONES, TRAITOR, Table
from rules.values import TurnPhase


class Tactics(Table):
    """A table with the tactic cards' moves (:class:`rules.game.Game` is one)."""

    __slots__ = ()

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

    def _ruse_start(self, card: TacticCard, p: int) -> None:
        if not self.options.tactics:
            raise errors.TacticsNotInPlay()
        if self._phase != "play":
            raise self._wrong_phase()
        if card not in self._hands[p]:
            raise errors.CardNotInHand(card=card)
        self._check_tactic_allowed(p)

    def _ruse_done(self, card: TacticCard, move: Move, p: int, phase: TurnPhase = "draw") -> Applied:
        self._remove_from_hand(p, card)
        self.discards.append((p, card))
        self._tactics_played[p] += 1
        self._passes = 0
        self._phase = phase
        self._log.append((p, move))
        return Applied(move, p)

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

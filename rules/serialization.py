"""A game's state as data: the whole state as a JSON-compatible dict and back
(:meth:`Serializable.to_dict`, :meth:`Serializable.from_dict`), the view everybody may
see (:meth:`Serializable.public_view`), and a game built from one player's view with the
hidden cards given (:meth:`Serializable.from_view`, for the AI's search).
"""

from __future__ import annotations

from typing import Any, Self

from rules import errors
from rules.cards import Card
from rules.moves import parse_log_move
from rules.table import _BIT, STONES, Table
from rules.values import GameOptions, Result
from rules.view import PlayerView, PublicView, public_moves

FORMAT = 1


class Serializable(Table):
    """A table that can be written as data and read back (:class:`rules.game.Game` is one)."""

    __slots__ = ()

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
    ) -> Self:
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
    def from_dict(cls, d: dict[str, Any]) -> Self:
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

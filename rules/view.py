"""What one player may see: :class:`PlayerView`, and :class:`StoneView` for one stone;
what everybody may see: :class:`PublicView`.

A view is built by :meth:`rules.game.Game.view`. It holds the viewer's own hand and
everything on the table, but never the opponent's hand or the order of a deck (except
the cards the viewer put back there with Scout, which the viewer knows).

A public view (:meth:`PlayerView.public`, :meth:`rules.game.Game.public_view`) is what a
spectator sees: the table, the counts, the moves with every Scout return hidden. It has
no hand and no viewer, so both players' views give the same public view, and whatever is
drawn from one (the board picture) cannot show a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.moves import LogMove, Move, ScoutReturn
from rules.values import GameOptions, Phase, Result


@dataclass(frozen=True, slots=True)
class StoneView:
    """One stone as everybody sees it. ``number`` is 1-9."""

    number: int
    sides: tuple[tuple[Card, ...], tuple[Card, ...]]  # player 0's cards, player 1's cards
    owner: int | None
    fog: int | None  # who placed Fog here, or None
    mud: int | None  # who placed Mud here, or None
    first_complete: int | None  # whose side became complete first (wins ties)

    @property
    def needed(self) -> int:
        """Cards a side needs here: 4 with Mud, else 3."""
        return 3 if self.mud is None else 4

    @property
    def terrain(self) -> tuple[tuple[Card, int], ...]:
        """The terrain cards at this stone with their owners."""
        from rules.cards import Tactic, tactic_card

        out = []
        if self.fog is not None:
            out.append((tactic_card(Tactic.FOG), self.fog))
        if self.mud is not None:
            out.append((tactic_card(Tactic.MUD), self.mud))
        return tuple(out)

    def is_complete(self, player: int) -> bool:
        return len(self.sides[player]) >= self.needed


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``player`` may know about a game, and nothing more."""

    player: int
    options: GameOptions
    hand: tuple[Card, ...]
    stones: tuple[StoneView, ...]
    deck_sizes: tuple[int, int]  # (clan, tactic)
    opponent_hand_size: int
    opponent_hand_tactics: int  # tactic cards have another back, so their number is public
    tactics_played: tuple[int, int]
    leaders_played: tuple[int, int]
    discards: tuple[tuple[int, Card], ...]  # (whose card, card), face up
    #: Cards the viewer put back with Scout and which are still in a deck:
    #: (deck, depth from the top, card).
    known_deck_cards: tuple[tuple[str, int, Card], ...]
    #: Cards the viewer put back with Scout that the opponent has drawn and still holds.
    opponent_known_cards: tuple[Card, ...]
    current_player: int | None
    phase: Phase
    consecutive_passes: int
    scout_draws_left: int
    #: The moves so far (the entries that end a game included), the opponent's Scout
    #: return hidden as None. Draws never show cards.
    last_moves: tuple[tuple[int, LogMove | None], ...]
    result: Result | None
    version: int
    _legal: tuple[Move, ...] = ()

    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.player

    def stone(self, number: int) -> StoneView:
        return self.stones[number - 1]

    def legal_moves(self) -> list[Move]:
        """The viewer's legal moves (empty when it is not the viewer's turn)."""
        return list(self._legal)

    def public(self) -> PublicView:
        """The part of this view everybody may see: no hand, no viewer, no cards known
        through Scout, and every Scout return hidden (the viewer's own too). Both
        players' views of one position give equal public views."""
        sizes = [0, 0]
        sizes[self.player] = len(self.hand)
        sizes[self.opponent] = self.opponent_hand_size
        tactics = [0, 0]
        tactics[self.player] = sum(1 for card in self.hand if card.is_tactic)
        tactics[self.opponent] = self.opponent_hand_tactics
        return PublicView(
            options=self.options,
            stones=self.stones,
            deck_sizes=self.deck_sizes,
            hand_sizes=(sizes[0], sizes[1]),
            hand_tactics=(tactics[0], tactics[1]),
            tactics_played=self.tactics_played,
            leaders_played=self.leaders_played,
            discards=self.discards,
            current_player=self.current_player,
            phase=self.phase,
            consecutive_passes=self.consecutive_passes,
            scout_draws_left=self.scout_draws_left,
            last_moves=public_moves(self.last_moves),
            result=self.result,
            version=self.version,
        )


def public_moves(moves: tuple[tuple[int, LogMove | None], ...]) -> tuple[tuple[int, LogMove | None], ...]:
    """The moves as a spectator sees them: every Scout return hidden (None)."""
    return tuple((who, None if isinstance(move, ScoutReturn) else move) for who, move in moves)


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everybody at the table may see: a :class:`PlayerView` without the hand, the
    viewer and what the viewer alone knows. Build one with :meth:`PlayerView.public` or
    :meth:`rules.game.Game.public_view`."""

    options: GameOptions
    stones: tuple[StoneView, ...]
    deck_sizes: tuple[int, int]  # (clan, tactic)
    hand_sizes: tuple[int, int]  # player 0's, player 1's
    hand_tactics: tuple[int, int]  # tactic cards in each hand (their backs differ: public)
    tactics_played: tuple[int, int]
    leaders_played: tuple[int, int]
    discards: tuple[tuple[int, Card], ...]  # (whose card, card), face up
    current_player: int | None
    phase: Phase
    consecutive_passes: int
    scout_draws_left: int
    #: The moves so far (the entries that end a game included), every Scout return hidden
    #: as None.
    last_moves: tuple[tuple[int, LogMove | None], ...]
    result: Result | None
    version: int

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def stone(self, number: int) -> StoneView:
        return self.stones[number - 1]

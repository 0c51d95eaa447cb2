"""Moves: small immutable values with a one-line text notation.

The text form is what the move log stores and what the terminal game accepts:

    play R7 3        play a clan card, a morale tactic or a terrain tactic at stone 3
    claim 3          claim stone 3
    pass             no card can be played
    draw clan        end the turn by drawing (``draw tactic`` in the tactics variant;
                     ``draw none`` when both decks are empty)
    scout            play Scout; then three ``draw`` moves and one ``return``
    return R7 Fog    Scout: put these two cards back on their decks (the last on top)
    redeploy R7 3 5  move own card from stone 3 to stone 5 (``discard`` instead of 5)
    deserter R7 3    discard an opponent's card at stone 3
    traitor R7 3 5   take an opponent's clan card from stone 3 to own side of stone 5

A game's log also holds entries that are not moves of the rules, each of which ends the
game (read with :func:`parse_log_move`):

    resign           the player gave up (:class:`Resign`)
    forfeit          the player ran out of time (:class:`Forfeit`)
    withdraw         the player withdrew from the game's tournament (:class:`Withdraw`)
    kick             the tournament's organiser removed the player (:class:`Kick`)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.cards import MAX_VALUE, Card, parse_card
from rules.errors import NotationError
from rules.values import Result

Deck = Literal["clan", "tactic"]


@dataclass(frozen=True, slots=True)
class PlayCard:
    card: Card
    stone: int  # 1-9

    def __str__(self) -> str:
        return f"play {self.card} {self.stone}"


@dataclass(frozen=True, slots=True)
class Claim:
    stone: int

    def __str__(self) -> str:
        return f"claim {self.stone}"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Draw:
    deck: Deck | None  # None only when both decks are empty

    def __str__(self) -> str:
        return f"draw {self.deck or 'none'}"


@dataclass(frozen=True, slots=True)
class Scout:
    def __str__(self) -> str:
        return "scout"


@dataclass(frozen=True, slots=True)
class ScoutReturn:
    cards: tuple[Card, Card]  # the second ends on top of its deck

    def __str__(self) -> str:
        return f"return {self.cards[0]} {self.cards[1]}"


@dataclass(frozen=True, slots=True)
class Redeploy:
    card: Card
    from_stone: int
    to_stone: int | None  # None: discard

    def __str__(self) -> str:
        return f"redeploy {self.card} {self.from_stone} {self.to_stone or 'discard'}"


@dataclass(frozen=True, slots=True)
class Deserter:
    card: Card
    stone: int

    def __str__(self) -> str:
        return f"deserter {self.card} {self.stone}"


@dataclass(frozen=True, slots=True)
class Traitor:
    card: Card
    from_stone: int
    to_stone: int

    def __str__(self) -> str:
        return f"traitor {self.card} {self.from_stone} {self.to_stone}"


Move = PlayCard | Claim | Pass | Draw | Scout | ScoutReturn | Redeploy | Deserter | Traitor
_DRAW_DECKS: dict[str, Deck | None] = {"clan": "clan", "tactic": "tactic", "none": None}


def _stone(text: str, whole: str) -> int:
    # ASCII digits, and few of them: str.isdigit also accepts "²", which int() refuses,
    # and int() refuses thousands of digits; both with a bare ValueError. A number out
    # of range (e.g. 10) is for the game to refuse, by name.
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise NotationError(whole, what="move")
    return int(text)


def parse_move(text: str, *, max_value: int = MAX_VALUE) -> Move:
    """Parse the text notation above (case-insensitive). Raises NotationError."""
    words = text.strip().split()
    if not words:
        raise NotationError(text, what="move")
    verb, args = words[0].lower(), words[1:]

    def card(i: int) -> Card:
        return parse_card(args[i], max_value=max_value)

    try:
        if verb == "play" and len(args) == 2:
            return PlayCard(card(0), _stone(args[1], text))
        if verb == "claim" and len(args) == 1:
            return Claim(_stone(args[0], text))
        if verb == "pass" and not args:
            return Pass()
        if verb == "draw" and len(args) == 1 and args[0].lower() in _DRAW_DECKS:
            return Draw(_DRAW_DECKS[args[0].lower()])
        if verb == "scout" and not args:
            return Scout()
        if verb == "return" and len(args) == 2:
            return ScoutReturn((card(0), card(1)))
        if verb == "redeploy" and len(args) == 3:
            to = None if args[2].lower() == "discard" else _stone(args[2], text)
            return Redeploy(card(0), _stone(args[1], text), to)
        if verb == "deserter" and len(args) == 2:
            return Deserter(card(0), _stone(args[1], text))
        if verb == "traitor" and len(args) == 3:
            return Traitor(card(0), _stone(args[1], text), _stone(args[2], text))
    except IndexError:
        pass
    raise NotationError(text, what="move")


@dataclass(frozen=True, slots=True)
class Resign:
    """Logged when a player resigns (not a move of the rules; see :meth:`rules.game.Game.resign`)."""

    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True, slots=True)
class Forfeit:
    """Logged when a player runs out of time (see :meth:`rules.game.Game.forfeit`)."""

    def __str__(self) -> str:
        return "forfeit"


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Logged when a player withdraws from the game's tournament (see
    :meth:`rules.game.Game.withdraw`)."""

    def __str__(self) -> str:
        return "withdraw"


@dataclass(frozen=True, slots=True)
class Kick:
    """Logged when the tournament's organiser removes a player from it (see
    :meth:`rules.game.Game.kick`)."""

    def __str__(self) -> str:
        return "kick"


#: The log entries that end a game and are not moves of the rules.
Ending = Resign | Forfeit | Withdraw | Kick
LogMove = Move | Ending
_ENDINGS: dict[str, Ending] = {str(e): e for e in (Resign(), Forfeit(), Withdraw(), Kick())}


def parse_log_move(text: str, *, max_value: int = 10) -> LogMove:
    """:func:`parse_move` plus the endings: ``resign``, ``forfeit``, ``withdraw`` and ``kick``."""
    ending = _ENDINGS.get(text.strip().lower())
    if ending is not None:
        return ending
    return parse_move(text, max_value=max_value)


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

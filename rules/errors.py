"""Every error the engine raises. Each carries a stable ``code`` and its ``params`` so
that the bot can translate it from its message catalogue; ``str(error)`` is plain
English for logs, tests and the terminal game.

Messages never name cards from a hand other than the ones the acting player gave us.
"""

from __future__ import annotations

from typing import Any


class RulesError(Exception):
    code = "rules_error"
    template = "That is not allowed."

    def __init__(self, message: str | None = None, **params: Any) -> None:
        self.params = params
        super().__init__(message or self.template.format(**params))


class NotationError(RulesError, ValueError):
    """Text that names no card, move or ruleset."""

    code = "unknown_notation"
    template = "I don't know {text!r}."

    def __init__(self, text: str, what: str = "card") -> None:
        super().__init__(f"Unknown {what}: {text!r}.", text=text, what=what)


class IllegalMove(RulesError):
    """A move the rules do not allow now. The game state is unchanged."""

    code = "illegal_move"
    template = "That move is not allowed now."


def _illegal(code: str, template: str) -> type[IllegalMove]:
    return type(
        "".join(part.title() for part in code.split("_")),
        (IllegalMove,),
        {"code": code, "template": template, "__module__": __name__},
    )


GameOver = _illegal("game_over", "The game is over.")
NotYourTurn = _illegal("not_your_turn", "It is not your turn.")
CardNotInHand = _illegal("card_not_in_hand", "You don't have {card} in your hand.")
NoSuchStone = _illegal("no_such_stone", "There is no stone {stone}; stones are numbered 1-9.")
StoneClaimed = _illegal("stone_claimed", "Stone {stone} is already claimed.")
StoneFull = _illegal("stone_full", "Your side of stone {stone} is full.")
SideIncomplete = _illegal("side_incomplete", "Your side of stone {stone} is not complete yet.")
ClaimTiming = _illegal(
    "claim_timing", "Claims are only allowed at the start of your turn, before you play a card."
)
WrongPhase = _illegal("wrong_phase", "You can't do that now: {expected}.")
CannotPass = _illegal("cannot_pass", "You can still play a card, so you can't pass.")
DeckEmpty = _illegal("deck_empty", "The {deck} deck is empty.")
TacticsNotInPlay = _illegal("tactics_not_in_play", "This game is played without tactic cards.")
TacticLimit = _illegal("tactic_limit", "You can't play another tactic card until your opponent plays one.")
SecondLeader = _illegal(
    "second_leader", "You already have a Leader on the table; the second one stays in your hand."
)
BadTarget = _illegal("bad_target", "{reason}")


class ClaimNotProvable(IllegalMove):
    """A claim that cannot be proven yet. ``counter_example`` is a completion of the
    opponent's side (cards on the table plus unseen clan cards) that would beat it."""

    code = "claim_not_provable"
    template = "You can't claim stone {stone} yet: your opponent could still beat it with {counter_example}."

    def __init__(
        self, stone: int, counter_example: tuple[Any, ...] | None, message: str | None = None
    ) -> None:
        shown = " ".join(str(c) for c in counter_example) if counter_example else "a better formation"
        super().__init__(message, stone=stone, counter_example=shown)
        self.counter_example = counter_example


class ClaimLost(IllegalMove):
    """Both sides are complete and the opponent's side wins: the claim fails."""

    code = "claim_lost"
    template = "You can't claim stone {stone}: your opponent's side there is stronger."

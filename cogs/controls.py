"""Builders for the message components of a game: the board's button, the challenge
buttons and a player's hand controls (DM or ephemeral).

Every component is a DynamicItem from :mod:`cogs.components` whose ``custom_id``
carries the game id and ``game.version``, so the controls keep working after a
restart and a control from an earlier turn is refused. The controls are stateless: a
chosen card or stone travels in the custom ids of the other controls.

Issue 5 (tactics) extends :func:`hand_controls` with its own rows; nothing else here
needs to know about tactic moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.render import card_text, sort_hand
from bot.text import t
from cogs.components import (
    AcceptButton,
    CardSelect,
    ClaimButton,
    DeclineButton,
    DrawButton,
    PassButton,
    PlayButton,
    ShowHandButton,
    StoneSelect,
)
from cogs.tactics import card_hint_text as card_hint
from cogs.tactics import playable_cards as playable_tactic_cards
from cogs.tactics import tactic_controls
from rules.moves import Claim, Draw, Pass, PlayCard

MAX_OPTIONS = 25


def challenge_view(challenge_id: int, *, disabled: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AcceptButton(challenge_id, disabled=disabled))
    view.add_item(DeclineButton(challenge_id, disabled=disabled))
    return view


def board_view(game_id: int, *, finished: bool = False) -> discord.ui.View:
    """The board's "Show my hand" button (disabled once the game is over)."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShowHandButton(game_id, disabled=finished))
    return view


def _plays(moves: Iterable[Any]) -> list[PlayCard]:
    return [m for m in moves if isinstance(m, PlayCard)]


def hand_controls(
    game_id: int,
    version: int,
    view: Any,
    *,
    card: str | None = None,
    stone: int | None = None,
    **tactic: Any,
) -> discord.ui.View | None:
    """The hand controls of ``view``'s player: select a card, select a stone, Play; a
    Claim button per stone that can be claimed now; Pass when no card can be played.

    None when there is nothing to do (not the player's turn, or the game is over).
    ``tactic``: the choices of a ruse or of Scout's return so far (cogs/tactics.py).
    """
    if view.result is not None or view.current_player != view.player:
        return None
    legal = list(view.legal_moves())
    plays = _plays(legal)
    if view.options.tactics:
        # Issue 5: a chosen ruse, or Scout's return, has its own steps.
        special = tactic_controls(game_id, version, view, legal, card=card, **tactic)
        if special is not None:
            return special
    controls = discord.ui.View(timeout=None)

    playable_cards: list[str] = []
    # With tactics, the ruses too (their steps follow once one is chosen).
    cards = playable_tactic_cards(view, legal) if view.options.tactics else sort_hand({m.card for m in plays})
    for c in cards:
        playable_cards.append(card_text(c))
    if card is not None and card not in playable_cards:
        card = None
    stones_for_card = sorted({m.stone for m in plays if card is None or card_text(m.card) == card})
    if stone is not None and stone not in stones_for_card:
        stone = None

    if playable_cards:
        options = [
            discord.SelectOption(label=c, value=c, description=card_hint(c), default=(c == card))
            for c in playable_cards[:MAX_OPTIONS]
        ]
        controls.add_item(CardSelect(game_id, version, stone or 0, options=options))
        stone_options = [
            discord.SelectOption(
                label=t("controls.stone_option", stone=s), value=str(s), default=(s == stone)
            )
            for s in stones_for_card
        ]
        if stone_options:
            controls.add_item(StoneSelect(game_id, version, card or "-", options=stone_options))
        controls.add_item(
            PlayButton(game_id, version, card or "-", stone or 0, disabled=card is None or stone is None)
        )
    if any(isinstance(m, Pass) for m in legal):
        controls.add_item(PassButton(game_id, version))
    for m in legal:
        if isinstance(m, Draw):
            controls.add_item(DrawButton(game_id, version, m.deck or "none", tactics=view.options.tactics))
    claims = sorted(m.stone for m in legal if isinstance(m, Claim))
    for i, s in enumerate(claims):
        controls.add_item(ClaimButton(game_id, version, s, row=3 + i // 5))
    if not controls.children:
        return None
    return controls

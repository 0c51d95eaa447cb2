"""Which components a player's messages carry: the board's button, and a player's hand
controls (DM or ephemeral), all from :mod:`cogs.table.requests`.

Hand controls are built from the engine's legal moves for the player's view only, and
stay stateless: a choice made so far (:class:`~cogs.table.requests.Selection`) travels
in the custom ids and the selects' defaults.

* The ordinary controls: select a card, select a stone, Play; Pass when no card can be
  played; End turn or a deck to draw from; a Claim button per stone claimable now.
* With tactics, morale and terrain cards sit in the card select like clan cards. A ruse
  chosen there switches to its steps (:func:`_ruse_layout`): Scout has a single button;
  Deserter a select of the opponent's cards it may discard; Redeploy and Traitor a target
  select, then a destination select. Scout's return has a two-card select and "Put back".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import suppress

import discord

from bot.text.catalogue import t
from bot.text.render import card_text, sort_hand
from cogs.table.requests import (
    NOT_CHOSEN,
    CardSelect,
    DestSelect,
    HintButton,
    MoveButton,
    PlayButton,
    ReturnSelect,
    Selection,
    ShowHandButton,
    ShowTextButton,
    StoneSelect,
    TargetSelect,
)
from cogs.ui.components import buttons
from rules.cards import Card, Tactic, TacticCard, parse_card
from rules.errors import NotationError
from rules.moves import Claim, Deserter, Draw, Move, Pass, PlayCard, Redeploy, Scout, ScoutReturn, Traitor
from rules.view import PlayerView

MAX_OPTIONS = 25  # Discord's limit for a select
MAX_ITEMS = 25  # buttons and selects on one message (5 rows of 5)
Ruse = Scout | Redeploy | Deserter | Traitor


def board_view(
    game_id: int, version: int | None = None, *, finished: bool = False, picture: bool = False
) -> discord.ui.View:
    """The board's "Show my hand" button (disabled once the game is over), marked with
    the ``version`` the board shows; beside a picture, "Show as text"."""
    if picture and version is not None:
        return buttons(
            ShowHandButton(game_id, version, disabled=finished), ShowTextButton(game_id, version, "b")
        )
    return buttons(ShowHandButton(game_id, version, disabled=finished))


def with_text_button(controls: discord.ui.View | None, game_id: int, version: int) -> discord.ui.View:
    """A player's controls with "Show as text" (their text hand message) in the first
    row with room (discord.py's placement). A message with five full rows (a ruse's
    steps with many claims) goes without it, rarely: the text style is a command away."""
    controls = controls or discord.ui.View(timeout=None)
    with suppress(ValueError):  # five full rows
        controls.add_item(ShowTextButton(game_id, version, "h"))
    return controls


# -------------------------------------------------------------------- card texts


def _local(notation: str) -> str:
    """A card written in the engine's notation (as in a custom id), as the reader sees it."""
    try:
        return card_text(parse_card(notation))
    except NotationError:
        return notation


def card_hint(card: Card) -> str | None:
    """A short description of a tactic card for the card select, else None."""
    if isinstance(card, TacticCard):
        return t(f"tactics.hint.{card.tactic.name.lower()}")
    return None


def ruse_name(move: Move) -> str | None:
    """The ruse card's notation a move plays (``"Scout"``...), else None."""
    if isinstance(move, Scout):
        return "Scout"
    if isinstance(move, Redeploy):
        return "Redeploy"
    if isinstance(move, Deserter):
        return "Deserter"
    if isinstance(move, Traitor):
        return "Traitor"
    return None


_RUSES = {Tactic.SCOUT, Tactic.REDEPLOY, Tactic.DESERTER, Tactic.TRAITOR}


def playable_cards(view: PlayerView, legal: Sequence[Move]) -> list[Card]:
    """Every card the card select offers: the ones a ``PlayCard`` can place, and the
    ruses of the hand that have a legal move now."""
    ruses = {ruse_name(m) for m in legal} - {None}
    cards: set[Card] = {m.card for m in legal if isinstance(m, PlayCard)}
    cards |= {c for c in view.hand if isinstance(c, TacticCard) and c.tactic in _RUSES and str(c) in ruses}
    return sort_hand(cards)


# ------------------------------------------------------------------ hand controls


def hand_controls(
    game_id: int, version: int, view: PlayerView, selection: Selection | None = None, *, hint: bool = False
) -> discord.ui.View | None:
    """The controls of ``view``'s player with ``selection`` chosen so far; None when
    there is nothing to do (not their turn, or the game is over). ``hint``: a Hint
    button beside Pass and the draws (games against the AI only)."""
    if view.result is not None or view.current_player != view.player:
        return None
    selection = selection or Selection()
    legal = list(view.legal_moves())
    if view.phase == "scout_return":
        return _return_layout(game_id, version, view, selection.returning)
    if selection.card is not None and selection.card in {ruse_name(m) for m in legal}:
        return _ruse_layout(game_id, version, view, legal, selection)
    controls = _plain_layout(game_id, version, view, legal, selection)
    if hint and controls.children:
        controls.add_item(HintButton(game_id, version))
    return controls if controls.children else None


def _card_options(view: PlayerView, legal: Sequence[Move], chosen: str | None) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(
            label=card_text(c), value=str(c), description=card_hint(c), default=str(c) == chosen
        )
        for c in playable_cards(view, legal)[:MAX_OPTIONS]
    ]


def _plain_layout(
    game_id: int, version: int, view: PlayerView, legal: Sequence[Move], selection: Selection
) -> discord.ui.View:
    controls = discord.ui.View(timeout=None)
    plays = [m for m in legal if isinstance(m, PlayCard)]
    playable = [str(c) for c in playable_cards(view, legal)]
    card = selection.card if selection.card in playable else None
    stones = sorted({m.stone for m in plays if card is None or str(m.card) == card})
    stone = selection.stone if selection.stone in stones else None
    if playable:
        controls.add_item(CardSelect(game_id, version, stone or 0, _card_options(view, legal, card)))
        stone_options = [
            discord.SelectOption(label=t("controls.stone_option", stone=s), value=str(s), default=s == stone)
            for s in stones
        ]
        if stone_options:
            controls.add_item(StoneSelect(game_id, version, card or NOT_CHOSEN, stone_options))
        controls.add_item(
            PlayButton(
                game_id, version, card or NOT_CHOSEN, stone or 0, disabled=card is None or stone is None
            )
        )
    for move in legal:
        if isinstance(move, Pass):
            controls.add_item(MoveButton(game_id, version, move, label=t("controls.pass"), row=2))
    for move in legal:
        if isinstance(move, Draw):
            label = (
                t(f"controls.draw.{move.deck or 'none'}") if view.options.tactics else t("controls.end_turn")
            )
            controls.add_item(MoveButton(game_id, version, move, label=label, row=2))
    claims = sorted((m for m in legal if isinstance(m, Claim)), key=lambda m: m.stone)
    for i, claim in enumerate(claims):
        controls.add_item(_claim_button(game_id, version, claim, row=3 + i // 5))
    return controls


def _claim_button(game_id: int, version: int, claim: Claim, row: int) -> MoveButton:
    label = t("controls.claim", stone=claim.stone)
    return MoveButton(game_id, version, claim, label=label, style=discord.ButtonStyle.success, row=row)


def _pass_and_claims(controls: discord.ui.View, game_id: int, version: int, legal: Sequence[Move]) -> None:
    """After a ruse's Play button on row 3: Pass (when legal), then the Claim buttons,
    as many as there is room for (``/schotten claim`` still works)."""
    slot = 1
    for move in legal:
        if isinstance(move, Pass):
            controls.add_item(MoveButton(game_id, version, move, label=t("controls.pass"), row=3))
            slot += 1
    for claim in sorted((m for m in legal if isinstance(m, Claim)), key=lambda m: m.stone):
        if slot >= 10:
            break
        controls.add_item(_claim_button(game_id, version, claim, row=3 + slot // 5))
        slot += 1


def _target_key(stone: int, card: Card) -> str:
    return f"{stone}.{card}"  # the engine's notation: it travels in a custom id


def _target_of(move: Ruse) -> str:
    if isinstance(move, Deserter):
        return _target_key(move.stone, move.card)
    if isinstance(move, Redeploy | Traitor):
        return _target_key(move.from_stone, move.card)
    return ""


def _ruse_layout(
    game_id: int, version: int, view: PlayerView, legal: Sequence[Move], selection: Selection
) -> discord.ui.View:
    """Card select (the ruse chosen), its target and destination selects, then Play."""
    card = selection.card or ""
    target, dest = selection.target, selection.dest
    controls = discord.ui.View(timeout=None)
    controls.add_item(CardSelect(game_id, version, 0, _card_options(view, legal, card)))
    moves: list[Ruse] = [m for m in legal if isinstance(m, Ruse) and ruse_name(m) == card]
    chosen: Move | None = None
    if card == "Scout":
        chosen = moves[0] if moves else None
    else:
        targets: dict[str, list[Ruse]] = {}  # in the engine's order
        for m in moves:
            targets.setdefault(_target_of(m), []).append(m)
        stone_chosen = (target or "").split(".", 1)[0]  # a bare stone: see _target_options
        if target not in targets:
            target, dest = None, None
        ordered = sorted(targets, key=lambda k: int(k.split(".", 1)[0]))
        controls.add_item(
            TargetSelect(game_id, version, card, _target_options(ordered, target, stone_chosen))
        )
        if target is not None and card == "Deserter":
            chosen = targets[target][0]
        elif target is not None:
            by_dest = {_dest_key(m): m for m in targets[target]}
            if dest not in by_dest:
                dest = None
            dest_options = [
                discord.SelectOption(label=_dest_label(key), value=key, default=key == dest)
                for key in by_dest
            ][:MAX_OPTIONS]
            controls.add_item(DestSelect(game_id, version, card, target, dest_options))
            if dest is not None:
                chosen = by_dest[dest]
    label = t("controls.play_tactic", card=_local(card))
    controls.add_item(
        MoveButton(game_id, version, chosen, label=label, style=discord.ButtonStyle.primary, row=3)
    )
    _pass_and_claims(controls, game_id, version, legal)
    return controls


def _dest_key(move: Ruse) -> str:
    to_stone = move.to_stone if isinstance(move, Redeploy | Traitor) else None
    return "discard" if to_stone is None else str(to_stone)


def _dest_label(key: str) -> str:
    return t("controls.dest_discard") if key == "discard" else t("controls.stone_option", stone=key)


def _target_options(ordered: list[str], target: str | None, stone_chosen: str) -> list[discord.SelectOption]:
    """The target select's options: every ``<stone>.<card>``; when there are more than a
    select can hold, one option per stone (value ``<stone>``) and the cards of the chosen
    stone only."""

    def card_option(key: str) -> discord.SelectOption:
        stone, card = key.split(".", 1)
        label = t("controls.target_option", stone=stone, card=_local(card))
        return discord.SelectOption(label=label, value=key, default=key == target)

    if len(ordered) <= MAX_OPTIONS:
        return [card_option(key) for key in ordered]
    options: list[discord.SelectOption] = []
    for stone in dict.fromkeys(key.split(".", 1)[0] for key in ordered):
        keys = [key for key in ordered if key.split(".", 1)[0] == stone]
        if stone == stone_chosen:
            options.extend(card_option(key) for key in keys)
        else:
            cards = " ".join(_local(key.split(".", 1)[1]) for key in keys)
            label = t("controls.target_stone", stone=stone, cards=cards)[:100]
            options.append(discord.SelectOption(label=label, value=stone))
    return options[:MAX_OPTIONS]


def _return_values(hand: Iterable[Card]) -> list[tuple[str, Card]]:
    """(select value, card) for each card of the hand; a second Leader is ``Leader.2``."""
    seen: dict[str, int] = {}
    out = []
    for c in sort_hand(hand):
        text = str(c)
        seen[text] = seen.get(text, 0) + 1
        out.append((text if seen[text] == 1 else f"{text}.{seen[text]}", c))
    return out


def _return_layout(game_id: int, version: int, view: PlayerView, returning: Sequence[str]) -> discord.ui.View:
    """Scout's end: pick two cards of the hand, then "Put back"."""
    controls = discord.ui.View(timeout=None)
    values = _return_values(view.hand)
    chosen = [v for v, _ in values if v in set(returning)]
    if len(chosen) != 2:
        chosen = []
    options = [
        discord.SelectOption(label=card_text(c), value=v, description=card_hint(c), default=v in chosen)
        for v, c in values[:MAX_OPTIONS]
    ]
    controls.add_item(ReturnSelect(game_id, version, options))
    label = t("controls.return_button")
    if not chosen:
        controls.add_item(
            MoveButton(game_id, version, None, label=label, style=discord.ButtonStyle.primary, row=1)
        )
        return controls
    cards = dict(values)
    a, b = cards[chosen[0]], cards[chosen[1]]
    if a.is_tactic != b.is_tactic or a is b:
        # Different decks (or the two Leaders): the order changes nothing.
        move = ScoutReturn((a, b))
        controls.add_item(
            MoveButton(game_id, version, move, label=label, style=discord.ButtonStyle.primary, row=1)
        )
        return controls
    # Same deck: one button per card that may end on top (the second of a return does).
    for under, top in ((a, b), (b, a)):
        label = t("controls.return_top", card=card_text(top))
        move = ScoutReturn((under, top))
        controls.add_item(
            MoveButton(game_id, version, move, label=label, style=discord.ButtonStyle.primary, row=1)
        )
    return controls


__all__ = ["MAX_OPTIONS", "board_view", "card_hint", "hand_controls", "playable_cards", "with_text_button"]

"""Tactic cards at the table (issue 5): the multi-step DM controls and the slash commands.

Morale and terrain cards need nothing special: they are in the card select of the hand
controls and go to a stone like a clan card (``PlayCard``). This module adds the rest:

* a ruse chosen in the card select switches the controls to its steps
  (:func:`tactic_controls`): Scout has a single "Play Scout" button; Deserter a select of
  the opponent's cards it may discard; Redeploy and Traitor a target select, then a
  destination select. Every choice is built from the engine's ``legal_moves()``;
* Scout's three draws are the ordinary deck buttons (``DrawButton``), then a two-card
  select (:class:`ReturnSelect`) and a "Put back" button;
* ``/schotten move`` makes any move by its notation, with suggestions from the caller's
  legal moves, and ``/schotten draw deck:`` ends a turn from the chosen deck: the same
  moves for players who cannot receive DMs.

The controls stay stateless: the choices made so far travel in the custom ids
(``st:dst:<game>:<version>:<ruse>:<stone>.<card>``) and the selects' defaults, and the
final button carries the whole move (``st:mv:<game>:<version>:redeploy_R7_3_5``), so a
half-made choice survives a restart and a control from an earlier turn is refused.

Hidden information: Scout's drawn and returned cards appear only in the scouting
player's DM or ephemeral reply; the board shows "put two cards back".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import GameFinished, ServiceError, StaleControl
from bot.render import card_text, sort_hand
from bot.text import t
from cogs.components import CardSelect, ClaimButton, PassButton, _Guarded, _table
from rules.cards import Card, Tactic, parse_card
from rules.errors import NotationError
from rules.moves import (
    Claim,
    Deserter,
    Draw,
    Pass,
    PlayCard,
    Redeploy,
    Scout,
    ScoutReturn,
    Traitor,
)

MAX_OPTIONS = 25
_RUSES = {Tactic.SCOUT, Tactic.REDEPLOY, Tactic.DESERTER, Tactic.TRAITOR}


def _ruse_of(move: Any) -> str | None:
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


def ruse_cards(legal: Iterable[Any], hand: Iterable[Card]) -> set[Card]:
    """The ruse cards of ``hand`` that have at least one legal move now."""
    names = {_ruse_of(m) for m in legal} - {None}
    return {c for c in hand if c.is_tactic and c.tactic in _RUSES and card_text(c) in names}


def playable_cards(view: Any, legal: Sequence[Any]) -> list[Card]:
    """Every card the card select offers: the ones a ``PlayCard`` can place, and ruses."""
    cards = {m.card for m in legal if isinstance(m, PlayCard)} | ruse_cards(legal, view.hand)
    return sort_hand(cards)


def card_hint(card: Card) -> str | None:
    """A short description of a tactic card for the card select, else None."""
    tactic = getattr(card, "tactic", None)
    if tactic is None:
        return None
    return t(f"tactics.hint.{tactic.name.lower()}")


def card_hint_text(text: str) -> str | None:
    """:func:`card_hint` of a card written in notation (``"Fog"``), None for clan cards."""
    try:
        return card_hint(parse_card(text))
    except NotationError:
        return None


# ------------------------------------------------------------------- components


def _move_id(notation: str) -> str:
    return notation.replace(" ", "_")


class MoveButton(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"st:mv:(?P<game>\d+):(?P<version>\d+):(?P<move>[A-Za-z0-9_]+|-)",
):
    """Makes the move its custom id carries (``-``: not chosen yet, shown disabled)."""

    def __init__(
        self, game_id: int, version: int, move: str, *, label: str = "", row: int | None = None
    ) -> None:
        self.game_id, self.version, self.move = game_id, version, move
        super().__init__(
            discord.ui.Button(
                label=label or t("controls.play"),
                style=discord.ButtonStyle.primary,
                custom_id=f"st:mv:{game_id}:{version}:{_move_id(move) if move != '-' else '-'}",
                disabled=move == "-",
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        move = match["move"]
        return cls(int(match["game"]), int(match["version"]), move if move == "-" else move.replace("_", " "))

    async def run(self, interaction: discord.Interaction) -> None:
        if self.move == "-":
            raise ServiceError("choose_first")
        await _table(interaction).play_text(interaction, self.game_id, self.move, self.version)


class TargetSelect(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"st:tgt:(?P<game>\d+):(?P<version>\d+):(?P<card>[A-Za-z]+)",
):
    """Step 2 of Redeploy, Deserter and Traitor: which card (value ``<stone>.<card>``)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        card: str,
        *,
        options: list[discord.SelectOption] | None = None,
        item: discord.ui.Select | None = None,
    ) -> None:
        self.game_id, self.version, self.card = game_id, version, card
        super().__init__(
            item
            or discord.ui.Select(
                custom_id=f"st:tgt:{game_id}:{version}:{card}",
                placeholder=t(f"controls.target.{card.lower()}"),
                options=options or [],
                row=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), match["card"], item=item)

    async def run(self, interaction: discord.Interaction) -> None:
        target = self.item.values[0] if self.item.values else None
        await select_step(interaction, self.game_id, self.version, card=self.card, target=target)


class DestSelect(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"st:dst:(?P<game>\d+):(?P<version>\d+):(?P<card>[A-Za-z]+):(?P<target>\d\.[A-Za-z0-9]+)",
):
    """Step 3 of Redeploy and Traitor: where the card goes (a stone, or ``discard``)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        card: str,
        target: str,
        *,
        options: list[discord.SelectOption] | None = None,
        item: discord.ui.Select | None = None,
    ) -> None:
        self.game_id, self.version, self.card, self.target = game_id, version, card, target
        super().__init__(
            item
            or discord.ui.Select(
                custom_id=f"st:dst:{game_id}:{version}:{card}:{target}",
                placeholder=t("controls.dest"),
                options=options or [],
                row=2,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), match["card"], match["target"], item=item)

    async def run(self, interaction: discord.Interaction) -> None:
        dest = self.item.values[0] if self.item.values else None
        await select_step(
            interaction, self.game_id, self.version, card=self.card, target=self.target, dest=dest
        )


class ReturnSelect(
    _Guarded,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"st:ret:(?P<game>\d+):(?P<version>\d+)",
):
    """Scout's end: the two cards of the hand to put back (values ``R7``, ``Leader.2``)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        *,
        options: list[discord.SelectOption] | None = None,
        item: discord.ui.Select | None = None,
    ) -> None:
        self.game_id, self.version = game_id, version
        super().__init__(
            item
            or discord.ui.Select(
                custom_id=f"st:ret:{game_id}:{version}",
                placeholder=t("controls.return"),
                options=options or [],
                min_values=2,
                max_values=2,
                row=0,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str], /
    ) -> Any:
        return cls(int(match["game"]), int(match["version"]), item=item)

    async def run(self, interaction: discord.Interaction) -> None:
        await select_step(interaction, self.game_id, self.version, returning=tuple(self.item.values))


TACTIC_ITEMS = (MoveButton, TargetSelect, DestSelect, ReturnSelect)


async def select_step(interaction: discord.Interaction, game_id: int, version: int, **selection: Any) -> None:
    """A step of a tactic was chosen: redraw the controls with the choices so far."""
    table = _table(interaction)
    record = await table.service.get(game_id)
    player = table.seat(record, interaction.user.id)
    if record.game.is_over:
        raise GameFinished(game_id)
    if record.version != version:
        raise StaleControl(game_id, version, record.version)
    await interaction.response.edit_message(view=table.controls(record, player, **selection))


# --------------------------------------------------------------------- controls


def _stone_label(stone: int | None) -> str:
    return t("controls.dest_discard") if stone is None else t("controls.stone_option", stone=stone)


def _pass_and_claims(controls: discord.ui.View, game_id: int, version: int, legal: Sequence[Any]) -> None:
    """After the Play button on row 3: Pass (when legal), then the Claim buttons."""
    slot = 1
    if any(isinstance(m, Pass) for m in legal):
        pass_button = PassButton(game_id, version)
        pass_button.item.row = 3
        controls.add_item(pass_button)
        slot += 1
    for stone in sorted(m.stone for m in legal if isinstance(m, Claim)):
        if slot >= 10:
            break  # no room left: /schotten claim still works
        controls.add_item(ClaimButton(game_id, version, stone, row=3 + slot // 5))
        slot += 1


def _card_select(game_id: int, version: int, view: Any, legal: Sequence[Any], selected: str) -> CardSelect:
    options = [
        discord.SelectOption(
            label=card_text(c), value=card_text(c), description=card_hint(c), default=card_text(c) == selected
        )
        for c in playable_cards(view, legal)[:MAX_OPTIONS]
    ]
    return CardSelect(game_id, version, 0, options=options)


def _target_key(stone: int, card: Card) -> str:
    return f"{stone}.{card_text(card)}"


def _ruse_layout(
    game_id: int,
    version: int,
    view: Any,
    legal: Sequence[Any],
    card: str,
    target: str | None,
    dest: str | None,
) -> discord.ui.View:
    """Card select (the ruse chosen), its target and destination selects, then Play."""
    controls = discord.ui.View(timeout=None)
    controls.add_item(_card_select(game_id, version, view, legal, card))
    moves = [m for m in legal if _ruse_of(m) == card]
    notation = "-"
    if card == "Scout":
        notation = "scout"
    else:
        # (stone, card) -> the moves with that target, in the engine's order.
        targets: dict[str, list[Any]] = {}
        for m in moves:
            stone = m.stone if isinstance(m, Deserter) else m.from_stone
            targets.setdefault(_target_key(stone, m.card), []).append(m)
        stone_chosen = (target or "").split(".", 1)[0]  # a bare stone: see _target_options
        if target not in targets:
            target, dest = None, None
        ordered = sorted(targets, key=lambda k: int(k.split(".", 1)[0]))  # stable: the engine's order
        options = _target_options(ordered, target, stone_chosen)
        controls.add_item(TargetSelect(game_id, version, card, options=options))
        if target is not None and card == "Deserter":
            notation = str(targets[target][0])
        elif target is not None:
            by_dest = {("discard" if m.to_stone is None else str(m.to_stone)): m for m in targets[target]}
            if dest not in by_dest:
                dest = None
            dest_options = [
                discord.SelectOption(
                    label=_stone_label(None if key == "discard" else int(key)), value=key, default=key == dest
                )
                for key in by_dest
            ][:MAX_OPTIONS]
            controls.add_item(DestSelect(game_id, version, card, target, options=dest_options))
            if dest is not None:
                notation = str(by_dest[dest])
    controls.add_item(
        MoveButton(game_id, version, notation, label=t("controls.play_tactic", card=card), row=3)
    )
    _pass_and_claims(controls, game_id, version, legal)
    return controls


def _target_options(ordered: list[str], target: str | None, stone_chosen: str) -> list[discord.SelectOption]:
    """The target select's options: every ``<stone>.<card>``; when there are more than a
    select can hold, one option per stone (value ``<stone>``) and the cards of the chosen
    stone only."""

    def card_option(key: str) -> discord.SelectOption:
        stone, card = key.split(".", 1)
        label = t("controls.target_option", stone=stone, card=card)
        return discord.SelectOption(label=label, value=key, default=key == target)

    if len(ordered) <= MAX_OPTIONS:
        return [card_option(key) for key in ordered]
    options: list[discord.SelectOption] = []
    for stone in dict.fromkeys(key.split(".", 1)[0] for key in ordered):
        keys = [key for key in ordered if key.split(".", 1)[0] == stone]
        if stone == stone_chosen:
            options.extend(card_option(key) for key in keys)
        else:
            cards = " ".join(key.split(".", 1)[1] for key in keys)
            label = t("controls.target_stone", stone=stone, cards=cards)[:100]
            options.append(discord.SelectOption(label=label, value=stone))
    return options[:MAX_OPTIONS]


def _return_values(hand: Sequence[Card]) -> list[tuple[str, Card]]:
    """(select value, card) for each card of the hand; a second Leader is ``Leader.2``."""
    seen: dict[str, int] = {}
    out = []
    for c in sort_hand(hand):
        text = card_text(c)
        seen[text] = seen.get(text, 0) + 1
        out.append((text if seen[text] == 1 else f"{text}.{seen[text]}", c))
    return out


def _return_layout(game_id: int, version: int, view: Any, returning: Sequence[str] | None) -> discord.ui.View:
    """Scout's end: pick two cards of the hand, then "Put back"."""
    controls = discord.ui.View(timeout=None)
    values = _return_values(view.hand)
    chosen = [v for v, _ in values if v in set(returning or ())]
    if len(chosen) != 2:
        chosen = []
    options = [
        discord.SelectOption(label=card_text(c), value=v, description=card_hint(c), default=v in chosen)
        for v, c in values[:MAX_OPTIONS]
    ]
    controls.add_item(ReturnSelect(game_id, version, options=options))
    if not chosen:
        controls.add_item(MoveButton(game_id, version, "-", label=t("controls.return_button"), row=1))
        return controls
    cards = dict(values)
    a, b = cards[chosen[0]], cards[chosen[1]]
    if a.is_tactic != b.is_tactic or a is b:
        # Different decks (or the two Leaders): the order changes nothing.
        controls.add_item(
            MoveButton(game_id, version, str(ScoutReturn((a, b))), label=t("controls.return_button"), row=1)
        )
        return controls
    # Same deck: one button per card that may end on top (the second of a return does).
    for under, top in ((a, b), (b, a)):
        label = t("controls.return_top", card=card_text(top))
        controls.add_item(MoveButton(game_id, version, str(ScoutReturn((under, top))), label=label, row=1))
    return controls


def tactic_controls(
    game_id: int,
    version: int,
    view: Any,
    legal: Sequence[Any],
    *,
    card: str | None = None,
    target: str | None = None,
    dest: str | None = None,
    returning: Sequence[str] | None = None,
    **_: Any,
) -> discord.ui.View | None:
    """The controls of a tactic step, or None when the ordinary hand controls apply:
    Scout's return, or a ruse chosen in the card select."""
    if view.phase == "scout_return":
        return _return_layout(game_id, version, view, returning)
    if card is None or card not in {_ruse_of(m) for m in legal}:
        return None
    return _ruse_layout(game_id, version, view, legal, card, target, dest)


def status_lines(view: Any) -> list[str]:
    """Private lines for the player's own DM: Scout's progress and the cards they put back
    on the decks (which only they know)."""
    lines = []
    if view.current_player == view.player and view.phase == "scout_draw":
        lines.append(t("tactics.scout_draw", n=view.scout_draws_left))
    elif view.current_player == view.player and view.phase == "scout_return":
        lines.append(t("tactics.scout_return"))
    known = getattr(view, "known_deck_cards", ())
    if known:
        parts = [
            t(
                "tactics.known_top" if depth == 0 else "tactics.known_below",
                card=str(c),
                deck=deck,
                depth=depth,
            )
            for deck, depth, c in sorted(known, key=lambda k: (k[0], k[1]))
        ]
        lines.append(t("tactics.known", cards="; ".join(parts)))
    held = getattr(view, "opponent_known_cards", ())
    if held:
        lines.append(t("tactics.opponent_known", cards=" ".join(card_text(c) for c in held)))
    return lines


# ---------------------------------------------------------------- slash commands


def describe_move(move: Any) -> str:
    """A legal move as a sentence for the ``/schotten move`` suggestions."""
    if isinstance(move, PlayCard):
        return t("choice.move.play", card=card_text(move.card), stone=move.stone)
    if isinstance(move, Claim):
        return t("choice.move.claim", stone=move.stone)
    if isinstance(move, Pass):
        return t("choice.move.pass")
    if isinstance(move, Draw):
        return t("choice.move.draw_none") if move.deck is None else t(f"choice.move.draw.{move.deck}")
    if isinstance(move, Scout):
        return t("choice.move.scout")
    if isinstance(move, ScoutReturn):
        a, b = move.cards
        return t("choice.move.return", first=card_text(a), second=card_text(b))
    if isinstance(move, Redeploy):
        if move.to_stone is None:
            return t("choice.move.redeploy_discard", card=card_text(move.card), from_stone=move.from_stone)
        return t(
            "choice.move.redeploy",
            card=card_text(move.card),
            from_stone=move.from_stone,
            to_stone=move.to_stone,
        )
    if isinstance(move, Deserter):
        return t("choice.move.deserter", card=card_text(move.card), stone=move.stone)
    if isinstance(move, Traitor):
        return t(
            "choice.move.traitor",
            card=card_text(move.card),
            from_stone=move.from_stone,
            to_stone=move.to_stone,
        )
    return str(move)


def _suggestion_order(move: Any) -> int:
    # Plays are the most numerous: list everything else first so it is not cut off.
    return 1 if isinstance(move, PlayCard) else 0


@app_commands.command(name="move", description=t("cmd.move"))
@app_commands.describe(text=t("cmd.move.text"), game=t("cmd.game"))
async def move(interaction: discord.Interaction, text: str, game: int | None = None) -> None:
    bot: Any = interaction.client
    table = _table(interaction)
    record = await bot.service.find_game_for(interaction.user.id, interaction.channel_id, game)
    try:
        parsed = table.parse(record, text)
    except NotationError as error:
        if error.params.get("what") == "move":
            raise ServiceError("unknown_move", text=text.strip()[:60]) from None
        raise
    await table.move(interaction, record, parsed)


@move.autocomplete("text")
async def move_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    # The caller's own legal moves, shown only to the caller.
    bot: Any = interaction.client
    try:
        game = getattr(interaction.namespace, "game", None)
        record = await bot.service.find_game_for(interaction.user.id, interaction.channel_id, game)
        player = record.player_of(interaction.user.id)
        if player is None:
            return []
        legal = record.game.view(player).legal_moves()
    except (ServiceError, app_commands.AppCommandError):
        return []
    words = current.lower().split()
    choices = []
    for m in sorted(legal, key=_suggestion_order):
        name = describe_move(m)
        haystack = f"{m} {name}".lower()
        if all(w in haystack for w in words):
            choices.append(app_commands.Choice(name=name[:100], value=str(m)))
            if len(choices) == MAX_OPTIONS:
                break
    return choices


@app_commands.command(name="draw", description=t("cmd.draw"))
@app_commands.describe(deck=t("cmd.draw.deck"), game=t("cmd.game"))
@app_commands.choices(
    deck=[
        app_commands.Choice(name=t("choice.deck.clan"), value="clan"),
        app_commands.Choice(name=t("choice.deck.tactic"), value="tactic"),
    ]
)
async def draw(interaction: discord.Interaction, deck: str = "clan", game: int | None = None) -> None:
    bot: Any = interaction.client
    record = await bot.service.find_game_for(interaction.user.id, interaction.channel_id, game)
    await _table(interaction).move(interaction, record, Draw(deck))  # type: ignore[arg-type]


async def _game_autocomplete(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    cog: Any = interaction.client.get_cog("Schotten")  # type: ignore[attr-defined]
    if cog is None:
        return []
    result: list[app_commands.Choice[int]] = await cog.game_autocomplete(interaction, current)
    return result


move.autocomplete("game")(_game_autocomplete)
draw.autocomplete("game")(_game_autocomplete)

COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (move, draw)


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("schotten")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.tactics needs the /schotten group of cogs.game, loaded first")
    for command in COMMANDS:
        # A copy per bot: add_command sets the command's parent, and tests run many bots.
        group.add_command(command._copy_with(parent=group, binding=None), override=True)
    bot.add_dynamic_items(*TACTIC_ITEMS)


async def teardown(bot: commands.Bot) -> None:
    group = bot.tree.get_command("schotten")
    if isinstance(group, app_commands.Group):
        for command in COMMANDS:
            group.remove_command(command.name)
    bot.remove_dynamic_items(*TACTIC_ITEMS)

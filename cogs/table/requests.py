"""A player's requests at the table, and the controls that make them.

The hand controls (card, stone and ruse selects, Play, Pass, Claim, the draws, Hint)
and the board's Show-my-hand button live here, each answering its own click:

* :func:`make_move` makes a move for a user (a control, or a typed command): defer,
  ``service.apply`` (which commits), answer the user privately, then hand the outcome
  to the publishing side;
* :func:`redraw` redraws a player's controls with what they have chosen so far (a
  card, a stone, a ruse's target: a :class:`Selection` that travels in the ids and the
  selects' defaults, never in memory);
* :func:`show_hand` answers privately with the hand and its controls, and :func:`hint`
  with the hard AI's suggestion (games against the AI only).

Drawing a hand and publishing live a layer above (:mod:`cogs.table.publisher`, which
draws these controls into DMs); this side reaches them through :class:`Publishing`,
installed for the bot once (:func:`install`). A hand only ever goes to its owner: into
their DM or an ephemeral reply.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, Self

import discord

from bot.games.errors import GameFinished, GameNotFound, ServiceError
from bot.games.live import LiveGame, MoveOutcome
from bot.storage import DatabaseUnavailable
from bot.text.catalogue import t
from bot.text.notation import read_move
from bot.text.render import describe_hint
from cogs.table.messages import Names, Picture, attachments, upload
from cogs.ui import Interaction
from cogs.ui.checks import require_own_subject
from cogs.ui.components import Button, Component, Select, select_menu
from cogs.ui.links import with_seat_link
from cogs.ui.replies import LOADING, answer, committed, defer_early, defer_update, update
from rules.cards import Card
from rules.errors import NotationError
from rules.game import Applied
from rules.moves import Claim, Draw, Move, Pass, parse_move

log = logging.getLogger(__name__)

_CARD = r"[A-Za-z0-9]+|-"
NOT_CHOSEN = "-"  # a card or move not chosen yet, in a custom id


@dataclass(frozen=True)
class Selection:
    """What a player has chosen in their controls so far, before a move is made."""

    card: str | None = None  # a card in notation (``R7``, ``Traitor``)
    stone: int | None = None
    target: str | None = None  # a ruse's target, ``<stone>.<card>`` (or just ``<stone>``)
    dest: str | None = None  # where a ruse sends it: a stone, or ``discard``
    returning: tuple[str, ...] = ()  # Scout: the two cards to put back


@dataclass(frozen=True)
class Seat:
    """A player's private message (their DM, an ephemeral reply): the text, the
    controls and, in the picture style, the picture of their board and hand (the text
    then leaves the board out, and the controls offer it: Show as text)."""

    content: str
    view: discord.ui.View | None
    picture: Picture | None = None

    def upload(self) -> discord.File:
        return upload(self.picture)

    def attachments(self) -> list[discord.File]:
        return attachments(self.picture)


# ---------------------------------------------------------------- the publishing side


class Publishing(Protocol):
    """What a request needs of the publishing side (:class:`cogs.table.publisher.Publisher`):
    a seat's hand and controls as the DMs show them (as text, or in the member's style),
    the channel's text board, and the publication of an outcome or a new game."""

    def hand(self, record: LiveGame, player: int, names: Names, drawn: Sequence[Card] = ()) -> str: ...

    def board(self, record: LiveGame, names: Names) -> str: ...

    def controls(
        self, record: LiveGame, player: int, selection: Selection | None = None, *, as_text: bool = False
    ) -> discord.ui.View | None: ...

    async def seat(self, record: LiveGame, player: int, names: Names, drawn: Sequence[Card] = ()) -> Seat: ...

    async def publish(
        self, outcome: MoveOutcome, *, skip_dm: int | None = None, recovering: bool = False
    ) -> None: ...

    async def start(self, record: LiveGame, *, announced: bool = False) -> None: ...

    async def refresh(self, game_id: int) -> None: ...


_publishing: weakref.WeakKeyDictionary[discord.Client, Publishing] = weakref.WeakKeyDictionary()


def install(client: discord.Client, publishing: Publishing) -> None:
    """Set the bot's publishing side (the extension's setup, once)."""
    _publishing[client] = publishing


def publishing(client: discord.Client) -> Publishing:
    return _publishing[client]


# ---------------------------------------------------------------- requests


def drawn_by(applied: Sequence[Applied], player: int) -> list[Card]:
    """Every card ``player`` drew in these moves (a Scout's draws too)."""
    return [e.drawn for e in applied if e.player == player and e.drawn is not None]


def _private(interaction: Interaction) -> bool:
    """Whether the message a control sits on is seen by the clicking user only (their
    DM with the bot, or an ephemeral reply): the only places a hand may be drawn."""
    message = interaction.message
    return message is not None and (message.guild is None or message.flags.ephemeral)


MAX_TYPED = 100  # a typed move or card longer than this is no move at all


def typed_move(record: LiveGame, text: str) -> Move:
    """A move as a player typed it; anything unreadable is an unknown move."""
    text = text.strip()
    try:
        if len(text) > MAX_TYPED:
            raise NotationError(text[:MAX_TYPED], what="move")
        return read_move(text, max_value=record.game.ruleset.max_value)
    except NotationError as error:
        if error.params.get("what", "move") == "move":
            raise ServiceError("unknown_move", text=text) from None  # echoed cut short
        raise


async def _names(interaction: Interaction, record: LiveGame) -> Names:
    return await interaction.client.names.pair(record.players, record.guild_id)


async def tell_dm_tip(interaction: Interaction, game_id: int) -> None:
    """Once per game, privately: the user's DMs refused us, and how to open them."""
    if await interaction.client.delivery.take_dm_tip(game_id, interaction.user.id):
        await interaction.followup.send(t("dm.closed"), ephemeral=True)


async def bind_private(interaction: Interaction, message: discord.Message | None, game_id: int) -> None:
    """The private reply ``message`` shows ``game_id`` to the user (with its controls,
    now or after an edit): store it, so that its controls act on that game only
    (``cogs/ui/checks.py``). A reply that could not be stored keeps its text; its
    controls then answer that they are out of date ("Show my hand" gives new ones)."""
    if message is None:
        return
    try:
        await interaction.client.delivery.private_reply(message.id, game_id, interaction.user.id)
    except DatabaseUnavailable as error:
        log.warning("could not store the private reply of game %d: %s", game_id, error)


async def make_move(interaction: Interaction, game_id: int, version: int | None, move: Move) -> None:
    """Make ``move`` for the interaction's user; answer them, then publish.

    The interaction is deferred first: under load a move can wait behind others for
    the database, and Discord wants an answer within 3 seconds. The answer proper
    comes once the service has committed the move. ``version``: the game's version
    the control was made for (None: a typed command, which means "now").
    """
    bot = interaction.client
    table = publishing(bot)
    component = interaction.type is discord.InteractionType.component
    if component and not _private(interaction):
        raise ServiceError("controls_not_private")
    bot.names.remember(interaction.user)
    if interaction.response.is_done():  # a typed command, deferred before its lookup
        interaction.extras.pop(LOADING, None)  # answered by follow-ups from here, as ever
    elif component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    await require_own_subject(interaction)  # a control acts only on its own message's game
    outcome = await bot.service.apply(game_id, interaction.user.id, move, expected_version=version)
    record = outcome.game
    # Saved: whatever fails from here (the database gone, Discord), the mover is told
    # the move was made; the outbox entry publishes it once the database answers.
    committed(interaction, t("saved.move", game_id=record.id))
    player = record.require_player(interaction.user.id)
    names = await _names(interaction, record)
    seat = await table.seat(record, player, names, drawn_by(outcome.applied, player))
    if component:
        # The clicked message (the DM, or an ephemeral "Show my hand") shows the
        # new hand at once; publish() then leaves that DM alone.
        await interaction.edit_original_response(
            content=seat.content, view=seat.view, attachments=seat.attachments()
        )
    else:
        message = await interaction.followup.send(
            seat.content,
            view=seat.view or discord.utils.MISSING,
            file=seat.upload(),
            ephemeral=True,
            wait=True,
        )
        await bind_private(interaction, message, record.id)
    in_own_dm = (
        component
        and interaction.message is not None
        and interaction.message.id == record.dm_message_ids[player]
    )
    # A click in the mover's own DM updated it above. Otherwise their DM is edited too,
    # at the end as well: a DM that still said "It is your turn." with live controls
    # after a typed winning move would be wrong (the end costs a fourth call then).
    skip = player if in_own_dm else None
    await table.publish(outcome, skip_dm=skip)
    await tell_dm_tip(interaction, record.id)


async def redraw(interaction: Interaction, game_id: int, version: int, selection: Selection) -> None:
    """A card, stone or ruse step was chosen: redraw the controls with it."""
    if not _private(interaction):
        raise ServiceError("controls_not_private")
    await defer_update(interaction)  # before the database: answered within 3 s
    await require_own_subject(interaction)  # only on its own message's game
    # Read again if the control is newer than this process's copy (another process
    # published that version); StaleControl only for a control older than the game.
    record = await interaction.client.service.current(game_id, version)
    player = record.require_player(interaction.user.id)
    # A message with a picture keeps its Show-as-text button (the picture stays).
    message = interaction.message
    as_text = message is not None and bool(message.attachments)
    controls = publishing(interaction.client).controls(record, player, selection, as_text=as_text)
    # The seat's link stays with the controls (this message is private: checked above).
    await update(interaction, view=await with_seat_link(controls, interaction.client, record, player))


async def hint(interaction: Interaction, record: LiveGame) -> None:
    """The hard AI's suggestion with a one-line reason, privately: only against the AI
    (in a game between people it would be help from outside), on one's turn."""
    player = record.require_player(interaction.user.id)
    if not record.vs_ai:
        raise ServiceError("hint_vs_ai_only")
    if record.game.is_over:
        raise GameFinished(record.id)
    if record.current_player != player:
        raise ServiceError("not_your_turn")
    # The search may take a second or more on a busy machine (deferred already when
    # the game was read from the database).
    await defer_early(interaction)
    suggestion = await interaction.client.opponent.hint(record, player)
    await answer(interaction, describe_hint(suggestion))


async def show_hand(interaction: Interaction, game_id: int) -> None:
    """The user's hand and controls, privately (the board's button, ``/schotten hand``)."""
    bot = interaction.client
    await defer_early(interaction)  # before the database: answered within 3 s
    await require_own_subject(interaction)  # the board's button: only on its own game's message
    # As stored: another process may have moved the game since this one cached it.
    record = await bot.service.reload(game_id)
    player = record.require_player(interaction.user.id)
    if record.game.is_over:
        raise GameFinished(game_id)
    bot.names.remember(interaction.user)
    seat = await publishing(bot).seat(record, player, await _names(interaction, record))
    text = seat.content
    if await bot.delivery.take_dm_tip(game_id, interaction.user.id):
        text = t("dm.closed") + "\n\n" + text
    message = await answer(interaction, text, view=seat.view, file=seat.upload())
    await bind_private(interaction, message, game_id)


# ---------------------------------------------------------------- the board's button


class ShowHandButton(Component[Button], template=r"st:hand:(?P<game>\d+)(?::(?P<version>\d+))?"):
    """On the public board: answers the clicking player, ephemerally, with their hand
    and controls (the way to play with DMs closed).

    ``version``: the game's version the board shows. A click ignores it (it always
    shows the current hand); it marks the board message, so that a publication made
    again after a crash finds the board it already posted instead of posting another.
    Boards posted before it was added (``st:hand:<game>``) still work."""

    def __init__(self, game_id: int, version: int | None = None, *, disabled: bool = False) -> None:
        self.game_id = game_id
        self.version = version
        super().__init__(
            discord.ui.Button(
                label=t("board.show_hand"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:hand:{game_id}" if version is None else f"st:hand:{game_id}:{version}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), None if match["version"] is None else int(match["version"]))

    async def run(self, interaction: Interaction) -> None:
        await show_hand(interaction, self.game_id)


class ShowTextButton(Component[Button], template=r"st:txt:(?P<game>\d+):(?P<version>\d+):(?P<what>[bh])"):
    """Beside a picture: the same as text, privately (for screen readers, and for anyone
    who prefers it). ``b``: the channel's text board, for anyone who may see the game's
    board; ``h``: the clicking player's own text hand message (never anyone else's: the
    player is the one who clicked, not one named in the id). Shows the game as stored
    now, whatever ``version`` the picture showed."""

    def __init__(self, game_id: int, version: int, what: str) -> None:
        self.game_id, self.version, self.what = game_id, version, what
        super().__init__(
            discord.ui.Button(
                label=t("picture.show_text"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:txt:{game_id}:{version}:{what}",
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["what"])

    async def run(self, interaction: Interaction) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        await require_own_subject(interaction)  # only on its own message's game
        record = await interaction.client.service.reload(self.game_id)
        names = await _names(interaction, record)
        table = publishing(interaction.client)
        player = record.player_of(interaction.user.id)
        if self.what == "h":
            text = table.hand(record, record.require_player(interaction.user.id), names)
        elif player is None and (record.guild_id is None or record.guild_id != interaction.guild_id):
            raise GameNotFound(record.id)  # the game's own server, or its players: ids are sequential
        else:
            text = table.board(record, names)
        await answer(interaction, text)


# ---------------------------------------------------------------- hand controls


class CardSelect(Component[Select], template=r"st:card:(?P<game>\d+):(?P<version>\d+):(?P<stone>\d+)"):
    """Which card to play (a stone already chosen travels along, 0: none)."""

    def __init__(self, game_id: int, version: int, stone: int, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version, self.stone = game_id, version, stone
        custom_id = f"st:card:{game_id}:{version}:{stone}"
        super().__init__(select_menu(custom_id, t("controls.card"), options, row=0))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), int(match["stone"]), [])

    async def run(self, interaction: Interaction) -> None:
        selection = Selection(
            card=self.item.values[0] if self.item.values else None, stone=self.stone or None
        )
        await redraw(interaction, self.game_id, self.version, selection)


class StoneSelect(Component[Select], template=rf"st:stone:(?P<game>\d+):(?P<version>\d+):(?P<card>{_CARD})"):
    """Which stone to play the chosen card at (``-``: no card chosen yet)."""

    def __init__(self, game_id: int, version: int, card: str, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version, self.card = game_id, version, card
        custom_id = f"st:stone:{game_id}:{version}:{card}"
        super().__init__(select_menu(custom_id, t("controls.stone"), options, row=1))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], [])

    async def run(self, interaction: Interaction) -> None:
        card = None if self.card == NOT_CHOSEN else self.card
        stone = int(self.item.values[0]) if self.item.values else None
        await redraw(interaction, self.game_id, self.version, Selection(card=card, stone=stone))


class PlayButton(
    Component[Button],
    template=rf"st:play:(?P<game>\d+):(?P<version>\d+):(?P<card>{_CARD}):(?P<stone>\d+)",
):
    """Plays the chosen card at the chosen stone (disabled until both are chosen)."""

    def __init__(self, game_id: int, version: int, card: str, stone: int, *, disabled: bool = False) -> None:
        self.game_id, self.version, self.card, self.stone = game_id, version, card, stone
        super().__init__(
            discord.ui.Button(
                label=t("controls.play"),
                style=discord.ButtonStyle.primary,
                custom_id=f"st:play:{game_id}:{version}:{card}:{stone}",
                disabled=disabled,
                row=2,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], int(match["stone"]))

    async def run(self, interaction: Interaction) -> None:
        if self.card == NOT_CHOSEN or not self.stone:
            raise ServiceError("choose_first")
        move = parse_move(f"play {self.card} {self.stone}")
        await make_move(interaction, self.game_id, self.version, move)


class MoveButton(
    Component[Button],
    template=r"st:(?P<kind>pass|claim|draw|mv):(?P<game>\d+):(?P<version>\d+)(?::(?P<arg>[A-Za-z0-9_-]+))?",
):
    """A button that makes one move, carried in its id: Pass, Claim <stone>, a draw
    (End turn, or the deck to draw from), or a tactic's move (``mv``)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        move: Move | None,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        self.game_id, self.version, self.move = game_id, version, move
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=_move_id(game_id, version, move),
                disabled=move is None,
                row=row,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), _move_of(match["kind"], match["arg"]), label="")

    async def run(self, interaction: Interaction) -> None:
        if self.move is None:
            raise ServiceError("choose_first")
        await make_move(interaction, self.game_id, self.version, self.move)


class HintButton(Component[Button], template=r"st:hint:(?P<game>\d+):(?P<version>\d+)"):
    """In a game against the AI: the hard AI's suggestion for this turn, privately."""

    def __init__(self, game_id: int, version: int) -> None:
        self.game_id, self.version = game_id, version
        super().__init__(
            discord.ui.Button(
                label=t("controls.suggest"),
                style=discord.ButtonStyle.secondary,
                emoji="\N{ELECTRIC LIGHT BULB}",
                custom_id=f"st:hint:{game_id}:{version}",
                row=2,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]))

    async def run(self, interaction: Interaction) -> None:
        # Read again if the button is newer than this process's copy; StaleControl for
        # a button from an earlier turn.
        await defer_early(interaction)  # before the database: answered within 3 s
        await require_own_subject(interaction)  # only on its own message's game
        await hint(interaction, await interaction.client.service.current(self.game_id, self.version))


def _move_id(game_id: int, version: int, move: Move | None) -> str:
    at = f"{game_id}:{version}"
    if isinstance(move, Pass):
        return f"st:pass:{at}"
    if isinstance(move, Claim):
        return f"st:claim:{at}:{move.stone}"
    if isinstance(move, Draw):
        return f"st:draw:{at}:{move.deck or 'none'}"
    return f"st:mv:{at}:{NOT_CHOSEN if move is None else str(move).replace(' ', '_')}"


def _move_of(kind: str, arg: str | None) -> Move | None:
    """The move a :class:`MoveButton`'s id carries; None: not chosen yet (or not ours)."""
    if kind == "pass":
        return Pass()
    if kind == "claim":
        return Claim(int(arg)) if arg and arg.isdigit() else None
    if kind == "draw":
        return {"clan": Draw("clan"), "tactic": Draw("tactic"), "none": Draw(None)}.get(arg or "")
    if arg is None or arg == NOT_CHOSEN:
        return None
    return parse_move(arg.replace("_", " "))


# ---------------------------------------------------------------- ruse steps


class TargetSelect(Component[Select], template=r"st:tgt:(?P<game>\d+):(?P<version>\d+):(?P<card>[A-Za-z]+)"):
    """Step 2 of Redeploy, Deserter and Traitor: which card (value ``<stone>.<card>``)."""

    def __init__(self, game_id: int, version: int, card: str, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version, self.card = game_id, version, card
        custom_id = f"st:tgt:{game_id}:{version}:{card}"
        super().__init__(select_menu(custom_id, t(f"controls.target.{card.lower()}"), options, row=1))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], [])

    async def run(self, interaction: Interaction) -> None:
        selection = Selection(card=self.card, target=self.item.values[0] if self.item.values else None)
        await redraw(interaction, self.game_id, self.version, selection)


class DestSelect(
    Component[Select],
    template=r"st:dst:(?P<game>\d+):(?P<version>\d+):(?P<card>[A-Za-z]+):(?P<target>\d\.[A-Za-z0-9]+)",
):
    """Step 3 of Redeploy and Traitor: where the card goes (a stone, or ``discard``)."""

    def __init__(
        self, game_id: int, version: int, card: str, target: str, options: list[discord.SelectOption]
    ) -> None:
        self.game_id, self.version, self.card, self.target = game_id, version, card, target
        custom_id = f"st:dst:{game_id}:{version}:{card}:{target}"
        super().__init__(select_menu(custom_id, t("controls.dest"), options, row=2))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], match["target"], [])

    async def run(self, interaction: Interaction) -> None:
        dest = self.item.values[0] if self.item.values else None
        selection = Selection(card=self.card, target=self.target, dest=dest)
        await redraw(interaction, self.game_id, self.version, selection)


class ReturnSelect(Component[Select], template=r"st:ret:(?P<game>\d+):(?P<version>\d+)"):
    """Scout's end: the two cards of the hand to put back (values ``R7``, ``Leader.2``)."""

    def __init__(self, game_id: int, version: int, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version = game_id, version
        custom_id = f"st:ret:{game_id}:{version}"
        super().__init__(select_menu(custom_id, t("controls.return"), options, row=0, choose=2))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), [])

    async def run(self, interaction: Interaction) -> None:
        await redraw(interaction, self.game_id, self.version, Selection(returning=tuple(self.item.values)))


__all__ = [
    "NOT_CHOSEN",
    "CardSelect",
    "DestSelect",
    "HintButton",
    "MoveButton",
    "PlayButton",
    "Publishing",
    "ReturnSelect",
    "Seat",
    "Selection",
    "ShowHandButton",
    "ShowTextButton",
    "StoneSelect",
    "TargetSelect",
    "bind_private",
    "drawn_by",
    "hint",
    "install",
    "make_move",
    "publishing",
    "redraw",
    "show_hand",
    "tell_dm_tip",
]

"""Every button and select of the bot, as DynamicItems on one base class.

A DynamicItem is rebuilt from its ``custom_id`` on every click, so nothing is kept in
memory: after a restart every button and select still works. The ids carry what the
click means (``st:play:<game>:<version>:<card>:<stone>``); the version lets the service
refuse a control from an earlier turn (``StaleControl``) without changing the game.
Choices made so far (a card, a ruse's target) travel in the ids of the other controls.

A component decodes its id into typed values (a ``Move``, a :class:`Selection`) and
hands them to the :class:`Handlers` installed for the bot (the table, a layer above,
installs them: :func:`install_handlers`). Errors are answered by :func:`cogs.ui.replies.report`
because discord.py only logs exceptions raised in components.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import ClassVar, Protocol, Self, TypeVar

import discord

from bot.games.errors import ServiceError
from bot.text.catalogue import t
from cogs.ui import ClientT, Interaction, ours
from cogs.ui.replies import report
from rules.moves import Claim, Draw, Move, Pass, parse_move

_CARD = r"[A-Za-z0-9]+|-"
NOT_CHOSEN = "-"  # a card or move not chosen yet, in a custom id

Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
ItemT = TypeVar("ItemT", Button, Select)


# ---------------------------------------------------------------------- handlers


@dataclass(frozen=True)
class Selection:
    """What a player has chosen in their controls so far, before a move is made."""

    card: str | None = None  # a card in notation (``R7``, ``Traitor``)
    stone: int | None = None
    target: str | None = None  # a ruse's target, ``<stone>.<card>`` (or just ``<stone>``)
    dest: str | None = None  # where a ruse sends it: a stone, or ``discard``
    returning: tuple[str, ...] = ()  # Scout: the two cards to put back


class Handlers(Protocol):
    """What the components ask for; the table implements it."""

    async def move(self, interaction: Interaction, game_id: int, version: int, move: Move) -> None: ...

    async def select(
        self, interaction: Interaction, game_id: int, version: int, selection: Selection
    ) -> None: ...

    async def show_hand(self, interaction: Interaction, game_id: int) -> None: ...

    async def hint(self, interaction: Interaction, game_id: int, version: int) -> None: ...

    async def answer_challenge(
        self, interaction: Interaction, challenge_id: int, *, accept: bool
    ) -> None: ...

    async def rematch(self, interaction: Interaction, game_id: int) -> None: ...

    async def leaderboard(self, interaction: Interaction, scope_id: str, page: int) -> None: ...

    async def history(self, interaction: Interaction, user_id: int, page: int) -> None: ...

    async def replay(self, interaction: Interaction, game_id: int, step: int) -> None: ...


_handlers: weakref.WeakKeyDictionary[discord.Client, Handlers] = weakref.WeakKeyDictionary()


def install_handlers(client: discord.Client, handlers: Handlers) -> None:
    _handlers[client] = handlers


def handlers_for(client: discord.Client) -> Handlers:
    return _handlers[client]


# -------------------------------------------------------------------- base class


class Component(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """The base of every component. Subclasses give the real ``template`` and decode a
    match of it in :meth:`from_match`; the base's own template matches nothing."""

    prefix: ClassVar[str]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[ClientT],
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
        /,
    ) -> Self:
        # discord.py then fills this item's state (a select's values) from the click.
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction[ClientT]) -> None:
        ours_ = ours(interaction)
        guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
        await ours_.client.languages.enter(
            interaction.user.id, interaction.locale.value, interaction.guild_id, guild_locale
        )
        try:
            await self.run(ours_, handlers_for(ours_.client))
        except Exception as error:
            await report(ours_, error)

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        raise NotImplementedError


def _select(
    custom_id: str, placeholder: str, options: list[discord.SelectOption], row: int, *, choose: int = 1
) -> Select:
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder,
        options=options,
        row=row,
        min_values=choose,
        max_values=choose,
    )


# -------------------------------------------------------------------- challenges


class ChallengeButton(Component[Button], template=r"st:chal:(?P<id>\d+):(?P<answer>accept|decline)"):
    def __init__(self, challenge_id: int, accept: bool, *, disabled: bool = False) -> None:
        self.challenge_id, self.accept = challenge_id, accept
        answer = "accept" if accept else "decline"
        super().__init__(
            discord.ui.Button(
                label=t(f"challenge.{answer}"),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"st:chal:{challenge_id}:{answer}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["id"]), match["answer"] == "accept")

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.answer_challenge(interaction, self.challenge_id, accept=self.accept)


# ---------------------------------------------------------- board and game's end


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

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.show_hand(interaction, self.game_id)


class RematchButton(Component[Button], template=r"st:rematch:(?P<game>\d+)"):
    """On the end announcement: a new challenge between the same players."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=t("rematch.button"),
                style=discord.ButtonStyle.primary,
                custom_id=f"st:rematch:{game_id}",
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]))

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.rematch(interaction, self.game_id)


class LeaderboardButton(
    Component[Button], template=r"st:lb:(?P<scope>global|\d+):(?P<page>-?\d+):(?P<dir>[pn])"
):
    """Shows page ``page`` of a leaderboard; anyone may turn the pages."""

    def __init__(self, scope_id: str, page: int, direction: str, *, disabled: bool = False) -> None:
        self.scope_id, self.page = scope_id, page
        super().__init__(
            discord.ui.Button(
                label=t("leaderboard.prev" if direction == "p" else "leaderboard.next"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:lb:{scope_id}:{max(page, 0)}:{direction}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["scope"], int(match["page"]), match["dir"])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.leaderboard(interaction, self.scope_id, self.page)


# ------------------------------------------------------------------ game records


class HistoryButton(Component[Button], template=r"st:hist:(?P<user>\d+):(?P<page>\d+):(?P<dir>[pn])"):
    """Shows page ``page`` of a member's finished games; anyone may turn the pages."""

    def __init__(self, user_id: int, page: int, direction: str, *, disabled: bool = False) -> None:
        self.user_id, self.page = user_id, page
        super().__init__(
            discord.ui.Button(
                label=t("history.prev" if direction == "p" else "history.next"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:hist:{user_id}:{max(page, 0)}:{direction}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["user"]), int(match["page"]), match["dir"])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.history(interaction, self.user_id, self.page)


_REPLAY_LABELS = {"f": "replay.first", "b": "replay.back", "n": "replay.forward", "l": "replay.last"}


class ReplayButton(Component[Button], template=r"st:rp:(?P<game>\d+):(?P<step>\d+):(?P<dir>[fbnl])"):
    """Shows step ``step`` of a finished game's replay (first, back, forward or last:
    ``dir`` keeps the four ids of one message apart)."""

    def __init__(self, game_id: int, step: int, direction: str, *, disabled: bool = False) -> None:
        self.game_id, self.step = game_id, step
        super().__init__(
            discord.ui.Button(
                label=t(_REPLAY_LABELS[direction]),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:rp:{game_id}:{max(step, 0)}:{direction}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["step"]), match["dir"])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.replay(interaction, self.game_id, self.step)


# ------------------------------------------------------------------- hand controls


class CardSelect(Component[Select], template=r"st:card:(?P<game>\d+):(?P<version>\d+):(?P<stone>\d+)"):
    """Which card to play (a stone already chosen travels along, 0: none)."""

    def __init__(self, game_id: int, version: int, stone: int, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version, self.stone = game_id, version, stone
        custom_id = f"st:card:{game_id}:{version}:{stone}"
        super().__init__(_select(custom_id, t("controls.card"), options, row=0))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), int(match["stone"]), [])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        selection = Selection(
            card=self.item.values[0] if self.item.values else None, stone=self.stone or None
        )
        await handlers.select(interaction, self.game_id, self.version, selection)


class StoneSelect(Component[Select], template=rf"st:stone:(?P<game>\d+):(?P<version>\d+):(?P<card>{_CARD})"):
    """Which stone to play the chosen card at (``-``: no card chosen yet)."""

    def __init__(self, game_id: int, version: int, card: str, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version, self.card = game_id, version, card
        custom_id = f"st:stone:{game_id}:{version}:{card}"
        super().__init__(_select(custom_id, t("controls.stone"), options, row=1))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], [])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        card = None if self.card == NOT_CHOSEN else self.card
        stone = int(self.item.values[0]) if self.item.values else None
        await handlers.select(interaction, self.game_id, self.version, Selection(card=card, stone=stone))


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

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        if self.card == NOT_CHOSEN or not self.stone:
            raise ServiceError("choose_first")
        move = parse_move(f"play {self.card} {self.stone}")
        await handlers.move(interaction, self.game_id, self.version, move)


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

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        if self.move is None:
            raise ServiceError("choose_first")
        await handlers.move(interaction, self.game_id, self.version, self.move)


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

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.hint(interaction, self.game_id, self.version)


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


# -------------------------------------------------------------------- ruse steps


class TargetSelect(Component[Select], template=r"st:tgt:(?P<game>\d+):(?P<version>\d+):(?P<card>[A-Za-z]+)"):
    """Step 2 of Redeploy, Deserter and Traitor: which card (value ``<stone>.<card>``)."""

    def __init__(self, game_id: int, version: int, card: str, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version, self.card = game_id, version, card
        custom_id = f"st:tgt:{game_id}:{version}:{card}"
        super().__init__(_select(custom_id, t(f"controls.target.{card.lower()}"), options, row=1))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], [])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        selection = Selection(card=self.card, target=self.item.values[0] if self.item.values else None)
        await handlers.select(interaction, self.game_id, self.version, selection)


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
        super().__init__(_select(custom_id, t("controls.dest"), options, row=2))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), match["card"], match["target"], [])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        dest = self.item.values[0] if self.item.values else None
        selection = Selection(card=self.card, target=self.target, dest=dest)
        await handlers.select(interaction, self.game_id, self.version, selection)


class ReturnSelect(Component[Select], template=r"st:ret:(?P<game>\d+):(?P<version>\d+)"):
    """Scout's end: the two cards of the hand to put back (values ``R7``, ``Leader.2``)."""

    def __init__(self, game_id: int, version: int, options: list[discord.SelectOption]) -> None:
        self.game_id, self.version = game_id, version
        custom_id = f"st:ret:{game_id}:{version}"
        super().__init__(_select(custom_id, t("controls.return"), options, row=0, choose=2))

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["version"]), [])

    async def run(self, interaction: Interaction, handlers: Handlers) -> None:
        await handlers.select(
            interaction, self.game_id, self.version, Selection(returning=tuple(self.item.values))
        )


COMPONENTS = (
    ChallengeButton,
    ShowHandButton,
    RematchButton,
    LeaderboardButton,
    HistoryButton,
    ReplayButton,
    CardSelect,
    StoneSelect,
    PlayButton,
    MoveButton,
    HintButton,
    TargetSelect,
    DestSelect,
    ReturnSelect,
)

__all__ = [
    "COMPONENTS",
    "NOT_CHOSEN",
    "CardSelect",
    "ChallengeButton",
    "Component",
    "DestSelect",
    "Handlers",
    "HintButton",
    "HistoryButton",
    "LeaderboardButton",
    "MoveButton",
    "PlayButton",
    "RematchButton",
    "ReplayButton",
    "ReturnSelect",
    "Selection",
    "ShowHandButton",
    "StoneSelect",
    "TargetSelect",
    "handlers_for",
    "install_handlers",
]

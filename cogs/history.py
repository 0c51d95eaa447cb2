"""The texts of ``/schotten history``, ``/schotten replay`` and ``/schotten export``.

* History: a member's finished games, newest first, ten a page, in a reply only the
  asker sees: the games of the server asked in and the asker's own games in DMs, never
  another server's (asked in DMs: the asker's games in DMs), and only of a member of
  that server. Its Previous and Next buttons carry the member, the server and the page
  (``st:hist:<user>:<guild id|dm>:<page>:<p|n>``), so they work after a restart, like
  the leaderboard's; the buttons of older, public histories
  (``st:hist:<user>:<page>:<p|n>``) only say they are out of date.
* Replay: one step of a finished game on the board the players saw (player 0 at the
  bottom, as in the channel), the move just made, and both hands (the game is over).
  Its buttons carry the game and the step (``st:rp:<game>:<step>:<f|b|n|l>``); the
  reply is ephemeral and a button edits it. For a member who chose the picture style
  the board is a picture (from the step's public view) and the text one click away
  (``st:rpt:<game>:<step>``).
* Export: the game as a ``schotten-record`` file (:mod:`bot.archive.record_file`).

Who may see a game (:func:`visible_game`): its players, and members of the server it
was played in (a game in DMs: its players only). Anyone else is told there is no such
game, so that nothing about it shows, not even that it exists. Only then is a game
still in progress refused, by :meth:`bot.archive.history.StoredGame.finished`: its moves would
tell the hands.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from typing import Self

import discord

from bot.app import SchottenBot
from bot.archive.history import FinishedGame, HistoryEntry, StoredGame
from bot.archive.record_file import export_game
from bot.games.errors import GameNotFound, ServiceError
from bot.storage import Audience
from bot.text.catalogue import t
from bot.text.render import card_text, code_block, render_board, render_move, sort_hand
from cogs.table.messages import Picture, attachments, in_code, in_text, upload
from cogs.ui import Interaction
from cogs.ui.checks import BadControl, OutdatedControl, bounded, require_message_of, snowflake
from cogs.ui.components import Button, Component, buttons
from cogs.ui.links import with_link
from cogs.ui.replies import NO_MENTIONS, answer, defer_early, defer_update, update
from rules.game import Game
from rules.rulesets import get_ruleset


def _text(name: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


# ------------------------------------------------------------------------ history


def _history_line(entry: HistoryEntry, opponent: str) -> str:
    if entry.rating is None:
        rating = t("history.unrated")
    else:
        delta = round(entry.rating[1]) - round(entry.rating[0])
        rating = t("history.rating", delta=f"{delta:+d}")
    return t(
        "history.line",
        game_id=entry.game_id,
        date=discord.utils.format_dt(datetime.fromtimestamp(entry.finished_at, tz=UTC), "d"),
        outcome=t(f"history.outcome.{entry.outcome}"),
        opponent=_text(opponent),
        stones=f"{entry.stones[0]}-{entry.stones[1]}",
        reason=t(f"history.reason.{entry.reason}"),
        rating=rating,
        place=t("history.place.dm") if entry.guild_id is None else "",
    )


async def history_message(
    bot: SchottenBot, user_id: int, page: int, *, audience: Audience
) -> tuple[str, discord.ui.View | None]:
    """The text and buttons of one page of ``user_id``'s finished games that
    ``audience`` may see (the games of its server, and the asker's own games in DMs),
    with names as that server knows them; the last page if ``page`` is past it."""
    guild_id = audience.guild_id
    found = await bot.history.page(user_id, page, audience=audience)
    name = await bot.names.name(user_id, guild_id)
    if found is None:
        here = "_dm" if guild_id is None else "_here"
        if user_id == audience.asker_id:
            raise ServiceError(f"history_none_self{here}")
        raise ServiceError(f"history_none{here}", name=_text(name))
    lines = [t("history.title", name=_text(name), total=found.total)]
    for entry in found.entries:
        opponent = await bot.names.name(entry.opponent_id, guild_id)
        lines.append(_history_line(entry, opponent))
    if found.pages > 1:
        lines.append(t("history.page", page=found.page + 1, pages=found.pages))
    lines.append(t("history.hint"))
    return "\n".join(lines), history_view(user_id, guild_id, found.page, found.pages)


MAX_PAGE = 100_000  # far past any history's last page; a larger number is no page at all


class HistoryButton(
    Component[Button],
    template=r"st:hist:(?P<user>\d+):(?P<where>\d+|dm):(?P<page>\d+):(?P<dir>[pn])",
):
    """Shows page ``page`` of a member's finished games, as seen from the server
    ``where`` (``dm``: from DMs). It sits on a reply only the asker sees, and acts only
    there and only in that server: the games a page shows are those of the server it is
    clicked in and the clicker's own games in DMs."""

    refusal: ServiceError | None = None  # a forged or mangled id: refused when clicked

    def __init__(
        self, user_id: int, guild_id: int | None, page: int, direction: str, *, disabled: bool = False
    ) -> None:
        self.user_id, self.guild_id, self.page = user_id, guild_id, page
        where = "dm" if guild_id is None else str(guild_id)
        super().__init__(
            discord.ui.Button(
                label=t("history.prev" if direction == "p" else "history.next"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:hist:{user_id}:{where}:{max(page, 0)}:{direction}",
                disabled=disabled,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        try:
            guild_id = None if match["where"] == "dm" else snowflake(match["where"])
            return cls(snowflake(match["user"]), guild_id, bounded(match["page"], MAX_PAGE), match["dir"])
        except BadControl as error:
            item = cls(1, None, 0, match["dir"])  # a stand-in that refuses the click
            item.refusal = error
            return item

    async def run(self, interaction: Interaction) -> None:
        if self.refusal is not None:
            raise self.refusal
        require_message_of(interaction, "st:hist:", private=True)
        if self.guild_id != interaction.guild_id:
            raise BadControl()
        await defer_update(interaction)  # before the database: answered within 3 s
        text, view = await history_message(
            interaction.client, self.user_id, self.page, audience=audience_of(interaction)
        )
        await update(interaction, content=text, view=view)


class OldHistoryButton(Component[Button], template=r"st:hist:(?P<user>\d+):(?P<page>\d+):(?P<dir>[pn])"):
    """A page button of a history shown before histories were private replies: it would
    show the games it asks for to the whole channel, so it only says to ask again."""

    def __init__(self, direction: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=t("history.prev" if direction == "p" else "history.next"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:hist:0:0:{direction}",
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(match["dir"])

    async def run(self, interaction: Interaction) -> None:
        raise OutdatedControl()


def history_view(user_id: int, guild_id: int | None, page: int, pages: int) -> discord.ui.View | None:
    """Previous and Next under a member's finished games (none for a single page)."""
    if pages <= 1:
        return None
    return buttons(
        HistoryButton(user_id, guild_id, page - 1, "p", disabled=page == 0),
        HistoryButton(user_id, guild_id, page + 1, "n", disabled=page + 1 >= pages),
    )


def audience_of(interaction: Interaction) -> Audience:
    """Who asks and where: what of members' finished games this interaction may show."""
    return Audience(interaction.guild_id, interaction.user.id)


async def require_member(interaction: Interaction, user: discord.abc.User) -> None:
    """Refuse to tell anything about someone who is not a member of the server asked
    in (in DMs anyone may be named: only games shared with the asker show there)."""
    guild_id = interaction.guild_id
    if guild_id is None or user.id == interaction.user.id:
        return
    if isinstance(user, discord.Member) and user.guild.id == guild_id:
        return
    if not await _is_member(interaction.client, guild_id, user.id):
        raise ServiceError("not_a_member_here")


# ------------------------------------------------------------------ who may see it


async def _is_member(bot: SchottenBot, guild_id: int, user_id: int) -> bool:
    guild = bot.get_guild(guild_id)
    if guild is None:
        return False
    if guild.get_member(user_id) is not None:
        return True
    try:
        await guild.fetch_member(user_id)
    except discord.HTTPException:
        return False
    return True


async def visible_game(interaction: Interaction, game_id: int) -> StoredGame:
    """The game if the caller may see it; else :class:`GameNotFound`, as if it did not
    exist."""
    bot = interaction.client
    stored = await bot.history.game(game_id)
    user_id = interaction.user.id
    if user_id in stored.players:
        return stored
    if stored.guild_id is not None and (
        interaction.guild_id == stored.guild_id or await _is_member(bot, stored.guild_id, user_id)
    ):
        return stored
    raise GameNotFound(game_id)


async def finished_game(interaction: Interaction, game_id: int) -> FinishedGame:
    """The finished game the caller asked for: :func:`visible_game`, then over."""
    return (await visible_game(interaction, game_id)).finished()


# ------------------------------------------------------------------------- replay


def _variant(game: FinishedGame) -> str:
    tactics, turn_start = game.options.tactics, game.options.claim_timing == "turn-start"
    if tactics and turn_start:
        return t("challenge.variant.both")
    if tactics:
        return t("challenge.variant.tactics")
    return t("challenge.variant.turn_start") if turn_start else ""


def _hand_line(name: str, game: Game, player: int) -> str:
    cards = " ".join(card_text(c) for c in sort_hand(game.hand(player)))
    return t("replay.hand", name=name, cards=cards) if cards else t("replay.hand_empty", name=name)


def replay_board(game: FinishedGame, state: Game, names: tuple[str, str]) -> str:
    """The board of ``state`` exactly as the channel shows a game's board."""
    return code_block(render_board(state.view(0), in_code(names), bottom=0, game_id=game.id))


def replay_text(game: FinishedGame, step: int, names: tuple[str, str], *, board: bool = True) -> str:
    """The replay at ``step`` (0: the deal; ``game.steps``: the end). ``board`` False:
    all but the board (the caption of its picture)."""
    state = game.replay(step)
    text_names = in_text(names)
    lines = [
        t(
            "replay.title",
            game_id=game.id,
            name0=text_names[0],
            name1=text_names[1],
            ruleset=get_ruleset(game.options.ruleset).title,
            variant=_variant(game),
        )
    ]
    if step == 0:
        lines.append(t("replay.deal", steps=game.steps, name=text_names[game.first_player]))
    else:
        player, move = state.log[-1]
        lines.append(
            t("replay.step", step=step, steps=game.steps, move=render_move(player, move, text_names))
        )
    if board:
        lines.append(replay_board(game, state, names))
    lines.extend(_hand_line(text_names[p], state, p) for p in (0, 1))
    lines.append(t("replay.hands_note"))
    return "\n".join(lines)


async def replay_message(
    interaction: Interaction, game_id: int, step: int
) -> tuple[str, discord.ui.View, Picture | None]:
    """The text, step buttons and (picture style) board picture of a finished game's
    replay at ``step``, for the caller."""
    bot = interaction.client
    game = await finished_game(interaction, game_id)
    names = await bot.names.pair(game.players, game.guild_id)
    step = max(0, min(step, game.steps))
    if await bot.styles.for_user(interaction.user.id) != "picture":
        return replay_text(game, step, names), replay_view(game.id, step, game.steps), None
    public = game.replay(step).public_view()
    data = await bot.pictures.board(public, names, game_id=game.id, bottom=0)
    picture = Picture(
        data, f"replay-{game.id}-{step}.png", t("picture.replay_alt", game_id=game.id, step=step)
    )
    view = replay_view(game.id, step, game.steps, picture=True)
    return replay_text(game, step, names, board=False), view, picture


async def send_replay(interaction: Interaction, game_id: int, step: int) -> None:
    """``/schotten replay``: the replay at ``step``, privately."""
    text, view, picture = await replay_message(interaction, game_id, step)
    stored = await interaction.client.history.game(game_id)  # replay_message checked who may see it
    linked = await with_link(view, interaction.client, "replay", game_id, stored.guild_id)
    await answer(interaction, text, view=linked, file=upload(picture))


_REPLAY_LABELS = {"f": "replay.first", "b": "replay.back", "n": "replay.forward", "l": "replay.last"}


MAX_STEP = 10_000  # far past any game's last move


class ReplayButton(Component[Button], template=r"st:rp:(?P<game>\d+):(?P<step>\d+):(?P<dir>[fbnl])"):
    """Shows step ``step`` of a finished game's replay (first, back, forward or last:
    ``dir`` keeps the four ids of one message apart). It acts only on a replay, a reply
    only the user sees."""

    refusal: ServiceError | None = None  # a forged or mangled id: refused when clicked

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
        try:
            return cls(snowflake(match["game"]), bounded(match["step"], MAX_STEP), match["dir"])
        except BadControl as error:
            item = cls(1, 0, match["dir"])  # a stand-in that refuses the click
            item.refusal = error
            return item

    async def run(self, interaction: Interaction) -> None:
        if self.refusal is not None:
            raise self.refusal
        require_message_of(interaction, ("st:rp:", "st:rpt:"), private=True)
        await defer_update(interaction)  # before the database: answered within 3 s
        text, view, picture = await replay_message(interaction, self.game_id, self.step)
        await interaction.edit_original_response(
            content=text, view=view, attachments=attachments(picture), allowed_mentions=NO_MENTIONS
        )


class ReplayTextButton(Component[Button], template=r"st:rpt:(?P<game>\d+):(?P<step>\d+)"):
    """Beside a replay's picture: the same step as text, privately."""

    def __init__(self, game_id: int, step: int) -> None:
        self.game_id, self.step = game_id, step
        super().__init__(
            discord.ui.Button(
                label=t("picture.show_text"),
                style=discord.ButtonStyle.secondary,
                custom_id=f"st:rpt:{game_id}:{step}",
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        return cls(int(match["game"]), int(match["step"]))

    async def run(self, interaction: Interaction) -> None:
        await defer_early(interaction)  # before the database: answered within 3 s
        game = await finished_game(interaction, self.game_id)
        names = await interaction.client.names.pair(game.players, game.guild_id)
        text = replay_text(game, max(0, min(self.step, game.steps)), names)
        await answer(interaction, text)


def replay_view(game_id: int, step: int, steps: int, *, picture: bool = False) -> discord.ui.View:
    """First, Back, Forward and Last under a replay at ``step`` of ``steps`` (and Show
    as text beside a picture)."""
    steps_ = (
        ReplayButton(game_id, 0, "f", disabled=step <= 0),
        ReplayButton(game_id, step - 1, "b", disabled=step <= 0),
        ReplayButton(game_id, step + 1, "n", disabled=step >= steps),
        ReplayButton(game_id, steps, "l", disabled=step >= steps),
    )
    if picture:
        return buttons(*steps_, ReplayTextButton(game_id, step))
    return buttons(*steps_)


# ------------------------------------------------------------------------- export


def record_filename(game_id: int) -> str:
    return f"schotten-game-{game_id}.txt"


async def export_file(interaction: Interaction, game_id: int) -> tuple[str, discord.File]:
    """The reply's text and the finished game as a ``schotten-record`` file."""
    game = await finished_game(interaction, game_id)
    names = await interaction.client.names.pair(game.players, game.guild_id)
    data = export_game(game.record(names)).encode("utf-8")
    filename = record_filename(game.id)
    text = t("export.done", game_id=game.id, filename=filename)
    return text, discord.File(io.BytesIO(data), filename=filename)


__all__ = [
    "HistoryButton",
    "OldHistoryButton",
    "ReplayButton",
    "ReplayTextButton",
    "audience_of",
    "export_file",
    "finished_game",
    "history_message",
    "history_view",
    "record_filename",
    "replay_board",
    "replay_message",
    "replay_text",
    "replay_view",
    "require_member",
    "send_replay",
    "visible_game",
]

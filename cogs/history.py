"""The texts of ``/schotten history``, ``/schotten replay`` and ``/schotten export``.

* History: a member's finished games, newest first, ten a page; its Previous and Next
  buttons carry the member and the page (``st:hist:<user>:<page>:<p|n>``), so they work
  after a restart, like the leaderboard's.
* Replay: one step of a finished game on the board the players saw (player 0 at the
  bottom, as in the channel), the move just made, and both hands (the game is over).
  Its buttons carry the game and the step (``st:rp:<game>:<step>:<f|b|n|l>``); the
  reply is ephemeral and a button edits it.
* Export: the game as a ``schotten-record`` file (:mod:`bot.archive.record_file`).

Who may see a game (:func:`visible_game`): its players, and members of the server it
was played in (a game in DMs: its players only). Anyone else is told there is no such
game, so that nothing about it shows, not even that it exists. Only then is a game
still in progress refused, by :meth:`bot.archive.history.StoredGame.finished`: its moves would
tell the hands.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime

import discord

from bot.app import SchottenBot
from bot.archive.history import FinishedGame, HistoryEntry, StoredGame
from bot.archive.record_file import export_game
from bot.games.errors import GameNotFound, ServiceError
from bot.text.catalogue import t
from bot.text.render import card_text, code_block, render_board, render_move, sort_hand
from cogs.table.messages import in_code, in_text
from cogs.ui import Interaction
from cogs.ui.layouts import history_view, replay_view
from rules.game import Game
from rules.rulesets import get_ruleset


def _text(name: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


# ------------------------------------------------------------------------ history


def _history_line(entry: HistoryEntry, opponent: str, guild_id: int | None) -> str:
    if entry.rating is None:
        rating = t("history.unrated")
    else:
        delta = round(entry.rating[1]) - round(entry.rating[0])
        rating = t("history.rating", delta=f"{delta:+d}")
    if entry.guild_id is None:
        place = t("history.place.dm")
    elif entry.guild_id != guild_id:
        place = t("history.place.elsewhere")
    else:
        place = ""
    return t(
        "history.line",
        game_id=entry.game_id,
        date=discord.utils.format_dt(datetime.fromtimestamp(entry.finished_at, tz=UTC), "d"),
        outcome=t(f"history.outcome.{entry.outcome}"),
        opponent=_text(opponent),
        stones=f"{entry.stones[0]}-{entry.stones[1]}",
        reason=t(f"history.reason.{entry.reason}"),
        rating=rating,
        place=place,
    )


async def history_message(
    bot: SchottenBot, user_id: int, page: int, *, guild_id: int | None, caller_id: int
) -> tuple[str, discord.ui.View | None]:
    """The text and buttons of one page of ``user_id``'s finished games, seen from
    ``guild_id`` (None: DMs); the last page if ``page`` is past it."""
    found = await bot.history.page(user_id, page)
    name = await bot.names.name(user_id, guild_id)
    if found is None:
        if user_id == caller_id:
            raise ServiceError("history_none_self")
        raise ServiceError("history_none", name=_text(name))
    lines = [t("history.title", name=_text(name), total=found.total)]
    for entry in found.entries:
        opponent = await bot.names.name(entry.opponent_id, guild_id)
        lines.append(_history_line(entry, opponent, guild_id))
    if found.pages > 1:
        lines.append(t("history.page", page=found.page + 1, pages=found.pages))
    lines.append(t("history.hint"))
    return "\n".join(lines), history_view(user_id, found.page, found.pages)


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


def replay_text(game: FinishedGame, step: int, names: tuple[str, str]) -> str:
    """The replay at ``step`` (0: the deal; ``game.steps``: the end)."""
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
    lines.append(replay_board(game, state, names))
    lines.extend(_hand_line(text_names[p], state, p) for p in (0, 1))
    lines.append(t("replay.hands_note"))
    return "\n".join(lines)


async def replay_message(interaction: Interaction, game_id: int, step: int) -> tuple[str, discord.ui.View]:
    """The text and step buttons of a finished game's replay at ``step``, for the caller."""
    game = await finished_game(interaction, game_id)
    names = await interaction.client.names.pair(game.players, game.guild_id)
    step = max(0, min(step, game.steps))
    return replay_text(game, step, names), replay_view(game.id, step, game.steps)


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
    "export_file",
    "finished_game",
    "history_message",
    "record_filename",
    "replay_board",
    "replay_message",
    "replay_text",
    "visible_game",
]

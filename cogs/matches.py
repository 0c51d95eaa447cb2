"""Matches and the end of a game on Discord (issue 6).

* The match score on the board: :func:`match_line` (sync, for ``Table.board_text``) reads
  a per-bot cache of the matches in progress, filled at start-up and whenever a match
  is created or one of its games ends.
* :func:`end_extras`: what the end-of-game announcement adds, the rating changes, the
  match score (or its winner) and the Rematch button (:mod:`cogs.rematch`).
* :func:`after_end`: once a game of a match is published as over, the game that
  :mod:`bot.stats` created in the same transaction is announced and started.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot.ratings import GLOBAL_SCOPE, guild_scope
from bot.stats import next_match_game
from bot.storage import MatchRow
from bot.text import t

log = logging.getLogger(__name__)

_NO_MENTIONS = discord.AllowedMentions.none()


def _cache(bot: Any) -> dict[int, MatchRow]:
    cache = getattr(bot, "_schotten_matches", None)
    if cache is None:
        cache = {}
        bot._schotten_matches = cache
    return cache


def remember_match(bot: Any, match: MatchRow | None) -> None:
    if match is not None:
        _cache(bot)[match.id] = match


async def refresh_match(bot: Any, match_id: int) -> MatchRow | None:
    match = await bot.db.get_match(match_id)
    remember_match(bot, match)
    return match


def score_text(match: MatchRow, names: Sequence[str]) -> str:
    """``Match #1 to 12: alice 5 - 3 bob`` (names in the match's player order)."""
    return t(
        "match.score",
        match_id=match.id,
        target=match.target,
        name0=names[0],
        score0=match.scores[0],
        score1=match.scores[1],
        name1=names[1],
    )


def match_line(bot: Any, record: Any, names: Sequence[str]) -> str | None:
    """The match score for the board of ``record``; None outside a match."""
    match_id = getattr(record, "match_id", None)
    if match_id is None:
        return None
    match = _cache(bot).get(match_id)
    if match is None:
        return None
    by_user = dict(zip(record.players, names, strict=True))
    return score_text(match, [by_user.get(user_id, str(user_id)) for user_id in match.players])


async def end_extras(bot: Any, record: Any, names: Sequence[str]) -> tuple[str, discord.ui.View | None]:
    """Lines to add to the end-of-game announcement, and its buttons."""
    lines = []
    by_user = dict(zip(record.players, names, strict=True))
    scope = GLOBAL_SCOPE if record.guild_id is None else guild_scope(record.guild_id)
    changes = [c for c in await bot.db.rating_changes(record.id) if c[0] == scope]
    if changes:
        parts = [
            t(
                "ratings.change",
                name=by_user.get(user_id, str(user_id)),
                after=round(after),
                delta=round(after) - round(before),
            )
            for _scope, user_id, before, after in sorted(changes, key=lambda c: record.players.index(c[1]))
        ]
        lines.append(t("ratings.changes", changes=", ".join(parts)))
    offer_rematch = record.channel_id is not None and getattr(record, "ai_player", None) is None
    if record.match_id is not None:
        match = await refresh_match(bot, record.match_id)
        if match is not None:
            match_names = [by_user.get(user_id, str(user_id)) for user_id in match.players]
            lines.append(score_text(match, match_names))
            if match.status == "finished" and match.winner_id is not None:
                lines.append(
                    t(
                        "match.won",
                        name=by_user.get(match.winner_id, str(match.winner_id)),
                        match_id=match.id,
                        score0=max(match.scores),
                        score1=min(match.scores),
                    )
                )
            else:
                offer_rematch = False  # the match goes on by itself
    view = None
    if offer_rematch:
        from cogs.rematch import rematch_view

        view = rematch_view(record.id)
    return "".join("\n" + line for line in lines), view


async def after_end(table: Any, record: Any) -> None:
    """After ``record`` (a finished game) was published: start the next game of its match."""
    if record.match_id is None:
        return
    game_id = await next_match_game(table.bot.db, record.match_id)
    if game_id is None:
        _cache(table.bot).pop(record.match_id, None)
        return
    following = await table.service.get(game_id)
    if following.board_message_id is not None or any(following.dm_message_ids):
        return  # already started
    names = await table.names(following)
    channel = table._channel(following)
    mover = following.game.current_player
    if channel is not None:
        await channel.send(
            t(
                "match.next",
                match_id=record.match_id,
                game_id=following.id,
                name=names[mover] if mover is not None else "",
            ),
            allowed_mentions=_NO_MENTIONS,
        )
    await table.start(following)


class Matches(commands.Cog):
    """Loads the matches in progress so that their boards show the score after a restart."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        for match in await self.bot.db.active_matches():  # type: ignore[attr-defined]
            remember_match(self.bot, match)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Matches(bot))

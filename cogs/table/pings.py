"""Pings that count: whom a board or a reminder mentions, if anybody.

A turn ping goes to the player to move at most once per turn (``games.pinged_turn``,
stored when it is sent: the turn as the game's version when it began), and only as
they chose (``/schotten settings pings:``, ``bot.preferences``): every turn; only when
away (the default: not when they used the bot in the last minute, ``bot.presence``);
never. The bot's own AI seat is never
pinged. A game's first board after a tournament round's announcement pings nobody:
the announcement just did (:meth:`~cogs.table.publisher.Publisher.start`,
``announced``). A reminder that time runs out is not a turn ping: it mentions the
player unless they chose never or are at the table.

A message's ``allowed_mentions`` names the one user it pings (:func:`mentioning`), so
nothing else in it (a name, typed text) can ping anyone.
"""

from __future__ import annotations

import discord

from bot.app import SchottenBot
from bot.community.presence import wants_ping
from bot.games.live import LiveGame
from cogs.ui.replies import NO_MENTIONS


def mentioning(user_id: int | None) -> discord.AllowedMentions:
    if user_id is None:
        return NO_MENTIONS
    return discord.AllowedMentions(users=[discord.Object(user_id)], roles=False, everyone=False)


def to_move(bot: SchottenBot, record: LiveGame) -> int | None:
    """The user to move, unless that is the bot (its AI seat) or the game is over."""
    mover = record.current_user
    if mover is None or (bot.user is not None and mover == bot.user.id):
        return None
    return mover


def turn_of(record: LiveGame) -> int:
    """The current turn of the game, as its version when the turn began: the moves
    before the player to move's latest run of moves (a turn is several moves: claims,
    a card, the draw)."""
    player = record.current_player
    log = record.game.log
    start = len(log)
    while start > 0 and log[start - 1][0] == player:
        start -= 1
    return start


async def _wanted(bot: SchottenBot, record: LiveGame, user_id: int, *, once_per_turn: bool) -> bool:
    mode = await bot.preferences.pings(user_id)
    return wants_ping(
        mode,
        now=bot.delivery.clock(),
        last_seen=await bot.presence.last_seen(user_id) if mode == "away" else None,
        pinged_this_turn=once_per_turn and await bot.delivery.pinged(record.id, turn_of(record)),
    )


async def turn_ping(bot: SchottenBot, record: LiveGame) -> int | None:
    """The user the game's board pings now for their turn, or None."""
    user_id = to_move(bot, record)
    if user_id is None or not await _wanted(bot, record, user_id, once_per_turn=True):
        return None
    return user_id


async def reminder_ping(bot: SchottenBot, record: LiveGame) -> int | None:
    """The user a reminder pings, or None (it is posted all the same)."""
    user_id = to_move(bot, record)
    if user_id is None or not await _wanted(bot, record, user_id, once_per_turn=False):
        return None
    return user_id


__all__ = ["mentioning", "reminder_ping", "to_move", "turn_of", "turn_ping"]

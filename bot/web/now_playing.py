"""The server's games being played now, for the ladder's "Now playing" list and its
tournament pairings: each game's title (names only) and its watch page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.storage import GameRow
from bot.text.catalogue import t
from bot.web.links import Links

LiveGames = Callable[[int], Awaitable[list[GameRow]]]  # a server's games in play


class Names(Protocol):
    async def pair(self, players: tuple[int, int], guild_id: int | None) -> tuple[str, str]: ...


@dataclass(frozen=True)
class InPlay:
    """The games in play: (title, watch path) newest first, and the watch paths by game id
    and by match id (a best-of tie's current game)."""

    lines: list[tuple[str, str]] = field(default_factory=list)
    by_game: dict[int, str] = field(default_factory=dict)
    by_match: dict[int, str] = field(default_factory=dict)


async def in_play(live_games: LiveGames | None, names: Names, links: Links, guild_id: int) -> InPlay:
    if live_games is None:
        return InPlay()
    shown = InPlay()
    for game in await live_games(guild_id):
        pair = await names.pair(game.players, guild_id)
        url = links.watch(game.id).removeprefix(links.public_url)
        shown.lines.append((t("web.game_title", game_id=game.id, name0=pair[0], name1=pair[1]), url))
        shown.by_game[game.id] = url
        if game.match_id is not None:
            shown.by_match[game.match_id] = url
    return shown

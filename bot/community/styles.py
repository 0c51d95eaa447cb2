"""``Styles``: how the bot shows a board to a member and in a server's channels.

* ``text`` (the default): the text board in a code block, as it always was;
* ``picture``: the board (and, privately, the hand) as a PNG picture
  (:mod:`bot.pictures`), with the text one click away ("Show as text").

A member's choice (``/schotten style``) is for their DMs and private replies; a
server's (``server:True``, Manage Server) for its channel boards. The two are
independent: a member who likes pictures does not change what the channel shows.

Choices are kept in memory for a short while only (``TTL`` seconds): another process
of the bot may store a new choice, and a style is worth a read now and then, not one
per message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal, get_args

from bot.storage import LanguageScope, PlayerStore

Style = Literal["text", "picture"]
STYLES: Final[tuple[Style, ...]] = get_args(Style)
DEFAULT: Final[Style] = "text"
TTL: Final = 60.0


def parse_style(value: str | None) -> Style:
    """A stored or typed style; anything unknown is the default."""
    return "picture" if value == "picture" else DEFAULT


class Styles:
    def __init__(self, store: PlayerStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[tuple[LanguageScope, int], tuple[float, Style]] = {}

    async def _style(self, scope: LanguageScope, scope_id: int | None) -> Style:
        if scope_id is None:
            return DEFAULT
        key = (scope, scope_id)
        now = self.clock()
        known = self._known.get(key)
        if known is not None and now - known[0] < TTL:
            return known[1]
        style = parse_style(await self.store.board_style(scope, scope_id))
        self._known[key] = (now, style)
        return style

    async def for_user(self, user_id: int) -> Style:
        """A member's style for their DMs and private replies."""
        return await self._style("user", user_id)

    async def for_guild(self, guild_id: int | None) -> Style:
        """A server's style for its channel boards (text for none: a game in DMs)."""
        return await self._style("guild", guild_id)

    async def choose(self, scope: LanguageScope, scope_id: int, style: Style) -> Style:
        """Store a choice; the style now in effect."""
        await self.store.set_board_style(scope, scope_id, style, now=self.clock())
        self._known[(scope, scope_id)] = (self.clock(), style)
        return style


__all__ = ["DEFAULT", "STYLES", "Style", "Styles", "parse_style"]

"""The links the bot posts in Discord: capability URLs under ``PUBLIC_URL``, and
whether a server turned them off (``/schotten web``)."""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.web.tokens import Meta, Signer

OFF_META_KEY = "web:off:"  # + guild id: that server's members get no links, its pages 404
OFF_TTL = 10.0  # seconds a server's choice is remembered (another process may change it)


class Links:
    """The links, and each server's choice. ``turned_off``: called with a server's id
    when this process turns its links off (the open pages close at once; those of other
    processes once their feeds read the choice, within ``OFF_TTL``)."""

    def __init__(
        self, public_url: str, signer: Signer, meta: Meta, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.public_url = public_url.rstrip("/")
        self.signer = signer
        self._meta = meta
        self.clock = clock
        self.turned_off: list[Callable[[int], None]] = []
        self._off: dict[int, tuple[bool, float]] = {}  # guild -> (off, when read)

    def watch(self, game_id: int) -> str:
        return f"{self.public_url}/watch/{game_id}/{self.signer.token('watch', game_id)}"

    def replay(self, game_id: int) -> str:
        return f"{self.public_url}/replay/{game_id}/{self.signer.token('replay', game_id)}"

    def seat(self, game_id: int, seat: int) -> str:
        """A player's own table (``bot/web/table.py``): their hand; for them alone."""
        return f"{self.public_url}/table/{game_id}/{seat}/{self.signer.token('seat', game_id, seat)}"

    def ladder(self, guild_id: int) -> str:
        return f"{self.public_url}/ladder/{guild_id}/{self.signer.token('ladder', guild_id)}"

    async def enabled(self, guild_id: int | None) -> bool:
        """Whether links for ``guild_id``'s games (None: DMs, always) may be shown."""
        if guild_id is None:
            return True
        now = self.clock()
        known = self._off.get(guild_id)
        if known is not None and now - known[1] < OFF_TTL:
            return not known[0]
        off = await self._meta.get_meta(f"{OFF_META_KEY}{guild_id}") == "1"
        self._off[guild_id] = (off, now)
        return not off

    async def set_enabled(self, guild_id: int, enabled: bool) -> None:
        await self._meta.set_meta(f"{OFF_META_KEY}{guild_id}", "0" if enabled else "1")
        self._off[guild_id] = (not enabled, self.clock())
        if not enabled:
            for listener in self.turned_off:
                listener(guild_id)

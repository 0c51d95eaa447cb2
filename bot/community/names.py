"""``NameBook``: players' display names, for boards, announcements and replies.

Names come from Discord (a server member's nickname, else the user's display name) and
are remembered for the life of the process; a name is looked up at most once. They are
what members call themselves, so whoever puts one in a message escapes it there.
"""

from __future__ import annotations

import discord


class NameBook:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._names: dict[int, str] = {}

    def remember(self, user: discord.abc.User) -> None:
        self._names[user.id] = user.display_name

    def _known(self, user_id: int, guild_id: int | None) -> str | None:
        name = self._names.get(user_id)
        if name is not None:
            return name
        guild = self.client.get_guild(guild_id) if guild_id else None
        member = guild.get_member(user_id) if guild is not None else None
        user = member or self.client.get_user(user_id)
        return None if user is None else user.display_name

    def cached(self, user_id: int, guild_id: int | None = None) -> str:
        """The name if it is known without a request, else a placeholder (``#id``)."""
        return self._known(user_id, guild_id) or f"#{user_id}"

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        name = self._known(user_id, guild_id)
        if name is None:
            try:
                name = (await self.client.fetch_user(user_id)).display_name
            except discord.HTTPException:
                return f"#{user_id}"  # not remembered: try again next time
        self._names[user_id] = name
        return name

    async def pair(self, players: tuple[int, int], guild_id: int | None) -> tuple[str, str]:
        return await self.name(players[0], guild_id), await self.name(players[1], guild_id)


__all__ = ["NameBook"]

"""``NameBook``: players' display names, for boards, announcements and replies.

Names come from Discord and are remembered for the life of the process, per server: a
member's nickname is what they are called in that server only, so it is kept under
(server, user) and never shown in another server or in DMs. Elsewhere a user is called
by their own display name (global name, else user name), kept under (None, user): the
fallback everywhere. A name is looked up at most once. Names are what members call
themselves, so whoever puts one in a message escapes it there.
"""

from __future__ import annotations

import discord

Key = tuple[int | None, int]  # (server id, None for no server; user id)


def _own_name(user: discord.abc.User) -> str:
    """The user's own display name, the same in every server: no nickname."""
    return user.global_name or user.name


class NameBook:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._names: dict[Key, str] = {}

    def remember(self, user: discord.abc.User) -> None:
        """Remember how ``user`` is called: a server member's nickname in that server
        only; their own name everywhere."""
        self._names[(None, user.id)] = _own_name(user)
        if isinstance(user, discord.Member):
            self._names[(user.guild.id, user.id)] = user.display_name

    def _known(self, user_id: int, guild_id: int | None) -> str | None:
        if guild_id is not None:
            name = self._names.get((guild_id, user_id))
            if name is not None:
                return name
            guild = self.client.get_guild(guild_id)
            member = guild.get_member(user_id) if guild is not None else None
            if member is not None:
                return member.display_name
        name = self._names.get((None, user_id))
        if name is not None:
            return name
        user = self.client.get_user(user_id)
        return None if user is None else _own_name(user)

    def cached(self, user_id: int, guild_id: int | None = None) -> str:
        """The name if it is known without a request, else a placeholder (``#id``)."""
        return self._known(user_id, guild_id) or f"#{user_id}"

    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        """How ``user_id`` is called in ``guild_id`` (None: outside any server)."""
        name = self._known(user_id, guild_id)
        if name is None:
            try:
                user = await self.client.fetch_user(user_id)
            except discord.HTTPException:
                return f"#{user_id}"  # not remembered: try again next time
            name = _own_name(user)
            self._names[(None, user_id)] = name
        return name

    async def pair(self, players: tuple[int, int], guild_id: int | None) -> tuple[str, str]:
        return await self.name(players[0], guild_id), await self.name(players[1], guild_id)


__all__ = ["NameBook"]

"""``Languages``: which language the bot speaks to a player and in a server's channels.

* A player: the language they chose with ``/schotten language``, else the one their
  Discord client reports (``interaction.locale``, remembered for the DMs the bot sends
  them between interactions), else English.
* A server's channel messages (the board, announcements): the language a member with
  Manage Server chose, else the server's own Discord locale (``interaction.guild_locale``,
  remembered), else English.

Only languages the bot speaks are returned (:func:`bot.text.i18n.normalize`). What Discord
reports is written only when it changed; the in-memory maps only save reads.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.storage import LanguageScope, PlayerStore
from bot.text import i18n

Stored = tuple[str | None, str | None]  # (chosen, reported by Discord)


class Languages:
    def __init__(self, store: PlayerStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[tuple[LanguageScope, int], Stored] = {}

    async def _stored(self, scope: LanguageScope, scope_id: int) -> Stored:
        key = (scope, scope_id)
        stored = self._known.get(key)
        if stored is None:
            stored = self._known[key] = await self.store.language(scope, scope_id)
        return stored

    async def _effective(self, scope: LanguageScope, scope_id: int | None) -> str:
        if scope_id is None:
            return i18n.ENGLISH
        chosen, reported = await self._stored(scope, scope_id)
        return i18n.normalize(chosen or reported)

    async def for_user(self, user_id: int) -> str:
        return await self._effective("user", user_id)

    async def for_guild(self, guild_id: int | None) -> str:
        """The language of a server's channel messages (English for none: a DM game)."""
        return await self._effective("guild", guild_id)

    async def chosen(self, scope: LanguageScope, scope_id: int) -> str | None:
        return (await self._stored(scope, scope_id))[0]

    async def choose(self, scope: LanguageScope, scope_id: int, language: str | None) -> str:
        """Store a choice (None: follow Discord again); the language now in effect."""
        await self.store.set_language(scope, scope_id, chosen=language, now=self.clock())
        _chosen, reported = await self._stored(scope, scope_id)
        self._known[(scope, scope_id)] = (language, reported)
        return await self._effective(scope, scope_id)

    async def seen(self, scope: LanguageScope, scope_id: int, reported: str | None) -> None:
        """Remember the locale Discord reported for a user or a server, if it changed."""
        if not reported:
            return
        chosen, known = await self._stored(scope, scope_id)
        if known != reported:
            await self.store.set_language(scope, scope_id, discord=reported, now=self.clock())
            self._known[(scope, scope_id)] = (chosen, reported)

    async def enter(
        self, user_id: int, locale: str | None, guild_id: int | None = None, guild_locale: str | None = None
    ) -> str:
        """An interaction arrived: remember what Discord reported and write in the user's
        language for the rest of its handling. Returns that language."""
        await self.seen("user", user_id, locale)
        if guild_id is not None:
            await self.seen("guild", guild_id, guild_locale)
        language = await self.for_user(user_id)
        i18n.set_language(language)
        return language


__all__ = ["Languages"]

"""``Languages``: which language the bot speaks to a player and in a server's channels.

* A player: the language they chose with ``/schotten language``, else the one their
  Discord client reports (``interaction.locale``, remembered for the DMs the bot sends
  them between interactions), else English.
* A server's channel messages (the board, announcements): the language a member with
  Manage Server chose, else the server's own Discord locale (``interaction.guild_locale``,
  remembered), else English.

Only languages the bot speaks are returned (:func:`bot.text.i18n.normalize`). What Discord
reports is written only when it changed; the in-memory maps only save reads.

An interaction's answer never waits on this for long (:meth:`Languages.enter_quickly`):
a member this process knows gets their language at once, and the lookup of one it has
not seen yet gets ``LOOKUP_BUDGET`` seconds, after which the answer is in the locale
their Discord client reports while the lookup (and the write of what Discord reported)
goes on in the background. A database that fails there is logged as a warning and
otherwise ignored: the command itself then meets it, and says so.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

from bot.storage import DatabaseUnavailable, LanguageScope, PlayerStore
from bot.text import i18n

log = logging.getLogger(__name__)

# Seconds an interaction waits for the stored language of a member not seen yet.
LOOKUP_BUDGET: Final = 0.3

Stored = tuple[str | None, str | None]  # (chosen, reported by Discord)


class Languages:
    def __init__(self, store: PlayerStore, *, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[tuple[LanguageScope, int], Stored] = {}
        # The lookups and writes in flight, one per member at a time.
        self._recording: dict[int, asyncio.Task[None]] = {}

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

    def cached_for_user(self, user_id: int) -> str | None:
        """The member's language if this process knows it, without the database."""
        stored = self._known.get(("user", user_id))
        return None if stored is None else i18n.normalize(stored[0] or stored[1])

    def _up_to_date(self, scope: LanguageScope, scope_id: int | None, reported: str | None) -> bool:
        if scope_id is None or not reported:
            return True
        stored = self._known.get((scope, scope_id))
        return stored is not None and stored[1] == reported

    async def _record(
        self, user_id: int, locale: str | None, guild_id: int | None, guild_locale: str | None
    ) -> None:
        try:
            await self.seen("user", user_id, locale)
            await self._stored("user", user_id)  # read even without a locale to remember
            if guild_id is not None:
                await self.seen("guild", guild_id, guild_locale)
        except DatabaseUnavailable as error:
            log.warning("could not read or record the language of user %d: %s", user_id, error)
        except Exception:  # a bug: logged, never in the way of the interaction
            log.exception("could not read or record the language of user %d", user_id)
        finally:
            self._recording.pop(user_id, None)

    async def enter_quickly(
        self,
        user_id: int,
        locale: str | None,
        guild_id: int | None = None,
        guild_locale: str | None = None,
        *,
        budget: float = LOOKUP_BUDGET,
    ) -> str:
        """:meth:`enter` that never raises and waits at most ``budget`` seconds: the
        member's language if known (or read in time), else Discord's ``locale``. The
        lookup and the write of what Discord reported go on in the background."""
        stored = self._known.get(("user", user_id))
        task = self._recording.get(user_id)
        if task is None and not (
            stored is not None
            and self._up_to_date("user", user_id, locale)
            and self._up_to_date("guild", guild_id, guild_locale)
        ):
            task = asyncio.get_running_loop().create_task(
                self._record(user_id, locale, guild_id, guild_locale)
            )
            self._recording[user_id] = task
        if stored is None and task is not None:
            await asyncio.wait({task}, timeout=budget)  # not cancelled: it goes on
            stored = self._known.get(("user", user_id))
        chosen, reported = stored or (None, None)
        # What Discord reports now is the freshest report (``enter`` stores it first).
        language = i18n.normalize(chosen or locale or reported)
        i18n.set_language(language)
        return language


__all__ = ["LOOKUP_BUDGET", "Languages"]

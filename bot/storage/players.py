"""``PlayerStore``: players, their (and servers') languages and board styles, and the bot's
own settings."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from bot.storage.rows import UNSET, LanguageScope, Unset
from bot.storage.sql import Executor, ensure_players

# The table and key column of each language scope: fixed names, never user input.
_LANGUAGE_TABLES: Final = {"user": ("user_languages", "user_id"), "guild": ("guild_languages", "guild_id")}


class PlayerStore:
    """The ``players``, ``user_languages``, ``guild_languages``, ``board_styles``,
    ``preferences`` and ``meta`` tables."""

    def __init__(self, db: Executor) -> None:
        self._db = db

    # -- meta ------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._db.one("SELECT value FROM meta WHERE key = $1", key)
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._db.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def add_meta(self, key: str, value: str) -> str:
        """Store ``value`` under ``key`` unless a value is there already; return the one
        stored (so that processes racing to set a key all end up with the same value)."""
        await self._db.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", key, value
        )
        stored = await self.get_meta(key)
        return value if stored is None else stored

    async def delete_meta(self, key: str) -> None:
        await self._db.execute("DELETE FROM meta WHERE key = $1", key)

    async def meta_keys(self, prefix: str) -> list[str]:
        """The meta keys that start with ``prefix``, sorted."""
        rows = await self._db.all(
            "SELECT key FROM meta WHERE substr(key, 1, length($1)) = $1 ORDER BY key", prefix
        )
        return [str(row["key"]) for row in rows]

    # -- players ---------------------------------------------------------------------

    async def ensure_players(self, user_ids: Iterable[int], now: float) -> None:
        await ensure_players(self._db, user_ids, now)

    async def lock(self, user_id: int, now: float) -> None:
        """Hold the member's row until the caller's transaction ends (call inside one).

        A limit counted after it in the same transaction sees what every earlier request
        of the member committed, and the next one waits for this one: a count-limit
        holds when the same member asks twice at once, in one process or several. On
        PostgreSQL the UPDATE takes the row lock (at READ COMMITTED each later statement
        sees what the previous holder committed); SQLite's ``BEGIN IMMEDIATE`` already
        runs one writing transaction at a time."""
        await ensure_players(self._db, [user_id], now)
        await self._db.execute("UPDATE players SET user_id = user_id WHERE user_id = $1", user_id)

    # -- languages (migration 6) -----------------------------------------------------

    async def language(self, scope: LanguageScope, scope_id: int) -> tuple[str | None, str | None]:
        """A user's or a server's ``(chosen, discord)`` language codes (None: unknown)."""
        table, column = _LANGUAGE_TABLES[scope]
        row = await self._db.one(f"SELECT chosen, discord FROM {table} WHERE {column} = $1", scope_id)
        return (None, None) if row is None else (row["chosen"], row["discord"])

    async def set_language(
        self,
        scope: LanguageScope,
        scope_id: int,
        *,
        chosen: str | Unset | None = UNSET,
        discord: str | Unset | None = UNSET,
        now: float,
    ) -> None:
        """Store a chosen language and/or the one Discord reported (UNSET: unchanged)."""
        table, column = _LANGUAGE_TABLES[scope]
        async with self._db.atomic():
            await self._db.execute(
                f"INSERT INTO {table} ({column}, updated_at) VALUES ($1, $2)"
                f" ON CONFLICT ({column}) DO NOTHING",
                scope_id,
                now,
            )
            for name, value in (("chosen", chosen), ("discord", discord)):
                if not isinstance(value, Unset):
                    await self._db.execute(
                        f"UPDATE {table} SET {name} = $1, updated_at = $2 WHERE {column} = $3",
                        value,
                        now,
                        scope_id,
                    )

    # -- board styles (migration 7) --------------------------------------------------

    async def board_style(self, scope: LanguageScope, scope_id: int) -> str | None:
        """A user's or a server's chosen board style (``text``, ``picture``; None: none chosen)."""
        found = await self._db.value(
            "SELECT style FROM board_styles WHERE scope = $1 AND scope_id = $2", scope, scope_id
        )
        return None if found is None else str(found)

    async def set_board_style(self, scope: LanguageScope, scope_id: int, style: str, *, now: float) -> None:
        await self._db.execute(
            "INSERT INTO board_styles (scope, scope_id, style, updated_at) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (scope, scope_id) DO UPDATE SET style = excluded.style,"
            " updated_at = excluded.updated_at",
            scope,
            scope_id,
            style,
            now,
        )

    # -- settings and presence (migration 10) ----------------------------------------

    async def preference(self, scope: LanguageScope, scope_id: int, name: str) -> str | None:
        """A member's or a server's setting ``name`` (None: not chosen, the default)."""
        found = await self._db.value(
            "SELECT value FROM preferences WHERE scope = $1 AND scope_id = $2 AND name = $3",
            scope,
            scope_id,
            name,
        )
        return None if found is None else str(found)

    async def set_preference(
        self, scope: LanguageScope, scope_id: int, name: str, value: str, *, now: float
    ) -> None:
        await self._db.execute(
            "INSERT INTO preferences (scope, scope_id, name, value, updated_at) VALUES ($1, $2, $3, $4, $5)"
            " ON CONFLICT (scope, scope_id, name) DO UPDATE SET value = excluded.value,"
            " updated_at = excluded.updated_at",
            scope,
            scope_id,
            name,
            value,
            now,
        )

    async def seen_at(self, user_id: int) -> float | None:
        """When the member last used the bot, as recorded (None: never)."""
        found = await self._db.value("SELECT seen_at FROM players WHERE user_id = $1", user_id)
        return None if found is None else float(found)

    async def set_seen_at(self, user_id: int, when: float) -> None:
        """Record that the member used the bot at ``when`` (never moving it back)."""
        await self._db.execute(
            "INSERT INTO players (user_id, created_at, seen_at) VALUES ($1, $2, $2)"
            " ON CONFLICT (user_id) DO UPDATE SET seen_at = excluded.seen_at"
            " WHERE players.seen_at IS NULL OR players.seen_at < excluded.seen_at",
            user_id,
            when,
        )

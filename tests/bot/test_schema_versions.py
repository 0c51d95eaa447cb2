"""A bot older than its database refuses it at the start, on either backend.

Version 13 (``bot/storage/migrations/013_game_endings.sql``) changes no table: from it on
a game's log may end with ``withdraw`` or ``kick`` (a tournament withdrawal or removal),
which a bot of version 12 cannot read. Going back to such a bot must stop at its start
with a clear reason ("newer than this bot"; README.md, "Upgrading"), not fail on those
games one by one.
"""

from __future__ import annotations

import pytest

from bot.games.service import GameService
from bot.storage import database, open_database, postgres
from bot.storage.schema import MigrationError, migrations
from rules.game import GameOptions


async def test_a_bot_from_before_the_game_endings_refuses_a_database_with_them(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = open_database(db_target)
    await db.connect()
    await db.migrate()
    service = GameService(db)
    record = await service.create_game(
        guild_id=1, channel_id=2, players=(10, 20), options=GameOptions(), seed=5
    )
    await service.resign(record.id, 10, reason="withdrawn")
    await db.close()

    endings = next(m.version for m in migrations() if m.name == "game_endings")
    for module in (database, postgres):  # the bot of the version before
        monkeypatch.setattr(module, "latest_version", lambda: endings - 1)
    older = open_database(db_target)
    await older.connect()
    try:
        with pytest.raises(MigrationError, match=f"schema version {endings}, newer than this bot"):
            await older.migrate()
    finally:
        await older.close()

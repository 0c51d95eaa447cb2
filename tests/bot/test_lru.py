"""The bounded caches: what falls out is read again, and moves stay right."""

from __future__ import annotations

import pytest

from bot.games.lru import LRU
from bot.games.service import GameService
from bot.storage import Database
from rules.game import GameOptions


def test_lru_keeps_the_most_recently_used() -> None:
    lru: LRU[str, int] = LRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # a is now the most recent
    lru.put("c", 3)
    assert "b" not in lru and list(lru) == ["a", "c"] and len(lru) == 2
    assert lru.pop("a") == 1 and lru.pop("a") is None
    with pytest.raises(ValueError):
        LRU(0)


async def test_games_evicted_from_the_cache_are_read_again_and_move_on() -> None:
    db = Database(":memory:")
    await db.connect()
    await db.migrate()
    try:
        service = GameService(db, cached_games=2)
        ids = [
            (
                await service.create_game(
                    guild_id=1, channel_id=slot, players=(2 * slot + 1, 2 * slot + 2), options=GameOptions()
                )
            ).id
            for slot in range(5)
        ]
        for _round in range(3):
            for game_id in ids:
                record = await service.get(game_id)
                if record.game.is_over:
                    continue
                move = record.game.legal_moves()[0]
                outcome = await service.apply(
                    game_id, record.current_user or 0, move, expected_version=record.version
                )
                assert outcome.game.version > record.version
        for game_id in ids:
            stored = await db.games.get_game(game_id)
            assert stored is not None and stored.version == (await service.get(game_id)).version
    finally:
        await db.close()

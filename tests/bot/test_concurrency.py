"""Many identical requests at the same moment: exactly one is applied."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.errors import StaleControl
from bot.service import GameService
from bot.storage import Database
from rules.errors import IllegalMove
from rules.game import GameOptions
from rules.moves import PlayCard
from tests.bot.conftest import ALICE, BOB, CAROL

COPIES = 50


async def _race(service: GameService, game_id: int, user: int, move: PlayCard, version: int | None):
    results = await asyncio.gather(
        *(service.apply(game_id, user, move, expected_version=version) for _ in range(COPIES)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    return applied, refused


@pytest.mark.parametrize("with_version", [True, False])
async def test_identical_moves_apply_once(tmp_path: Path, with_version: bool) -> None:
    async with Database(tmp_path / "race.db") as db:
        await db.migrate()
        service = GameService(db)
        record = await service.create_game(
            guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=11, first_player=0
        )
        move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
        applied, refused = await _race(
            service, record.id, ALICE, move, record.version if with_version else None
        )

        assert len(applied) == 1
        assert len(refused) == COPIES - 1
        # With the button's version the rest are "already done"; without, the engine says
        # it is not your turn any more. Nothing else gets through.
        expected = StaleControl if with_version else IllegalMove
        assert all(isinstance(error, expected) for error in refused), refused
        moves = await db.moves(record.id)
        assert [m.move for m in moves] == [str(move), "draw clan"]
        row = await db.get_game(record.id)
        assert row is not None and row.version == 2
        assert (await service.get(record.id)).game.to_dict() == row.state


async def test_a_second_service_sees_the_same_database(tmp_path: Path) -> None:
    """Requests through a service whose cache is cold still apply once."""
    async with Database(tmp_path / "cold.db") as db:
        await db.migrate()
        record = await GameService(db).create_game(
            guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=12, first_player=1
        )
        service = GameService(db)  # nothing cached
        move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
        applied, refused = await _race(service, record.id, BOB, move, 0)
        assert len(applied) == 1 and all(isinstance(e, StaleControl) for e in refused)
        assert len(await db.moves(record.id)) == 2


async def test_games_do_not_wait_for_each_other(tmp_path: Path) -> None:
    async with Database(tmp_path / "many.db") as db:
        await db.migrate()
        service = GameService(db)
        games = [
            await service.create_game(
                guild_id=1,
                channel_id=c,
                players=(ALICE + c, CAROL + c),
                options=GameOptions(),
                seed=c,
                first_player=0,
            )
            for c in range(10)
        ]
        moves = [next(m for m in g.game.legal_moves() if isinstance(m, PlayCard)) for g in games]
        outcomes = await asyncio.gather(
            *(
                service.apply(g.id, g.players[0], m, expected_version=0)
                for g, m in zip(games, moves, strict=True)
            )
        )
        assert [o.game.version for o in outcomes] == [2] * 10

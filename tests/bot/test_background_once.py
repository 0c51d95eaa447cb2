"""Background work done exactly once by two processes on one PostgreSQL database.

Each "process" here is a service stack on its own connection pool (its own sessions,
cache and locks), as two bot processes would be. Both run the timers' work at the same
moment: each forfeit, reminder and challenge expiry is claimed by one of them (the
game's compare-and-set, or a conditional update), and only the claimant gets it back to
publish. An unreadable game is skipped and logged, and blocks no other game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.games.challenges import ChallengeService
from bot.games.matches import MatchService
from bot.games.service import GameService
from bot.storage import PostgresDatabase
from rules.game import GameOptions
from tests.bot.conftest import ALICE, BOB, FakeClock

GAMES = 12


@pytest_asyncio.fixture
async def pools(postgres_database: str) -> AsyncIterator[list[PostgresDatabase]]:
    databases = [PostgresDatabase(postgres_database, pool_size=4) for _ in range(2)]
    for database in databases:
        await database.connect()
    await databases[0].migrate()
    yield databases
    for database in databases:
        await database.close()


async def _games(service: GameService) -> list[int]:
    return [
        (
            await service.create_game(
                guild_id=1,
                channel_id=100 + i,
                players=(ALICE + 10 * i, BOB + 10 * i),
                options=GameOptions(),
                seed=i,
            )
        ).id
        for i in range(GAMES)
    ]


async def _break(db: PostgresDatabase, service: GameService, game_id: int) -> None:
    record = await service.get(game_id)
    await db.games.save_game_state(
        game_id,
        expected_version=record.version,
        version=record.version,
        state={"format": 999},
        status="active",
        turn_started_at=record.turn_started_at,
        deadline=record.deadline,
        reminded=False,
        now=record.updated_at,
    )


async def test_each_overdue_game_is_forfeited_once(
    pools: list[PostgresDatabase], caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    setup = GameService(pools[0], clock=clock, turn_timeout=60)
    ids = await _games(setup)
    broken = ids[3]
    await _break(pools[0], setup, broken)
    services = [GameService(db, clock=clock, turn_timeout=60) for db in pools]
    for game_id in set(ids) - {broken}:  # both have the readable games cached
        for service in services:
            await service.get(game_id)
    clock.now += 61
    with caplog.at_level(logging.ERROR):
        first, second = await asyncio.gather(*(service.forfeit_overdue() for service in services))
    forfeited = [outcome.game.id for outcome in first + second]
    # Only the process whose commit won has an outcome to publish, one per game.
    assert sorted(forfeited) == sorted(set(ids) - {broken})
    results = await pools[1].ratings.recent_results(limit=100)
    assert sorted(r.game_id for r in results) == sorted(forfeited)
    assert all(r.reason == "timeout" for r in results)
    assert any(f"Game {broken}: stored state unreadable" in r.getMessage() for r in caplog.records)


async def test_each_turn_is_reminded_once(pools: list[PostgresDatabase]) -> None:
    clock = FakeClock()
    setup = GameService(pools[0], clock=clock, turn_timeout=3600)
    ids = await _games(setup)
    broken = ids[5]
    await _break(pools[0], setup, broken)
    services = [GameService(db, clock=clock, turn_timeout=3600) for db in pools]
    clock.now += 1800

    async def remind(service: GameService) -> list[int]:
        claimed = []
        for record in await service.games_to_remind(1800):
            if await service.mark_reminded(record.id, record.version):
                claimed.append(record.id)
        return claimed

    first, second = await asyncio.gather(*(remind(service) for service in services))
    assert sorted(first + second) == sorted(set(ids) - {broken})
    assert await remind(services[0]) == [] and await remind(services[1]) == []


async def test_each_challenge_expires_once(pools: list[PostgresDatabase]) -> None:
    clock = FakeClock()
    lobbies = []
    for db in pools:
        games = GameService(db, clock=clock)
        lobbies.append(
            ChallengeService(db, games, MatchService(db.challenges, games), clock=clock, timeout=60)
        )
    made = [
        await lobbies[0].create(
            guild_id=1,
            channel_id=200 + i,
            challenger_id=ALICE + i,
            opponent_id=BOB + i,
            options=GameOptions(),
        )
        for i in range(GAMES)
    ]
    clock.now += 61
    first, second = await asyncio.gather(*(lobby.expire_due() for lobby in lobbies))
    expired = [c.row.id for c in first + second]
    assert sorted(expired) == sorted(c.row.id for c in made)

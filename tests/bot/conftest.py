from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.games.live import LiveGame, MoveOutcome
from bot.games.service import GameService
from bot.storage import Storage, open_database

ALICE, BOB, CAROL = 1001, 1002, 1003


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# The storage backends that the storage, service and concurrency tests run against.
BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_target(backend: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Where a test's database lives: a new SQLite file, or a new PostgreSQL database's URL."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_database"))
    return str(tmp_path_factory.mktemp("db") / "test.db")


@pytest.fixture
def quick_target(backend: str, request: pytest.FixtureRequest) -> str:
    """Like ``db_target``, but SQLite in memory: for tests that never reopen it."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_database"))
    return ":memory:"


@pytest_asyncio.fixture
async def db(quick_target: str) -> AsyncIterator[Storage]:
    """A migrated database: SQLite in memory, or a new PostgreSQL database."""
    database = open_database(quick_target)
    await database.connect()
    await database.migrate()
    yield database
    await database.close()


@pytest_asyncio.fixture
async def clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture
async def service(db: Storage, clock: FakeClock) -> GameService:
    return GameService(db, clock=clock, turn_timeout=3600)


async def play_randomly(
    service: GameService, record: LiveGame, rng: random.Random, *, max_moves: int = 500
) -> MoveOutcome | None:
    """Make random legal moves until the game ends; returns the finishing outcome."""
    for _ in range(max_moves):
        record = await service.get(record.id)
        if not record.is_active:
            return None
        user = record.current_user
        assert user is not None
        outcome = await service.apply(
            record.id, user, rng.choice(record.game.legal_moves()), expected_version=record.version
        )
        if outcome.finished:
            return outcome
    raise AssertionError("the game did not end")

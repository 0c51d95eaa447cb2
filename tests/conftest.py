"""Fixtures and settings shared by every test package.

``simcord_bot`` is the bot that simcord's ``simcord_env`` fixture runs: the real
``create_bot`` with an in-memory database and every cog, as in production.

With ``TEST_BOT_DATABASE=postgres`` that bot uses a PostgreSQL database instead.

``postgres_server`` is a throwaway PostgreSQL server for the whole session
(``tests/pgserver.py``); ``postgres_database`` is a new empty database on it per test,
as a URL. Without PostgreSQL they skip, with the install command in the reason; under
``CI=true`` they fail instead.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio
from hypothesis import settings

from bot.app import SchottenBot, create_bot
from tests.pgserver import PostgresServer, PostgresUnavailable

# In CI the same examples every run: a red build is reproducible, never a lucky draw.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest_asyncio.fixture
async def simcord_bot(request: pytest.FixtureRequest) -> AsyncIterator[SchottenBot]:
    database = ":memory:"
    if os.environ.get("TEST_BOT_DATABASE") == "postgres":  # the Discord tests on PostgreSQL
        database = str(request.getfixturevalue("postgres_database"))
    bot = create_bot(database=database)
    yield bot
    await bot.close()  # simcord detaches the bot without closing it: the database, workers


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server: PostgresServer | None = None
    try:
        server = PostgresServer()
        server.start()
    except PostgresUnavailable as error:
        if server is not None:
            server.stop()
        if os.environ.get("CI"):
            pytest.fail(f"CI needs PostgreSQL for the storage tests: {error}", pytrace=False)
        pytest.skip(str(error))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database (dropped after the test)."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)

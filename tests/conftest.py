"""Fixtures and settings shared by every test package.

``simcord_bot`` is the bot that simcord's ``simcord_env`` fixture runs: the real
``create_bot`` with an in-memory database and every cog, as in production. Every bot
of a test runs with the classic defaults (``classic_defaults``: boards in the channel,
a ping every turn) unless the test is marked ``shipped_defaults``
(``tests/cogs/test_threads.py``).

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
from bot.community.preferences import Preferences
from tests.pgserver import PostgresServer, PostgresUnavailable

# In CI the same examples every run: a red build is reproducible, never a lucky draw.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def classic_defaults(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot of a test runs with the defaults of the versions before threads and
    ping settings, which the older tests check (and an operator could still want): a
    server that chose nothing keeps its boards in the channel, a member who chose
    nothing is pinged at every turn. A test marked ``shipped_defaults`` runs with the
    defaults the bot ships (a thread per game, pings only when away)."""
    if request.node.get_closest_marker("shipped_defaults") is None:
        monkeypatch.setattr(Preferences, "threads_default", False)
        monkeypatch.setattr(Preferences, "pings_default", "every-turn")


def bot_database(request: pytest.FixtureRequest) -> str:
    if os.environ.get("TEST_BOT_DATABASE") == "postgres":  # the Discord tests on PostgreSQL
        return str(request.getfixturevalue("postgres_database"))
    return ":memory:"


@pytest_asyncio.fixture
async def simcord_bot(request: pytest.FixtureRequest) -> AsyncIterator[SchottenBot]:
    bot = create_bot(database=bot_database(request))
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

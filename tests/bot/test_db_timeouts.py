"""Every database call is bounded, whatever the database does (``DATABASE_TIMEOUT``).

PostgreSQL through ``tests/faultproxy.py``: stopped (connections closed and refused),
slowed (each chunk delayed 1.5 s) and dropped (packets held, sockets open). Each read,
each write in a transaction and the language lookup of an interaction must come back
(with ``DatabaseUnavailable`` where the database did not answer) within its bound:
``DATABASE_TIMEOUT``, and ``LOOKUP_BUDGET`` for the lookup, well within Discord's 3 s.
The calls are timed on a clock that stands still but for the timers they wait on
(``tests/virtualclock.py``), so the bound is checked exactly, however busy the machine;
``bench/db_faults.py`` measures the wall time. After the fault heals the same database
works again. And a database that refuses writes is refused at start
(``check_writable``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from bot.community.languages import LOOKUP_BUDGET, Languages
from bot.storage import Database, DatabaseUnavailable, PostgresDatabase, ReadOnlyDatabase
from tests.faultproxy import ThreadedFaultProxy
from tests.pgserver import PostgresServer
from tests.virtualclock import VirtualClockLoop

TIMEOUT = 1.0
UNBOUNDED = 1000.0  # the test's guard: a call still waiting then has no bound of its own
ROUNDING = 1e-6


@pytest.fixture
def fault_proxy(postgres_server: PostgresServer) -> Iterator[ThreadedFaultProxy]:
    proxy = ThreadedFaultProxy(str(postgres_server.socket_dir))
    yield proxy
    proxy.close()


async def timed(awaitable) -> tuple[object, float]:
    """The call's result (or its ``DatabaseUnavailable``) and the seconds it took on
    the loop's clock."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    try:
        async with asyncio.timeout(UNBOUNDED):
            result: object = await awaitable
    except DatabaseUnavailable as error:
        result = error
    return result, loop.time() - start


@pytest.mark.parametrize("fault", ["stopped", "dropped", "slowed"])
def test_every_call_is_bounded(postgres_database: str, fault_proxy: ThreadedFaultProxy, fault: str) -> None:
    with asyncio.Runner(loop_factory=VirtualClockLoop) as runner:
        runner.run(every_call_is_bounded(fault_proxy.url(postgres_database), fault_proxy, fault))


async def every_call_is_bounded(url: str, fault_proxy: ThreadedFaultProxy, fault: str) -> None:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualClockLoop)
    db = PostgresDatabase(url, timeout=TIMEOUT)
    await db.connect()
    try:
        await db.migrate()
        await db.players.set_meta("before", "1")
        {"stopped": fault_proxy.refuse, "dropped": fault_proxy.hold, "slowed": lambda: fault_proxy.slow(1.5)}[
            fault
        ]()

        async def write() -> None:
            async with db.transaction() as tx:
                await tx.players.set_meta("during", "1")

        with loop.frozen():  # from here the clock moves only to the timers waited on
            for name, call in (
                ("read", lambda: db.players.get_meta("before")),
                ("write", write),
                ("read again", lambda: db.players.get_meta("before")),
            ):
                result, seconds = await timed(call())
                assert seconds <= TIMEOUT + ROUNDING, (fault, name, seconds)
                assert isinstance(result, DatabaseUnavailable), (fault, name, result)

            languages = Languages(db.players, clock=time.time)
            language, seconds = await timed(languages.enter_quickly(12345, "de", 678, "fr"))
            assert language == "de" and seconds <= LOOKUP_BUDGET + ROUNDING, (fault, seconds)

        fault_proxy.release()
        for _ in range(5):  # the pool replaces the connections it lost
            result, _seconds = await timed(db.players.get_meta("before"))
            if result == "1":
                break
        assert result == "1"
        assert await db.players.get_meta("during") is None  # that write never happened
    finally:
        fault_proxy.release()
        await db.close()


async def test_a_read_only_sqlite_database_is_refused(tmp_path) -> None:
    path = tmp_path / "schotten.db"
    async with Database(path) as db:
        await db.migrate()
        await db.check_writable()  # writable: fine
        await db.value("PRAGMA query_only = ON")  # as a read-only file behaves
        with pytest.raises(ReadOnlyDatabase, match="read-only"):
            await db.check_writable()


async def test_a_read_only_postgresql_database_is_refused(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database) as db:
        await db.migrate()
        await db.check_writable()
        await db.execute("ALTER ROLE postgres SET default_transaction_read_only = on")
        try:
            await db.close()
            await db.connect()  # new sessions take the role's setting
            with pytest.raises(ReadOnlyDatabase, match="refuses writes"):
                await db.check_writable()
        finally:
            async with db.transaction():
                await db.execute("SET TRANSACTION READ WRITE")
                await db.execute("ALTER ROLE postgres RESET default_transaction_read_only")

"""The two storage backends implement one API and one schema.

- Every public method of the SQLite ``Database`` exists on ``PostgresDatabase`` with the
  same signature: a method added to one backend alone fails here. (The queries are the
  repositories', the same classes on both.)
- Both migration folders have the same versions, and after migrating, both databases'
  catalogs list the same tables, columns (in order, with compatible types and the same
  nullability), primary keys and indexes.
- PostgreSQL transactions: one connection per transaction, no nesting, other tasks not
  blocked, rollback on error; migrations are safe when processes start together.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Database, MigrationError, PostgresDatabase, Repositories, latest_version
from bot.storage.schema import migrations

# SQLite's declared type -> the PostgreSQL types that hold the same values.
COMPATIBLE = {
    "INTEGER": {"bigint", "integer", "smallint"},
    "REAL": {"double precision"},
    "TEXT": {"text"},
}


def public_methods(cls: type) -> dict[str, Callable[..., Any]]:
    return {
        name: member
        for name, member in inspect.getmembers(cls)
        if (not name.startswith("_") or name in ("__aenter__", "__aexit__"))
        and (inspect.isfunction(member) or isinstance(member, property))
    }


def signature(cls: type, member: Callable[..., Any] | property) -> str:
    if isinstance(member, property):
        return "property"
    text = str(inspect.signature(member))
    # The class itself (``-> Database``, ``AsyncIterator[PostgresDatabase]``) reads Self.
    return re.sub(rf"\b{cls.__name__}\b", "Self", text)


def test_backends_have_the_same_methods_and_signatures() -> None:
    sqlite = {name: signature(Database, m) for name, m in public_methods(Database).items()}
    postgres = {name: signature(PostgresDatabase, m) for name, m in public_methods(PostgresDatabase).items()}
    assert len(sqlite) > 15
    assert sorted(set(sqlite) - set(postgres)) == [], "methods missing from PostgresDatabase"
    assert sorted(set(postgres) - set(sqlite)) == [], "methods missing from Database"
    differ = {name: (sqlite[name], postgres[name]) for name in sqlite if sqlite[name] != postgres[name]}
    assert differ == {}
    assert isinstance(Database(":memory:").path, str)
    for backend in (Database(":memory:"), PostgresDatabase("postgresql://x")):
        assert isinstance(backend, Repositories)  # the same repositories, on either
    assert PostgresDatabase("postgresql://bot:pw@db.invalid/x").path == "postgresql://bot:***@db.invalid/x"


def test_both_backends_have_the_same_migrations() -> None:
    sqlite = [(m.version, m.name) for m in migrations("sqlite")]
    postgres = [(m.version, m.name) for m in migrations("postgres")]
    assert sqlite == postgres
    assert len(sqlite) == latest_version() >= 4


def test_the_wheel_data_patterns_cover_both_migration_folders() -> None:
    root = Path(__file__).resolve().parents[2]
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert '"migrations/*.sql"' in pyproject and '"migrations/postgres/*.sql"' in pyproject


# -- the schemas -----------------------------------------------------------------------


def sqlite_catalog(path: Path) -> dict[str, Any]:
    with sqlite3.connect(path) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                " ORDER BY name"
            )
        ]
        columns = {}
        keys = {}
        for table in tables:
            info = conn.execute(f"PRAGMA table_info({table})").fetchall()
            # (name, declared type, nullable); a primary key column is never null.
            columns[table] = [(c[1], c[2].upper(), not (c[3] or c[5])) for c in info]
            keys[table] = [c[1] for c in sorted(info, key=lambda c: c[5]) if c[5]]
        indexes = {
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"
            )
        }
    return {"tables": tables, "columns": columns, "keys": keys, "indexes": indexes}


async def postgres_catalog(url: str) -> dict[str, Any]:
    conn = await asyncpg.connect(url)
    try:
        tables = [
            row["table_name"]
            for row in await conn.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = 'public' AND table_name <> 'schema_version' ORDER BY table_name"
            )
        ]
        columns = {}
        keys = {}
        for table in tables:
            rows = await conn.fetch(
                "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                " WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
                table,
            )
            columns[table] = [(r["column_name"], r["data_type"], r["is_nullable"] == "YES") for r in rows]
            keys[table] = [
                r["column_name"]
                for r in await conn.fetch(
                    """
                    SELECT k.column_name FROM information_schema.table_constraints c
                    JOIN information_schema.key_column_usage k
                      ON k.constraint_name = c.constraint_name AND k.table_name = c.table_name
                    WHERE c.table_schema = 'public' AND c.table_name = $1
                      AND c.constraint_type = 'PRIMARY KEY'
                    ORDER BY k.ordinal_position
                    """,
                    table,
                )
            ]
        indexes = {
            row["indexname"]
            for row in await conn.fetch("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")
            if not row["indexname"].endswith("_pkey")
        }
    finally:
        await conn.close()
    return {"tables": tables, "columns": columns, "keys": keys, "indexes": indexes}


async def test_both_schemas_have_the_same_tables_and_columns(tmp_path: Path, postgres_database: str) -> None:
    async with Database(tmp_path / "schema.db") as db:
        await db.migrate()
    async with PostgresDatabase(postgres_database) as pg:
        assert await pg.migrate() == latest_version()
    sqlite = sqlite_catalog(tmp_path / "schema.db")
    postgres = await postgres_catalog(postgres_database)

    assert postgres["tables"] == sqlite["tables"]
    assert {"games", "moves", "results", "ratings", "challenges", "matches"} <= set(sqlite["tables"])
    for table in sqlite["tables"]:
        names = [name for name, _, _ in sqlite["columns"][table]]
        assert [name for name, _, _ in postgres["columns"][table]] == names, table
        for (name, declared, nullable), (_, pg_type, pg_nullable) in zip(
            sqlite["columns"][table], postgres["columns"][table], strict=True
        ):
            assert pg_type in COMPATIBLE[declared], (table, name, declared, pg_type)
            assert pg_nullable == nullable, (table, name)
        assert postgres["keys"][table] == sqlite["keys"][table], table
    assert postgres["indexes"] == sqlite["indexes"]


# -- PostgreSQL: transactions and migrations ---------------------------------------------


async def backend_pid(db: PostgresDatabase) -> int:
    return int(await db.value("SELECT pg_backend_pid()"))


async def test_a_transaction_runs_on_one_connection(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database, pool_size=5) as db:
        await db.migrate()
        async with db.transaction():
            pids = {await backend_pid(db) for _ in range(10)}
            in_tx = await db.value("SELECT now() = statement_timestamp()")
        assert len(pids) == 1
        assert in_tx is False  # now() is the transaction's start: the statements shared one
        with pytest.raises(RuntimeError, match="do not nest"):
            async with db.transaction(), db.transaction():
                pass


async def test_a_transaction_does_not_block_other_tasks(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database) as db:
        await db.migrate()
        inside = asyncio.Event()
        release = asyncio.Event()

        async def long_transaction() -> None:
            async with db.transaction():
                await db.players.set_meta("a", "1")
                inside.set()
                await release.wait()

        task = asyncio.create_task(long_transaction())
        await inside.wait()
        # Another task writes and reads meanwhile; it does not see the open transaction's row.
        await asyncio.wait_for(db.players.set_meta("b", "2"), timeout=60)  # blocked: forever
        assert await db.players.get_meta("b") == "2"
        assert await db.players.get_meta("a") is None
        release.set()
        await task
        assert await db.players.get_meta("a") == "1"


async def test_a_failed_transaction_leaves_nothing(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database, pool_size=1) as db:
        await db.migrate()
        with pytest.raises(ZeroDivisionError):
            async with db.transaction():
                await db.players.set_meta("x", "1")
                1 / 0  # noqa: B018
        assert await db.players.get_meta("x") is None
        await db.players.set_meta("y", "2")  # the one pooled connection is usable again
        assert await db.players.get_meta("y") == "2"


async def test_a_released_connection_is_reused_without_a_reset_query(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database, pool_size=1) as db:
        await db.migrate()
        queries: list[str] = []
        async with db._access() as conn:
            conn.add_query_logger(lambda record: queries.append(record.query))
        await db.players.set_meta("a", "1")  # the same (only) connection: one statement each
        await db.players.set_meta("b", "2")
        assert len(queries) == 2 and all(q.startswith("INSERT INTO meta") for q in queries), queries
        # A transaction left open is still rolled back on release.
        async with db._access() as conn:
            await conn.execute("BEGIN")
            await conn.execute("INSERT INTO meta (key, value) VALUES ('c', '3')")
        assert await db.players.get_meta("c") is None


async def test_processes_migrating_at_once_apply_each_migration_once(postgres_database: str) -> None:
    databases = [PostgresDatabase(postgres_database, pool_size=1) for _ in range(4)]
    for database in databases:
        await database.connect()
    try:
        # A migration applied twice would fail (CREATE TABLE of an existing table) and
        # raise MigrationError here; the advisory lock makes the others wait and skip it.
        versions = await asyncio.gather(*(database.migrate() for database in databases))
        assert versions == [latest_version()] * 4
        rows = await databases[0].all("SELECT version FROM schema_version")
        assert [row["version"] for row in rows] == [latest_version()]
    finally:
        for database in databases:
            await database.close()


async def test_postgres_step_by_step_migration_keeps_data(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database) as db:
        assert await db.schema_version() == 0
        assert await db.migrate(target=1) == 1
        await db.execute("INSERT INTO players (user_id, created_at) VALUES (10, 1), (11, 1)")
        await db.execute(
            "INSERT INTO games (guild_id, channel_id, player0, player1, options, seed, first_player, state,"
            " version, created_at, updated_at) VALUES (1, 2, 10, 11, '{}', 7, 0, '{}', 1, 1, 1)"
        )
        assert await db.migrate() == latest_version()
        row = await db.games.get_game(1)
        assert row is not None and row.ai_player is None and row.players == (10, 11)


async def test_postgres_newer_than_code_is_refused(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database) as db:
        await db.migrate()
        await db.execute("UPDATE schema_version SET version = $1", latest_version() + 1)
        with pytest.raises(MigrationError, match="newer"):
            await db.migrate()


async def test_unreachable_postgres_is_a_clear_error(tmp_path: Path) -> None:
    from bot.storage import StorageError

    db = PostgresDatabase(f"postgresql://bot:secret@/nowhere?host={tmp_path}")
    with pytest.raises(StorageError, match="cannot connect") as error:
        await db.connect()
    assert "secret" not in str(error.value)
    assert not db.is_open

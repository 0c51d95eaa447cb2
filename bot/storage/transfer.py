"""Move a SQLite database into PostgreSQL: ``python -m bot migrate-to-postgres``.

Both databases are first brought to the latest schema version (the same version
numbers on both backends). Then every table of the SQLite file is copied, in an order
where a row's foreign keys exist before it, into the PostgreSQL database inside one
transaction: it ends with all of it or nothing. Ids are kept as they are, and the id
sequences continue after the highest id SQLite ever handed out, so that game ids shown
to players are never reused. The target must be empty: this is a move, not a merge.

The SQLite file is locked while it is read (``filelock``): a bot still running on it
makes the command stop with ``DatabaseInUse``. It is not changed apart from the
migrations, so it stays as a backup.
"""

from __future__ import annotations

import graphlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.storage.backend import quote
from bot.storage.database import Database
from bot.storage.errors import StorageError
from bot.storage.postgres import PostgresDatabase

# PostgreSQL column type -> the Python type its binary COPY codec takes.
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "bigint": int,
    "integer": int,
    "smallint": int,
    "double precision": float,
    "text": str,
}


async def sqlite_to_postgres(source: str | os.PathLike[str], target: str) -> dict[str, int]:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``target``
    (a URL); returns the number of rows copied per table."""
    if not Path(source).is_file():
        raise StorageError(f"{os.fspath(source)} is not a SQLite database file")
    async with Database(source) as sqlite, PostgresDatabase(target) as postgres:
        await sqlite.migrate()
        await postgres.migrate()

        names = [
            row["name"]
            for row in await sqlite.all(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        order = graphlib.TopologicalSorter[str]()
        for name in names:
            references = await sqlite.all(f"PRAGMA foreign_key_list({quote(name)})")
            order.add(name, *(row["table"] for row in references if row["table"] != name))
        tables = list(order.static_order())

        issued: dict[str, int] = {}  # what AUTOINCREMENT handed out, deleted rows included
        if await sqlite.one("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'"):
            sequences = await sqlite.all("SELECT name, seq FROM sqlite_sequence")
            issued = {row["name"]: int(row["seq"]) for row in sequences}

        counts: dict[str, int] = {}
        # Every statement this task runs until the end of the block is part of the one
        # transaction (the backend's contract): all of it or nothing.
        async with postgres.transaction():
            columns: dict[str, list[tuple[str, str]]] = {}
            for row in await postgres.all(
                "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = 'public' AND table_name <> 'schema_version'"
                " ORDER BY table_name, ordinal_position"
            ):
                columns.setdefault(row["table_name"], []).append((row["column_name"], row["data_type"]))
            if set(columns) != set(tables):
                raise StorageError(
                    f"the two schemas differ: SQLite has tables {sorted(tables)}, "
                    f"PostgreSQL {sorted(columns)}"
                )
            for table in tables:
                if await postgres.value(f"SELECT EXISTS (SELECT 1 FROM {quote(table)})"):
                    raise StorageError(
                        f"the PostgreSQL database {postgres.path} is not empty (table {table} has rows);"
                        " migrate into a new, empty database"
                    )
            for table in tables:
                names_and_types = columns[table]
                column_names = [name for name, _ in names_and_types]
                converters = [_CONVERT[data_type] for _, data_type in names_and_types]
                records = [
                    tuple(
                        None if value is None else convert(value)
                        for value, convert in zip(row, converters, strict=True)
                    )
                    for row in await sqlite.rows(table, column_names)
                ]
                await postgres.copy_rows(table, column_names, records)
                counts[table] = len(records)

            for row in await postgres.all(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = 'public' AND is_identity = 'YES'"
            ):
                table, column = row["table_name"], row["column_name"]
                highest = await postgres.value(f"SELECT max({quote(column)}) FROM {quote(table)}")
                last = max(int(highest or 0), issued.get(table, 0))
                # The next id is last + 1; an empty table starts at 1.
                await postgres.execute(
                    "SELECT setval(pg_get_serial_sequence($1, $2), $3, $4)",
                    table,
                    column,
                    max(last, 1),
                    last > 0,
                )

            for table in tables:
                copied = await postgres.value(f"SELECT count(*) FROM {quote(table)}")
                if copied != counts[table]:
                    raise StorageError(f"table {table}: {counts[table]} rows read, {copied} in PostgreSQL")
        return counts

"""Board styles (migration 7): stored per member and per server on both backends, text
by default, and ``Styles`` reads a choice another process stored once its minute ran out."""

from __future__ import annotations

from pathlib import Path

from bot.community.styles import TTL, Styles, parse_style
from bot.storage import Database, PostgresDatabase, Storage


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def check(db: Storage) -> None:
    await db.migrate()
    players = db.players
    assert await players.board_style("user", 7) is None
    await players.set_board_style("user", 7, "picture", now=1)
    await players.set_board_style("guild", 7, "text", now=1)  # same id, other scope
    assert await players.board_style("user", 7) == "picture"
    assert await players.board_style("guild", 7) == "text"
    await players.set_board_style("user", 7, "text", now=2)
    assert await players.board_style("user", 7) == "text"

    clock = Clock()
    mine, other = Styles(players, clock=clock), Styles(players, clock=clock)  # two processes
    assert await mine.for_user(8) == "text" and await mine.for_guild(None) == "text"
    assert await other.choose("user", 8, "picture") == "picture"
    assert await other.for_user(8) == "picture"
    assert await mine.for_user(8) == "text"  # remembered for a while
    clock.now += TTL
    assert await mine.for_user(8) == "picture"


async def test_styles_on_sqlite(tmp_path: Path) -> None:
    async with Database(tmp_path / "bot.db") as db:
        await check(db)


async def test_styles_on_postgres(postgres_database: str) -> None:
    async with PostgresDatabase(postgres_database) as db:
        await check(db)


def test_unknown_styles_are_text() -> None:
    assert parse_style("picture") == "picture"
    assert parse_style(None) == parse_style("PICTURE") == parse_style("text") == "text"

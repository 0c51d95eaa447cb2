from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    ConcurrentUpdate,
    Database,
    ForeignDatabase,
    MigrationError,
    RatingRow,
    Storage,
    latest_version,
    open_database,
)
from bot.storage.schema import migrations

ROOT = Path(__file__).resolve().parents[2]

# Rows written at a given schema version, with raw SQL of that version, to check that
# later migrations keep data. A new migration that changes these tables adds its own.
DATA_AT_VERSION = {
    1: [
        "INSERT INTO players (user_id, created_at) VALUES (10, 1), (11, 1)",
        "INSERT INTO games (guild_id, channel_id, player0, player1, options, seed, first_player, state,"
        " version, created_at, updated_at) VALUES (1, 2, 10, 11, '{}', 7, 0, '{}', 1, 1, 1)",
        "INSERT INTO moves (game_id, seq, player, move, version, created_at) VALUES (1, 1, 0, 'pass', 1, 1)",
    ],
}


def schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
    return sorted((t, n, re.sub(r"\s+", " ", sql or "")) for t, n, sql in rows)


async def new_db(path: Path | str = ":memory:") -> Storage:
    db = open_database(path)
    await db.connect()
    await db.migrate()
    return db


@pytest.fixture
def integrity_error(backend: str) -> type[Exception]:
    """What the backend's driver raises for a broken constraint."""
    return sqlite3.IntegrityError if backend == "sqlite" else asyncpg.IntegrityConstraintViolationError


async def add_game(
    db: Storage, players: tuple[int, int] = (10, 11), *, deadline: float | None = 100.0
) -> int:
    return await db.games.insert_game(
        guild_id=1,
        channel_id=2,
        players=players,
        options={"ruleset": "schotten-totten"},
        seed=7,
        first_player=0,
        match_id=None,
        state={"v": 0},
        version=0,
        now=1.0,
        deadline=deadline,
    )


def test_migrations_are_numbered_without_gaps() -> None:
    assert [m.version for m in migrations()] == list(range(1, latest_version() + 1))
    assert latest_version() >= 1


async def test_migrate_from_empty(tmp_path: Path) -> None:
    async with Database(tmp_path / "a.db") as db:
        assert await db.schema_version() == 0
        assert await db.migrate() == latest_version()
        assert await db.schema_version() == latest_version()
        assert await db.migrate() == latest_version()  # idempotent
    tables = {name for kind, name, _ in schema(tmp_path / "a.db") if kind == "table"}
    assert {
        "players",
        "games",
        "moves",
        "results",
        "ratings",
        "rating_changes",
        "challenges",
        "meta",
    } <= tables


@pytest.mark.parametrize("start", range(1, latest_version() + 1))
async def test_migrate_from_every_earlier_version(tmp_path: Path, start: int) -> None:
    fresh = tmp_path / "fresh.db"
    async with Database(fresh) as db:
        await db.migrate()
    old = tmp_path / "old.db"
    async with Database(old) as db:
        # Build the database as it was at each version up to `start`, with data in it.
        for version in range(1, start + 1):
            assert await db.migrate(target=version) == version
            for statement in DATA_AT_VERSION.get(version, []):
                await db.execute(statement)
        assert await db.migrate() == latest_version()
        assert (await db.games.get_game(1)) is not None
        assert len(await db.games.moves(1)) == 1
    assert schema(old) == schema(fresh)
    with sqlite3.connect(old) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


async def test_database_newer_than_code_is_refused(tmp_path: Path) -> None:
    await (await new_db(tmp_path / "n.db")).close()
    with sqlite3.connect(tmp_path / "n.db") as conn:
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    async with Database(tmp_path / "n.db") as db:
        with pytest.raises(MigrationError, match="newer"):
            await db.migrate()


def foreign_database(path: Path, journal_mode: str) -> None:
    """Another program's SQLite file: its own tables, its own schema version."""
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA journal_mode = {journal_mode}")
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO notes (text) VALUES ('keep me')")
        conn.execute("PRAGMA user_version = 3")
    conn.close()


@pytest.mark.parametrize("journal_mode", ["delete", "wal"])
async def test_another_programs_database_is_refused_unchanged(tmp_path: Path, journal_mode: str) -> None:
    path = tmp_path / "other.db"
    foreign_database(path, journal_mode)
    before = path.read_bytes()
    db = Database(path)
    with pytest.raises(ForeignDatabase, match="not a Schotten-Totten bot database") as info:
        await db.connect()
    assert isinstance(info.value, MigrationError)  # python -m bot reports it as a database error
    assert "notes" in str(info.value) and "DATABASE_PATH" in str(info.value)
    assert not db.is_open
    assert path.read_bytes() == before
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == journal_mode
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]
    conn.close()


async def test_empty_and_own_databases_are_accepted(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()  # e.g. made by an operator beforehand
    await (await new_db(tmp_path / "empty.db")).close()
    db = await new_db(tmp_path / "empty.db")  # ours now: opened again
    await db.close()
    await (await new_db(tmp_path / "new.db")).close()
    assert (tmp_path / "new.db").is_file()


async def test_file_database_uses_wal_and_foreign_keys(tmp_path: Path) -> None:
    db = await new_db(tmp_path / "w.db")
    try:
        assert (await db.one("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
        assert (await db.one("PRAGMA foreign_keys"))[0] == 1  # type: ignore[index]
        with pytest.raises(sqlite3.IntegrityError):  # no such player
            await db.games.append_moves(999, [(1, 0, "pass")], version=1, now=1)
    finally:
        await db.close()
    assert not db.is_open


async def test_game_round_trip_and_active_lists(quick_target: str) -> None:
    db = await new_db(quick_target)
    try:
        gid = await add_game(db)
        other = await add_game(db, (11, 12))
        row = await db.games.get_game(gid)
        assert row is not None
        assert row.players == (10, 11)
        assert row.options == {"ruleset": "schotten-totten"}
        assert row.status == "active" and row.version == 0 and row.first_player == 0
        assert [g.id for g in await db.games.active_games(11)] == [gid, other]
        assert [g.id for g in await db.games.active_games(12)] == [other]
        assert await db.games.get_game(12345) is None
        # The channel's (the Activity's list): both here, none elsewhere, at most limit.
        assert [g.id for g in await db.games.active_games_in_channel(2)] == [gid, other]
        assert [g.id for g in await db.games.active_games_in_channel(2, limit=1)] == [gid]
        assert await db.games.active_games_in_channel(3) == []
        assert await db.games.active_games_in_channel(2**70) == []
    finally:
        await db.close()


async def test_a_servers_active_games_newest_first(quick_target: str) -> None:
    db = await new_db(quick_target)
    try:
        first = await add_game(db)
        second = await add_game(db, (11, 12))
        elsewhere = await db.games.insert_game(
            guild_id=3,
            channel_id=4,
            players=(10, 12),
            options={"ruleset": "schotten-totten"},
            seed=7,
            first_player=0,
            match_id=None,
            state={"v": 0},
            version=0,
            now=1.0,
            deadline=None,
        )
        assert [g.id for g in await db.games.guild_active_games(1)] == [second, first]
        assert [g.id for g in await db.games.guild_active_games(1, limit=1)] == [second]
        assert [g.id for g in await db.games.guild_active_games(3)] == [elsewhere]
        assert await db.games.guild_active_games(2) == []
        assert await db.games.guild_active_games(2**64) == []  # beyond the column: nothing
    finally:
        await db.close()


async def test_move_transaction_commits_together_or_not_at_all(quick_target: str) -> None:
    db = await new_db(quick_target)
    try:
        gid = await add_game(db)
        async with db.transaction():
            await db.games.append_moves(gid, [(1, 0, "play R7 3"), (2, 0, "draw clan")], version=2, now=2)
            await db.games.save_game_state(
                gid,
                expected_version=0,
                version=2,
                state={"v": 2},
                status="active",
                turn_started_at=2,
                deadline=50,
                reminded=False,
                now=2,
            )
        with pytest.raises(ZeroDivisionError):
            async with db.transaction():
                await db.games.append_moves(gid, [(3, 1, "pass")], version=3, now=3)
                1 / 0  # noqa: B018
        row = await db.games.get_game(gid)
        assert row is not None and row.version == 2 and row.state == {"v": 2}
        assert [m.move for m in await db.games.moves(gid)] == ["play R7 3", "draw clan"]
        # A writer that lost track of the version is refused, and rolls back its moves.
        with pytest.raises(ConcurrentUpdate):
            async with db.transaction():
                await db.games.append_moves(gid, [(3, 1, "pass")], version=3, now=3)
                await db.games.save_game_state(
                    gid,
                    expected_version=1,
                    version=3,
                    state={},
                    status="active",
                    turn_started_at=None,
                    deadline=None,
                    reminded=False,
                    now=3,
                )
        assert len(await db.games.moves(gid)) == 2
    finally:
        await db.close()


async def test_moves_are_append_only(
    quick_target: str, backend: str, integrity_error: type[Exception]
) -> None:
    db = await new_db(quick_target)
    try:
        gid = await add_game(db)
        with pytest.raises(integrity_error):  # no such game: foreign keys are enforced
            await db.games.append_moves(gid + 1, [(1, 0, "pass")], version=1, now=1)
        await db.games.append_moves(gid, [(1, 0, "pass")], version=1, now=1)
        with pytest.raises(integrity_error, match="append-only"):
            await db.execute("UPDATE moves SET move = 'claim 1'")
        with pytest.raises(integrity_error, match="append-only"):
            await db.execute("DELETE FROM moves")
        # The same position twice. Both backends report it as the lost race it is
        # (another writer committed a move at that position first), like save_game_state.
        with pytest.raises(ConcurrentUpdate):
            await db.games.append_moves(gid, [(1, 1, "pass")], version=2, now=2)
        assert [(m.seq, m.player, m.move) for m in await db.games.moves(gid)] == [(1, 0, "pass")]
    finally:
        await db.close()


async def test_text_is_bound_not_interpolated(quick_target: str) -> None:
    db = await new_db(quick_target)
    try:
        gid = await add_game(db)
        nasty = "pass'); DROP TABLE games; --"
        await db.games.append_moves(gid, [(1, 0, nasty)], version=1, now=1)
        await db.players.set_meta("k'; --", nasty)
        assert (await db.games.moves(gid))[0].move == nasty
        assert await db.players.get_meta("k'; --") == nasty
        assert await db.games.get_game(gid) is not None
    finally:
        await db.close()


async def test_deadlines_reminders_and_message_ids(quick_target: str) -> None:
    db = await new_db(quick_target)
    try:
        due = await add_game(db, deadline=100.0)
        later = await add_game(db, (12, 13), deadline=500.0)
        assert [g.id for g in await db.games.games_due(99)] == []
        assert [g.id for g in await db.games.games_due(100)] == [due]
        assert [g.id for g in await db.games.games_to_remind(now=60, after=50)] == [due, later]
        assert await db.games.mark_reminded(due, version=0)
        assert not await db.games.mark_reminded(due, version=0)  # already reminded: remind once
        assert not await db.games.mark_reminded(later, version=5)  # moved on meanwhile
        assert [g.id for g in await db.games.games_to_remind(now=60, after=50)] == [later]

        await db.games.set_message_ids(due, board_message_id=555)
        await db.games.set_message_ids(due, dm_message_ids={1: 777})
        row = await db.games.get_game(due)
        assert row is not None
        assert row.board_message_id == 555 and row.dm_message_ids == (None, 777)
        with pytest.raises(ValueError):
            await db.games.set_message_ids(due, dm_message_ids={2: 1})
    finally:
        await db.close()


async def test_results_and_ratings(quick_target: str) -> None:
    db = await new_db(quick_target)
    try:
        gid = await add_game(db)
        async with db.transaction():
            result = await db.ratings.record_result(
                gid,
                guild_id=1,
                players=(10, 11),
                winner=1,
                reason="five_stones",
                stones=(2, 5),
                moves=40,
                now=9,
            )
            for user_id, before, after in ((10, 1500.0, 1488.0), (11, 1500.0, 1512.0)):
                await db.ratings.save_rating(
                    RatingRow("global", user_id, after, 1, int(after > before), int(after < before), 0, 9),
                    game_id=gid,
                    before=before,
                )
        assert result.winner_id == 11 and result.loser_id == 10
        assert await db.ratings.get_result(gid) == result
        assert [r.game_id for r in await db.ratings.recent_results(guild_id=1)] == [gid]
        assert [r.user_id for r in await db.ratings.leaderboard("global")] == [11, 10]
        rating = await db.ratings.get_rating("global", 11)
        assert rating is not None and rating.rating == 1512.0 and rating.wins == 1
        assert await db.ratings.leaderboard("guild:1") == []
    finally:
        await db.close()


async def test_challenges_survive_and_resolve_once(db_target: str) -> None:
    path = db_target
    db = await new_db(path)
    challenge = await db.challenges.create_challenge(
        guild_id=1,
        channel_id=2,
        challenger_id=10,
        opponent_id=11,
        options={"tactics": True},
        now=0,
        expires_at=600,
    )
    await db.close()
    db = await new_db(path)  # a restart
    try:
        assert [c.id for c in await db.challenges.pending_challenges()] == [challenge.id]
        assert [c.id for c in await db.challenges.pending_challenges(user_id=11)] == [challenge.id]
        assert await db.challenges.pending_challenges(user_id=12) == []
        assert await db.challenges.expired_challenges(now=599) == []
        assert [c.id for c in await db.challenges.expired_challenges(now=600)] == [challenge.id]
        await db.challenges.set_challenge_message(challenge.id, 42)
        gid = await add_game(db)
        assert await db.challenges.resolve_challenge(challenge.id, "accepted", game_id=gid)
        assert not await db.challenges.resolve_challenge(challenge.id, "cancelled")  # too late
        stored = await db.challenges.get_challenge(challenge.id)
        assert stored is not None
        assert (stored.status, stored.game_id, stored.message_id, stored.options) == (
            "accepted",
            gid,
            42,
            {"tactics": True},
        )
    finally:
        await db.close()


async def test_closed_database_refuses_work(quick_target: str) -> None:
    db = open_database(quick_target)
    with pytest.raises(RuntimeError, match="not open"):
        await db.players.get_meta("x")
    await db.close()  # closing twice (or never opened) is fine


def test_sql_lives_only_in_the_storage_package() -> None:
    sql = re.compile(
        r"\b(SELECT\s+\S+\s+FROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\b"
    )
    offenders = [
        str(path.relative_to(ROOT))
        for folder in ("bot", "cogs", "rules")
        for path in (ROOT / folder).rglob("*.py")
        if "storage" not in path.relative_to(ROOT).parts and sql.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []


async def test_restart_state_of_the_table(quick_target: str) -> None:
    """Migration 4: the turn mention's id, closed DMs and the once-per-game DM tip."""
    db = await new_db(quick_target)
    try:
        gid = await add_game(db)
        assert await db.delivery.get_ping_message_id(gid) is None
        await db.delivery.set_ping_message_id(gid, 555)
        assert await db.delivery.get_ping_message_id(gid) == 555
        await db.delivery.set_ping_message_id(gid, None)
        assert await db.delivery.get_ping_message_id(gid) is None

        assert not await db.delivery.dm_closed(10)
        await db.delivery.set_dm_closed(10, True, now=1)
        assert await db.delivery.dm_closed(10)
        await db.delivery.set_dm_closed(10, False, now=2)
        assert not await db.delivery.dm_closed(10)

        assert not await db.delivery.take_dm_tip(gid, 10, now=1)  # nothing queued
        assert await db.delivery.queue_dm_tip(gid, 10, now=1)
        assert await db.delivery.queue_dm_tip(gid, 10, now=1)  # still pending
        assert await db.delivery.pending_dm_tips() == [(gid, 10)]
        assert await db.delivery.take_dm_tip(gid, 10, now=2)
        assert not await db.delivery.take_dm_tip(gid, 10, now=3)  # once
        assert not await db.delivery.queue_dm_tip(gid, 10, now=4)  # told already in this game
        assert await db.delivery.pending_dm_tips() == []
        other = await add_game(db)
        assert await db.delivery.queue_dm_tip(other, 10, now=5)  # a new game may tell again
    finally:
        await db.close()

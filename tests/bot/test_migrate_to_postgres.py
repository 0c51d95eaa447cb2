"""``python -m bot migrate-to-postgres``: a SQLite database with every kind of row moves
to PostgreSQL whole, with its ids, and the bot carries on there."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import bot.cli.main as entry
from bot.community.stats import install
from bot.games.service import GameService
from bot.storage import Database, PostgresDatabase, RatingRow
from rules.game import GameOptions
from tests.bot.conftest import ALICE, BOB, CAROL, FakeClock, play_randomly

TABLES = [
    "board_styles",
    "channel_locks",
    "challenges",
    "dm_status",
    "dm_tips",
    "games",
    "guild_languages",
    "matches",
    "meta",
    "moves",
    "outbox",
    "players",
    "private_messages",
    "preferences",
    "rating_changes",
    "ratings",
    "results",
    "tournament_entrants",
    "tournament_pairings",
    "tournaments",
    "user_languages",
]


async def fill(path: Path) -> dict[str, Any]:
    """A SQLite database as a bot leaves it after a while; returns what to look for."""
    clock = FakeClock()
    rng = random.Random(5)
    async with Database(path) as db:
        await db.migrate()
        service = GameService(db, clock=clock, turn_timeout=3600)
        install(service)  # ratings and matches, as in the bot
        finished = await service.create_game(
            guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=3
        )
        assert await play_randomly(service, finished, rng) is not None
        active = await service.create_game(
            guild_id=1, channel_id=3, players=(ALICE, CAROL), options=GameOptions(tactics=True), seed=4
        )
        for _ in range(5):
            record = await service.get(active.id)
            assert record.current_user is not None
            await service.apply(active.id, record.current_user, rng.choice(record.game.legal_moves()))
        await service.set_message_ids(active.id, board_message_id=111, dm_message_ids={0: 222})
        match = await db.challenges.insert_match(
            guild_id=1, channel_id=4, players=(BOB, CAROL), options=GameOptions().to_dict(), target=12, now=5
        )
        match_game = await service.create_game(
            guild_id=1, channel_id=4, players=(BOB, CAROL), options=GameOptions(), seed=6, match_id=match.id
        )
        assert await play_randomly(service, match_game, rng) is not None  # scores the match, starts game 2
        for n in range(3):
            await db.challenges.create_challenge(
                guild_id=1,
                channel_id=5,
                challenger_id=ALICE,
                opponent_id=BOB,
                options={"n": n},
                now=1,
                expires_at=9,
            )
        await db.execute("DELETE FROM challenges WHERE id = 3")  # SQLite never hands out 3 again
        await db.ratings.save_rating(RatingRow("guild:1", CAROL, 1490.5, 1, 0, 1, 0, 7.25))
        await db.delivery.set_dm_closed(BOB, True, now=8)
        await db.delivery.queue_dm_tip(active.id, BOB, now=8)
        await db.players.set_language("user", ALICE, chosen="de", discord="fr", now=8)
        await db.players.set_language("guild", 1, discord="de", now=8)
        await db.players.set_board_style("user", ALICE, "picture", now=8)
        await db.players.set_board_style("guild", 1, "picture", now=8)
        await db.delivery.set_ping_message_id(active.id, 333)
        await db.delivery.add_private_message(444, active.id, ALICE, now=8.5)
        await db.games.set_message_ids(active.id, thread_id=444)  # its own thread
        await db.delivery.set_pinged_turn(active.id, 2)
        await db.players.set_preference("user", ALICE, "pings", "never", now=8)
        await db.players.set_preference("guild", 1, "threads", "off", now=8)
        await db.players.set_seen_at(BOB, 8.5)
        await db.players.set_meta("command_sync:global", "abc")
        tournament = await db.tournaments.create(
            guild_id=1,
            channel_id=6,
            organiser_id=ALICE,
            name="Spring",
            format="knockout",
            rounds=None,
            best_of=3,
            options=GameOptions().to_dict(),
            turn_time=600.5,
            max_players=8,
            now=10,
        )
        for user_id in (ALICE, BOB, CAROL):
            await db.tournaments.add_entrant(tournament.id, user_id, 1500.25, 11)
        await db.tournaments.add_pairing(tournament.id, 1, 1, BOB, CAROL, match_id=match.id)
        await db.tournaments.add_pairing(tournament.id, 1, 2, ALICE, None, winner_id=ALICE, done=True)
        async with db.transaction() as tx:  # a challenge counted against its channel's limit
            await tx.challenges.lock_channel(3, 12.5)
        # A publication a crash left pending: the new database's bot publishes it.
        await db.delivery.add_outbox(active.id, (await service.get(active.id)).version, "turn", now=9)
        actives = [row.id for row in await db.games.all_active_games()]
    return {"active": active.id, "actives": actives, "match": match.id}


def sqlite_rows(path: Path, table: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)


async def postgres_rows(url: str, table: str) -> list[tuple[Any, ...]]:
    conn = await asyncpg.connect(url)
    try:
        return sorted((tuple(row) for row in await conn.fetch(f"SELECT * FROM {table}")), key=repr)
    finally:
        await conn.close()


def test_migrate_to_postgres_copies_everything_and_the_bot_carries_on(
    tmp_path: Path, postgres_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "schotten.db"
    facts = asyncio.run(fill(path))

    assert entry.main(["migrate-to-postgres", "--from", str(path), "--to", postgres_database]) == 0
    out = capsys.readouterr().out
    assert "games: " in out and "Done." in out

    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables - {"sqlite_sequence"} == set(TABLES)
    for table in TABLES:
        copied = asyncio.run(postgres_rows(postgres_database, table))
        assert copied == sqlite_rows(path, table), table
        assert copied, f"the test wrote no {table} rows: it proves nothing there"

    async def carry_on() -> None:
        async with PostgresDatabase(postgres_database) as db:
            service = GameService(db, clock=FakeClock(), turn_timeout=3600)
            install(service)
            assert [row.id for row in await db.games.all_active_games()] == facts["actives"]
            async with Database(path) as old:
                for game_id in facts["actives"]:
                    before = await GameService(old).get(game_id)
                    after = await service.get(game_id)
                    assert after.game.to_dict() == before.game.to_dict()
                    assert (after.version, after.players, after.deadline) == (
                        before.version,
                        before.players,
                        before.deadline,
                    )
            record = await service.get(facts["active"])
            assert record.board_message_id == 111 and record.current_user is not None
            outcome = await service.apply(record.id, record.current_user, record.game.legal_moves()[0])
            assert outcome.game.version > record.version
            assert len(await db.games.moves(record.id)) == outcome.game.version
            # New rows get new ids: after the highest SQLite ever handed out.
            new = await service.create_game(
                guild_id=1, channel_id=9, players=(ALICE, BOB), options=GameOptions(), seed=8
            )
            assert new.id == max(facts["actives"]) + 1
            challenge = await db.challenges.create_challenge(
                guild_id=1,
                channel_id=5,
                challenger_id=ALICE,
                opponent_id=None,
                options={},
                now=1,
                expires_at=9,
            )
            assert challenge.id == 4
            match = await db.challenges.insert_match(
                guild_id=None, channel_id=None, players=(ALICE, CAROL), options={}, target=5, now=1
            )
            assert match.id == facts["match"] + 1

    asyncio.run(carry_on())

    # A second run finds the target in use and changes nothing.
    assert entry.main(["migrate-to-postgres", "--from", str(path), "--to", postgres_database]) == 1
    assert "is not empty" in capsys.readouterr().err


def test_migrate_to_postgres_refuses_without_a_source_or_target(
    tmp_path: Path, postgres_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        entry.main(["migrate-to-postgres", "--from", str(tmp_path / "missing.db"), "--to", postgres_database])
        == 1
    )
    assert "missing.db not found" in capsys.readouterr().err
    assert not (tmp_path / "missing.db").exists()  # not created on the way
    assert (
        entry.main(["--env-file", str(tmp_path / "none"), "migrate-to-postgres", "--to", "schotten.db"]) == 2
    )
    assert "--to postgresql://" in capsys.readouterr().err

"""Many identical requests at the same moment: exactly one is applied.

Each test runs on both backends (``db_target``: a SQLite file or a PostgreSQL database).
On PostgreSQL the requests also come through separate connection pools and separate
processes, as from several bot processes: the database's compare-and-set decides.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games.errors import StaleControl
from bot.games.service import GameService
from bot.storage import ConcurrentUpdate, PostgresDatabase, open_database
from rules.errors import IllegalMove
from rules.game import GameOptions
from rules.moves import PlayCard
from tests.bot.conftest import ALICE, BOB, CAROL

COPIES = 50


async def _race(service: GameService, game_id: int, user: int, move: PlayCard, version: int | None):
    results = await asyncio.gather(
        *(service.apply(game_id, user, move, expected_version=version) for _ in range(COPIES)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    return applied, refused


@pytest.mark.parametrize("with_version", [True, False])
async def test_identical_moves_apply_once(db_target: str, with_version: bool) -> None:
    async with open_database(db_target) as db:
        await db.migrate()
        service = GameService(db)
        record = await service.create_game(
            guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=11, first_player=0
        )
        move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
        applied, refused = await _race(
            service, record.id, ALICE, move, record.version if with_version else None
        )

        assert len(applied) == 1
        assert len(refused) == COPIES - 1
        # With the button's version the rest are "already done"; without, the engine says
        # it is not your turn any more. Nothing else gets through.
        expected = StaleControl if with_version else IllegalMove
        assert all(isinstance(error, expected) for error in refused), refused
        moves = await db.games.moves(record.id)
        assert [m.move for m in moves] == [str(move), "draw clan"]
        row = await db.games.get_game(record.id)
        assert row is not None and row.version == 2
        assert (await service.get(record.id)).game.to_dict() == row.state


async def test_a_second_service_sees_the_same_database(db_target: str) -> None:
    """Requests through a service whose cache is cold still apply once."""
    async with open_database(db_target) as db:
        await db.migrate()
        record = await GameService(db).create_game(
            guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=12, first_player=1
        )
        service = GameService(db)  # nothing cached
        move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
        applied, refused = await _race(service, record.id, BOB, move, 0)
        assert len(applied) == 1 and all(isinstance(e, StaleControl) for e in refused)
        assert len(await db.games.moves(record.id)) == 2


async def test_games_do_not_wait_for_each_other(db_target: str) -> None:
    async with open_database(db_target) as db:
        await db.migrate()
        service = GameService(db)
        games = [
            await service.create_game(
                guild_id=1,
                channel_id=c,
                players=(ALICE + c, CAROL + c),
                options=GameOptions(),
                seed=c,
                first_player=0,
            )
            for c in range(10)
        ]
        moves = [next(m for m in g.game.legal_moves() if isinstance(m, PlayCard)) for g in games]
        outcomes = await asyncio.gather(
            *(
                service.apply(g.id, g.players[0], m, expected_version=0)
                for g, m in zip(games, moves, strict=True)
            )
        )
        assert [o.game.version for o in outcomes] == [2] * 10


SERVICES = 4


@pytest.mark.parametrize("with_version", [True, False])
async def test_services_on_separate_pools_apply_once(postgres_database: str, with_version: bool) -> None:
    """Several bot processes (here: services with their own connection pools, so their
    own database sessions and caches) receive the same move at once."""
    databases = [PostgresDatabase(postgres_database, pool_size=3) for _ in range(SERVICES)]
    for database in databases:
        await database.connect()
    try:
        await databases[0].migrate()
        record = await GameService(databases[0]).create_game(
            guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=13, first_player=0
        )
        services = [GameService(database) for database in databases]
        for service in services:  # each has loaded version 0: the race is decided by the database
            assert (await service.get(record.id)).version == 0
        move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
        version = record.version if with_version else None
        results = await asyncio.gather(
            *(
                service.apply(record.id, ALICE, move, expected_version=version)
                for service in services
                for _ in range(5)
            ),
            return_exceptions=True,
        )
        applied = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(applied) == 1, results
        # Within a service its lock and cache refuse the copies; across services the
        # database's compare-and-set does, and the loser reloads: the same refusal as
        # within one service, never a ConcurrentUpdate.
        assert all(isinstance(e, StaleControl | IllegalMove) for e in refused), refused
        assert not any(isinstance(e, ConcurrentUpdate) for e in refused), refused
        assert [m.move for m in await databases[1].games.moves(record.id)] == [str(move), "draw clan"]
        row = await databases[2].games.get_game(record.id)
        assert row is not None and row.version == 2
        # A service that lost the race reloads and carries on from the winner's state.
        for service in services:
            assert (await service.get(record.id)).version == 2
    finally:
        for database in databases:
            await database.close()


RACER = """
import asyncio, sys
from bot.games.service import GameService
from bot.storage import open_database

async def main(url, game_id, user, move):
    async with open_database(url) as db:
        service = GameService(db)
        await service.get(game_id)
        print("ready", flush=True)
        sys.stdin.readline()
        try:
            outcome = await service.apply(game_id, user, move, expected_version=0)
            print("applied", outcome.game.version, flush=True)
        except Exception as error:
            print("refused", type(error).__name__, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]))
"""


async def test_processes_apply_the_same_move_once(postgres_database: str) -> None:
    """Real processes on one PostgreSQL database, released at the same moment."""
    async with open_database(postgres_database) as db:
        await db.migrate()
        record = await GameService(db).create_game(
            guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=14, first_player=0
        )
        move = next(m for m in record.game.legal_moves() if isinstance(m, PlayCard))
        root = Path(__file__).resolve().parents[2]
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", RACER, postgres_database, str(record.id), str(ALICE), str(move)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=root,
            )
            for _ in range(SERVICES)
        ]
        try:
            for proc in procs:  # every process has loaded the game at version 0
                assert proc.stdout is not None
                assert await asyncio.to_thread(proc.stdout.readline) == "ready\n"
            for proc in procs:
                assert proc.stdin is not None
                proc.stdin.write("go\n")
                proc.stdin.flush()
            answers = [(await asyncio.to_thread(proc.communicate, timeout=60))[0].strip() for proc in procs]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
        assert sorted(answers)[0] == "applied 2", answers
        assert sum(answer.startswith("applied") for answer in answers) == 1, answers
        # The others lost in the database (or, if they were slower, saw the new version):
        # either way the ordinary "moved on" refusal.
        assert all(a == "refused StaleControl" for a in sorted(answers)[1:]), answers
        assert [m.move for m in await db.games.moves(record.id)] == [str(move), "draw clan"]

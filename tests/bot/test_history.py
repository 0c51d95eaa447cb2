"""``bot.archive.history.History``: a player's finished games, a game's record, a server's games;
and ``python -m bot export``, which writes a server's games as JSON lines."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.archive.history import GameInProgress, History
from bot.community.stats import install
from bot.games.errors import GameNotFound
from bot.games.service import GameService
from bot.storage import Audience, Database
from rules.game import Game, GameOptions, Result
from tests.bot.conftest import ALICE, BOB, CAROL, FakeClock, play_randomly

GUILD, OTHER_GUILD = 500, 600
ROBOT = 9999


async def finish(service: GameService, clock: FakeClock, players, *, guild_id=GUILD, seed=1, **kw) -> int:
    """A game played with random moves to its end; returns its id."""
    record = await service.create_game(
        guild_id=guild_id, channel_id=guild_id and guild_id + 1, players=players, options=GameOptions(),
        seed=seed, **kw,
    )  # fmt: skip
    clock.now += 60
    outcome = await play_randomly(service, record, random.Random(seed))
    assert outcome is not None and outcome.finished
    return record.id


async def resign(service: GameService, clock: FakeClock, players, loser: int, *, guild_id=GUILD) -> int:
    record = await service.create_game(
        guild_id=guild_id, channel_id=guild_id, players=players, options=GameOptions(), seed=3
    )
    clock.now += 60
    await service.resign(record.id, loser)
    return record.id


async def test_history_is_newest_first_paged_with_rating_changes(db: Database, service, clock) -> None:
    install(service)
    ids = [await resign(service, clock, (ALICE, BOB), BOB) for _ in range(12)]
    practice = await finish(
        service, clock, (ALICE, ROBOT), guild_id=None, seed=5, ai_player=1, ai_level="easy"
    )
    history = History(db.games, db.ratings)
    first = await history.page(ALICE, 0, size=10, audience=Audience(GUILD, ALICE))
    assert first is not None
    assert (first.page, first.pages, first.total) == (0, 2, 13)
    assert [e.game_id for e in first.entries] == [practice, *ids[::-1][:9]]
    # The practice game against the bot counts here but is unrated.
    assert first.entries[0].rating is None and first.entries[0].guild_id is None
    won = first.entries[1]
    assert (won.opponent_id, won.outcome, won.reason) == (BOB, "win", "resigned")
    assert won.rating is not None and won.rating[1] > won.rating[0]
    # Bob's side of the same game: lost, and his rating went down by as much.
    bob = await history.page(BOB, 0, size=10, audience=Audience(GUILD, BOB))
    assert bob is not None
    lost = bob.entries[0]
    assert (lost.game_id, lost.outcome, lost.opponent_id) == (won.game_id, "loss", ALICE)
    assert lost.rating is not None
    assert lost.rating[1] - lost.rating[0] == pytest.approx(-(won.rating[1] - won.rating[0]))
    # Past the end: the last page.
    last = await history.page(ALICE, 5, size=10, audience=Audience(GUILD, ALICE))
    assert last is not None and last.page == 1
    assert [e.game_id for e in last.entries] == ids[:3][::-1]
    assert await history.page(CAROL, 0, audience=Audience(GUILD, CAROL)) is None


async def test_history_shows_what_the_asker_may_see(db: Database, service, clock) -> None:
    """The games of the server asked in, and the asker's own games in DMs: nothing of
    another server, nor of someone else's DMs."""
    install(service)
    here = await resign(service, clock, (ALICE, BOB), BOB)
    there = await resign(service, clock, (ALICE, CAROL), CAROL, guild_id=OTHER_GUILD)
    practice = await finish(
        service, clock, (ALICE, ROBOT), guild_id=None, seed=5, ai_player=1, ai_level="easy"
    )
    history = History(db.games, db.ratings)

    async def shown(user_id: int, audience: Audience) -> list[int]:
        page = await history.page(user_id, 0, audience=audience)
        return [] if page is None else [e.game_id for e in page.entries]

    assert await shown(ALICE, Audience(GUILD, ALICE)) == [practice, here]  # her own DMs too
    assert await shown(ALICE, Audience(GUILD, BOB)) == [here]  # not alice's DMs
    assert await shown(ALICE, Audience(OTHER_GUILD, ALICE)) == [practice, there]
    assert await shown(ALICE, Audience(None, ALICE)) == [practice]  # in DMs: DMs only
    assert await shown(ALICE, Audience(None, BOB)) == []
    assert await shown(CAROL, Audience(GUILD, CAROL)) == []
    # Stats and head-to-head read the same way (practice games are left out there).
    assert [r.game_id for r in await db.ratings.player_results(ALICE, audience=Audience(GUILD, BOB))] == [
        here
    ]
    assert await db.ratings.head_to_head(ALICE, CAROL, audience=Audience(GUILD, CAROL)) == (0, 0, 0)
    assert await db.ratings.head_to_head(ALICE, CAROL, audience=Audience(OTHER_GUILD, CAROL)) == (1, 0, 0)
    assert await db.ratings.head_to_head(ALICE, CAROL) == (1, 0, 0)  # the operator's: everywhere


async def test_a_game_record_only_once_it_is_over(db: Database, service, clock) -> None:
    history = History(db.games, db.ratings)
    running = await service.create_game(
        guild_id=GUILD, channel_id=1, players=(ALICE, BOB), options=GameOptions(), seed=2
    )
    stored = await history.game(running.id)
    assert stored.players == (ALICE, BOB) and stored.guild_id == GUILD
    assert stored.finished_game is None
    with pytest.raises(GameInProgress) as refused:
        stored.finished()
    assert refused.value.code == "record_in_progress"
    with pytest.raises(GameNotFound):
        await history.game(running.id + 100)

    done = await finish(service, clock, (ALICE, BOB), seed=4)
    game = (await history.game(done)).finished()
    final = (await service.get(done)).game
    assert game.replay().to_dict() == final.to_dict()
    assert game.steps == len(final.log)
    assert game.engine_result == final.result
    record = game.record(("alice", "bob"))
    assert record.players[0].user_id == ALICE and record.players[1].name == "bob"
    assert record.replay().to_dict() == final.to_dict()


async def test_guild_games_are_that_servers_finished_games(db: Database, service, clock) -> None:
    here = [await finish(service, clock, (ALICE, BOB), seed=s) for s in (1, 2)]
    await finish(service, clock, (ALICE, CAROL), guild_id=OTHER_GUILD, seed=3)
    await service.create_game(guild_id=GUILD, channel_id=1, players=(BOB, CAROL), options=GameOptions())
    found = [game async for game in History(db.games, db.ratings).guild_games(GUILD)]
    assert [g.id for g in found] == here


async def _database_with_games(path: Path) -> tuple[list[int], int]:
    clock = FakeClock()
    async with Database(path) as db:
        await db.migrate()
        service = GameService(db, clock=clock)
        install(service)
        here = [await finish(service, clock, (ALICE, BOB), seed=s) for s in (1, 2, 3)]
        here.append(await resign(service, clock, (CAROL, BOB), CAROL))
        await finish(service, clock, (ALICE, CAROL), guild_id=OTHER_GUILD, seed=4)
        running = await service.create_game(
            guild_id=GUILD, channel_id=1, players=(BOB, CAROL), options=GameOptions(tactics=True)
        )
    return here, running.id


def run_export(*args: str, cwd: Path, before: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *before, "export", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "", "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )


async def test_python_m_bot_export_writes_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    here, running = await _database_with_games(path)
    out = tmp_path / "games.jsonl"
    proc = run_export("--guild", str(GUILD), "--database", str(path), "--out", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"Exported 4 finished game(s) of server {GUILD}" in proc.stderr
    games = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [g["id"] for g in games] == here  # not the other server's, not the running one
    assert running not in [g["id"] for g in games]
    for game in games:
        assert (game["format"], game["version"]) == ("schotten-game", 1)
        assert game["guild_id"] == GUILD and game["players"][0] in (ALICE, CAROL)
        assert set(game) >= {"seed", "options", "first_player", "moves", "result", "created_at"}
        assert game["finished_at"].endswith("Z") and game["created_at"] <= game["finished_at"]
        # The line alone rebuilds the game and its result.
        rebuilt = Game.replay(
            game["seed"],
            GameOptions.from_dict(game["options"]),
            [(p, m) for p, m in game["moves"]],
            first_player=game["first_player"],
        )
        result = game["result"]
        assert rebuilt.result == Result(result["winner"], result["reason"], tuple(result["stones"]))
        winner = result["winner"]
        assert result["winner_id"] == (None if winner is None else game["players"][winner])
    assert games[-1]["result"]["reason"] == "resigned" and games[-1]["moves"][-1] == [0, "resign"]


async def test_export_to_standard_output_with_the_settings_database(tmp_path: Path) -> None:
    path = tmp_path / "data.db"
    here, _ = await _database_with_games(path)
    (tmp_path / ".env").write_text(f"DATABASE_PATH={path}\n")
    proc = run_export("--guild", str(GUILD), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["id"] for line in proc.stdout.splitlines()] == here
    nothing = run_export("--guild", "12345", cwd=tmp_path)
    assert nothing.returncode == 0 and nothing.stdout == ""


def test_export_without_a_database_says_so(tmp_path: Path) -> None:
    proc = run_export("--guild", "1", "--database", str(tmp_path / "missing.db"), cwd=tmp_path)
    assert proc.returncode == 2
    assert "there is no database at" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "missing.db").exists()
    usage = run_export(cwd=tmp_path)
    assert usage.returncode == 2 and "--guild" in usage.stderr


async def test_export_reads_the_settings_file_named_before_it(tmp_path: Path) -> None:
    path = tmp_path / "data.db"
    here, _ = await _database_with_games(path)
    (tmp_path / "prod.env").write_text(f"DATABASE_PATH={path}\n")
    proc = run_export("--guild", str(GUILD), cwd=tmp_path, before=("--env-file", "prod.env"))
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line)["id"] for line in proc.stdout.splitlines()] == here
    helped = run_export("--help", cwd=tmp_path)
    assert helped.returncode == 0 and "--guild" in helped.stdout

"""Challenge expiry is paced: a backlog is worked off over timer rounds, at most
``EXPIRED_PER_ROUND`` a round, oldest first; what waits can no longer be answered and
counts for no limit."""

from __future__ import annotations

import pathlib

import pytest

from bot.games.challenges import EXPIRED_PER_ROUND, ChallengeService
from bot.games.errors import LimitReached
from bot.games.matches import MatchService
from bot.games.service import GameService
from bot.storage import Database
from rules.game import GameOptions


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_backlog_of_expired_challenges_is_worked_off_over_rounds() -> None:
    db = Database(":memory:")
    await db.connect()
    await db.migrate()
    try:
        clock = Clock()
        games = GameService(db, clock=clock)
        challenges = ChallengeService(
            db, games, MatchService(db, games), clock=clock, timeout=60, max_open=1, max_channel=1
        )
        backlog = EXPIRED_PER_ROUND * 2 + 5
        made = []
        for i in range(backlog):  # one per challenger and channel: within the limits
            made.append(
                await challenges.create(
                    guild_id=1,
                    channel_id=100 + i,
                    challenger_id=10 + i,
                    opponent_id=5000 + i,
                    options=GameOptions(),
                )
            )
            clock.now += 0.01
        clock.now += 61
        # Past its time, a challenge not yet expired by a round counts for no limit.
        assert await challenges.create(
            guild_id=1, channel_id=100, challenger_id=10, opponent_id=9999, options=GameOptions()
        )
        rounds = []
        while expired := await challenges.expire_due():
            rounds.append([c.id for c in expired])
        assert [len(r) for r in rounds] == [EXPIRED_PER_ROUND, EXPIRED_PER_ROUND, 5]
        assert [i for r in rounds for i in r] == [c.id for c in made]  # oldest first
    finally:
        await db.close()


async def test_the_rechallenge_cooldown_holds_across_processes(tmp_path: pathlib.Path) -> None:
    """A decline seen by one process holds back a new challenge made through another:
    the answer's time is stored with the challenge, not remembered by the process."""
    path = tmp_path / "two.db"
    first = Database(path)
    await first.connect()
    await first.migrate()
    try:
        clock = Clock()

        def service(db: Database) -> ChallengeService:
            games = GameService(db, clock=clock)
            return ChallengeService(
                db, games, MatchService(db, games), clock=clock, timeout=60, rechallenge_cooldown=300
            )

        one = service(first)
        made = await one.create(
            guild_id=1, channel_id=100, challenger_id=10, opponent_id=20, options=GameOptions()
        )
        await one.decline(made.id, 20)
        clock.now += 10
        # Another process: a second service over the same stored challenges (SQLite serves
        # one process per file, so the second "process" is a second service here; on
        # PostgreSQL the same query serves every process).
        other = service(first)
        with pytest.raises(LimitReached) as refused:
            await other.create(
                guild_id=1, channel_id=101, challenger_id=10, opponent_id=20, options=GameOptions()
            )
        assert refused.value.code == "limit_rechallenge"
        assert refused.value.params["until"] == 1000 + 300
        clock.now += 291  # the cooldown is over
        assert await other.create(
            guild_id=1, channel_id=101, challenger_id=10, opponent_id=20, options=GameOptions()
        )
    finally:
        await first.close()

"""Count limits hold when they are asked for many times at once.

Practice games (``max_games``) and open challenges (``max_open``) are counted and stored
in one transaction that holds the member's row (``players.lock``); a channel's open
challenges (``max_channel``) in one that also holds the channel's row
(``challenges.lock_channel``); a tournament's entrants (``max_players``) in the join's,
which holds the tournament's row (``tournaments.touch_open``). Each test fires the
requests together, on both backends (``db``: SQLite in memory or a PostgreSQL database);
on PostgreSQL also through separate connection pools, as from several bot processes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from bot.community.tournaments import TournamentService
from bot.games.challenges import Challenge, ChallengeService
from bot.games.errors import LimitReached, ServiceError
from bot.games.live import LiveGame
from bot.games.matches import MatchService
from bot.games.opponent import AI_SEAT, Opponent
from bot.games.service import GameService
from bot.storage import PostgresDatabase, Storage
from rules.game import GameOptions
from tests.bot.conftest import ALICE, FakeClock

BOT = 9999
T = TypeVar("T")
AT_ONCE = 8


async def _all_at_once(calls: list[Callable[[], Awaitable[T]]]) -> tuple[list[T], list[BaseException]]:
    results = await asyncio.gather(*(call() for call in calls), return_exceptions=True)
    done = [r for r in results if not isinstance(r, BaseException)]
    return done, [r for r in results if isinstance(r, BaseException)]


def _practice(opponent: Opponent, channel_id: int) -> Callable[[], Awaitable[LiveGame]]:
    return lambda: opponent.start_game(
        user_id=ALICE, bot_id=BOT, guild_id=1, channel_id=channel_id, options=GameOptions(), level="easy"
    )


async def test_practice_games_started_at_once_stop_at_the_limit(db: Storage, clock: FakeClock) -> None:
    opponent = Opponent(GameService(db, clock=clock), max_games=2, clock=clock)
    started, refused = await _all_at_once([_practice(opponent, 100 + i) for i in range(AT_ONCE)])

    assert len(started) == 2, started
    assert all(isinstance(e, LimitReached) and e.code == "limit_practice_games" for e in refused), refused
    active = await db.games.active_games(ALICE)
    assert sorted(row.id for row in active) == sorted(record.id for record in started)
    assert all(row.ai_player == AI_SEAT and row.players == (ALICE, BOT) for row in active)


async def test_one_practice_game_a_channel_when_asked_at_once(db: Storage, clock: FakeClock) -> None:
    opponent = Opponent(GameService(db, clock=clock), clock=clock)  # no count limit
    started, refused = await _all_at_once([_practice(opponent, 100) for _ in range(AT_ONCE)])

    assert len(started) == 1
    assert all(isinstance(e, ServiceError) and e.code == "practice_existing" for e in refused), refused
    assert [row.id for row in await db.games.active_games(ALICE)] == [started[0].id]


def _challenges(db: Storage, clock: FakeClock, max_open: int) -> ChallengeService:
    games = GameService(db, clock=clock)
    return ChallengeService(db, games, MatchService(db, games), clock=clock, timeout=600, max_open=max_open)


async def test_challenges_sent_at_once_stop_at_the_limit(db: Storage, clock: FakeClock) -> None:
    service = _challenges(db, clock, max_open=1)
    calls = [
        lambda i=i: service.create(
            guild_id=1, channel_id=100 + i, challenger_id=ALICE, opponent_id=2000 + i, options=GameOptions()
        )
        for i in range(AT_ONCE)
    ]
    sent, refused = await _all_at_once(calls)

    assert len(sent) == 1
    assert all(isinstance(e, LimitReached) and e.code == "limit_open_challenges" for e in refused), refused
    assert [row.id for row in await db.challenges.pending_challenges(user_id=ALICE)] == [sent[0].id]


async def test_the_same_challenge_sent_at_once_is_stored_once(db: Storage, clock: FakeClock) -> None:
    service = _challenges(db, clock, max_open=0)  # no count limit
    calls = [
        lambda: service.create(
            guild_id=1, channel_id=100, challenger_id=ALICE, opponent_id=2000, options=GameOptions()
        )
        for _ in range(AT_ONCE)
    ]
    sent, refused = await _all_at_once(calls)

    assert len(sent) == 1
    assert all(isinstance(e, ServiceError) and e.code == "challenge_pending" for e in refused), refused
    assert len(await db.challenges.pending_challenges(user_id=ALICE)) == 1


PROCESSES = 4


@pytest.mark.parametrize("limit", [1, 3])
async def test_practice_limit_holds_across_connection_pools(postgres_database: str, limit: int) -> None:
    """Several bot processes (services with their own pools and caches) start games for
    the same member at once: the database's row lock counts them one after the other."""
    databases = [PostgresDatabase(postgres_database, pool_size=3) for _ in range(PROCESSES)]
    for database in databases:
        await database.connect()
    try:
        await databases[0].migrate()
        clock = FakeClock()
        opponents = [Opponent(GameService(d, clock=clock), max_games=limit, clock=clock) for d in databases]
        calls = [
            _practice(opponent, 100 + 10 * n + i) for n, opponent in enumerate(opponents) for i in range(3)
        ]
        started, refused = await _all_at_once(calls)

        assert len(started) == limit
        assert all(isinstance(e, LimitReached) for e in refused), refused
        assert len(await databases[1].games.active_games(ALICE)) == limit
    finally:
        for database in databases:
            await database.close()


# -- a channel's limit: many members at once ---------------------------------------------

CHANNEL = 500
CHANNEL_LIMIT = 3
ALREADY_OPEN = 2
MEMBERS_AT_ONCE = 6


def _channel_challenges(db: Storage, clock: FakeClock) -> ChallengeService:
    games = GameService(db, clock=clock)
    return ChallengeService(
        db, games, MatchService(db, games), clock=clock, timeout=600, max_channel=CHANNEL_LIMIT
    )


def _challenge_in_channel(service: ChallengeService, member: int) -> Callable[[], Awaitable[object]]:
    return lambda: service.create(
        guild_id=1, channel_id=CHANNEL, challenger_id=member, opponent_id=member + 1, options=GameOptions()
    )


def _challenge(
    service: ChallengeService, channel_id: int, challenger_id: int, opponent_id: int
) -> Callable[[], Awaitable[Challenge]]:
    return lambda: service.create(
        guild_id=1,
        channel_id=channel_id,
        challenger_id=challenger_id,
        opponent_id=opponent_id,
        options=GameOptions(),
    )


async def _open_in_channel(db: Storage) -> int:
    return len([row for row in await db.challenges.pending_challenges() if row.channel_id == CHANNEL])


async def _trials(services: list[ChallengeService], db: Storage) -> None:
    """Two challenges open, then three times: many members challenge at once, exactly
    the one place left is taken, and is freed again (declined) for the next trial."""
    for member in range(ALREADY_OPEN):
        await _challenge_in_channel(services[0], 3000 + 10 * member)()
    for trial in range(3):
        calls = [
            _challenge_in_channel(services[(trial + n) % len(services)], 4000 + 1000 * trial + 10 * n)
            for n in range(MEMBERS_AT_ONCE * len(services))
        ]
        sent, refused = await _all_at_once(calls)

        assert len(sent) == CHANNEL_LIMIT - ALREADY_OPEN, (trial, len(sent))
        codes = {e.code if isinstance(e, LimitReached) else repr(e) for e in refused}
        assert codes == {"limit_channel_challenges"}, refused
        assert await _open_in_channel(db) == CHANNEL_LIMIT
        taken = sent[0]
        assert isinstance(taken, Challenge) and taken.row.opponent_id is not None
        await services[-1].decline(taken.id, taken.row.opponent_id)


async def test_a_channels_limit_holds_when_members_challenge_at_once(db: Storage, clock: FakeClock) -> None:
    """Six members challenge at once in a channel with two open challenges and a limit of
    three (each member has a limit of their own to spare): exactly one is stored."""
    await _trials([_channel_challenges(db, clock)], db)


async def test_a_channels_limit_holds_across_connection_pools(postgres_database: str) -> None:
    """The same from several bot processes (each with its own pool): the channel's row in
    the database serialises them, whichever process they come from."""
    databases = [PostgresDatabase(postgres_database, pool_size=3) for _ in range(PROCESSES)]
    for database in databases:
        await database.connect()
    try:
        await databases[0].migrate()
        clock = FakeClock()
        await _trials([_channel_challenges(database, clock) for database in databases], databases[1])
    finally:
        for database in databases:
            await database.close()


async def test_two_members_challenging_each_other_at_once_make_one_challenge(
    db: Storage, clock: FakeClock
) -> None:
    """Each holds only their own row: without the channel's, both challenges were stored
    (two open challenges between the same two members in one channel)."""
    games = GameService(db, clock=clock)
    service = ChallengeService(db, games, MatchService(db, games), clock=clock, timeout=600)  # no limits
    for trial in range(3):
        a, b = 6000 + 10 * trial, 6001 + 10 * trial
        calls = [_challenge(service, CHANNEL, x, y) for x, y in [(a, b), (b, a)] * 3]
        sent, refused = await _all_at_once(calls)

        assert len(sent) == 1, (trial, sent)
        assert all(isinstance(e, ServiceError) and e.code == "challenge_pending" for e in refused), refused
        assert len(await db.challenges.pending_challenges(user_id=a)) == 1


async def test_members_challenging_each_other_in_two_channels_at_once_both_succeed(
    db: Storage, clock: FakeClock
) -> None:
    """Each holds their own row and adds the other's as the opponent: that must not wait
    for the other's transaction (on PostgreSQL it deadlocked)."""
    games = GameService(db, clock=clock)
    service = ChallengeService(db, games, MatchService(db, games), clock=clock, timeout=600)
    await db.players.ensure_players(range(7000, 7020), clock())  # members seen before
    for trial in range(5):
        a, b = 7000 + 2 * trial, 7001 + 2 * trial
        sent, failed = await _all_at_once(
            [_challenge(service, CHANNEL, a, b), _challenge(service, CHANNEL + 1, b, a)]
        )
        assert failed == [] and len(sent) == 2, failed


# -- a tournament's sign-up: many members at once ----------------------------------------

MAX_PLAYERS = 4


async def test_sign_ups_at_once_stop_at_the_tournaments_size(postgres_database: str) -> None:
    """Members join a tournament of at most four from several processes at once: the
    join's transaction holds the tournament's row (``touch_open``) while it counts."""
    databases = [PostgresDatabase(postgres_database, pool_size=3) for _ in range(PROCESSES)]
    for database in databases:
        await database.connect()
    try:
        await databases[0].migrate()
        clock = FakeClock()
        services = []
        for database in databases:
            games = GameService(database, clock=clock)
            services.append(
                TournamentService(database, games, MatchService(database, games), clock=clock, turn_time=3600)
            )
        row = await services[0].create(
            guild_id=1,
            channel_id=CHANNEL,
            organiser_id=ALICE,
            name="Cup",
            format="swiss",
            rounds=None,
            best_of=None,
            options=GameOptions(),
            turn_time=None,
            max_players=MAX_PLAYERS,
        )
        calls = [lambda n=n: services[n % PROCESSES].join(row.id, 5000 + n) for n in range(3 * PROCESSES)]
        joined, refused = await _all_at_once(calls)

        assert len(joined) == MAX_PLAYERS
        assert all(isinstance(e, ServiceError) and e.code == "tournament_full" for e in refused), refused
        assert len(await databases[1].tournaments.entrants(row.id)) == MAX_PLAYERS
    finally:
        for database in databases:
            await database.close()


async def test_new_members_added_at_once_in_either_order_never_deadlock(
    db: Storage, clock: FakeClock
) -> None:
    """Two new members challenging each other at once add both rows, each in their own
    order: (a, b) and (b, a) inserted in one statement each would wait for each other's
    half on PostgreSQL (a deadlock, one of them refused). The rows go in one order."""
    for trial in range(40):
        a, b = 8000 + 2 * trial, 8001 + 2 * trial
        calls = [lambda x=x, y=y: db.players.ensure_players((x, y), clock()) for x, y in [(a, b), (b, a)] * 4]
        done, failed = await _all_at_once(calls)
        assert failed == [], (trial, failed)
        assert len(done) == 8

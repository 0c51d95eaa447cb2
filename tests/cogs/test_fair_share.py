"""Fair share, through simcord: one member's flood of AI work does not hold up another
member's move; the operator's limits (practice games, hints, challenges) refuse with a
private answer that names the limit and when it frees, and change nothing; a broken AI
pool is replaced once.

The AI runs in a one-thread executor (``AI_WORKERS=1``), as in ``test_practice.py``,
except in the broken-pool test, which needs the production process pool.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import re
import time
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import create_bot
from bot.settings import Settings
from tests.cogs.helpers import dm_turn
from tests.cogs.test_bad_input import assert_refused
from tests.cogs.test_practice import game_id_in, reply

BUDGET = 300  # playouts per search: a real search, quick in a test
NO_LIMITS = Settings(
    max_practice_games=0,
    hints_per_minute=0,
    max_open_challenges=0,
    max_channel_challenges=0,
    rechallenge_cooldown=0,
)


class RecordingPool(ThreadPoolExecutor):
    """One thread, as ``AI_WORKERS=1``; records the searches handed to it, in order
    (``decide``: an AI move, ``suggest``: a hint). The scheduler hands a search over
    in the event loop's thread, so the order is the scheduler's, whatever the load."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="test-ai")
        self.handed: list[str] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        call = fn
        while hasattr(call, "func"):  # functools.partial, and simcord's record of the call
            call = call.func
        self.handed.append(getattr(call, "__name__", repr(call)))
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def pool() -> Iterator[RecordingPool]:
    executor = RecordingPool()
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


@asynccontextmanager
async def running(
    settings: Settings, pool: Any = None, **simcord_options: Any
) -> AsyncIterator[tuple[Any, Any]]:
    bot = create_bot(database=":memory:", ai_executor=pool, settings=settings)
    bot.opponent.budget = BUDGET
    try:
        async with simcord.run(bot, **simcord_options) as env:
            yield env, bot
    finally:
        await bot.opponent.close()
        await bot.db.close()


def server(env: Any, members: int, channels: int = 1) -> tuple[list[Any], list[Any]]:
    guild = env.create_guild()
    rooms = [guild.create_text_channel(f"room{i}") for i in range(channels)]
    people = [
        guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol", "dave", "erin", "frank")
    ]
    return people[:members], rooms


async def practice(member: Any, channel: Any, level: str = "easy") -> int:
    result = await member.slash(channel, "schotten practice", difficulty=level)
    return game_id_in(reply(result))


def pinged(env: Any, member: Any) -> int:
    """Messages the bot posted that may ping ``member``."""
    count = 0
    for request in env.http_requests:
        data = request.json if isinstance(request.json, dict) else {}
        if isinstance(data.get("data"), dict):  # an interaction's response
            data = data["data"]
        users = (data.get("allowed_mentions") or {}).get("users") or []
        count += str(member.id) in {str(u) for u in users}
    return count


# ---------------------------------------------------------------------- the AI's queue


async def test_a_flood_of_hints_does_not_hold_up_another_members_move(pool):
    """alice asks for hints in 16 games at once; each search of bob's move against the
    AI then waits for at most the search already running, not for alice's queue: it is
    the next one handed to the pool (or the one after, when one of hers was given the
    slot just before bob asked). How long that is: bench/ai_fair_share.py."""
    flood_size = 16
    async with running(NO_LIMITS, pool, settle_timeout=120.0) as (env, bot):
        (alice, bob), rooms = server(env, 2, flood_size + 1)
        alice_games = [await practice(alice, room) for room in rooms[:flood_size]]
        bob_game = await practice(bob, rooms[-1], level="hard")
        records = [await bot.service.get(game_id) for game_id in alice_games]
        assert all(record.current_user == alice.id for record in records)

        asked: list[int] = []  # for each of bob's AI searches: how many were handed before
        think = bot.opponent.think

        async def recorded(record: Any) -> Any:
            if record.id == bob_game:
                asked.append(len(pool.handed))
            return await think(record)

        bot.opponent.think = recorded  # type: ignore[method-assign]
        flood = [asyncio.ensure_future(bot.opponent.hint(record, 0)) for record in records]
        for _ in range(10):
            await asyncio.sleep(0)
        assert bot.opponent.scheduler.waiting(alice.id) == flood_size - 1
        await dm_turn(bob, random.Random(1), bob_game)  # the AI answers within this
        assert asked, "the AI did not answer bob"
        still_queued = bot.opponent.scheduler.waiting(alice.id)
        hints = await asyncio.gather(*flood)
        assert len(hints) == flood_size
        # bob's AI searches: each handed over next, never after alice's queue.
        for before in asked:
            after_ask = pool.handed[before:]
            assert "decide" in after_ask[:2], (asked, pool.handed)
        assert pool.handed.count("suggest") == flood_size
        # Most of alice's queue was still waiting when bob was answered: bob's turn may be
        # several searches (claims, the play, the draw), and each lets one of hers in.
        assert still_queued >= flood_size // 2


# ---------------------------------------------------------------------- practice games


async def test_practice_games_per_member_are_limited_and_refused_privately(pool):
    settings = Settings(max_practice_games=2)
    async with running(settings, pool) as (env, bot):
        (alice,), rooms = server(env, 1, 3)
        first, second = [await practice(alice, room) for room in rooms[:2]]
        before = len(rooms[2].history())
        refused = await alice.slash(rooms[2], "schotten practice", difficulty="easy")
        assert_refused(
            refused,
            f"You already have 2 practice games open (the limit): #{first}, #{second}. "
            "Finish or resign one to start another.",
        )
        assert not refused.followups or all(f.ephemeral for f in refused.followups)
        assert len(rooms[2].history()) == before  # nothing posted
        assert len(await bot.service.active_games_for(alice.id)) == 2
        # In the bot's DM as well: the limit counts every channel.
        assert_refused(await alice.user.slash("schotten practice"), "2 practice games open")
        # In German.
        await alice.slash(rooms[2], "schotten language", language="de")
        assert_refused(
            await alice.slash(rooms[2], "schotten practice"),
            "Du hast schon 2 Übungspartien offen (das Limit)",
        )
        await alice.slash(rooms[2], "schotten language", language="en")
        # Resigning one frees a place.
        await alice.slash(rooms[0], "schotten resign", game=first)
        third = await practice(alice, rooms[2])
        assert third > second


# ---------------------------------------------------------------------- hints


async def test_hints_per_minute_are_limited_and_the_answer_says_when_the_next_one_comes(pool, monkeypatch):
    from bot.games import opponent as opponent_module

    searches: list[int] = []
    real = opponent_module.suggest

    def counted(*args: Any) -> Any:
        searches.append(1)
        return real(*args)

    monkeypatch.setattr(opponent_module, "suggest", counted)
    settings = Settings(hints_per_minute=2)
    async with running(settings, pool) as (env, _bot):
        (alice,), rooms = server(env, 1, 3)
        for room in rooms:
            await practice(alice, room)
        for room in rooms[:2]:
            assert reply(await alice.slash(room, "schotten hint")).startswith("Hint: ")
        before = (len(rooms[2].history()), len(searches))
        refused = await alice.slash(rooms[2], "schotten hint")
        assert_refused(
            refused, "You have had 2 hints in the last minute (the limit). You can ask for another in "
        )
        seconds = int(re.search(r"another in (\d+) s\.", reply(refused)).group(1))  # type: ignore[union-attr]
        assert 1 <= seconds <= 60
        assert (len(rooms[2].history()), len(searches)) == before  # no search, nothing posted
        # The same position again is free: the remembered answer.
        assert reply(await alice.slash(rooms[0], "schotten hint")).startswith("Hint: ")
        assert len(searches) == 2
        # In French.
        await alice.slash(rooms[2], "schotten language", language="fr")
        assert_refused(
            await alice.slash(rooms[2], "schotten hint"), "Tu as reçu 2 conseils dans la dernière minute"
        )
        await env.advance_time(seconds + 1)
        assert reply(await alice.slash(rooms[2], "schotten hint")).startswith("Conseil")
        assert len(searches) == 3


# ---------------------------------------------------------------------- challenges


def until_in(result: Any) -> int:
    return int(re.search(r"<t:(\d+):R>", reply(result)).group(1))  # type: ignore[union-attr]


async def test_open_challenges_per_member_are_limited_without_a_ping(pool):
    async with running(Settings(max_open_challenges=2), pool) as (env, bot):
        (alice, bob, carol, dave), (room,) = server(env, 4)
        first = await alice.slash(room, "schotten challenge", opponent=bob)
        await alice.slash(room, "schotten challenge", opponent=carol)
        before = len(room.history())
        refused = await alice.slash(room, "schotten challenge", opponent=dave)
        assert_refused(refused, "You already have 2 open challenges (the limit).")
        expires = (await bot.db.challenges.pending_challenges(user_id=alice.id))[0].expires_at
        assert until_in(refused) == math.ceil(expires)
        assert len(room.history()) == before and pinged(env, dave) == 0
        # One answered: a place is free.
        await bob.click(first.response, label="Decline")
        assert not (await alice.slash(room, "schotten challenge", opponent=dave)).ephemeral
        assert pinged(env, dave) == 1


async def test_open_challenges_per_channel_are_limited(pool):
    async with running(Settings(max_channel_challenges=2), pool) as (env, _bot):
        (alice, bob, carol, dave, erin, frank), (room, other) = server(env, 6, 2)
        await alice.slash(room, "schotten challenge", opponent=bob)
        await carol.slash(room, "schotten challenge", opponent=dave)
        before = len(room.history())
        refused = await erin.slash(room, "schotten challenge", opponent=frank)
        assert_refused(refused, "This channel already has 2 open challenges (the limit).")
        assert len(room.history()) == before and pinged(env, frank) == 0
        assert not (await erin.slash(other, "schotten challenge", opponent=frank)).ephemeral


async def test_the_same_member_is_not_challenged_again_right_after_a_decline_or_expiry(pool):
    async with running(Settings(rechallenge_cooldown=300, challenge_timeout=600), pool) as (env, _bot):
        (alice, bob, carol), (room, other) = server(env, 3, 2)
        made = await alice.slash(room, "schotten challenge", opponent=bob)
        await bob.click(made.response, label="Decline")
        declined_at = discord_now()
        for where in (room, other):
            refused = await alice.slash(where, "schotten challenge", opponent=bob)
            assert_refused(refused, "You challenged bob a short while ago and got no game.")
            assert abs(until_in(refused) - (declined_at + 300)) <= 2
        assert pinged(env, bob) == 1
        # Others may challenge bob, and alice others.
        assert not (await carol.slash(room, "schotten challenge", opponent=bob)).ephemeral
        # One pending challenge to a member at a time, in any channel.
        await alice.slash(room, "schotten challenge", opponent=carol)
        assert_refused(
            await alice.slash(other, "schotten challenge", opponent=carol),
            "You already challenged carol in another channel",
        )
        # An expired challenge counts as unanswered too.
        await env.advance_time(600 + 60)
        assert_refused(await alice.slash(room, "schotten challenge", opponent=carol), "a short while ago")
        await env.advance_time(300)
        assert not (await alice.slash(room, "schotten challenge", opponent=bob)).ephemeral
        assert not (await alice.slash(other, "schotten challenge", opponent=carol)).ephemeral


def discord_now() -> float:
    import discord

    return discord.utils.utcnow().timestamp()


# ---------------------------------------------------------------------- the pool


def hold(started: str, release: str) -> None:
    """A job for the worker process: say it runs (the file ``started``), then wait for
    the file ``release`` (two minutes at most)."""
    Path(started).touch()
    for _ in range(12_000):
        if Path(release).exists():
            return
        time.sleep(0.01)


async def wait_for_file(path: Path) -> None:
    for _ in range(12_000):  # two minutes at most
        if path.exists():
            return
        await asyncio.to_thread(time.sleep, 0.01)
    raise AssertionError(f"{path} never came")


async def test_a_killed_worker_restarts_the_pool_once_and_every_job_completes(caplog, tmp_path):
    """The production pool (AI_WORKERS=1): the worker process is killed while it runs a
    job and 10 more wait; one new pool, one warning, every job done, the AI plays on."""
    started, release = tmp_path / "started", tmp_path / "release"
    async with running(Settings(ai_workers=1), settle_timeout=120.0) as (env, bot):
        (alice,), (room,) = server(env, 1)
        game_id = await practice(alice, room)  # starts the pool (the AI may move first)
        scheduler = bot.opponent.scheduler
        executor = bot.opponent.executor
        assert isinstance(executor, ProcessPoolExecutor)
        await asyncio.get_running_loop().run_in_executor(executor, int)  # the worker is up
        jobs = [asyncio.ensure_future(scheduler.run(alice.id, partial(hold, str(started), str(release))))]
        jobs += [asyncio.ensure_future(scheduler.run(alice.id, partial(pow, 2, i))) for i in range(10)]
        await wait_for_file(started)  # the job runs in the worker, and goes on until released
        assert scheduler.running == 1 and scheduler.waiting(alice.id) == 10
        workers = list(executor._processes.values())  # type: ignore[attr-defined]
        assert len(workers) == 1
        with caplog.at_level(logging.WARNING):
            workers[0].kill()
            await asyncio.to_thread(workers[0].join)
            release.touch()  # for the job run again in the new pool
            results = await asyncio.wait_for(asyncio.gather(*jobs), timeout=90)
        assert results == [None] + [2**i for i in range(10)]
        assert scheduler.restarts == 1 and scheduler.generation == 1
        assert len([r for r in caplog.records if "pool broke" in r.getMessage()]) == 1
        new_pool = bot.opponent.executor
        assert new_pool is not executor and len(new_pool._processes) == 1  # type: ignore[attr-defined]
        # The AI still answers alice's moves.
        version = (await bot.service.get(game_id)).version
        await dm_turn(alice, random.Random(2), game_id)
        record = await bot.service.get(game_id)
        assert record.version >= version + 2 and (record.game.is_over or record.current_user == alice.id)

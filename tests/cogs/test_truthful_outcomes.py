"""What a member is told when the database fails under a move is what really happened.

A commit whose acknowledgement was lost (the data durable, the connection gone) is read
back before anybody is told anything: the mover gets the new hand and the table the new
board. A commit that really failed is reported as not saved, and one that cannot be
read back as unknown, never as "nothing was changed". An AI turn whose task failed is
restarted by the timers' next round.

The faults are injected around the bot's own storage (``FaultyCommits``), so these run
on SQLite and, with ``TEST_BOT_DATABASE=postgres``, on PostgreSQL; the PostgreSQL test
at the end kills the server's backend of the move's connection right after its COMMIT.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest_asyncio
import simcord

from bot.app import SchottenBot, create_bot
from bot.games.opponent import STALLED_AFTER
from bot.storage import Repositories, Storage
from cogs.timers import INTERVAL
from tests.cogs.helpers import challenge_and_accept, dm_message, dm_turn, hand_in, setup_members

NOT_SAVED = "Your move was not saved; nothing changed. Try again."
UNCONFIRMED = "I couldn't confirm whether your move was saved; check /schotten board in a minute."
GENERIC = "Something went wrong on my side"


class FaultyCommits:
    """Faults in the next move's commit (the next transaction that saves a game state):

    - ``"after"``: the COMMIT is durable, then the caller sees the connection drop (the
      acknowledgement lost), optionally running ``after_commit`` first;
    - ``"before"``: the connection drops before the COMMIT (nothing stored);
    - ``"down"``: as ``"after"``, and every transaction after it fails too (the
      database stays unreachable)."""

    def __init__(self, db: Storage) -> None:
        self.db = db
        self.mode: str | None = None
        self.after_commit: Callable[[], Any] | None = None
        self.down = False
        self.failed = 0
        self._saving: set[asyncio.Task[Any]] = set()
        self._transaction = db.transaction
        self._save = db.games.save_game_state
        db.transaction = self.transaction  # type: ignore[method-assign]
        db.games.save_game_state = self.save_game_state  # type: ignore[method-assign]

    def arm(self, mode: str) -> None:
        self.mode = mode

    async def save_game_state(self, *args: Any, **kwargs: Any) -> None:
        await self._save(*args, **kwargs)
        if self.mode == "before":
            self.mode = None
            self.failed += 1
            raise ConnectionResetError("connection lost before the COMMIT")
        if self.mode is not None:
            self._saving.add(asyncio.current_task())  # type: ignore[arg-type]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Repositories]:
        if self.down:
            raise ConnectionRefusedError("the database is unreachable")
        task = asyncio.current_task()
        try:
            async with self._transaction() as tx:
                yield tx
        except BaseException:
            self._saving.discard(task)  # type: ignore[arg-type]
            raise
        if task in self._saving:  # committed: now lose the acknowledgement
            self._saving.discard(task)  # type: ignore[arg-type]
            if self.after_commit is not None:
                await self.after_commit()
            self.down = self.mode == "down"
            self.mode = None
            self.failed += 1
            raise ConnectionResetError("connection lost after the COMMIT")


def reply(result: Any) -> str:
    return result.followups[0].content if result.followups else result.response.content


async def to_move(bot: SchottenBot, channel: Any, members: tuple[Any, Any], game_id: int) -> tuple[Any, Any]:
    record = await bot.service.get(game_id)
    mover = members[0] if record.current_user == members[0].id else members[1]
    return mover, record


async def test_a_move_whose_commit_acknowledgement_was_lost_is_reported_as_made(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, members = setup_members(env)
    game_id = await challenge_and_accept(env, channel, *members)
    mover, before = await to_move(bot, channel, members, game_id)
    hand = hand_in(dm_message(mover, game_id).content)
    faults = FaultyCommits(bot.db)
    faults.arm("after")
    played = await mover.slash(channel, "schotten play", card=hand[0], stone=4)
    await env.settle()
    assert faults.failed == 1
    text = reply(played)
    assert played.ephemeral
    assert GENERIC not in text and NOT_SAVED not in text
    # The reply is the mover's new hand: the card is played, the drawn one is in it.
    after = await bot.service.reload(game_id)
    assert after.version > before.version
    new_hand = hand_in(text)
    assert hand[0] not in new_hand
    assert sorted(new_hand) == sorted(str(c) for c in after.game.hand(after.require_player(mover.id)))
    # The table shows it too, and nothing is left owed in the outbox.
    assert hand[0] in channel.last_message.content or any(hand[0] in m.content for m in channel.history())
    far = bot.delivery.clock() + 10_000
    assert await bot.db.delivery.pending_outbox(now=far, created_before=far, max_attempts=99) == []


async def test_a_move_whose_commit_failed_is_reported_as_not_saved(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, members = setup_members(env)
    game_id = await challenge_and_accept(env, channel, *members)
    mover, before = await to_move(bot, channel, members, game_id)
    hand = hand_in(dm_message(mover, game_id).content)
    faults = FaultyCommits(bot.db)
    faults.arm("before")
    played = await mover.slash(channel, "schotten play", card=hand[0], stone=4)
    assert faults.failed == 1
    assert reply(played) == NOT_SAVED
    assert (await bot.service.reload(game_id)).version == before.version
    # Trying again works.
    again = await mover.slash(channel, "schotten play", card=hand[0], stone=4)
    assert hand[0] not in hand_in(reply(again))
    assert (await bot.service.get(game_id)).version > before.version


async def test_a_move_that_cannot_be_read_back_is_reported_as_unknown(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, members = setup_members(env)
    game_id = await challenge_and_accept(env, channel, *members)
    mover, before = await to_move(bot, channel, members, game_id)
    hand = hand_in(dm_message(mover, game_id).content)
    bot.service.confirm_delays = (0.0, 0.01, 0.01)
    faults = FaultyCommits(bot.db)
    faults.arm("down")
    played = await mover.slash(channel, "schotten play", card=hand[0], stone=4)
    text = reply(played)
    assert text == UNCONFIRMED  # neither "made" nor "nothing was changed"
    faults.down = False
    assert (await bot.service.reload(game_id)).version > before.version  # it was, in fact


# ---------------------------------------------------------------- the AI's turn


@pytest_asyncio.fixture
async def practice_bot() -> AsyncIterator[SchottenBot]:
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-ai")
    bot = create_bot(database=":memory:", ai_executor=pool)
    yield bot
    await bot.close()
    pool.shutdown(wait=True, cancel_futures=True)


async def test_an_ai_turn_that_failed_is_restarted_by_the_timers(practice_bot):
    bot = practice_bot
    async with simcord.run(bot) as env:
        _, channel, (alice,) = setup_members(env, ("alice",))
        result = await alice.slash(channel, "schotten practice", difficulty="easy")
        game_id = int(re.search(r"Game #(\d+)", reply(result)).group(1))  # type: ignore[union-attr]
        await env.settle()
        assert (await bot.service.get(game_id)).current_user == alice.id
        # Alice moves; the AI's commit then fails (the database dropped the connection
        # before its COMMIT): its turn task ends and the game waits on the AI.
        faults = FaultyCommits(bot.db)
        original = faults.save_game_state
        calls = 0

        async def second_save_fails(*args: Any, **kwargs: Any) -> None:
            nonlocal calls
            calls += 1
            if calls == 2:
                faults.arm("before")
            await original(*args, **kwargs)

        bot.db.games.save_game_state = second_save_fails  # type: ignore[method-assign]
        await dm_turn(alice, random.Random(1))
        await env.settle()
        await bot.opponent.wait_idle()
        assert faults.failed == 1
        stuck = await bot.service.reload(game_id)
        assert stuck.ai_to_move and not bot.opponent.is_running(game_id)
        # A round of the timers that soon leaves it alone (the AI may still be thinking
        # in another process); one later restarts it.
        timers = bot.get_cog("Timers")
        await timers.run_once()  # type: ignore[union-attr]
        assert not bot.opponent.is_running(game_id)
        await env.advance_time(max(STALLED_AFTER, INTERVAL) + 1)
        await timers.run_once()  # type: ignore[union-attr]
        await bot.opponent.wait_idle()
        await env.settle()
        moved = await bot.service.reload(game_id)
        assert moved.version > stuck.version
        assert moved.game.is_over or moved.current_user == alice.id


# ---------------------------------------------------------------- PostgreSQL


async def test_postgres_killed_after_the_commit(postgres_database):
    """The move's connection is terminated by the server right after its COMMIT: the
    pool's connection is dead, the read-back retries on a new one, the member is told
    the move was made."""
    bot = create_bot(database=postgres_database)
    try:
        async with simcord.run(bot) as env:
            _, channel, members = setup_members(env)
            game_id = await challenge_and_accept(env, channel, *members)
            mover, before = await to_move(bot, channel, members, game_id)
            hand = hand_in(dm_message(mover, game_id).content)
            faults = FaultyCommits(bot.db)
            pids: list[int] = []
            save = faults._save

            async def note_pid(*args: Any, **kwargs: Any) -> None:
                pids.append(await bot.db.value("SELECT pg_backend_pid()"))  # the move's connection
                await save(*args, **kwargs)

            faults._save = note_pid  # type: ignore[method-assign]

            async def kill() -> None:
                killer = await asyncpg.connect(postgres_database)
                try:
                    assert await killer.fetchval("SELECT pg_terminate_backend($1)", pids[-1])
                finally:
                    await killer.close()

            faults.after_commit = kill
            faults.arm("after")
            played = await mover.slash(channel, "schotten play", card=hand[0], stone=4)
            await env.settle()
            assert faults.failed == 1
            text = reply(played)
            assert GENERIC not in text and NOT_SAVED not in text
            after = await bot.service.reload(game_id)
            assert after.version > before.version
            assert sorted(hand_in(text)) == sorted(
                str(c) for c in after.game.hand(after.require_player(mover.id))
            )
    finally:
        await bot.close()

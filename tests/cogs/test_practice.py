"""Practice games against the bot's AI, through simcord.

The AI runs in a ``ThreadPoolExecutor`` injected through ``create_bot`` (simcord waits
for executor work when it settles); one test runs the production process pool.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest
import pytest_asyncio
import simcord
from simcord.builders import UserHandle

from bot.app import SchottenBot, create_bot
from bot.games.opponent import Opponent
from bot.games.service import GameService
from bot.settings import Settings
from bot.storage import Database
from rules.game import GameOptions
from tests.cogs.helpers import cards_in, dm_message, dm_turn, hand_in, setup_members
from tests.cogs.test_full_game import public_text

MAX_TURNS = 400


@pytest.fixture
def pool() -> Any:
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-ai")
    yield executor
    executor.shutdown(wait=True, cancel_futures=True)


@pytest_asyncio.fixture
async def simcord_bot(pool: ThreadPoolExecutor) -> AsyncIterator[SchottenBot]:
    bot = create_bot(database=":memory:", ai_executor=pool)
    yield bot
    await bot.opponent.close()
    await bot.db.close()


def bot_user(env: simcord.Env) -> UserHandle:
    return UserHandle(env, env.backend.bot_user)


def game_id_in(text: str) -> int:
    return int(re.search(r"Game #(\d+)", text).group(1))  # type: ignore[union-attr]


def reply(result: Any) -> str:
    """The text of a deferred reply (the response, or its first follow-up)."""
    return result.followups[0].content if result.followups else result.response.content


async def play_against_ai(bot: Any, member: Any, channel: Any, game_id: int, rng: random.Random) -> Any:
    """The member plays through their DM until the game ends; the AI answers by itself.
    After each of the member's turns it is their turn again (or the game is over)."""
    for _ in range(MAX_TURNS):
        record = await bot.service.get(game_id)
        if record.game.is_over:
            return record
        assert record.current_user == member.id, "the AI did not finish its turn"
        await dm_turn(member, rng)
        record = await bot.service.get(game_id)
        secret = {str(c) for p in (0, 1) for c in record.game.hand(p)}
        if channel is not None:
            assert not secret & cards_in(public_text(channel))
        if not record.game.is_over:
            # The DM shows the member's own hand, after the AI's reply.
            assert sorted(hand_in(dm_message(member).content)) == sorted(str(c) for c in record.game.hand(0))
    raise AssertionError("game did not end")


async def test_practice_game_end_to_end(simcord_env, simcord_bot, caplog):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice,) = setup_members(env, ("alice",))
    result = await alice.slash(channel, "schotten practice", difficulty="easy")
    assert not result.ephemeral
    game_id = game_id_in(reply(result))
    record = await bot.service.get(game_id)
    assert record.players == (alice.id, env.backend.bot_user.id)
    assert record.vs_ai and record.ai_player == 1 and record.ai_level == "easy"
    # Whoever the seed made first, it is alice's turn once the bot has settled.
    assert record.current_user == alice.id
    with caplog.at_level(logging.INFO):
        record = await play_against_ai(bot, alice, channel, game_id, random.Random(5))
    assert record.game.is_over
    assert f"Game #{game_id} is over" in channel.last_message.content
    # The AI moved through the service like a person (its moves are in the log) ...
    moves = await bot.db.games.moves(game_id)
    assert {m.player for m in moves} == {0, 1}
    # ... and the bot never sent itself a DM.
    opened = [r.json for r in env.http_requests if r.method == "POST" and r.path == "/users/@me/channels"]
    assert opened and all(str(data["recipient_id"]) != str(bot.user.id) for data in opened)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_challenging_the_bot_starts_a_practice_game(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, channel, (alice,) = setup_members(env, ("alice",))
    result = await alice.slash(channel, "schotten challenge", opponent=bot_user(env))
    text = reply(result)
    assert "practice game against me" in text
    game_id = game_id_in(text)
    record = await bot.service.get(game_id)
    assert record.vs_ai and record.ai_level == "medium"
    assert record.current_user == alice.id
    # A second one in the same channel is refused while the first is on.
    again = await alice.slash(channel, "schotten practice")
    assert again.ephemeral and f"game #{game_id}" in again.response.content


async def test_other_bots_still_cannot_be_challenged(simcord_env, simcord_bot):
    env = simcord_env
    guild, channel, (alice,) = setup_members(env, ("alice",))
    robot = guild.add_member(env.create_user("robot", bot=True))
    result = await alice.slash(channel, "schotten challenge", opponent=robot)
    assert result.ephemeral and "bot" in result.response.content


async def test_practice_in_the_bots_dm(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    _, _, (alice,) = setup_members(env, ("alice",))
    result = await alice.user.slash("schotten practice", difficulty="random")
    text = reply(result)
    game_id = game_id_in(text)
    record = await bot.service.get(game_id)
    assert record.channel_id is None and record.guild_id is None
    record = await play_against_ai(bot, alice, None, game_id, random.Random(2))
    assert record.game.is_over


async def test_ai_turn_resumes_after_a_restart(tmp_path, pool):
    path = tmp_path / "games.sqlite"
    first = create_bot(database=path, ai_executor=pool)
    second = create_bot(database=path, ai_executor=pool)
    try:
        async with simcord.run(first) as env:
            _, channel, (alice,) = setup_members(env, ("alice",))
            result = await alice.slash(channel, "schotten practice", difficulty="easy")
            game_id = game_id_in(reply(result))
            # The process "stops" right after alice's move, before the AI answers.
            await first.opponent.close()
            await dm_turn(alice, random.Random(1))
            waiting = await first.service.get(game_id)
            assert waiting.ai_to_move
            assert waiting.deadline is None  # the AI never runs out of time

            await env.restart_bot(second)
            await env.settle()
            record = await second.service.get(game_id)
            assert record.version > waiting.version
            assert record.game.is_over or record.current_user == alice.id
            # alice's DM was updated by the new process with the AI's move.
            assert sorted(hand_in(dm_message(alice).content)) == sorted(str(c) for c in record.game.hand(0))
    finally:
        for bot in (first, second):
            await bot.opponent.close()
            await bot.db.close()


async def test_timers_never_forfeit_the_ai(pool):
    settings = Settings(turn_timeout=60, turn_reminder=30)
    bot = create_bot(database=":memory:", ai_executor=pool, settings=settings)
    try:
        async with simcord.run(bot) as env:
            _, channel, (alice,) = setup_members(env, ("alice",))
            result = await alice.slash(channel, "schotten practice", difficulty="easy")
            game_id = game_id_in(reply(result))
            await bot.opponent.close()  # the AI "hangs" on its turn
            await dm_turn(alice, random.Random(3))
            assert (await bot.service.get(game_id)).ai_to_move
            await env.advance_time(600)
            record = await bot.service.get(game_id)
            assert record.is_active and record.ai_to_move
            assert "did not move in time" not in public_text(channel)
            assert "it's your turn" not in public_text(channel)
    finally:
        await bot.db.close()


async def test_the_person_still_has_a_deadline_against_the_ai(pool):
    db = Database(":memory:")
    await db.connect()
    await db.migrate()
    try:
        service = GameService(db, clock=lambda: 1000.0, turn_timeout=60)
        for first in (0, 1):
            record = await service.create_game(
                guild_id=None,
                channel_id=None,
                players=(10, 11),
                options=GameOptions(),
                first_player=first,
                ai_player=1,
                ai_level="easy",
            )
            assert record.deadline == (1060.0 if first == 0 else None)
            stored = await db.games.get_game(record.id)
            assert stored is not None and (stored.ai_player, stored.ai_level) == (1, "easy")
    finally:
        await db.close()


async def test_process_pool_plays_whole_turns():
    """The production executor: the view pickles, the AI's turns run in a process."""
    db = Database(":memory:")
    await db.connect()
    await db.migrate()
    opponent = None
    try:
        service = GameService(db, turn_timeout=60)
        published: list[Any] = []

        async def publish(outcome: Any) -> None:
            published.append(outcome)
            opponent.notice(outcome.game)  # as the table does

        opponent = Opponent(service, workers=1, publish=publish)
        record = await service.create_game(
            guild_id=None,
            channel_id=None,
            players=(10, 11),
            options=GameOptions(),
            first_player=1,
            ai_player=1,
            ai_level="medium",
        )
        assert opponent.notice(record)
        await opponent.wait_idle()
        assert isinstance(opponent.executor, ProcessPoolExecutor)
        record = await service.get(record.id)
        assert record.current_player == 0 and record.version > 0
        assert published and all(o.applied[0].player == 1 for o in published)
    finally:
        if opponent is not None:
            await opponent.close()
        await db.close()


@pytest.mark.parametrize(
    "options",
    [GameOptions(tactics=True), GameOptions(claim_timing="turn-start"), GameOptions(ruleset="battle-line")],
    ids=["tactics", "turn-start", "battle-line"],
)
async def test_ai_plays_whole_turns_in_every_variant(pool, options):
    """Draw choices, Scout, passes, claims at turn start: the AI always hands the turn back."""
    db = Database(":memory:")
    await db.connect()
    await db.migrate()
    opponent = None
    try:
        service = GameService(db, turn_timeout=60)

        async def publish(outcome: Any) -> None:
            opponent.notice(outcome.game)

        opponent = Opponent(service, executor=pool, publish=publish)
        for seed in range(2):
            record = await service.create_game(
                guild_id=None,
                channel_id=None,
                players=(10, 11),
                options=options,
                seed=seed,
                ai_player=1,
                ai_level="easy",
            )
            opponent.notice(record)
            rng = random.Random(seed)
            for _ in range(MAX_TURNS):
                await opponent.wait_idle()
                record = await service.get(record.id)
                if record.game.is_over:
                    break
                assert record.current_player == 0, "the AI did not finish its turn"
                move = rng.choice(record.game.legal_moves())
                outcome = await service.apply(record.id, 10, move, expected_version=record.version)
                await publish(outcome)
            assert record.game.is_over
    finally:
        if opponent is not None:
            await opponent.close()
        await db.close()


def test_ai_workers_setting_and_production_default():
    from bot.settings import SettingsError

    assert Settings.from_env({}, env_file=None).ai_workers == 1
    assert Settings.from_env({"AI_WORKERS": "3"}, env_file=None).ai_workers == 3
    with pytest.raises(SettingsError, match="AI_WORKERS"):
        Settings.from_env({"AI_WORKERS": "0"}, env_file=None)
    bot = create_bot(database=":memory:", settings=Settings(ai_workers=2))
    executor = bot.opponent.executor  # created on first use, no process started yet
    try:
        assert isinstance(executor, ProcessPoolExecutor)
        assert executor._max_workers == 2
    finally:
        executor.shutdown(wait=True)


async def test_whole_bot_with_the_production_process_pool():
    """No executor injected: the AI's moves come from a spawned worker process."""
    bot = create_bot(database=":memory:")
    try:
        async with simcord.run(bot, settle_timeout=30.0) as env:
            _, channel, (alice,) = setup_members(env, ("alice",))
            result = await alice.slash(channel, "schotten practice", difficulty="easy")
            game_id = game_id_in(reply(result))
            rng = random.Random(4)
            for _ in range(4):
                record = await bot.service.get(game_id)
                assert record.current_user == alice.id
                await dm_turn(alice, rng)
            assert isinstance(bot.opponent.executor, ProcessPoolExecutor)
            assert {m.player for m in await bot.db.games.moves(game_id)} == {0, 1}
    finally:
        await bot.opponent.close()
        await bot.db.close()

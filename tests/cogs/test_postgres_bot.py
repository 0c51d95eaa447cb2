"""The whole bot on PostgreSQL: ``create_bot`` with a ``postgresql://`` URL (what
``DATABASE_URL`` gives), a challenge, a game to its end, the result and ratings."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from bot.app import SchottenBot, create_bot
from bot.storage import PostgresDatabase
from tests.cogs.helpers import challenge_and_accept, setup_members
from tests.cogs.test_full_game import LogTap, play_out


@pytest_asyncio.fixture
async def simcord_bot(postgres_database: str) -> AsyncIterator[SchottenBot]:
    bot = create_bot(database=postgres_database)
    yield bot
    await bot.close()


@pytest.fixture
def log_tap() -> Iterator[LogTap]:
    tap = LogTap()
    ours = [logging.getLogger(name) for name in ("bot", "cogs", "rules")]
    levels = [logger.level for logger in ours]
    logging.getLogger().addHandler(tap)
    for logger in ours:
        logger.setLevel(logging.DEBUG)
    yield tap
    logging.getLogger().removeHandler(tap)
    for logger, level in zip(ours, levels, strict=True):
        logger.setLevel(level)


async def test_a_full_game_on_postgresql(simcord_env, simcord_bot, log_tap) -> None:
    env, bot = simcord_env, simcord_bot
    assert isinstance(bot.db, PostgresDatabase)
    _, channel, (alice, bob) = setup_members(env)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    record = await play_out(
        env, bot, channel, (alice, bob), game_id, random.Random(11), log_tap, slash_for=(bob,)
    )
    assert record.game.is_over
    assert f"Game #{game_id} is over" in channel.last_message.content
    result = await bot.db.ratings.get_result(game_id)
    assert result is not None and result.moves == len(record.game.log)
    if result.winner_id is not None:
        rating = await bot.db.ratings.get_rating("global", result.winner_id)
        assert rating is not None and rating.wins == 1
    assert len(await bot.db.games.moves(game_id)) == len(record.game.log)

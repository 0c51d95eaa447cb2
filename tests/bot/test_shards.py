"""Shards: SHARD_COUNT and SHARD_IDS, and the bot that runs this process's shards."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot.app import SchottenBot, ShardedSchottenBot, create_bot
from bot.settings import Settings, SettingsError


def read(**env: str) -> Settings:
    """Settings of a process on PostgreSQL, where shards may be split between processes
    (the bots built here still get an in-memory database)."""
    return Settings.from_env({"DATABASE_URL": "postgresql://bot@db/schotten", **env}, env_file=None)


def test_unset_is_one_connection() -> None:
    settings = read()
    assert settings.shard_count is None and settings.shard_ids is None and not settings.sharded


def test_shard_count_and_ids() -> None:
    settings = read(SHARD_COUNT="4", SHARD_IDS="1, 3")
    assert settings.shard_count == 4 and settings.shard_ids == (1, 3)
    assert read(SHARD_COUNT="2").shard_ids is None  # all of them in this process


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to SHARD_COUNT - 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "twice"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "a"}, "SHARD_IDS='a' is not a whole number"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT=0 must be at least 1"),
    ],
)
def test_bad_shard_settings_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        read(**env)


async def test_the_bot_runs_its_shards() -> None:
    bot = create_bot(database=":memory:", settings=read(SHARD_COUNT="4", SHARD_IDS="1,3"))
    try:
        assert isinstance(bot, ShardedSchottenBot) and isinstance(bot, commands.AutoShardedBot)
        assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    finally:
        await bot.close()  # never started: discord.py's own sharded close() would fail


async def test_unsharded_bot_is_a_plain_bot() -> None:
    bot = create_bot(database=":memory:")
    try:
        assert type(bot) is SchottenBot and not isinstance(bot, commands.AutoShardedBot)
        assert bot.shard_count is None
    finally:
        await bot.close()


async def test_only_the_process_with_shard_0_syncs_the_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two processes starting together would otherwise both sync (neither has yet
    # recorded the sync when the other looks).
    synced: list[tuple[int, ...] | None] = []

    async def sync_commands(self: SchottenBot, *, force: bool = False) -> bool:
        synced.append(self.settings.shard_ids)
        return True

    monkeypatch.setattr(SchottenBot, "sync_commands", sync_commands)
    for env in ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, {"SHARD_COUNT": "2", "SHARD_IDS": "1"}, {}):
        bot = create_bot(database=":memory:", settings=read(**env), extensions=[])
        try:
            await bot.setup_hook()
        finally:
            await bot.close()
    assert synced == [(0,), None]

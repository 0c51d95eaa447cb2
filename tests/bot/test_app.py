"""create_bot under simcord: setup_hook, migrations, cogs, command sync."""

from __future__ import annotations

import asyncio
import logging
import textwrap
from pathlib import Path

import discord
import pytest
import simcord

from bot.app import COGS, SchottenBot, create_bot, discover_cogs
from bot.settings import Settings
from bot.storage import latest_version


def command_syncs(env: simcord.Env) -> list[str]:
    return [str(r.path) for r in env.http_requests if r.method == "PUT" and str(r.path).endswith("/commands")]


def add_command(bot: SchottenBot, name: str) -> None:
    @bot.tree.command(name=name, description=f"{name} test command")
    async def command(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(name)


async def test_creating_connects_to_nothing() -> None:
    bot = create_bot(database=":memory:")
    assert isinstance(bot, SchottenBot)
    assert not bot.db.is_open
    assert bot.service.db is bot.db
    assert bot.settings == Settings()
    assert not bot.intents.message_content and not bot.intents.members and not bot.intents.presences
    await bot.db.close()


SCHOTTEN_COMMANDS = {
    "board", "challenge", "claim", "draw", "export", "games", "hand", "hint", "history", "language",
    "leaderboard", "move", "pass", "play", "practice", "replay", "resign", "rules", "settings", "stats",
    "style", "tournament", "tournaments", "web",
}  # fmt: skip


async def test_real_bot_starts_with_every_cog(simcord_env: simcord.Env) -> None:
    bot = simcord_env.bot
    assert isinstance(bot, SchottenBot)
    assert bot.db.is_open and await bot.db.schema_version() == latest_version()
    assert sorted(bot.extensions) == sorted(COGS) and "cogs.schotten" in bot.extensions
    group = bot.tree.get_command("schotten")
    assert isinstance(group, discord.app_commands.Group)
    assert {command.name for command in group.commands} == SCHOTTEN_COMMANDS
    assert bot.get_cog("Errors") is not None and bot.get_cog("Timers") is not None
    assert command_syncs(simcord_env)  # a fresh database has never synced


async def test_sync_only_when_commands_change(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"

    async def start(*names: str, force: bool = False) -> list[str]:
        bot = create_bot(database=path, extensions=[], force_sync=force)
        for name in names:
            add_command(bot, name)
        try:
            async with simcord.run(bot) as env:
                assert await bot.db.schema_version() == latest_version()
                return command_syncs(env)
        finally:
            await bot.close()
            assert not bot.db.is_open

    assert len(await start("ping")) == 1  # first start
    assert await start("ping") == []  # unchanged: no sync on restart
    assert len(await start("ping", "pong")) == 1  # a new command
    assert await start("ping", "pong") == []
    assert len(await start("ping", "pong", force=True)) == 1  # asked for


async def test_development_guild_syncs_there(tmp_path: Path) -> None:
    bot = create_bot(database=":memory:", extensions=[], settings=Settings(dev_guild_id=4242))
    add_command(bot, "ping")
    try:
        async with simcord.run(bot) as env:
            syncs = command_syncs(env)
            assert len(syncs) == 1 and syncs[0].endswith("/guilds/4242/commands")
            guild = env.create_guild(id=4242)
            channel = guild.create_text_channel("general")
            alice = guild.add_member(env.create_user("alice"))
            assert "ping" in alice.available_commands(channel)
            result = await alice.slash(channel, "ping")
            assert result.response is not None and result.response.content == "ping"
    finally:
        await bot.close()


async def test_clearing_dev_guild_removes_its_commands(tmp_path: Path) -> None:
    # Started with DEV_GUILD_ID, then without it: the test server must not keep its
    # guild commands next to the global ones (Discord would list /ping twice there).
    path = tmp_path / "bot.db"
    dev = create_bot(database=path, extensions=[], settings=Settings(dev_guild_id=4242))
    add_command(dev, "ping")
    prod = create_bot(database=path, extensions=[], settings=Settings())
    add_command(prod, "ping")
    try:
        async with simcord.run(dev) as env:
            guild = discord.Object(id=4242)
            assert [c.name for c in await dev.tree.fetch_commands(guild=guild)] == ["ping"]
            await env.restart_bot(prod)
            await dev.close()
            assert [c.name for c in await prod.tree.fetch_commands()] == ["ping"]
            assert await prod.tree.fetch_commands(guild=guild) == []
            assert command_syncs(env)[-2:] == [
                f"/applications/{prod.application_id}/guilds/4242/commands",
                f"/applications/{prod.application_id}/commands",
            ]
            assert await prod.db.players.meta_keys("command_sync:") == ["command_sync:global"]
            # The next start has nothing left to clear: no request at all.
            before = len(command_syncs(env))
            assert not await prod.sync_commands()
            assert len(command_syncs(env)) == before
    finally:
        await dev.close()
        await prod.close()


async def test_a_dev_guild_the_bot_left_is_logged_and_forgotten(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bot.db"
    bot = create_bot(database=path, extensions=[], settings=Settings())
    add_command(bot, "ping")
    try:
        async with simcord.run(bot):
            await bot.db.players.set_meta("command_sync:777", "fingerprint")  # an earlier DEV_GUILD_ID

            async def refuse(guild: discord.abc.Snowflake | None = None) -> list:
                raise discord.Forbidden(FakeResponse(403), "Missing Access")

            bot.tree.sync = refuse  # type: ignore[method-assign]
            with caplog.at_level(logging.WARNING, logger="bot.app"):
                assert not await bot.clear_guild_commands(777, missing_ok=True)
            assert "clear-guild-commands 777" in caplog.text
            assert await bot.db.players.meta_keys("command_sync:777") == []
            with pytest.raises(discord.Forbidden):
                await bot.clear_guild_commands(777)
    finally:
        await bot.close()


class FakeResponse:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "refused"


async def test_no_sync_when_disabled() -> None:
    bot = create_bot(database=":memory:", extensions=[], sync_commands=False)
    try:
        async with simcord.run(bot) as env:
            assert command_syncs(env) == []
    finally:
        await bot.close()


async def test_failed_setup_closes_the_database() -> None:
    bot = create_bot(database=":memory:", extensions=["cogs.no_such_cog"])
    with pytest.raises(Exception, match="no_such_cog"):
        async with simcord.run(bot):
            pass
    assert not bot.db.is_open


def test_discover_cogs_finds_modules_with_setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "fakecogs"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "alpha.py").write_text("async def setup(bot):\n    pass\n")
    (package / "helpers.py").write_text("RAN = True\n")
    (package / "_private.py").write_text("async def setup(bot):\n    pass\n")
    (package / "beta.py").write_text(
        textwrap.dedent("""
        raise RuntimeError("discovery must not run a cog")
        def setup(bot):
            pass
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert discover_cogs("fakecogs") == ["fakecogs.alpha", "fakecogs.beta"]
    assert discover_cogs("no_such_package_here") == []


def test_cogs_are_discovered() -> None:
    # Read independently of discover_cogs: the files of cogs/ that define a setup.
    package = Path(__file__).resolve().parents[2] / "cogs"
    extensions = sorted(
        f"cogs.{path.stem}" for path in package.glob("*.py") if "\nasync def setup(" in path.read_text()
    )
    assert extensions == ["cogs.errors", "cogs.schotten"]
    assert discover_cogs() == COGS == extensions


async def test_leaving_after_a_signal_closes_the_database(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.storage")
    bot = create_bot(database=":memory:", extensions=[])
    await bot.db.connect()
    async with bot:
        closing = asyncio.create_task(bot.close())  # what python -m bot's signal handler does
        await asyncio.sleep(0)
    # discord.py's own __aexit__ would return before the database is closed, and
    # asyncio.run would then cancel the rest of the close.
    assert "Database :memory: closed" in caplog.text
    await closing

"""The bot: ``create_bot`` builds it; ``setup_hook`` brings it up.

Building the bot connects to nothing. When discord.py logs in it calls ``setup_hook``,
which opens the database, applies the migrations, loads the cogs, lets them register
their persistent components and syncs the application commands if their definition
changed since the last sync. ``close`` closes the database after Discord.
"""

from __future__ import annotations

import ast
import asyncio
import gc
import hashlib
import importlib.util
import json
import logging
import os
import pkgutil
from collections.abc import Iterable
from concurrent.futures import Executor
from pathlib import Path
from types import TracebackType

import discord
from discord.ext import commands

from bot.opponent import Opponent
from bot.service import GameService
from bot.settings import Settings
from bot.stats import install as install_stats
from bot.storage import open_database
from rules.claims import prepare
from rules.rulesets import RULESETS

log = logging.getLogger(__name__)

COGS_PACKAGE = "cogs"


def _has_setup(module_name: str) -> bool:
    """Whether a module defines a top-level ``setup``, found without running it:
    discord.py executes an extension itself, and a helper module must not run twice."""
    try:
        spec = importlib.util.find_spec(module_name)
    except ImportError:
        return False
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return False
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"), filename=spec.origin)
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "setup"
        for node in tree.body
    )


def discover_cogs(package: str = COGS_PACKAGE) -> list[str]:
    """Every module of ``package`` that defines ``setup``: adding a cog needs no edit here."""
    try:
        spec = importlib.util.find_spec(package)
    except ImportError:
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    names = sorted(
        f"{package}.{info.name}"
        for info in pkgutil.iter_modules(spec.submodule_search_locations)
        if not info.name.startswith("_")
    )
    return [name for name in names if _has_setup(name)]


COGS: list[str] = discover_cogs()


def _utc_timestamp() -> float:
    # discord.utils.utcnow, not time.time: simcord's virtual clock drives it in tests.
    return discord.utils.utcnow().timestamp()


def _prepare_engine() -> None:
    for ruleset in RULESETS.values():
        prepare(ruleset)


class SchottenBot(commands.Bot):
    """``bot.db``, ``bot.service`` and ``bot.settings`` are what the cogs use."""

    def __init__(
        self,
        *,
        database: str | os.PathLike[str],
        settings: Settings,
        sync_commands: bool,
        force_sync: bool,
        extensions: Iterable[str],
        intents: discord.Intents,
        ai_executor: Executor | None = None,
    ) -> None:
        # Slash commands only: the prefix is a mention, so no message content intent.
        # No message cache: the bot edits its messages by id (partial messages), and a
        # cache of 1,000 boards only slows every edit event and every garbage collection.
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, max_messages=None
        )
        self.settings = settings
        self.db = open_database(database)  # SQLite, or PostgreSQL for a postgresql:// URL
        self.service = GameService(self.db, clock=_utc_timestamp, turn_timeout=settings.turn_timeout)
        install_stats(self.service)  # ratings and matches, in the result's transaction
        # The AI's seat in practice games; its moves are computed in worker processes.
        self.opponent = Opponent(self.service, workers=settings.ai_workers, executor=ai_executor)
        self.sync_on_start = sync_commands
        self.force_sync = force_sync
        # Set by `python -m bot` (one bot per process), not by tests that build many.
        self.freeze_startup_objects = False
        self.initial_extensions = list(extensions)

    async def setup_hook(self) -> None:
        await self.db.connect()
        try:
            # The engine's proof tables take a few hundred ms to build; do it now, in a
            # thread, rather than inside the first claim a player makes.
            await asyncio.to_thread(_prepare_engine)
            version = await self.db.migrate()
            log.info("Database %s at schema version %d", self.db.path, version)
            for extension in self.initial_extensions:
                await self.load_extension(extension)
            self.register_persistent_components()
            if self.sync_on_start:
                await self.sync_commands(force=self.force_sync)
            if self.freeze_startup_objects:
                # Everything alive now lives until exit (modules, the engine's proof
                # tables, cogs). Left in the collector, each full collection walks it
                # again: 150-250 ms pauses of the event loop in bench/discord_moves.py.
                gc.collect()
                gc.freeze()
        except BaseException:
            await self.db.close()  # its worker thread would keep the process alive
            raise

    def register_persistent_components(self) -> None:
        """Called once the cogs are loaded, before the gateway connects.

        Components must be registered before the first interaction arrives so that
        buttons of messages sent before a restart keep working. The cogs do it in their
        own ``setup`` with ``bot.add_dynamic_items(...)``; override this to register
        anything that is not a cog's.
        """
        log.debug("Persistent views registered: %d", len(self.persistent_views))

    # -- command sync ----------------------------------------------------------------

    def _sync_target(self) -> discord.Object | None:
        guild_id = self.settings.dev_guild_id
        return None if guild_id is None else discord.Object(id=guild_id)

    def command_fingerprint(self) -> str:
        """A hash of what a sync would send (the commands, their target and the app)."""
        guild = self._sync_target()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = {
            "application": self.application_id,
            "guild": None if guild is None else guild.id,
            "commands": sorted(
                (command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)),
                key=lambda data: (data.get("type", 1), data["name"]),
            ),
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the application commands unless they are as last synced; True if synced.

        With ``DEV_GUILD_ID`` they go to that server only, where they appear at once
        (global commands can take up to an hour to reach every client).
        """
        guild = self._sync_target()
        key = f"command_sync:{'global' if guild is None else guild.id}"
        fingerprint = self.command_fingerprint()
        if not force and await self.db.get_meta(key) == fingerprint:
            log.info("Application commands unchanged since the last sync; not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.db.set_meta(key, fingerprint)
        where = "globally" if guild is None else f"to guild {guild.id}"
        log.info("Synced %d application command(s) %s", len(synced), where)
        return True

    async def close(self) -> None:
        try:
            await self.opponent.close()
            await super().close()
        finally:
            await self.db.close()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        # When close() is already running (a signal handler called it), discord.py's
        # __aexit__ waits only for its own part of it, and asyncio.run would then cancel
        # the rest. Finish ours here: close() again is safe and waits for the database.
        await super().__aexit__(exc_type, exc_value, traceback)
        await self.close()


def create_bot(
    *,
    database: str | os.PathLike[str],
    sync_commands: bool = True,
    settings: Settings | None = None,
    intents: discord.Intents | None = None,
    force_sync: bool = False,
    extensions: Iterable[str] | None = None,
    ai_executor: Executor | None = None,
) -> SchottenBot:
    """Build the bot; connects to nothing until it is started.

    ``database`` is a SQLite file path, ``":memory:"`` or a ``postgresql://`` URL.
    ``sync_commands`` False never syncs; ``force_sync`` syncs even when the commands
    look unchanged. ``extensions`` defaults to ``COGS``, every module of ``cogs/`` with
    a ``setup``. ``settings`` default to the
    built-in defaults (not the environment: tests must not depend on it).
    ``ai_executor`` computes the AI's moves; None: a process pool of ``AI_WORKERS``
    processes (tests may pass a ``ThreadPoolExecutor``, which the bot does not shut down).
    """
    return SchottenBot(
        database=database,
        settings=settings or Settings(),
        sync_commands=sync_commands,
        force_sync=force_sync,
        extensions=COGS if extensions is None else extensions,
        intents=intents or discord.Intents.default(),
        ai_executor=ai_executor,
    )

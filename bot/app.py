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
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import metrics
from bot.archive.history import History
from bot.community.languages import Languages
from bot.community.names import NameBook
from bot.community.preferences import Preferences
from bot.community.presence import Presence
from bot.community.stats import Rankings
from bot.community.stats import install as install_stats
from bot.community.styles import Styles
from bot.community.tournaments import TournamentService
from bot.games.challenges import ChallengeService
from bot.games.delivery import Delivery
from bot.games.matches import MatchService
from bot.games.opponent import Opponent
from bot.games.service import GameService
from bot.pictures.cache import PictureCache
from bot.settings import Settings, web_port_error
from bot.storage import open_database
from bot.text import i18n
from bot.web.companion import WebCompanion
from bot.web.health import Operations
from bot.web.operator import OperatorServer
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


def prepare_engine() -> None:
    """Build what the engine and the catalogues would otherwise build at their first
    use, on the event loop: the claim proofs' tables of every ruleset, the parsed
    translations. Called from a thread at start-up."""
    for ruleset in RULESETS.values():
        prepare(ruleset)
    for language in i18n.LANGUAGES:  # parse the catalogues here, not in the first reply
        i18n.catalogue(language)


class SchottenTree(app_commands.CommandTree["SchottenBot"]):
    """Every command and autocomplete first sets the language of its answers, without
    ever waiting long for the database (:meth:`Languages.enter_quickly`)."""

    async def interaction_check(self, interaction: discord.Interaction[SchottenBot], /) -> bool:
        await self.client.enter(interaction)
        return True


class SchottenBot(commands.Bot):
    """The bot and its services: the cogs reach stored state only through ``service``
    (games and moves), ``challenges``, ``matches``, ``tournaments``, ``rankings``, ``history`` and
    ``delivery``;
    ``names`` knows display names, ``languages``, ``styles`` and ``preferences`` what
    members and servers chose, ``presence`` who is at the table, ``pictures`` draws
    boards and hands, and ``opponent`` plays the AI's seat. ``db`` is theirs, not the
    cogs'."""

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
        web: bool = False,
    ) -> None:
        # Slash commands only: the prefix is a mention, so no message content intent.
        # No message cache: the bot edits its messages by id (partial messages), and a
        # cache of 1,000 boards only slows every edit event and every garbage collection.
        # Nothing the bot sends pings anyone unless the call says whom (users only):
        # names and typed text are repeated in messages and must never ping.
        shards: dict[str, Any] = {}
        if settings.sharded:  # ShardedSchottenBot: this process runs these shards
            shards["shard_count"] = settings.shard_count
            if settings.shard_ids is not None:
                shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=SchottenTree,
            http_trace=metrics.rest_trace(),  # REST calls, rate-limit waits, acknowledgements
            **shards,
        )
        self.settings = settings
        # SQLite, or PostgreSQL for a postgresql:// URL; every call bounded by DATABASE_TIMEOUT.
        self.db = open_database(database, timeout=settings.database_timeout)
        # Each service gets the repositories it uses (and transactions, where it writes).
        self.service = GameService(
            self.db, clock=_utc_timestamp, turn_timeout=settings.turn_timeout, outbox=True
        )
        self.matches = MatchService(self.db.challenges, self.service)
        install_stats(self.service, self.matches)  # ratings and matches, in the result's transaction
        # Tournaments: a result decides its pairing in the same transaction (after the
        # match hook, which decides a knockout tie's match); the next round is paired after.
        self.tournaments = TournamentService(
            self.db,
            self.service,
            self.matches,
            clock=_utc_timestamp,
            turn_time=settings.turn_timeout,
            max_open=settings.max_open_tournaments,
        )
        self.service.result_hooks.append(self.tournaments.result_hook)
        self.challenges = ChallengeService(
            self.db,
            self.service,
            self.matches,
            clock=_utc_timestamp,
            timeout=settings.challenge_timeout,
            max_open=settings.max_open_challenges,
            max_channel=settings.max_channel_challenges,
            rechallenge_cooldown=settings.rechallenge_cooldown,
        )
        self.rankings = Rankings(self.db.ratings)
        self.history = History(self.db.games, self.db.ratings)  # finished games: history, replay, export
        self.delivery = Delivery(self.db.delivery, clock=_utc_timestamp)
        self.languages = Languages(self.db.players, clock=_utc_timestamp)
        self.styles = Styles(self.db.players, clock=_utc_timestamp)  # text or picture boards
        # /schotten settings: a member's turn pings, a server's threads; who is at the table.
        self.preferences = Preferences(self.db.players, clock=_utc_timestamp)
        self.presence = Presence(self.db.players, clock=_utc_timestamp)
        # The board and hand pictures, rendered in a thread, the latest ones kept.
        self.pictures = PictureCache()
        self.names = NameBook(self)
        # The AI's seat in practice games; its moves are computed in worker processes.
        # Shared fairly between members, with their practice games and hints limited.
        self.opponent = Opponent(
            self.service,
            workers=settings.ai_workers,
            executor=ai_executor,
            hints_per_minute=settings.hints_per_minute,
            max_games=settings.max_practice_games,
            clock=_utc_timestamp,
        )
        # /healthz, /readyz and /metrics (bot/web/health.py): with the web pages, or on
        # METRICS_PORT (``operator``) when that is set.
        self.operations = Operations(
            self.db,
            clock=_utc_timestamp,
            gateway=self.gateway_connected,
            scheduler=self.opponent.scheduler,
            outbox=True,
        )
        self.operator: OperatorServer | None = None
        if web and settings.metrics_port:
            self.operator = OperatorServer(self.operations, settings.metrics_host, settings.metrics_port)
        self.add_listener(self._count_interaction, "on_interaction")
        # The web pages (bot/web), in this process and event loop; None: off (WEB_PORT=0,
        # or a bot built without them, as tests do). Their links are signed once started.
        # WEB_PORT=0 with PUBLIC_URL set: no pages here, links to a `python -m bot web`.
        self.web: WebCompanion | None = None
        if web and settings.posts_links:
            self.web = WebCompanion(
                settings,
                self.db,
                history=self.history,
                rankings=self.rankings,
                names=self.names,
                operations=self.operations,
                mover=self.service,
                hinter=self.opponent,
                language=self.languages.for_user,
            )
        self.sync_on_start = sync_commands
        self.force_sync = force_sync
        # Set by `python -m bot` (one bot per process), not by tests that build many.
        self.freeze_startup_objects = False
        self.initial_extensions = list(extensions)

    async def enter(self, interaction: discord.Interaction[Any]) -> str:
        """An interaction arrived: set the language of its answers (the member's, as far
        as it is known within a few tenths of a second, else Discord's locale) and
        remember what Discord reported. Never raises, never waits long: the
        interaction's answer must not depend on the database."""
        guild_locale = interaction.guild_locale.value if interaction.guild_locale else None
        self.presence.seen(interaction.user.id)  # at the table: no ping needed (in the background)
        return await self.languages.enter_quickly(
            interaction.user.id, interaction.locale.value, interaction.guild_id, guild_locale
        )

    def gateway_connected(self) -> bool:
        """Whether the gateway connection is up (``/readyz``)."""
        if self.is_closed() or not self.is_ready():
            return False
        return self.ws is not None and self.ws.open

    async def _count_interaction(self, interaction: discord.Interaction[Any]) -> None:
        metrics.INTERACTIONS.labels(type=interaction.type.name).inc()

    async def setup_hook(self) -> None:
        await self.db.connect()
        try:
            if self.operator is not None:  # answers /healthz from now on
                await self.operator.start()
            # The engine's proof tables and the translations take a few hundred ms to
            # build; do it now, in a thread, rather than inside the first claim or reply.
            await asyncio.to_thread(prepare_engine)
            version = await self.db.migrate()
            log.info("Database %s at schema version %d", self.db.path, version)
            await self.db.check_writable()  # ReadOnlyDatabase: refuse to start
            await self.matches.load()
            if self.web is not None:
                await self.web.prepare()  # the links' key, before any cog posts a link
                if not self.settings.web_port:
                    log.info("Web pages served elsewhere (WEB_PORT=0; links: %s)", self.settings.public_url)
            # Each cog registers its persistent components (DynamicItems) in its setup,
            # before the gateway connects: buttons sent before a restart keep working.
            for extension in self.initial_extensions:
                await self.load_extension(extension)
            if self.sync_on_start and self.syncs_commands:
                await self.sync_commands(force=self.force_sync)
            elif self.sync_on_start:
                log.info("Application commands are synced by the process that runs shard 0")
            if self.freeze_startup_objects:
                # Everything alive now lives until exit (modules, the engine's proof
                # tables, cogs). Left in the collector, each full collection walks it
                # again: 150-250 ms pauses of the event loop in bench/discord_moves.py.
                gc.collect()
                gc.freeze()
            if self.web is not None and self.settings.web_port:
                try:
                    await self.web.start()
                except OSError as error:  # taken since `python -m bot` tried it: a setting
                    raise web_port_error(self.settings.web_host, self.settings.web_port, error) from None
                self.service.listeners.append(self.web.on_commit)
        except BaseException:
            if self.web is not None:
                await self.web.close()
            if self.operator is not None:
                await self.operator.close()
            await self.db.close()  # its worker thread would keep the process alive
            raise

    # -- command sync ----------------------------------------------------------------

    SYNC_KEY = "command_sync:"  # meta key prefix: the fingerprint last synced, per target

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs the commands at start: of several processes (shards)
        only the one that runs shard 0, so that processes starting together do not all
        sync (and one server's commands are never cleared and set at once)."""
        ids = self.settings.shard_ids
        return ids is None or 0 in ids

    def _sync_target(self) -> discord.Object | None:
        guild_id = self.settings.dev_guild_id
        return None if guild_id is None else discord.Object(id=guild_id)

    async def command_fingerprint(self) -> str:
        """A hash of what a sync would send (the commands with their translations, their
        target and the app): a changed translation is synced too."""
        guild = self._sync_target()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        commands_ = [
            await command.get_translated_payload(self.tree, translator)
            if translator is not None
            else command.to_dict(self.tree)
            for command in self.tree.get_commands(guild=guild)
        ]
        payload = {
            "application": self.application_id,
            "guild": None if guild is None else guild.id,
            "commands": sorted(commands_, key=lambda data: (data.get("type", 1), data["name"])),
        }
        return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the application commands unless they are as last synced; True if synced.

        With ``DEV_GUILD_ID`` they go to that server only, where they appear at once
        (global commands can take up to an hour to reach every client). Servers that got
        commands under an earlier ``DEV_GUILD_ID`` have them removed, else they would
        list every command twice once the global ones arrive.
        """
        guild = self._sync_target()
        # Each target synced is remembered as command_sync:<guild id or "global">.
        for key in await self.db.players.meta_keys(self.SYNC_KEY):
            earlier = key.removeprefix(self.SYNC_KEY)
            if earlier.isdigit() and (guild is None or int(earlier) != guild.id):
                await self.clear_guild_commands(int(earlier), missing_ok=True)
        key = f"{self.SYNC_KEY}{'global' if guild is None else guild.id}"
        fingerprint = await self.command_fingerprint()
        if not force and await self.db.players.get_meta(key) == fingerprint:
            log.info("Application commands unchanged since the last sync; not syncing")
            return False
        synced = await self.tree.sync(guild=guild)
        await self.db.players.set_meta(key, fingerprint)
        where = "globally" if guild is None else f"to guild {guild.id}"
        log.info("Synced %d application command(s) %s", len(synced), where)
        return True

    async def clear_guild_commands(self, guild_id: int, *, missing_ok: bool = False) -> bool:
        """Remove this application's commands from one server (``python -m bot
        clear-guild-commands ID``); True if done. ``missing_ok``: a server the bot can
        no longer reach is only logged (and forgotten), not an error."""
        guild = discord.Object(id=guild_id)
        self.tree.clear_commands(guild=guild)
        try:
            await self.tree.sync(guild=guild)
        except (discord.Forbidden, discord.NotFound) as error:
            if not missing_ok:
                raise
            log.warning(
                "Could not remove the application commands of guild %d (an earlier DEV_GUILD_ID): %s."
                " If the bot is back in that server, run: python -m bot clear-guild-commands %d",
                guild_id,
                error,
                guild_id,
            )
            await self.db.players.delete_meta(f"{self.SYNC_KEY}{guild_id}")
            return False
        await self.db.players.delete_meta(f"{self.SYNC_KEY}{guild_id}")
        log.info("Removed the application commands of guild %d", guild_id)
        return True

    async def close(self) -> None:
        try:
            if self.web is not None:
                await self.web.close()
            if self.operator is not None:
                await self.operator.close()
            await self.opponent.close()
            await self._close_discord()
        finally:
            self.pictures.close()
            await self.presence.written()  # who was seen last, before the database closes
            await self.db.close()

    async def _close_discord(self) -> None:
        """discord.py's part of ``close``: the extensions, the gateway, the HTTP client."""
        await super().close()

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


class ShardedSchottenBot(SchottenBot, commands.AutoShardedBot):
    """The bot with ``SHARD_COUNT`` (and ``SHARD_IDS``) set: discord.py's
    ``AutoShardedBot`` runs this process's shards, one gateway connection each. Any
    process may be handed any interaction of its shards (DMs come on shard 0); the
    database, not the process, keeps the games right."""

    def gateway_connected(self) -> bool:
        """Whether every shard of this process is connected (``/readyz``)."""
        if self.is_closed() or not self.is_ready():
            return False
        shards = self.shards
        return bool(shards) and all(not shard.is_closed() for shard in shards.values())

    async def _close_discord(self) -> None:
        if isinstance(self.loop, asyncio.AbstractEventLoop):
            await super()._close_discord()
        else:
            # Never started (discord.py sets ``loop`` when it logs in): its sharded
            # close() would fail on the shards' event queue, which only starting makes.
            # No gateway, extension or session to close; the HTTP client, to be sure.
            await self.http.close()


def create_bot(
    *,
    database: str | os.PathLike[str],
    sync_commands: bool = True,
    settings: Settings | None = None,
    intents: discord.Intents | None = None,
    force_sync: bool = False,
    extensions: Iterable[str] | None = None,
    ai_executor: Executor | None = None,
    web: bool = False,
) -> SchottenBot:
    """Build the bot; connects to nothing until it is started.

    ``database`` is a SQLite file path, ``":memory:"`` or a ``postgresql://`` URL.
    ``sync_commands`` False never syncs; ``force_sync`` syncs even when the commands
    look unchanged. ``extensions`` defaults to ``COGS``, every module of ``cogs/`` with
    a ``setup``. ``settings`` default to the
    built-in defaults (not the environment: tests must not depend on it).
    ``ai_executor`` computes the AI's moves; None: a process pool of ``AI_WORKERS``
    processes (tests may pass a ``ThreadPoolExecutor``, which the bot does not shut down).
    ``web``: serve the web pages (``bot/web``) on ``WEB_HOST``:``WEB_PORT`` unless that is 0;
    ``python -m bot`` sets it, tests that build many bots leave it off.
    """
    settings = settings or Settings()
    cls = ShardedSchottenBot if settings.sharded else SchottenBot
    return cls(
        database=database,
        settings=settings,
        sync_commands=sync_commands,
        force_sync=force_sync,
        extensions=COGS if extensions is None else extensions,
        intents=intents or discord.Intents.default(),
        ai_executor=ai_executor,
        web=web,
    )

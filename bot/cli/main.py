"""``python -m bot``: run the bot until SIGINT or SIGTERM.

Reads the settings from the environment and ``.env``, logs through discord.py's
logging set-up, and on a signal closes Discord and then the database, so that a
restart (systemd, Docker, Ctrl+C) never interrupts a move half-written. It opens the
database before it contacts Discord; with SQLite that locks the file: a second bot
process on the same file stops at once.

``python -m bot migrate-to-postgres --from schotten.db --to postgresql://...`` copies a
SQLite database into an empty PostgreSQL database (``bot/storage/transfer.py``);
``python -m bot check`` says what a start would do (``bot/cli/check.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import platform
import signal
import sqlite3
import sys
from pathlib import Path
from typing import TextIO

import aiohttp
import asyncpg
import discord

from bot.app import SchottenBot, create_bot
from bot.cli.logformat import JsonFormatter
from bot.settings import README_SECTION, PostgresUrl, Settings, SettingsError, try_web_port
from bot.storage import MigrationError, StorageError, backup
from bot.storage.transfer import sqlite_to_postgres
from bot.version import DISTRIBUTION, VERSION
from bot.web import standalone
from bot.web.standalone import login_retrying

log = logging.getLogger("bot")

MISSING_TOKEN = f"""\
error: DISCORD_TOKEN is not set.

The bot needs its Discord bot token. Put it in a .env file next to where you run the
bot (copy .env.example to .env and fill in DISCORD_TOKEN), or set the DISCORD_TOKEN
environment variable. How to create the application and get a token:
README.md, section "Set-up". Every setting: {README_SECTION}.
"""


LOG_FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"  # discord.py's, without colour


def configure_logging(level: int, stream: TextIO | None = None, *, json_lines: bool = False) -> None:
    """Log to ``stream`` (standard error) in discord.py's format, or one JSON object a
    line (``LOG_FORMAT=json``, ``bot/cli/logformat.py``).

    Colours only on a terminal: discord.py also colours whenever it detects Docker, and
    then a log file or the journal fills with escape codes.
    """
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    if json_lines:
        discord.utils.setup_logging(handler=handler, formatter=JsonFormatter(), level=level)
    elif stream.isatty():
        discord.utils.setup_logging(handler=handler, level=level)  # discord.py's colours
    else:
        formatter = logging.Formatter(LOG_FORMAT, "%Y-%m-%d %H:%M:%S", style="{")
        discord.utils.setup_logging(handler=handler, formatter=formatter, level=level)
    # At DEBUG these log request bodies, gateway payloads and SQL parameters, i.e. hands.
    for payload_logger in ("discord.http", "discord.gateway", "discord.webhook", "aiosqlite"):
        logging.getLogger(payload_logger).setLevel(max(level, logging.INFO))
    if level > logging.DEBUG:
        for retrying_logger in ("discord.client", "discord.shard"):
            logging.getLogger(retrying_logger).addFilter(_connection_failure_on_one_line)
    # The bot joins no voice channel, so it needs neither PyNaCl nor davey: without this,
    # the first Client warns on every start that voice will not be supported.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def start_logging(settings: Settings, what: str) -> None:
    """Configure the log as the settings say; its first line names the version."""
    configure_logging(settings.log_level_value, json_lines=settings.log_format == "json")
    log.info("%s %s starting %s (Python %s)", DISTRIBUTION, VERSION, what, platform.python_version())


_CONNECTION_ERRORS = (
    OSError,
    TimeoutError,
    aiohttp.ClientError,
    discord.ConnectionClosed,
    discord.GatewayNotFound,
    discord.HTTPException,
)


def _connection_failure_on_one_line(record: logging.LogRecord) -> bool:
    """discord.py logs each failed gateway connection with its traceback ("Attempting a
    reconnect", "Failed to connect for shard_id"), every few seconds while the network is
    down. A connection error is no bug: log it as a warning on one line (LOG_LEVEL=DEBUG
    keeps the traceback). Any other exception keeps its traceback."""
    if record.exc_info and isinstance(record.exc_info[1], _CONNECTION_ERRORS):
        error = record.exc_info[1]
        record.msg = f"{record.getMessage()}: {type(error).__name__}: {error}"
        record.args = None
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
    return True


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Schotten-Totten Discord bot.",
    )
    parser.add_argument("--version", action="version", version=f"{DISTRIBUTION} {VERSION}")
    parser.add_argument(
        "--env-file", default=".env", help="settings file read under the environment (default .env)"
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="sync the slash commands even if they look unchanged since last time",
    )
    commands = parser.add_subparsers(dest="command", title="instead of running the bot")
    # export parses its own options (``python -m bot export --help``): handed on whole.
    commands.add_parser(
        "export",
        help="write every finished game of a server as JSON lines (python -m bot export --help)",
        add_help=False,
    )
    commands.add_parser(
        "check",
        help="validate the settings, the web port and the database, say what a start would do",
        description="Validate the settings (the token is not sent to Discord), try the web "
        "pages' port, open the database read-only (nothing is created, migrated or locked; safe "
        "while the bot runs), report its schema version and what a start would do with it. Exit "
        "status as a start would stop: 2 for a setting (no token, a taken port), 1 for the database.",
    )
    backup_cmd = commands.add_parser(
        "backup",
        help="copy the database (DATABASE_PATH) to a new file; safe while the bot runs",
        description="Copy the database (DATABASE_PATH) to FILE with SQLite's online backup. "
        "Safe while the bot runs; FILE must not exist.",
    )
    backup_cmd.add_argument("file", help="the new backup file")
    commands.add_parser(
        "web",
        help="serve the web pages alone (beside bot processes on PostgreSQL); no Discord gateway",
        description='Serve the web pages (README.md, section "Web pages") without the bot: live '
        "games, replays and ladders of the database in DATABASE_URL (or DATABASE_PATH while no bot "
        "uses that file), on WEB_HOST:WEB_PORT. DISCORD_TOKEN is optional: with it, players' names "
        "are read from Discord.",
    )
    clear = commands.add_parser(
        "clear-guild-commands",
        help="remove the bot's slash commands from one server (e.g. an earlier DEV_GUILD_ID)",
        description="Remove the bot's slash commands from one server, e.g. a test server that "
        "got them through DEV_GUILD_ID. Needs DISCORD_TOKEN; does not start the bot.",
    )
    clear.add_argument("guild_id", type=int, metavar="SERVER_ID")
    move = commands.add_parser(
        "migrate-to-postgres",
        help="copy a SQLite database into an empty PostgreSQL database",
        description="Copy every table of a SQLite database into an empty PostgreSQL database, keeping "
        "the ids. Stop the bot first; the SQLite file is left as it is (keep it as a backup).",
    )
    move.add_argument(
        "--from", dest="source", metavar="PATH", help="the SQLite database file (default: DATABASE_PATH)"
    )
    move.add_argument(
        "--to",
        dest="target",
        metavar="URL",
        help="the PostgreSQL database, postgresql://... (default: DATABASE_URL)",
    )
    args, rest = parser.parse_known_args(argv)
    if args.command == "export":
        args.export_args = rest
    elif rest:
        parser.error("unrecognized arguments: " + " ".join(rest))
    return args


def backup_database(settings: Settings, target: str) -> int:
    if settings.database_url:
        print(
            "error: backup copies a SQLite database; for PostgreSQL (DATABASE_URL) use pg_dump.",
            file=sys.stderr,
        )
        return 2
    source = settings.database_path
    if source == ":memory:" or not Path(source).is_file():
        print(f"error: there is no database at {source} (DATABASE_PATH) to back up.", file=sys.stderr)
        return 1
    folder = Path(target).parent
    try:  # a fresh clone has no backups/ folder yet
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"error: cannot create the folder {folder} for the backup: {error.strerror}.", file=sys.stderr)
        return 1
    if Path(target).exists():
        print(f"error: {target} exists; give the backup a new name.", file=sys.stderr)
        return 1
    try:
        with contextlib.closing(sqlite3.connect(Path(source).resolve().as_uri() + "?mode=ro", uri=True)):
            pass  # the source opens (read-only): an error after this is the backup file's
    except sqlite3.Error as error:
        print(f"error: cannot read the database {source} (DATABASE_PATH): {error}.", file=sys.stderr)
        return 1
    try:
        backup(source, target)
    except (OSError, sqlite3.Error) as error:
        print(f"error: cannot write the backup {target}: {error}.", file=sys.stderr)
        return 1
    print(f"Backed up {settings.database_path} to {target}.")
    return 0


async def clear_guild_commands(settings: Settings, guild_id: int) -> None:
    """Log in (HTTP only, no gateway), remove the commands of one server, log out."""
    assert settings.token is not None
    bot = create_bot(database=settings.database, settings=settings, sync_commands=False, extensions=[])
    async with bot:
        await bot.login(settings.token)  # also runs setup_hook: opens the database
        await bot.clear_guild_commands(guild_id)


CLOSE_TIMEOUT = 5.0  # seconds a signal gives Discord's close before the start is cancelled


async def run(settings: Settings, *, force_sync: bool = False) -> None:
    """Run the bot until a signal or until it ends.

    A signal closes the bot, then cancels whatever ``start`` is still doing: discord.py
    keeps retrying a gateway it cannot reach (a sharded bot even after ``close``), so
    waiting for ``start`` to end by itself may never end.
    """
    assert settings.token is not None
    bot = create_bot(database=settings.database, settings=settings, force_sync=force_sync, web=True)
    bot.freeze_startup_objects = True
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()

    def stop(signum: int) -> None:
        log.info("Received %s; shutting down", signal.Signals(signum).name)
        stopping.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C still raises KeyboardInterrupt
            loop.add_signal_handler(signum, stop, signum)
    async with bot:  # closes the bot (and with it the database) however start() ends
        # The database first, before Discord: a wrong DATABASE_URL or DATABASE_PATH shows
        # without a working token, and a start that cannot use it does not log in.
        starting = asyncio.create_task(_open_then_start(bot, settings.token))
        signalled = asyncio.create_task(stopping.wait())
        await asyncio.wait({starting, signalled}, return_when=asyncio.FIRST_COMPLETED)
        if not stopping.is_set():
            signalled.cancel()
            starting.result()
        else:
            try:
                await asyncio.wait_for(asyncio.shield(bot.close()), CLOSE_TIMEOUT)
            except TimeoutError:
                log.warning("Closing Discord took over %.0f s; stopping anyway", CLOSE_TIMEOUT)
            starting.cancel()
            try:
                await starting
            except BaseException as error:  # stopping: what start was doing no longer matters
                if not isinstance(error, asyncio.CancelledError):
                    log.debug("Start ended with %r while stopping", error)
    log.info("Stopped")


async def _open_then_start(bot: SchottenBot, token: str) -> None:
    await bot.db.connect()
    await bot.db.migrate()
    await bot.db.check_writable()  # ReadOnlyDatabase: a start that could only fail later
    if bot.web is not None and bot.settings.web_port:  # a taken port before Discord, too
        try_web_port(bot.settings.web_host, bot.settings.web_port)
    # discord.py retries only once connected: the first login is tried again here.
    await login_retrying(bot, token)
    await _connect(bot)


async def _connect(bot: SchottenBot) -> None:
    """discord.py's ``connect``, started again while the first gateway connection fails:
    an unsharded client's own retry then breaks (an AttributeError on the websocket it
    never had), after waiting its backoff. A sharded one retries by itself."""
    delay = standalone.LOGIN_RETRY_FIRST
    while True:
        try:
            await bot.connect(reconnect=True)
            return
        except AttributeError:
            if bot.ws is not None or bot.is_closed():
                raise
        log.warning("Cannot reach Discord's gateway; trying again in %.0f s", delay)
        await asyncio.sleep(delay)
        delay = min(delay * 2, standalone.LOGIN_RETRY_MAX)


def migrate_to_postgres(settings: Settings, source: str | None, target_url: str | None) -> int:
    source = source or settings.database_path
    if target_url is None and settings.postgres is None:
        print(
            "error: give the PostgreSQL database as --to postgresql://... (or set DATABASE_URL).",
            file=sys.stderr,
        )
        return 2
    try:
        target = PostgresUrl.parse(target_url, "--to") if target_url else settings.postgres
    except SettingsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    assert target is not None
    if not Path(source).exists():
        print(f"error: {source} not found: give the SQLite database as --from PATH.", file=sys.stderr)
        return 1
    print(f"Copying {source} into {target.shown} ...")
    try:
        counts = asyncio.run(sqlite_to_postgres(source, target.url))
    except (StorageError, MigrationError, sqlite3.Error, asyncpg.PostgresError, OSError) as error:
        print(f"error: {target.mask(str(error))}", file=sys.stderr)
        return 1
    for table, count in sorted(counts.items()):
        print(f"  {table}: {count} rows")
    print(
        f"Done. Set DATABASE_URL={target.shown} (with its password) and start the bot; "
        f"keep {source} as a backup."
    )
    return 0


def serve_web(settings: Settings) -> int:
    """``python -m bot web``: the web pages alone, until SIGINT or SIGTERM."""
    if not settings.web_port:
        print("error: WEB_PORT is 0, which turns the web pages off.", file=sys.stderr)
        return 2
    start_logging(settings, "the web pages")
    for warning in settings.web_warnings():
        log.warning("%s", warning)
    try:
        asyncio.run(standalone.run(settings))
    except SettingsError as error:  # the port: WEB_PORT, WEB_HOST
        log.error("%s", error)
        return 2
    except (sqlite3.Error, asyncpg.PostgresError, MigrationError, StorageError, OSError) as error:
        log.error("Cannot use the database %s: %s", settings.database_shown, _masked(settings, error))
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def _masked(settings: Settings, error: BaseException) -> str:
    """An error's message without the password of ``DATABASE_URL``."""
    postgres = settings.postgres
    return str(error) if postgres is None else postgres.mask(str(error))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command == "export":
        from bot.cli import export  # only the operator's command needs it

        return export.main(["--env-file", args.env_file, *args.export_args])
    try:
        settings = Settings.from_env(env_file=args.env_file)
    except SettingsError as error:
        print(f"error: {error}\nSee {README_SECTION}.", file=sys.stderr)
        return 2
    if args.command == "check":
        from bot.cli.check import check

        return check(settings, sys.stdout)
    if args.command == "backup":
        return backup_database(settings, args.file)
    if args.command == "migrate-to-postgres":
        return migrate_to_postgres(settings, args.source, args.target)
    if args.command == "web":
        return serve_web(settings)
    if not settings.token:
        print(MISSING_TOKEN, file=sys.stderr, end="")
        return 2
    sqlite_file = settings.database_url is None and settings.database_path != ":memory:"
    if sqlite_file:
        try:  # a fresh install may name a data directory that does not exist yet
            Path(settings.database_path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"error: DATABASE_PATH={settings.database_path!r}: {error.strerror}.", file=sys.stderr)
            return 2
    start_logging(settings, "the bot" if args.command is None else args.command)
    if args.command is None:
        for warning in settings.web_warnings():
            log.warning("%s", warning)
    setting = "DATABASE_URL" if settings.database_url else "DATABASE_PATH"
    where = settings.database_shown
    try:
        if args.command == "clear-guild-commands":
            # Touches the bookkeeping of command syncs only: allowed beside a running bot.
            asyncio.run(clear_guild_commands(settings, args.guild_id))
        else:
            # run() opens the database (and with SQLite locks it: a second process on the
            # same file stops there) before it contacts Discord.
            asyncio.run(run(settings, force_sync=args.sync))
    except discord.LoginFailure:
        log.error("Discord refused DISCORD_TOKEN; check it (%s).", 'README.md, section "Set-up"')
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused a privileged intent; this bot needs none, so check the code's intents.")
        return 1
    except discord.HTTPException as error:  # clear-guild-commands: e.g. not in that server
        log.error("Discord refused: %s", error)
        return 1
    except SettingsError as error:  # the web pages' port, taken since it was tried
        log.error("%s", error)
        return 2
    except (sqlite3.Error, asyncpg.PostgresError, MigrationError, StorageError) as error:
        log.error("Cannot use the database %s (%s): %s", where, setting, _masked(settings, error))
        return 1
    except OSError as error:  # aiohttp's connection errors are OSErrors
        log.error("Cannot reach Discord: %s. The bot stops; a supervisor may restart it.", error)
        return 1
    except KeyboardInterrupt:  # only where signal handlers are unavailable
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

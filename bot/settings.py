"""Settings from the environment and an optional ``.env`` file.

The environment wins over ``.env``, so a deployment can override one value without
editing the file. ``os.environ`` is never modified. Every setting and its default is
listed in ``.env.example`` and in the README's "Configuration" section.
"""

from __future__ import annotations

import dataclasses
import errno
import ipaddress
import logging
import os
import re
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

from dotenv import dotenv_values

README_SECTION = 'README.md, section "Configuration"'


class SettingsError(ValueError):
    """A setting has a value we cannot use. The message names the variable."""


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
ENCODING_HINT = (
    "write it as postgresql://user:password@host:port/database, with each of : / ? # @ % and"
    " spaces in the user or password percent-encoded (# as %23, @ as %40, / as %2F, : as %3A,"
    " ? as %3F, % as %25), or leave the password out of the URL and set PGPASSWORD"
)


@dataclass(frozen=True)
class PostgresUrl:
    """A PostgreSQL URL (``DATABASE_URL``, ``--to``) parsed once: ``url`` to connect to,
    ``shown`` with its password as ``***`` for every message and log line."""

    url: str = field(repr=False)
    shown: str
    password: str | None = field(default=None, repr=False)  # percent-decoded

    @classmethod
    def parse(cls, text: str, name: str = "DATABASE_URL") -> PostgresUrl:
        """Refuse what the driver would read differently from what was meant (a password
        with an unencoded ``#``, ``@``, ``/`` or ``?``); the error names ``name`` and never
        repeats any part of ``text``: it may be the password."""
        if not text.startswith(POSTGRES_SCHEMES) and name == "DATABASE_URL":
            raise SettingsError(
                "DATABASE_URL must be a PostgreSQL URL, postgresql://user:password@host:port/database;"
                " leave it empty to use the SQLite file DATABASE_PATH."
            )
        if not text.startswith(POSTGRES_SCHEMES):
            raise SettingsError(
                f"give the PostgreSQL database as {name} postgresql://user:password@host/database."
            )

        def refuse(reason: str) -> SettingsError:
            return SettingsError(f"{name} is not a usable PostgreSQL URL: {reason}; {ENCODING_HINT}.")

        scheme, rest = text.split("://", 1)
        if "#" in rest:
            raise refuse("it holds a '#', which ends a URL")
        netloc = re.split(r"[/?]", rest, maxsplit=1)[0]
        after = rest[len(netloc) :]
        if "@" in after or netloc.count("@") > 1:
            raise refuse("it has an '@' where the host should be")
        userinfo, at, hosts = netloc.rpartition("@")
        if re.search(r"%(?![0-9A-Fa-f]{2})", userinfo):
            raise refuse("a '%' in the user or password is not followed by two hex digits")
        for host in hosts.split(","):  # host:port, [IPv6]:port, several separated by commas
            port = host.rsplit("]", 1)[-1].partition(":")[2]
            if port and not (port.isdigit() and 0 < int(port) <= 65535):
                raise refuse("the port after the host is not a number from 1 to 65535")
        user, colon, password = userinfo.partition(":")
        if not colon:
            return cls(url=text, shown=text)
        return cls(url=text, shown=f"{scheme}://{user}:***{at}{hosts}{after}", password=unquote(password))

    def mask(self, text: str) -> str:
        """``text`` (an error's message) without the password, encoded or not."""
        if not self.password:
            return text
        raw = self.url.split("://", 1)[1].rpartition("@")[0].partition(":")[2]
        for secret in sorted({self.password, raw}, key=len, reverse=True):
            text = text.replace(secret, "***")
        return text


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)  # never in logs
    database_path: str = "schotten.db"
    # postgresql://...: use PostgreSQL instead of the SQLite file (several processes).
    database_url: str | None = field(default=None, repr=False)  # may hold a password
    log_level: str = "INFO"
    # Seconds one database call may take before the bot gives up on it and answers
    # "the database is unreachable": below Discord's 3 s for an answer.
    database_timeout: float = 2.0
    dev_guild_id: int | None = None
    challenge_timeout: int = 600  # seconds an open challenge waits for an answer
    turn_timeout: int = 86400  # seconds a player has for a turn before forfeiting
    turn_reminder: int = 43200  # seconds into a turn when the player is reminded; 0: never
    ai_workers: int = 1  # processes that compute the AI's moves (/schotten practice)
    # Fair share: what one member may ask of the bot. 0: no limit.
    max_practice_games: int = 3  # practice games open at once per member
    hints_per_minute: int = 6  # new hint searches per member and minute (per process)
    max_open_challenges: int = 3  # open challenges per challenger
    max_channel_challenges: int = 10  # open challenges per channel
    rechallenge_cooldown: int = 300  # seconds before challenging the same member again
    max_open_tournaments: int = 5  # tournaments open for sign-up or running, per server
    # Discord shards: how many the bot has in all, and which this process runs (None:
    # all of them). Both unset: one connection, no sharding (one process).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # The web companion (bot/web, README "Web pages"): where it listens (port 0: off),
    # the address members reach it at (the links' base) and the links' signing key
    # (None: generated once and kept in the database).
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    public_url: str = "http://localhost:8080"  # unset: http://localhost:WEB_PORT
    web_secret: str | None = field(default=None, repr=False)  # signs every link
    # The Discord Activity (README "The table in Discord"): the application's id and its
    # OAuth2 secret (both set: the Activity is on), and Discord's API (tests only).
    discord_client_id: int | None = None
    discord_client_secret: str | None = field(default=None, repr=False)  # never in logs
    discord_api_base: str = "https://discord.com/api/v10"
    # Operations (README "Health and metrics"): the log's format ("text" or "json", one
    # object a line), and the operator port of /healthz, /readyz and /metrics (0: they
    # are served on the web pages' port, if that is on).
    log_format: str = "text"
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 0
    web_max_streams: int = 256  # open live pages (event streams) per process, from everyone
    # PUBLIC_URL was set: with WEB_PORT=0 the bot still posts links, to the pages that a
    # `python -m bot web` elsewhere serves (sharded deployments).
    public_url_given: bool = False

    @property
    def activity(self) -> bool:
        """The Discord Activity is configured: the application's id and secret are set."""
        return self.discord_client_id is not None and self.discord_client_secret is not None

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def database(self) -> str:
        """What ``open_database`` opens: ``DATABASE_URL`` if set, else ``DATABASE_PATH``."""
        return self.database_url or self.database_path

    @property
    def postgres(self) -> PostgresUrl | None:
        """``DATABASE_URL`` parsed (``from_env`` refused one that does not parse)."""
        return None if self.database_url is None else PostgresUrl.parse(self.database_url)

    @property
    def database_shown(self) -> str:
        """The database for messages and logs: ``DATABASE_URL`` without its password."""
        postgres = self.postgres
        return self.database_path if postgres is None else postgres.shown

    @property
    def posts_links(self) -> bool:
        """Whether the bot posts links to the web pages: it serves them (``WEB_PORT``), or
        ``PUBLIC_URL`` names where another process serves them."""
        return bool(self.web_port) or self.public_url_given

    def web_warnings(self) -> list[str]:
        """What makes the links the bot posts likely to lead nowhere, for the log."""
        if not self.posts_links:
            return []
        parts = urlsplit(self.public_url)
        warnings = []
        if _is_local(parts.hostname):
            warnings.append(
                f"PUBLIC_URL={self.public_url} names this machine: the links the bot posts open only"
                " in a browser on this machine. Set PUBLIC_URL to the address members open"
                ' (README.md, section "Web pages").'
            )
            port = parts.port  # a number: from_env refused any other
            if port is not None and self.web_port and port != self.web_port:
                warnings.append(
                    f"PUBLIC_URL={self.public_url} names port {port}, but the web pages listen on"
                    f" WEB_PORT={self.web_port}: its links lead nowhere unless something forwards"
                    f" {port} to {self.web_port}."
                )
        return warnings

    @property
    def log_level_value(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: str | os.PathLike[str] | None = ".env"
    ) -> Settings:
        """Read settings from ``environ`` (default ``os.environ``) over ``env_file``.

        A missing ``env_file`` is fine. Raises ``SettingsError`` for malformed values.
        A missing token is not an error here: ``python -m bot`` checks it, tests need none.
        """
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)

        def get(name: str) -> str | None:
            value = values.get(name, "").strip()
            return value or None

        level = (get("LOG_LEVEL") or cls.log_level).upper()
        if level not in logging.getLevelNamesMapping() or level == "NOTSET":
            raise SettingsError(
                f"LOG_LEVEL={values.get('LOG_LEVEL')!r} is not a log level;"
                " use DEBUG, INFO, WARNING or ERROR."
            )

        def seconds(name: str, default: int, minimum: int) -> int:
            value = _int(name, get(name), minimum=minimum)
            return default if value is None else value

        database_url = get("DATABASE_URL")
        if database_url is not None:
            PostgresUrl.parse(database_url)  # one clear line, never a traceback or the password
        settings = cls(
            token=get("DISCORD_TOKEN"),
            database_path=get("DATABASE_PATH") or cls.database_path,
            database_url=database_url,
            log_level=level,
            database_timeout=_seconds("DATABASE_TIMEOUT", get("DATABASE_TIMEOUT"), cls.database_timeout),
            dev_guild_id=_int("DEV_GUILD_ID", get("DEV_GUILD_ID"), minimum=1),
            challenge_timeout=seconds("CHALLENGE_TIMEOUT", cls.challenge_timeout, 1),
            turn_timeout=seconds("TURN_TIMEOUT", cls.turn_timeout, 1),
            turn_reminder=seconds("TURN_REMINDER", cls.turn_reminder, 0),
            ai_workers=seconds("AI_WORKERS", cls.ai_workers, 1),
            max_practice_games=seconds("MAX_PRACTICE_GAMES", cls.max_practice_games, 0),
            hints_per_minute=seconds("HINTS_PER_MINUTE", cls.hints_per_minute, 0),
            max_open_challenges=seconds("MAX_OPEN_CHALLENGES", cls.max_open_challenges, 0),
            max_channel_challenges=seconds("MAX_CHANNEL_CHALLENGES", cls.max_channel_challenges, 0),
            rechallenge_cooldown=seconds("RECHALLENGE_COOLDOWN", cls.rechallenge_cooldown, 0),
            max_open_tournaments=seconds("MAX_OPEN_TOURNAMENTS", cls.max_open_tournaments, 0),
        )
        web_port = _int("WEB_PORT", get("WEB_PORT"), minimum=0)
        if web_port is not None and web_port > 65535:
            raise SettingsError(f"WEB_PORT={web_port} must be at most 65535 (0 turns the web pages off).")
        # Unset: the pages on this machine, at the port they listen on.
        public_url = (get("PUBLIC_URL") or f"http://localhost:{web_port or cls.web_port}").rstrip("/")
        if not public_url.startswith(("http://", "https://")) or not _has_host_and_port(public_url):
            raise SettingsError(
                f"PUBLIC_URL={public_url!r} must start with http:// or https:// and a host"
                " (and a port number, if any), e.g. https://schotten.example.org"
            )
        web_secret = get("WEB_SECRET")
        if web_secret is not None and len(web_secret) < 16:
            raise SettingsError("WEB_SECRET must be at least 16 characters (or unset: generated once).")
        settings = dataclasses.replace(
            settings,
            web_host=get("WEB_HOST") or cls.web_host,
            web_port=cls.web_port if web_port is None else web_port,
            public_url=public_url,
            web_secret=web_secret,
            web_max_streams=seconds("WEB_MAX_STREAMS", cls.web_max_streams, 1),
            public_url_given=get("PUBLIC_URL") is not None,
            discord_client_id=_int("DISCORD_CLIENT_ID", get("DISCORD_CLIENT_ID"), minimum=1),
            discord_client_secret=get("DISCORD_CLIENT_SECRET"),
            discord_api_base=(get("DISCORD_API_BASE") or cls.discord_api_base).rstrip("/"),
        )
        shard_count = _int("SHARD_COUNT", get("SHARD_COUNT"), minimum=1)
        shard_ids = _shard_ids(get("SHARD_IDS"), shard_count)
        if shard_count is not None and shard_ids is not None and database_url is None:
            missing = sorted(set(range(shard_count)) - set(shard_ids))
            if missing:  # SQLite serves one process: no other process can run them
                raise SettingsError(
                    f"SHARD_IDS={get('SHARD_IDS')} leaves shard(s) {', '.join(map(str, missing))} of"
                    f" SHARD_COUNT={shard_count} to other processes, but the SQLite database"
                    " (DATABASE_PATH) serves one process: unset SHARD_IDS to run every shard here,"
                    " or set DATABASE_URL (PostgreSQL) for several processes."
                )
        settings = dataclasses.replace(settings, shard_count=shard_count, shard_ids=shard_ids)
        if get("TURN_REMINDER") is None and settings.turn_reminder >= settings.turn_timeout:
            # Only TURN_TIMEOUT was shortened: remind half-way rather than refuse to start.
            settings = dataclasses.replace(settings, turn_reminder=settings.turn_timeout // 2)
        if settings.turn_reminder >= settings.turn_timeout:
            raise SettingsError(
                f"TURN_REMINDER ({settings.turn_reminder}) must be less than TURN_TIMEOUT "
                f"({settings.turn_timeout}), or 0 for no reminder."
            )
        return _operations(settings, get)


LOG_FORMATS = ("text", "json")


def _operations(settings: Settings, get: Callable[[str], str | None]) -> Settings:
    """LOG_FORMAT, METRICS_HOST and METRICS_PORT."""
    log_format = (get("LOG_FORMAT") or settings.log_format).lower()
    if log_format not in LOG_FORMATS:
        raise SettingsError(
            f"LOG_FORMAT={get('LOG_FORMAT')!r} is not a log format;"
            " use text or json (one JSON object a line)."
        )
    metrics_port = _int("METRICS_PORT", get("METRICS_PORT"), minimum=0)
    if metrics_port is not None and metrics_port > 65535:
        raise SettingsError(f"METRICS_PORT={metrics_port} must be at most 65535 (0: no port of its own).")
    if metrics_port and metrics_port == settings.web_port:
        raise SettingsError(
            f"METRICS_PORT={metrics_port} is WEB_PORT too; give it another port, or 0 to serve"
            " /healthz, /readyz and /metrics on the web pages' port."
        )
    return dataclasses.replace(
        settings,
        log_format=log_format,
        metrics_host=get("METRICS_HOST") or settings.metrics_host,
        metrics_port=settings.metrics_port if metrics_port is None else metrics_port,
    )


def _has_host_and_port(url: str) -> bool:
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        return False
    return bool(parts.hostname)


def _is_local(host: str | None) -> bool:
    """Whether ``host`` names this machine only (localhost, 127.x, ::1)."""
    if host is None:
        return False
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def web_port_error(host: str, port: int, error: OSError) -> SettingsError:
    """Why the web pages cannot listen on ``host``:``port``, naming the settings."""
    where = f"WEB_HOST={host} WEB_PORT={port}"
    if error.errno == errno.EADDRINUSE:
        return SettingsError(
            f"Cannot serve the web pages on {where}: the port is taken (another program or bot"
            " process listens there); choose a free WEB_PORT, or WEB_PORT=0 for no pages here."
        )
    if error.errno == errno.EACCES:
        return SettingsError(
            f"Cannot serve the web pages on {where}: permission denied (ports below 1024 need"
            " privileges); choose a WEB_PORT above 1023."
        )
    if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
        return SettingsError(
            f"Cannot serve the web pages on {where}: WEB_HOST is not an address of this machine;"
            " use 127.0.0.1 (behind a proxy), 0.0.0.0 (every interface) or one of its addresses."
        )
    return SettingsError(f"Cannot serve the web pages on {where}: {error.strerror or error}.")


def try_web_port(host: str, port: int) -> None:
    """Bind ``host``:``port`` as the web pages would, and let it go; ``SettingsError``
    (naming ``WEB_HOST``/``WEB_PORT``) if that fails. Port 0: nothing to try."""
    if not port:
        return
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        for family, kind, proto, _, address in set(infos):
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp does
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
    except OSError as error:
        raise web_port_error(host, port, error) from None


def _int(name: str, text: str | None, *, minimum: int) -> int | None:
    """The whole number in ``text`` (None when unset); SettingsError names ``name``."""
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise SettingsError(f"{name}={text!r} is not a whole number.") from None
    if value < minimum:
        raise SettingsError(f"{name}={value} must be at least {minimum}.")
    return value


def _seconds(name: str, text: str | None, default: float) -> float:
    """A positive number of seconds, decimals allowed (``DATABASE_TIMEOUT=1.5``)."""
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise SettingsError(f"{name}={text!r} is not a number of seconds.") from None
    if not 0 < value <= 60:
        raise SettingsError(f"{name}={text} must be more than 0 and at most 60 seconds.")
    return value


def _shard_ids(text: str | None, count: int | None) -> tuple[int, ...] | None:
    """``SHARD_IDS``: shard numbers separated by commas, each below ``SHARD_COUNT``."""
    if text is None:
        return None
    if count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT, the number of shards of the whole bot.")
    ids: list[int] = []
    for word in text.split(","):
        value = _int("SHARD_IDS", word.strip(), minimum=0)
        if value is None or value >= count:
            raise SettingsError(
                f"SHARD_IDS={text!r}: each shard id must be from 0 to SHARD_COUNT - 1 ({count - 1})."
            )
        if value in ids:
            raise SettingsError(f"SHARD_IDS={text!r} names shard {value} twice.")
        ids.append(value)
    return tuple(ids)

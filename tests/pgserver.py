"""A throwaway PostgreSQL server for the tests, started with the system's own binaries.

``initdb`` makes a cluster in a new temporary directory and ``pg_ctl`` starts it with
no TCP listener at all: clients connect through a Unix socket in that directory, so
several test runs on one machine never collide on a port and nothing listens on the
network. Durability settings are off (``fsync``, ``synchronous_commit``): the server is
never crashed by a test, only the bot's processes are.

PostgreSQL refuses to run as root. When the tests run as root, the cluster's directory
is given to the ``postgres`` user and ``initdb``/``pg_ctl`` run as that user through
``runuser``; clients (the tests, the bot) still run as root.

Without the binaries the tests that need the server are skipped with a message saying
how to install them, except under ``CI=true``, where that is a failure.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, pg_ctl) were not found on PATH or in "
    "/usr/lib/postgresql/*/bin. Install them (Debian/Ubuntu: apt-get install postgresql) "
    "to run the PostgreSQL tests."
)
SERVER_USER = "postgres"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def find_bindir() -> Path:
    """The directory holding ``initdb`` and ``pg_ctl`` (the newest installed version)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    versions = glob.glob("/usr/lib/postgresql/*/bin/initdb")

    def major(path: str) -> int:
        match = re.search(r"/postgresql/(\d+)/", path)
        return int(match[1]) if match else 0

    for initdb in sorted(versions, key=major, reverse=True):
        bindir = Path(initdb).parent
        if (bindir / "pg_ctl").exists():
            return bindir
    raise PostgresUnavailable(INSTALL_HINT)


class PostgresServer:
    """One running server; ``create_database`` gives each test its own database."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            try:
                self._user = pwd.getpwnam(SERVER_USER)
            except KeyError:
                raise PostgresUnavailable(
                    f"the tests run as root and PostgreSQL refuses to; there is no user "
                    f"{SERVER_USER!r} to run it as (apt-get install postgresql creates one)."
                ) from None
        self.root = Path(tempfile.mkdtemp(prefix="schotten-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root  # short: a socket path must stay under ~100 bytes
        self._names = itertools.count(1)
        self.running = False

    def _server_command(self, *args: str) -> list[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if not self.as_root:
            return command
        # runuser is in sbin, which a PATH for a plain user (env -i, some runners) may lack.
        runuser = shutil.which("runuser") or shutil.which("runuser", path="/usr/sbin:/sbin") or "runuser"
        return [runuser, "-u", SERVER_USER, "--", *command]

    def _run(self, command: list[str]) -> None:
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        except FileNotFoundError as error:  # e.g. no runuser in a minimal container
            raise PostgresUnavailable(f"cannot run {command[0]}: {error}") from None
        if done.returncode != 0:
            raise PostgresUnavailable(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
            )

    def start(self) -> None:
        if self.as_root:
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)
        self._run(
            self._server_command(
                "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"
            )
        )
        options = " ".join(
            [
                "-c listen_addresses=''",
                f"-c unix_socket_directories='{self.socket_dir}'",
                "-c fsync=off",
                "-c synchronous_commit=off",
                "-c full_page_writes=off",
                "-c max_connections=200",
            ]
        )
        self._run(
            self._server_command(
                "pg_ctl",
                "-D",
                str(self.data),
                "-l",
                str(self.root / "server.log"),
                "-w",
                "-o",
                options,
                "start",
            )
        )
        self.running = True

    def stop(self) -> None:
        try:
            if self.running:
                self._run(
                    self._server_command("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
                )
                self.running = False
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def _client(self, program: str, *args: str) -> None:
        self._run([str(self.bindir / program), "-h", str(self.socket_dir), "-U", "postgres", *args])

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self._client("createdb", name)
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        self._client("dropdb", "--force", name)

    def log_tail(self, lines: int = 40) -> str:
        path = self.root / "server.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""

"""One process per SQLite database: an exclusive ``flock`` on ``<database>.lock``.

SQLite itself would let two bot processes open the same file, and both would then run
the same timers, answer the same buttons and keep their own caches of the same games.
So the first process to open a database takes an exclusive lock on a file beside it,
before anything touches the database, and holds it until it closes the database (the
kernel drops it when the process dies, also on SIGKILL). A second process is refused
with ``DatabaseInUse``, whose message names the holder's pid and the way out.

Within one process the lock is counted: ``python -m bot`` takes it at start, before it
contacts Discord, and the ``Database`` it opens takes it again; tests may open one file
twice. The lock file stays when released: removing it could let two processes lock two
different files of the same name.
"""

from __future__ import annotations

import os
import threading

from bot.storage.errors import DatabaseInUse, StorageError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, no check
    fcntl = None  # type: ignore[assignment]

_held: dict[str, tuple[int, int]] = {}  # lock file -> (descriptor, times taken)
_guard = threading.Lock()


def lock_path(database: str | os.PathLike[str]) -> str:
    return os.path.realpath(os.fspath(database)) + ".lock"


def acquire(database: str | os.PathLike[str]) -> str:
    """Lock ``database`` for this process (again, if it holds it); returns the key to
    ``release``. Raises ``DatabaseInUse`` if another process holds it."""
    path = lock_path(database)
    with _guard:
        if path in _held:
            fd, count = _held[path]
            _held[path] = (fd, count + 1)
            return path
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise StorageError(f"cannot create the lock file {path}: {error.strerror}") from error
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
                os.close(fd)
                raise DatabaseInUse(
                    f"the SQLite database {os.fspath(database)} is in use by another process "
                    f"(pid {holder}; lock file {path}). SQLite serves one bot process: stop the "
                    "other one first, or set DATABASE_URL to a PostgreSQL database to run several."
                ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        _held[path] = (fd, 1)
        return path


def release(key: str) -> None:
    """Undo one ``acquire``; the last one unlocks the file."""
    with _guard:
        fd, count = _held[key]
        if count > 1:
            _held[key] = (fd, count - 1)
            return
        del _held[key]
        os.close(fd)  # closing the descriptor drops the flock

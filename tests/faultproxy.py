"""A TCP proxy between the bot and the test PostgreSQL server that can misbehave.

``FaultProxy`` listens on 127.0.0.1 (a free port) and forwards every connection to the
server's Unix socket (``tests/pgserver.py`` runs it without TCP). The faults:

- ``hold()``: stop forwarding in both directions but keep every socket open, and accept
  new connections without forwarding either: packets dropped, as on a network that
  went silent (the client sees no error, only no answer);
- ``slow(seconds)``: forward each chunk after a delay: a slow network or server;
- ``refuse()``: close every connection and refuse new ones: a stopped server;
- ``release()``: back to forwarding (held data is then delivered, like a healed link;
  connections closed by ``refuse`` stay closed, as they would).

``url(database)`` is the server's database URL through the proxy.

``ThreadedFaultProxy`` runs one in a thread with its own event loop: the network is not
part of the bot's loop, so simcord's control of that loop's timers (and a busy bot)
leaves it alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from urllib.parse import urlsplit


class FaultProxy:
    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
        self.port = 0
        self._server: asyncio.Server | None = None
        self._flowing = asyncio.Event()
        self._flowing.set()
        self.delay = 0.0
        self.refusing = False
        self._pipes: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        self._drop_all()
        for task in list(self._pipes):
            task.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    def url(self, database_url: str) -> str:
        """``database_url`` (the server's, through its socket) through this proxy."""
        name = urlsplit(database_url).path.lstrip("/")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    # -- faults ------------------------------------------------------------------------

    def hold(self) -> None:
        self.refusing = False
        self._flowing.clear()

    def slow(self, seconds: float) -> None:
        self.refusing = False
        self.delay = seconds
        self._flowing.set()

    def refuse(self) -> None:
        self.refusing = True
        self._flowing.set()
        self._drop_all()

    def release(self) -> None:
        self.refusing = False
        self.delay = 0.0
        self._flowing.set()

    # -- forwarding --------------------------------------------------------------------

    def _drop_all(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        await self._flowing.wait()  # held: accepted, never answered
        if self.refusing:
            writer.transport.abort()
            return
        try:
            upstream_reader, upstream_writer = await asyncio.open_unix_connection(
                f"{self.socket_path}/.s.PGSQL.5432"
            )
        except OSError:
            writer.transport.abort()
            return
        self._writers.update((writer, upstream_writer))
        for source, target in ((reader, upstream_writer), (upstream_reader, writer)):
            task = asyncio.get_running_loop().create_task(self._pipe(source, target))
            self._pipes.add(task)
            task.add_done_callback(self._pipes.discard)

    async def _pipe(self, source: asyncio.StreamReader, target: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                await self._flowing.wait()
                if self.delay:
                    await asyncio.sleep(self.delay)
                if self.refusing:
                    break
                target.write(data)
                await target.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            target.transport.abort()
            self._writers.discard(target)


class ThreadedFaultProxy:
    """A ``FaultProxy`` on its own thread and event loop; the same faults, callable from
    any thread (each takes effect before the call returns)."""

    def __init__(self, socket_path: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="fault-proxy", daemon=True)
        self._thread.start()
        self.proxy = FaultProxy(socket_path)
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)

    async def _start(self) -> None:
        # The proxy's Event must belong to this loop: made here, not in the caller's.
        self.proxy._flowing = asyncio.Event()
        self.proxy._flowing.set()
        await self.proxy.start()

    def _call(self, action: Callable[[], None]) -> None:
        async def run() -> None:
            action()

        asyncio.run_coroutine_threadsafe(run(), self._loop).result(10)

    def url(self, database_url: str) -> str:
        return self.proxy.url(database_url)

    def hold(self) -> None:
        self._call(self.proxy.hold)

    def slow(self, seconds: float) -> None:
        self._call(lambda: self.proxy.slow(seconds))

    def refuse(self) -> None:
        self._call(self.proxy.refuse)

    def release(self) -> None:
        self._call(self.proxy.release)

    def close(self) -> None:
        try:
            asyncio.run_coroutine_threadsafe(self.proxy.close(), self._loop).result(10)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop.close()

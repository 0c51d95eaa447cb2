"""``Listener``: the web pages' accept loop, in place of asyncio's own.

asyncio's (Python 3.11) keeps calling ``accept()`` while the process is out of file
descriptors, logs every failure with a traceback and schedules one more retry for each:
tens of thousands of log lines a second, on the loop the bot's Discord traffic needs.
This one:

* accepts at most ``max_connections`` connections at once; one more is closed at once,
  before a byte of it is read (``Refusals`` counts it). It counts the connections it
  handed over whose transports are still open: one closed a moment ago is free at
  once, not one loop step later when asyncio reports it lost (a page asked for just
  after a burst of refusals was reset while those were still counted);
* out of descriptors (EMFILE, ENFILE, ENOBUFS, ENOMEM), stops accepting for ``pause``
  seconds and counts it, once per pause;
* hands every other connection to aiohttp (``loop.connect_accepted_socket``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from collections.abc import Callable

from bot.web.limits import Refusals

OUT_OF_RESOURCES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})
BACKLOG = 128  # connections the kernel queues; also the most accepted in one go
PAUSE = 1.0  # seconds without accepting after the process ran out of descriptors


class Listener:
    def __init__(
        self,
        factory: Callable[[], asyncio.Protocol],
        *,
        max_connections: int,
        refusals: Refusals,
        pause: float = PAUSE,
    ) -> None:
        self.factory = factory
        self.max_connections = max_connections
        self.refusals = refusals
        self.pause = pause
        self._sockets: list[socket.socket] = []
        self._paused: dict[int, asyncio.TimerHandle] = {}
        self._handing_over: set[asyncio.Task[None]] = set()
        self._open: set[asyncio.BaseTransport] = set()  # handed over, perhaps closed since

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (every address ``host`` names; port 0: one the
        system picks); the port listened on."""
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        try:
            for family, kind, proto, _name, address in dict.fromkeys(infos):
                sock = socket.socket(family, kind, proto)
                self._sockets.append(sock)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                if port == 0 and len(self._sockets) > 1:  # every address on the port picked first
                    address = (address[0], self.port, *address[2:])
                sock.bind(address)
                sock.listen(BACKLOG)
                sock.setblocking(False)
                loop.add_reader(sock.fileno(), self._accept, sock)
        except BaseException:
            self.close()
            raise
        return self.port

    @property
    def port(self) -> int:
        return int(self._sockets[0].getsockname()[1])

    def held(self) -> int:
        """The connections open now: handed over and not closed, or being handed over."""
        self._open = {transport for transport in self._open if not transport.is_closing()}
        return len(self._open) + sum(not task.done() for task in self._handing_over)

    def _accept(self, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        held = self.held()  # counted once a call (up to BACKLOG accepts), not once each
        for _ in range(BACKLOG):
            try:
                conn, _address = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno not in OUT_OF_RESOURCES:
                    self.refusals.count(f"connections: accept failed ({error.strerror})", error)
                    return
                self.refusals.count("connections: out of file descriptors, accepting paused")
                loop.remove_reader(sock.fileno())
                self._paused[sock.fileno()] = loop.call_later(self.pause, self._resume, sock)
                return
            if held >= self.max_connections:
                conn.close()
                self.refusals.count("connections over the limit")
                continue
            held += 1
            conn.setblocking(False)
            task = loop.create_task(self._hand_over(conn))
            self._handing_over.add(task)
            task.add_done_callback(self._handing_over.discard)

    async def _hand_over(self, conn: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        try:
            transport, _protocol = await loop.connect_accepted_socket(self.factory, conn)
        except BaseException:  # failed or cancelled (closing) before aiohttp had it
            conn.close()
            raise
        self._open.add(transport)

    def _resume(self, sock: socket.socket) -> None:
        self._paused.pop(sock.fileno(), None)
        if sock.fileno() >= 0:
            asyncio.get_running_loop().add_reader(sock.fileno(), self._accept, sock)

    def close(self) -> None:
        """Stop listening (the connections already handed over stay the server's)."""
        loop = asyncio.get_running_loop()
        for handle in self._paused.values():
            handle.cancel()
        self._paused.clear()
        for sock in self._sockets:
            if sock.fileno() >= 0:
                loop.remove_reader(sock.fileno())
            with contextlib.suppress(OSError):
                sock.close()
        self._sockets.clear()
        for task in self._handing_over:
            task.cancel()

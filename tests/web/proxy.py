"""A reverse proxy in front of the web pages, for the tests: forwards every request to
the bot's port (event streams too, chunk by chunk), or answers 502 Bad Gateway while
``down`` (as nginx does while the bot restarts). ``cut()`` ends the streams it carries."""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
from aiohttp import web

PASSED = ("Content-Type", "Cache-Control", "Content-Security-Policy", "Retry-After")


class BadGatewayProxy:
    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.down = False
        self.url = ""
        self._streams: set[asyncio.Task[object]] = set()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/{path:.*}", self._forward)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)  # a port the system picks
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        self._session = aiohttp.ClientSession()

    def cut(self) -> None:
        for task in list(self._streams):
            task.cancel()

    async def close(self) -> None:
        self.cut()
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        if self.down or self._session is None:
            return web.Response(status=502, text="Bad Gateway")
        task = asyncio.current_task()
        assert task is not None
        self._streams.add(task)
        headers = {k: v for k, v in request.headers.items() if k in ("Accept", "Accept-Language")}
        try:
            async with self._session.get(self.upstream + request.path_qs, headers=headers) as upstream:
                response = web.StreamResponse(status=upstream.status)
                for name in PASSED:
                    if name in upstream.headers:
                        response.headers[name] = upstream.headers[name]
                await response.prepare(request)
                async for chunk in upstream.content.iter_any():
                    await response.write(chunk)
                return response
        except aiohttp.ClientError:
            return web.Response(status=502, text="Bad Gateway")
        finally:
            with contextlib.suppress(KeyError):
                self._streams.remove(task)

"""``METRICS_PORT``: ``/healthz``, ``/readyz`` and ``/metrics`` on a port of their own
(``bot/web/health.py``), on ``METRICS_HOST`` (127.0.0.1 unless set): for a bot whose web
pages are off (``WEB_PORT=0``), or to keep the metrics off the pages' public port."""

from __future__ import annotations

import contextlib
import logging

from aiohttp import web

from bot.web.companion import detached
from bot.web.health import Operations, install

log = logging.getLogger(__name__)


class OperatorServer:
    def __init__(self, operations: Operations, host: str, port: int) -> None:
        self.operations = operations
        self.host = host
        self.port = port  # the port listened on once started (0: the one the system chose)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        await detached(self._start())

    async def _start(self) -> None:
        app = web.Application(client_max_size=1024)
        install(app, self.operations)
        runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        sockets = getattr(site._server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.port
        log.info("Health and metrics on http://%s:%d (/healthz, /readyz, /metrics)", self.host, self.port)

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            with contextlib.suppress(Exception):
                await detached(runner.cleanup())

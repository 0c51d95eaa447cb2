"""The operator's endpoints: ``/healthz``, ``/readyz`` and ``/metrics``.

* ``/healthz``: the process is alive and its event loop answers; touches nothing else
  (for a supervisor's liveness check and the Dockerfile's ``HEALTHCHECK``).
* ``/readyz``: the process can do its work: the database answers within
  ``READY_TIMEOUT`` seconds, every gateway connection of the process is up (the bot),
  and the outbox is not stuck (no publication still owed older than ``OUTBOX_STUCK``).
  200 or 503, with a small JSON body naming each check's state (fixed words, never an
  error's text).
* ``/metrics``: ``bot/metrics.py`` in Prometheus's text format, its state gauges read
  first.

They are served on the web pages' port (``install`` on the pages' application), or, with
``METRICS_PORT`` set, on that port alone (``bot/web/operator.py``). README.md, "Health
and metrics".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot import metrics
from bot.games.delivery import PUBLISH_ATTEMPTS
from bot.games.scheduler import FairScheduler
from bot.storage import Storage
from bot.version import VERSION

log = logging.getLogger(__name__)

READY_TIMEOUT = 1.5  # seconds the database has to answer a readiness check
# An owed publication older than this means publishing is stuck: recovery (the timers'
# round, about once a minute) retries one after RECOVERY_GRACE and a lost lease after
# PUBLISH_LEASE, so a healthy bot never holds one this old.
OUTBOX_STUCK = 600.0
OK = "ok"


@dataclass(frozen=True)
class Readiness:
    """Each check's state: ``ok`` or a fixed word saying what is wrong."""

    checks: dict[str, str]

    @property
    def ready(self) -> bool:
        return all(state == OK for state in self.checks.values())


class Operations:
    """What ``/readyz`` checks and ``/metrics`` reads, for one process.

    ``gateway`` says whether every gateway connection is up (None: no gateway, as in
    ``python -m bot web``); ``outbox`` whether this process publishes (then a stuck
    outbox is not ready); ``clock`` is the clock the outbox's times are written with.
    ``streams`` counts the open event streams; the web pages set it when they start.
    """

    def __init__(
        self,
        db: Storage,
        *,
        clock: Callable[[], float],
        gateway: Callable[[], bool] | None = None,
        scheduler: FairScheduler | None = None,
        outbox: bool = False,
    ) -> None:
        self.db = db
        self.clock = clock
        self.gateway = gateway
        self.scheduler = scheduler
        self.outbox = outbox
        self.streams: Callable[[], int] = lambda: 0
        metrics.set_version(VERSION)

    async def readiness(self) -> Readiness:
        checks = {"database": await self._database()}
        if self.gateway is not None:
            connected = self.gateway()
            metrics.GATEWAY.set(1 if connected else 0)
            checks["gateway"] = OK if connected else "disconnected"
        if self.outbox:
            checks["outbox"] = await self._outbox() if checks["database"] == OK else "unknown"
        for name, state in checks.items():
            metrics.READY.labels(check=name).set(1 if state == OK else 0)
        return Readiness(checks)

    async def _database(self) -> str:
        try:
            async with asyncio.timeout(READY_TIMEOUT):
                # A read like the bot's own (bounded by DATABASE_TIMEOUT, counted when it fails).
                await self.db.players.get_meta("database_id")
        except TimeoutError:
            return "timeout"
        except Exception as error:  # any failure: not ready (the reason is logged, not shown)
            log.info("Readiness: the database failed: %s", type(error).__name__)
            return "unreachable"
        return OK

    async def _outbox(self) -> str:
        try:
            async with asyncio.timeout(READY_TIMEOUT):
                owed, oldest, given_up = await self.db.delivery.outbox_summary(max_attempts=PUBLISH_ATTEMPTS)
        except Exception as error:
            metrics.SCRAPE_FAILURES.inc()
            log.info("Readiness: reading the outbox failed: %s", type(error).__name__)
            return "unknown"
        age = 0.0 if oldest is None else max(0.0, self.clock() - oldest)
        metrics.OUTBOX_ENTRIES.labels(state="owed").set(owed)
        metrics.OUTBOX_ENTRIES.labels(state="given_up").set(given_up)
        metrics.OUTBOX_OLDEST.set(age)
        return "stuck" if age > OUTBOX_STUCK else OK

    async def refresh(self) -> None:
        """Set the state gauges, for ``/metrics``."""
        await self.readiness()
        if self.scheduler is not None:
            metrics.AI_QUEUE.set(self.scheduler.waiting())
            metrics.AI_RUNNING.set(self.scheduler.running)
        metrics.WEB_STREAMS.set(self.streams())


OPERATIONS = web.AppKey("operations", Operations)


async def healthz(request: web.Request) -> web.StreamResponse:
    return web.json_response({"status": "ok", "version": VERSION})


async def readyz(request: web.Request) -> web.StreamResponse:
    readiness = await request.app[OPERATIONS].readiness()
    body = {"ready": readiness.ready, "checks": readiness.checks}
    return web.json_response(body, status=200 if readiness.ready else 503)


async def metrics_page(request: web.Request) -> web.StreamResponse:
    await request.app[OPERATIONS].refresh()
    return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST})


def install(app: web.Application, operations: Operations) -> None:
    """Add the three endpoints to ``app``."""
    app[OPERATIONS] = operations
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)

"""The process's Prometheus metrics (``/metrics``, ``bot/web/health.py``).

Counters and histograms are updated where things happen (a move committed, a database
call given up, an AI search done, a Discord request answered); the gauges of state
(the outbox, the AI queue, open event streams, the gateway) are set when ``/metrics`` is
read. Every label takes values from a fixed set written here or in discord.py's enums:
never a name, an id, a URL or any text a member typed, so the series stay few and hold
nothing private. README.md, "Health and metrics", lists what to alert on.

Discord's REST traffic is seen through discord.py's documented ``http_trace`` (an
aiohttp ``TraceConfig``): :func:`rest_trace` counts each request by resource and status
class, and the rate-limit waits its answers announce (a 429's ``Retry-After``, a bucket
left with ``X-RateLimit-Remaining: 0``, after which discord.py sleeps until
``X-RateLimit-Reset-After``), and times each interaction's acknowledgement from the
interaction's own creation time (in its id).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import SimpleNamespace

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    gc_collector,
    generate_latest,
    platform_collector,
    process_collector,
)

REGISTRY = CollectorRegistry(auto_describe=True)
process_collector.ProcessCollector(registry=REGISTRY)
platform_collector.PlatformCollector(registry=REGISTRY)
gc_collector.GCCollector(registry=REGISTRY)

BUILD = Info("schotten_build", "The bot's version.", registry=REGISTRY)

# -- what happens -------------------------------------------------------------------------

MOVES = Counter(
    "schotten_moves_applied",
    "Moves committed by this process (forced draws, resignations and forfeits included).",
    registry=REGISTRY,
)
INTERACTIONS = Counter(
    "schotten_interactions",
    "Interactions received (commands, buttons and selects, autocompletes, modals).",
    ["type"],
    registry=REGISTRY,
)
ACK_SECONDS = Histogram(
    "schotten_interaction_ack_seconds",
    "From an interaction's creation to Discord's answer to its acknowledgement; Discord"
    " drops an interaction not acknowledged within 3 s.",
    buckets=(0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0),
    registry=REGISTRY,
)
REST_REQUESTS = Counter(
    "schotten_discord_requests",
    "HTTP requests to Discord's API, by resource and status class (429: rate limited).",
    ["resource", "status"],
    registry=REGISTRY,
)
RATE_LIMIT_WAITS = Counter(
    "schotten_discord_rate_limit_waits",
    "Waits for Discord's rate limits: bucket (a bucket used up), 429 (refused, retried"
    " after Retry-After), global (the global limit).",
    ["reason"],
    registry=REGISTRY,
)
RATE_LIMIT_SECONDS = Counter(
    "schotten_discord_rate_limit_wait_seconds",
    "Seconds of those waits, as Discord announced them.",
    ["reason"],
    registry=REGISTRY,
)
AI_SECONDS = Histogram(
    "schotten_ai_decision_seconds",
    "Seconds an AI search took in its worker (move: the AI's move; hint: a member's hint).",
    ["kind"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0),
    registry=REGISTRY,
)
DATABASE_FAILURES = Counter(
    "schotten_database_failures",
    "Database calls given up: timeout (over DATABASE_TIMEOUT) or error (the database"
    " could not be reached or used); members were told it is unreachable.",
    ["reason"],
    registry=REGISTRY,
)

# -- state, set when /metrics is read -------------------------------------------------

OUTBOX_ENTRIES = Gauge(
    "schotten_outbox_entries",
    "Publications the outbox holds: owed (still to be published) or given_up (failed"
    " too often; left for the operator).",
    ["state"],
    registry=REGISTRY,
)
OUTBOX_OLDEST = Gauge(
    "schotten_outbox_oldest_age_seconds",
    "Age of the oldest publication still owed (0: none).",
    registry=REGISTRY,
)
AI_QUEUE = Gauge("schotten_ai_queue_length", "AI searches waiting for a worker.", registry=REGISTRY)
AI_RUNNING = Gauge("schotten_ai_searches_running", "AI searches in the workers now.", registry=REGISTRY)
WEB_STREAMS = Gauge("schotten_web_streams_open", "Live pages' event streams open now.", registry=REGISTRY)
GATEWAY = Gauge(
    "schotten_gateway_connected", "1 while every gateway connection of this process is up.", registry=REGISTRY
)
READY = Gauge(
    "schotten_ready",
    "1 while the readiness check passes (database, gateway, outbox; /readyz).",
    ["check"],
    registry=REGISTRY,
)
SCRAPE_FAILURES = Counter(
    "schotten_metrics_state_failures",
    "Reads of the state gauges (outbox) that failed or timed out; those gauges then keep their last values.",
    registry=REGISTRY,
)


def exposition() -> bytes:
    """The metrics in Prometheus's text format."""
    return generate_latest(REGISTRY)


def set_version(version: str) -> None:
    BUILD.info({"version": version})


# -- Discord's REST traffic ---------------------------------------------------------------

#: The first path segment of Discord's API kept as the ``resource`` label; any other: "other".
RESOURCES = frozenset(
    {"applications", "channels", "gateway", "guilds", "interactions", "invites", "users", "webhooks"}
)
DISCORD_EPOCH_MS = 1420070400000


def resource_of(path: str) -> str:
    """``/api/v10/channels/123/messages`` -> ``channels``; nothing else of the path."""
    parts = [part for part in path.split("/") if part]
    if len(parts) >= 2 and parts[0] == "api" and parts[1].startswith("v"):
        parts = parts[2:]
    return parts[0] if parts and parts[0] in RESOURCES else "other"


def status_class(status: int) -> str:
    return "429" if status == 429 else f"{status // 100}xx"


def _seconds(text: str | None) -> float | None:
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and 0 <= value < 86400 else None


def _created_at(snowflake: str) -> float | None:
    """An interaction's creation time (Unix seconds) from its id."""
    if not snowflake.isdigit() or len(snowflake) > 20:
        return None
    return ((int(snowflake) >> 22) + DISCORD_EPOCH_MS) / 1000


def observe_response(path: str, status: int, headers: Mapping[str, str], now: float) -> None:
    """Count one answer of Discord's API (``path`` without the host; ``headers``
    case-insensitive, as aiohttp's are)."""
    get = headers.get
    resource = resource_of(path)
    REST_REQUESTS.labels(resource=resource, status=status_class(status)).inc()
    if status == 429:
        scope = str(get("X-RateLimit-Scope") or "").lower()
        is_global = scope == "global" or str(get("X-RateLimit-Global") or "").lower() == "true"
        reason = "global" if is_global else "429"
        RATE_LIMIT_WAITS.labels(reason=reason).inc()
        waited = _seconds(get("Retry-After"))
        if waited is not None:
            RATE_LIMIT_SECONDS.labels(reason=reason).inc(waited)
    elif get("X-RateLimit-Remaining") == "0":
        # discord.py sleeps until the bucket resets before its next request in it.
        RATE_LIMIT_WAITS.labels(reason="bucket").inc()
        waited = _seconds(get("X-RateLimit-Reset-After"))
        if waited is not None:
            RATE_LIMIT_SECONDS.labels(reason="bucket").inc(waited)
    parts = [part for part in path.split("/") if part]
    if resource == "interactions" and parts[-1:] == ["callback"] and status < 300:
        created = _created_at(parts[-3]) if len(parts) >= 3 else None
        if created is not None:
            ACK_SECONDS.observe(max(0.0, now - created))


def rest_trace() -> aiohttp.TraceConfig:
    """The ``http_trace`` of a discord.py client: feeds the REST metrics above."""

    async def on_request_end(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        observe_response(params.url.path, params.response.status, params.response.headers, time.time())

    async def on_request_exception(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        REST_REQUESTS.labels(resource=resource_of(params.url.path), status="error").inc()

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    trace.on_request_exception.append(on_request_exception)
    return trace

"""/healthz, /readyz and /metrics (bot/web/health.py) on the operator port, and the
REST metrics fed by discord.py's HTTP client (bot/metrics.py).

Readiness follows the database: PostgreSQL through ``tests/faultproxy.py`` is stopped
(connections closed and refused), then back. The outbox check uses the injected clock.
The REST trace runs discord.py's own HTTP client (its rate-limit handling included)
against a small local server that answers as Discord does.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import aiohttp
import discord
import pytest
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.games.delivery import PUBLISH_ATTEMPTS, PUBLISH_LEASE, Delivery
from bot.games.service import GameService
from bot.storage import PostgresDatabase, Storage
from bot.version import VERSION
from bot.web.health import OUTBOX_STUCK, Operations
from bot.web.operator import OperatorServer
from rules.game import GameOptions
from tests.bot.conftest import ALICE, BOB, FakeClock
from tests.faultproxy import ThreadedFaultProxy
from tests.pgserver import PostgresServer


async def get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition ``text`` (0 if absent)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and all(found.labels.get(k) == v for k, v in labels.items()):
                return float(found.value)
    return 0.0


@pytest.fixture
def fault_proxy(postgres_server: PostgresServer) -> Iterator[ThreadedFaultProxy]:
    proxy = ThreadedFaultProxy(str(postgres_server.socket_dir))
    yield proxy
    proxy.close()


async def test_readiness_follows_the_database_and_health_does_not(
    postgres_database: str, fault_proxy: ThreadedFaultProxy
) -> None:
    db = PostgresDatabase(fault_proxy.url(postgres_database), timeout=1.0)
    await db.connect()
    await db.migrate()
    operator = OperatorServer(Operations(db, clock=time.time, outbox=True), "127.0.0.1", 0)
    await operator.start()
    root = f"http://127.0.0.1:{operator.port}"
    try:
        status, kind, body = await get(f"{root}/healthz")
        assert status == 200 and kind.startswith("application/json")
        assert f'"version": "{VERSION}"' in body
        status, _, body = await get(f"{root}/readyz")
        assert status == 200, body
        assert '"ready": true' in body and '"database": "ok"' in body and '"outbox": "ok"' in body
        failures = sample((await get(f"{root}/metrics"))[2], "schotten_database_failures_total")

        fault_proxy.refuse()  # the server is gone
        status, _, body = await get(f"{root}/readyz")
        assert status == 503, body
        assert '"ready": false' in body and '"database": "unreachable"' in body
        assert '"outbox": "unknown"' in body
        assert (await get(f"{root}/healthz"))[0] == 200  # alive all the same
        status, _, text = await get(f"{root}/metrics")
        assert status == 200
        assert sample(text, "schotten_ready", check="database") == 0
        assert sample(text, "schotten_database_failures_total") > failures

        fault_proxy.release()  # back: ready again, on new connections
        for _ in range(20):
            status, _, body = await get(f"{root}/readyz")
            if status == 200:
                break
            await asyncio.sleep(0.1)
        assert status == 200, body
        assert sample((await get(f"{root}/metrics"))[2], "schotten_ready", check="database") == 1
    finally:
        await operator.close()
        fault_proxy.release()
        await db.close()
    with pytest.raises(aiohttp.ClientConnectionError):  # closed: nothing listens any more
        await get(f"{root}/healthz")


async def test_a_publication_owed_too_long_is_a_stuck_outbox(db: Storage, clock: FakeClock) -> None:
    operations = Operations(db, clock=clock, outbox=True)
    service = GameService(db, clock=clock, turn_timeout=3600, outbox=True)
    record = await service.create_game(
        guild_id=1, channel_id=2, players=(ALICE, BOB), options=GameOptions(), seed=5, first_player=0
    )  # owes its first board
    assert (await operations.readiness()).checks["outbox"] == "ok"
    clock.now += OUTBOX_STUCK + 1
    readiness = await operations.readiness()
    assert readiness.checks["outbox"] == "stuck" and not readiness.ready
    text = metrics.exposition().decode()
    assert sample(text, "schotten_outbox_entries", state="owed") == 1
    assert sample(text, "schotten_outbox_oldest_age_seconds") == OUTBOX_STUCK + 1
    # Given up after its attempts (its channel gone, say): left for the operator, no
    # longer "stuck", counted apart.
    delivery = Delivery(db.delivery, clock=clock)
    for _ in range(PUBLISH_ATTEMPTS):
        assert await delivery.claim_start(record.id, record.version) is not None
        clock.now += PUBLISH_LEASE + 1
    readiness = await operations.readiness()
    assert readiness.checks["outbox"] == "ok" and readiness.ready
    text = metrics.exposition().decode()
    assert sample(text, "schotten_outbox_entries", state="owed") == 0
    assert sample(text, "schotten_outbox_entries", state="given_up") == 1
    assert sample(text, "schotten_outbox_oldest_age_seconds") == 0


async def test_rest_metrics_count_discords_answers_and_rate_limit_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A local server answering as Discord does: /users/@me refused once with a 429
    # (Retry-After), then granted with its bucket used up; an interaction's callback.
    answers: list[str] = []

    def answer(
        data: dict[str, object], status: int = 200, headers: dict[str, str] | None = None
    ) -> web.Response:
        # Discord's exact content type: discord.py reads the body as JSON only then.
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    async def me(request: web.Request) -> web.StreamResponse:
        answers.append("me")
        if len(answers) == 1:
            return answer(
                {"message": "You are being rate limited.", "retry_after": 0.01, "global": False},
                status=429,
                headers={"Retry-After": "0.01", "Via": "1.1 google", "X-RateLimit-Scope": "user"},
            )
        return answer(
            {"id": "1", "username": "bot", "discriminator": "0", "avatar": None},
            headers={
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": "0.01",
                "X-RateLimit-Bucket": "b1",
            },
        )

    async def callback(request: web.Request) -> web.StreamResponse:
        return web.Response(status=204)

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")

    def counts() -> dict[str, float]:
        text = metrics.exposition().decode()
        return {
            "429": sample(text, "schotten_discord_requests_total", resource="users", status="429"),
            "2xx": sample(text, "schotten_discord_requests_total", resource="users", status="2xx"),
            "waits_429": sample(text, "schotten_discord_rate_limit_waits_total", reason="429"),
            "waits_bucket": sample(text, "schotten_discord_rate_limit_waits_total", reason="bucket"),
            "callbacks": sample(
                text, "schotten_discord_requests_total", resource="interactions", status="2xx"
            ),
            "acks": sample(text, "schotten_interaction_ack_seconds_count"),
            "seconds_429": sample(text, "schotten_discord_rate_limit_wait_seconds_total", reason="429"),
        }

    before = counts()
    http = discord.http.HTTPClient(asyncio.get_running_loop(), http_trace=metrics.rest_trace())
    try:
        user = await http.static_login("not-a-real-token")  # discord.py retries the 429 itself
        assert user["username"] == "bot" and answers == ["me", "me"]
        interaction_id = discord.utils.time_snowflake(discord.utils.utcnow())
        route = discord.http.Route(
            "POST",
            "/interactions/{interaction_id}/{interaction_token}/callback",
            interaction_id=interaction_id,
            interaction_token="a-secret-token",
        )
        await http.request(route, json={"type": 5})
    finally:
        await http.close()
        await runner.cleanup()
    after = counts()
    delta = {key: after[key] - before[key] for key in after}
    assert delta == {
        "429": 1,
        "2xx": 1,
        "waits_429": 1,
        "waits_bucket": 1,
        "callbacks": 1,
        "acks": 1,
        "seconds_429": pytest.approx(0.01),
    }
    # Bounded labels: no id, token or path of a request became a label value.
    text = metrics.exposition().decode()
    assert "a-secret-token" not in text and str(interaction_id) not in text and "@me" not in text


def test_resources_and_statuses_are_a_fixed_set() -> None:
    assert metrics.resource_of("/api/v10/channels/123/messages/456") == "channels"
    assert metrics.resource_of("/api/v10/webhooks/1/secret-token/messages/@original") == "webhooks"
    assert metrics.resource_of("/api/v10/<script>/x") == "other"
    assert metrics.resource_of("/") == "other"
    assert [metrics.status_class(code) for code in (200, 204, 404, 429, 503)] == [
        "2xx",
        "2xx",
        "4xx",
        "429",
        "5xx",
    ]

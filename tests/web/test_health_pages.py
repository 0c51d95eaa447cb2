"""/healthz, /readyz and /metrics with the web pages: on the bot's pages port (played
through simcord), on ``python -m bot web``'s, and the Dockerfile's ``HEALTHCHECK``
against them."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.settings import Settings
from bot.storage import open_database
from bot.web import standalone
from tests.cogs.helpers import challenge_and_accept, dm_turn, setup_members
from tests.ports import free_port
from tests.web.conftest import SECRET
from tests.web.helpers import base, get

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ("<b>alice</b> 12345", "bob the builder")
# Every label of the bot's own metrics and the values it may take: fixed sets, nothing a
# member typed or any id.
LABELS = {
    "type": {"ping", "application_command", "component", "autocomplete", "modal_submit"},
    "resource": {
        "applications",
        "channels",
        "gateway",
        "guilds",
        "interactions",
        "invites",
        "users",
        "webhooks",
        "other",
    },
    "status": {"2xx", "3xx", "4xx", "429", "5xx", "error"},
    "reason": {"bucket", "429", "global", "timeout", "error"},
    "kind": {"move", "hint"},
    "state": {"owed", "given_up"},
    "check": {"database", "gateway", "outbox"},
    "version": None,  # schotten_build's: the package's version
    "le": None,  # a histogram's buckets
}


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        if family.name.startswith("schotten_"):
            for sample in family.samples:
                found[sample.name, tuple(sorted(sample.labels.items()))] = float(sample.value)
    return found


def value(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def healthcheck() -> list[str]:
    """The Dockerfile's HEALTHCHECK command."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    (line,) = [line for line in text.splitlines() if line.startswith("HEALTHCHECK ")]
    command: list[str] = json.loads(line.split(" CMD ", 1)[1])
    return command


async def run_healthcheck(**env: str) -> int:
    command = healthcheck()
    assert command[0] == "python"
    environ = {k: v for k, v in os.environ.items() if k not in ("METRICS_PORT", "WEB_PORT")} | env
    process = await asyncio.create_subprocess_exec(
        sys.executable, *command[1:], env=environ, stderr=subprocess.DEVNULL
    )
    return await process.wait()


async def test_health_readiness_and_metrics_beside_the_pages(simcord_env, simcord_bot):
    env, bot = simcord_env, simcord_bot
    root = base(bot)
    status, body, headers = await get(f"{root}/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"
    status, body, _ = await get(f"{root}/readyz")
    assert status == 200, body
    assert json.loads(body) == {
        "ready": True,
        "checks": {"database": "ok", "gateway": "ok", "outbox": "ok"},
    }
    status, body, headers = await get(f"{root}/metrics")
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    before = samples(body.decode())

    _, channel, (alice, bob) = setup_members(env, HOSTILE)
    game_id = await challenge_and_accept(env, channel, alice, bob)
    by_id = {alice.id: alice, bob.id: bob}
    record = await bot.service.get(game_id)
    await dm_turn(by_id[record.current_user], random.Random(3), game_id)
    assert (await bot.service.get(game_id)).version > record.version

    status, body, _ = await get(f"{root}/metrics")
    text = body.decode()
    after = samples(text)
    moved = value(after, "schotten_moves_applied_total") - value(before, "schotten_moves_applied_total")
    assert moved >= 1
    for kind in ("application_command", "component"):  # the challenge, Accept, the DM turn
        assert value(after, "schotten_interactions_total", type=kind) > value(
            before, "schotten_interactions_total", type=kind
        )
    assert value(after, "schotten_ready", check="gateway") == 1
    assert value(after, "schotten_gateway_connected") == 1
    # Bounded labels only, and nothing of the members.
    for (name, labels), _number in after.items():
        for label, label_value in labels:
            allowed = LABELS[label]
            assert allowed is None or label_value in allowed, (name, label, label_value)
    for word in ("alice", "bob", str(alice.id), str(game_id) + "}"):
        assert word not in text

    # The Dockerfile's HEALTHCHECK finds /healthz on WEB_PORT when METRICS_PORT is 0.
    port = root.rsplit(":", 1)[1]
    assert await run_healthcheck(METRICS_PORT="0", WEB_PORT=port) == 0
    # The gateway goes away: not ready, alive all the same.
    await bot.ws.close()
    status, body, _ = await get(f"{root}/readyz")
    assert status == 503 and json.loads(body)["checks"]["gateway"] == "disconnected"
    assert (await get(f"{root}/healthz"))[0] == 200


async def test_the_standalone_web_server_serves_them_too(tmp_path: Path) -> None:
    database = str(tmp_path / "web.db")
    async with open_database(database) as db:  # a bot's database
        await db.migrate()
    port = free_port()
    settings = Settings(
        database_path=database, web_port=port, public_url=f"http://127.0.0.1:{port}", web_secret=SECRET
    )
    stop = asyncio.Event()
    serving = asyncio.create_task(standalone.serve(settings, stop))
    root = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                status, _, _ = await get(f"{root}/healthz")
                break
            except aiohttp.ClientConnectionError:
                await asyncio.sleep(0.05)
        assert status == 200
        status, body, _ = await get(f"{root}/readyz")
        assert status == 200 and json.loads(body) == {"ready": True, "checks": {"database": "ok"}}
        status, body, _ = await get(f"{root}/metrics")
        assert status == 200 and b"schotten_build_info" in body
        assert await run_healthcheck(WEB_PORT=str(port)) == 0
    finally:
        stop.set()
        await serving
    assert await run_healthcheck(WEB_PORT=str(port)) != 0  # nothing answers: unhealthy

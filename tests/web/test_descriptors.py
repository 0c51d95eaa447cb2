"""The web pages cannot take the bot's process down by its file descriptors.

The pages run in the bot's process. Before, at 128 open files, 300 event streams from
one IPv6 block were accepted until ``accept()`` failed with EMFILE; asyncio's accept
loop then logged a traceback for every attempt (118,777 log lines within seconds) and
a new page timed out. Now the pages hold at most half the descriptors (streams fewer
still, so that pages get through), refuse the rest at once and log a summary.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
import yaml

from bot.settings import Settings, SettingsError
from bot.web.limits import PAGE_CONNECTIONS, budget

ROOT = Path(__file__).resolve().parents[2]
FILES = 128
STREAMS = 300
HANG_GUARD = 60.0  # seconds before the test gives up waiting (not a speed goal)


async def _flood(origin: str, path: str) -> tuple[list[object], int]:
    timeout = aiohttp.ClientTimeout(total=HANG_GUARD)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), timeout=timeout) as flood:

        async def stream(n: int) -> object:
            try:
                response = await flood.get(
                    f"{origin}{path}/events", headers={"X-Forwarded-For": f"2001:db8::{n:x}"}
                )
            except (aiohttp.ClientError, OSError, TimeoutError) as error:
                return type(error).__name__
            return response.status  # kept open (a stream) until the session closes

        results = await asyncio.gather(*(stream(n) for n in range(STREAMS)))
        # With every stream it could take open: a new page still loads.
        async with aiohttp.ClientSession(timeout=timeout) as viewer, viewer.get(origin + path) as page:
            status = page.status
            await page.read()
    return results, status


def test_a_flood_of_streams_leaves_pages_working_and_the_log_short(tmp_path: Path) -> None:
    log_path = tmp_path / "web.log"
    with log_path.open("w") as log_file:
        worker = subprocess.Popen(
            [sys.executable, "-m", "tests.web.descriptors_worker", str(FILES)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=log_file,
            text=True,
        )
        try:
            assert worker.stdout is not None
            port, path = worker.stdout.readline().split()
            results, page = asyncio.run(_flood(f"http://127.0.0.1:{port}", path))
        finally:
            worker.kill()
            worker.wait()
    log = log_path.read_text()

    assert page == 200
    assert 0 < results.count(200) < FILES // 2  # streams were served, within the budget
    assert "Too many open files" not in log
    assert len(log.splitlines()) < 40, log[-2000:]


def test_the_budget_keeps_to_half_the_open_files_and_leaves_room_for_pages() -> None:
    assert budget(256, None) == budget(256, 8192)
    roomy = budget(256, 8192)
    assert (roomy.connections, roomy.streams) == (256 + PAGE_CONNECTIONS, 256)
    tight = budget(256, 128)
    assert tight.connections == 64 and 0 < tight.streams < tight.connections


def test_web_max_streams_is_a_setting_of_at_least_one() -> None:
    assert Settings.from_env({}, env_file=None).web_max_streams == 256
    assert Settings.from_env({"WEB_MAX_STREAMS": "40"}, env_file=None).web_max_streams == 40
    with pytest.raises(SettingsError, match="WEB_MAX_STREAMS=0 must be at least 1"):
        Settings.from_env({"WEB_MAX_STREAMS": "0"}, env_file=None)


def test_the_deployments_set_an_open_file_limit() -> None:
    unit = (ROOT / "deploy" / "schotten-bot.service").read_text()
    assert "\nLimitNOFILE=8192\n" in unit
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    for name in ("bot-a", "bot-b"):
        assert services[name]["ulimits"]["nofile"] == 8192, name
    assert "--ulimit nofile=8192:8192" in (ROOT / "Dockerfile").read_text()

"""Chromium for the browser tests: Debian's ``chromium`` driven by Playwright for Python
(Playwright's own browser download is not used). Without it the tests skip, with the
install command in the reason; under ``CI=true`` they fail instead (``.ci/run`` installs
it)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUTPUT = Path(__file__).resolve().parents[2] / "tests" / "output" / "web"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI needs Chromium for the browser tests: {reason}", pytrace=False)
    pytest.skip(reason)


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[object]:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        _unavailable("Playwright for Python is missing: pip install -e '.[test]'")
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        _unavailable(f"Chromium is missing at {CHROMIUM}: apt-get install chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield launched
        finally:
            await launched.close()


def screenshot_path(name: str) -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT / f"{name}.png"

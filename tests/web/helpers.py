"""Reading the web pages as a browser would, for the scans."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import aiohttp

from bot.app import SchottenBot

SRC = re.compile(r'(?:src|href|content|data-events|data-state)="([^"]+)"')


def base(bot: SchottenBot) -> str:
    assert bot.web is not None and bot.web.links is not None
    return bot.web.links.public_url


async def get(url: str, **headers: str) -> tuple[int, bytes, Any]:
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as response:
        return response.status, await response.read(), response.headers


async def first_event(url: str, timeout: float = 60.0) -> str:
    """The first event of an event stream, as text (``timeout``: only against a hang)."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200, response.status
        text = b""
        async with asyncio.timeout(timeout):
            while b"\n\n" not in text:
                text += await response.content.readany()
        return text.decode()


async def everything_served(page_url: str, *, events: bool = True) -> list[tuple[str, bytes]]:
    """The page and everything it links to on the same server (pictures, script, style,
    the record file, the event stream's first event)."""
    status, body, _ = await get(page_url)
    assert status == 200, (page_url, status)
    root = page_url.split("/", 3)[:3]
    origin = "/".join(root)
    served = [(page_url, body)]
    for link in sorted(set(SRC.findall(body.decode()))):
        link = link.replace("&amp;", "&")
        url = origin + link if link.startswith("/") else link
        if not url.startswith(origin):
            continue
        if url.endswith("/events"):
            if events:
                served.append((url, (await first_event(url)).encode()))
            continue
        status, data, _ = await get(url)
        served.append((url, data))
    return served

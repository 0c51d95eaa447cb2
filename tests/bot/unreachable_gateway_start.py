"""Runs ``python -m bot``'s ``main`` against a Discord whose HTTP API answers (a fake
login) but whose gateway cannot be reached: every websocket connection is refused, as
when the network is down. Used by test_main to test shutdown while discord.py retries.
``FAIL_LOGINS=N``: the first N logins find no network either (tried again at once)."""

from __future__ import annotations

import os
import socket
import sys
from types import SimpleNamespace
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

import bot.cli.main as entry
import bot.web.standalone
from bot.app import SchottenBot


def _closed_port() -> int:
    """A local port nobody listens on: connecting to it is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


GATEWAY = f"ws://127.0.0.1:{_closed_port()}"
USER = {"id": "1", "username": "bot", "discriminator": "0", "avatar": None, "bot": True}


failed_logins = int(os.environ.get("FAIL_LOGINS", "0"))


async def request(self: discord.http.HTTPClient, route: discord.http.Route, **kwargs: Any) -> Any:
    global failed_logins
    if route.path == "/users/@me" and failed_logins:
        failed_logins -= 1
        raise OSError(101, "Network is unreachable")
    if route.path == "/users/@me":
        return USER
    if route.path == "/gateway":
        return {"url": GATEWAY}
    if route.path == "/gateway/bot":
        limits = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return {"url": GATEWAY, "shards": 1, "session_start_limit": limits}
    raise discord.HTTPException(SimpleNamespace(status=404, reason="Not Found"), "not faked")


async def application_info(self: discord.Client) -> Any:
    return SimpleNamespace(id=1, interactions_endpoint_url=None, flags=discord.ApplicationFlags())


original_setup_hook = SchottenBot.setup_hook


async def setup_hook(self: SchottenBot) -> None:
    self.sync_on_start = False  # syncing needs Discord's API
    await original_setup_hook(self)
    print("ready", flush=True)


discord.http.HTTPClient.request = request  # type: ignore[method-assign]
discord.Client.application_info = application_info  # type: ignore[method-assign]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(GATEWAY)
SchottenBot.setup_hook = setup_hook  # type: ignore[method-assign]
bot.web.standalone.LOGIN_RETRY_FIRST = 0.01  # seconds, doubled each time

if __name__ == "__main__":
    sys.exit(entry.main(sys.argv[1:]))

"""Runs ``python -m bot``'s ``main`` with ``Bot.login`` replaced by one that does the
start-up work that needs no Discord (setup_hook without the command sync) and prints
``ready``, and ``Bot.connect`` by a wait until the bot is closed. Used by test_main to
test shutdown."""

from __future__ import annotations

import asyncio
import sys

import bot.cli.main as entry
from bot.app import SchottenBot


async def login(self: SchottenBot, token: str) -> None:
    self.sync_on_start = False  # syncing needs Discord
    await self.setup_hook()
    print("ready", flush=True)


async def connect(self: SchottenBot, *, reconnect: bool = True) -> None:
    while not self.is_closed():
        await asyncio.sleep(0.02)


SchottenBot.login = login  # type: ignore[method-assign]
SchottenBot.connect = connect  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(entry.main(sys.argv[1:]))

"""Runs ``python -m bot``'s ``main`` with ``Bot.start`` replaced by one that does the
start-up work that needs no Discord (setup_hook without the command sync), prints
``ready`` and waits until the bot is closed. Used by test_main to test shutdown."""

from __future__ import annotations

import asyncio
import sys

import bot.cli.main as entry
from bot.app import SchottenBot


async def start(self: SchottenBot, token: str, *, reconnect: bool = True) -> None:
    self.sync_on_start = False  # syncing needs Discord
    await self.setup_hook()
    print("ready", flush=True)
    while not self.is_closed():
        await asyncio.sleep(0.02)


SchottenBot.start = start  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(entry.main(sys.argv[1:]))

"""How long an interaction waits for the database before the bot can answer it, when
the database is stopped, slowed or unreachable (packets dropped).

The bot on PostgreSQL (a throwaway server from the system's binaries,
``tests/pgserver.py``) through ``tests/faultproxy.py``. For each fault, N interactions
of members the process has never seen (the worst case: nothing cached) run the bot's
own code in the order an interaction does: the language lookup of ``interaction_check``
(``Languages.enter_quickly``), then the command's first read (``GameService.
active_games_for``, what ``/schotten games`` and every game lookup start with). The
*acknowledgement* is when the bot can first respond: after the lookup for every
command and component, which defer before their database work ("deferring"); after
one read (its result or "the database is unreachable") for ``practice`` and
``leaderboard``, which read once before their public acknowledgement so that a refusal
stays private ("one read first").
Printed: the slowest of each over N, against Discord's 3 s, and the load average.
(simcord is not used: its virtual clock cannot run these real timeouts, see
``tests/cogs/test_db_faults.py``.)

    .venv/bin/python bench/db_faults.py [--interactions 20] [--timeout 2.0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEADLINE = 3.0


async def measure(url: str, proxy: Any, *, interactions: int, timeout: float) -> None:
    from bot.community.languages import Languages
    from bot.games.service import GameService
    from bot.storage import DatabaseUnavailable, PostgresDatabase

    db = PostgresDatabase(url, timeout=timeout)
    await db.connect()
    await db.migrate()
    faults = {
        "healthy": lambda: proxy.release(),
        "stopped": lambda: proxy.refuse(),
        "slowed": lambda: proxy.slow(1.0),
        "dropped": lambda: proxy.hold(),
    }
    print(f"DATABASE_TIMEOUT={timeout:g} s, {interactions} interactions per fault, goal < {DEADLINE:g} s")
    print(f"{'fault':<9} {'deferring cmd max':>18} {'one read first':>14} {'unreachable':>12}")
    user = 10_000
    try:
        for name, apply in faults.items():
            apply()
            languages = Languages(db.players, clock=time.time)  # a fresh process: nothing cached
            service = GameService(db, clock=time.time)
            deferring = other = 0.0
            failed = 0
            for _ in range(interactions):
                user += 1
                start = time.perf_counter()
                await languages.enter_quickly(user, "de", 42, "fr")
                deferring = max(deferring, time.perf_counter() - start)
                try:
                    await service.active_games_for(user)
                except DatabaseUnavailable:
                    failed += 1
                other = max(other, time.perf_counter() - start)
            print(f"{name:<9} {deferring:>17.2f}s {other:>13.2f}s {failed:>9}/{interactions}")
            proxy.release()
            await asyncio.sleep(0.5)
    finally:
        proxy.release()
        await db.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--interactions", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=2.0, help="DATABASE_TIMEOUT (default 2.0)")
    args = parser.parse_args()
    from tests.faultproxy import ThreadedFaultProxy
    from tests.pgserver import PostgresServer

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    server = PostgresServer()
    server.start()
    proxy = ThreadedFaultProxy(str(server.socket_dir))
    try:
        url = proxy.url(server.create_database())
        asyncio.run(measure(url, proxy, interactions=args.interactions, timeout=args.timeout))
    finally:
        proxy.close()
        server.stop()
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

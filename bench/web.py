"""Web pages: page latency under a steady load, and how long a move takes to reach
500 open live pages of one game.

What it measures: the web companion (``bot/web``) on a SQLite database in a temporary
folder, with a game in progress and finished rated games, served on a loopback port in
this process's event loop (as inside the bot). The load comes from a second thread with
its own event loop and aiohttp client, so the figures include a client sharing the
machine (and the GIL): an upper bound.

1. Latency: ``--rate`` requests per second (open loop: sent on schedule whether or not
   earlier ones returned) for ``--seconds``, a mix of the live page, its board picture,
   a replay step, the ladder and a 404; p50, p99 and the worst per kind.
2. Fan-out: ``--pages`` event streams open on one game; a move is committed through
   ``GameService`` (whose listener wakes the game's feed), timed until every stream
   has the new version; ``--moves`` times. Beside it, the commit itself (``apply``
   until it returns) with those pages open: the pages must not slow a move.

    .venv/bin/python bench/web.py [--rate 50] [--seconds 10] [--pages 500] [--moves 5]

Goals: p99 <= 50 ms at 50 requests/s; a move on 500 open pages within 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/web.py` from anywhere
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from bot.archive.history import History  # noqa: E402
from bot.community.stats import Rankings, install  # noqa: E402
from bot.games.service import GameService  # noqa: E402
from bot.settings import Settings  # noqa: E402
from bot.storage import open_database  # noqa: E402
from bot.web.companion import WebCompanion  # noqa: E402
from rules.game import GameOptions  # noqa: E402

T = TypeVar("T")
GUILD = 42
PLAYERS = [1000 + i for i in range(8)]
P99_GOAL_MS = 50.0
FAN_OUT_GOAL_S = 1.0


class Names:
    async def name(self, user_id: int, guild_id: int | None = None) -> str:
        return f"Player {user_id}"

    async def pair(self, players: tuple[int, int], guild_id: int | None) -> tuple[str, str]:
        return f"Player {players[0]}", f"Player {players[1]}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def play(service: GameService, game_id: int, rng: random.Random, moves: int | None = None) -> None:
    """Random legal moves (``moves`` of them, or to the end)."""
    done = 0
    while moves is None or done < moves:
        record = await service.get(game_id)
        if record.game.is_over:
            return
        player = record.current_player
        assert player is not None
        move = rng.choice(record.game.legal_moves())
        await service.apply(game_id, record.players[player], move)
        done += 1


class Client:
    """An event loop in a thread: the load generator."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


async def latency_load(urls: dict[str, str], rate: float, seconds: float) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {kind: [] for kind in urls}
    kinds = list(urls)
    connector = aiohttp.TCPConnector(limit=200)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one(kind: str) -> None:
            started = time.perf_counter()
            async with session.get(urls[kind]) as response:
                await response.read()
                assert response.status == (404 if kind == "404" else 200), (kind, response.status)
            times[kind].append((time.perf_counter() - started) * 1000)

        tasks = []
        start = time.perf_counter()
        total = int(rate * seconds)
        for i in range(total):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(kinds[i % len(kinds)])))
        await asyncio.gather(*tasks)
    return times


async def open_streams(url: str, count: int) -> tuple[aiohttp.ClientSession, list[aiohttp.ClientResponse]]:
    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
    responses = []
    for _ in range(count):
        response = await session.get(url)
        assert response.status == 200, response.status
        await response.content.readuntil(b"\n\n")  # the game as it is
        responses.append(response)
    return session, responses


async def next_events(responses: list[aiohttp.ClientResponse], version: int) -> float:
    """Wait until every stream has sent ``version``; returns when the last one did."""
    needle = f'"version":{version},'.encode()

    async def one(response: aiohttp.ClientResponse) -> float:
        while True:
            event = await response.content.readuntil(b"\n\n")
            if needle in event:
                return time.perf_counter()

    return max(await asyncio.gather(*(one(r) for r in responses)))


async def close_streams(session: aiohttp.ClientSession, responses: list[aiohttp.ClientResponse]) -> None:
    for response in responses:
        response.close()
    await session.close()


async def main(args: argparse.Namespace) -> int:
    folder = tempfile.mkdtemp(prefix="bench-web-")
    db = open_database(os.path.join(folder, "bench.db"))
    await db.connect()
    await db.migrate()
    service = GameService(db)
    install(service)
    rng = random.Random(1)
    finished = []
    for i in range(6):  # rated games for the ladder and the replay
        a, b = rng.sample(PLAYERS, 2)
        record = await service.create_game(
            guild_id=GUILD, channel_id=1, players=(a, b), options=GameOptions(), seed=i
        )
        await play(service, record.id, rng)
        finished.append(record.id)
    live = await service.create_game(
        guild_id=GUILD, channel_id=1, players=(PLAYERS[0], PLAYERS[1]), options=GameOptions(), seed=99
    )
    await play(service, live.id, rng, moves=10)

    settings = Settings(
        web_port=0,
        public_url="http://127.0.0.1",
        web_secret="bench-secret-0123456789abcdef",
        web_max_streams=args.pages + 10,  # within half the open-file limit (ulimit -n)
    )
    web = WebCompanion(
        settings, db, history=History(db.games, db.ratings), rankings=Rankings(db.ratings), names=Names(),
        streams_per_client=args.pages + 10,
    )  # fmt: skip
    await web.start(port=0)
    service.listeners.append(web.on_commit)
    assert web.links is not None
    origin = f"http://127.0.0.1:{web.port}"
    watch = origin + web.links.watch(live.id).removeprefix(web.links.public_url)
    replay = origin + web.links.replay(finished[0]).removeprefix(web.links.public_url)
    urls = {
        "live page": watch,
        "board.png": watch + "/board.png",
        "replay step": replay + "?step=7",
        "ladder": origin + web.links.ladder(GUILD).removeprefix(web.links.public_url),
        "404": watch + "x",
    }
    client = Client()
    try:
        # Warm up: the pictures, the caches, the catalogues.
        await asyncio.wrap_future(client.run(latency_load(urls, 20, 1)))
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
        print(f"1. page latency at {args.rate:g} requests/s for {args.seconds:g} s (open loop):")
        times = await asyncio.wrap_future(client.run(latency_load(urls, args.rate, args.seconds)))
        every = [ms for values in times.values() for ms in values]
        for kind, values in [*times.items(), ("all", every)]:
            print(
                f"   {kind:12} n={len(values):4}  p50 {statistics.median(values):6.1f} ms"
                f"  p99 {percentile(values, 0.99):6.1f} ms  max {max(values):6.1f} ms"
            )
        p99 = percentile(every, 0.99)
        print(
            f"   goal p99 <= {P99_GOAL_MS:g} ms: {'met' if p99 <= P99_GOAL_MS else 'NOT met'} ({p99:.1f} ms)"
        )

        print(f"2. one move to {args.pages} open live pages of one game:")
        session, responses = await asyncio.wrap_future(
            client.run(open_streams(watch + "/events", args.pages))
        )
        delays, commits = [], []
        try:
            for _ in range(args.moves):
                record = await service.get(live.id)
                if record.game.is_over:
                    break
                version = None
                waiter = None
                started = time.perf_counter()
                player = record.current_player
                assert player is not None
                move = rng.choice(record.game.legal_moves())
                # The expected version is known only after the commit; the waiter
                # starts at once after it, and the streams buffer what arrives first.
                outcome = await service.apply(live.id, record.players[player], move)
                commits.append(time.perf_counter() - started)
                version = outcome.game.version
                waiter = client.run(next_events(responses, version))
                last = await asyncio.wrap_future(waiter)
                delays.append(last - started)
        finally:
            await asyncio.wrap_future(client.run(close_streams(session, responses)))
        print(
            f"   {len(delays)} moves: median {statistics.median(delays) * 1000:.0f} ms,"
            f" worst {max(delays) * 1000:.0f} ms (commit to the last page's event)"
        )
        print(
            f"   the commit itself with {args.pages} pages open: median"
            f" {statistics.median(commits) * 1000:.0f} ms, worst {max(commits) * 1000:.0f} ms"
        )
        worst = max(delays)
        print(f"   goal <= {FAN_OUT_GOAL_S:g} s: {'met' if worst <= FAN_OUT_GOAL_S else 'NOT met'}")
    finally:
        client.stop()
        await web.close()
        await db.close()
    return 0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=50.0, help="requests per second (default 50)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the load (default 10)")
    parser.add_argument("--pages", type=int, default=500, help="open live pages of one game (default 500)")
    parser.add_argument("--moves", type=int, default=5, help="moves timed to reach them (default 5)")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))

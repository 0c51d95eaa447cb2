"""The event loop's lag while the AI thinks inside the bot. Prints its figures.

    python bench/ai_in_bot.py                  # direct: 3 practice games at hard, then simcord: 1
    python bench/ai_in_bot.py --games 5 --level hard --simcord-games 2
    python bench/ai_in_bot.py --simcord-games 0   # the direct mode only

Two ways of running the bot's own AI opponent (``bot.games.opponent.Opponent``) with the
production executor, a ``ProcessPoolExecutor`` of ``AI_WORKERS`` (default 1) spawned
processes, while a ticker coroutine sleeps 10 ms again and again and records how late it
wakes up (the loop's lag):

* direct: the bot's runtime without Discord: a SQLite file, the ``GameService``, the
  ``Opponent`` and a publish step that renders the board and the person's hand like the
  table does. The person's moves are random legal moves applied through the service.
* simcord: the whole bot (``create_bot``, every cog) in simcord, the person playing
  through their DM controls; the AI's moves are published by the real ``Publisher``. simcord's
  own bookkeeping runs on the same loop, so these figures are an upper bound.

For contrast, the direct mode is also run with the AI computed on the loop itself (an
inline executor), which is what the worker avoids. Target: loop lag <= 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.app import prepare_engine  # noqa: E402
from bot.games.opponent import Opponent  # noqa: E402
from bot.games.service import GameService  # noqa: E402
from bot.storage import Database  # noqa: E402
from bot.text.render import code_block, render_board, render_hand  # noqa: E402
from rules.ai import choose_move  # noqa: E402
from rules.game import GameOptions  # noqa: E402

TARGET_MS = 50.0
TICK = 0.010
HUMAN, BOT = 1001, 1002


class InlineExecutor(Executor):
    """Runs the job at once, on the calling thread (the event loop): the contrast."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the awaiting coroutine
            future.set_exception(error)
        return future


class Ticker:
    """Sleeps ``TICK`` again and again: ``lags`` is how late each wake-up was, ``busy``
    the loop thread's CPU time during that tick (high: the loop itself was working;
    low with a high lag: the process waited for a core, the GIL or the OS)."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self.busy: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            t0, c0 = loop.time(), time.thread_time()
            await asyncio.sleep(TICK)
            self.lags.append(loop.time() - t0 - TICK)
            self.busy.append(time.thread_time() - c0)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(label: str, ticker: Ticker, decisions: int, wall: float) -> bool:
    ms = [1000 * lag for lag in ticker.lags]
    busy = [1000 * cpu for cpu in ticker.busy]
    ok = max(ms) <= TARGET_MS  # the target is a maximum, not a percentile
    print(
        f"{label}: {decisions} AI decisions in {wall:.1f}s, {len(ms)} ticks\n"
        f"    loop lag p50 {statistics.median(ms):.1f} ms, p99 {pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
        f" (target: max <= {TARGET_MS:.0f} ms: {'met' if ok else 'NOT met'});"
        f" loop-thread CPU in one tick: p99 {pct(busy, 0.99):.1f} ms, max {max(busy):.1f} ms",
        flush=True,
    )
    return ok


async def baseline(seconds: float) -> Ticker:
    """The machine's own noise: the ticker alone, nothing else on the loop."""
    ticker = Ticker()
    ticker.start()
    await asyncio.sleep(seconds)
    await ticker.stop()
    return ticker


# ------------------------------------------------------------------------ direct


async def direct(
    games: int, level: str, workers: int, *, inline: bool, budget: Any
) -> tuple[Ticker, int, float]:
    """Practice games through the service and the opponent; returns (lags, decisions, wall)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(Path(tmp) / "bench.sqlite")
        await db.connect()
        await db.migrate()
        service = GameService(db, turn_timeout=3600)
        names = ("person", "bot")
        decisions = 0

        async def publish(outcome: Any) -> None:
            # What the table computes on the loop for an outcome: the board and a hand.
            record = outcome.game
            code_block(render_board(record.game.view(0), names, bottom=0, game_id=record.id))
            code_block(render_board(record.game.view(0), names))
            render_hand(record.game.view(0))
            await asyncio.sleep(0)
            opponent.notice(record)

        executor = InlineExecutor() if inline else None
        opponent = Opponent(service, workers=workers, executor=executor, publish=publish, budget=budget)
        original_think = opponent.think

        async def counting_think(record: Any) -> Any:
            nonlocal decisions
            decisions += 1
            return await original_think(record)

        opponent.think = counting_think  # type: ignore[method-assign]
        if not inline:  # start the worker before measuring, as a running bot has
            await asyncio.get_running_loop().run_in_executor(opponent.executor, int)
        # What the bot's setup_hook does before it serves anyone: the engine's tables
        # built off the loop, and what lives for good frozen out of the collector.
        await asyncio.to_thread(prepare_engine)
        gc.collect()
        gc.freeze()
        ticker = Ticker()
        ticker.start()
        t0 = time.perf_counter()
        try:
            for seed in range(games):
                record = await service.create_game(
                    guild_id=None,
                    channel_id=None,
                    players=(HUMAN, BOT),
                    options=GameOptions(),
                    seed=seed,
                    ai_player=1,
                    ai_level=level,
                )
                opponent.notice(record)
                rng = random.Random(seed)
                while True:
                    await opponent.wait_idle()
                    record = await service.get(record.id)
                    if record.game.is_over:
                        break
                    move = choose_move(record.game.view(0), level="random", seed=rng.randrange(1 << 30))
                    outcome = await service.apply(record.id, HUMAN, move, expected_version=record.version)
                    await publish(outcome)
        finally:
            wall = time.perf_counter() - t0
            await ticker.stop()
            await opponent.close()
            await db.close()
        return ticker, decisions, wall


# ------------------------------------------------------------------------ simcord


async def in_simcord(games: int, level: str) -> tuple[Ticker, int, float]:
    import simcord

    from bot.app import create_bot
    from tests.cogs.helpers import dm_turn, setup_members

    decisions = 0
    with tempfile.TemporaryDirectory() as tmp:
        bot = create_bot(database=Path(tmp) / "bench.sqlite")
        original_think = bot.opponent.think

        async def counting_think(record: Any) -> Any:
            nonlocal decisions
            decisions += 1
            return await original_think(record)

        bot.opponent.think = counting_think  # type: ignore[method-assign]
        ticker = Ticker()
        try:
            async with simcord.run(bot, settle_timeout=30.0) as env:
                _, channel, (person,) = setup_members(env, ("person",))
                rng = random.Random(1)
                ticker.start()
                t0 = time.perf_counter()
                for _ in range(games):
                    result = await person.slash(channel, "schotten practice", difficulty=level)
                    text = result.followups[0].content if result.followups else result.response.content
                    game_id = int(text.split("Game #", 1)[1].split(" ", 1)[0].rstrip(";.,"))
                    for _turn in range(400):
                        record = await bot.service.get(game_id)
                        if record.game.is_over:
                            break
                        await dm_turn(person, rng)
                wall = time.perf_counter() - t0
                await ticker.stop()
        finally:
            await bot.opponent.close()
            await bot.db.close()
    return ticker, decisions, wall


# ------------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3, help="direct practice games (default 3)")
    parser.add_argument("--simcord-games", type=int, default=1, help="practice games in simcord (default 1)")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--workers", type=int, default=1, help="AI_WORKERS (default 1)")
    parser.add_argument("--inline-games", type=int, default=1, help="contrast games on the loop (default 1)")
    args = parser.parse_args(argv)
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    print(
        f"AI inside the bot: level {args.level}, AI_WORKERS={args.workers}, process pool (spawn);"
        f" Python {sys.version.split()[0]}, {os.cpu_count()} cores, load {load[0]}",
        flush=True,
    )
    ok = True
    report("baseline, the ticker alone for 3 s (machine noise)", asyncio.run(baseline(3.0)), 0, 3.0)
    ticker, decisions, wall = asyncio.run(
        direct(args.games, args.level, args.workers, inline=False, budget=None)
    )
    ok &= report(f"direct, {args.games} game(s), AI in a worker process", ticker, decisions, wall)
    if args.simcord_games:
        ticker, decisions, wall = asyncio.run(in_simcord(args.simcord_games, args.level))
        label = f"simcord, {args.simcord_games} game(s), whole bot, AI in a worker process"
        ok &= report(label, ticker, decisions, wall)
    if args.inline_games:
        ticker, decisions, wall = asyncio.run(
            direct(args.inline_games, args.level, args.workers, inline=True, budget=None)
        )
        report(
            f"contrast: direct, {args.inline_games} game(s), AI on the event loop", ticker, decisions, wall
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

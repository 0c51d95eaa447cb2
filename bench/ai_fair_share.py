"""Another member's AI wait while one member floods the AI with work. Prints its figures.

    python bench/ai_fair_share.py                      # floods of 5, 50 and 100 hints
    python bench/ai_fair_share.py --floods 100 --kind moves
    python bench/ai_fair_share.py --floods 5 --contrast   # also the old first-come order

The bot's runtime without Discord, as in ``bench/ai_in_bot.py``'s direct mode: a SQLite
file, the ``GameService`` and the bot's ``Opponent`` with the production executor, a
process pool of ``AI_WORKERS`` (default 1) spawned processes, limits off. Member A has
as many practice games as the flood is large, member B one (medium, as ``/schotten
practice``). A asks for a hint in every game at once (``--kind moves``: the AI is to
move in every game of A's instead); right after, B makes a move, and the time until
the AI's answer is computed (B's AI wait: waiting for a worker, then its own search) is
printed, next to B's wait with nothing else queued.

``--contrast`` runs the same flood with every search in one queue (first come, first
served), which is how the bot ran before the fair scheduler. Goal: B's AI wait under a
100-hint flood at most 1.5 s with ``AI_WORKERS=1``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.app import prepare_engine  # noqa: E402
from bot.games.opponent import Opponent  # noqa: E402
from bot.games.service import GameService  # noqa: E402
from bot.storage import Database  # noqa: E402
from rules.ai import choose_move  # noqa: E402
from rules.game import GameOptions  # noqa: E402

GOAL = 1.5  # seconds: B's AI wait under a 100-hint flood
A, B, BOT = 1001, 1002, 1003


def load() -> str:
    if not hasattr(os, "getloadavg"):
        return "?"
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (1 min), {five:.2f} (5 min)"


class Run:
    """One bot runtime: the database, the service, the opponent (limits off)."""

    def __init__(self, tmp: str, workers: int, contrast: bool) -> None:
        self.db = Database(Path(tmp) / "bench.sqlite")
        self.service = GameService(self.db, turn_timeout=3600)
        self.opponent = Opponent(self.service, workers=workers, hints_per_minute=0, max_games=0)
        self.waits: dict[int, float] = {}
        think = self.opponent.think

        async def timed(record: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await think(record)
            finally:
                self.waits.setdefault(record.id, time.perf_counter() - t0)

        self.opponent.think = timed  # type: ignore[method-assign]
        if contrast:  # every search in one queue: first come, first served
            scheduler = self.opponent.scheduler
            run = scheduler.run

            async def one_queue(owner: int, call: Any, *, urgent: bool = False) -> Any:
                return await run(0, call)

            scheduler.run = one_queue  # type: ignore[method-assign]

    async def start(self) -> None:
        await self.db.connect()
        await self.db.migrate()
        await asyncio.to_thread(prepare_engine)
        # The worker is up before anything is measured, as in a running bot.
        await asyncio.get_running_loop().run_in_executor(self.opponent.executor, int)

    async def game(self, person: int, seed: int, *, ai_first: bool) -> Any:
        return await self.service.create_game(
            guild_id=None,
            channel_id=None,
            players=(person, BOT),
            options=GameOptions(),
            seed=seed,
            first_player=1 if ai_first else 0,
            ai_player=1,
            ai_level="medium",
        )

    async def b_moves(self, game_id: int, rng: random.Random) -> float:
        """B makes a random move; the AI's wait for its answer (queue and search)."""
        record = await self.service.get(game_id)
        assert record.current_player == 0, "B's game is not at B's turn"
        move = choose_move(record.game.view(0), level="random", seed=rng.randrange(1 << 30))
        outcome = await self.service.apply(game_id, B, move, expected_version=record.version)
        self.waits.pop(game_id, None)
        if not self.opponent.notice(outcome.game):
            return 0.0  # B's move did not hand the turn to the AI
        while game_id not in self.waits:
            await asyncio.sleep(0.005)
        task = self.opponent._tasks.get(game_id)
        if task is not None:
            await task  # the AI's whole turn, so that it is B's turn again
        return self.waits[game_id]

    async def close(self) -> None:
        await self.opponent.close()
        await self.db.close()


async def measure(flood: int, kind: str, workers: int, contrast: bool) -> tuple[list[float], float, int]:
    """B's AI waits alone, under the flood, and how many of A's searches were still queued."""
    with tempfile.TemporaryDirectory() as tmp:
        run = Run(tmp, workers, contrast)
        await run.start()
        jobs: list[asyncio.Future[Any]] = []
        try:
            rng = random.Random(flood)
            b_game = (await run.game(B, 7, ai_first=False)).id
            alone = [await run.b_moves(b_game, rng) for _ in range(3)]
            a_games = [(await run.game(A, seed, ai_first=kind == "moves")).id for seed in range(flood)]
            if kind == "hints":
                records = [await run.service.get(game_id) for game_id in a_games]
                jobs = [asyncio.ensure_future(run.opponent.hint(record, 0)) for record in records]
            else:
                for game_id in a_games:
                    run.opponent.notice(await run.service.get(game_id))
            await asyncio.sleep(0.05)  # the flood is queued, its first search running
            wait = await run.b_moves(b_game, rng)
            queued = run.opponent.scheduler.waiting()
        finally:
            await run.close()  # drops what is still queued
            for job in jobs:
                job.cancel()
            await asyncio.gather(*jobs, return_exceptions=True)
        return alone, wait, queued


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--floods", type=int, nargs="+", default=[5, 50, 100], help="flood sizes (default 5 50 100)"
    )
    parser.add_argument("--kind", choices=("hints", "moves"), default="hints", help="what A floods with")
    parser.add_argument("--workers", type=int, default=1, help="AI_WORKERS (default 1)")
    parser.add_argument("--contrast", action="store_true", help="also the old order: one queue for all")
    args = parser.parse_args(argv)
    print(
        f"AI fair share: member A floods with {args.kind}, member B moves (medium);"
        f" AI_WORKERS={args.workers}, process pool (spawn); Python {sys.version.split()[0]},"
        f" {os.cpu_count()} cores, load {load()}",
        flush=True,
    )
    ok = True
    for flood in args.floods:
        for contrast in (False, True) if args.contrast else (False,):
            alone, wait, queued = asyncio.run(measure(flood, args.kind, args.workers, contrast))
            label = "one queue (before)" if contrast else "fair scheduler"
            line = (
                f"{flood:4d} {args.kind} from A, {label}: B's AI wait {wait:.2f} s"
                f" (alone: median {statistics.median(alone):.2f} s, max {max(alone):.2f} s);"
                f" A's searches still queued then: {queued}; load {load()}"
            )
            if flood >= 100 and args.kind == "hints" and not contrast:
                met = wait <= GOAL
                ok &= met
                line += f"  (goal <= {GOAL} s: {'met' if met else 'NOT met'})"
            print(line, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""The bot's own AI opponent: ``/schotten practice`` and challenging the bot.

A game against the AI is an ordinary game whose seat ``record.ai_player`` belongs to the
bot's own user id; the service treats it like any player. :class:`Opponent` (one per
bot, ``bot.opponent``) plays that seat:

* After every published outcome the table calls :meth:`Opponent.notice`. When the AI is
  to move, one task per game plays the AI's whole turn: claims, the play or pass, the
  draw choice, move after move until the turn passes to the person or the game ends.
* Each decision is ``rules.ai.choose_move(view, level=..., seed=...)`` computed in a
  worker (a ``ProcessPoolExecutor`` of ``AI_WORKERS`` processes, created on first use),
  never on the event loop. Only the AI's :class:`~rules.view.PlayerView` is sent to the
  worker, never the person's hand.
* The move goes through ``service.apply(game_id, bot_user_id, move, expected_version)``
  like a person's, then through the same ``publish`` (the table's): the same board and
  DM updates.
* ``/schotten hint`` asks :meth:`Opponent.hint` for the hard AI's suggestion to the
  person: computed in the same workers from the person's own view (what they know, no
  more), once per position.
* After a restart :meth:`Opponent.resume` restarts every game where the AI is to move.

The AI's turns have no deadline (the service leaves it empty), so the timers never
remind or forfeit it. Games against the AI are flagged (``LiveGame.vs_ai``, column
``games.ai_player``) so that ratings can leave them out.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from bot.games.errors import GameFinished, ServiceError, StaleControl
from bot.games.lru import LRU
from rules.ai import LEVELS, Budget, Hint, choose_move, hint, parse_level
from rules.errors import IllegalMove
from rules.moves import Move
from rules.view import PlayerView

if TYPE_CHECKING:
    from bot.games.live import LiveGame, MoveOutcome
    from bot.games.service import GameService

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "medium"
#: A turn is a handful of moves (claims, play, draw), but when the person can only pass
#: (the service applies forced passes for them) the AI moves again and again; a whole
#: game has fewer moves than this, so it only bounds a buggy loop.
MAX_MOVES_IN_A_ROW = 500
#: Hints remembered per (game, version, player): asking again for the same position
#: (a double click, an impatient retry) costs nothing and cannot queue search after
#: search in front of the AI's own moves.
HINTS_KEPT = 256

_T = TypeVar("_T")
Publish = Callable[["MoveOutcome"], Awaitable[None]]


def decide(view: PlayerView, level: str, seed: int, budget: Budget | int | float | None = None) -> Move:
    """The AI's move; runs in a worker process (a top-level function, so it pickles)."""
    return choose_move(view, level=level, seed=seed, budget=budget)


def suggest(view: PlayerView, seed: int, budget: Budget | int | float | None = None) -> Hint:
    """The hard AI's suggestion for a person; runs in a worker process like :func:`decide`."""
    return hint(view, seed=seed, budget=budget)


def ai_seed(record: LiveGame) -> int:
    """Reproducible per position of a game, different from game to game."""
    return (record.seed * 1_000_003 + record.version) % (1 << 62)


class Opponent:
    """Plays the AI's seat of every game against the bot.

    ``executor``: where decisions are computed. None (production): a process pool of
    ``workers`` processes, created on first use and shut down by :meth:`close`. Tests may
    pass a ``ThreadPoolExecutor``; an executor passed in is not shut down here.
    ``publish``: shows an outcome on Discord (the table's ``publish``, set by the
    practice cog); None publishes nothing.
    """

    def __init__(
        self,
        service: GameService,
        *,
        workers: int = 1,
        executor: Executor | None = None,
        publish: Publish | None = None,
        budget: Budget | int | float | None = None,
    ) -> None:
        self.service = service
        self.workers = max(1, workers)
        self.publish = publish
        self.budget = budget
        self._executor = executor
        self._owns_executor = executor is None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._hints: LRU[tuple[int, int, int], asyncio.Future[Hint]] = LRU(HINTS_KEPT)
        self.closed = False

    # ------------------------------------------------------------------ executor

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            # "spawn": a fresh interpreter, not a fork of a process with threads
            # (aiosqlite, the gateway) whose locks could be held at fork time.
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    async def think(self, record: LiveGame) -> Move:
        """The AI's next move in ``record``, computed in the executor."""
        assert record.ai_player is not None
        view = record.game.view(record.ai_player)  # the AI's view only
        level = str(parse_level(record.ai_level or DEFAULT_LEVEL))
        return await self._run(partial(decide, view, level, ai_seed(record), self.budget), record.id)

    async def hint(self, record: LiveGame, player: int) -> Hint:
        """What the hard AI would play for ``player`` now, and why: from that player's
        own view (a hint knows what they know), computed in the executor once per
        position."""
        key = (record.id, record.version, player)
        pending = self._hints.get(key)
        if pending is None:
            job = partial(suggest, record.game.view(player), ai_seed(record), self.budget)
            pending = asyncio.ensure_future(self._run(job, record.id))
            self._hints.put(key, pending)
        try:
            return await asyncio.shield(pending)
        except Exception:
            self._hints.pop(key)  # a failed search is not remembered
            raise

    async def _run(self, job: Callable[[], _T], game_id: int) -> _T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, job)
        except BrokenProcessPool:
            if not self._owns_executor:
                raise
            log.warning("AI worker pool broke; starting a new one (game %s)", game_id)
            self._executor = None
            return await loop.run_in_executor(self.executor, job)

    # ------------------------------------------------------------------ turns

    def is_running(self, game_id: int) -> bool:
        task = self._tasks.get(game_id)
        return task is not None and not task.done()

    def notice(self, record: LiveGame) -> bool:
        """Called after an outcome is published (or a game started): if the AI is to
        move in ``record``'s game, play its turn in the background. True if started."""
        if self.closed or not record.is_active or not record.ai_to_move:
            return False
        if self.is_running(record.id):
            return False  # that task re-reads the game before every move
        task = asyncio.get_running_loop().create_task(self._play(record.id), name=f"ai-game-{record.id}")
        self._tasks[record.id] = task
        return True

    async def resume(self) -> int:
        """After a (re)start: play on every game where the AI is to move. Returns how many."""
        started = 0
        for row in await self.service.db.games.all_active_games():
            if row.ai_player is None:
                continue
            try:
                record = await self.service.get(row.id)
            except ServiceError:
                continue  # gone, or unreadable (logged by the service)
            started += self.notice(record)
        if started:
            log.info("Resumed the AI's turn in %d game(s)", started)
        return started

    async def wait_idle(self) -> None:
        """Wait until no AI turn is being played (for tests and the benchmark)."""
        while True:
            tasks = [task for task in self._tasks.values() if not task.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _play(self, game_id: int) -> None:
        try:
            for _ in range(MAX_MOVES_IN_A_ROW):
                if not await self._move(game_id):
                    return
            log.error("AI made %d moves in a row in game %d; stopped", MAX_MOVES_IN_A_ROW, game_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI turn failed in game %d", game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _move(self, game_id: int) -> bool:
        """One AI move if the AI is to move; False when there is nothing (more) to do."""
        record = await self.service.get(game_id)
        if self.closed or not record.is_active or not record.ai_to_move:
            return False
        assert record.ai_player is not None
        try:
            move = await self.think(record)
        except Exception:
            # A bug in the AI must not stall the game: any legal move keeps it going.
            log.exception("AI failed to choose a move in game %d; playing a random one", game_id)
            move = choose_move(record.game.view(record.ai_player), level="random", seed=ai_seed(record))
        if self.closed:
            return False
        user_id = record.players[record.ai_player]
        try:
            outcome = await self.service.apply(game_id, user_id, move, expected_version=record.version)
        except (StaleControl, GameFinished):
            return True  # the person resigned or the game moved on: look again
        except IllegalMove as error:
            # Its code only: an engine message may name a card of the AI's hand.
            log.error("AI chose an illegal move (%s) in game %d; playing a random one", error.code, game_id)
            fallback = choose_move(record.game.view(record.ai_player), level="random", seed=ai_seed(record))
            outcome = await self.service.apply(game_id, user_id, fallback, expected_version=record.version)
        log.debug("AI moved in game %d -> version %d", game_id, outcome.game.version)
        if self.publish is not None:
            try:
                await self.publish(outcome)
            except Exception:
                # The move is committed; the next publish shows the latest state anyway.
                log.exception("publishing the AI's move in game %d failed", game_id)
        return True

    # ------------------------------------------------------------------ shutdown

    async def close(self) -> None:
        """Stop playing and shut the worker pool down (called by ``Bot.close``)."""
        self.closed = True
        tasks = [task for task in self._tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        if self._owns_executor and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Opponent", "ai_seed", "decide", "suggest"]

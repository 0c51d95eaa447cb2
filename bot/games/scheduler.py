"""Fair scheduling of the AI's searches over its worker pool.

Every search (an AI move, a hint) is for someone: its *owner*, the member of a practice
game for the AI's moves, the asker for a hint. :class:`FairScheduler` keeps one queue
per owner and never hands the executor more than ``slots`` searches at once (one per
worker process). When a slot frees, the owner served least recently goes next: a
member who has just arrived goes before one with a hundred searches queued, so a
member's queue never delays another member's search by more than the searches already
running. Within one owner, urgent jobs (the AI's moves) go before the others (hints).

A caller that is cancelled while its job waits (an interaction gone, the bot closing)
takes the job out of the queue; a job already running keeps its slot until its worker
is done with it, since a process cannot be interrupted.

When a worker process dies, every job it had fails with ``BrokenProcessPool``. Pools
are numbered (``generation``): the first job to report the break of the current pool
replaces it, once, with one warning; the others (of the same broken pool) just run
again in the new one. An executor passed in (tests) is never replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot import metrics

log = logging.getLogger(__name__)

T = TypeVar("T")

#: How often one job is run again after its pool broke; a job that kills its worker
#: every time (a bug) then fails instead of breaking pool after pool.
RESUBMITS = 2


class SchedulerClosed(RuntimeError):
    """The scheduler was closed while the job waited (the bot is shutting down)."""


@dataclass(eq=False)
class _Job:
    owner: int
    call: Callable[[], Any]
    urgent: bool
    granted: asyncio.Future[None]
    detached: bool = False  # the caller left while it ran: the slot is freed when it ends


@dataclass
class _Owner:
    urgent: deque[_Job] = field(default_factory=deque)
    normal: deque[_Job] = field(default_factory=deque)
    running: int = 0
    served: int = -1  # the ticket of the last job given a slot; -1: never served
    arrived: int = 0  # when the owner's oldest waiting job came (ties between newcomers)

    @property
    def waiting(self) -> int:
        return len(self.urgent) + len(self.normal)


class FairScheduler:
    """Runs jobs in an executor, at most ``slots`` at once, fairly across owners.

    ``factory`` makes the executor (on first use, and again after a broken pool);
    ``executor``, if given instead, is used as it is and never replaced or shut down.
    """

    def __init__(
        self,
        *,
        slots: int,
        factory: Callable[[], Executor] | None = None,
        executor: Executor | None = None,
    ) -> None:
        if (factory is None) == (executor is None):
            raise ValueError("give either a factory or an executor")
        self.slots = max(1, slots)
        self._factory = factory
        self._executor = executor
        self._owners: dict[int, _Owner] = {}
        self._running = 0
        self._tickets = itertools.count()
        self.generation = 0  # the number of the current pool
        self.restarts = 0  # pools replaced after a break
        self.closed = False

    # ------------------------------------------------------------------ the executor

    @property
    def owns_executor(self) -> bool:
        return self._factory is not None

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            assert self._factory is not None
            self._executor = self._factory()
        return self._executor

    def _replace(self, generation: int) -> None:
        """The pool of ``generation`` broke: replace it unless that is done already."""
        if generation != self.generation or self._factory is None:
            return
        broken, self._executor = self._executor, None
        self.generation += 1
        self.restarts += 1
        log.warning(
            "AI worker pool broke (a worker process died); starting a new one (restart %d)", self.restarts
        )
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ queries

    @property
    def running(self) -> int:
        """Jobs in the executor now."""
        return self._running

    def waiting(self, owner: int | None = None) -> int:
        """Jobs queued (of ``owner``, or of everyone)."""
        if owner is not None:
            state = self._owners.get(owner)
            return 0 if state is None else state.waiting
        return sum(state.waiting for state in self._owners.values())

    # ------------------------------------------------------------------ running a job

    async def run(self, owner: int, call: Callable[[], T], *, urgent: bool = False) -> T:
        """``call()`` in the executor once this owner's turn comes; its result."""
        if self.closed:
            raise SchedulerClosed("the AI scheduler is closed")
        loop = asyncio.get_running_loop()
        job = _Job(owner, call, urgent, loop.create_future())
        state = self._owners.get(owner)
        if state is None:
            state = self._owners[owner] = _Owner()
        if not state.waiting:
            state.arrived = next(self._tickets)
        (state.urgent if urgent else state.normal).append(job)
        self._dispatch()
        try:
            await job.granted
        except asyncio.CancelledError:
            # Cancelling the task cancels the future it waits for, unless the slot was
            # granted in the same instant: then the slot is given back.
            if not job.granted.done() or job.granted.cancelled():
                self._unqueue(job)
            elif job.granted.exception() is None:
                self._release(owner)
            raise
        started = time.perf_counter()
        try:
            return await self._execute(job, loop)
        finally:
            seconds = time.perf_counter() - started
            metrics.AI_SECONDS.labels(kind="move" if urgent else "hint").observe(seconds)
            if not job.detached:
                self._release(owner)

    async def _execute(self, job: _Job, loop: asyncio.AbstractEventLoop) -> Any:
        resubmits = 0
        while True:
            generation = self.generation
            future = loop.run_in_executor(self.executor, job.call)
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                # The caller left; the worker goes on with the search: its slot stays
                # taken until the search ends, so the executor never holds more than
                # ``slots`` jobs.
                job.detached = True
                future.add_done_callback(lambda done: self._detached_done(done, job.owner))
                raise
            except BrokenProcessPool:
                if self._factory is None or resubmits >= RESUBMITS or self.closed:
                    raise
                resubmits += 1
                self._replace(generation)

    def _detached_done(self, future: asyncio.Future[Any], owner: int) -> None:
        if not future.cancelled():
            future.exception()  # retrieved: nobody waits for it any more
        self._release(owner)

    # ------------------------------------------------------------------ bookkeeping

    def _unqueue(self, job: _Job) -> None:
        state = self._owners.get(job.owner)
        if state is None:
            return
        queue = state.urgent if job.urgent else state.normal
        with contextlib.suppress(ValueError):
            queue.remove(job)
        self._forget_if_idle(job.owner, state)

    def _release(self, owner: int) -> None:
        self._running -= 1
        state = self._owners[owner]
        state.running -= 1
        self._forget_if_idle(owner, state)
        self._dispatch()

    def _forget_if_idle(self, owner: int, state: _Owner) -> None:
        if not state.waiting and not state.running:
            del self._owners[owner]  # bounded by the owners with work, not by all ever seen

    def _dispatch(self) -> None:
        while self._running < self.slots:
            candidates = [(s.served, s.arrived, o) for o, s in self._owners.items() if s.waiting]
            if not candidates:
                return
            _, _, owner = min(candidates)
            state = self._owners[owner]
            job = (state.urgent or state.normal).popleft()
            if job.granted.done():  # cancelled in the meantime
                continue
            self._running += 1
            state.running += 1
            state.served = next(self._tickets)
            if state.waiting:
                state.arrived = state.served
            job.granted.set_result(None)

    def close(self) -> None:
        """Refuse new jobs, fail the queued ones, shut an owned executor down."""
        self.closed = True
        for state in self._owners.values():
            for job in (*state.urgent, *state.normal):
                if not job.granted.done():
                    job.granted.set_exception(SchedulerClosed("the AI scheduler is closed"))
            state.urgent.clear()
            state.normal.clear()
        if self._factory is not None and self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


__all__ = ["RESUBMITS", "FairScheduler", "SchedulerClosed"]

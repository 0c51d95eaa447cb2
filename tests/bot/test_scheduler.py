"""``FairScheduler``: fair turns between owners, at most ``slots`` jobs in the executor,
cancelled waiters leave the queue, a broken pool replaced once. With a fake executor
whose jobs end when the test says so."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot.games.scheduler import FairScheduler, SchedulerClosed


class FakeExecutor(Executor):
    """Holds every job until :meth:`finish` (or :meth:`break_pool`)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[[], Any], Future[Any]]] = []
        self.shut = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_running_or_notify_cancel()
        self.jobs.append((fn, future))
        return future

    @property
    def running(self) -> list[Any]:
        return [fn() for fn, future in self.jobs if not future.done()]

    async def finish(self, index: int = 0) -> None:
        pending = [(fn, future) for fn, future in self.jobs if not future.done()]
        fn, future = pending[index]
        future.set_result(fn())
        await settle()

    async def break_pool(self) -> None:
        for _, future in self.jobs:
            if not future.done():
                future.set_exception(BrokenProcessPool("a worker died"))
        await settle()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shut = True


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def job(name: str) -> Callable[[], str]:
    return lambda: name


async def test_a_newcomer_goes_before_a_flooding_owner() -> None:
    executor = FakeExecutor()
    scheduler = FairScheduler(slots=1, executor=executor)
    flood = [asyncio.ensure_future(scheduler.run(1, job(f"a{i}"))) for i in range(10)]
    await settle()
    assert executor.running == ["a0"] and scheduler.waiting(1) == 9
    other = asyncio.ensure_future(scheduler.run(2, job("b"), urgent=True))
    late = asyncio.ensure_future(scheduler.run(3, job("c")))
    await settle()
    await executor.finish()  # a0 done: b, who was never served, goes next
    assert executor.running == ["b"]
    await executor.finish()
    assert await other == "b"
    assert executor.running == ["c"]  # then c, also never served, before a's queue
    await executor.finish()
    for _ in range(9):
        await executor.finish()
    assert [await task for task in flood] == [f"a{i}" for i in range(10)]
    assert await late == "c"
    assert scheduler.running == 0 and scheduler.waiting() == 0


async def test_owners_take_turns_and_never_exceed_the_slots() -> None:
    executor = FakeExecutor()
    scheduler = FairScheduler(slots=2, executor=executor)
    tasks = [
        asyncio.ensure_future(scheduler.run(owner, job(f"{owner}{i}"))) for owner in (1, 2) for i in range(3)
    ]
    await settle()
    order: list[str] = []
    while executor.running:
        assert len(executor.running) <= 2
        order.append(executor.running[0])
        await executor.finish()
    await asyncio.gather(*tasks)
    # 1's first two fill the free slots; from then on the owners alternate.
    assert order == ["10", "11", "20", "12", "21", "22"]


async def test_an_owners_moves_go_before_their_hints() -> None:
    executor = FakeExecutor()
    scheduler = FairScheduler(slots=1, executor=executor)
    first = asyncio.ensure_future(scheduler.run(1, job("hint0")))
    hints = [asyncio.ensure_future(scheduler.run(1, job(f"hint{i}"))) for i in (1, 2)]
    move = asyncio.ensure_future(scheduler.run(1, job("move"), urgent=True))
    await settle()
    await executor.finish()
    assert executor.running == ["move"]
    for _ in range(3):
        await executor.finish()
    await asyncio.gather(first, move, *hints)


async def test_a_cancelled_waiter_leaves_the_queue_and_a_running_job_keeps_its_slot() -> None:
    executor = FakeExecutor()
    scheduler = FairScheduler(slots=1, executor=executor)
    running = asyncio.ensure_future(scheduler.run(1, job("running")))
    queued = asyncio.ensure_future(scheduler.run(1, job("queued")))
    after = asyncio.ensure_future(scheduler.run(2, job("after")))
    await settle()
    queued.cancel()
    running.cancel()  # its interaction is gone, but the worker is busy with it
    await settle()
    assert queued.cancelled() and running.cancelled()
    assert scheduler.waiting(1) == 0
    assert executor.running == ["running"] and scheduler.running == 1  # the slot is still taken
    await executor.finish()  # the search ends: only now the next job goes in
    assert executor.running == ["after"]
    await executor.finish()
    assert await after == "after"
    assert [fn() for fn, _ in executor.jobs] == ["running", "after"]  # "queued" never ran


async def test_a_broken_pool_is_replaced_once_and_every_job_completes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    pools: list[FakeExecutor] = []

    def factory() -> FakeExecutor:
        pools.append(FakeExecutor())
        return pools[-1]

    scheduler = FairScheduler(slots=2, factory=factory)
    tasks = [asyncio.ensure_future(scheduler.run(i % 3, job(f"j{i}"))) for i in range(30)]
    await settle()
    assert len(pools) == 1 and len(pools[0].running) == 2  # 28 wait in the queue, not in the pool
    with caplog.at_level(logging.WARNING):
        await pools[0].break_pool()  # both running jobs fail with BrokenProcessPool
    assert len(pools) == 2 and scheduler.restarts == 1 and scheduler.generation == 1
    assert pools[0].shut
    assert len([r for r in caplog.records if "pool broke" in r.getMessage()]) == 1
    while pools[1].running:
        await pools[1].finish()
    assert sorted(await asyncio.gather(*tasks)) == sorted(f"j{i}" for i in range(30))
    assert len(pools) == 2


async def test_a_given_executor_is_never_replaced() -> None:
    executor = FakeExecutor()
    scheduler = FairScheduler(slots=1, executor=executor)
    task = asyncio.ensure_future(scheduler.run(1, job("x")))
    await settle()
    await executor.break_pool()
    with pytest.raises(BrokenProcessPool):
        await task
    assert scheduler.restarts == 0 and scheduler.running == 0


async def test_closing_fails_the_queued_jobs() -> None:
    executor = FakeExecutor()
    scheduler = FairScheduler(slots=1, executor=executor)
    running = asyncio.ensure_future(scheduler.run(1, job("a")))
    queued = asyncio.ensure_future(scheduler.run(2, job("b")))
    await settle()
    scheduler.close()
    await executor.finish()
    assert await running == "a"
    with pytest.raises(SchedulerClosed):
        await queued
    with pytest.raises(SchedulerClosed):
        await scheduler.run(3, job("c"))
    assert not executor.shut  # not the scheduler's to shut down

"""An event loop whose clock can stand still, for tests of time bounds without the wall clock.

``VirtualClockLoop`` runs on the real monotonic clock until ``frozen()``: then its
clock stands still while the loop works, and when the loop has had nothing to do for
``IDLE`` seconds of real time it jumps to its next timer. Inside ``frozen()`` the time a
call takes is the sum of the timers it waited for (a timeout, a pause), never how busy
the machine is; a call that waits on no timer at all is cut short by a guard timer of
the test's, which the clock jumps to as well. Out of ``frozen()`` the clock runs on
from where it stood, so it never goes back.

Use it with ``asyncio.Runner(loop_factory=VirtualClockLoop)``.
"""

from __future__ import annotations

import asyncio
import selectors
import time
from collections.abc import Iterator
from contextlib import contextmanager

IDLE = 0.05  # seconds of real time with nothing to do before the clock jumps


class _Clock:
    def __init__(self) -> None:
        self.offset = 0.0
        self.stopped_at: float | None = None  # None: running on the real clock

    def now(self) -> float:
        return time.monotonic() + self.offset if self.stopped_at is None else self.stopped_at


class _JumpingSelector(selectors.DefaultSelector):  # type: ignore[misc, valid-type]
    """The loop's selector: while the clock stands still, an idle wait for the next
    timer ends after ``IDLE`` and moves the clock on to that timer."""

    def __init__(self, clock: _Clock) -> None:
        super().__init__()
        self.clock = clock

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        clock = self.clock
        if clock.stopped_at is None:
            return list(super().select(timeout))
        events = list(super().select(IDLE if timeout is None else min(timeout, IDLE)))
        if not events and timeout is not None and clock.stopped_at is not None:
            clock.stopped_at += timeout  # nothing came: on to the next timer
        return events


class VirtualClockLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self.clock = _Clock()
        super().__init__(_JumpingSelector(self.clock))

    def time(self) -> float:
        return self.clock.now()

    @contextmanager
    def frozen(self) -> Iterator[None]:
        """The clock stands still in this block but for jumps to the next timer."""
        clock = self.clock
        clock.stopped_at = clock.now()
        try:
            yield
        finally:
            clock.offset = clock.stopped_at - time.monotonic()
            clock.stopped_at = None

"""The server's clocks: the system clock in production, a manual one in tests.

Every actor reads the time and waits through the clock it was given, never through ``datetime.now`` or
``asyncio.sleep`` itself, so the server's table logic runs on a test's clock: time moves only when the
test moves it, and a two-minute time bank passes in no time at all.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar

__all__ = ["Clock", "ManualClock", "SystemClock"]

T = TypeVar("T")


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time (aware, UTC)."""
        ...

    async def wait(self, aw: Awaitable[T], deadline: datetime | None) -> T:
        """Await ``aw`` until ``deadline`` (None: without a limit); raise :class:`TimeoutError` when the
        deadline comes first (``aw`` is then cancelled)."""
        ...

    async def sleep_until(self, deadline: datetime) -> None: ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def wait(self, aw: Awaitable[T], deadline: datetime | None) -> T:
        if deadline is None:
            return await aw
        timeout = max(0.0, (deadline - self.now()).total_seconds())
        if isinstance(aw, asyncio.Future):
            return await _wait_future(aw, timeout)
        async with asyncio.timeout(timeout):  # (no task per wait, as wait_for makes on Python 3.11)
            return await aw

    async def sleep_until(self, deadline: datetime) -> None:
        await asyncio.sleep(max(0.0, (deadline - self.now()).total_seconds()))


async def _wait_future(fut: asyncio.Future[T], timeout: float) -> T:
    """A future until ``timeout`` seconds: a timer handle that cancels it, instead of ``asyncio.timeout``
    (a Python context manager and its timer; every actor waits so between any two of its jobs, and that
    was over a per cent of the server's CPU in the load test). A cancellation of the waiting task itself
    stays a cancellation, even when the deadline passed at the same moment."""
    expired = False

    def expire() -> None:
        nonlocal expired
        expired = True
        fut.cancel()

    handle = asyncio.get_running_loop().call_later(timeout, expire)
    try:
        return await fut
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if expired and (task is None or not task.cancelling()):
            raise TimeoutError from None
        raise
    finally:
        handle.cancel()


class ManualClock:
    """A clock that moves only when :meth:`advance` (or :meth:`advance_to`) moves it.

    Waiters with a deadline are kept in a heap; moving the clock wakes those whose deadline has come, in
    deadline order. :meth:`next_deadline` says when the next one is due, so a test can move the time
    exactly to the next thing that happens.
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
        self._heap: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> datetime:
        return self._now

    def next_deadline(self) -> datetime | None:
        """When the earliest waiter is due (None: nobody waits)."""
        heap = self._heap
        while heap and heap[0][2].done():  # given up (its job came first) or woken already
            heapq.heappop(heap)
        return heap[0][0] if heap else None

    def _timer(self, deadline: datetime) -> asyncio.Future[None]:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if deadline <= self._now:
            fut.set_result(None)
        else:
            heapq.heappush(self._heap, (deadline, next(self._order), fut))
        return fut

    async def wait(self, aw: Awaitable[T], deadline: datetime | None) -> T:
        if deadline is None:
            return await aw
        task: asyncio.Future[T] = asyncio.ensure_future(aw)
        timer = self._timer(deadline)
        waiting: set[asyncio.Future[Any]] = {task, timer}
        try:
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:
            task.cancel()
            timer.cancel()
            raise
        if task.done():
            timer.cancel()
            return task.result()
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        else:  # it finished in the same instant: keep its result rather than lose it
            return task.result()
        raise TimeoutError

    async def sleep_until(self, deadline: datetime) -> None:
        await self._timer(deadline)

    def advance_to(self, when: datetime) -> None:
        """Move the clock to ``when`` (never backwards) and wake every waiter that is due."""
        if when > self._now:
            self._now = when
        while self._heap and self._heap[0][0] <= self._now:
            _, _, fut = heapq.heappop(self._heap)
            if not fut.done():
                fut.set_result(None)

    def advance(self, seconds: float) -> None:
        self.advance_to(self._now + timedelta(seconds=seconds))

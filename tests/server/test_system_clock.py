"""The real clock's wait (server/clock.py): a result that comes before the deadline is returned; at the
deadline the wait raises TimeoutError and what it waited on is cancelled (a queue's getter is gone, so a
later item is not lost to it)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from pokerroom.server.clock import SystemClock

pytestmark = pytest.mark.asyncio


async def test_a_result_before_the_deadline_is_returned() -> None:
    clock = SystemClock()
    queue: asyncio.Queue[int] = asyncio.Queue()
    queue.put_nowait(7)
    assert await clock.wait(queue.get(), clock.now() + timedelta(seconds=60)) == 7
    assert await clock.wait(asyncio.sleep(0, result=8), None) == 8


async def test_a_passed_deadline_raises_and_cancels_the_wait() -> None:
    clock = SystemClock()
    queue: asyncio.Queue[int] = asyncio.Queue()
    with pytest.raises(TimeoutError):
        await clock.wait(queue.get(), clock.now() - timedelta(seconds=1))
    with pytest.raises(TimeoutError):
        await clock.wait(queue.get(), clock.now() + timedelta(milliseconds=20))
    queue.put_nowait(9)  # no cancelled getter took it
    assert queue.get_nowait() == 9


async def test_a_future_is_waited_for_until_the_deadline_and_then_cancelled() -> None:
    clock = SystemClock()
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[int] = loop.create_future()
    loop.call_soon(ready.set_result, 5)
    assert await clock.wait(ready, clock.now() + timedelta(seconds=60)) == 5
    late: asyncio.Future[int] = loop.create_future()
    with pytest.raises(TimeoutError):
        await clock.wait(late, clock.now() + timedelta(milliseconds=20))
    assert late.cancelled()
    passed: asyncio.Future[int] = loop.create_future()
    with pytest.raises(TimeoutError):
        await clock.wait(passed, clock.now() - timedelta(seconds=1))
    assert passed.cancelled()


async def test_a_cancelled_waiter_is_cancelled_not_timed_out() -> None:
    """The task waiting on a future is cancelled (an actor being stopped): it ends cancelled, both
    before its deadline and when its deadline's timer fires just before the cancellation, in the same
    loop step."""
    clock = SystemClock()
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[int] = loop.create_future()
    waiter = asyncio.ensure_future(clock.wait(fut, clock.now() + timedelta(seconds=60)))
    await asyncio.sleep(0)  # the waiter waits
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert fut.cancelled()
    fut = loop.create_future()
    waiter = asyncio.ensure_future(clock.wait(fut, clock.now() - timedelta(seconds=1)))
    await asyncio.sleep(0)  # the waiter waits; its timer (0 s) is set
    loop.call_later(0, waiter.cancel)  # due with it, after it
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert waiter.cancelled() and fut.cancelled()

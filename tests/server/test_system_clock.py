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

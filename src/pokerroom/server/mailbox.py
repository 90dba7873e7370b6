"""The inbox every actor of the server runs on: one task that runs queued jobs one at a time, so nothing
else mutates what the actor owns and no lock is needed. Each actor writes its own ``_run`` loop (when to
tick, what its clock is) around :meth:`Mailbox.serve_one`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["Mailbox"]

Job = tuple[Callable[[], Awaitable[Any]], "asyncio.Future[Any]"]


class Mailbox:
    def __init__(self) -> None:
        self.inbox: asyncio.Queue[Job] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.task_name())

    def task_name(self) -> str:
        return type(self).__name__

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def call(self, job: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``job`` inside the actor (after what is queued before it) and return its result."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.inbox.put((job, fut))
        return await fut

    async def serve_one(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a job and run it; its result or exception goes back to the
        caller and the actor goes on. True if a job ran."""
        try:
            fn, fut = await asyncio.wait_for(self.inbox.get(), timeout)
        except TimeoutError:
            return False
        try:
            result = await fn()
        except Exception as exc:
            if not fut.done():
                fut.set_exception(exc)
        else:
            if not fut.done():
                fut.set_result(result)
        return True

    async def _run(self) -> None:
        raise NotImplementedError

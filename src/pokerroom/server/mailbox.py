"""The inbox every actor of the server runs on: one task runs queued jobs one at a time, so nothing else
mutates what the actor owns and no lock is needed; between jobs it lets time pass on its injected clock.

A stopped actor refuses what it was asked and will never do (:meth:`Mailbox.stop`): the job in hand, the
queued ones and any asked later get :class:`ActorStopped` (``room_unavailable``), so that no caller waits
for ever on a mailbox nobody serves.

An actor says when it next has something to do (:meth:`Mailbox.next_deadline`) and what to do then
(:meth:`Mailbox.tick`); the loop waits for a job or that moment, whichever comes first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from pokerroom.server.clock import Clock
from pokerroom.server.errors import Refused
from pokerroom.server.logs import log_context
from pokerroom.store.fence import FENCE, Fence

__all__ = ["ActorStopped", "Mailbox"]

log = logging.getLogger("pokerroom.actor")

Job = tuple[Callable[[], Awaitable[Any]], "asyncio.Future[Any]"]

MAX_WAIT = timedelta(seconds=1)  # the longest the loop sleeps without looking at its deadlines again
IDLE_WAIT = timedelta(seconds=0.1)  # after a tick that changed nothing, before a due deadline is tried again


class ActorStopped(Refused):
    """A job refused because its actor stopped (:meth:`Mailbox.stop`): a client gets ``room_unavailable``
    (it tries again, on the table's new host if it moved); a caller of the room's own takes it as the end
    of that actor, not as an error."""

    def __init__(self, why: str) -> None:
        super().__init__("room_unavailable", why)


def _unheard(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()  # (read: a job nobody waits for leaves no "exception was never retrieved")


class Mailbox:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        # The queued jobs, and the future the waiting loop sleeps on (a deque and one future per wait cost a
        # fraction of an asyncio.Queue's get and put, on every action of every table: docs/server-speed.md).
        # A job lives in the deque until it runs, so a wait that times out as it arrives loses nothing.
        self.inbox: deque[Job] = deque()
        self._wake: asyncio.Future[None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._in_hand: asyncio.Future[Any] | None = None  # the future of the job running now
        self._stopped: str | None = None  # why it stopped (then every job is refused)
        self.waiting = False  # waiting for a job or the clock, with nothing queued (tests read it)
        self.fence: Fence | None = None  # a cluster's host: the lease this actor writes under

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.task_name())

    def task_name(self) -> str:
        return type(self).__name__

    async def stop(self, why: str | None = None) -> None:
        """End the actor's task; the job in hand, the queued ones and any asked later are refused
        (``room_unavailable``, with ``why``: the caller's client tries again, on the table's new host if
        it moved), never left waiting."""
        if self._stopped is None:
            self._stopped = why or f"{self.task_name()} stopped; try again"
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        jobs = [fut for _job, fut in self.inbox]
        self.inbox.clear()
        refused = [fut for fut in jobs if not fut.done()]
        for fut in refused:
            fut.set_exception(self._refusal())
        in_hand, self._in_hand = self._in_hand, None
        if in_hand is not None and not in_hand.done():
            # (cut off while it ran: it may have taken effect, so the caller looks before he repeats it)
            in_hand.set_exception(
                ActorStopped(
                    f"{self._stopped}; stopped while serving this request, which"
                    " may have taken effect: look again before repeating it"
                )
            )
            refused.append(in_hand)
        if refused:
            log.info("%s: refused %d job(s) on stopping", self.task_name(), len(refused))

    def _refusal(self) -> ActorStopped:
        return ActorStopped(self._stopped or "stopped")

    async def call(self, job: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``job`` inside the actor (after what is queued before it) and return its result."""
        if self._stopped is not None:
            raise self._refusal()
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.append((job, fut))
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)
        return await fut

    def queue_first(self, job: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``job`` ahead of every other, with no caller waiting for it (its failure, or its refusal
        by a stop, is the actor's own business: nobody is left with an unread exception)."""
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(_unheard)
        self.inbox.appendleft((job, fut))
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def serve_one(self, deadline: datetime | None) -> bool:
        """Wait until ``deadline`` for a job and run it; its result or exception goes back to the caller
        and the actor goes on. True if a job ran."""
        if not self.inbox:
            self.waiting = True
            wake = self._wake = asyncio.get_running_loop().create_future()
            try:
                await self.clock.wait(wake, deadline)
            except TimeoutError:
                return False
            finally:
                self.waiting = False
                self._wake = None
        fn, fut = self.inbox.popleft()
        self._in_hand = fut  # (left set if the task is cancelled under the job: stop refuses it)
        try:
            result = await fn()
        except Exception as exc:
            answer = await self.on_job_error(exc)
            if not fut.done():
                fut.set_exception(answer)
        else:
            if not fut.done():
                fut.set_result(result)
        self._in_hand = None
        return True

    async def on_job_error(self, exc: Exception) -> Exception:
        """A job failed: what its caller gets (the actor may recover first: server/faults.py)."""
        return exc

    def next_deadline(self) -> datetime | None:
        """When :meth:`tick` next has something to do (None: nothing planned)."""
        return None

    async def tick(self) -> bool:
        """Let the actor's time pass; True if anything happened."""
        return False

    def log_fields(self) -> dict[str, str]:
        """What every log line of this actor says about where it comes from (server/logs.py)."""
        return {"actor": self.task_name()}

    async def hold(self, fence: Fence) -> None:
        """From now on every write of this actor carries ``fence`` (store/fence.py); run with :meth:`call`
        so that it is set in the actor's own task."""
        self.fence = fence
        FENCE.set(fence)

    async def _run(self) -> None:
        log_context(**self.log_fields())
        FENCE.set(self.fence)  # its own lease, never the one of the task that started it
        idle = False
        while True:
            now = self.clock.now()
            deadline = self.next_deadline()
            if deadline is None or deadline > now + MAX_WAIT:
                deadline = now + MAX_WAIT
            if idle:  # a deadline that is due but changes nothing must not spin the event loop
                deadline = max(deadline, now + IDLE_WAIT)
            ran = await self.serve_one(deadline)
            try:
                acted = await self.tick()
            except Exception:  # (an actor handles its own failures; this loop must never end by one)
                log.exception("%s: its clock failed", self.task_name())
                acted = False
            idle = not ran and not acted

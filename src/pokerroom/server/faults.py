"""Store faults: an actor whose store fails pauses, and resumes by itself when the store is back.

Every step of an actor (the notices and effects one call of its table returned) is made durable item by
item, in order: the journal and the ledger first, then the frames (nothing goes out before it is
durable). When the store is unavailable (connection lost, server stopped or frozen, disk full:
:func:`pokerroom.store.unavailable`), the item that failed and every item after it wait in the actor's
:class:`Pause`; the table stands still (no decision times out, no hand starts), its watchers are told
(``table_status``: ``paused``), and a request gets ``store_unavailable``. The actor tries again with a
growing delay (0.5 s up to 5 s): when the store answers, the waiting items are done again from the one
that failed (every write of the journal and the ledger is idempotent: the same start record, command,
release, end record or booking with the same key changes nothing the second time), the pending
decisions get their whole action time again, and the table deals on. So an interrupted hand is
finished when its commands were all accepted; if a waiting item cannot be done at all (the journal
refuses it), the hand is voided as a restart would void it (the journal cancels it: its chips never
moved) and every stack is its seat session's balance again. See docs/operations.md.

Any other failure is a bug: the actor halts (it deals no more) rather than let the table and the store
drift apart; a restart recovers.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pokerroom.server.mailbox import Mailbox
from pokerroom.store import FenceLost, StoreUnavailable, unavailable

__all__ = ["BACKOFF", "FaultTolerantActor", "Pause"]

log = logging.getLogger("pokerroom.faults")

BACKOFF = (0.5, 1.0, 2.0, 4.0, 5.0)  # seconds between tries to reach the store again
PAUSED = "the room is reconnecting to its store"


@dataclass
class Pause:
    """Why and since when an actor waits for its store, and the work it still has to do: each step with
    the index of its first item not yet done."""

    reason: str
    since: datetime
    next_try: datetime
    pending: list[tuple[list[object], int]] = field(default_factory=list)
    tries: int = 0

    def again(self, now: datetime) -> None:
        self.tries += 1
        self.next_try = now + timedelta(seconds=BACKOFF[min(self.tries, len(BACKOFF) - 1)])


class FaultTolerantActor(Mailbox):
    """An actor that makes its steps durable item by item and pauses on a store fault (see the module).

    Subclasses say how to do one item (:meth:`do_item`), what standing still means for them
    (:meth:`on_pause`), how to take up the game again (:meth:`on_resume`), how to void what cannot be
    finished (:meth:`void`) and what their watchers are told (:meth:`tell_status`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pause: Pause | None = None
        self.broken = False  # halted by a bug: deals no more until a restart

    # ------------------------------------------------------------------------ to be filled in

    def name(self) -> str:
        return self.task_name()

    async def do_item(self, item: object, step: Sequence[object]) -> None:
        raise NotImplementedError

    def on_pause(self) -> None:
        """Stand still: no new hand, no timeout."""

    async def on_resume(self) -> None:
        """The store is back and the waiting work is done: take up the game (fresh clocks, deal on)."""

    async def reconcile(self) -> None:
        """After a fault: undo what the store did without the actor knowing (e.g. a buy-in booked whose
        answer was lost)."""

    async def void(self) -> None:
        """A waiting item cannot be done at all: void what is interrupted, as a restart would."""
        raise NotImplementedError

    def tell_status(self, paused: bool, reason: str | None) -> None:
        """Tell the watchers that the actor paused or plays again."""

    def fenced_out(self) -> None:
        """Another host of the cluster took this actor's table over (its lease's fence moved on): stop at
        once, writing nothing more; the new host recovered the table from the store."""
        if not self.broken:
            log.warning("%s: another host runs it now; this one stops", self.name())
        self.broken = True
        self.on_fenced_out()

    def on_fenced_out(self) -> None:
        """What the actor's owner does when it is fenced out (a host drops the actor)."""
        callback = getattr(self, "on_lost", None)
        if callback is not None:
            callback(self)

    def halt(self, why: str) -> None:
        """Something failed that is not a store fault: stop dealing (a restart recovers)."""
        if not self.broken:
            log.exception("%s halted: %s", self.name(), why)
        self.broken = True

    # ------------------------------------------------------------------------------- the steps

    def check_open(self) -> None:
        """Refuse a request while the actor waits for its store."""
        if self.pause is not None:
            raise StoreUnavailable(PAUSED)

    async def process(self, step: Sequence[object]) -> None:
        """Make one step durable and send what it says, item by item; on a store fault the rest waits and
        the caller gets :class:`StoreUnavailable` (the step will still be done when the store is back)."""
        if self.pause is not None:
            self.pause.pending.append((list(step), 0))
            raise StoreUnavailable(PAUSED)
        await self._do_step(list(step), 0)

    async def after_step(self, step: Sequence[object]) -> None:
        """What follows a step once all its items are done (e.g. a broke Rush entry leaves its pool)."""

    async def _do_step(self, step: list[object], start: int) -> None:
        for i in range(start, len(step)):
            try:
                await self.do_item(step[i], step)
            except Exception as exc:
                if isinstance(exc, FenceLost):
                    self.fenced_out()
                    raise
                if not unavailable(exc):
                    self.halt("booking or journaling failed")
                    raise
                self._pause_at(step, i, exc)
                raise StoreUnavailable(PAUSED) from None
        await self.after_step(step)

    def _pause_at(self, step: list[object], index: int, exc: BaseException) -> None:
        """The store failed at ``step[index]``: that is now the first thing to do again."""
        if self.pause is not None:
            self.pause.pending.insert(0, (step, index))
            return
        now = self.clock.now()
        reason = f"{type(exc).__name__}: {str(exc)[:120]}"
        log.warning("%s paused: the store failed (%s)", self.name(), reason)
        metrics = getattr(getattr(self, "services", None), "metrics", None)
        if metrics is not None:
            metrics.store_errors.labels(getattr(self, "kind", "table")).inc()
        self.pause = Pause(reason, now, now + timedelta(seconds=BACKOFF[0]), [(step, index)])
        self.on_pause()
        self.tell_status(True, PAUSED)

    def pause_deadline(self) -> datetime | None:
        return self.pause.next_try if self.pause is not None else None

    async def try_resume(self) -> bool:
        """Try the store again (when it is due); True when the actor plays again."""
        old = self.pause
        if old is None:
            return True
        if self.clock.now() < old.next_try:
            return False
        try:
            await self.services_ping()
        except Exception as exc:
            if not unavailable(exc):
                raise
            old.again(self.clock.now())
            return False
        self.pause = None  # live again: what the waiting work sets off runs at once
        pending = list(old.pending)
        while pending:
            step, start = pending.pop(0)
            try:
                await self._do_step(step, start)
            except StoreUnavailable:
                return self._still_paused(old, pending)
            except Exception:
                if self.broken:  # fenced out: another host has the table now
                    return False
                log.exception("%s: the interrupted work cannot be finished; voiding it", self.name())
                try:
                    await self.void()
                except Exception as exc:
                    if unavailable(exc):
                        self._pause_at([], 0, exc)
                        return self._still_paused(old, pending)
                    self.halt("voiding failed")
                    return False
                pending.clear()
        try:
            await self.reconcile()
        except Exception as exc:
            if not unavailable(exc):
                raise
            self._pause_at([], 0, exc)
            return self._still_paused(old, [])
        log.warning("%s resumed after %.1f s", self.name(), (self.clock.now() - old.since).total_seconds())
        self.tell_status(False, None)
        await self.on_resume()
        return True

    def _still_paused(self, old: Pause, rest: list[tuple[list[object], int]]) -> bool:
        """The store failed again while the waiting work was being done: keep waiting (same pause)."""
        assert self.pause is not None
        self.pause.pending.extend(rest)
        self.pause.since, self.pause.tries = old.since, old.tries
        self.pause.again(self.clock.now())
        return False

    async def services_ping(self) -> None:
        raise NotImplementedError

"""Store faults: an actor whose store fails pauses, and resumes by itself when the store is back.

Every step of an actor (the notices and effects one call of its table returned) is made durable item by
item, in order: the journal and the ledger first (a hand's start record, its end record with its
commands, a Rush release, the bookings), then the frames (nothing goes out before what the step wrote is
durable). When the store is unavailable (connection lost, server stopped or frozen, disk full:
:func:`pokerroom.store.unavailable`), the item that failed and every item after it wait in the actor's
:class:`Pause`; the table stands still (no decision times out, no hand starts), its watchers are told
(``table_status``: ``paused``), and a request gets ``store_unavailable``. The actor tries again with a
growing delay (0.5 s up to 5 s): when the store answers, the waiting items are done again from the one
that failed (every write of the journal and the ledger is idempotent: the same start record,
release, end record or booking with the same key changes nothing the second time), the pending
decisions get their whole action time again, and the table deals on. So an interrupted hand is
finished when its commands were all accepted; if a waiting item cannot be done at all (the journal
refuses it), the hand is voided as a restart would void it (the journal cancels it: its chips never
moved) and every stack is its seat session's balance again. See docs/operations.md.

Any other failure is a bug (:meth:`FaultTolerantActor.fail`): it is logged with the hands it touched
and counted (``pokerroom_actor_errors_total``), the hands in progress are voided exactly as a restart
voids them (each actor's :meth:`~FaultTolerantActor.void`: stakes back), the request that met it gets
``hand_voided``, and the actor deals on. The same error three times in a row, with no hand finished in
between, suspends the actor with that reason (``/api/ready`` names it, the console shows it and resumes
it): a bug that strikes every hand must not void hands for ever. Only a host fenced out of a cluster's
table stops for good (``broken``): another host runs it.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pokerroom.engine import Command, EngineError
from pokerroom.server.errors import Refused
from pokerroom.server.logs import event_fields
from pokerroom.server.mailbox import Mailbox
from pokerroom.store import FenceLost, StoreError, StoreUnavailable, unavailable

__all__ = ["BACKOFF", "REPEATS_TO_SUSPEND", "FaultTolerantActor", "HandVoided", "Pause"]

log = logging.getLogger("pokerroom.faults")

BACKOFF = (0.5, 1.0, 2.0, 4.0, 5.0)  # seconds between tries to reach the store again
PAUSED = "the room is reconnecting to its store"
REPEATS_TO_SUSPEND = 3  # the same unexpected error this many times in a row suspends the actor
SUSPENDED = "stopped by an error until the room's staff resume it"


class HandVoided(Refused):
    """What a request that met a bug in the actor gets: the hands in progress were voided."""

    def __init__(self) -> None:
        super().__init__(
            "hand_voided", "the server failed during this hand: it is void and every stake is back"
        )


class _VoidAgain:
    """A waiting item: the voiding that a store fault interrupted (done again when the store is back)."""


_VOID_AGAIN = _VoidAgain()
# What a request may raise on purpose: a refusal, an illegal action, a store's answer or fault.
_EXPECTED = (Refused, EngineError, StoreError, FenceLost)


def error_signature(exc: BaseException) -> str:
    """An error's kind and the line that raised it: two failures with one signature are "the same"."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    return f"{type(exc).__name__}{where}"


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
        self.broken = False  # fenced out of a cluster's table: another host runs it, this one stops
        self.suspended: str | None = None  # why repeated errors stopped it (an operator resumes it)
        self.errors = 0  # unexpected errors since the actor opened
        self.errors_in_a_row = 0  # ... of the same signature, with no hand finished in between
        self.last_error: str | None = None  # the newest one's signature
        self._voiding = False

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

    def live_hands(self) -> list[str]:
        """The ids of the hands in progress (named in the log when one fails)."""
        return []

    def on_suspend(self) -> None:
        """Stand still after repeated errors (no new hand) until :meth:`unsuspend`."""

    async def on_unsuspend(self) -> None:
        """An operator resumed the actor: deal again."""

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

    @property
    def state(self) -> str:
        """``paused`` (for the store), ``suspended`` (by repeated errors), ``halted`` (fenced out),
        ``closing`` or ``playing``: the metrics' and the console's word for it."""
        if self.pause is not None:
            return "paused"
        if self.broken:
            return "halted"
        if self.suspended is not None:
            return "suspended"
        if getattr(self, "closing", False):
            return "closing"
        return "playing"

    @property
    def can_deal(self) -> bool:
        """False while nobody should join, sit or register: paused, suspended, halted or closing."""
        return self.state == "playing"

    def hand_finished(self) -> None:
        """A hand ended normally: the count of errors in a row starts again."""
        self.errors_in_a_row = 0

    async def fail(self, exc: BaseException, where: str) -> None:
        """An unexpected error (a bug, not a store fault) in ``where``: log it with the hands in progress,
        count it, void those hands as a restart would, and deal on; the same error
        :data:`REPEATS_TO_SUSPEND` times in a row suspends the actor."""
        if self._voiding:  # the voiding itself failed: the caller (below) suspends the actor
            raise exc
        signature = error_signature(exc)
        self.errors += 1
        self.errors_in_a_row = self.errors_in_a_row + 1 if signature == self.last_error else 1
        self.last_error = signature
        log.error(
            "%s: %s failed (%s: %s); voiding hand(s) %s",
            self.name(),
            where,
            signature,
            str(exc)[:200],
            ", ".join(self.live_hands()) or "(none in progress)",
            exc_info=exc,
            extra=event_fields("actor_error", actor=self.name(), where=where, error=signature),
        )
        metrics = getattr(getattr(self, "services", None), "metrics", None)
        if metrics is not None:
            metrics.actor_errors.labels(getattr(self, "kind", "table")).inc()
        await self._void_now(signature)
        if self.errors_in_a_row >= REPEATS_TO_SUSPEND and self.suspended is None:
            self.suspend(f"{signature}, {self.errors_in_a_row} times in a row")

    async def _void_now(self, signature: str) -> None:
        self._voiding = True
        try:
            await self.void()
        except Exception as exc:
            if unavailable(exc):
                self._pause_at([_VOID_AGAIN], 0, exc)  # voided when the store is back
            else:
                log.exception("%s: voiding after %s failed", self.name(), signature)
                self.suspend(f"voiding the hands after {signature} failed: {error_signature(exc)}")
        finally:
            self._voiding = False

    def suspend(self, reason: str) -> None:
        """Stop dealing until an operator resumes the actor (the console, ``/api/ready`` show why)."""
        fields = event_fields("actor_suspended", actor=self.name(), reason=reason)
        log.error("%s suspended: %s", self.name(), reason, extra=fields)
        self.suspended = reason
        self.on_suspend()
        self.tell_status(True, SUSPENDED)

    async def unsuspend(self) -> bool:
        """An operator resumes a suspended actor (run it with :meth:`call`); False if it was not."""
        if self.suspended is None:
            return False
        log.warning(
            "%s resumed by an operator (it was suspended: %s)",
            self.name(),
            self.suspended,
            extra=event_fields("actor_resumed", actor=self.name(), reason=self.suspended),
        )
        self.suspended = None
        self.errors_in_a_row = 0
        if self.pause is None:
            self.tell_status(False, None)
            await self.on_unsuspend()
        return True

    async def on_job_error(self, exc: Exception) -> Exception:
        """A request failed inside the actor: a refusal goes back as it is; anything unexpected is a bug
        (:meth:`fail`) and the requester gets :class:`HandVoided`."""
        if isinstance(exc, _EXPECTED) or unavailable(exc):
            return exc
        try:
            await self.fail(exc, "a request")
        except Exception:  # (fail raises only while voiding: not here)
            log.exception("%s: handling a failed request failed", self.name())
        return HandVoided()

    # ------------------------------------------------------------------------------- the steps

    def check_open(self) -> None:
        """Refuse a request while the actor waits for its store."""
        if self.pause is not None:
            raise StoreUnavailable(PAUSED)

    def check_dealing(self) -> None:
        """Refuse a newcomer (a seat, an entry, a registration) while the actor cannot deal."""
        FaultTolerantActor.check_open(self)
        if self.suspended is not None or self.broken:
            raise Refused("table_suspended", SUSPENDED)

    async def play(
        self,
        accept: Callable[[], tuple[Command, int] | None],
        apply: Callable[[Command], Sequence[object]],
        applied: Callable[[int], None],
    ) -> bool:
        """A player's action, the same sequence at every kind of table (written once here): the actor must
        be open; ``accept`` checks it (:meth:`TableCore.accept`: the command and its action number, or
        None for a retry already applied, which is acknowledged and not applied again); ``apply`` applies
        the command (the step it returns), ``applied`` remembers it under its number; then the step is
        made durable and sent (:meth:`process`) and the action is timed for ``/metrics``. True when it
        was a retry."""
        self.check_open()
        taken = accept()
        if taken is None:
            return True
        command, number = taken
        began = time.perf_counter()
        out = apply(command)
        applied(number)
        await self.process(out)
        metrics = getattr(getattr(self, "services", None), "metrics", None)
        if metrics is not None:
            metrics.action(getattr(self, "kind", "table"), time.perf_counter() - began)
        return False

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
                if step[i] is _VOID_AGAIN:
                    await self.void()
                else:
                    await self.do_item(step[i], step)
            except HandVoided:
                raise  # (an inner step failed and voided everything already)
            except Exception as exc:
                if isinstance(exc, FenceLost):
                    self.fenced_out()
                    raise
                if not unavailable(exc):
                    await self.fail(exc, "booking or journaling")
                    raise HandVoided() from None
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
        log.warning(
            "%s paused: the store failed (%s)",
            self.name(),
            reason,
            extra=event_fields("store_paused", actor=self.name(), error=reason),
        )
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
            except HandVoided:  # the interrupted work could not be finished: it was voided (fail)
                if self.pause_deadline() is not None:  # (the store failed again while voiding)
                    return self._still_paused(old, [])
                pending.clear()
            except Exception:
                if self.broken:  # fenced out: another host has the table now
                    return False
                raise
        try:
            await self.reconcile()
        except Exception as exc:
            if not unavailable(exc):
                raise
            self._pause_at([], 0, exc)
            return self._still_paused(old, [])
        took = (self.clock.now() - old.since).total_seconds()
        log.warning(
            "%s resumed after %.1f s",
            self.name(),
            took,
            extra=event_fields("store_resumed", actor=self.name(), seconds=round(took, 1)),
        )
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

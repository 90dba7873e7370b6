"""Group commit of journal commands: the commands of every table, appended while one write transaction is
in flight, go to the database together in the next one.

A caller's :meth:`CommandWriter.append` returns only once its command is committed (durable: on SQLite
``synchronous=FULL``), exactly as a transaction of its own would, so a table still broadcasts only
journaled actions. What batching saves is the per-transaction cost (the write lock, BEGIN and COMMIT, the
fsync, the driver's round trips), which under load was the whole cost of a command.

There is no timer: a command arriving when nothing is being written is written at once (as before), and
the commands that arrive during a flush wait for it to end and then go together. One flusher task drains
the queue and ends when it is empty.

Each command is checked as :meth:`HandJournal.record_command` documents (the hand is open, the sequence
number is the next one for its hand, counting the commands before it in the same batch; a repeat of a
stored command is a no-op). A command that fails its checks gets its own error and is not written; the
others of the batch are. If the batch's transaction itself fails, its commands are retried one per
transaction, so that one bad row cannot fail the commands of other tables; what fails then fails alone.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.db import Database
from pokerroom.store.errors import BadSequence, HandNotOpen, UnknownHand
from pokerroom.store.models import HandCommandRow, HandRow

__all__ = ["MAX_BATCH", "CommandWriter"]

MAX_BATCH = 500  # commands per transaction at most (bounded statement size and lock time)


@dataclass(eq=False)
class _Pending:
    hand_id: str
    seq: int
    body: str
    now: datetime
    future: asyncio.Future[None] = field(repr=False)


class CommandWriter:
    """The journal's command appender (one per :class:`HandJournal`)."""

    def __init__(self, db: Database, *, max_batch: int = MAX_BATCH) -> None:
        if max_batch < 1:
            raise ValueError("max_batch is at least 1")
        self.db = db
        self.max_batch = max_batch
        self._queue: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self.flushes = 0  # transactions written (batches and single retries), for tests and figures

    async def append(self, hand_id: str, seq: int, body: str, now: datetime) -> None:
        """Queue a checked command (``body`` is canonical JSON text) and wait until it is committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(hand_id, seq, body, now, future))
        flusher = self._flusher
        if flusher is None or flusher.done() or flusher.get_loop() is not future.get_loop():
            self._flusher = asyncio.create_task(self._drain(), name="journal group commit")
        await future

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
            await self.flush(batch)

    async def flush(self, batch: list[_Pending]) -> None:
        """Write one batch: in one transaction, else (if that transaction fails) one by one."""
        try:
            async with self.db.write() as conn:
                errors = await self._write(conn, batch)
        except Exception:
            self.flushes += 1
            for item in batch:
                await self._retry_alone(item)
            return
        self.flushes += 1
        for item, error in zip(batch, errors, strict=True):
            _settle(item, error)

    async def _retry_alone(self, item: _Pending) -> None:
        try:
            async with self.db.write() as conn:
                (error,) = await self._write(conn, [item])
        except Exception as exc:
            error = exc
        self.flushes += 1
        _settle(item, error)

    async def _write(self, conn: AsyncConnection, batch: list[_Pending]) -> list[Exception | None]:
        """Check every command of ``batch`` against the database and the commands before it, insert the
        accepted ones; the error of each refused one (None for accepted and repeated ones)."""
        hands = sorted({item.hand_id for item in batch})
        last_seq = (
            select(func.coalesce(func.max(HandCommandRow.seq), 0))
            .where(HandCommandRow.hand_id == HandRow.id)
            .scalar_subquery()
        )
        q = select(HandRow.id, HandRow.status, last_seq.label("last")).where(HandRow.id.in_(hands))
        if not self.db.is_sqlite:  # an end record waits for the commands committed with this batch
            q = q.with_for_update(of=HandRow, read=True)
        found = (await conn.execute(q)).all()
        status = {r.id: r.status for r in found}
        last = {r.id: int(r.last) for r in found}
        accepted: dict[tuple[str, int], str] = {}
        rows = []
        errors: list[Exception | None] = []
        for item in batch:
            hand_status = status.get(item.hand_id)
            top = last.get(item.hand_id, 0)
            if hand_status is None:
                errors.append(UnknownHand(item.hand_id))
            elif hand_status == "open" and item.seq == top + 1:
                last[item.hand_id] = item.seq
                accepted[(item.hand_id, item.seq)] = item.body
                rows.append(
                    {"hand_id": item.hand_id, "seq": item.seq, "command": item.body, "recorded_at": item.now}
                )
                errors.append(None)
            elif item.seq <= top and await self._stored(conn, accepted, item) == item.body:
                errors.append(None)  # a retry of a command already journaled
            elif hand_status != "open":
                errors.append(HandNotOpen(item.hand_id, hand_status))
            else:
                errors.append(BadSequence(item.hand_id, top + 1, item.seq))
        if rows:
            await conn.execute(insert(HandCommandRow), rows)
        return errors

    @staticmethod
    async def _stored(
        conn: AsyncConnection, accepted: dict[tuple[str, int], str], item: _Pending
    ) -> str | None:
        key = (item.hand_id, item.seq)
        if key in accepted:
            return accepted[key]
        return (
            await conn.execute(
                select(HandCommandRow.command).where(
                    HandCommandRow.hand_id == item.hand_id, HandCommandRow.seq == item.seq
                )
            )
        ).scalar_one_or_none()


def _settle(item: _Pending, error: Exception | None) -> None:
    if item.future.done():  # the caller was cancelled; the command's fate is the batch's all the same
        return
    if error is None:
        item.future.set_result(None)
    else:
        item.future.set_exception(error)

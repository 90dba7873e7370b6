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
But when it failed because the database is away (``store.errors.unavailable``: a timeout, a lost
connection), every command of the batch gets that error at once: retried alone, each would wait out the
same fault in turn, and the tables at the end of the batch would stall for several timeouts before they
could pause and tell their players (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.db import Database
from pokerroom.store.errors import BadSequence, FenceLost, HandNotOpen, UnknownHand, unavailable
from pokerroom.store.fence import FENCE, Fence, check_fences
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
    fence: Fence | None = None  # the lease the command was appended under (a cluster's host)


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
        self._bind: Any = None

    async def append(self, hand_id: str, seq: int, body: str, now: datetime) -> None:
        """Queue a checked command (``body`` is canonical JSON text) and wait until it is committed."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(hand_id, seq, body, now, future, FENCE.get()))
        flusher = self._flusher
        if flusher is None or flusher.done() or flusher.get_loop() is not future.get_loop():
            # Its own empty context: the flusher writes for every table, under no one table's fence
            # (each command's fence is checked with it).
            self._flusher = asyncio.create_task(
                self._drain(), name="journal group commit", context=contextvars.Context()
            )
        await future

    async def _drain(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
            await self.flush(batch)

    async def flush(self, batch: list[_Pending]) -> None:
        """Write one batch: in one transaction, else (if that transaction fails) one by one."""
        try:
            errors = await self._transaction(batch)
        except Exception as exc:
            self.flushes += 1
            if unavailable(exc):  # the database is away: alone, each would only wait for it again
                for item in batch:
                    _settle(item, exc)
                return
            for item in batch:
                await self._retry_alone(item)
            return
        self.flushes += 1
        for item, error in zip(batch, errors, strict=True):
            _settle(item, error)

    async def _retry_alone(self, item: _Pending) -> None:
        try:
            (error,) = await self._transaction([item])
        except Exception as exc:
            error = exc
        self.flushes += 1
        _settle(item, error)

    async def _transaction(self, batch: list[_Pending]) -> list[Exception | None]:
        fences = {item.fence for item in batch if item.fence is not None}
        if self.db.sqlite_inline and not fences:  # plain sqlite3: tens of microseconds a batch, not ms
            async with self.db.raw_write() as raw:
                return await self._write(_RawRows(raw, self._stamp), batch)
        async with self.db.write() as conn:
            lost = await check_fences(conn, fences)
            if not lost:
                return await self._write(_SqlRows(conn, lock=not self.db.is_sqlite), batch)
            kept = [item for item in batch if item.fence not in lost]
            written = iter(await self._write(_SqlRows(conn, lock=not self.db.is_sqlite), kept))
            return [
                FenceLost(item.fence.resource, item.fence.fence)
                if item.fence is not None and item.fence in lost
                else next(written)
                for item in batch
            ]

    async def _write(self, rows: _Rows, batch: list[_Pending]) -> list[Exception | None]:
        """Check every command of ``batch`` against the database and the commands before it, insert the
        accepted ones; the error of each refused one (None for accepted and repeated ones)."""
        found = await rows.hands(sorted({item.hand_id for item in batch}))
        status = {hand: st for hand, (st, _) in found.items()}
        last = {hand: top for hand, (_, top) in found.items()}
        accepted: dict[tuple[str, int], str] = {}
        new: list[_Pending] = []
        errors: list[Exception | None] = []
        for item in batch:
            hand_status = status.get(item.hand_id)
            top = last.get(item.hand_id, 0)
            if hand_status is None:
                errors.append(UnknownHand(item.hand_id))
            elif hand_status == "open" and item.seq == top + 1:
                last[item.hand_id] = item.seq
                accepted[(item.hand_id, item.seq)] = item.body
                new.append(item)
                errors.append(None)
            elif item.seq <= top and await self._stored(rows, accepted, item) == item.body:
                errors.append(None)  # a retry of a command already journaled
            elif hand_status != "open":
                errors.append(HandNotOpen(item.hand_id, hand_status))
            else:
                errors.append(BadSequence(item.hand_id, top + 1, item.seq))
        if new:
            await rows.insert(new)
        return errors

    @staticmethod
    async def _stored(rows: _Rows, accepted: dict[tuple[str, int], str], item: _Pending) -> str | None:
        key = (item.hand_id, item.seq)
        return accepted[key] if key in accepted else await rows.stored(item.hand_id, item.seq)

    def _stamp(self, now: datetime) -> Any:
        """``recorded_at`` as SQLAlchemy would bind it on this database (SQLite: naive UTC text)."""
        if self._bind is None:
            self._bind = HandCommandRow.__table__.c.recorded_at.type.bind_processor(self.db.engine.dialect)
        return self._bind(now) if self._bind is not None else now


class _Rows(Protocol):
    async def hands(self, hands: list[str]) -> dict[str, tuple[str, int]]:
        """hand id -> (status, last command number) for the hands that exist."""

    async def stored(self, hand_id: str, seq: int) -> str | None: ...

    async def insert(self, items: list[_Pending]) -> None: ...


class _SqlRows:
    """Through SQLAlchemy (PostgreSQL, and SQLite when not inline)."""

    def __init__(self, conn: AsyncConnection, *, lock: bool) -> None:
        self.conn = conn
        self.lock = lock

    async def hands(self, hands: list[str]) -> dict[str, tuple[str, int]]:
        last_seq = (
            select(func.coalesce(func.max(HandCommandRow.seq), 0))
            .where(HandCommandRow.hand_id == HandRow.id)
            .scalar_subquery()
        )
        q = select(HandRow.id, HandRow.status, last_seq.label("last")).where(HandRow.id.in_(hands))
        if self.lock:  # PostgreSQL: an end record waits for the commands committed with this batch
            q = q.with_for_update(of=HandRow, read=True)
        return {r.id: (r.status, int(r.last)) for r in (await self.conn.execute(q)).all()}

    async def stored(self, hand_id: str, seq: int) -> str | None:
        q = select(HandCommandRow.command).where(HandCommandRow.hand_id == hand_id, HandCommandRow.seq == seq)
        return (await self.conn.execute(q)).scalar_one_or_none()

    async def insert(self, items: list[_Pending]) -> None:
        rows = [{"hand_id": i.hand_id, "seq": i.seq, "command": i.body, "recorded_at": i.now} for i in items]
        await self.conn.execute(insert(HandCommandRow), rows)


class _RawRows:
    """On the inline SQLite database's plain ``sqlite3`` connection (the same statements, written out)."""

    def __init__(self, raw: sqlite3.Connection, stamp: Any) -> None:
        self.raw = raw
        self.stamp = stamp

    async def hands(self, hands: list[str]) -> dict[str, tuple[str, int]]:
        marks = ",".join("?" * len(hands))
        cur = self.raw.execute(
            "SELECT id, status, (SELECT coalesce(max(seq), 0) FROM hand_commands WHERE hand_id = hands.id) "
            f"FROM hands WHERE id IN ({marks})",
            hands,
        )
        return {hand: (status, int(top)) for hand, status, top in cur.fetchall()}

    async def stored(self, hand_id: str, seq: int) -> str | None:
        row = self.raw.execute(
            "SELECT command FROM hand_commands WHERE hand_id = ? AND seq = ?", (hand_id, seq)
        ).fetchone()
        return None if row is None else str(row[0])

    async def insert(self, items: list[_Pending]) -> None:
        self.raw.executemany(
            "INSERT INTO hand_commands (hand_id, seq, command, recorded_at) VALUES (?, ?, ?, ?)",
            [(i.hand_id, i.seq, i.body, self.stamp(i.now)) for i in items],
        )


def _settle(item: _Pending, error: Exception | None) -> None:
    if item.future.done():  # the caller was cancelled; the command's fate is the batch's all the same
        return
    if error is None:
        item.future.set_result(None)
    else:
        item.future.set_exception(error)

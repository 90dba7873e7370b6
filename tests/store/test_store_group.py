"""Group commit of journal commands (pokerroom.store.group): the commands of all tables that arrive while a
write is in flight go in one transaction; each caller returns only once its own command is committed; a
refused command fails alone; a failed batch is retried one command at a time; a crash between two batches
leaves exactly the committed commands, and recovery cancels the hand with every stack restored."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pokerroom.store import BadSequence, Database, HandNotOpen, Store, UnknownHand
from pokerroom.store.group import CommandWriter

from .conftest import Room
from .storehelpers import CHEAP_HASHER, FakeClock
from .test_store_journal import start

pytestmark = pytest.mark.asyncio

SRC = Path(__file__).resolve().parents[2] / "src"


REAL_WRITE = CommandWriter._write


def failing_write(
    monkeypatch: Any, fault: Callable[[list[Any]], Exception | None], *, after_writing: bool = False
) -> list[int]:
    """Make ``CommandWriter._write`` raise ``fault(batch)`` for a batch (write it where that is None),
    before writing its rows or after; returns the sizes of the batches it is given, in order."""
    sizes: list[int] = []

    async def write(self: CommandWriter, rows: Any, batch: list[Any]) -> Any:
        sizes.append(len(batch))
        error = fault(batch)
        if error is not None and not after_writing:
            raise error
        written = await REAL_WRITE(self, rows, batch)
        if error is not None:
            raise error
        return written

    monkeypatch.setattr(CommandWriter, "_write", write)
    return sizes


async def two_hands(room: Room) -> None:
    await start(room, "h1", "t1")
    await start(room, "h2", "t2")


async def test_concurrent_commands_of_several_tables_go_in_one_transaction_in_order(
    room: Room, clock: FakeClock
) -> None:
    await two_hands(room)
    j = room.store.journal
    before = j.writer.flushes
    calls = []
    for seq in range(1, 11):
        for hand in ("h1", "h2"):
            calls.append(j.record_command(hand, seq, {"hand": hand, "n": seq}))
    await asyncio.gather(*calls)
    assert j.writer.flushes == before + 1  # twenty commands of two tables, one write transaction
    for hand in ("h1", "h2"):
        got = await j.commands(hand)
        assert [c.seq for c in got] == list(range(1, 11))
        assert [c.command for c in got] == [{"hand": hand, "n": n} for n in range(1, 11)]
        assert {c.recorded_at for c in got} == {clock.now}


async def test_a_refused_command_fails_alone_and_the_rest_of_its_batch_lands(room: Room) -> None:
    await two_hands(room)
    j = room.store.journal
    await j.record_command("h1", 1, {"n": 1})
    results = await asyncio.gather(
        j.record_command("h1", 2, {"n": 2}),
        j.record_command("h1", 2, {"n": 2}),  # a retry of the one before it in the same batch: a no-op
        j.record_command("h1", 1, {"n": 1}),  # a retry of a stored command: a no-op
        j.record_command("h1", 5, {"n": 5}),  # a gap
        j.record_command("h1", 1, {"n": "other"}),  # a different command under a stored number
        j.record_command("nope", 1, {}),
        j.record_command("h2", 1, {"n": 1}),
        j.record_command("h1", 3, {"n": 3}),  # numbered after the accepted ones of the batch
        return_exceptions=True,
    )
    assert results[:3] == [None, None, None]
    assert isinstance(results[3], BadSequence) and (results[3].expected, results[3].got) == (3, 5)
    assert isinstance(results[4], BadSequence)
    assert isinstance(results[5], UnknownHand)
    assert results[6:] == [None, None]
    assert [c.command for c in await j.commands("h1")] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert [c.command for c in await j.commands("h2")] == [{"n": 1}]


async def test_commands_after_the_end_record_are_refused_in_a_batch(room: Room) -> None:
    await two_hands(room)
    j = room.store.journal
    await j.record_command("h1", 1, {"n": 1})
    await j.end_hand("h1", deck_text="AsKd7c2h9s" + "Tc" * 3, salt="00112233445566778899aabbccddeeff",
                     deltas={}, rake=0, points={})  # fmt: skip
    results = await asyncio.gather(
        j.record_command("h1", 2, {"n": 2}),
        j.record_command("h1", 1, {"n": 1}),  # still a harmless retry
        j.record_command("h2", 1, {"n": 1}),
        return_exceptions=True,
    )
    assert isinstance(results[0], HandNotOpen) and results[0].status == "ended"
    assert list(results[1:]) == [None, None]


async def test_a_failed_batch_is_retried_one_command_at_a_time(room: Room, monkeypatch: Any) -> None:
    await two_hands(room)
    j = room.store.journal
    sizes = failing_write(
        monkeypatch, lambda batch: RuntimeError("the batch's transaction failed") if len(batch) > 1 else None
    )
    before = j.writer.flushes
    await asyncio.gather(
        *(j.record_command(h, 1, {"h": h}) for h in ("h1", "h2")), j.record_command("h1", 2, {})
    )
    assert sizes == [3, 1, 1, 1]
    assert j.writer.flushes == before + 4
    assert [c.seq for c in await j.commands("h1")] == [1, 2]
    assert [c.seq for c in await j.commands("h2")] == [1]


async def test_a_batch_that_failed_for_the_database_s_absence_is_not_retried_alone(
    room: Room, monkeypatch: Any
) -> None:
    """Issue 15 (a database frozen under the room): a batch whose transaction timed out fails every one
    of its commands at once, so every table concerned pauses now; retried alone, each command would wait
    out the fault again and the last tables of the batch would stall unannounced."""
    await two_hands(room)
    j = room.store.journal
    sizes = failing_write(monkeypatch, lambda batch: TimeoutError())
    before = j.writer.flushes
    results = await asyncio.gather(
        *(j.record_command(h, 1, {"h": h}) for h in ("h1", "h2")),
        j.record_command("h1", 2, {}),
        return_exceptions=True,
    )
    assert sizes == [3]
    assert j.writer.flushes == before + 1
    assert all(isinstance(r, TimeoutError) for r in results)
    monkeypatch.setattr(CommandWriter, "_write", REAL_WRITE)
    await j.record_command("h1", 1, {})  # the writer goes on once the database does
    assert [c.seq for c in await j.commands("h1")] == [1]


async def test_when_the_database_fails_every_waiting_caller_gets_the_error(
    room: Room, monkeypatch: Any
) -> None:
    await two_hands(room)
    j = room.store.journal
    # the rows are written, then the transaction fails: rolled back
    failing_write(monkeypatch, lambda batch: OSError("disk I/O error"), after_writing=True)
    results = await asyncio.gather(
        j.record_command("h1", 1, {}), j.record_command("h2", 1, {}), return_exceptions=True
    )
    assert all(isinstance(r, OSError) for r in results)
    assert await j.commands("h1") == [] and await j.commands("h2") == []
    monkeypatch.setattr(CommandWriter, "_write", REAL_WRITE)
    await j.record_command("h1", 1, {})  # the writer goes on once the database does
    assert [c.seq for c in await j.commands("h1")] == [1]


async def test_a_batch_never_exceeds_its_bound(room: Room) -> None:
    await two_hands(room)
    j = room.store.journal
    j.writer.max_batch = 4
    before = j.writer.flushes
    await asyncio.gather(*(j.record_command("h1", n, {"n": n}) for n in range(1, 11)))
    assert j.writer.flushes == before + 3  # 4 + 4 + 2
    assert [c.seq for c in await j.commands("h1")] == list(range(1, 11))


_CRASH = """
import asyncio, os, sys
from argon2 import PasswordHasher
from pokerroom.store import Database, Role, SeatRecord, Store, deck_commitment

async def main(url, schema):
    cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    store = Store(Database(url, schema=schema), hasher=cheap)
    admin = await store.accounts.register("admin", "s3cret-pass-phrase", role=Role.ADMIN)
    seats = []
    for i, seat in ((0, 1), (1, 4)):
        p = await store.accounts.register(f"player{i}", "s3cret-pass-phrase")
        await store.ledger.deposit(p.id, "USD", 5_000, admin_id=admin.id, idempotency_key=f"seed{i}")
        b = await store.ledger.buy_in(p.id, "t1", "USD", 2_000, idempotency_key=f"buy{i}")
        seats.append(SeatRecord(seat, p.id, b.session_id, 2_000))
    await store.journal.start_hand("h1", table_id="t1", game="NT", currency="USD", seats=seats,
                                   deck_commitment=deck_commitment("AsKd", "00" * 16))
    j = store.journal
    await asyncio.gather(*(j.record_command("h1", n, {"n": n}) for n in (1, 2, 3)))  # batch 1: committed
    for n in (4, 5):  # batch 2: queued, never written
        asyncio.ensure_future(j.record_command("h1", n, {"n": n}))
    await asyncio.sleep(0)  # the commands are queued; the flusher has not run yet
    assert len(j.writer._queue) == 2, j.writer._queue
    print("crashing", flush=True)
    os._exit(0)  # a crash between two batches: no clean-up of any kind

asyncio.run(main(sys.argv[1], None if sys.argv[2] == "-" else sys.argv[2]))
"""


async def test_a_crash_between_two_batches_keeps_the_first_and_recovery_restores_every_stack(
    db_target: tuple[str, str | None],
) -> None:
    url, schema = db_target
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_CRASH), url, schema or "-"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip() == "crashing", out.stderr
    store = Store(Database(url, schema=schema), hasher=CHEAP_HASHER)
    try:
        assert [c.seq for c in await store.journal.commands("h1")] == [1, 2, 3]
        (cancelled,) = await store.journal.recover()
        assert cancelled.hand_id == "h1" and cancelled.mismatches == ()
        assert sorted(cancelled.stacks.values()) == [2_000, 2_000]
        for sid, stack in cancelled.stacks.items():
            assert (await store.ledger.session(sid)).balance == stack
        assert (await store.verify()).ok
    finally:
        await store.close()


async def test_the_writer_needs_a_positive_bound(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    with pytest.raises(ValueError):
        CommandWriter(db, max_batch=0)
    await db.dispose()

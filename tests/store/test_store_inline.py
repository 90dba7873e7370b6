"""SQLite inline (pokerroom.store.db): statements run on the event loop's own thread, commits on a worker
thread; a write transaction that finds the database locked by another connection waits without blocking
the loop (SQLite's own busy handler may only block it for INLINE_BUSY_S) up to the busy timeout."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from pokerroom.store import Database
from pokerroom.store.db import INLINE_BUSY_S, inline_supported

pytestmark = pytest.mark.asyncio


async def _db(path: Path, **kw: object) -> Database:
    db = Database(f"sqlite+aiosqlite:///{path}", **kw)  # type: ignore[arg-type]
    async with db.write() as conn:
        await conn.execute(text("CREATE TABLE IF NOT EXISTS t (x INTEGER)"))
    return db


def _aiosqlite_threads() -> int:
    return sum(1 for t in threading.enumerate() if "_connection_worker_thread" in t.name)


async def test_the_installed_aiosqlite_runs_inline_and_starts_no_connection_thread(tmp_path: Path) -> None:
    assert inline_supported()
    before = _aiosqlite_threads()
    db = await _db(tmp_path / "a.db")
    assert db.sqlite_inline
    async with db.write() as conn:
        await conn.execute(text("INSERT INTO t VALUES (1)"))
    async with db.read() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar_one() == 1
    assert _aiosqlite_threads() == before
    await db.dispose()


async def test_memory_databases_and_the_option_keep_the_threaded_driver(tmp_path: Path) -> None:
    db = await _db(tmp_path / "b.db", sqlite_inline=False)
    assert not db.sqlite_inline
    async with db.write() as conn:
        await conn.execute(text("INSERT INTO t VALUES (2)"))
    async with db.read() as conn:
        assert (await conn.execute(text("SELECT x FROM t"))).scalar_one() == 2
    await db.dispose()
    assert not Database("sqlite+aiosqlite:///:memory:").sqlite_inline


async def test_a_write_waits_for_another_connection_without_failing_then_lands(tmp_path: Path) -> None:
    db = await _db(tmp_path / "c.db")
    other = sqlite3.connect(tmp_path / "c.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holding the write lock

    async def write() -> None:
        async with db.write() as conn:
            await conn.execute(text("INSERT INTO t VALUES (3)"))

    task = asyncio.create_task(write())
    ticks = 0
    for _ in range(10):  # the loop keeps turning while the writer waits, well past INLINE_BUSY_S
        await asyncio.sleep(INLINE_BUSY_S)
        ticks += 1
    assert ticks == 10 and not task.done()
    other.execute("COMMIT")
    other.close()
    await task
    async with db.read() as conn:
        assert (await conn.execute(text("SELECT x FROM t"))).scalar_one() == 3
    await db.dispose()


async def test_a_write_gives_up_after_the_busy_timeout(tmp_path: Path) -> None:
    db = await _db(tmp_path / "d.db", sqlite_busy_timeout_s=0.3)
    other = sqlite3.connect(tmp_path / "d.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(OperationalError, match="locked"):
        async with db.write() as conn:
            await conn.execute(text("INSERT INTO t VALUES (4)"))
    other.execute("ROLLBACK")
    other.close()
    async with db.write() as conn:  # and works again once the lock is free
        await conn.execute(text("INSERT INTO t VALUES (5)"))
    await db.dispose()


async def test_a_failed_statement_rolls_back_and_the_connection_goes_on(tmp_path: Path) -> None:
    db = await _db(tmp_path / "e.db")
    with pytest.raises(OperationalError):
        async with db.write() as conn:
            await conn.execute(text("INSERT INTO t VALUES (6)"))
            await conn.execute(text("INSERT INTO nowhere VALUES (1)"))
    async with db.write() as conn:
        await conn.execute(text("INSERT INTO t VALUES (7)"))
    async with db.read() as conn:
        assert list((await conn.execute(text("SELECT x FROM t"))).scalars()) == [7]
    await db.dispose()


async def test_raw_write_commits_rolls_back_on_error_and_waits_for_the_lock(tmp_path: Path) -> None:
    db = await _db(tmp_path / "f.db")
    async with db.raw_write() as raw:
        raw.execute("INSERT INTO t VALUES (8)")
    with pytest.raises(sqlite3.OperationalError):
        async with db.raw_write() as raw:
            raw.execute("INSERT INTO t VALUES (9)")
            raw.execute("INSERT INTO nowhere VALUES (1)")
    other = sqlite3.connect(tmp_path / "f.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")

    async def write() -> None:
        async with db.raw_write() as raw:
            raw.execute("INSERT INTO t VALUES (10)")

    task = asyncio.create_task(write())
    for _ in range(4):
        await asyncio.sleep(INLINE_BUSY_S)
    assert not task.done()
    other.execute("COMMIT")
    other.close()
    await task
    async with db.read() as conn:
        assert list((await conn.execute(text("SELECT x FROM t ORDER BY x"))).scalars()) == [8, 10]
    await db.dispose()
    with pytest.raises(RuntimeError):
        async with Database("sqlite+aiosqlite:///:memory:").raw_write():
            pass


async def test_only_a_commit_with_changes_goes_to_a_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only transaction's COMMIT has nothing to sync: it runs on the loop; one that wrote rows is
    synced on a worker thread (its fsync must not stop the loop), and what it wrote is durable."""
    db = await _db(tmp_path / "e.db")
    loop = asyncio.get_running_loop()
    handed: list[str] = []
    real = loop.run_in_executor

    def counting(executor: object, func: object, *args: object) -> asyncio.Future[object]:
        handed.append(getattr(getattr(func, "func", func), "__name__", "?"))
        return real(executor, func, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(loop, "run_in_executor", counting)
    for _ in range(3):
        async with db.read() as conn:
            await conn.execute(text("SELECT count(*) FROM t"))
    assert handed == []
    async with db.write() as conn:
        await conn.execute(text("INSERT INTO t VALUES (7)"))
    assert handed == ["commit"]
    async with db.write() as conn:  # a write transaction that changed nothing
        await conn.execute(text("UPDATE t SET x = 8 WHERE x = 99"))
    async with db.read() as conn:
        await conn.execute(text("SELECT 1"))
    assert handed == ["commit"]
    async with db.write() as conn:
        await conn.execute(text("UPDATE t SET x = 9 WHERE x = 7"))
    assert handed == ["commit", "commit"]
    await db.dispose()
    check = sqlite3.connect(tmp_path / "e.db")
    assert check.execute("SELECT x FROM t").fetchall() == [(9,)]
    check.close()


async def test_many_transactions_open_at_once_never_wait_for_a_free_connection(tmp_path: Path) -> None:
    """Inline, a transaction that waited for a pooled connection would block the event loop (and the
    transactions that would free one): more reads than the pool holds are open together here."""
    import contextlib

    db = await _db(tmp_path / "many.db")
    async with contextlib.AsyncExitStack() as stack:
        conns = [await stack.enter_async_context(db.read()) for _ in range(12)]
        for c in conns:  # (a read's snapshot begins with its first statement)
            assert (await c.execute(text("SELECT count(*) FROM t"))).scalar_one() == 0
        async with db.write() as w:
            await w.execute(text("INSERT INTO t VALUES (7)"))
        counts = [(await c.execute(text("SELECT count(*) FROM t"))).scalar_one() for c in conns]
    assert counts == [0] * 12  # each read kept the snapshot it began with
    async with db.read() as conn:
        assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar_one() == 1
    await db.dispose()


async def test_transactions_in_turn_keep_their_connections_and_dispose_closes_them(tmp_path: Path) -> None:
    """A transaction's connection waits for the next transaction of its kind instead of going back to the
    pool (a checkout and a return, with the return's ROLLBACK, cost a third of an inline transaction):
    reads and writes in turn, clean, failed or locked out, take a connection from the pool once each, and
    each still starts a transaction of its own. ``dispose`` closes the kept ones."""
    from sqlalchemy import event

    db = await _db(tmp_path / "keep.db", sqlite_busy_timeout_s=0.2)
    assert db.sync_engine is not None
    checkouts: list[object] = []
    event.listen(db.sync_engine.pool, "checkout", lambda *a: checkouts.append(a))
    for i in range(5):
        async with db.write() as conn:
            await conn.execute(text(f"INSERT INTO t VALUES ({i})"))
        async with db.read() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM t"))).scalar_one() == i + 1
    with pytest.raises(OperationalError):
        async with db.write() as conn:
            await conn.execute(text("INSERT INTO t VALUES (99)"))
            await conn.execute(text("INSERT INTO nowhere VALUES (1)"))
    # one for the reads; the writes (the failed one too) kept the one that created the table in _db
    assert len(checkouts) == 1
    other = sqlite3.connect(tmp_path / "keep.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(OperationalError, match="locked"):  # each refused BEGIN's connection is closed
        async with db.write() as conn:
            pass
    other.execute("ROLLBACK")
    other.close()
    async with db.write() as conn:
        await conn.execute(text("INSERT INTO t VALUES (5)"))
    async with db.read() as conn:
        assert list((await conn.execute(text("SELECT x FROM t ORDER BY x"))).scalars()) == [0, 1, 2, 3, 4, 5]
    assert db.sync_engine.pool.checkedout() == 2  # type: ignore[attr-defined]
    await db.dispose()
    assert db.sync_engine.pool.checkedout() == 0  # type: ignore[attr-defined]

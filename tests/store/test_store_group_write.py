"""Shared commits of the hand journal's records (``Database.group_write``, docs/store.md "Per hand"): on
inline SQLite the callers that arrive while the database is being written join one transaction, each body
in a savepoint of its own, and commit once; each caller returns only when that commit is durable; a body
that raises is rolled back alone; a failed commit fails every caller and writes none of their rows."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store import Database, HandExists, deck_commitment

from .conftest import Room
from .test_store_journal import DECK, SALT, finish, seats, start

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    assert database.sync_engine is not None  # (inline SQLite: where callers share commits)
    async with database.write() as conn:
        await conn.exec_driver_sql("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
        await conn.exec_driver_sql(
            "CREATE TABLE item (k TEXT PRIMARY KEY,"
            " parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)"
        )
    async with database:
        yield database


def committed(db: Database) -> set[str]:
    """The rows another connection sees: only what was committed."""
    assert db._raw_path is not None
    with sqlite3.connect(db._raw_path) as other:
        return {k for (k,) in other.execute("SELECT k FROM item")}


async def insert(db: Database, key: str, seen: dict[str, set[str]] | None = None) -> None:
    async def body(conn: AsyncConnection) -> None:
        await conn.exec_driver_sql("INSERT INTO item (k) VALUES (?)", (key,))

    await db.group_write(body)
    if seen is not None:
        seen[key] = committed(db)  # what is durable the moment this caller is answered


async def while_written(db: Database, *jobs: asyncio.Task[None]) -> None:
    """Hold the database's write lock (another write in flight) until every job has queued."""
    async with db.write() as conn:
        await conn.exec_driver_sql("INSERT INTO parent (id) VALUES (1)")
        for _ in range(3):
            await asyncio.sleep(0)


async def test_callers_that_arrive_during_a_write_share_one_commit(db: Database) -> None:
    seen: dict[str, set[str]] = {}
    before = db.commits
    blocker = asyncio.create_task(while_written(db))
    await asyncio.sleep(0)
    jobs = [asyncio.create_task(insert(db, f"k{i}", seen)) for i in range(5)]
    await asyncio.gather(blocker, *jobs)
    assert db.commits - before == 2  # the write that held the lock, then one for the five
    assert committed(db) == {f"k{i}" for i in range(5)}
    for key, rows in seen.items():  # nobody was answered before his row was committed
        assert key in rows


async def test_a_lone_caller_commits_at_once_and_gets_what_its_body_returned(db: Database) -> None:
    seen: dict[str, set[str]] = {}
    await insert(db, "alone", seen)
    assert seen["alone"] == {"alone"}

    async def count(conn: AsyncConnection) -> int:
        return int((await conn.exec_driver_sql("SELECT count(*) FROM item")).scalar_one())

    assert await db.group_write(count) == 1


async def test_a_body_that_raises_is_rolled_back_alone(db: Database) -> None:
    async def refused(conn: AsyncConnection) -> None:
        await conn.exec_driver_sql("INSERT INTO item (k) VALUES ('bad')")
        raise ValueError("refused")

    async def failing() -> None:
        await db.group_write(refused)

    blocker = asyncio.create_task(while_written(db))
    await asyncio.sleep(0)
    first, bad, last = (
        asyncio.create_task(insert(db, "first")),
        asyncio.create_task(failing()),
        asyncio.create_task(insert(db, "last")),
    )
    results = await asyncio.gather(blocker, first, bad, last, return_exceptions=True)
    assert isinstance(results[2], ValueError)
    assert results[1] is None and results[3] is None
    assert committed(db) == {"first", "last"}


async def test_a_failed_commit_fails_every_caller_and_writes_nothing(db: Database) -> None:
    async def orphan_row(conn: AsyncConnection) -> None:
        await conn.exec_driver_sql("INSERT INTO item (k, parent) VALUES ('orphan', 99)")

    async def orphan() -> None:  # (a deferred foreign key: the statement passes, the COMMIT fails)
        await db.group_write(orphan_row)

    async def hold() -> None:
        async with db.write():
            for _ in range(3):
                await asyncio.sleep(0)

    blocker = asyncio.create_task(hold())
    await asyncio.sleep(0)
    jobs = [
        asyncio.create_task(insert(db, "a")),
        asyncio.create_task(orphan()),
        asyncio.create_task(insert(db, "b")),
    ]
    results = await asyncio.gather(blocker, *jobs, return_exceptions=True)
    assert results[0] is None
    assert all(isinstance(r, Exception) and "FOREIGN KEY" in str(r) for r in results[1:])
    assert committed(db) == set()
    await insert(db, "after")  # the database writes on
    assert committed(db) == {"after"}


async def test_a_fault_that_ends_the_transaction_fails_every_caller_with_that_fault(db: Database) -> None:
    """A body whose statement made SQLite roll the whole transaction back (disk full, an I/O error): the
    callers before it in the group lose their rows too, and all get that fault (a store fault: each table
    pauses and writes its record again), not an error of the savepoint's."""

    async def full(conn: AsyncConnection) -> None:
        await conn.exec_driver_sql("INSERT INTO item (k) VALUES ('full')")
        await conn.exec_driver_sql("ROLLBACK")  # (what SQLite does itself on SQLITE_FULL)
        raise sqlite3.OperationalError("database or disk is full")

    async def failing() -> None:
        await db.group_write(full)

    blocker = asyncio.create_task(while_written(db))
    await asyncio.sleep(0)
    jobs = [
        asyncio.create_task(insert(db, "a")),
        asyncio.create_task(failing()),
        asyncio.create_task(insert(db, "b")),
    ]
    results = await asyncio.gather(blocker, *jobs, return_exceptions=True)
    assert results[0] is None
    assert all(isinstance(r, sqlite3.OperationalError) and "full" in str(r) for r in results[1:])
    assert committed(db) == set()
    await insert(db, "after")
    assert committed(db) == {"after"}


async def test_a_caller_cancelled_while_it_waits_is_left_out(db: Database) -> None:
    blocker = asyncio.create_task(while_written(db))
    await asyncio.sleep(0)
    keep, gone = asyncio.create_task(insert(db, "keep")), asyncio.create_task(insert(db, "gone"))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.gather(blocker, keep)
    with pytest.raises(asyncio.CancelledError):
        await gone
    assert committed(db) == {"keep"}


async def test_start_and_end_records_of_several_tables_share_commits(room: Room) -> None:
    store = room.store
    if store.db.sync_engine is None:
        pytest.skip("callers share commits on inline SQLite only (PostgreSQL: one transaction each)")
    tables = ["t1", "t2", "t3"]
    records = {t: await seats(room, t) for t in tables}
    before = store.db.commits
    await asyncio.gather(*(start(room, f"h-{t}", t, records[t]) for t in tables))
    started = store.db.commits - before
    assert started < len(tables)
    # a start record again under a used hand id, for another game, is refused alone; the end records
    # that share its transaction are written
    again = store.journal.start_hand(
        "h-t1", table_id="t1", game="XX", currency="USD", seats=records["t1"],
        deck_commitment=deck_commitment(DECK, SALT),
    )  # fmt: skip
    results = await asyncio.gather(again, *(finish(room, f"h-{t}") for t in tables), return_exceptions=True)
    assert isinstance(results[0], HandExists)
    assert all(not isinstance(r, BaseException) for r in results[1:])
    for t in tables:
        record = await store.journal.hand(f"h-{t}")
        assert record.status == "ended" and record.deck == DECK and record.salt == SALT

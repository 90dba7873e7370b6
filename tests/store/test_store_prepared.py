"""Prebuilt statements on inline SQLite (pokerroom.store.prepared): they run straight on the sqlite3
cursor and give what SQLAlchemy gives for the same statement (rows, converted values, row counts, errors);
what a plan cannot take runs through SQLAlchemy; a hand's start and end record no longer pass a single
statement through SQLAlchemy's execution (docs/server-speed.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy import (
    BigInteger,
    Column,
    MetaData,
    String,
    Table,
    bindparam,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, StatementError

from pokerroom.store import AccountKind, Database, deck_commitment
from pokerroom.store.journal import SeatRecord
from pokerroom.store.models import UTCDateTime
from pokerroom.store.prepared import FastResult, prebuilt

from .conftest import Room
from .storehelpers import fresh_sqlite

pytestmark = pytest.mark.asyncio

_META = MetaData()
_T = Table(
    "fast_t",
    _META,
    Column("id", BigInteger, primary_key=True),
    Column("name", String(16), unique=True),
    Column("status", String(8)),
    Column("at", UTCDateTime(timezone=True)),
    Column("n", BigInteger, default=7),  # a Python-side default
)
WHEN = datetime(2026, 12, 2, 15, 30, 1, 250_000, tzinfo=UTC)


def pair(make: Any) -> tuple[Any, Any]:
    """The same statement twice: marked for the fast path, and not."""
    return prebuilt(make()), make()


@pytest.fixture
def db_target(tmp_path: Path, sqlite_template: Path) -> tuple[str, str | None]:
    """The fast path is inline SQLite's: this module's stores are SQLite files only (no PostgreSQL run)."""
    return fresh_sqlite(sqlite_template, tmp_path), None


@pytest_asyncio.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'fast.db'}")
    assert database.sqlite_inline
    async with database.write() as conn:
        await conn.run_sync(_META.create_all)
    yield database
    await database.dispose()


async def _rows(db: Database, statement: Any, params: Any = None) -> tuple[Any, list[tuple[Any, ...]]]:
    async with db.write() as conn:
        result = await conn.execute(statement, params)
        rows = result.all() if "SELECT" in str(statement) or "RETURNING" in str(statement) else []
        return result, [tuple(r) for r in rows]


async def _fill(db: Database) -> None:
    rows = [
        {"id": i, "name": f"p{i}", "status": "open" if i % 2 else "ended", "at": WHEN, "n": i}
        for i in range(5)
    ]
    async with db.write() as conn:
        await conn.execute(prebuilt(insert(_T)), rows)


async def test_a_select_converts_its_values_and_uses_the_statement_s_own_constants(db: Database) -> None:
    await _fill(db)
    fast, slow = pair(
        lambda: select(_T.c.id, _T.c.at).where(_T.c.status == "open", _T.c.id >= bindparam("low")).limit(1)
    )
    fast_result, fast_rows = await _rows(db, fast, {"low": 2})
    slow_result, slow_rows = await _rows(db, slow, {"low": 2})
    assert isinstance(fast_result, FastResult) and not isinstance(slow_result, FastResult)
    assert fast_rows == slow_rows == [(3, WHEN)]
    assert fast_rows[0][1].tzinfo is not None  # the column type's result processor ran
    async with db.read() as conn:
        row = (await conn.execute(fast, {"low": 2})).one()
    assert row.id == 3 and row.at == WHEN


async def test_an_in_list_is_expanded_to_its_length_and_an_empty_one_goes_to_sqlalchemy(db: Database) -> None:
    await _fill(db)
    fast, slow = pair(
        lambda: select(_T.c.name).where(_T.c.id.in_(bindparam("ids", expanding=True))).order_by(_T.c.id)
    )
    for ids in ([1], [4, 0, 2], []):
        fast_result, fast_rows = await _rows(db, fast, {"ids": ids})
        _, slow_rows = await _rows(db, slow, {"ids": ids})
        assert fast_rows == slow_rows
        assert isinstance(fast_result, FastResult) == bool(ids)
    assert (await _rows(db, fast, {"ids": [4, 0, 2]}))[1] == [("p0",), ("p2",), ("p4",)]


async def test_inserts_updates_and_returning_give_sqlalchemy_s_results(db: Database) -> None:
    fast_insert = prebuilt(insert(_T))
    async with db.write() as conn:
        one = await conn.execute(fast_insert, {"id": 1, "name": "a", "status": "open", "at": WHEN, "n": 1})
        many = await conn.execute(
            fast_insert, [{"id": i, "name": f"b{i}", "status": "open", "at": WHEN, "n": i} for i in (2, 3)]
        )
    assert isinstance(one, FastResult) and one.rowcount == 1 and many.rowcount == 2
    fast, slow = pair(lambda: update(_T).where(_T.c.status == bindparam("s")).values(status="ended"))
    async with db.write() as conn:
        assert (await conn.execute(fast, {"s": "open"})).rowcount == 3
        assert (await conn.execute(slow, {"s": "open"})).rowcount == 0
    returning, plain = pair(lambda: text("UPDATE fast_t SET n = n + :d WHERE id <= :top RETURNING id, n"))
    fast_result, fast_rows = await _rows(db, returning, {"d": 10, "top": 2})
    _, slow_rows = await _rows(db, plain, {"d": 10, "top": 2})
    assert isinstance(fast_result, FastResult)
    assert sorted(fast_rows) == [(1, 11), (2, 12)] and sorted(slow_rows) == [(1, 21), (2, 22)]
    async with db.read() as conn:
        at = (await conn.execute(prebuilt(select(_T.c.at).where(_T.c.id == 3)))).scalar_one()
        assert at == WHEN
        assert (
            await conn.execute(prebuilt(select(_T.c.n).where(_T.c.id == 99)))
        ).scalar_one_or_none() is None


async def test_a_driver_error_is_sqlalchemy_s_error_and_the_transaction_rolls_back(db: Database) -> None:
    fast = prebuilt(insert(_T))
    row = {"id": 1, "name": "a", "status": "open", "at": WHEN, "n": 1}
    async with db.write() as conn:
        await conn.execute(fast, row)
    with pytest.raises(IntegrityError):
        async with db.write() as conn:
            await conn.execute(fast, {**row, "id": 2, "name": "b"})
            await conn.execute(fast, {**row, "id": 3})  # the name is taken
    async with db.read() as conn:
        assert (await conn.execute(prebuilt(select(_T.c.id)))).all() == [(1,)]


async def test_what_a_plan_cannot_take_runs_through_sqlalchemy(db: Database) -> None:
    fast = prebuilt(insert(_T))
    async with db.write() as conn:
        # The Python-side default of "n" must be computed: SQLAlchemy does it.
        result = await conn.execute(fast, {"id": 1, "name": "a", "status": "open", "at": WHEN})
        assert not isinstance(result, FastResult)
        n = (await conn.execute(prebuilt(select(_T.c.n).where(_T.c.id == 1)))).scalar_one()
        assert n == 7
    with pytest.raises(StatementError, match="low"):  # a missing value: SQLAlchemy's own error
        async with db.read() as conn:
            await conn.execute(prebuilt(select(_T.c.id).where(_T.c.id >= bindparam("low"))), {})


async def test_a_hand_s_start_and_end_record_run_no_statement_through_sqlalchemy(room: Room) -> None:
    db = room.store.db
    assert db.sqlite_inline
    led = room.store.ledger
    a = await led.buy_in(room.alice, "t1", "USD", 10_000, idempotency_key="a")
    b = await led.buy_in(room.bob, "t1", "USD", 10_000, idempotency_key="b")
    await led.account(AccountKind.HOUSE, "USD")  # created on its first use, then known
    seen: list[str] = []
    assert db.sync_engine is not None

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    deck, salt = "AsKd7c2h9s" + "Tc" * 3, "00112233445566778899aabbccddeeff"
    event.listen(db.sync_engine, "before_cursor_execute", count)
    try:
        await room.store.journal.start_hand(
            "h1",
            table_id="t1",
            game="NT",
            currency="USD",
            seats=[
                SeatRecord(1, room.alice, a.session_id, 10_000),
                SeatRecord(4, room.bob, b.session_id, 10_000),
            ],
            deck_commitment=deck_commitment(deck, salt),
        )
        await room.store.journal.end_hand(
            "h1", deck_text=deck, salt=salt, deltas={a.session_id: 90, b.session_id: -100}, rake=10, points={}
        )
    finally:
        event.remove(db.sync_engine, "before_cursor_execute", count)
    assert [s for s in seen if not s.startswith("BEGIN")] == []
    assert (await led.session(a.session_id)).balance == 10_090
    assert (await room.store.verify()).ok

"""The store's commit count (``Database.commits``, the ``pokerroom_db_commits_total`` metric and the
capacity figures' commits per hand, docs/cluster.md): write transactions only, on SQLite and PostgreSQL;
a read-only transaction writes nothing and is not counted, a write that fails is not committed."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from pokerroom.store import Store

from .conftest import Room

pytestmark = pytest.mark.asyncio


async def test_commits_count_write_transactions_only(store: Store, room: Room) -> None:
    db = store.db
    before = db.commits
    await store.ledger.balance(room.alice, "USD")
    async with db.read() as conn:
        await conn.execute(text("SELECT 1"))
    assert db.commits == before  # reads commit nothing
    async with db.write() as conn:
        await conn.execute(text("SELECT 1"))
    assert db.commits == before + 1
    with pytest.raises(RuntimeError):
        async with db.write() as conn:
            await conn.execute(text("SELECT 1"))
            raise RuntimeError("rolled back")
    assert db.commits == before + 1  # a rolled-back transaction is no commit

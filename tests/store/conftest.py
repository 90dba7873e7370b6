"""Store fixtures: every store test runs on SQLite (a fresh file per test) and on PostgreSQL (a fresh
schema per test module, emptied before each test). PostgreSQL tests skip when the server is unreachable,
unless CI=true, where they fail."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from pokerroom.store import Database, Role, Store

from .storehelpers import (
    CHEAP_HASHER,
    PASSWORD,
    PG_URL,
    FakeClock,
    drop_pg_schema,
    fresh_sqlite,
    new_pg_schema,
    pg_truncate,
    require_pg,
)


@pytest.fixture(scope="module")
def pg_schema() -> Iterator[str]:
    require_pg()
    schema = new_pg_schema()
    yield schema
    drop_pg_schema(schema)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"

    async def make() -> None:
        async with Database(f"sqlite+aiosqlite:///{path}") as db:
            await db.upgrade()

    asyncio.run(make())
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(
    request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path
) -> tuple[str, str | None]:
    """(url, schema) of an empty, migrated database."""
    if request.param == "sqlite":
        return fresh_sqlite(sqlite_template, tmp_path), None
    schema = request.getfixturevalue("pg_schema")
    pg_truncate(schema)
    return PG_URL, schema


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest_asyncio.fixture
async def store(db_target: tuple[str, str | None], clock: FakeClock) -> AsyncIterator[Store]:
    url, schema = db_target
    st = Store(Database(url, schema=schema), clock=clock, hasher=CHEAP_HASHER)
    yield st
    await st.close()


@dataclass
class Room:
    """A store with an admin and two funded players (USD 1,000.00 each)."""

    store: Store
    admin: int
    alice: int
    bob: int


@pytest_asyncio.fixture
async def room(store: Store) -> Room:
    admin = await store.accounts.register("admin", PASSWORD, role=Role.ADMIN)
    alice = await store.accounts.register("alice", PASSWORD)
    bob = await store.accounts.register("bob", PASSWORD)
    for p in (alice, bob):
        await store.ledger.deposit(p.id, "USD", 100_000, admin_id=admin.id, idempotency_key=f"seed-{p.id}")
    return Room(store, admin.id, alice.id, bob.id)

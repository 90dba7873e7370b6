"""Taking a lease on PostgreSQL while its row is locked (issue 37, docs/cluster.md "Failover"): a host
stopped in the middle of a write keeps that write's lease row locked (``FOR SHARE``) until it runs again.
Another host's look for work must pass such a row by (``FOR UPDATE SKIP LOCKED``) and take the rest; it
once waited on it up to the store's statement limit, one locked resource after the other."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import asyncpg
import pytest

from pokerroom.store.db import Database
from pokerroom.store.leases import Leases
from tests.store.storehelpers import PG_URL, FakeClock, drop_pg_schema, new_pg_schema

TTL = timedelta(seconds=8)


@pytest.fixture
def schema(services: None) -> Iterator[str]:
    name = new_pg_schema("t_cluster_leases")
    try:
        yield name
    finally:
        drop_pg_schema(name)


@pytest.mark.asyncio
async def test_a_lease_row_locked_by_its_holders_write_is_passed_by_not_waited_for(schema: str) -> None:
    clock = FakeClock()
    async with Database(PG_URL, schema=schema) as db:
        leases = Leases(db, clock)
        assert await leases.acquire("table:a", "h1", TTL) == 1
        assert await leases.acquire("table:b", "h1", TTL) == 1
        clock.advance(TTL + timedelta(seconds=1))  # h1 stopped: both its leases expired
        writer = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg", "postgresql"))
        try:
            in_flight = writer.transaction()  # h1's write for table a, stopped before its commit
            await in_flight.start()
            locked = f'SELECT fence FROM "{schema}".leases WHERE resource = $1 FOR SHARE'
            assert await writer.fetchval(locked, "table:a") == 1
            # (before: waited for the lock up to the statement limit, then TimeoutError)
            assert await leases.acquire("table:a", "h2", TTL) is None
            assert await leases.acquire("table:b", "h2", TTL) == 2  # the rest is taken over
            assert await leases.acquire("table:new", "h2", TTL) == 1  # and a row nobody has yet
            await in_flight.rollback()  # h1 runs again: its write ends
        finally:
            await writer.close()
        assert await leases.acquire("table:a", "h2", TTL) == 2  # the next look takes it
        held = {lease.resource: (lease.holder, lease.fence) for lease in await leases.all()}
        assert held == {"table:a": ("h2", 2), "table:b": ("h2", 2), "table:new": ("h2", 1)}

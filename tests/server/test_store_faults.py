"""Issue 15: a database fault pauses the tables, and they deal again by themselves when it is back.

On a private PostgreSQL cluster (tests/pgcluster.py: never the machine's shared one) a live room with bots
at cash tables and in a Rush pool loses its database: stopped for 15 s, frozen (SIGSTOP) for 30 s, its
connections terminated. Meanwhile readiness answers 503 and HTTP requests get a JSON 503, never a bare
500. Within 30 s of the database's return every table deals again, readiness is back, and the ledger
verifies: no chip is lost, nothing is booked twice. On SQLite the same with a full disk (``PRAGMA
max_page_count`` lowered under the running room, then raised)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import pytest_asyncio
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import event

from pokerroom.bots.runner import start_bots, start_pool_bots
from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.demo import demo_pools, demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Database, Store, verify_ledger

from ..pgcluster import PrivatePostgres, pg_binaries
from .conftest import LiveServer, serve_room
from .wire import Wire

CLOCK = Timing(action=3.0, time_bank=0.0, between_hands=0.05, disconnect_grace=600, sit_out_limit=3600)
RUSH = RushTiming(action=3.0, reduced_action=3.0, time_bank=0.0, disconnect_grace=600)
POOL = "rush-holdem-nl-6max"
BACK_WITHIN = 30.0  # seconds: every table deals again this soon after the database is back


def settings() -> RoomSettings:
    tables = demo_tables(CLOCK, games=("holdem", "stud"))
    return RoomSettings(tables=tuple(tables), pools=(demo_pools(RUSH)[0],))


@pytest.fixture(scope="module")
def cluster() -> Iterator[PrivatePostgres]:
    if pg_binaries() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs PostgreSQL's server binaries for the fault tests")
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    c = PrivatePostgres()
    c.init()
    try:
        yield c
    finally:
        c.destroy()


@pytest_asyncio.fixture
async def pg_store(cluster: PrivatePostgres) -> AsyncIterator[Store]:
    schema = f"faults_{uuid.uuid4().hex[:10]}"
    admin = Database(cluster.url)
    async with admin.engine.begin() as conn:
        await conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    await admin.dispose()
    store = Store(Database(cluster.url, schema=schema))
    yield store


async def until(check: Callable[[], Any], timeout: float, what: str) -> None:
    async def loop() -> None:
        while not await check():
            await asyncio.sleep(0.1)

    try:
        await asyncio.wait_for(loop(), timeout)
    except TimeoutError:
        raise AssertionError(f"not within {timeout} s: {what}") from None


def hands(s: LiveServer) -> dict[str, int]:
    out = {t: a.hands_played for t, a in s.room.tables.items()}
    out |= {p: a.hands_played for p, a in s.room.pools.items()}
    return out


async def ready(s: LiveServer) -> int:
    async with httpx.AsyncClient(timeout=20) as http:
        return (await http.get(f"{s.url}/api/ready")).status_code


class Rail:
    """A spectator at every cash table, keeping the table_status frames it is sent, by table."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.statuses: dict[str, list[str]] = {}
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.wire.ws:
                msg = orjson.loads(raw)
                if msg["type"] == "table_status":
                    self.statuses.setdefault(msg["table"], []).append(msg["status"])

    async def close(self) -> None:
        self.task.cancel()
        await self.wire.close()


@contextlib.asynccontextmanager
async def playing(tmp_path: Path, store: Store) -> AsyncIterator[tuple[LiveServer, Rail]]:
    """A room with two bots at each cash table and six entries in the Rush pool, dealing, and a spectator
    at the hold'em table."""
    async with serve_room(tmp_path, settings(), store=store) as s:
        bots = await start_bots(s.url, 2 * len(s.room.tables), ["caller", "random"], think=(0, 0.05), seed=1)
        bots += await start_pool_bots(s.url, POOL, 6, ["caller"], think=(0, 0.05), quick_fold=0.0, seed=2)
        wire = await Wire.open(s)
        for table in s.room.tables:  # (a table with no write during a short fault need not pause)
            await wire.send({"type": "subscribe", "table": table})
            await wire.until(lambda m, t=table: m["type"] == "snapshot" and m["table"] == t)
        rail = Rail(wire)

        async def dealing() -> bool:
            return min(hands(s).values()) >= 2

        try:
            await until(dealing, 120, "every table deals")
            yield s, rail
        finally:
            await rail.close()
            for bot, task in bots:
                bot.stopped = True
                task.cancel()


async def deals_again(s: LiveServer, before: dict[str, int], *, faulted: bool = True) -> None:
    """Every table deals at least two more hands, and the room is ready again."""

    async def back() -> bool:
        now = hands(s)
        return all(now[t] >= before[t] + 2 for t in before) and not s.room.paused()

    await until(back, BACK_WITHIN, "every table deals again after the database came back")
    assert await ready(s) == 200
    async with httpx.AsyncClient(timeout=20) as http:
        scraped = (await http.get(f"{s.url}/metrics")).text
    errors = [
        sample.value
        for family in text_string_to_metric_families(scraped)
        for sample in family.samples
        if sample.name == "pokerroom_store_errors_total"
    ]
    assert sum(errors) >= 1 or not faulted  # the faults are counted


def told(rail: Rail) -> None:
    """The spectator was told that tables paused for the store, and each of them that it plays again."""
    assert any("paused" in x for x in rail.statuses.values()), rail.statuses
    assert all(x[-1] == "playing" for x in rail.statuses.values() if "paused" in x), rail.statuses


async def refused_over_http(s: LiveServer, *, surely: bool = True) -> None:
    """While the database is away: readiness 503, and a request that needs it a JSON 503 (``surely``:
    on SQLite with a full disk a small write that fits in the pages there are may still succeed)."""

    async def not_ready() -> bool:
        return await ready(s) == 503

    await until(not_ready, 30, "readiness says 503")
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(
            f"{s.url}/api/register", json={"name": "latecomer", "password": "hunter-22-poker"}
        )
    if surely or r.status_code != 200:
        assert r.status_code == 503 and r.json()["code"] == "store_unavailable", r.text
    report = (await httpx.AsyncClient(timeout=20).get(f"{s.url}/api/ready")).json()
    assert report["ready"] is False and report["reasons"]


async def lasting(began: float, seconds: float) -> None:
    """Let the fault last ``seconds`` in all (the fault's own length, not a wait for something)."""
    await asyncio.sleep(max(0.0, began + seconds - asyncio.get_running_loop().time()))


async def paused(s: LiveServer) -> None:
    async def some() -> bool:
        return bool(s.room.paused())

    await until(some, 30, "the tables pause")


@pytest.mark.asyncio
async def test_postgresql_stopped_for_15_seconds(
    tmp_path: Path, cluster: PrivatePostgres, pg_store: Store
) -> None:
    async with playing(tmp_path, pg_store) as (s, rail):
        cluster.stop()
        began = asyncio.get_running_loop().time()
        try:
            await paused(s)
            await refused_over_http(s)
            await lasting(began, 15)
        finally:
            cluster.start()
        await deals_again(s, hands(s))
        told(rail)
    assert (await verify_ledger(pg_store.db)).ok


@pytest.mark.asyncio
async def test_postgresql_frozen_for_30_seconds(
    tmp_path: Path, cluster: PrivatePostgres, pg_store: Store
) -> None:
    async with playing(tmp_path, pg_store) as (s, rail):
        cluster.freeze()
        began = asyncio.get_running_loop().time()
        try:
            await paused(s)
            await refused_over_http(s)
            await lasting(began, 30)
        finally:
            cluster.thaw()
        await deals_again(s, hands(s))
        told(rail)
    assert (await verify_ledger(pg_store.db)).ok


@pytest.mark.asyncio
async def test_postgresql_terminates_the_rooms_connections(
    tmp_path: Path, cluster: PrivatePostgres, pg_store: Store
) -> None:
    async with playing(tmp_path, pg_store) as (s, rail):
        for _ in range(3):
            cluster.terminate()
            await asyncio.sleep(0.5)
        await deals_again(s, hands(s), faulted=False)  # (a lost connection may be replaced unnoticed)
        assert all(x[-1] == "playing" for x in rail.statuses.values())  # none left paused
    assert (await verify_ledger(pg_store.db)).ok


def _limit_pages(store: Store, limit: int) -> Callable[[], None]:
    """Make every connection of the store see a database of at most ``limit`` pages (a full disk)."""

    def on_checkout(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA max_page_count = {limit}")
        cursor.close()

    # (the async engine's connections and, on inline SQLite, those of the engine its transactions run on)
    engines = [e for e in (store.db.engine.sync_engine, store.db.sync_engine) if e is not None]
    for engine in engines:
        event.listen(engine, "checkout", on_checkout)
    store.db._raw_connection().execute(f"PRAGMA max_page_count = {limit}")

    def undo() -> None:
        store.db._raw_connection().execute("PRAGMA max_page_count = 1073741823")

        def unlimited(dbapi_connection: Any, record: Any, proxy: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA max_page_count = 1073741823")
            cursor.close()

        for engine in engines:
            event.remove(engine, "checkout", on_checkout)
            event.listen(engine, "checkout", unlimited)

    return undo


@pytest.mark.asyncio
async def test_sqlite_with_a_full_disk(tmp_path: Path) -> None:
    store = Store(Database(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}", sqlite_synchronous="OFF"))
    async with playing(tmp_path, store) as (s, rail):
        pages = int(store.db._raw_connection().execute("PRAGMA page_count").fetchone()[0])
        undo = _limit_pages(store, pages)
        try:
            await paused(s)
            await refused_over_http(s, surely=False)
            await asyncio.sleep(5)
        finally:
            undo()
        await deals_again(s, hands(s))
        told(rail)
    assert (await verify_ledger(store.db)).ok

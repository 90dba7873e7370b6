"""Issue 15: a database fault pauses the tables, and they deal again by themselves when it is back.

On a private PostgreSQL cluster (tests/pgcluster.py: never the machine's shared one) a live room with bots
at cash tables and in a Rush pool loses its database: stopped for 15 s, frozen (SIGSTOP) for 30 s, its
connections terminated. Meanwhile readiness answers 503 and HTTP requests get a JSON 503, never a bare
500. Within 30 s of the database's return every table and the pool deal again (each actor's times are
measured and printed: ``pytest -s``), readiness is back, and the ledger verifies: no chip is lost,
nothing is booked twice. On SQLite the same with a full disk (``PRAGMA max_page_count`` lowered under the
running room for 15 s, then raised). On the harness's manual clock: a pool paused at a hand's end deals
as soon as it resumes, and a pool bot whose join met a fault joins again."""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
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
from tests.waiting import until

from ..pgcluster import PrivatePostgres, pg_binaries
from .conftest import LiveServer, serve_room
from .harness import Harness
from .wire import PASSWORD, Frame, Wire

CLOCK = Timing(action=3.0, time_bank=0.0, between_hands=0.05, disconnect_grace=600, sit_out_limit=3600)
RUSH = RushTiming(action=3.0, reduced_action=3.0, time_bank=0.0, disconnect_grace=600)
POOL = "rush-holdem-nl-6max"
BACK_WITHIN = 30.0  # seconds: every table and pool deals again this soon after the database is back


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
    await store.close()  # (its connections, closed here rather than by the garbage collector)


def hands(s: LiveServer) -> dict[str, int]:
    """Hands finished, by table and pool."""
    out = {t: a.hands_played for t, a in s.room.tables.items()}
    out |= {p: a.hands_played for p, a in s.room.pools.items()}
    return out


def dealt(s: LiveServer) -> dict[str, int]:
    """Hands dealt (started), by table and pool."""
    out = {t: a.table.hand_count for t, a in s.room.tables.items()}
    out |= {p: a.pool.hands_dealt for p, a in s.room.pools.items()}
    return out


@dataclass
class Comeback:
    """When an actor (table or pool) came back after the database's return, in seconds since then."""

    resumed: float | None = None  # its pause ended (about 0 when it was not paused at the return)
    dealt: float | None = None  # its first hand dealt since the return
    two_hands: float | None = None  # the second hand it finished since the return

    def figures(self) -> str:
        def fmt(x: float | None) -> str:
            return "-" if x is None else f"{x:5.1f} s"

        return (
            f"resumed {fmt(self.resumed)}, first new hand {fmt(self.dealt)}, two hands {fmt(self.two_hands)}"
        )


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
            await wire.until(Frame("snapshot", table=table))
        rail = Rail(wire)

        async def dealing() -> bool:
            return min(hands(s).values()) >= 2

        try:
            await until(dealing, timeout=120, what="every table deals", show=lambda: hands(s))
            yield s, rail
        finally:
            await rail.close()
            for bot, task in bots:
                bot.stopped = True
                task.cancel()


async def deals_again(s: LiveServer, back: float, what: str, *, faulted: bool = True) -> None:
    """Every table and the pool deal a new hand and finish two more, and the room is ready again; ``back``
    is the event loop's time of the database's return. Each actor's times are printed and each must be
    within ``BACK_WITHIN``."""
    loop = asyncio.get_running_loop()
    finished, started = hands(s), dealt(s)
    actors: dict[str, Any] = {**s.room.tables, **s.room.pools}
    times = {a: Comeback() for a in finished}

    def look() -> bool:
        elapsed = loop.time() - back
        now_finished, now_started = hands(s), dealt(s)
        for a, c in times.items():
            if c.resumed is None and actors[a].pause is None:
                c.resumed = elapsed
            if c.dealt is None and now_started[a] > started[a]:
                c.dealt = elapsed
            if c.two_hands is None and now_finished[a] >= finished[a] + 2:
                c.two_hands = elapsed
        return all(c.dealt is not None and c.two_hands is not None for c in times.values())

    def report() -> str:
        return "\n".join(f"  {what}: {a:24} {c.figures()}" for a, c in times.items())

    try:
        await until(
            lambda: look() and not s.room.paused(),
            timeout=max(0.0, back + BACK_WITHIN - loop.time()),
            every=0.02,  # (sampled often: each time is exact to a few 10 ms)
            what=f"every table and pool deals again within {BACK_WITHIN} s of the database's return",
            show=lambda: "\n" + report(),
        )
    finally:
        print(f"\n{what}: seconds from the database's return\n{report()}")
    for a, c in times.items():
        assert c.dealt is not None and c.dealt <= BACK_WITHIN, (a, c)
        assert c.two_hands is not None and c.two_hands <= BACK_WITHIN, (a, c)
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

    await until(not_ready, timeout=30, what="readiness says 503")
    async with httpx.AsyncClient(timeout=30) as http:
        r = await http.post(f"{s.url}/api/register", json={"name": "latecomer", "password": PASSWORD})
    if surely or r.status_code != 200:
        assert r.status_code == 503 and r.json()["code"] == "store_unavailable", r.text
    async with httpx.AsyncClient(timeout=20) as http:
        report = (await http.get(f"{s.url}/api/ready")).json()
    assert report["ready"] is False and report["reasons"]


async def lasting(began: float, seconds: float) -> None:
    """Let the fault last ``seconds`` in all (the fault's own length, not a wait for something)."""
    await asyncio.sleep(max(0.0, began + seconds - asyncio.get_running_loop().time()))


async def paused(s: LiveServer) -> None:
    async def some() -> bool:
        return bool(s.room.paused())

    await until(some, timeout=30, what="the tables pause")


# The room re-checks its sessions every few seconds; a re-check that meets the database away fails, and
# says so at ERROR (sessions.py), the next one tries again.
SESSIONS_RECHECK = "a periodic re-check of the sessions that meets the database away logs its failure"


@pytest.mark.asyncio
@pytest.mark.allow_errors("pokerroom.sessions", reason=SESSIONS_RECHECK)
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
        await deals_again(s, asyncio.get_running_loop().time(), "postgresql stopped 15 s")
        told(rail)
    assert (await verify_ledger(pg_store.db)).ok


@pytest.mark.asyncio
@pytest.mark.allow_errors("pokerroom.sessions", reason=SESSIONS_RECHECK)
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
        await deals_again(s, asyncio.get_running_loop().time(), "postgresql frozen 30 s")
        told(rail)
    assert (await verify_ledger(pg_store.db)).ok


@pytest.mark.asyncio
@pytest.mark.allow_errors("pokerroom.sessions", reason=SESSIONS_RECHECK)
async def test_postgresql_terminates_the_rooms_connections(
    tmp_path: Path, cluster: PrivatePostgres, pg_store: Store
) -> None:
    async with playing(tmp_path, pg_store) as (s, rail):
        for _ in range(3):
            cluster.terminate()
            await asyncio.sleep(0.5)
        back = asyncio.get_running_loop().time()  # (a lost connection may be replaced unnoticed: no fault)
        await deals_again(s, back, "connections terminated", faulted=False)
        assert all(x[-1] == "playing" for x in rail.statuses.values())  # none left paused
    assert (await verify_ledger(pg_store.db)).ok


def _limit_pages(store: Store, limit: int) -> Callable[[], None]:
    """Make every transaction of the store see a database of at most ``limit`` pages (a full disk). (At
    each transaction's start: inline SQLite keeps a connection between transactions, store/db.py.)"""
    # (the async engine's connections and, on inline SQLite, those of the engine its transactions run on)
    engines = [e for e in (store.db.engine.sync_engine, store.db.sync_engine) if e is not None]
    limited = _max_pages(limit)
    for engine in engines:
        event.listen(engine, "begin", limited)
    store.db._raw_connection().execute(f"PRAGMA max_page_count = {limit}")

    def undo() -> None:
        store.db._raw_connection().execute("PRAGMA max_page_count = 1073741823")
        for engine in engines:
            event.remove(engine, "begin", limited)
            event.listen(engine, "begin", _max_pages(1073741823))

    return undo


def _max_pages(limit: int) -> Callable[[Any], None]:
    """A ``begin`` listener that sets the transaction's connection's ``max_page_count``."""

    def at_begin(conn: Any) -> None:
        cursor = conn.connection.dbapi_connection.cursor()
        cursor.execute(f"PRAGMA max_page_count = {limit}")
        cursor.close()

    return at_begin


@pytest.mark.asyncio
async def test_sqlite_with_a_full_disk(tmp_path: Path) -> None:
    store = Store(Database(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}", sqlite_synchronous="OFF"))
    async with playing(tmp_path, store) as (s, rail):
        pages = int(store.db._raw_connection().execute("PRAGMA page_count").fetchone()[0])
        undo = _limit_pages(store, pages)
        began = asyncio.get_running_loop().time()
        try:
            await paused(s)
            await refused_over_http(s, surely=False)
            await lasting(began, 15)
        finally:
            undo()
        await deals_again(s, asyncio.get_running_loop().time(), "sqlite disk full")
        told(rail)
    assert (await verify_ledger(store.db)).ok


@pytest.mark.asyncio
async def test_a_pool_paused_at_a_hands_end_deals_as_soon_as_it_resumes(tmp_path: Path) -> None:
    """On the room's manual clock (tests/server/harness.py, no wall-clock timing): a pool whose hand's end
    record failed on the store resumes at its first retry and deals its next hand in that same instant, as
    a table deals its next hand at its time. Its waiting entries have no deadline of their own, and the
    pool used to deal only when its loop next woke by itself, a second (mailbox.MAX_WAIT) later."""
    h = await Harness.open(tmp_path, RoomSettings(pools=(demo_pools(RUSH)[0],)), seed=3)
    try:
        journal = h.store.journal
        real = journal.end_hand
        armed: list[str] = []

        async def end_hand(hand_id: str, **kw: Any) -> Any:
            if armed and armed[0] == "armed":
                armed[0] = hand_id
                raise ConnectionResetError("the connection to the store was lost")
            return await real(hand_id, **kw)

        journal.end_hand = end_hand  # type: ignore[method-assign]
        for i in range(6):
            await h.pool_bot(f"rusher{i}", POOL, "caller", seed=i)
        actor = h.room.pools[POOL]
        await h.run(lambda: actor.hands_played >= 2, seconds=600)
        armed.append("armed")
        await h.run(lambda: actor.pause is not None, seconds=600)
        assert actor.pause is not None and not actor.pool.tables  # (paused at the hand's end)
        retry, dealt = actor.pause.next_try, actor.pool.hands_dealt
        await h.run(lambda: actor.pause is None and actor.pool.hands_dealt > dealt, seconds=60)
        assert h.clock.now() == retry  # resumed at the first retry, and dealt then
        assert (await journal.hand(armed[0])).status == "ended"  # the failed end record was written
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_pool_bot_whose_join_met_a_store_fault_joins_again(tmp_path: Path) -> None:
    """A pool bot whose ``pool_join`` was answered ``store_unavailable`` (its buy-in met a lost connection,
    or the pool was paused) joins again shortly instead of sitting out for good."""
    h = await Harness.open(tmp_path, RoomSettings(pools=(demo_pools(RUSH)[0],)), seed=5)
    try:
        ledger = h.store.ledger
        real = ledger.buy_in
        failed: list[int] = []

        async def buy_in(player_id: int, *args: Any, **kw: Any) -> Any:
            if not failed:
                failed.append(player_id)
                raise ConnectionResetError("the connection to the store was lost")
            return await real(player_id, *args, **kw)

        ledger.buy_in = buy_in  # type: ignore[method-assign]
        clients = [await h.pool_bot(f"rejoiner{i}", POOL, "caller", seed=i) for i in range(2)]
        actor = h.room.pools[POOL]
        await h.run(lambda: actor.hands_played >= 2, seconds=600, limit=60)
        assert failed and h.stats.error_codes.get("store_unavailable") == 1
        assert all(actor.pool.entries_of(str(c.player.id)) for c in clients if c.player is not None)
    finally:
        await h.close()

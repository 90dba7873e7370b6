"""A cluster through a sequence of faults (issue 37): two table hosts and two gateways on a private
PostgreSQL and a private nats-server, bots at every cash table and in a Rush pool; then, in turn, a host
killed (and a new one started in its place), a host stopped for 20 s and resumed, the bus down for 10 s, a
gateway killed (and started again), PostgreSQL stopped for 15 s. After each fault every table and the pool
deal again; the bus outage voids no hand (each side of it keeps its leases and waits); at the end the ledger
verifies, no player sits twice at a table, and no client saw a card it may not see.

Every CI run goes through the sequence once; with ``POKERROOM_SOAK=1`` three times in a row, as the issue
asks (one round takes about two minutes here, the three about 6-7 min on a loaded machine).

History: it ran with ``POKERROOM_SOAK=1`` only, because once inside the whole suite on this 2-core machine
(2026-12-06) a table or the pool dealt no hand for 120 s after the 20 s host stop, which four other runs
(three rounds alone, twice inside the suite) never showed. Two gateway faults that leave tables dealing for
nobody after a stop were found and fixed (tests/cluster/test_stop_resume.py, docs/cluster.md "Failover"): a
gateway that subscribed the watchers of a moved table inside its handler of the hosts' directories stopped
hearing the hosts while requests waited and never caught up (reproduced: two hosts stopped, the second
resumed first, tests/cluster/test_host_stop_loop.py); and a request answered by a host that had just taken
a table over made the gateway forget a player's subscription there. The loop with both hosts stopped failed
now and then too (a request stuck on a table the resumed host was dropping held up its other tables; fixed,
see docs/cluster.md "Failover"; a stopped actor now refuses its job in hand as well as the queued ones,
server/mailbox.py; and a lease row locked by a stopped host's write is passed by, store/leases.py). Then
it ran ten whole soak runs (three rounds each) in a row clean on the loaded machine (two at a time,
beside other helpers' tests: load average 4-20 on 2 cores), after one failure at the start (bots that met
a move as they subscribed: see ``start_room``), and came into every CI run.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from pokerroom.bots.client import BotStats
from pokerroom.bots.runner import start_bots, start_pool_bots
from pokerroom.store import Store
from tests.cluster.nodes import TABLES, Cluster, NatsServer, Node, room_file, until
from tests.cluster.watch import Watcher
from tests.pgcluster import PrivatePostgres, pg_binaries

SOAK = os.environ.get("POKERROOM_SOAK") == "1"
ROUNDS = 3 if SOAK else 1  # every CI run: one round of the sequence; a soak run: three in a row
BACK_LIMIT = 120.0  # seconds: generous, for a loaded machine; the times taken are printed
pytestmark = [pytest.mark.slow]


class _Room:
    """The nodes, the bots' figures and the watcher of one run."""

    def __init__(self, cluster: Cluster, config: Path, watcher: Watcher, pool: BotStats) -> None:
        self.cluster = cluster
        self.config = config
        self.watcher = watcher
        self.pool = pool
        self.tables = [t[0] for t in TABLES]
        self.serial = 2  # node ids already used per role
        self.bots: list[
            Any
        ] = []  # the cash tables' (bot, task) pairs: their errors go into a failure's message

    async def start(self, role: str) -> Node:
        self.serial += 1
        node = self.cluster.start(role, f"{role[0]}{self.serial}", self.config)
        await self.cluster.ready(node)
        return node

    def live(self, role: str) -> list[Node]:
        return [n for n in self.cluster.nodes if n.role == role and n.proc.poll() is None]

    async def deals_again(self, what: str) -> float:
        """Every cash table deals two hands and the pool two, from now; the seconds it took."""
        since, pool_hands = time.monotonic(), self.pool.hands

        behind: list[str] = []

        async def dealing() -> bool:
            behind[:] = [t for t in self.tables if len(self.watcher.hands_started(t, since)) < 2]
            if self.pool.hands < pool_hands + 2:
                behind.append(f"the pool ({self.pool.hands - pool_hands} hands)")
            return not behind

        try:
            took = await until(dealing, BACK_LIMIT, f"every table and the pool deal again after {what}")
        except Exception as exc:
            logs = "\n".join(f"--- {n.node_id}\n{n.output()[-3000:]}" for n in self.cluster.nodes)
            errors = dict(self.bots[0][0].stats.error_codes) if self.bots else {}  # (one for all of them)
            raise AssertionError(
                f"after {what}, not dealing: {behind}\nthe bots' errors: {errors}\n{logs}"
            ) from exc
        print(f"  {what}: every table and the pool dealing again {took:.1f} s after ({self.firsts(since)})")
        return took

    def firsts(self, since: float) -> str:
        """Each table's first hand after ``since``, in seconds."""
        first: dict[str, float] = {}
        for t, f in self.watcher.frames:
            if t >= since and f.get("type") == "event" and f["event"].get("type") == "hand_started":
                first.setdefault(str(f.get("table")), t - since)
        return ", ".join(f"{table} {first[table]:.1f}" for table in self.tables if table in first)

    async def cancelled(self) -> int:
        conn = await asyncpg.connect(self.cluster.database.replace("postgresql+asyncpg", "postgresql"))
        try:
            q = f"SELECT count(*) FROM \"{self.cluster.schema}\".hands WHERE status = 'cancelled'"
            return int(await conn.fetchval(q))
        finally:
            await conn.close()


async def _pause(seconds: float) -> None:
    await asyncio.sleep(seconds)  # the length of a fault (the scenario), never a wait for a condition


async def _round(room: _Room, pg: PrivatePostgres, nats: NatsServer, n: int) -> None:
    print(f"\nround {n}")
    held = await room.cluster.leases()
    counts = Counter(h for r, h in held.items() if r.startswith("table:"))
    hosts = room.live("host")
    victim = max(hosts, key=lambda h: counts.get(h.node_id, 0))
    victim.proc.send_signal(signal.SIGKILL)
    victim.proc.wait(10)
    await room.deals_again(f"{victim.node_id} killed")
    fresh = await room.start("host")  # the room grows back: the placement gives the new host its share

    async def shared() -> bool:
        return fresh.node_id in (await room.cluster.leases()).values()

    await until(shared, BACK_LIMIT, f"{fresh.node_id} gets tables")

    stopped = room.live("host")[0]
    heard = len(stopped.output())
    stopped.proc.send_signal(signal.SIGSTOP)
    await _pause(20)
    stopped.proc.send_signal(signal.SIGCONT)
    await room.deals_again(f"{stopped.node_id} stopped for 20 s")
    # its own stop proves nothing about the gateways: it keeps their players' connections
    assert "is silent" not in stopped.output()[heard:], stopped.output()[heard:]

    before = await room.cancelled()
    nats.kill()
    await _pause(10)
    nats.start()
    await room.deals_again("the bus down for 10 s")
    assert await room.cancelled() == before, "the bus outage voided a hand"

    gone = room.live("gateway")[-1]
    gone.proc.send_signal(signal.SIGKILL)
    gone.proc.wait(10)
    await room.deals_again(f"gateway {gone.node_id} killed")
    await room.start("gateway")

    pg.stop()
    await _pause(15)
    pg.start()
    await room.deals_again("PostgreSQL stopped for 15 s")


async def _check(cluster: Cluster) -> None:
    store = Store.open(cluster.database, schema=cluster.schema)
    try:
        report = await store.verify()
        assert report.ok, report.render()
        seats = Counter((s.player_id, s.table_id) for s in await store.ledger.sessions())
        assert [k for k, n in seats.items() if n > 1] == [], "a player sits twice at one table"
    finally:
        await store.close()


async def _quietly(step: Callable[[], Awaitable[Any]]) -> None:
    try:
        await step()
    except Exception as exc:  # a cleanup step after a failure: report the failure, not this
        print(f"cleanup: {exc!r}")


async def start_room(
    cluster: Cluster, config: Path, hosts: tuple[str, ...], gateways: tuple[str, ...], bots: list[Any]
) -> _Room:
    """Start the nodes, wait until every table and the pool are leased, open the watcher on the first
    gateway and start the bots there (into ``bots``, which the caller stops), and wait until all deal."""
    nodes = [cluster.start("host", h, config) for h in hosts] + [
        cluster.start("gateway", g, config) for g in gateways
    ]
    for node in nodes:
        await cluster.ready(node)
    g1 = nodes[len(hosts)]
    room = _Room(cluster, config, Watcher(g1.url), BotStats())

    async def all_held() -> bool:
        held = await cluster.leases()
        return all(f"table:{t}" in held for t in room.tables) and "pool:rush-e" in held

    async def spread() -> bool:
        held = await cluster.leases()
        holders = [held.get(f"table:{t}") for t in room.tables]
        return None not in holders and set(holders) == set(hosts)

    try:
        await until(all_held, 60, "every table and the pool are leased")
        # The first host up takes everything and hands tables to the other after a while (the placement's
        # spreading): the bots start once every host holds tables and none is between hosts. (A bot sends
        # its subscribe and its sit once: one that met a move there, refused ``room_unavailable``, waited
        # for ever where a person tries again; seen once, 2026-12-06, three empty tables moved as twelve
        # bots started, never dealt.) Moves of tables the bots sit at, later, leave them playing.
        await until(spread, 120, "every host holds tables, none between hosts")
        await room.watcher.open(room.tables)
        room.bots = await start_bots(g1.url, 12, ["caller", "random"], think=(0, 0.05), seed=7, prefix="fs")
        bots += room.bots
        bots += await start_pool_bots(
            g1.url, "rush-e", 4, ["caller"], think=(0, 0.05), seed=8, prefix="fp", stats=room.pool
        )
        await room.deals_again("the start")
    except BaseException:
        await _quietly(room.watcher.close)
        raise
    return room


@pytest.mark.asyncio
async def test_every_table_deals_again_after_each_fault_in_turn(tmp_path: Path, services: None) -> None:
    if pg_binaries() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs PostgreSQL's server binaries for the fault tests")
        pytest.skip("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
    nats = NatsServer(tmp_path)
    if nats.binary() is None:
        pytest.skip("no nats-server binary (Debian's nats-server package)")
    pg = PrivatePostgres()
    pg.init()
    nats.start()
    config = room_file(tmp_path, extra=True)
    cluster = Cluster(tmp_path, bus=nats.url, database=pg.url)
    bots: list[Any] = []
    watcher: Watcher | None = None
    try:
        room = await start_room(cluster, config, ("h1", "h2"), ("g1", "g2"), bots)
        watcher = room.watcher  # (bots and the watcher on the first gateway; the second is killed)
        for n in range(1, ROUNDS + 1):
            await _round(room, pg, nats, n)
        assert watcher.leaks() == []
    finally:
        for bot, task in bots:
            await _quietly(bot.stop)
            task.cancel()
        if watcher is not None:
            await _quietly(watcher.close)
        cluster.stop()
        nats.kill()
    try:
        await _check(cluster)
    finally:
        pg.destroy()

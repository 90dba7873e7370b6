"""Leases and fences (issue 16, docs/cluster.md): one host at a time runs a table, and a host that lost
its lease can no longer write for it, whatever it believes; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event

from pokerroom.store import FENCE, Fence, FenceLost

from .conftest import Room
from .storehelpers import FakeClock
from .test_store_journal import start

pytestmark = pytest.mark.asyncio

TTL = timedelta(seconds=8)


async def test_one_holder_at_a_time_and_each_takeover_raises_the_fence(room: Room, clock: FakeClock) -> None:
    leases = room.store.leases
    assert await leases.acquire("table:t1", "host-a", TTL) == 1
    assert await leases.acquire("table:t1", "host-b", TTL) is None  # held
    assert await leases.acquire("table:t1", "host-a", TTL) is None  # held by itself: it knows its fence
    clock.advance(timedelta(seconds=5))
    assert await leases.renew([Fence("table:t1", "host-a", 1)], TTL) == set()
    clock.advance(timedelta(seconds=7))
    assert await leases.acquire("table:t1", "host-b", TTL) is None  # renewed: not expired yet
    clock.advance(timedelta(seconds=2))
    assert await leases.acquire("table:t1", "host-b", TTL) == 2  # expired: taken over
    lost = await leases.renew([Fence("table:t1", "host-a", 1)], TTL)
    assert lost == {Fence("table:t1", "host-a", 1)}  # the old holder never gets it back by renewing
    (lease,) = await leases.all()
    assert (lease.holder, lease.fence) == ("host-b", 2)


async def test_an_expired_lease_nobody_took_is_still_its_holders(room: Room, clock: FakeClock) -> None:
    """A bus outage that cut every host off: the leases expire, nobody takes them, and their holders
    renew them when they can, without a takeover (no hand is voided for nothing)."""
    leases = room.store.leases
    assert await leases.acquire("pool:p", "host-a", TTL) == 1
    clock.advance(timedelta(seconds=30))
    assert await leases.renew([Fence("pool:p", "host-a", 1)], TTL) == set()
    assert await leases.acquire("pool:p", "host-b", TTL) is None


async def test_a_handed_over_table_waits_for_its_new_host(room: Room, clock: FakeClock) -> None:
    leases = room.store.leases
    await leases.acquire("table:t1", "host-a", TTL)
    await leases.hand_over("table:t1", "host-b")
    assert await leases.handovers("host-a") == {"table:t1": "host-b"}
    await leases.release(Fence("table:t1", "host-a", 1), hand_to="host-b", grace=timedelta(seconds=10))
    assert await leases.handed_to("host-b") == {"table:t1"}  # (host-b takes it whatever its share)
    assert await leases.handed_to("host-c") == set()
    assert await leases.acquire("table:t1", "host-c", TTL) is None  # reserved for host-b for a while
    assert await leases.acquire("table:t1", "host-b", TTL) == 2
    assert await leases.handovers("host-b") == {}


async def test_a_write_under_a_lost_fence_is_refused_and_changes_nothing(
    room: Room, clock: FakeClock
) -> None:
    store, leases = room.store, room.store.leases
    await leases.acquire("table:t1", "host-a", TTL)
    clock.advance(timedelta(seconds=9))
    await leases.acquire("table:t1", "host-b", TTL)
    before = await store.ledger.balance(room.alice, "USD")

    async def as_old_holder() -> None:
        FENCE.set(Fence("table:t1", "host-a", 1))
        await store.ledger.buy_in(room.alice, "t1", "USD", 1_000, idempotency_key="late-buyin")

    with pytest.raises(FenceLost) as lost:
        await asyncio.create_task(as_old_holder())
    assert lost.value.code == "table_moved"
    assert await store.ledger.balance(room.alice, "USD") == before
    assert await store.ledger.sessions(table_id="t1") == []

    async def as_new_holder() -> None:
        FENCE.set(Fence("table:t1", "host-b", 2))
        await store.ledger.buy_in(room.alice, "t1", "USD", 1_000, idempotency_key="buyin")

    await asyncio.create_task(as_new_holder())
    assert await store.ledger.balance(room.alice, "USD") == before - 1_000


async def test_group_commit_refuses_only_the_commands_of_a_lost_fence(room: Room, clock: FakeClock) -> None:
    """Commands of two tables in one batch: the one whose host lost its lease is refused, the other
    table's command is journaled."""
    store, leases = room.store, room.store.leases
    await start(room, "h1", "t1")
    await start(room, "h2", "t2")
    await leases.acquire("table:t1", "host-a", TTL)
    await leases.acquire("table:t2", "host-a", TTL)
    clock.advance(timedelta(seconds=9))
    assert await leases.renew([Fence("table:t2", "host-a", 1)], TTL) == set()
    await leases.acquire("table:t1", "host-b", TTL)  # t1 taken over; t2 still host-a's

    async def command(table: str, hand: str) -> BaseException | None:
        FENCE.set(Fence(f"table:{table}", "host-a", 1))
        try:
            await store.journal.record_command(hand, 1, {"type": "fold", "seat": 1})
        except BaseException as exc:
            return exc
        return None

    r1, r2 = await asyncio.gather(
        asyncio.create_task(command("t1", "h1")), asyncio.create_task(command("t2", "h2"))
    )
    assert isinstance(r1, FenceLost) and r2 is None
    assert [c.seq for c in await store.journal.commands("h1")] == []
    assert [c.seq for c in await store.journal.commands("h2")] == [1]


async def test_recovery_of_some_tables_leaves_the_others_open(room: Room) -> None:
    await start(room, "h1", "t1")
    await start(room, "h2", "t2")
    cancelled = await room.store.journal.recover(tables=lambda t: t == "t1")
    assert [c.hand_id for c in cancelled] == ["h1"]
    assert [h.hand_id for h in await room.store.journal.open_hands()] == ["h2"]


async def test_hosts_racing_for_a_new_resource_get_one_lease(room: Room, clock: FakeClock) -> None:
    """Two hosts that both find no lease row insert it at once: one holds it, the other is told it is
    taken (not an IntegrityError that stops its placement loop)."""
    leases = room.store.leases
    for n in range(5):
        got = await asyncio.gather(*(leases.acquire(f"table:r{n}", f"host-{i}", TTL) for i in range(3)))
        assert sorted(got, key=lambda x: x or 0) == [None, None, 1]


async def test_a_host_renews_all_its_leases_in_one_statement(room: Room, clock: FakeClock) -> None:
    """Issue 37, item 4: a renewal is one UPDATE per host per interval, not one per lease (a 10,000-table
    room renews every 2 s); the leases another host took are told apart in the same statement."""
    leases = room.store.leases
    held = [
        Fence(f"table:t{i}", "host-a", await leases.acquire(f"table:t{i}", "host-a", TTL) or 0)
        for i in range(40)
    ]
    clock.advance(timedelta(seconds=9))  # expired: host-b takes two of them over
    taken = {held[3], held[17]}
    for f in taken:
        assert await leases.acquire(f.resource, "host-b", TTL) == 2
    updates: list[str] = []
    engine = room.store.db.engine.sync_engine

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE"):
            updates.append(statement)

    engines = [engine] + ([room.store.db.sync_engine] if room.store.db.sync_engine is not None else [])
    for e in engines:
        event.listen(e, "before_cursor_execute", count)
    try:
        lost = await leases.renew(held, TTL)
    finally:
        for e in engines:
            event.remove(e, "before_cursor_execute", count)
    assert lost == taken
    assert len(updates) == 1, updates
    clock.advance(timedelta(seconds=5))  # the renewed ones are not expired: nobody takes them
    assert await leases.acquire("table:t0", "host-b", TTL) is None
    assert await leases.renew(held, TTL) == taken


async def test_an_expired_lease_is_spared_for_a_holder_that_is_back(room: Room, clock: FakeClock) -> None:
    """The bus came back after an outage that cut every host off: a host that returned first leaves the
    expired leases of the hosts it hears (or has not heard long enough to know) to them, so that each
    renews its own and no hand is voided; a holder it does not spare loses the lease as before."""
    leases = room.store.leases
    assert await leases.acquire("table:t1", "host-a", TTL) == 1
    clock.advance(timedelta(seconds=20))  # expired 12 s ago
    asked: list[tuple[str, timedelta]] = []

    def spare(holder: str, expired_for: timedelta) -> bool:
        asked.append((holder, expired_for))
        return True

    assert await leases.acquire("table:t1", "host-b", TTL, spare=spare) is None
    assert asked == [("host-a", timedelta(seconds=12))]
    assert await leases.renew([Fence("table:t1", "host-a", 1)], TTL) == set()  # still host-a's
    clock.advance(timedelta(seconds=20))
    assert await leases.acquire("table:t1", "host-b", TTL, spare=lambda _h, _e: False) == 2
    assert await leases.renew([Fence("table:t1", "host-a", 1)], TTL) == {Fence("table:t1", "host-a", 1)}
    # a free lease (nobody's) is never a question of sparing
    assert await leases.acquire("table:t2", "host-b", TTL, spare=lambda _h, _e: True) == 1

"""Concurrency on PostgreSQL: 50 tasks buying in, topping up, cashing out and settling hands at once on
shared seat sessions and shared points accounts. No lost update, no negative balance, no deadlock, and
ledger verify passes."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict

import pytest

from pokerroom.store import AccountKind, Database, InsufficientFunds, Role, Store

from .storehelpers import CHEAP_HASHER, PG_URL, pg_truncate_async

pytestmark = pytest.mark.asyncio

TASKS = 50
TABLES = 10
SEATS = 5
STACK = 10_000


async def test_fifty_tasks_at_once_lose_no_update(pg_schema: str) -> None:
    await pg_truncate_async(pg_schema)
    store = Store(Database(PG_URL, schema=pg_schema, pool_size=10, max_overflow=10), hasher=CHEAP_HASHER)
    led = store.ledger
    try:
        admin = (await store.accounts.register("admin", "s3cret-pass-phrase", role=Role.ADMIN)).id
        players = [
            (await store.accounts.register(f"player{i}", "s3cret-pass-phrase")).id for i in range(TASKS)
        ]
        for p in players:
            await led.deposit(p, "USD", 100_000, admin_id=admin, idempotency_key=f"dep-{p}")
        # Each table has 5 seats; a player sits at two tables, so points accounts are shared across tables.
        seats: dict[int, list[tuple[int, int]]] = {}
        for t in range(TABLES):
            seats[t] = []
            for k in range(SEATS):
                p = players[(t * 3 + k * 7) % TASKS]
                b = await led.buy_in(p, f"table-{t}", "USD", STACK, idempotency_key=f"seat-{t}-{k}")
                seats[t].append((b.session_id, p))
        expected: dict[int, int] = {sid: STACK for t in seats for sid, _ in seats[t]}
        expected_points: dict[int, int] = defaultdict(int)
        rake_total = 0
        refused = 0
        lock = asyncio.Lock()  # guards the in-memory model only, never the database

        async def worker(i: int) -> None:
            nonlocal rake_total, refused
            rng = random.Random(i)
            me = players[i]
            for r in range(4):
                # A hand at a shared table: small losses, one winner, rake and points.
                t = rng.randrange(TABLES)
                chosen = seats[t]
                losses = {sid: rng.randint(0, 40) for sid, _ in chosen}
                pot = sum(losses.values())
                rake = pot // 20
                deltas = {sid: -loss for sid, loss in losses.items()}
                deltas[rng.choice(chosen)[0]] += pot - rake
                pts = {p: rake for _, p in chosen[:2]} if rake else {}
                await led.settle_hand(f"hand-{i}-{r}", "USD", deltas, rake, pts)
                async with lock:
                    for sid, d in deltas.items():
                        expected[sid] += d
                    for p, pt in pts.items():
                        expected_points[p] += pt
                    rake_total += rake
                # An overdraw at the same table is refused whole.
                with pytest.raises(InsufficientFunds):
                    bad = {sid: 0 for sid, _ in chosen}
                    bad[chosen[0][0]] = -(10**9)
                    bad[chosen[1][0]] = 10**9
                    await led.settle_hand(f"bad-{i}-{r}", "USD", bad, 0, {})
                async with lock:
                    refused += 1
                # My own session: buy in, top up, cash out while others work.
                b = await led.buy_in(me, f"mine-{i}", "USD", 1_000 + r, idempotency_key=f"mine-{i}-{r}")
                await led.top_up(b.session_id, 50, idempotency_key=f"mine-tu-{i}-{r}")
                out = await led.cash_out(b.session_id, idempotency_key=f"mine-co-{i}-{r}")
                assert out.amount_for(b.session_id) == -(1_050 + r)

        await asyncio.wait_for(asyncio.gather(*(worker(i) for i in range(TASKS))), timeout=120)
        assert refused == TASKS * 4
        for sid, bal in expected.items():
            assert (await led.session(sid)).balance == bal >= 0
        for p in players:
            assert await led.balance(p, "PTS") == expected_points[p]
            # Wallet: deposit - table seats bought; own sessions went in and out whole.
            seated = sum(STACK for t in seats for _, owner in seats[t] if owner == p)
            assert await led.balance(p, "USD") == 100_000 - seated
        assert await led.system_balance(AccountKind.HOUSE, "USD") == rake_total
        report = await store.verify()
        assert report.ok, report.render()
    finally:
        await store.close()

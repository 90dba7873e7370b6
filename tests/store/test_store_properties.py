"""Property-based: random sequences of ledger operations (valid and invalid) against a model. Balances
never go negative, every transaction sums to zero, failed operations book nothing, verify passes."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.store import (
    AccountKind,
    Database,
    IdempotencyConflict,
    InsufficientFunds,
    Role,
    SessionClosed,
    Store,
)

from .storehelpers import CHEAP_HASHER, PG_URL, fresh_sqlite, pg_truncate

SOAK = os.environ.get("POKERROOM_SOAK") == "1"
OPS = ["deposit", "withdraw", "buy_in", "top_up", "cash_out", "settle", "settle_bad", "points", "retry"]


async def run_sequence(url: str, schema: str | None, data: st.DataObject, steps: int) -> None:
    store = Store(Database(url, schema=schema), hasher=CHEAP_HASHER)
    try:
        led = store.ledger
        admin = (await store.accounts.register("admin", "s3cret-pass-phrase", role=Role.ADMIN)).id
        players = [(await store.accounts.register(f"player{i}", "s3cret-pass-phrase")).id for i in range(3)]
        wallet = dict.fromkeys(players, 0)
        points = dict.fromkeys(players, 0)
        sessions: dict[int, tuple[int, int]] = {}  # open session id -> (player, balance)
        house = 0
        done: list[tuple[str, tuple[str, int, int]]] = []  # (key, replayable call) for retries
        n = 0
        for _ in range(steps):
            n += 1
            key = f"k{n}"
            op = data.draw(st.sampled_from(OPS))
            p = data.draw(st.sampled_from(players))
            amount = data.draw(st.integers(1, 3_000))
            if op == "deposit":
                await led.deposit(p, "USD", amount, admin_id=admin, idempotency_key=key)
                wallet[p] += amount
                done.append((key, ("deposit", p, amount)))
            elif op == "withdraw":
                try:
                    await led.withdraw(p, "USD", amount, admin_id=admin, idempotency_key=key)
                    wallet[p] -= amount
                except InsufficientFunds:
                    assert amount > wallet[p]
            elif op == "buy_in":
                try:
                    b = await led.buy_in(p, "t", "USD", amount, idempotency_key=key)
                    wallet[p] -= amount
                    sessions[b.session_id] = (p, amount)
                except InsufficientFunds:
                    assert amount > wallet[p]
            elif op in ("top_up", "cash_out") and sessions:
                sid = data.draw(st.sampled_from(sorted(sessions)))
                owner, bal = sessions[sid]
                if op == "top_up":
                    try:
                        await led.top_up(sid, amount, idempotency_key=key)
                        wallet[owner] -= amount
                        sessions[sid] = (owner, bal + amount)
                    except InsufficientFunds:
                        assert amount > wallet[owner]
                else:
                    await led.cash_out(sid, idempotency_key=key)
                    wallet[owner] += bal
                    del sessions[sid]
                    with pytest.raises(SessionClosed):
                        await led.top_up(sid, 1, idempotency_key=key + "-late")
            elif op in ("settle", "settle_bad") and sessions:
                ids = sorted(sessions)
                losses = {s: data.draw(st.integers(0, sessions[s][1])) for s in ids}
                if op == "settle_bad":
                    victim = data.draw(st.sampled_from(ids))
                    losses[victim] = sessions[victim][1] + data.draw(st.integers(1, 50))
                pot = sum(losses.values())
                rake = data.draw(st.integers(0, pot // 10))
                winner = data.draw(st.sampled_from(ids))
                deltas = {s: -loss for s, loss in losses.items()}
                deltas[winner] += pot - rake
                pts = {sessions[s][0]: rake for s in ids[:1]} if rake else {}
                if op == "settle_bad" and deltas[victim] < 0 and sessions[victim][1] + deltas[victim] < 0:
                    with pytest.raises(InsufficientFunds):
                        await led.settle_hand(key, "USD", deltas, rake, pts)
                    continue
                await led.settle_hand(key, "USD", deltas, rake, pts)
                for s, d in deltas.items():
                    sessions[s] = (sessions[s][0], sessions[s][1] + d)
                for pid, pt in pts.items():
                    points[pid] += pt
                house += rake
            elif op == "points":
                await led.accrue_points(p, amount, idempotency_key=key)
                points[p] += amount
            elif op == "retry" and done:
                old_key, (_, who, amt) = data.draw(st.sampled_from(done))
                again = await led.deposit(who, "USD", amt, admin_id=admin, idempotency_key=old_key)
                assert again.replayed
                with pytest.raises(IdempotencyConflict):
                    await led.deposit(who, "USD", amt + 1, admin_id=admin, idempotency_key=old_key)
        for pid in players:
            assert await led.balance(pid, "USD") == wallet[pid] >= 0
            assert await led.balance(pid, "PTS") == points[pid]
        for sid, (_, bal) in sessions.items():
            assert (await led.session(sid)).balance == bal >= 0
        assert await led.system_balance(AccountKind.HOUSE, "USD") == house
        report = await store.verify()
        assert report.ok, report.render()
        for t in report.totals.values():
            assert t.total == 0
    finally:
        await store.close()


@settings(
    max_examples=150 if SOAK else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_operation_sequences_on_sqlite(
    data: st.DataObject, sqlite_template: Path, tmp_path: Path
) -> None:
    asyncio.run(run_sequence(fresh_sqlite(sqlite_template, tmp_path), None, data, 30))


@settings(
    max_examples=60 if SOAK else 10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_operation_sequences_on_postgresql(data: st.DataObject, pg_schema: str) -> None:
    pg_truncate(pg_schema)
    asyncio.run(run_sequence(PG_URL, pg_schema, data, 30))

"""A hypothesis property of the loss limit (issue 29, item 5): over random buy-ins, cash-outs with wins or
losses, tournament-like stakes, lowered and raised limits and the passing of time (an injected clock),
a stake booked only when ``check_stake`` lets it through never takes the losses of any rolling window past
the limit in force, ``Gaming.used`` agrees with a plain model of the wallet's flows, and the ledger
verifies (the checks book nothing)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.store import AccountKind, Database, Role, Store
from pokerroom.store.gaming import WINDOWS, LimitReached

from .storehelpers import CHEAP_HASHER, PASSWORD, FakeClock, fresh_sqlite

OPS = st.lists(
    st.tuples(
        st.sampled_from(["stake", "cash_out", "limit", "wait"]),
        st.integers(1, 4_000),  # an amount (a stake, a limit)
        st.integers(-3_000, 3_000),  # a cash-out's result against its buy-in
        st.integers(1, 60),  # hours to wait
    ),
    max_size=30,
)


async def _run(url: str, ops: list[tuple[str, int, int, int]]) -> None:
    clock = FakeClock()
    store = Store(Database(url), clock=clock, hasher=CHEAP_HASHER)
    try:
        admin = (await store.accounts.register("admin", PASSWORD, role=Role.ADMIN)).id
        pid = (await store.accounts.register("alice", PASSWORD)).id
        await store.ledger.deposit(pid, "EUR", 10**7, admin_id=admin, idempotency_key="seed")
        flows: list[tuple[datetime, int]] = []  # (when, wallet change to or from a table): the model
        open_seats: list[tuple[int, int]] = []  # (session id, buy-in)
        limit: int | None = None
        for n, (op, amount, result, hours) in enumerate(ops):
            if op == "limit":
                got = await store.gaming.set_limit(
                    pid, "loss_day", "EUR", amount, cooling=timedelta(hours=24)
                )
                limit = got.amount  # (a raise waits: the limit in force stays)
            elif op == "wait":
                clock.advance(timedelta(hours=hours))
            elif op == "stake":
                try:
                    await store.gaming.check_stake(pid, "EUR", amount, what="buy-in")
                except LimitReached:
                    continue
                seat = await store.ledger.buy_in(pid, f"t{n}", "EUR", amount, idempotency_key=f"b{n}")
                open_seats.append((seat.session_id, amount))
                flows.append((clock.now, -amount))
            elif op == "cash_out" and open_seats:
                sid, stake = open_seats.pop(0)
                back = max(0, stake + result)
                if back != stake:  # a hand's result: chips between the seat and the house
                    await _settle(store, sid, back - stake, n)
                await store.ledger.cash_out(sid, idempotency_key=f"c{n}")
                if back:
                    flows.append((clock.now, back))
            limits = {s.kind: s.amount for s in await store.gaming.limits(pid)}
            limit = limits.get("loss_day")
            used = await store.gaming.used(pid, "EUR", "loss")
            for window, span in WINDOWS.items():
                model = -sum(v for at, v in flows if at > clock.now - span)
                assert used[window] == max(0, model), (window, used, model)
            if op == "stake" and limit is not None:
                assert used["day"] <= limit  # a stake let through stayed within the limit then in force
        report = await store.verify()
        assert report.ok, report.render()
    finally:
        await store.close()


async def _settle(store: Store, session_id: int, delta: int, n: int) -> None:
    """Move ``delta`` chips between the seat and the house, as a hand's result would."""
    house = await store.ledger.account(AccountKind.HOUSE, "EUR")
    await store.ledger.post("result", [(session_id, delta), (house, -delta)], idempotency_key=f"s{n}")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_a_stake_let_through_never_takes_the_losses_past_the_limit(
    ops: list[tuple[str, int, int, int]], sqlite_template: Path, tmp_path: Path
) -> None:
    asyncio.run(_run(fresh_sqlite(sqlite_template, tmp_path), ops))

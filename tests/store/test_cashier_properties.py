"""A hypothesis property of the cashier (issue 29): random deposits, withdrawals, approvals, declines and
repeated request ids never create or lose money in any currency, every wallet and pending-withdrawal
account holds exactly what a plain model of the requests says, and ``verify_ledger`` stays clean."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.store import AccountKind, Database, Role, Store, StoreError

from .storehelpers import CHEAP_HASHER, PASSWORD, FakeClock, fresh_sqlite

CURRENCIES = ("EUR", "USD")
OPS = st.lists(
    st.tuples(
        st.sampled_from(["deposit", "withdraw", "approve", "decline", "repeat"]),
        st.integers(0, 1),  # player
        st.sampled_from(CURRENCIES),
        st.integers(1, 5_000),  # amount
        st.integers(0, 30),  # which request (for decisions and repeats)
    ),
    max_size=25,
)


async def _run(url: str, ops: list[tuple[str, int, str, int, int]]) -> None:
    store = Store(Database(url), clock=FakeClock(), hasher=CHEAP_HASHER)
    try:
        admin = (await store.accounts.register("admin", PASSWORD, role=Role.ADMIN)).id
        players = [(await store.accounts.register(n, PASSWORD)).id for n in ("alice", "bob")]
        wallet = {(p, c): 0 for p in players for c in CURRENCIES}
        held = dict.fromkeys(wallet, 0)
        for p in players:  # some money to withdraw
            await store.ledger.deposit(p, "EUR", 4_000, admin_id=admin, idempotency_key=f"seed-{p}")
            wallet[(p, "EUR")] = 4_000
        made: list[tuple[str, int, str, int, str]] = []  # kind, player, currency, amount, request id
        for n, (op, who, cur, amount, pick) in enumerate(ops):
            pid = players[who]
            try:
                if op == "deposit":
                    rid = f"dep-{n:05d}"
                    await store.cashier.request_deposit(pid, cur, amount, reference="ref", request_id=rid)
                    made.append(("deposit", pid, cur, amount, rid))
                elif op == "withdraw":
                    rid = f"wd-{n:06d}"
                    await store.cashier.request_withdrawal(pid, cur, amount, request_id=rid)
                    made.append(("withdrawal", pid, cur, amount, rid))
                    wallet[(pid, cur)] -= amount
                    held[(pid, cur)] += amount
                elif op == "repeat" and made:
                    kind, rpid, rcur, ramount, rid = made[pick % len(made)]
                    if kind == "deposit":
                        r = await store.cashier.request_deposit(
                            rpid, rcur, ramount, reference="ref", request_id=rid
                        )
                    else:
                        r = await store.cashier.request_withdrawal(rpid, rcur, ramount, request_id=rid)
                    assert r.replayed
                elif op in ("approve", "decline") and made:
                    requests = await store.cashier.requests(limit=500)
                    req = sorted(requests, key=lambda r: r.id)[pick % len(requests)]
                    if op == "approve":
                        out = await store.cashier.approve(req.id, operator_id=admin)
                    else:
                        out = await store.cashier.decline(req.id, operator_id=admin, reason="no")
                    if not out.replayed:
                        key = (out.player_id, out.currency)
                        if out.kind == "deposit" and op == "approve":
                            wallet[key] += out.amount
                        elif out.kind == "withdrawal":
                            held[key] -= out.amount
                            if op == "decline":
                                wallet[key] += out.amount
            except StoreError as exc:  # a withdrawal above the balance, a decision that stands
                assert exc.code in ("insufficient_funds", "cashier_request_decided"), exc
        for (pid, cur), expected in wallet.items():
            assert await store.ledger.balance(pid, cur) == expected
            hold = await store.ledger.account(AccountKind.WITHDRAWAL, cur, ref=str(pid))
            assert (await store.ledger.get_account(hold)).balance == held[(pid, cur)]
        report = await store.verify()
        assert report.ok, report.render()
        for cur, totals in report.totals.items():
            assert totals.total == 0, cur
    finally:
        await store.close()


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_cashier_requests_conserve_money(
    ops: list[tuple[str, int, str, int, int]], sqlite_template: Path, tmp_path: Path
) -> None:
    asyncio.run(_run(fresh_sqlite(sqlite_template, tmp_path), ops))

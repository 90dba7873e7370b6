"""The cashier's store side (issue 29, item 2): deposit and withdrawal requests, the operator's decisions,
each money step one balanced ledger transaction, idempotent by the player's request id, and refusals that
book nothing. Runs on SQLite and PostgreSQL (the ``store`` fixture)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pokerroom.store import (
    AccountKind,
    Forbidden,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidCurrency,
    Role,
    Store,
    StoreError,
)
from pokerroom.store.cashier import (
    MAX_CASHIER_AMOUNT,
    InvalidCashierRequest,
    RequestDecided,
    UnknownCashierRequest,
)
from pokerroom.store.currencies import check_room_currency

from .storehelpers import PASSWORD


async def _people(store: Store) -> tuple[int, int]:
    admin = await store.accounts.register("admin", PASSWORD, role=Role.ADMIN)
    alice = await store.accounts.register("alice", PASSWORD)
    return admin.id, alice.id


async def _clean(store: Store) -> None:
    report = await store.verify()
    assert report.ok, report.render()


async def _tx_count(store: Store) -> int:
    return (await store.verify()).transactions


@pytest.mark.parametrize("code", ["EUR", "USD", "BGN", "PLAY"])
def test_room_currency_codes_are_iso_4217_or_play(code: str) -> None:
    assert check_room_currency(code) == code


@pytest.mark.parametrize("code", ["euro", "eur", "XYZ", "PTS", "", 5, None, "EURO"])
def test_other_currency_codes_are_refused(code: object) -> None:
    with pytest.raises(InvalidCurrency):
        check_room_currency(code)


def test_a_code_the_room_does_not_have_is_refused() -> None:
    assert check_room_currency("EUR", ("PLAY", "EUR")) == "EUR"
    with pytest.raises(InvalidCurrency, match="no such currency"):
        check_room_currency("USD", ("PLAY", "EUR"))


@pytest.mark.asyncio
async def test_a_deposit_books_nothing_until_approved_then_credits_the_wallet(store: Store) -> None:
    admin, alice = await _people(store)
    req = await store.cashier.request_deposit(
        alice, "EUR", 5_000, reference="SEPA-4411", request_id="dep-00001"
    )
    assert (req.state, req.kind, req.amount, req.reference) == ("pending", "deposit", 5_000, "SEPA-4411")
    assert await store.ledger.balance(alice, "EUR") == 0 and await _tx_count(store) == 0
    done = await store.cashier.approve(req.id, operator_id=admin, reason="arrived")
    assert (done.state, done.decided_by, done.reason, done.replayed) == ("approved", admin, "arrived", False)
    assert await store.ledger.balance(alice, "EUR") == 5_000
    assert await store.ledger.system_balance(AccountKind.CASHIER, "EUR") == -5_000
    again = await store.cashier.approve(req.id, operator_id=admin)
    assert again.replayed and await store.ledger.balance(alice, "EUR") == 5_000
    with pytest.raises(RequestDecided):
        await store.cashier.decline(req.id, operator_id=admin, reason="too late")
    await _clean(store)


@pytest.mark.asyncio
async def test_a_declined_deposit_books_nothing(store: Store) -> None:
    admin, alice = await _people(store)
    req = await store.cashier.request_deposit(alice, "EUR", 700, reference="x", request_id="dep-00002")
    out = await store.cashier.decline(req.id, operator_id=admin, reason="no money arrived")
    assert out.state == "declined" and await _tx_count(store) == 0
    with pytest.raises(RequestDecided):
        await store.cashier.approve(req.id, operator_id=admin)
    assert await store.ledger.balance(alice, "EUR") == 0


@pytest.mark.asyncio
async def test_a_withdrawal_leaves_the_wallet_at_once_and_is_paid_or_returned(store: Store) -> None:
    admin, alice = await _people(store)
    await store.ledger.deposit(alice, "EUR", 10_000, admin_id=admin, idempotency_key="seed")
    w1 = await store.cashier.request_withdrawal(
        alice, "EUR", 3_000, request_id="wd-000001", destination="IBAN"
    )
    hold = await store.ledger.account(AccountKind.WITHDRAWAL, "EUR", ref=str(alice))
    assert await store.ledger.balance(alice, "EUR") == 7_000
    assert (await store.ledger.get_account(hold)).balance == 3_000
    await _clean(store)
    w2 = await store.cashier.request_withdrawal(alice, "EUR", 2_000, request_id="wd-000002")
    await store.cashier.approve(w1.id, operator_id=admin, reason="paid")
    await store.cashier.decline(w2.id, operator_id=admin, reason="account closed")
    assert await store.ledger.balance(alice, "EUR") == 10_000 - 3_000  # paid out: 3,000; returned: 2,000
    assert (await store.ledger.get_account(hold)).balance == 0
    assert await store.ledger.system_balance(AccountKind.CASHIER, "EUR") == -10_000 + 3_000
    await _clean(store)


@pytest.mark.asyncio
async def test_a_withdrawal_above_the_balance_books_nothing(store: Store) -> None:
    admin, alice = await _people(store)
    await store.ledger.deposit(alice, "EUR", 1_000, admin_id=admin, idempotency_key="seed")
    before = await _tx_count(store)
    with pytest.raises(InsufficientFunds):
        await store.cashier.request_withdrawal(alice, "EUR", 1_001, request_id="wd-toomuch")
    assert await store.cashier.requests(player_id=alice) == []
    assert await _tx_count(store) == before and await store.ledger.balance(alice, "EUR") == 1_000
    await _clean(store)


@pytest.mark.asyncio
async def test_a_repeated_request_id_returns_the_request_or_conflicts(store: Store) -> None:
    admin, alice = await _people(store)
    await store.ledger.deposit(alice, "EUR", 1_000, admin_id=admin, idempotency_key="seed")
    first = await store.cashier.request_withdrawal(alice, "EUR", 400, request_id="same-id-1")
    again = await store.cashier.request_withdrawal(alice, "EUR", 400, request_id="same-id-1")
    assert again.id == first.id and again.replayed and not first.replayed
    assert await store.ledger.balance(alice, "EUR") == 600  # held once
    with pytest.raises(IdempotencyConflict):
        await store.cashier.request_withdrawal(alice, "EUR", 500, request_id="same-id-1")
    with pytest.raises(IdempotencyConflict):
        await store.cashier.request_deposit(alice, "EUR", 400, reference="", request_id="same-id-1")
    assert len(await store.cashier.requests(player_id=alice)) == 1
    await _clean(store)


BAD_AMOUNTS: list[Any] = [0, -5, 1.5, 100.0, True, "100", None, MAX_CASHIER_AMOUNT + 1, 2**70]


@pytest.mark.asyncio
async def test_bad_amounts_currencies_and_ids_are_refused_and_book_nothing(store: Store) -> None:
    admin, alice = await _people(store)
    await store.ledger.deposit(alice, "EUR", 1_000, admin_id=admin, idempotency_key="seed")
    before = await _tx_count(store)
    bad: list[tuple[dict[str, Any], type[StoreError]]] = [
        *(({"amount": a}, InvalidAmount) for a in BAD_AMOUNTS),
        *(({"currency": c}, InvalidCurrency) for c in ("eur", "PTS", "PLAY", "EURO!", 978)),
        ({"request_id": "short"}, InvalidCashierRequest),
        ({"request_id": "bad id with spaces"}, InvalidCashierRequest),
        ({"request_id": 12345678}, InvalidCashierRequest),
    ]
    for change, error in bad:
        args: dict[str, Any] = {"currency": "EUR", "amount": 100, "request_id": "good-id-1", **change}
        with pytest.raises(error):
            await store.cashier.request_deposit(
                alice, args["currency"], args["amount"], reference="r", request_id=args["request_id"]
            )
        with pytest.raises(error):
            await store.cashier.request_withdrawal(
                alice, args["currency"], args["amount"], request_id=args["request_id"]
            )
    with pytest.raises(InvalidCashierRequest):
        await store.cashier.request_deposit(alice, "EUR", 100, reference="x" * 201, request_id="good-id-2")
    with pytest.raises(InvalidCashierRequest):
        await store.cashier.request_deposit(
            alice, "EUR", 100, reference="line\nbreak", request_id="good-id-3"
        )
    assert await store.cashier.requests() == [] and await _tx_count(store) == before


@pytest.mark.asyncio
async def test_only_an_admin_decides_and_a_decline_needs_a_reason(store: Store) -> None:
    admin, alice = await _people(store)
    req = await store.cashier.request_deposit(alice, "EUR", 100, reference="r", request_id="dep-00003")
    with pytest.raises(Forbidden):
        await store.cashier.approve(req.id, operator_id=alice)
    with pytest.raises(InvalidCashierRequest):
        await store.cashier.decline(req.id, operator_id=admin, reason="  ")
    with pytest.raises(UnknownCashierRequest):
        await store.cashier.approve(req.id + 99, operator_id=admin)
    assert (await store.cashier.get(req.id)).state == "pending"
    assert [r.id for r in await store.cashier.requests(state="pending")] == [req.id]


@pytest.mark.asyncio
async def test_the_deposit_guard_is_asked_at_the_request_and_at_the_approval(store: Store) -> None:
    admin, alice = await _people(store)
    asked: list[tuple[int, str, int]] = []
    refuse = {"now": False}

    class Over(StoreError):
        code = "deposit_limit"

    async def guard(pid: int, currency: str, amount: int) -> None:
        asked.append((pid, currency, amount))
        if refuse["now"]:
            raise Over("over the limit")

    store.cashier.deposit_guard = guard
    req = await store.cashier.request_deposit(alice, "EUR", 300, reference="r", request_id="dep-00004")
    refuse["now"] = True
    with pytest.raises(Over):
        await store.cashier.approve(req.id, operator_id=admin)
    with pytest.raises(Over):
        await store.cashier.request_deposit(alice, "EUR", 300, reference="r", request_id="dep-00005")
    assert asked == [(alice, "EUR", 300)] * 3
    assert (await store.cashier.get(req.id)).state == "pending" and await _tx_count(store) == 0


@pytest.mark.asyncio
async def test_verify_notices_a_pending_account_that_does_not_match_its_requests(store: Store) -> None:
    admin, alice = await _people(store)
    await store.ledger.deposit(alice, "EUR", 1_000, admin_id=admin, idempotency_key="seed")
    req = await store.cashier.request_withdrawal(alice, "EUR", 250, request_id="wd-000003")
    async with store.db.write() as conn:
        from sqlalchemy import text

        await conn.execute(text(f"UPDATE cashier_requests SET state = 'declined' WHERE id = {req.id}"))
    report = await store.verify()
    assert not report.ok and any("pending withdrawals" in p for p in report.problems)


@pytest.mark.asyncio
async def test_concurrent_decisions_book_once(store: Store) -> None:
    admin, alice = await _people(store)
    await store.ledger.deposit(alice, "EUR", 1_000, admin_id=admin, idempotency_key="seed")
    dep = await store.cashier.request_deposit(alice, "EUR", 500, reference="r", request_id="dep-race-1")
    wd = await store.cashier.request_withdrawal(alice, "EUR", 400, request_id="wd-race-01")
    got = await asyncio.gather(*(store.cashier.approve(dep.id, operator_id=admin) for _ in range(3)))
    assert sorted(r.replayed for r in got) == [False, True, True]
    outcomes = await asyncio.gather(
        store.cashier.approve(wd.id, operator_id=admin),
        store.cashier.decline(wd.id, operator_id=admin, reason="changed my mind"),
        return_exceptions=True,
    )
    decided = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(decided) == 1 and all(isinstance(o, RequestDecided) for o in outcomes if o not in decided)
    expected = 1_000 + 500 - 400 + (400 if decided[0].state == "declined" else 0)
    assert await store.ledger.balance(alice, "EUR") == expected
    await _clean(store)

"""The double-entry ledger: each operation and each error, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text

from pokerroom.store import (
    PLAY,
    AccountKind,
    Forbidden,
    IdempotencyConflict,
    InsufficientFunds,
    InvalidAmount,
    InvalidCurrency,
    PlayMoneyPolicy,
    SessionClosed,
    Store,
    TopUpRefused,
    UnbalancedTransaction,
    UnknownAccount,
    UnknownPlayer,
    UnknownSession,
)
from pokerroom.store.models import AccountRow, PostingRow, TransactionRow

from .conftest import Room

pytestmark = pytest.mark.asyncio


async def counts(store: Store) -> tuple[int, int, int]:
    async with store.db.read() as conn:
        return (
            (await conn.execute(select(func.count()).select_from(TransactionRow))).scalar_one(),
            (await conn.execute(select(func.count()).select_from(PostingRow))).scalar_one(),
            # System accounts are created on first use even if the operation fails; seats only by a buy-in.
            (await conn.execute(select(func.count()).where(AccountRow.kind == "seat"))).scalar_one(),
        )


async def assert_verified(store: Store) -> None:
    report = await store.verify()
    assert report.ok, report.render()


# -- deposits and withdrawals ----------------------------------------------------------------------------


async def test_an_admin_deposit_moves_money_from_the_cashier(room: Room) -> None:
    s = room.store
    assert await s.ledger.balance(room.alice, "USD") == 100_000
    assert await s.ledger.system_balance(AccountKind.CASHIER, "USD") == -200_000
    tx = await s.ledger.deposit(room.alice, "EUR", 5_000, admin_id=room.admin, idempotency_key="eur-1")
    assert tx.kind == "deposit" and not tx.replayed
    assert sum(p.amount for p in tx.postings) == 0
    assert await s.ledger.balance(room.alice, "EUR") == 5_000
    await assert_verified(s)


async def test_a_play_money_deposit_comes_from_the_bank(room: Room) -> None:
    s = room.store
    await s.ledger.deposit(room.bob, PLAY, 777, admin_id=room.admin, idempotency_key="play-1")
    assert await s.ledger.balance(room.bob, PLAY) == 777
    assert await s.ledger.system_balance(AccountKind.BANK, PLAY) == -777
    assert await s.ledger.system_balance(AccountKind.CASHIER, PLAY) == 0


async def test_only_an_admin_may_deposit_and_nothing_is_booked_otherwise(room: Room) -> None:
    before = await counts(room.store)
    with pytest.raises(Forbidden) as err:
        await room.store.ledger.deposit(room.alice, "USD", 1, admin_id=room.bob, idempotency_key="x")
    assert err.value.code == "forbidden"
    assert await counts(room.store) == before


@pytest.mark.parametrize("amount", [0, -5, 1.5, True, "10", 2**63])
async def test_amounts_are_positive_ints_in_minor_units(room: Room, amount: object) -> None:
    with pytest.raises(InvalidAmount) as err:
        await room.store.ledger.deposit(room.alice, "USD", amount, admin_id=room.admin, idempotency_key="x")  # type: ignore[arg-type]
    assert err.value.code == "invalid_amount"


@pytest.mark.parametrize("currency", ["PTS", "usd", "US", "DOLLARS", 840])
async def test_deposits_need_a_cash_currency_code(room: Room, currency: object) -> None:
    with pytest.raises(InvalidCurrency) as err:
        await room.store.ledger.deposit(room.alice, currency, 5, admin_id=room.admin, idempotency_key="x")  # type: ignore[arg-type]
    assert err.value.code == "invalid_currency"


async def test_a_deposit_to_an_unknown_player_is_refused(room: Room) -> None:
    with pytest.raises(UnknownPlayer):
        await room.store.ledger.deposit(999, "USD", 5, admin_id=room.admin, idempotency_key="x")


async def test_a_retry_with_the_same_key_and_content_books_once(room: Room) -> None:
    s = room.store
    first = await s.ledger.deposit(room.alice, "USD", 500, admin_id=room.admin, idempotency_key="dep-9")
    before = await counts(s)
    again = await s.ledger.deposit(room.alice, "USD", 500, admin_id=room.admin, idempotency_key="dep-9")
    assert again.replayed and again.id == first.id and again.postings == first.postings
    assert await counts(s) == before
    assert await s.ledger.balance(room.alice, "USD") == 100_500
    assert (await s.ledger.transaction("dep-9")) == first


async def test_the_same_key_with_other_content_is_an_error(room: Room) -> None:
    s = room.store
    await s.ledger.deposit(room.alice, "USD", 500, admin_id=room.admin, idempotency_key="dep-9")
    before = await counts(s)
    for call in (
        s.ledger.deposit(room.alice, "USD", 501, admin_id=room.admin, idempotency_key="dep-9"),
        s.ledger.deposit(room.bob, "USD", 500, admin_id=room.admin, idempotency_key="dep-9"),
        s.ledger.accrue_points(room.alice, 5, idempotency_key="dep-9"),
    ):
        with pytest.raises(IdempotencyConflict) as err:
            await call
        assert err.value.code == "idempotency_conflict"
    assert await counts(s) == before
    assert await s.ledger.balance(room.alice, "USD") == 100_500


async def test_withdraw_pays_out_to_the_cashier_within_the_balance(room: Room) -> None:
    s = room.store
    await s.ledger.withdraw(room.alice, "USD", 40_000, admin_id=room.admin, idempotency_key="w1")
    assert await s.ledger.balance(room.alice, "USD") == 60_000
    before = await counts(s)
    with pytest.raises(InsufficientFunds) as err:
        await s.ledger.withdraw(room.alice, "USD", 60_001, admin_id=room.admin, idempotency_key="w2")
    assert (err.value.balance, err.value.needed) == (60_000, 60_001)
    assert await counts(s) == before
    with pytest.raises(InvalidCurrency):
        await s.ledger.withdraw(room.alice, PLAY, 1, admin_id=room.admin, idempotency_key="w3")
    await assert_verified(s)


# -- play money ------------------------------------------------------------------------------------------


async def test_play_money_top_up_refills_only_below_the_threshold(room: Room) -> None:
    s = room.store
    policy = PlayMoneyPolicy()
    tx = await s.ledger.play_money_top_up(room.alice, idempotency_key="pm-1")
    assert await s.ledger.balance(room.alice, PLAY) == policy.refill_to
    assert tx.amount_for(await s.ledger.account(AccountKind.BANK, PLAY)) == -policy.refill_to
    with pytest.raises(TopUpRefused) as err:
        await s.ledger.play_money_top_up(room.alice, idempotency_key="pm-2")
    assert err.value.code == "top_up_refused"
    # Lose most of it at a table, then a top-up brings the wallet back to refill_to.
    b = await s.ledger.buy_in(
        room.alice, "t1", PLAY, policy.refill_to - policy.threshold + 1, idempotency_key="b"
    )
    assert await s.ledger.balance(room.alice, PLAY) == policy.threshold - 1
    await s.ledger.play_money_top_up(room.alice, idempotency_key="pm-3")
    assert await s.ledger.balance(room.alice, PLAY) == policy.refill_to
    assert (await s.ledger.session(b.session_id)).balance == policy.refill_to - policy.threshold + 1
    assert (await s.ledger.play_money_top_up(room.alice, idempotency_key="pm-3")).replayed
    await assert_verified(s)


# -- table sessions --------------------------------------------------------------------------------------


async def test_buy_in_moves_chips_to_a_new_seat_session(room: Room) -> None:
    s = room.store
    b = await s.ledger.buy_in(room.alice, "table-1", "USD", 20_000, idempotency_key="bi-1")
    sess = await s.ledger.session(b.session_id)
    assert (sess.player_id, sess.table_id, sess.currency, sess.balance, sess.is_open) == (
        room.alice,
        "table-1",
        "USD",
        20_000,
        True,
    )
    assert await s.ledger.balance(room.alice, "USD") == 80_000
    again = await s.ledger.buy_in(room.alice, "table-1", "USD", 20_000, idempotency_key="bi-1")
    assert again.session_id == b.session_id and again.transaction.replayed
    assert await s.ledger.balance(room.alice, "USD") == 80_000
    assert [x.id for x in await s.ledger.sessions(table_id="table-1")] == [b.session_id]
    await assert_verified(s)


async def test_a_buy_in_beyond_the_balance_is_refused_and_books_nothing(room: Room) -> None:
    s = room.store
    before = await counts(s)
    with pytest.raises(InsufficientFunds) as err:
        await s.ledger.buy_in(room.alice, "table-1", "USD", 100_001, idempotency_key="bi-1")
    assert err.value.code == "insufficient_funds"
    assert (err.value.balance, err.value.needed) == (100_000, 100_001)
    assert await counts(s) == before  # no transaction, no posting, no seat account
    assert await s.ledger.balance(room.alice, "USD") == 100_000
    assert await s.ledger.sessions(player_id=room.alice) == []
    # The key was not used up: a retry within the balance works.
    assert (await s.ledger.buy_in(room.alice, "table-1", "USD", 100_000, idempotency_key="bi-1")).session_id


async def test_a_buy_in_in_a_currency_never_deposited_is_refused(room: Room) -> None:
    with pytest.raises(InsufficientFunds):
        await room.store.ledger.buy_in(room.alice, "t", "EUR", 1, idempotency_key="k")
    with pytest.raises(InvalidCurrency):
        await room.store.ledger.buy_in(room.alice, "t", "PTS", 1, idempotency_key="k")


async def test_top_up_and_cash_out(room: Room) -> None:
    s = room.store
    b = await s.ledger.buy_in(room.alice, "t1", "USD", 10_000, idempotency_key="bi")
    await s.ledger.top_up(b.session_id, 5_000, idempotency_key="tu")
    assert (await s.ledger.session(b.session_id)).balance == 15_000
    assert await s.ledger.balance(room.alice, "USD") == 85_000
    with pytest.raises(InsufficientFunds):
        await s.ledger.top_up(b.session_id, 85_001, idempotency_key="tu2")
    out = await s.ledger.cash_out(b.session_id, idempotency_key="co")
    assert out.amount_for(b.session_id) == -15_000
    sess = await s.ledger.session(b.session_id)
    assert not sess.is_open and sess.balance == 0
    assert await s.ledger.balance(room.alice, "USD") == 100_000
    assert (await s.ledger.cash_out(b.session_id, idempotency_key="co")).replayed
    with pytest.raises(SessionClosed) as err:
        await s.ledger.cash_out(b.session_id, idempotency_key="co-2")
    assert err.value.code == "session_closed"
    with pytest.raises(SessionClosed):
        await s.ledger.top_up(b.session_id, 1, idempotency_key="tu3")
    assert await s.ledger.sessions(player_id=room.alice) == []
    assert len(await s.ledger.sessions(player_id=room.alice, open_only=False)) == 1
    await assert_verified(s)


async def test_cash_out_of_an_empty_session_closes_it(room: Room) -> None:
    s = room.store
    a = await s.ledger.buy_in(room.alice, "t1", "USD", 1_000, idempotency_key="a")
    b = await s.ledger.buy_in(room.bob, "t1", "USD", 1_000, idempotency_key="b")
    await s.ledger.settle_hand("h1", "USD", {a.session_id: -1_000, b.session_id: 1_000}, 0, {})
    tx = await s.ledger.cash_out(a.session_id, idempotency_key="co")
    assert tx.postings == () and not (await s.ledger.session(a.session_id)).is_open
    await assert_verified(s)


async def test_unknown_sessions(room: Room) -> None:
    for call in (
        room.store.ledger.top_up(12345, 5, idempotency_key="k"),
        room.store.ledger.cash_out(12345, idempotency_key="k"),
        room.store.ledger.session(12345),
    ):
        with pytest.raises(UnknownSession) as err:
            await call
        assert err.value.code == "unknown_session"


# -- hand settlement -------------------------------------------------------------------------------------


async def seated(room: Room, table: str = "t1", amount: int = 10_000) -> tuple[int, int]:
    a = await room.store.ledger.buy_in(room.alice, table, "USD", amount, idempotency_key=f"{table}-a")
    b = await room.store.ledger.buy_in(room.bob, table, "USD", amount, idempotency_key=f"{table}-b")
    return a.session_id, b.session_id


async def test_settle_hand_moves_chips_takes_rake_and_issues_points(room: Room) -> None:
    s = room.store
    a, b = await seated(room)
    tx = await s.ledger.settle_hand(
        "h-1", "USD", {a: 1_900, b: -2_000}, 100, {room.alice: 500, room.bob: 500}
    )
    assert tx.key == "hand:h-1" and tx.kind == "settle"
    assert (await s.ledger.session(a)).balance == 11_900
    assert (await s.ledger.session(b)).balance == 8_000
    assert await s.ledger.system_balance(AccountKind.HOUSE, "USD") == 100
    assert await s.ledger.balance(room.alice, "PTS") == 500
    assert await s.ledger.balance(room.bob, "PTS") == 500
    assert await s.ledger.system_balance(AccountKind.POINTS_ISSUER, "PTS") == -1_000
    report = await s.verify()
    assert report.ok and report.totals["PTS"].total == 0 and report.totals["USD"].by_kind["house"] == 100


async def test_a_settlement_retry_books_once_and_a_different_one_is_refused(room: Room) -> None:
    s = room.store
    a, b = await seated(room)
    first = await s.ledger.settle_hand("h-1", "USD", {a: 50, b: -50}, 0, {room.alice: 1})
    again = await s.ledger.settle_hand("h-1", "USD", {b: -50, a: 50}, 0, {room.alice: 1})
    assert again.replayed and again.id == first.id
    assert (await s.ledger.session(a)).balance == 10_050
    with pytest.raises(IdempotencyConflict):
        await s.ledger.settle_hand("h-1", "USD", {a: 60, b: -60}, 0, {room.alice: 1})
    assert (await s.ledger.session(a)).balance == 10_050


async def test_deltas_plus_rake_must_sum_to_zero(room: Room) -> None:
    s = room.store
    a, b = await seated(room)
    before = await counts(s)
    with pytest.raises(UnbalancedTransaction) as err:
        await s.ledger.settle_hand("h-1", "USD", {a: 100, b: -100}, 5, {})
    assert err.value.code == "unbalanced"
    assert await counts(s) == before


async def test_a_settlement_that_would_make_a_stack_negative_books_nothing(room: Room) -> None:
    s = room.store
    a, b = await seated(room)
    before = await counts(s)
    with pytest.raises(InsufficientFunds) as err:
        await s.ledger.settle_hand("h-1", "USD", {a: 10_001, b: -10_001}, 0, {room.alice: 3})
    assert err.value.account_id == b
    assert await counts(s) == before
    assert (await s.ledger.session(a)).balance == 10_000
    assert await s.ledger.balance(room.alice, "PTS") == 0


async def test_a_settlement_on_a_closed_unknown_or_foreign_session_books_nothing(room: Room) -> None:
    s = room.store
    a, b = await seated(room)
    eur = await s.ledger.deposit(room.bob, "EUR", 500, admin_id=room.admin, idempotency_key="eur")
    e = await s.ledger.buy_in(room.bob, "t-eur", "EUR", 500, idempotency_key="eur-bi")
    assert eur.postings
    await s.ledger.cash_out(b, idempotency_key="co")
    before = await counts(s)
    with pytest.raises(SessionClosed):
        await s.ledger.settle_hand("h-1", "USD", {a: 10, b: -10}, 0, {})
    with pytest.raises(UnknownSession):
        await s.ledger.settle_hand("h-1", "USD", {a: 10, 99_999: -10}, 0, {})
    with pytest.raises(UnknownSession):  # an EUR session in a USD hand
        await s.ledger.settle_hand("h-1", "USD", {a: 10, e.session_id: -10}, 0, {})
    wallet = await s.ledger.account(AccountKind.WALLET, "USD", owner_id=room.alice)
    with pytest.raises(UnknownSession):  # a wallet is not a seat
        await s.ledger.settle_hand("h-1", "USD", {a: -10, wallet: 10}, 0, {})
    with pytest.raises(UnknownPlayer):
        await s.ledger.settle_hand("h-1", "USD", {a: 0}, 0, {424242: 5})
    assert await counts(s) == before


@pytest.mark.parametrize(
    ("deltas", "rake", "points"),
    [({1: 1.0}, 0, {}), ({1: 0}, -1, {}), ({1: 0}, 0, {2: -1}), ({1: 0}, 0, {2: 0.5})],
)
async def test_settlement_inputs_are_ints(
    room: Room, deltas: dict[int, int], rake: int, points: dict[int, int]
) -> None:
    with pytest.raises(InvalidAmount):
        await room.store.ledger.settle_hand("h", "USD", deltas, rake, points)


async def test_points_accrual(room: Room) -> None:
    s = room.store
    await s.ledger.accrue_points(room.alice, 1_000, idempotency_key="fee-1", reason="tournament 7 fee")
    assert await s.ledger.balance(room.alice, "PTS") == 1_000
    assert (
        await s.ledger.accrue_points(room.alice, 1_000, idempotency_key="fee-1", reason="tournament 7 fee")
    ).replayed
    assert await s.ledger.balance(room.alice, "PTS") == 1_000
    with pytest.raises(InvalidAmount):
        await s.ledger.accrue_points(room.alice, 0, idempotency_key="fee-2")
    await assert_verified(s)


async def test_general_postings_fit_prize_pools_and_promotions(room: Room) -> None:
    s = room.store
    wallet = await s.ledger.account(AccountKind.WALLET, "USD", owner_id=room.alice)
    pool = await s.ledger.account(AccountKind.PRIZE_POOL, "USD", ref="tourney-1")
    house = await s.ledger.account(AccountKind.HOUSE, "USD")
    promo = await s.ledger.account(AccountKind.PROMOTIONS, "USD")
    await s.ledger.post(
        "tourney_buy_in", [(wallet, -10_900), (pool, 10_000), (house, 900)], idempotency_key="r1"
    )
    await s.ledger.post("overlay", [(promo, -5_000), (pool, 5_000)], idempotency_key="o1")
    assert (await s.ledger.get_account(pool)).balance == 15_000
    assert (await s.ledger.get_account(promo)).balance == -5_000
    with pytest.raises(InsufficientFunds):  # a prize pool may not go negative
        await s.ledger.post("payout", [(pool, -15_001), (wallet, 15_001)], idempotency_key="p1")
    with pytest.raises(UnbalancedTransaction):
        await s.ledger.post("payout", [(pool, -15_000), (wallet, 14_999)], idempotency_key="p1")
    with pytest.raises(UnknownAccount):
        await s.ledger.post("payout", [(pool, -1), (777_777, 1)], idempotency_key="p1")
    await s.ledger.post("payout", [(pool, -15_000), (wallet, 15_000)], idempotency_key="p1")
    assert await s.ledger.balance(room.alice, "USD") == 104_100
    await assert_verified(s)


async def test_account_kinds_say_which_may_go_negative() -> None:
    unbounded = {k for k in AccountKind if k.may_go_negative}
    assert unbounded == {
        AccountKind.CASHIER,
        AccountKind.BANK,
        AccountKind.POINTS_ISSUER,
        AccountKind.HOUSE,
        AccountKind.PROMOTIONS,
        AccountKind.ESCROW,  # a system account without a stored balance; it is empty once its hand ends
        AccountKind.ADJUSTMENTS,  # the house side of the console's corrections (issue 17)
    }


async def test_the_database_refuses_a_negative_floored_balance(room: Room) -> None:
    """The CHECK constraint backs up the ledger code: no write may leave a floored account below zero."""
    from sqlalchemy.exc import IntegrityError

    wallet = await room.store.ledger.account(AccountKind.WALLET, "USD", owner_id=room.alice)
    with pytest.raises(IntegrityError):
        async with room.store.db.write() as conn:
            await conn.execute(text("UPDATE ledger_accounts SET balance = -1 WHERE id = :i"), {"i": wallet})


async def test_bookings_also_work_through_sqlalchemy_alone(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL the booking statement normally goes straight to the driver; if SQLAlchemy's internals
    ever stop allowing that, the same statement runs through SQLAlchemy. Both give the same results."""
    from pokerroom.store import booking

    async def no_driver(conn: object) -> None:
        return None

    monkeypatch.setattr(booking, "_driver_in_transaction", no_driver)
    s = room.store
    a, b = await seated(room)
    await s.ledger.deposit(room.alice, "USD", 5, admin_id=room.admin, idempotency_key="sa-1")
    assert (
        await s.ledger.deposit(room.alice, "USD", 5, admin_id=room.admin, idempotency_key="sa-1")
    ).replayed
    with pytest.raises(InsufficientFunds):
        await s.ledger.withdraw(room.alice, "USD", 10**7, admin_id=room.admin, idempotency_key="sa-2")
    prepared = await s.ledger.prepare_settlement("h-sa", "USD", {a: 10, b: -12}, 2, {room.bob: 20})
    async with s.db.write() as conn:
        tx = await s.ledger.settle_in(conn, prepared)
    assert tx.kind == "settle" and (await s.ledger.session(a)).balance == 10_010
    with pytest.raises(UnknownSession):
        prepared = await s.ledger.prepare_settlement("h-sa2", "USD", {a: 10, 98_765: -10}, 0, {})
        async with s.db.write() as conn:
            await s.ledger.settle_in(conn, prepared)
    await assert_verified(s)


async def test_history_lists_a_players_entries_newest_first_with_balances(room: Room) -> None:
    s = room.store
    b = await s.ledger.buy_in(room.alice, "table-1", "USD", 20_000, idempotency_key="h-bi")
    await s.ledger.cash_out(b.session_id, idempotency_key="h-co")
    entries = await s.ledger.history(room.alice, "USD")
    assert [(e.kind, e.amount, e.balance) for e in entries] == [
        ("cash_out", 20_000, 100_000),
        ("buy_in", -20_000, 80_000),
        ("deposit", 100_000, 100_000),
    ]
    assert [e.amount for e in await s.ledger.history(room.alice, "USD", limit=1, offset=1)] == [-20_000]
    assert (await s.ledger.history(room.alice, "USD", limit=1, offset=1))[0].balance == 80_000
    assert await s.ledger.history(room.bob, "EUR") == []
    assert entries[0].to_dict()["amount"] == 20_000

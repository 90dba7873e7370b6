"""Responsible gaming in the store (issue 29, item 5): limits lowered at once and raised only after the
cooling period, rolling windows on an injected clock, losses and deposits read from the ledger,
cool-off and self-exclusion that nobody lifts early and that end every session."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pokerroom.store import BadCredentials, InvalidAmount, InvalidCurrency, Store, UnknownToken
from pokerroom.store.gaming import (
    ExclusionLocked,
    InvalidLimit,
    LimitReached,
    SelfExcluded,
    add_months,
)

from .conftest import Room
from .storehelpers import PASSWORD, FakeClock

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


async def _limit(store: Store, pid: int, kind: str) -> tuple[int | None, int | None]:
    got = {s.kind: s for s in await store.gaming.limits(pid)}
    s = got.get(kind)
    return (None, None) if s is None else (s.amount, s.pending)


@pytest.mark.asyncio
async def test_a_limit_is_lowered_at_once_and_raised_only_after_the_cooling_period(
    room: Room, clock: FakeClock
) -> None:
    g, alice = room.store.gaming, room.alice
    first = await g.set_limit(alice, "loss_day", "USD", 10_000)
    assert (first.amount, first.pending_from) == (10_000, None)  # a first limit holds at once
    await g.set_limit(alice, "loss_day", "USD", 5_000)
    assert await _limit(room.store, alice, "loss_day") == (5_000, None)  # lowered at once
    raised = await g.set_limit(alice, "loss_day", "USD", 20_000)
    assert (raised.amount, raised.pending, raised.pending_from) == (5_000, 20_000, clock.now + DAY)
    clock.advance(DAY - timedelta(seconds=1))
    assert await _limit(room.store, alice, "loss_day") == (5_000, 20_000)  # still cooling
    clock.advance(timedelta(seconds=1))
    assert await _limit(room.store, alice, "loss_day") == (20_000, None)  # in force after 24 h


@pytest.mark.asyncio
async def test_lowering_cancels_a_waiting_raise_and_a_removal_waits_too(room: Room, clock: FakeClock) -> None:
    g, alice = room.store.gaming, room.alice
    await g.set_limit(alice, "deposit_week", "USD", 10_000)
    await g.set_limit(alice, "deposit_week", "USD", 90_000)
    await g.set_limit(alice, "deposit_week", "USD", 8_000)
    assert await _limit(room.store, alice, "deposit_week") == (8_000, None)
    clock.advance(2 * DAY)
    assert await _limit(room.store, alice, "deposit_week") == (8_000, None)  # the raise was cancelled
    removal = await g.set_limit(alice, "deposit_week", "USD", None, cooling=timedelta(hours=72))
    assert (removal.amount, removal.pending, removal.pending_from) == (8_000, None, clock.now + 3 * DAY)
    clock.advance(3 * DAY)
    assert await _limit(room.store, alice, "deposit_week") == (None, None)
    assert await g.limits(alice) == []


@pytest.mark.asyncio
async def test_a_loss_limit_refuses_a_stake_over_it_and_a_cash_out_counts_back(
    room: Room, clock: FakeClock
) -> None:
    store, alice = room.store, room.alice
    await store.gaming.set_limit(alice, "loss_day", "USD", 1_000)
    await store.gaming.check_stake(alice, "USD", 1_000, what="buy-in")  # exactly the limit passes
    seat = await store.ledger.buy_in(alice, "t1", "USD", 600, idempotency_key="b1")
    with pytest.raises(LimitReached) as got:
        await store.gaming.check_stake(alice, "USD", 500, what="buy-in")
    assert (got.value.code, got.value.used, got.value.limit) == ("limit_reached", 600, 1_000)
    assert "1,000" not in str(got.value) and "10.00 USD" in str(got.value)
    await store.gaming.check_stake(alice, "USD", 400, what="top-up")
    await store.gaming.check_stake(alice, "EUR", 50_000, what="buy-in")  # another currency: no limit
    await store.ledger.cash_out(seat.session_id, idempotency_key="c1")  # 600 came back: no loss
    await store.gaming.check_stake(alice, "USD", 1_000, what="buy-in")
    await store.ledger.buy_in(alice, "t1", "USD", 900, idempotency_key="b2")
    with pytest.raises(LimitReached):
        await store.gaming.check_stake(alice, "USD", 200, what="registration")
    clock.advance(DAY)  # a rolling 24 h window: the buy-in has left it
    await store.gaming.check_stake(alice, "USD", 1_000, what="buy-in")


@pytest.mark.asyncio
async def test_the_weekly_and_monthly_windows_roll(room: Room, clock: FakeClock) -> None:
    store, alice = room.store, room.alice
    await store.gaming.set_limit(alice, "loss_week", "USD", 1_000)
    await store.gaming.set_limit(alice, "loss_month", "USD", 1_500)
    await store.ledger.buy_in(alice, "t1", "USD", 800, idempotency_key="b1")
    clock.advance(6 * DAY)
    with pytest.raises(LimitReached) as week:
        await store.gaming.check_stake(alice, "USD", 300, what="buy-in")
    assert week.value.kind == "loss_week"
    clock.advance(DAY)  # 7 days: out of the week, still in the month
    await store.gaming.check_stake(alice, "USD", 700, what="buy-in")
    with pytest.raises(LimitReached) as month:
        await store.gaming.check_stake(alice, "USD", 701, what="buy-in")
    assert month.value.kind == "loss_month" and month.value.days == 30
    clock.advance(23 * DAY)
    await store.gaming.check_stake(alice, "USD", 1_000, what="buy-in")
    assert await store.gaming.used(alice, "USD", "loss") == {"day": 0, "week": 0, "month": 0}


@pytest.mark.asyncio
async def test_a_deposit_limit_counts_cashier_credits_in_the_window(room: Room, clock: FakeClock) -> None:
    store, alice = room.store, room.alice
    await store.gaming.set_limit(alice, "deposit_day", "USD", 150_000)
    # the room fixture's deposit of 100,000 is in the window
    with pytest.raises(LimitReached) as got:
        await store.gaming.check_deposit(alice, "USD", 60_000)
    assert got.value.kind == "deposit_day" and got.value.used == 100_000
    await store.gaming.check_deposit(alice, "USD", 50_000)
    await store.ledger.buy_in(alice, "t1", "USD", 9_000, idempotency_key="b1")  # a stake is no deposit
    await store.gaming.check_deposit(alice, "USD", 50_000)
    clock.advance(DAY)
    await store.gaming.check_deposit(alice, "USD", 150_000)


@pytest.mark.asyncio
async def test_the_cashier_honours_the_deposit_limit_at_request_and_at_approval(room: Room) -> None:
    store, alice = room.store, room.alice
    first = await store.cashier.request_deposit(alice, "EUR", 3_000, reference="r1", request_id="deposit-1")
    second = await store.cashier.request_deposit(alice, "EUR", 3_000, reference="r2", request_id="deposit-2")
    await store.gaming.set_limit(alice, "deposit_day", "EUR", 5_000)
    with pytest.raises(LimitReached):
        await store.cashier.request_deposit(alice, "EUR", 5_001, reference="r3", request_id="deposit-3")
    await store.cashier.approve(first.id, operator_id=room.admin)
    with pytest.raises(LimitReached):  # the second would make 6,000 in the day
        await store.cashier.approve(second.id, operator_id=room.admin)
    assert await store.ledger.balance(alice, "EUR") == 3_000
    assert (await store.verify()).ok


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kind", "currency", "amount", "error"),
    [
        ("loss_day", "USD", True, InvalidAmount),
        ("loss_day", "USD", 10.5, InvalidAmount),
        ("loss_day", "USD", "100", InvalidAmount),
        ("loss_day", "USD", -5, InvalidAmount),
        ("loss_day", "USD", 0, InvalidAmount),
        ("loss_day", "USD", 10**13, InvalidAmount),
        ("loss_day", "euro", 100, InvalidCurrency),
        ("loss_day", "PLAY", 100, InvalidCurrency),
        ("loss_year", "USD", 100, InvalidLimit),
        ("session", "USD", 60, InvalidLimit),
        ("session", None, 2, InvalidLimit),
        ("session", None, 24 * 60 + 1, InvalidLimit),
    ],
)
async def test_a_bad_limit_is_refused_with_a_typed_error_and_keeps_nothing(
    room: Room, kind: str, currency: str | None, amount: object, error: type[Exception]
) -> None:
    with pytest.raises(error):
        await room.store.gaming.set_limit(room.alice, kind, currency, amount)  # type: ignore[arg-type]
    assert await room.store.gaming.limits(room.alice) == []


@pytest.mark.asyncio
async def test_a_cool_off_blocks_login_stakes_and_deposits_until_it_ends(
    room: Room, clock: FakeClock
) -> None:
    store, alice = room.store, room.alice
    session = await store.accounts.login("alice", PASSWORD)
    with pytest.raises(BadCredentials):
        await store.gaming.exclude(alice, "cool_off", password="wrong-password-here", days=2)
    assert await store.gaming.exclusions(alice) == []
    await store.accounts.authenticate(session.token)  # a refused attempt ends nothing
    got = await store.gaming.exclude(alice, "cool_off", password=PASSWORD, days=2)
    assert got.ends_at == clock.now + 2 * DAY
    with pytest.raises(UnknownToken):  # every session of the player ended at once
        await store.accounts.authenticate(session.token)
    for check in (
        store.gaming.check_login(alice),
        store.gaming.check_stake(alice, "PLAY", 100, what="buy-in"),
        store.gaming.check_stake(alice, "USD", 0, what="registration"),
        store.gaming.check_deposit(alice, "USD", 100),
    ):
        with pytest.raises(SelfExcluded) as refused:
            await check
        assert refused.value.until == clock.now + 2 * DAY and refused.value.kind == "cool_off"
    await store.gaming.check_login(room.bob)  # nobody else
    clock.advance(2 * DAY)
    await store.gaming.check_login(alice)
    await store.gaming.check_stake(alice, "USD", 100, what="buy-in")


@pytest.mark.asyncio
async def test_nobody_lifts_or_shortens_an_exclusion_but_it_may_be_made_longer(
    room: Room, clock: FakeClock
) -> None:
    g, alice = room.store.gaming, room.alice
    six = await g.exclude(alice, "self_exclusion", password=PASSWORD, months=6)
    assert six.ends_at == add_months(clock.now, 6)
    with pytest.raises(ExclusionLocked):
        await g.lift(alice)
    with pytest.raises(ExclusionLocked):  # a cool-off would end sooner
        await g.exclude(alice, "cool_off", password=PASSWORD, days=42)
    clock.advance(30 * DAY)
    longer = await g.exclude(alice, "self_exclusion", password=PASSWORD, permanent=True)
    assert longer.ends_at is None
    with pytest.raises(ExclusionLocked):
        await g.exclude(alice, "self_exclusion", password=PASSWORD, months=120)
    clock.advance(365 * 20 * DAY)
    with pytest.raises(SelfExcluded) as still:
        await g.check_login(alice)
    assert still.value.until is None and still.value.ends == "permanent"
    assert len(await g.exclusions(alice)) == 2  # the register keeps both


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kind", "kw"),
    [
        ("cool_off", {"days": 0}),
        ("cool_off", {"days": 43}),
        ("cool_off", {"days": True}),
        ("cool_off", {"months": 6}),
        ("self_exclusion", {"months": 5}),
        ("self_exclusion", {"months": 121}),
        ("self_exclusion", {"months": 6.0}),
        ("self_exclusion", {"days": 200}),
        ("self_exclusion", {"permanent": "yes"}),
        ("holiday", {"days": 3}),
    ],
)
async def test_an_exclusion_out_of_range_is_refused(room: Room, kind: str, kw: dict[str, object]) -> None:
    with pytest.raises((InvalidLimit, InvalidAmount)):
        await room.store.gaming.exclude(room.alice, kind, password=PASSWORD, **kw)  # type: ignore[arg-type]
    assert await room.store.gaming.exclusions(room.alice) == []


def test_calendar_months_keep_the_day_or_take_the_last_of_a_shorter_month() -> None:
    from datetime import UTC, datetime

    assert add_months(datetime(2026, 8, 31, 9, tzinfo=UTC), 6) == datetime(2027, 2, 28, 9, tzinfo=UTC)
    assert add_months(datetime(2026, 12, 6, tzinfo=UTC), 6) == datetime(2027, 6, 6, tzinfo=UTC)
    assert add_months(datetime(2026, 1, 15, tzinfo=UTC), 120) == datetime(2036, 1, 15, tzinfo=UTC)


@pytest.mark.asyncio
async def test_the_session_report_shows_time_played_and_the_net_result(room: Room, clock: FakeClock) -> None:
    store, alice = room.store, room.alice
    await store.gaming.set_limit(alice, "session", None, 30)
    await store.ledger.buy_in(alice, "before", "USD", 1_000, idempotency_key="b0")  # before the login
    session = await store.accounts.login("alice", PASSWORD)
    seat = await store.ledger.buy_in(alice, "t1", "USD", 2_000, idempotency_key="b1")
    await store.ledger.buy_in(alice, "t2", "USD", 500, idempotency_key="b2")
    await store.ledger.cash_out(seat.session_id, idempotency_key="c1")
    clock.advance(timedelta(minutes=40))
    report = await store.gaming.session(session.token)
    out = report.to_dict(clock.now)
    assert out["played_seconds"] == 40 * 60 and out["reminder_minutes"] == 30
    assert out["next_reminder_at"] == (clock.now + timedelta(minutes=20)).isoformat()
    assert out["net"] == {"USD": 0}  # 2,000 out and back; 500 on a table still counts as hers


@pytest.mark.asyncio
async def test_the_register_lists_limits_and_exclusions_by_player(room: Room, clock: FakeClock) -> None:
    g = room.store.gaming
    await g.set_limit(room.bob, "loss_month", "USD", 5_000)
    await g.exclude(room.alice, "cool_off", password=PASSWORD, days=1)
    rows = await g.register()
    assert [(r["player"], r["what"]) for r in rows] == [("alice", "exclusion"), ("bob", "limit")]
    assert rows[0]["active"] is True and rows[1]["amount"] == 5_000
    clock.advance(2 * DAY)
    assert (await g.register())[0]["active"] is False  # ended, still in the register


@pytest.mark.asyncio
async def test_another_process_on_the_database_honours_a_limit_and_an_exclusion_at_once(
    room: Room, db_target: tuple[str, str | None], clock: FakeClock
) -> None:
    """No state in memory: a second store on the same database (another process of a cluster) sees a
    limit and an exclusion as soon as they are committed."""
    from pokerroom.store import Database

    url, schema = db_target
    other = Store(Database(url, schema=schema), clock=clock, hasher=room.store.accounts.hasher)
    try:
        await other.gaming.check_stake(room.alice, "USD", 5_000, what="buy-in")
        await room.store.gaming.set_limit(room.alice, "loss_week", "USD", 4_000)
        with pytest.raises(LimitReached):
            await other.gaming.check_stake(room.alice, "USD", 5_000, what="buy-in")
        await room.store.gaming.exclude(room.alice, "cool_off", password=PASSWORD, days=1)
        with pytest.raises(SelfExcluded):
            await other.gaming.check_login(room.alice)
    finally:
        await other.close()

"""Crash recovery of Rush hands (issue 28, item 5). A Rush entry that quick-folds out of an open hand has
its result released into that hand's escrow and goes on at once: it is dealt into another hand with the
rest of its chips, and that one may end, be quick-folded in turn, or still be open at the crash; the
entry may also top up or leave the pool while the first hand is still open. The recovery a room runs at
start (``journal.recover()``, then every open seat session cashed out) must give every release back,
leave every balance where the hands that ended put it, and report no mismatch unless chips are really
off."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.store import (
    AccountKind,
    CancelledHand,
    Database,
    Role,
    SeatRecord,
    StackMismatch,
    Store,
    deck_commitment,
)

from .conftest import Room
from .storehelpers import CHEAP_HASHER, PASSWORD, PG_URL, FakeClock, fresh_sqlite, pg_truncate

SOAK = os.environ.get("POKERROOM_SOAK") == "1"
DECK = "AsKd7c2h9s" + "Tc" * 3
SALT = "00112233445566778899aabbccddeeff"
POOL = "p"


@dataclass(frozen=True)
class Entry:
    player: int
    session: int


async def _entries(room: Room, n: int, stack: int = 10_000) -> list[Entry]:
    """``n`` Rush entries in pool ``p`` (alice, bob and more players), each bought in with ``stack``."""
    s = room.store
    players = [room.alice, room.bob]
    for i in range(len(players), n):
        p = (await s.accounts.register(f"player{i}", PASSWORD)).id
        await s.ledger.deposit(p, "USD", 100_000, admin_id=room.admin, idempotency_key=f"seed-x{i}")
        players.append(p)
    out = []
    for p in players[:n]:
        b = await s.ledger.buy_in(p, POOL, "USD", stack, idempotency_key=f"buy-{p}")
        out.append(Entry(p, b.session_id))
    return out


async def _deal(store: Store, table: int, seated: Sequence[tuple[Entry, int]]) -> str:
    """A hand at Rush table ``p-t<table>`` (ids as the pool makes them), each entry with its stack."""
    hand_id = f"{POOL}-t{table}-h"
    await store.journal.start_hand(
        hand_id,
        table_id=f"{POOL}-t{table}",
        game="NT/nl",
        currency="USD",
        seats=[SeatRecord(i + 1, e.player, e.session, stack) for i, (e, stack) in enumerate(seated)],
        deck_commitment=deck_commitment(DECK, SALT),
    )
    return hand_id


async def _room_start_recovery(store: Store) -> list[CancelledHand]:
    """What ``Room.start`` does with the store (src/pokerroom/server/room.py), up to the cash-outs."""
    return await store.journal.recover()


async def _room_start_cash_outs(store: Store) -> None:
    for session in await store.ledger.sessions(open_only=True):
        await store.ledger.cash_out(session.id, idempotency_key=f"recovery-cashout:{session.id}")


async def _balance(store: Store, e: Entry) -> int:
    return (await store.ledger.session(e.session)).balance


def _mismatches(hand: CancelledHand) -> list[tuple[int, int, int]]:
    assert all(isinstance(m, StackMismatch) for m in hand.mismatches)
    return [(m.session_id, m.stack, m.balance) for m in hand.mismatches]


async def _check_cancelled(store: Store, cancelled: Sequence[CancelledHand]) -> None:
    """No mismatch anywhere; every seat that was still in a hand when it was cancelled is back at that
    hand's start stack then (the newer hands it came from were undone first); no escrow holds a chip."""
    assert [h.mismatches for h in cancelled] == [()] * len(cancelled)
    for h in cancelled:
        record = await store.journal.hand(h.hand_id)
        assert record.status == "cancelled" and record.result["mismatches"] == []
        assert await store.ledger.system_balance(AccountKind.ESCROW, "USD", ref=h.hand_id) == 0


# -- built by hand -----------------------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("same_instant", [False, True], ids=["clock-moves", "same-instant"])
async def test_recovery_of_release_chains_returns_every_balance_without_mismatch(
    room: Room, clock: FakeClock, same_instant: bool
) -> None:
    """Chains of releases over four entries and four open hands, A -> B -> C -> D (tables 8-11, so that
    the hand ids' text order is not the order they started in). With the clock moving, the start times
    give the order; at the same instant (a coarse clock) they tie and only the journal itself can."""
    s = room.store
    e1, e2, e3, e4 = await _entries(room, 4)

    def tick() -> None:
        if not same_instant:
            clock.advance(timedelta(milliseconds=1))

    a = await _deal(s, 8, [(e1, 10_000), (e2, 10_000), (e3, 10_000)])
    tick()
    await s.journal.release_seat(a, e1.session, -100)
    await s.journal.release_seat(a, e2.session, -50)
    tick()
    b = await _deal(s, 9, [(e1, 9_900), (e2, 9_950)])
    tick()
    await s.journal.release_seat(b, e1.session, -300)
    tick()
    c = await _deal(s, 10, [(e1, 9_600), (e4, 10_000)])
    tick()
    await s.journal.release_seat(c, e4.session, -200)
    await s.journal.release_seat(b, e2.session, 0)  # a quick fold that had put nothing in
    tick()
    d = await _deal(s, 11, [(e4, 9_800), (e2, 9_950)])

    cancelled = await _room_start_recovery(s)
    assert {h.hand_id for h in cancelled} == {a, b, c, d}
    await _check_cancelled(s, cancelled)
    by_id = {h.hand_id: h for h in cancelled}
    # Each hand is cancelled after every newer hand an entry of it went on to: the seats still in it are
    # at its start stacks when it is.
    assert by_id[d].stacks == {e4.session: 9_800, e2.session: 9_950}
    assert by_id[c].stacks[e1.session] == 9_600
    assert by_id[a].stacks[e3.session] == 10_000
    order = [h.hand_id for h in cancelled]
    assert order.index(d) < order.index(c) < min(order.index(b), order.index(a))
    for e in (e1, e2, e3, e4):
        assert await _balance(s, e) == 10_000
    await _room_start_cash_outs(s)
    for p in (e1.player, e2.player, e3.player, e4.player):
        assert await s.ledger.balance(p, "USD") == 100_000
    assert (await s.verify()).ok


@pytest.mark.asyncio
async def test_an_entry_that_played_on_after_its_release_records_no_mismatch(
    room: Room, clock: FakeClock
) -> None:
    """Hand A stays open while its quick-folded entries go on: e1 wins hand B to its end and tops up, then
    sits in hand C; e2 leaves the pool (cashed out); e3 quick-folds out of C. None of that is A's. The
    pool's void (``PoolActor.void``: ``cancel_hand`` on each open hand, the newest first) gives A's and
    C's releases back on top of it and reports nothing; a restart's recovery then has nothing left."""
    s = room.store
    e1, e2, e3, e4 = await _entries(room, 4)
    a = await _deal(s, 1, [(e1, 10_000), (e2, 10_000), (e4, 10_000)])
    await s.journal.release_seat(a, e1.session, -100)
    await s.journal.release_seat(a, e2.session, -250)
    await s.ledger.cash_out(e2.session, idempotency_key="e2-leaves")  # 9,750 back to the wallet
    clock.advance(timedelta(seconds=1))
    b = await _deal(s, 2, [(e1, 9_900), (e3, 10_000)])
    await s.journal.end_hand(
        b, deck_text=DECK, salt=SALT, deltas={e1.session: 300, e3.session: -300}, rake=0, points={}
    )
    await s.ledger.top_up(e1.session, 500, idempotency_key="e1-tops-up")
    clock.advance(timedelta(seconds=1))
    c = await _deal(s, 3, [(e1, 10_700), (e3, 9_700)])
    await s.journal.release_seat(c, e3.session, -40)

    voided = [await s.journal.cancel_hand(h, reason="the store failed") for h in (c, a)]
    await _check_cancelled(s, voided)
    assert voided[0].stacks[e1.session] == 10_700
    assert await _room_start_recovery(s) == []
    assert await _balance(s, e1) == 10_000 + 300 + 500
    assert await _balance(s, e3) == 10_000 - 300
    assert await _balance(s, e4) == 10_000
    assert await s.ledger.balance(e2.player, "USD") == 100_000  # the release went back to the wallet
    await _room_start_cash_outs(s)
    assert (await s.verify()).ok


@pytest.mark.asyncio
async def test_recovery_after_an_entry_played_on_records_no_mismatch(room: Room, clock: FakeClock) -> None:
    """The same as a crash sees it: A, and the hand the entry sits in now, are both open at the restart."""
    s = room.store
    e1, e2, e3 = await _entries(room, 3)
    a = await _deal(s, 1, [(e1, 10_000), (e2, 10_000)])
    await s.journal.release_seat(a, e1.session, -100)
    clock.advance(timedelta(seconds=1))
    b = await _deal(s, 2, [(e1, 9_900), (e3, 10_000)])
    await s.journal.end_hand(
        b, deck_text=DECK, salt=SALT, deltas={e1.session: 300, e3.session: -300}, rake=0, points={}
    )
    clock.advance(timedelta(seconds=1))
    c = await _deal(s, 3, [(e1, 10_200), (e3, 9_700)])
    cancelled = await _room_start_recovery(s)
    assert [h.hand_id for h in cancelled] == [c, a]
    await _check_cancelled(s, cancelled)
    assert cancelled[0].stacks == {e1.session: 10_200, e3.session: 9_700}
    assert await _balance(s, e1) == 10_300 and await _balance(s, e2) == 10_000
    assert await _balance(s, e3) == 9_700
    await _room_start_cash_outs(s)
    assert (await s.verify()).ok


@pytest.mark.asyncio
async def test_chips_really_off_are_still_a_mismatch(room: Room, clock: FakeClock) -> None:
    """A seat session's balance changed outside the hands while its entry sat in one (a general posting on
    the session) is reported by that hand, in a chain as well; the hand it was released from is not
    concerned."""
    s = room.store
    e1, e2, e3 = await _entries(room, 3)
    a = await _deal(s, 1, [(e1, 10_000), (e2, 10_000)])
    await s.journal.release_seat(a, e1.session, -100)
    clock.advance(timedelta(seconds=1))
    b = await _deal(s, 2, [(e1, 9_900), (e3, 10_000)])
    house = await s.ledger.account(AccountKind.ADJUSTMENTS, "USD")
    await s.ledger.post("adjustment", [(e1.session, 250), (house, -250)], idempotency_key="outside-1")
    await s.ledger.post("adjustment", [(e2.session, -70), (house, 70)], idempotency_key="outside-2")
    cancelled = await _room_start_recovery(s)
    assert [h.hand_id for h in cancelled] == [b, a]
    assert _mismatches(cancelled[0]) == [(e1.session, 9_900, 10_150)]
    assert _mismatches(cancelled[1]) == [(e2.session, 10_000, 9_930)]
    record = await s.journal.hand(b)
    assert record.result["mismatches"] == [[e1.session, 9_900, 10_150]]
    assert await _balance(s, e1) == 10_250  # every release still comes back
    assert (await s.verify()).ok


# -- property: random chains of releases and hands -----------------------------------------------------------


@dataclass
class _Model:
    """What the store must hold: ``booked`` per session counts buy-ins, top-ups, released results of hands
    that ended and the results of hands that ended; ``pending`` the releases of hands still open (given
    back by the recovery); ``wallet`` per player."""

    booked: dict[int, int] = field(default_factory=dict)
    pending: dict[str, dict[int, int]] = field(default_factory=dict)  # open hand -> session -> released
    in_hand: dict[int, str] = field(default_factory=dict)  # session -> the open hand it is still in
    stacks: dict[str, dict[int, int]] = field(default_factory=dict)  # open hand -> its start stacks
    owner: dict[int, int] = field(default_factory=dict)
    closed: set[int] = field(default_factory=set)
    wallet: dict[int, int] = field(default_factory=dict)

    def live(self, sid: int) -> int:
        return self.booked[sid] + sum(r.get(sid, 0) for r in self.pending.values())


async def run_chains(url: str, schema: str | None, data: st.DataObject, steps: int) -> None:
    clock = FakeClock()
    store = Store(Database(url, schema=schema), clock=clock, hasher=CHEAP_HASHER)
    try:
        led, journal = store.ledger, store.journal
        admin = (await store.accounts.register("admin", PASSWORD, role=Role.ADMIN)).id
        m = _Model()
        players = []
        for i in range(5):
            p = (await store.accounts.register(f"player{i}", PASSWORD)).id
            await led.deposit(p, "USD", 100_000, admin_id=admin, idempotency_key=f"seed-{p}")
            players.append(p)
            m.wallet[p] = 100_000
        buy_ins = 0

        async def buy_in(p: int) -> None:
            nonlocal buy_ins
            buy_ins += 1
            amount = data.draw(st.integers(0, 5_000), label="buy-in") + 1
            b = await led.buy_in(p, f"{POOL}{buy_ins}", "USD", amount, idempotency_key=f"buy-{buy_ins}")
            m.booked[b.session_id] = amount
            m.owner[b.session_id] = p
            m.wallet[p] -= amount

        for p in players:
            await buy_in(p)
        tables = 7  # p-t8-h, p-t9-h, p-t10-h, ...: the ids' text order is not the order they start in
        for step in range(steps):
            # The clock mostly stands still (start times tie), and may step back (a clock set back).
            if data.draw(st.integers(0, 2), label="clock moves") == 0:
                clock.advance(timedelta(microseconds=data.draw(st.integers(-1_000, 1_000))))
            free = [
                sid
                for sid in sorted(m.booked)
                if sid not in m.closed and sid not in m.in_hand and m.live(sid) > 0
            ]
            op = data.draw(st.sampled_from(["deal", "release", "end", "top_up", "leave"]), label="op")
            if op == "deal" and len(free) >= 2:
                seated = data.draw(st.lists(st.sampled_from(free), min_size=2, max_size=4, unique=True))
                tables += 1
                stacks = {sid: m.live(sid) for sid in seated}
                hand = await _deal(store, tables, [(Entry(m.owner[sid], sid), stacks[sid]) for sid in seated])
                m.pending[hand] = {}
                m.stacks[hand] = stacks
                for sid in seated:
                    m.in_hand[sid] = hand
            elif op == "release" and m.in_hand:
                sid = data.draw(st.sampled_from(sorted(m.in_hand)))
                hand = m.in_hand.pop(sid)
                put_in = data.draw(st.integers(0, m.stacks[hand][sid]), label="put in")
                await journal.release_seat(hand, sid, -put_in)
                m.pending[hand][sid] = -put_in
            elif op == "end" and m.pending:
                hand = data.draw(st.sampled_from(sorted(m.pending)))
                still = sorted(sid for sid, h in m.in_hand.items() if h == hand)
                held = -sum(m.pending[hand].values())
                deltas = {sid: -data.draw(st.integers(0, m.stacks[hand][sid])) for sid in still}
                pot = held - sum(deltas.values())
                rake = data.draw(st.integers(0, pot // 20)) if still else pot
                if still:
                    deltas[data.draw(st.sampled_from(still))] += pot - rake
                await journal.end_hand(hand, deck_text=DECK, salt=SALT, deltas=deltas, rake=rake, points={})
                for sid, released in m.pending.pop(hand).items():
                    m.booked[sid] += released  # final now (a closed session: it stays at 0)
                for sid, d in deltas.items():
                    m.booked[sid] += d
                    del m.in_hand[sid]
                del m.stacks[hand]
            elif op == "top_up" and free:
                sid = data.draw(st.sampled_from(free))
                amount = data.draw(st.integers(1, 2_000))
                await led.top_up(sid, amount, idempotency_key=f"top-{step}")
                m.booked[sid] += amount
                m.wallet[m.owner[sid]] -= amount
            elif op == "leave" and free:
                sid = data.draw(st.sampled_from(free))
                await led.cash_out(sid, idempotency_key=f"leave-{step}")
                m.wallet[m.owner[sid]] += m.live(sid)
                m.booked[sid] -= m.live(sid)  # its live balance is 0 now, whatever open hands hold
                m.closed.add(sid)
                await buy_in(m.owner[sid])

        open_before = set(m.pending)
        cancelled = await _room_start_recovery(store)
        assert {h.hand_id for h in cancelled} == open_before
        await _check_cancelled(store, cancelled)
        for h in cancelled:  # each seat still in a hand is at that hand's start stack when it is cancelled
            for sid, hand in m.in_hand.items():
                if hand == h.hand_id:
                    assert h.stacks[sid] == m.stacks[hand][sid]
        for pending in m.pending.values():
            for sid, r in pending.items():
                if sid in m.closed:
                    m.wallet[m.owner[sid]] -= r  # given back to the wallet, the session stays at 0
                    m.booked[sid] += r
        for sid, booked in m.booked.items():
            session = await led.session(sid)
            if sid in m.closed:
                assert session.balance == 0
            else:
                assert session.balance == booked, (sid, session.balance, booked)
        assert await journal.open_hands() == []
        for p in players:
            assert await led.balance(p, "USD") == m.wallet[p]
        await _room_start_cash_outs(store)
        for p in players:
            expected = m.wallet[p] + sum(
                b for sid, b in m.booked.items() if m.owner[sid] == p and sid not in m.closed
            )
            assert await led.balance(p, "USD") == expected
        report = await store.verify()
        assert report.ok, report.render()
    finally:
        await store.close()


@settings(
    max_examples=60 if SOAK else 15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_recovery_of_random_release_chains_on_sqlite(
    data: st.DataObject, sqlite_template: Path, tmp_path: Path
) -> None:
    asyncio.run(run_chains(fresh_sqlite(sqlite_template, tmp_path), None, data, 30))


@settings(
    max_examples=30 if SOAK else 5,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_recovery_of_random_release_chains_on_postgresql(data: st.DataObject, pg_schema: str) -> None:
    pg_truncate(pg_schema)
    asyncio.run(run_chains(PG_URL, pg_schema, data, 30))

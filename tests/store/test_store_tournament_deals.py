"""The store's part of deals at the final table (issue 35; migration 0024), on SQLite and PostgreSQL:
the operator's deal switch per tournament (kept whether or not the tournament has a row, replaced when
set again, read back for the ids asked), and each entry's deal written in the step that pays it, with
its money, and read back with the entries (what the archived page shows after a restart)."""

from __future__ import annotations

import pytest

from pokerroom.store import Booking, InsufficientFunds, TournamentChanges

from .conftest import Room
from .test_store_tournaments import accounts, balance, enter, wallet

pytestmark = pytest.mark.asyncio


async def test_the_operators_deal_switch_is_kept_per_tournament(room: Room) -> None:
    t = room.store.tournaments
    assert await t.deal_switches(["a", "b"]) == {} and await t.deal_switches([]) == {}
    await t.set_deal_switch("a", False)  # (no tournament row: nobody registered)
    await t.set_deal_switch("b", True)
    assert await t.deal_switches(["a", "b", "c"]) == {"a": False, "b": True}
    await t.set_deal_switch("a", True)
    assert await t.deal_switches(["a"]) == {"a": True}
    assert await t.statuses(["a", "b"]) == {}  # (no tournament row was made for it)


async def test_an_entrys_deal_is_stored_with_its_money(room: Room) -> None:
    s = room.store
    await enter(room, "t1", room.alice, await wallet(room, room.alice))
    await enter(room, "t1", room.bob, await wallet(room, room.bob))
    pool, _, _ = await accounts(room, "t1")
    deals = {room.alice: 1300, room.bob: 700}

    def paid(player: int, amount: int, w: int) -> Booking:
        postings = [(pool, -amount), (w, amount)]
        return Booking("tourney_deal", f"deal:t1:{player}", postings, {"player": player})

    w = {p: await wallet(room, p) for p in deals}
    too_much = [paid(room.alice, 1300, w[room.alice]), paid(room.bob, 900, w[room.bob])]
    with pytest.raises(InsufficientFunds):  # the pool holds 2,000: nothing is kept
        await s.tournaments.apply("t1", TournamentChanges(bookings=too_much, deals={room.bob: 900}))
    (kept,) = await s.tournaments.live()
    assert {e.deal for e in kept.entries} == {None}
    bookings = [paid(p, a, w[p]) for p, a in deals.items()]
    chips: dict[int, tuple[int, int | None]] = {room.alice: (0, 1), room.bob: (0, 2)}
    step = TournamentChanges(bookings=bookings, chips=chips, deals=deals, status="finished", prizes=[])
    await s.tournaments.apply("t1", step)
    (done,) = await s.tournaments.finished()
    assert {e.player_id: e.deal for e in done.entries} == deals
    assert await balance(room, pool) == 0

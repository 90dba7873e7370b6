"""The store's tournaments (``store.tournaments``) on SQLite and PostgreSQL: a registration and its money in
one transaction, refunds to the account the buy-in came from, satellite tickets in their own accounts,
one transaction per tournament step, tournament hand histories beside cash hands, and ``ledger verify``
catching a prize pool left with money after its tournament is over."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import text

from pokerroom.store import (
    AccountKind,
    Booking,
    CashTickets,
    HandHistory,
    InsufficientFunds,
    NewTicket,
    PlayerView,
    Refund,
    TournamentChanges,
    TournamentHand,
    TournamentRefused,
    UnknownHand,
)

from .conftest import Room
from .storehelpers import FakeClock

pytestmark = pytest.mark.asyncio

USD = "USD"


async def accounts(room: Room, tid: str) -> tuple[int, int, int]:
    led = room.store.ledger
    return (
        await led.account(AccountKind.PRIZE_POOL, USD, ref=tid),
        await led.account(AccountKind.HOUSE, USD),
        await led.account(AccountKind.PROMOTIONS, USD),
    )


async def enter(room: Room, tid: str, player: int, source: int, *, ticket_id: int | None = None) -> None:
    pool, house, _ = await accounts(room, tid)
    booking = Booking("tourney_buyin", f"reg:{tid}:{player}", [(source, -1100), (pool, 1000), (house, 100)])
    await room.store.tournaments.register(
        tid,
        currency=USD,
        buy_in=1000,
        fee=100,
        player_id=player,
        name=f"p{player}",
        source_id=source,
        booking=booking,
        ticket_id=ticket_id,
        series="daily-series",
    )


async def wallet(room: Room, player: int) -> int:
    return await room.store.ledger.account(AccountKind.WALLET, USD, owner_id=player)


async def balance(room: Room, account: int) -> int:
    return (await room.store.ledger.get_account(account)).balance


async def test_a_registration_is_kept_with_its_money_and_refunded_to_its_source(room: Room) -> None:
    s = room.store
    await enter(room, "t1", room.alice, await wallet(room, room.alice))
    pool, house, _ = await accounts(room, "t1")
    assert await s.ledger.balance(room.alice, USD) == 100_000 - 1100 and await balance(room, pool) == 1000
    (kept,) = await s.tournaments.live()
    assert (kept.id, kept.series, kept.status, kept.buy_in, kept.fee) == (
        "t1",
        "daily-series",
        "registering",
        1000,
        100,
    )
    assert [(e.player_id, e.name, e.stack, e.place) for e in kept.entries] == [
        (room.alice, f"p{room.alice}", None, None)
    ]
    with pytest.raises(TournamentRefused):  # twice: refused, and nothing booked
        await enter(room, "t1", room.alice, await wallet(room, room.alice))
    assert await s.ledger.balance(room.alice, USD) == 100_000 - 1100
    refund = Refund(room.alice, pool, house, "undo:t1:alice")
    await s.tournaments.apply("t1", TournamentChanges(refunds=[refund], status="cancelled"))
    await s.tournaments.apply("t1", TournamentChanges(refunds=[refund]))  # given back once only
    assert await s.ledger.balance(room.alice, USD) == 100_000 and await balance(room, pool) == 0
    assert await s.tournaments.live() == [] and await s.tournaments.statuses(["t1", "t2"]) == {
        "t1": "cancelled"
    }
    with pytest.raises(TournamentRefused):  # a tournament that is over takes nobody
        await enter(room, "t1", room.bob, await wallet(room, room.bob))
    assert (await s.verify()).ok


async def test_a_ticket_pays_a_registration_and_comes_back_with_the_refund(room: Room) -> None:
    """R228-R230: the seat's value moves from the satellite's pool to the winner's ticket account, the
    promotions account adding what the pool lacks (a guaranteed seat); used, then unused again on a
    refund; the satellite's pool is empty once its tickets are out."""
    s = room.store
    sat_pool, house, promotions = await accounts(room, "sat")
    await enter(room, "sat", room.bob, await wallet(room, room.bob))  # 1,000 in the satellite's pool
    account = await s.ledger.account(AccountKind.TICKET, USD, ref=str(room.alice))
    ticket = NewTicket(room.alice, "sat", "big", USD, 1100, account, sat_pool, promotions, "ticket:sat:alice")
    await s.tournaments.apply("sat", TournamentChanges(tickets=[ticket], status="finished"))
    await s.tournaments.apply("sat", TournamentChanges(tickets=[ticket]))  # a retry books nothing new
    assert await balance(room, sat_pool) == 0 and await balance(room, account) == 1100
    assert await s.ledger.system_balance(AccountKind.PROMOTIONS, USD) == -100
    (t,) = await s.tournaments.tickets(room.alice, target="big")
    assert (t.satellite, t.value, t.used_for) == ("sat", 1100, None)
    assert await s.tournaments.tickets(room.alice, target="other") == []
    await enter(room, "big", room.alice, account, ticket_id=t.id)
    assert await s.tournaments.tickets(room.alice) == [] and await balance(room, account) == 0
    with pytest.raises(TournamentRefused):  # a used ticket pays once
        await enter(room, "big2", room.alice, account, ticket_id=t.id)
    big_pool, _, _ = await accounts(room, "big")
    await s.tournaments.apply(
        "big", TournamentChanges(refunds=[Refund(room.alice, big_pool, house, "r:big")])
    )
    assert [x.id for x in await s.tournaments.tickets(room.alice)] == [t.id] and await balance(
        room, account
    ) == 1100
    assert await s.ledger.balance(room.alice, USD) == 100_000  # his wallet never paid
    assert (await s.verify()).ok


async def test_a_step_is_one_transaction(room: Room) -> None:
    """Chips, places, prizes and status commit together: a prize the pool cannot pay stores nothing."""
    s = room.store
    await enter(room, "t1", room.alice, await wallet(room, room.alice))
    await enter(room, "t1", room.bob, await wallet(room, room.bob))
    pool, _, _ = await accounts(room, "t1")
    chips = {room.alice: (3000, None), room.bob: (0, 2)}
    too_much = Booking("tourney_prize", "prize:t1:bob", [(pool, -2500), (await wallet(room, room.bob), 2500)])
    with pytest.raises(InsufficientFunds):
        await s.tournaments.apply("t1", TournamentChanges(bookings=[too_much], chips=chips, status="running"))
    (kept,) = await s.tournaments.live()
    assert kept.status == "registering" and {e.stack for e in kept.entries} == {None}
    prize = Booking(
        "tourney_prize", "prize:t1:alice", [(pool, -2000), (await wallet(room, room.alice), 2000)]
    )
    await s.tournaments.apply(
        "t1", TournamentChanges(bookings=[prize], chips=chips, status="running", prizes=[2000])
    )
    (kept,) = await s.tournaments.live()
    assert kept.status == "running" and kept.prizes == (2000,)
    assert {e.player_id: (e.stack, e.place) for e in kept.entries} == chips
    assert await balance(room, pool) == 0


async def test_tournament_hands_are_read_back_with_the_cash_hands(room: Room, clock: FakeClock) -> None:
    s = room.store
    await enter(room, "t1", room.alice, await wallet(room, room.alice))

    def history(hid: str) -> HandHistory:
        return HandHistory(
            full_phh=f'hand = "{hid}"\nhole = ["AsKd", "7c2h"]\n',
            views={
                room.alice: PlayerView(f'hand = "{hid}"\nhole = ["AsKd", "????"]\n', f"PS {hid} alice"),
                room.bob: PlayerView(f'hand = "{hid}"\nhole = ["????", "7c2h"]\n', f"PS {hid} bob"),
            },
        )

    for n in (1, 2):
        hand = TournamentHand(f"t1-{n}", "t1-t1", "NT/NL", clock(), history(f"t1-{n}"))
        await s.tournaments.apply("t1", TournamentChanges(hands=[hand]))
        clock.advance(timedelta(seconds=10))
    again = TournamentHand("t1-1", "t1-t1", "NT/NL", clock(), history("t1-1"))
    await s.tournaments.apply("t1", TournamentChanges(hands=[again]))  # stored once
    assert [h.hand_id for h in await s.histories.player_hands(room.alice)] == ["t1-2", "t1-1"]
    mine = await s.histories.player_hand(room.bob, "t1-1")
    assert (mine.table_id, mine.game, mine.pokerstars) == ("t1-t1", "NT/NL", "PS t1-1 bob")
    assert "AsKd" not in mine.phh  # alice's cards never reach bob
    assert "7c2h" in await s.histories.audit_phh("t1-1")
    assert (await s.histories.export_pokerstars(room.alice)).split("\n\n\n") == [
        "PS t1-1 alice",
        "PS t1-2 alice\n",
    ]
    with pytest.raises(UnknownHand):
        await s.histories.player_hand(room.admin, "t1-1")


async def test_verify_finds_money_left_in_the_pool_of_a_finished_tournament(room: Room) -> None:
    s = room.store
    await enter(room, "t1", room.alice, await wallet(room, room.alice))
    assert (await s.verify()).ok  # registering: its pool holds the buy-in
    await s.tournaments.apply("t1", TournamentChanges(status="finished"))
    report = await s.verify()
    assert not report.ok and any("still holds 1000" in p for p in report.problems)
    async with s.db.write() as conn:  # a ticket account that does not match its tickets
        await conn.execute(text("UPDATE tournaments SET status = 'running'"))
    account = await s.ledger.account(AccountKind.TICKET, USD, ref=str(room.bob))
    await s.ledger.post("test", [(await wallet(room, room.bob), -5), (account, 5)], idempotency_key="odd")
    report = await s.verify()
    assert not report.ok and any("unused tickets are worth 0" in p for p in report.problems)


async def test_tournaments_that_ended_are_read_back_newest_first(room: Room, clock: FakeClock) -> None:
    s = room.store
    for tid in ("t1", "t2", "t3"):
        await enter(room, tid, room.alice, await wallet(room, room.alice))
        clock.advance(timedelta(seconds=1))
    await s.tournaments.apply(
        "t2", TournamentChanges(chips={room.alice: (0, 1)}, prizes=[1000], status="finished")
    )
    clock.advance(timedelta(seconds=1))
    await s.tournaments.apply("t1", TournamentChanges(status="cancelled"))
    ended = await s.tournaments.finished()
    assert [(t.id, t.status) for t in ended] == [("t1", "cancelled"), ("t2", "finished")]  # t3 registers
    assert ended[1].prizes == (1000,) and [(e.player_id, e.place) for e in ended[1].entries] == [
        (room.alice, 1)
    ]
    assert [t.id for t in await s.tournaments.finished(limit=1)] == ["t1"]
    assert [t.id for t in await s.tournaments.live()] == ["t3"]


async def test_every_tournament_transaction_keeps_its_memo(room: Room) -> None:
    """Issue 35, defect 3: buy-ins, prizes, overlays, tickets and refunds carry their memo (the place of a
    prize is read from the memo, never parsed out of an idempotency key)."""
    s = room.store
    pool, house, promotions = await accounts(room, "t1")
    alice = await wallet(room, room.alice)
    booking = Booking(
        "tourney_buyin",
        "reg:t1:alice",
        [(alice, -1100), (pool, 1000), (house, 100)],
        {"tournament": "t1", "player": str(room.alice), "kind": "buy_in"},
    )
    await s.tournaments.register(
        "t1", currency=USD, buy_in=1000, fee=100, player_id=room.alice, name="alice",
        source_id=alice, booking=booking, ticket_id=None, series=None,
    )  # fmt: skip
    await enter(room, "t1", room.bob, await wallet(room, room.bob))
    overlay = Booking("tourney_overlay", "ov:t1", [(promotions, -500), (pool, 500)], {"tournament": "t1"})
    prize = Booking(
        "tourney_prize",
        "prize:t1:alice",
        [(pool, -2000), (alice, 2000)],
        {"tournament": "t1", "player": str(room.alice), "place": 1},
    )
    account = await s.ledger.account(AccountKind.TICKET, USD, ref=str(room.bob))
    ticket = NewTicket(room.bob, "t1", "big", USD, 500, account, pool, promotions, "ticket:t1:bob")
    await s.tournaments.apply("t1", TournamentChanges(bookings=[overlay, prize], tickets=[ticket]))
    async with s.db.read() as conn:
        rows = (
            await conn.execute(
                text("SELECT idem_key, memo FROM ledger_transactions WHERE kind LIKE 'tourney%'")
            )
        ).all()
    memos = {key: json.loads(memo) if memo else None for key, memo in rows}
    assert memos["reg:t1:alice"] == {"tournament": "t1", "player": str(room.alice), "kind": "buy_in"}
    assert memos["ov:t1"] == {"tournament": "t1"}
    assert memos["prize:t1:alice"] == {"tournament": "t1", "player": str(room.alice), "place": 1}
    assert memos["ticket:t1:bob"] == {"satellite": "t1", "target": "big", "player": str(room.bob)}


async def test_the_unused_tickets_of_a_closed_target_are_cashed_with_its_step(room: Room) -> None:
    """Issue 35, defect 2: a target cancelled with a registration paid by a ticket: the refund gives the
    ticket back and the same step cashes it (and any other unused ticket for it) to the holder's wallet,
    once; a ticket for another target stays."""
    s = room.store
    sat_pool, house, promotions = await accounts(room, "sat")
    await enter(room, "sat", room.bob, await wallet(room, room.bob))
    account = await s.ledger.account(AccountKind.TICKET, USD, ref=str(room.alice))
    won = [
        NewTicket(room.alice, "sat", target, USD, 1100, account, sat_pool, promotions, f"ticket:{target}")
        for target in ("big", "big", "other")
    ]
    won[1] = NewTicket(room.alice, "sat", "big", USD, 1100, account, sat_pool, promotions, "ticket:big:2")
    await s.tournaments.apply("sat", TournamentChanges(tickets=won, status="finished"))
    first = (await s.tournaments.tickets(room.alice, target="big"))[0]
    await enter(room, "big", room.alice, account, ticket_id=first.id)
    big_pool, _, _ = await accounts(room, "big")
    before = await s.ledger.balance(room.alice, USD)
    cash = CashTickets("big", {room.alice: await wallet(room, room.alice)}, "tcash:big", "cancelled")
    step = TournamentChanges(
        refunds=[Refund(room.alice, big_pool, house, "r:big")], status="cancelled", cash_tickets=cash
    )
    await s.tournaments.apply("big", step)
    await s.tournaments.apply("big", step)  # a retry cashes nothing twice
    assert await s.ledger.balance(room.alice, USD) == before + 2 * 1100
    assert [t.target for t in await s.tournaments.tickets(room.alice)] == ["other"]
    assert await balance(room, account) == 1100 and await balance(room, big_pool) == 0
    assert (await s.verify()).ok

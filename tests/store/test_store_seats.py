"""At most one open seat per player per cash table, kept by the database (issue 16): a second process
that tries to seat the player again is refused by a unique key, whatever it holds in memory; on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from pokerroom.store import AlreadySeated

from .conftest import Room

pytestmark = pytest.mark.asyncio


async def test_a_second_open_seat_at_one_table_is_refused_and_books_nothing(room: Room) -> None:
    ledger = room.store.ledger
    await ledger.buy_in(room.alice, "t1", "USD", 10_000, idempotency_key="a1", exclusive=True)
    before = await ledger.balance(room.alice, "USD")
    with pytest.raises(AlreadySeated) as refused:
        await ledger.buy_in(room.alice, "t1", "USD", 10_000, idempotency_key="a2", exclusive=True)
    assert refused.value.code == "already_seated"
    assert await ledger.balance(room.alice, "USD") == before
    assert await ledger.transaction("a2") is None
    # another table, another player: free
    await ledger.buy_in(room.alice, "t2", "USD", 10_000, idempotency_key="a3", exclusive=True)
    await ledger.buy_in(room.bob, "t1", "USD", 10_000, idempotency_key="b1", exclusive=True)
    assert (await room.store.verify()).ok


async def test_a_cashed_out_seat_frees_the_key(room: Room) -> None:
    ledger = room.store.ledger
    first = await ledger.buy_in(room.alice, "t1", "USD", 10_000, idempotency_key="a1", exclusive=True)
    await ledger.cash_out(first.session_id, idempotency_key="out1")
    again = await ledger.buy_in(room.alice, "t1", "USD", 10_000, idempotency_key="a2", exclusive=True)
    assert again.session_id != first.session_id
    assert [s.id for s in await ledger.sessions(player_id=room.alice)] == [again.session_id]


async def test_two_processes_racing_seat_the_player_once(room: Room) -> None:
    ledger = room.store.ledger
    results = await asyncio.gather(
        *(
            ledger.buy_in(room.alice, "t1", "USD", 10_000, idempotency_key=f"race{i}", exclusive=True)
            for i in range(4)
        ),
        return_exceptions=True,
    )
    assert sum(1 for r in results if not isinstance(r, BaseException)) == 1
    assert all(isinstance(r, AlreadySeated) for r in results if isinstance(r, BaseException))
    assert len(await ledger.sessions(player_id=room.alice, table_id="t1")) == 1


async def test_rush_entries_are_not_exclusive(room: Room) -> None:
    ledger = room.store.ledger
    for i in range(3):
        await ledger.buy_in(room.alice, "pool", "USD", 10_000, idempotency_key=f"e{i}")
    assert len(await ledger.sessions(player_id=room.alice, table_id="pool")) == 3

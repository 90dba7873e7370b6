"""The chip-dumping detector's read of the store (``store.audit_hands``), on SQLite and PostgreSQL (the
store tests' fixtures): the audit PHH of the ended hands of a period, oldest first; an open hand is not
read."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.store.conftest import Room, clock, db_target, pg_schema, room, sqlite_template, store
from tests.store.storehelpers import FakeClock
from tests.store.test_store_journal import DECK, SALT, seats, start, views

__all__ = ["clock", "db_target", "pg_schema", "room", "sqlite_template", "store"]  # (the fixtures)

pytestmark = pytest.mark.asyncio


async def test_the_audit_histories_of_the_ended_hands_of_a_period_oldest_first(
    room: Room, clock: FakeClock
) -> None:
    s = room.store
    seat_list = await seats(room)
    began = clock()
    for hid in ("x1", "x2", "x3"):
        await start(room, hid, s=seat_list)
        await s.journal.end_hand(
            hid, deck_text=DECK, salt=SALT, deltas={}, rake=0, points={}, history=views(room, hid)
        )
        clock.advance(timedelta(seconds=10))
    await start(room, "open", s=seat_list)  # not ended: no history yet, not read
    got = await s.audit_hands.since(began)
    assert [h for h, _ in got] == ["x1", "x2", "x3"]
    assert got[0][1] == views(room, "x1").full_phh  # the audit copy, every hole card in it
    later = await s.audit_hands.since(began + timedelta(seconds=5))
    assert [h for h, _ in later] == ["x2", "x3"]
    until = await s.audit_hands.since(began, until=began + timedelta(seconds=15))
    assert [h for h, _ in until] == ["x1", "x2"]


async def test_the_audit_histories_read_a_page_at_a_time_are_the_same_hands(
    room: Room, clock: FakeClock
) -> None:
    # the integrity report reads a day's histories a page at a time (docs/integrity.md, "A day of a
    # 1,000-table room"): the same hands in the same order, hands started at one moment each once
    s = room.store
    seat_list = await seats(room)
    began = clock()
    for hid in ("y3", "y1", "y2", "y4"):  # y1, y2, y3 started at the same moment
        await start(room, hid, s=seat_list)
        await s.journal.end_hand(
            hid, deck_text=DECK, salt=SALT, deltas={}, rake=0, points={}, history=views(room, hid)
        )
        if hid == "y2":
            clock.advance(timedelta(seconds=10))
    whole = await s.audit_hands.since(began)
    assert [h for h, _ in whole] == ["y1", "y2", "y3", "y4"]
    for size in (1, 2, 3, 4, 5):
        pages = [page async for page in s.audit_hands.pages(began, size=size)]
        assert [row for page in pages for row in page] == whole
        assert all(0 < len(page) <= size for page in pages)
    until = began + timedelta(seconds=5)
    cut = [page async for page in s.audit_hands.pages(began, until=until, size=2)]
    assert [h for page in cut for h, _ in page] == ["y1", "y2", "y3"]

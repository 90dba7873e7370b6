"""Issue 29, item 6: a hand's start record keeps the stakes it was dealt at and a Rush hand's pool (revision
0019), on SQLite and PostgreSQL; anything else than a short string is refused and nothing is written."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from pokerroom.store import InvalidRecord, deck_commitment
from pokerroom.store.models import HandRow

from .conftest import Room
from .test_store_journal import DECK, SALT, seats

pytestmark = pytest.mark.asyncio


async def _row(room: Room, hand_id: str) -> tuple[str | None, str | None] | None:
    async with room.store.db.read() as conn:
        found = (
            await conn.execute(select(HandRow.stakes, HandRow.pool_id).where(HandRow.id == hand_id))
        ).one_or_none()
    return None if found is None else (found.stakes, found.pool_id)


async def test_the_start_record_keeps_stakes_and_pool(room: Room) -> None:
    s = await seats(room)
    journal = room.store.journal
    common: dict[str, Any] = {"table_id": "r-t1", "game": "holdem/NL", "currency": "USD", "seats": s}
    commitment = deck_commitment(DECK, SALT)
    for bad in (20, True, "", "x" * 65, b"10/20"):
        with pytest.raises(InvalidRecord):
            await journal.start_hand("h1", **common, deck_commitment=commitment, stakes=bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidRecord):
            await journal.start_hand("h1", **common, deck_commitment=commitment, pool=bad)  # type: ignore[arg-type]
    assert await _row(room, "h1") is None  # nothing written
    await journal.start_hand("h1", **common, deck_commitment=commitment, stakes="0.10/0.20", pool="r")
    assert await _row(room, "h1") == ("0.10/0.20", "r")


async def test_a_hand_started_without_them_has_none(room: Room) -> None:
    s = await seats(room, "t2")
    await room.store.journal.start_hand(
        "h2",
        table_id="t2",
        game="holdem/NL",
        currency="USD",
        seats=s,
        deck_commitment=deck_commitment(DECK, SALT),
    )
    assert await _row(room, "h2") == (None, None)

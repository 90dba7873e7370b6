"""A player's copies of a hand written when he first asks for them (docs/server-speed.md).

At a hand's end the store keeps its audit PHH and, per player dealt in, a row with his seat and no texts
yet. The first read of such a row writes his PHH and PokerStars-format copies from the audit PHH
(:func:`pokerroom.history.views.views_from_audit`, held equal to the copies written at the table by
tests/history/test_views.py) with the hand's global numbers, outside any transaction (the event loop is
let go between hands, so a large export does not stall the tables), then keeps them in the row.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update

from pokerroom.history import HistoryError
from pokerroom.history.views import views_from_audit
from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidRecord
from pokerroom.store.models import (
    HandHistoryRow,
    HandNumberRow,
    PlayerHandRow,
    TournamentHandRow,
    TournamentNumberRow,
    TournamentPlayerHandRow,
)

__all__ = ["write_later_views"]

_Source = tuple[str, int | None, int | None]  # the audit PHH, the hand's and the tournament's numbers


async def write_later_views(db: Database, player_id: int, rows: Sequence[Any]) -> dict[str, tuple[str, str]]:
    """Write (and keep) the copies of ``rows`` (player-hand rows without texts: ``hand_id``, ``seat``,
    ``tournament``); returns hand id -> (PHH, PokerStars text)."""
    if not rows:
        return {}
    sources = await _sources(db, rows)
    texts: dict[str, tuple[str, str]] = {}
    for i, row in enumerate(rows):
        source = sources.get(row.hand_id)
        if source is None or row.seat is None:
            raise InvalidRecord(f"hand {row.hand_id!r} has no history to write the player's copy from")
        full, hand_number, tournament_number = source
        try:
            views = views_from_audit(
                full, [row.seat], hand_number=hand_number, tournament_number=tournament_number
            )
        except HistoryError:  # (its text is not passed on: it could quote the audit copy's cards)
            raise InvalidRecord(f"hand {row.hand_id!r}: its audit history does not replay") from None
        texts[row.hand_id] = views[row.seat]
        if i % 16 == 15:
            await asyncio.sleep(0)  # (an export of thousands of hands lets the tables run)
    async with db.write() as conn:
        for row in rows:
            table = TournamentPlayerHandRow if row.tournament else PlayerHandRow
            phh, stars = texts[row.hand_id]
            await conn.execute(
                update(table)
                .where(table.player_id == player_id, table.hand_id == row.hand_id, table.phh.is_(None))
                .values(phh=phh, pokerstars=stars)
            )
    return texts


async def _sources(db: Database, rows: Sequence[Any]) -> dict[str, _Source]:
    cash = [r.hand_id for r in rows if not r.tournament]
    tournament = [r.hand_id for r in rows if r.tournament]
    out: dict[str, _Source] = {}
    async with db.read() as conn:
        for chunk in _chunks(cash):
            q = (
                select(HandHistoryRow.hand_id, HandHistoryRow.full_phh, HandNumberRow.number)
                .outerjoin(HandNumberRow, HandNumberRow.hand_id == HandHistoryRow.hand_id)
                .where(HandHistoryRow.hand_id.in_(chunk))
            )
            for hand_id, full, number in (await conn.execute(q)).all():
                out[hand_id] = (full, number, None)
        for chunk in _chunks(tournament):
            tq = (
                select(
                    TournamentHandRow.id,
                    TournamentHandRow.full_phh,
                    HandNumberRow.number,
                    TournamentNumberRow.number,
                )
                .outerjoin(HandNumberRow, HandNumberRow.hand_id == TournamentHandRow.id)
                .outerjoin(
                    TournamentNumberRow, TournamentNumberRow.tournament_id == TournamentHandRow.tournament_id
                )
                .where(TournamentHandRow.id.in_(chunk))
            )
            for hand_id, full, number, t_number in (await conn.execute(tq)).all():
                out[hand_id] = (full, number, t_number)
    return out


def _chunks(ids: list[str], size: int = 500) -> list[list[str]]:
    return [ids[i : i + size] for i in range(0, len(ids), size)]

"""Global hand and tournament numbers (issue 21): the numbers a PokerStars-format history carries.

The table's hand id (``holdem-nl-7``) stays the hand's key in the journal, in PHH and on the wire; trackers
want digits, unique across the room. The database assigns them (an auto-incrementing key; on PostgreSQL a
sequence), so two server processes sharing one database never hand out the same number. Asking again for
the same hand or tournament gives the same number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidRecord, UnknownHand
from pokerroom.store.models import HandNumberRow, TournamentNumberRow
from pokerroom.store.prepared import prebuilt

__all__ = ["HandNumbers", "Numbers", "hand_number_in", "tournament_number_in"]


@dataclass(frozen=True)
class HandNumbers:
    """What a history is numbered with when it is stored: the hand's number, and the tournament's for a
    tournament hand."""

    hand: int
    tournament: int | None = None


def _insert_ignore(row: type[HandNumberRow] | type[TournamentNumberRow]) -> dict[str, Any]:
    """``INSERT ... ON CONFLICT DO NOTHING`` of ``row`` for each dialect, built once."""
    return {
        "postgresql": postgresql.insert(row).on_conflict_do_nothing(),
        "sqlite": prebuilt(sqlite.insert(row).on_conflict_do_nothing()),
    }


_NEW_HAND = _insert_ignore(HandNumberRow)
_NEW_TOURNAMENT = _insert_ignore(TournamentNumberRow)
_HAND_NUMBER = prebuilt(select(HandNumberRow.number).where(HandNumberRow.hand_id == bindparam("hand_id")))
_TOURNAMENT_NUMBER = select(TournamentNumberRow.number).where(
    TournamentNumberRow.tournament_id == bindparam("tournament_id")
)


async def hand_number_in(conn: AsyncConnection, hand_id: str) -> int:
    """The hand's number, assigned now if it has none (on an open write transaction)."""
    if not isinstance(hand_id, str) or not 1 <= len(hand_id) <= 128:
        raise InvalidRecord("a hand id is a string of 1-128 characters")
    await conn.execute(_NEW_HAND[conn.dialect.name], {"hand_id": hand_id})
    return int((await conn.execute(_HAND_NUMBER, {"hand_id": hand_id})).scalar_one())


async def tournament_number_in(conn: AsyncConnection, tournament_id: str) -> int:
    """The tournament's number, assigned now if it has none (on an open write transaction)."""
    if not isinstance(tournament_id, str) or not 1 <= len(tournament_id) <= 64:
        raise InvalidRecord("a tournament id is a string of 1-64 characters")
    await conn.execute(_NEW_TOURNAMENT[conn.dialect.name], {"tournament_id": tournament_id})
    return int((await conn.execute(_TOURNAMENT_NUMBER, {"tournament_id": tournament_id})).scalar_one())


class Numbers:
    """``store.numbers``: the global numbers of hands and tournaments."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def hand(self, hand_id: str) -> int:
        """The hand's global number (assigned at the first call; the same number at every later one)."""
        async with self.db.write() as conn:
            return await hand_number_in(conn, hand_id)

    async def tournament(self, tournament_id: str) -> int:
        """The tournament's global number (assigned at the first call)."""
        async with self.db.write() as conn:
            return await tournament_number_in(conn, tournament_id)

    async def hand_id_of(self, number: int) -> str:
        """The table's hand id of a global number (a player quotes ``Hand #123``: support finds the hand)."""
        async with self.db.read() as conn:
            row = (
                await conn.execute(select(HandNumberRow.hand_id).where(HandNumberRow.number == number))
            ).scalar_one_or_none()
        if row is None:
            raise UnknownHand(str(number))
        return str(row)

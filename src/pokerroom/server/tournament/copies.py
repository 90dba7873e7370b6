"""Sit-and-go copies' names: ``<series>-<n>``, numbered from 1 in the order they open.

A series' next number follows the highest the store knows (copies that took money have a row), so a
restart names the copy still registering as it was named before, and never reuses a number that a
finished, cancelled or recovered copy holds. A cluster's hosts open copies side by side and keep a
random suffix (``<series>-<6 hex digits>``): they share no counter.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select

from pokerroom.store import Store
from pokerroom.store.models import TournamentRow

__all__ = ["copy_id", "copy_number", "last_copies"]


def copy_id(series: str, number: int) -> str:
    """The id of the ``number``-th copy of ``series``."""
    return f"{series}-{number}"


def copy_number(series: str, tid: str) -> int | None:
    """The number of the copy ``tid`` of ``series`` (None: not a numbered copy of it)."""
    head, _, tail = tid.rpartition("-")
    if head != series or not tail.isdigit() or len(tail) > 9:
        return None
    return int(tail)


async def last_copies(store: Store, series: Iterable[str]) -> dict[str, int]:
    """The highest copy number the store holds for each of these series (absent: none)."""
    wanted = sorted(set(series))
    if not wanted:
        return {}
    async with store.db.read() as conn:
        rows = (
            await conn.execute(
                select(TournamentRow.series, TournamentRow.id).where(TournamentRow.series.in_(wanted))
            )
        ).all()
    out: dict[str, int] = {}
    for name, tid in rows:
        n = None if name is None else copy_number(name, tid)
        if name is not None and n is not None:
            out[name] = max(out.get(name, 0), n)
    return out

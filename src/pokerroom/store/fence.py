"""The fence a write for a leased resource carries (store/leases.py explains leases and fences).

:data:`FENCE` is set in the task of the actor that runs a leased table, pool or tournament; every write
transaction the store opens in that task checks it first (:meth:`Database.write`), and the journal's
group commit checks the fence each queued command was appended under. In a one-process room nothing sets
it and nothing is checked.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.errors import FenceLost
from pokerroom.store.models import LeaseRow

__all__ = ["FENCE", "Fence", "check_fence", "check_fences"]


@dataclass(frozen=True, slots=True)
class Fence:
    """What a write for a leased resource must find in the lease row to go ahead."""

    resource: str
    holder: str
    fence: int


# The fence of the resource whose actor runs in the current task (None: a one-process room, no leases).
FENCE: ContextVar[Fence | None] = ContextVar("pokerroom_fence", default=None)


async def check_fence(conn: AsyncConnection, fence: Fence) -> None:
    """In a write transaction: go on only while ``fence`` still holds its lease (on PostgreSQL the row
    stays locked against a takeover, ``FOR SHARE``, until the transaction ends; SQLite's write lock
    covers the whole database)."""
    row = (
        await conn.execute(
            select(LeaseRow.fence)
            .where(
                LeaseRow.resource == fence.resource,
                LeaseRow.holder == fence.holder,
                LeaseRow.fence == fence.fence,
            )
            .with_for_update(read=True)
        )
    ).first()
    if row is None:
        raise FenceLost(fence.resource, fence.fence)


async def check_fences(conn: AsyncConnection, fences: set[Fence]) -> set[Fence]:
    """The fences of ``fences`` that no longer hold their lease (one statement for a whole batch)."""
    if not fences:
        return set()
    resources = sorted({f.resource for f in fences})
    rows = (
        await conn.execute(
            select(LeaseRow.resource, LeaseRow.holder, LeaseRow.fence)
            .where(LeaseRow.resource.in_(resources))
            .with_for_update(read=True)
        )
    ).all()
    live = {Fence(r.resource, r.holder or "", r.fence) for r in rows}
    return {f for f in fences if f not in live}

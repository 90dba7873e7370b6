"""Leases: which process of a cluster runs each table, Rush pool and tournament (docs/cluster.md).

A lease is a row per resource (``table:holdem-nl``, ``pool:rush-6max``, ``tournament:daily``): its
holder (a host's id), an expiry that the holder renews, and a **fence**, a number that grows by one each
time the lease changes hands. Every journal and ledger write made for a resource carries the fence it was
made under (:data:`FENCE`, set in the resource's actor task): the write's transaction first reads the
lease row ``FOR SHARE`` and refuses with :class:`FenceLost` unless the row still names this holder and
fence. A host that lost its lease (it was frozen, cut off from the bus or the database, and another host
took the table over) can therefore never write for that table again, even if it does not know yet; and
the row lock keeps a takeover from happening while a write is in flight: the new holder's recovery sees
that write once it committed.

Taking a lease (:meth:`Leases.acquire`) succeeds when nobody holds it or its expiry has passed, and
always increments the fence; a row locked by a write in flight (``FOR UPDATE SKIP LOCKED``) is not free
now: the taker passes it by (the next look tries again) instead of waiting for a holder that may be stopped
in the middle of that write. A holder renews (:meth:`Leases.renew`) only under its own fence, so a lease
taken over is never renewed by the old holder; a lease that expired but was not taken by anyone is still
the old holder's to renew (a bus outage that cut every host off costs no hand). An operator moves a table
by :meth:`Leases.hand_over`: the holder lets it go between hands, naming the host that should take it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert, select, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.db import Database
from pokerroom.store.fence import FENCE, Fence, check_fence, check_fences
from pokerroom.store.models import LeaseRow

__all__ = ["FENCE", "Fence", "Lease", "Leases", "check_fence", "check_fences"]

RENEW_BATCH = 2_000  # leases renewed by one statement (a host holds far fewer: one statement in practice)


@dataclass(frozen=True, slots=True)
class Lease:
    resource: str
    holder: str | None
    fence: int
    expires_at: datetime
    hand_to: str | None


class Leases:
    """The lease rows of one database (PostgreSQL in a cluster; SQLite works too, for tests)."""

    def __init__(self, db: Database, clock: Callable[[], datetime] | None = None) -> None:
        self.db = db
        self.clock = clock or (lambda: datetime.now(UTC))

    async def acquire(
        self,
        resource: str,
        holder: str,
        ttl: timedelta,
        *,
        spare: Callable[[str, timedelta], bool] | None = None,
    ) -> int | None:
        """Take ``resource`` when nobody holds it, its holder's lease expired, or it was handed to
        ``holder``; returns the new fence, or None when it is not free for ``holder``. ``spare(other,
        expired_for)``: True leaves another host's expired lease to it (a host that is back on the bus
        after an outage that cut every host off renews its own; see server/cluster/placement.py)."""
        try:
            return await self._acquire(resource, holder, ttl, spare)
        except IntegrityError:  # another host inserted the row first: it holds the resource
            return None

    async def _acquire(
        self, resource: str, holder: str, ttl: timedelta, spare: Callable[[str, timedelta], bool] | None
    ) -> int | None:
        now = self.clock()
        async with self.db.write() as conn:
            row = (
                await conn.execute(
                    select(LeaseRow.holder, LeaseRow.fence, LeaseRow.expires_at, LeaseRow.hand_to)
                    .where(LeaseRow.resource == resource)
                    .with_for_update(skip_locked=True)
                )
            ).one_or_none()
            if row is None and await self._exists(conn, resource):
                # Locked by a write of its holder in flight (one stopped in the middle of it keeps the row
                # locked until it runs again): not free now, and a look for work must not wait on it.
                return None
            if row is None:
                await conn.execute(
                    insert(LeaseRow).values(
                        resource=resource, holder=holder, fence=1, expires_at=now + ttl, hand_to=None
                    )
                )
                return 1
            live = row.expires_at > now
            if live and row.holder is not None:
                return None  # held (by another host, or by this one, which knows its fence)
            if live and row.hand_to not in (None, holder):
                return None  # handed to another host, which has until the expiry to take it
            other = row.holder
            if not live and other not in (None, holder) and spare is not None:
                if spare(other, now - row.expires_at):
                    return None  # its holder is still there: it renews the lease itself
            fence = int(row.fence) + 1
            await conn.execute(
                update(LeaseRow)
                .where(LeaseRow.resource == resource)
                .values(holder=holder, fence=fence, expires_at=now + ttl, hand_to=None)
            )
            return fence

    @staticmethod
    async def _exists(conn: AsyncConnection, resource: str) -> bool:
        found = await conn.execute(select(LeaseRow.fence).where(LeaseRow.resource == resource))
        return found.first() is not None

    async def handovers(self, holder: str) -> dict[str, str]:
        """The resources ``holder`` holds that an operator asked it to hand over: resource -> host."""
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(LeaseRow.resource, LeaseRow.hand_to).where(
                        LeaseRow.holder == holder, LeaseRow.hand_to.is_not(None)
                    )
                )
            ).all()
        return {r.resource: r.hand_to for r in rows}

    async def handed_to(self, host: str) -> set[str]:
        """The resources let go for ``host`` to take (a move between hands), still reserved for it."""
        now = self.clock()
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(LeaseRow.resource).where(
                        LeaseRow.holder.is_(None), LeaseRow.hand_to == host, LeaseRow.expires_at > now
                    )
                )
            ).all()
        return {r.resource for r in rows}

    async def renew(self, fences: list[Fence], ttl: timedelta) -> set[Fence]:
        """Extend the leases still held under these fences; returns the fences that were lost."""
        if not fences:
            return set()
        now = self.clock()
        kept: set[tuple[str, str | None, int]] = set()
        async with self.db.write() as conn:
            # one statement for all of them (a host renews every lease it holds every 2 s)
            for i in range(0, len(fences), RENEW_BATCH):
                batch = fences[i : i + RENEW_BATCH]
                rows = await conn.execute(
                    update(LeaseRow)
                    .where(
                        LeaseRow.holder.in_({f.holder for f in batch}),
                        tuple_(LeaseRow.resource, LeaseRow.holder, LeaseRow.fence).in_(
                            [(f.resource, f.holder, f.fence) for f in batch]
                        ),
                    )
                    .values(expires_at=now + ttl)
                    .returning(LeaseRow.resource, LeaseRow.holder, LeaseRow.fence)
                )
                kept |= {(r.resource, r.holder, r.fence) for r in rows}
        return {f for f in fences if (f.resource, f.holder, f.fence) not in kept}

    async def release(
        self, fence: Fence, *, hand_to: str | None = None, grace: timedelta = timedelta(0)
    ) -> None:
        """Let the lease go (a table closed or moved). ``hand_to``: the host that should take it; others
        leave it alone for ``grace``."""
        now = self.clock()
        async with self.db.write() as conn:
            await conn.execute(
                update(LeaseRow)
                .where(
                    LeaseRow.resource == fence.resource,
                    LeaseRow.holder == fence.holder,
                    LeaseRow.fence == fence.fence,
                )
                .values(holder=None, expires_at=now + grace, hand_to=hand_to)
            )

    async def hand_over(self, resource: str, to: str) -> None:
        """Ask the holder of ``resource`` to hand it to host ``to`` (it does so between hands)."""
        async with self.db.write() as conn:
            await conn.execute(update(LeaseRow).where(LeaseRow.resource == resource).values(hand_to=to))

    async def all(self) -> list[Lease]:
        cols = (LeaseRow.resource, LeaseRow.holder, LeaseRow.fence, LeaseRow.expires_at, LeaseRow.hand_to)
        async with self.db.read() as conn:
            rows = (await conn.execute(select(*cols).order_by(LeaseRow.resource))).all()
        return [Lease(r.resource, r.holder, int(r.fence), r.expires_at, r.hand_to) for r in rows]

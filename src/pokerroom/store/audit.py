"""The console's audit log: who did what, when, and the values before and after. Append-only: the store
has no call that changes or deletes an entry, and a database trigger refuses UPDATE and DELETE on the
table (migration 0008)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select

from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidRecord
from pokerroom.store.models import AuditRow
from pokerroom.store.util import Clock, canonical_json, utc_now

__all__ = ["AuditEntry", "AuditLog"]


@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: datetime
    actor_id: int | None
    actor_name: str
    action: str
    target: str | None
    before: Any
    after: Any
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "at": self.at.isoformat(),
            "actor": {"id": None if self.actor_id is None else str(self.actor_id), "name": self.actor_name},
            "action": self.action,
            "target": self.target,
            "before": self.before,
            "after": self.after,
            "reason": self.reason,
        }


def _json(value: Any) -> str | None:
    return None if value is None else canonical_json(value)


def _entry(r: Any) -> AuditEntry:
    return AuditEntry(
        id=int(r.id),
        at=r.at,
        actor_id=None if r.actor_id is None else int(r.actor_id),
        actor_name=r.actor_name,
        action=r.action,
        target=r.target,
        before=None if r.before is None else json.loads(r.before),
        after=None if r.after is None else json.loads(r.after),
        reason=r.reason,
    )


class AuditLog:
    def __init__(self, db: Database, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.clock = clock

    async def record(
        self,
        actor_id: int | None,
        actor_name: str,
        action: str,
        target: str | None = None,
        *,
        before: Any = None,
        after: Any = None,
        reason: str | None = None,
        now: datetime | None = None,
    ) -> AuditEntry:
        """Append an entry (``before`` and ``after``: JSON-able values). ``actor_id`` None: the command
        line (``pokerroom admin create``)."""
        if not isinstance(action, str) or not 1 <= len(action) <= 48:
            raise InvalidRecord("an audit action is a string of 1-48 characters")
        if target is not None and len(target) > 128:
            raise InvalidRecord("an audit target has at most 128 characters")
        now = now or self.clock()
        row = {
            "at": now,
            "actor_id": actor_id,
            "actor_name": actor_name[:40],
            "action": action,
            "target": target,
            "before": _json(before),
            "after": _json(after),
            "reason": reason,
        }
        async with self.db.write() as conn:
            new_id = (await conn.execute(insert(AuditRow).values(**row).returning(AuditRow.id))).scalar_one()
        return _entry(type("R", (), {"id": new_id, **row}))

    async def entries(
        self,
        *,
        action: str | None = None,
        target: str | None = None,
        actor: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[AuditEntry]:
        """Entries, newest first, filtered by action (a prefix: ``player.`` matches every player action),
        target and actor name."""
        q = select(AuditRow).order_by(AuditRow.id.desc())
        if action:
            q = q.where(AuditRow.action.startswith(action, autoescape=True))
        if target:
            q = q.where(AuditRow.target == target)
        if actor:
            q = q.where(func.lower(AuditRow.actor_name) == actor.lower())
        q = q.limit(max(1, min(int(limit), 500))).offset(max(0, int(offset)))
        async with self.db.read() as conn:
            return [_entry(r) for r in (await conn.execute(q)).all()]

"""The console's audit log: who did what, when, and the values before and after. Append-only: the store
has no call that changes or deletes an entry, and a database trigger refuses UPDATE and DELETE on the
table (migration 0008).

A trigger is no proof: the database's owner can drop it. So the log is a hash chain too (migration 0010):
each row holds ``prev_hash``, the ``row_hash`` of the row before it (:data:`GENESIS` for the first), and
its own ``row_hash``, the SHA-256 of ``prev_hash`` and its content (:func:`row_hash`). :meth:`AuditLog.verify`
(``pokerroom audit verify``) walks the chain: a row changed, removed or put in another order shows. Rows
cut off the end leave a shorter chain that is still whole: the head (the last row's id and hash), kept
somewhere else, shows that (``--head``)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select

from pokerroom.store.db import Database
from pokerroom.store.errors import InvalidRecord
from pokerroom.store.models import AuditRow
from pokerroom.store.util import Clock, canonical_json, utc_now

__all__ = ["GENESIS", "AuditCheck", "AuditEntry", "AuditLog", "row_hash"]

_EVENTS = logging.getLogger("pokerroom.events")  # (server/logs.py: the room's events)

GENESIS = "0" * 64  # the prev_hash of the first row
AUDIT_LOCK = 7_301_964_212  # the advisory lock PostgreSQL writers of the chain take (one at a time)
_HASHED = ("at", "actor_id", "actor_name", "action", "target", "before", "after", "reason")


def row_hash(prev_hash: str, row: Mapping[str, Any]) -> str:
    """The hash of an audit row: SHA-256 (hex) of the canonical JSON of ``prev_hash`` and the row's stored
    values in a fixed order (``at`` as UTC ISO text with microseconds; ``before`` and ``after`` as the JSON
    text stored)."""
    at = row["at"]
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    values = [prev_hash, at.astimezone(UTC).isoformat(timespec="microseconds")]
    values += [row[k] for k in _HASHED[1:]]
    return hashlib.sha256(canonical_json(values).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class AuditCheck:
    """What :meth:`AuditLog.verify` found: the rows read, each problem (naming its row), and the head."""

    rows: int
    problems: list[str] = field(default_factory=list)
    head_id: int | None = None
    head_hash: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def render(self) -> str:
        head = "empty" if self.head_id is None else f"head {self.head_id}:{self.head_hash}"
        if self.ok:
            return f"audit log OK: {self.rows} rows chained ({head})"
        return "\n".join([f"audit log BROKEN: {self.rows} rows ({head})", *self.problems])


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
        row: dict[str, Any] = {
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
            if not self.db.is_sqlite:  # (SQLite's writers queue already: BEGIN IMMEDIATE)
                await conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({AUDIT_LOCK})")
            last = (
                await conn.execute(select(AuditRow.row_hash).order_by(AuditRow.id.desc()).limit(1))
            ).scalar_one_or_none()
            prev = last or GENESIS
            chained = {**row, "prev_hash": prev, "row_hash": row_hash(prev, row)}
            new_id = (
                await conn.execute(insert(AuditRow).values(**chained).returning(AuditRow.id))
            ).scalar_one()
        _EVENTS.info(  # the operator's log line of it (docs/operations.md, "Log events"): no values
            "console action %s on %s by %s",
            action,
            target,
            actor_name,
            extra={"event": "console_action", "event_fields": {"audit_id": new_id, "action": action,
                   "target": target, "actor": actor_name[:40]}},
        )  # fmt: skip
        return _entry(type("R", (), {"id": new_id, **row}))

    async def verify(self, *, head: tuple[int, str] | None = None, batch: int = 1000) -> AuditCheck:
        """Walk the chain from the first row: every row must follow the one before it (its ``prev_hash``
        is that row's ``row_hash``, :data:`GENESIS` for the first) and hash to its own ``row_hash``.
        ``head``: a head noted earlier (row id, hash), which must still be in the chain as it was (rows
        cut off the end leave a chain that is whole but no longer holds it)."""
        problems: list[str] = []
        seen_head: str | None = None
        prev, prev_id, rows, after = GENESIS, None, 0, None
        while True:
            q = select(AuditRow).order_by(AuditRow.id).limit(batch)
            if after is not None:
                q = q.where(AuditRow.id > after)
            async with self.db.read() as conn:
                chunk = (await conn.execute(q)).all()
            for r in chunk:
                rows += 1
                values = {k: getattr(r, k) for k in _HASHED}
                if r.row_hash is None or r.prev_hash is None:
                    problems.append(f"row {r.id}: no hash (not written by the store)")
                else:
                    if r.prev_hash != prev:
                        before = "the start of the log" if prev_id is None else f"row {prev_id}"
                        problems.append(
                            f"row {r.id}: does not follow {before} (a row between them was removed, "
                            "changed or moved)"
                        )
                    if row_hash(r.prev_hash, values) != r.row_hash:
                        problems.append(f"row {r.id}: its content does not match its hash (changed)")
                prev, prev_id = r.row_hash or "", r.id
                if head is not None and r.id == head[0]:
                    seen_head = prev
            if len(chunk) < batch:
                break
            after = chunk[-1].id
        if head is not None and seen_head != head[1]:
            why = "is missing (rows were cut off the end)" if seen_head is None else "has another hash"
            problems.append(f"row {head[0]}, the head noted before, {why}")
        return AuditCheck(rows, problems, prev_id, prev if prev_id is not None else None)

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

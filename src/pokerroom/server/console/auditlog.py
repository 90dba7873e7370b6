"""The audit log as a console page (read-only: no endpoint changes or deletes an entry), and as CSV."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from pokerroom.server.console.access import Staff, store
from pokerroom.server.console.csvout import csv_response
from pokerroom.store.util import canonical_json

__all__ = ["router"]

router = APIRouter(prefix="/api/console/audit", tags=["console"])


@router.get("")
async def entries(
    me: Staff,
    request: Request,
    action: Annotated[str | None, Query(max_length=48)] = None,
    target: Annotated[str | None, Query(max_length=128)] = None,
    actor: Annotated[str | None, Query(max_length=40)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """Entries, newest first: who, when, what, on what, the values before and after, the reason.
    ``action`` is a prefix (``player.`` for every account action)."""
    rows = await store(request).audit.entries(
        action=action, target=target, actor=actor, limit=limit, offset=offset
    )
    return {"entries": [r.to_dict() for r in rows]}


@router.get("/export.csv", response_class=Response)
async def export(me: Staff, request: Request) -> Response:
    """The last 500 entries as CSV."""
    rows = await store(request).audit.entries(limit=500)
    return csv_response(
        "audit.csv",
        ["id", "at", "actor", "action", "target", "before", "after", "reason"],
        [
            [r.id, r.at.isoformat(), r.actor_name, r.action, r.target or "",
             "" if r.before is None else canonical_json(r.before),
             "" if r.after is None else canonical_json(r.after), r.reason or ""]
            for r in rows
        ],
    )  # fmt: skip

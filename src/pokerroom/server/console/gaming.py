"""The console's Responsible gaming page (issue 29, item 5): every player's limits (with the raises and
removals waiting out their cooling period), cool-offs and self-exclusions, as JSON and as a CSV report.
Read-only by design: nobody lifts or shortens an exclusion, so an attempt is refused
(``403 exclusion_locked``) and there is no such action on the page."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from pokerroom.server.console.access import Admin, Staff, store
from pokerroom.server.console.csvout import csv_response

__all__ = ["router"]

router = APIRouter(prefix="/api/console/gaming", tags=["console"])
CSV_KEYS = ["player", "player_id", "what", "kind", "currency", "amount", "pending", "pending_from"]
CSV_KEYS += ["started_at", "ends_at", "active"]
Limit = Annotated[int, Query(ge=1, le=10_000, description="at most this many limits and exclusions each")]


@router.get("")
async def register(me: Staff, request: Request, limit: Limit = 1000) -> dict[str, Any]:
    """One row per limit (``what: "limit"``: kind, currency, amount, a waiting ``pending`` change and
    ``pending_from``) and per cool-off or self-exclusion (``what: "exclusion"``: kind, ``started_at``,
    ``ends_at`` (null: permanent), ``active``), by player name."""
    return {"rows": await store(request).gaming.register(limit=limit)}


@router.get("/register.csv", response_class=Response)
async def register_csv(me: Staff, request: Request, limit: Limit = 1000) -> Response:
    """The same rows as a CSV download (the register of self-exclusions and limits)."""
    rows = await store(request).gaming.register(limit=limit)
    return csv_response("responsible-gaming.csv", CSV_KEYS, [[r.get(k, "") for k in CSV_KEYS] for r in rows])


@router.get("/players/{player_id}")
async def player(player_id: int, me: Staff, request: Request) -> dict[str, Any]:
    """One player's limits and every exclusion he set (the player's page of the console shows them)."""
    gaming = store(request).gaming
    await store(request).accounts.get(player_id)  # unknown_player
    active = await gaming.active_exclusion(player_id)
    return {
        "limits": [s.to_dict() for s in await gaming.limits(player_id)],
        "exclusion": None if active is None else active.to_dict(),
        "exclusions": [e.to_dict() for e in await gaming.exclusions(player_id)],
    }


@router.delete("/players/{player_id}/exclusion")
async def lift(player_id: int, me: Admin, request: Request) -> dict[str, Any]:
    """Always refused (``403 exclusion_locked``): an operator cannot lift a cool-off or a self-exclusion
    early, nor shorten it (``400 invalid_limit`` when none is in force)."""
    await store(request).accounts.get(player_id)
    await store(request).gaming.lift(player_id)

"""The console's Reports: rake by day, game and stakes; tournament fees and overlays; loyalty points; each
as JSON and as a CSV download."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from pokerroom.server.console.access import Staff, front
from pokerroom.server.console.csvout import csv_response
from pokerroom.server.console_views import stakes_labels
from pokerroom.server.front import Front

__all__ = ["router"]

router = APIRouter(prefix="/api/console/reports", tags=["console"])
Days = Annotated[int, Query(ge=1, le=366, description="the last this many days (UTC), today included")]


def _since(f: Front, days: int) -> datetime:
    now = f.now()
    return now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=days - 1)


async def _rake(f: Front, days: int) -> list[dict[str, Any]]:
    pools = [p.pool_id for p in f.settings.pools]  # (Rush hands from before 0019: by their tables' ids)
    rows = await f.store.reports.rake(_since(f, days), pools=pools)
    now = stakes_labels(f.lobby())  # (hands dealt before the stakes were kept: the table's current ones)
    now.update({row["pool"]: row.get("stakes_label", "") for row in f.pool_lobby()})
    return [
        {
            "day": x.day,
            "game": x.game,
            "kind": x.kind,
            "table": x.table,
            "stakes": x.stakes if x.stakes is not None else now.get(x.table, ""),
            "currency": x.currency,
            "hands": x.hands,
            "rake": x.rake,
        }
        for x in rows
    ]


@router.get("/rake")
async def rake(me: Staff, request: Request, days: Days = 7) -> dict[str, Any]:
    """Rake per UTC day, game, table (a Rush pool is one row, ``kind`` rush) and the stakes the hands were
    dealt at, and the hands that paid it."""
    return {"rows": await _rake(front(request), days)}


@router.get("/rake.csv", response_class=Response)
async def rake_csv(me: Staff, request: Request, days: Days = 7) -> Response:
    rows = await _rake(front(request), days)
    keys = ["day", "game", "kind", "table", "stakes", "currency", "hands", "rake"]
    return csv_response("rake.csv", keys, [[row[k] for k in keys] for row in rows])


@router.get("/tournaments")
async def tournaments(me: Staff, request: Request, days: Days = 30) -> dict[str, Any]:
    """Per tournament: the fees the house kept and the overlay it paid."""
    f = front(request)
    return {"rows": await f.store.reports.tournament_money(_since(f, days))}


@router.get("/tournaments.csv", response_class=Response)
async def tournaments_csv(me: Staff, request: Request, days: Days = 30) -> Response:
    f = front(request)
    rows = await f.store.reports.tournament_money(_since(f, days))
    keys = ["tournament", "currency", "fees", "overlay"]
    return csv_response("tournaments.csv", keys, [[row[k] for k in keys] for row in rows])


@router.get("/points")
async def points(me: Staff, request: Request, days: Days = 7) -> dict[str, Any]:
    """Loyalty points (centipoints) credited per UTC day and source."""
    f = front(request)
    return {"rows": await f.store.reports.points(_since(f, days))}


@router.get("/points.csv", response_class=Response)
async def points_csv(me: Staff, request: Request, days: Days = 7) -> Response:
    f = front(request)
    rows = await f.store.reports.points(_since(f, days))
    return csv_response(
        "points.csv", ["day", "source", "points"], [[x["day"], x["source"], x["points"]] for x in rows]
    )

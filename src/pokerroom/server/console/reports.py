"""The console's Reports: rake by day, game and stakes; tournament fees and overlays; loyalty points; each
as JSON and as a CSV download."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from pokerroom.server.console.access import Staff, room
from pokerroom.server.console.csvout import csv_response
from pokerroom.server.room import Room

__all__ = ["router"]

router = APIRouter(prefix="/api/console/reports", tags=["console"])
Days = Annotated[int, Query(ge=1, le=366, description="the last this many days (UTC), today included")]


def _since(r: Room, days: int) -> datetime:
    now = r.clock.now()
    return now.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=days - 1)


def _stakes(r: Room, table: str) -> str:
    """A table's stakes as the lobby shows them; "" for a table that is gone (or a Rush table)."""
    actor = r.tables.get(table)
    return actor.summary()["stakes_label"] if actor is not None else ""


async def _rake(r: Room, days: int) -> list[dict[str, Any]]:
    rows = await r.store.reports.rake(_since(r, days))
    return [
        {
            "day": x.day,
            "game": x.game,
            "table": x.table,
            "stakes": _stakes(r, x.table),
            "currency": x.currency,
            "hands": x.hands,
            "rake": x.rake,
        }
        for x in rows
    ]


@router.get("/rake")
async def rake(me: Staff, request: Request, days: Days = 7) -> dict[str, Any]:
    """Rake per UTC day, game and table (with its stakes), and the hands that paid it."""
    return {"rows": await _rake(room(request), days)}


@router.get("/rake.csv", response_class=Response)
async def rake_csv(me: Staff, request: Request, days: Days = 7) -> Response:
    rows = await _rake(room(request), days)
    keys = ["day", "game", "table", "stakes", "currency", "hands", "rake"]
    return csv_response("rake.csv", keys, [[row[k] for k in keys] for row in rows])


@router.get("/tournaments")
async def tournaments(me: Staff, request: Request, days: Days = 30) -> dict[str, Any]:
    """Per tournament: the fees the house kept and the overlay it paid."""
    r = room(request)
    return {"rows": await r.store.reports.tournament_money(_since(r, days))}


@router.get("/tournaments.csv", response_class=Response)
async def tournaments_csv(me: Staff, request: Request, days: Days = 30) -> Response:
    r = room(request)
    rows = await r.store.reports.tournament_money(_since(r, days))
    keys = ["tournament", "currency", "fees", "overlay"]
    return csv_response("tournaments.csv", keys, [[row[k] for k in keys] for row in rows])


@router.get("/points")
async def points(me: Staff, request: Request, days: Days = 7) -> dict[str, Any]:
    """Loyalty points (centipoints) credited per UTC day and source."""
    r = room(request)
    return {"rows": await r.store.reports.points(_since(r, days))}


@router.get("/points.csv", response_class=Response)
async def points_csv(me: Staff, request: Request, days: Days = 7) -> Response:
    r = room(request)
    rows = await r.store.reports.points(_since(r, days))
    return csv_response(
        "points.csv", ["day", "source", "points"], [[x["day"], x["source"], x["points"]] for x in rows]
    )

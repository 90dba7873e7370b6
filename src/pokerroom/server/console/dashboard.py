"""The console's Dashboard: players online and seated, tables by game and state, hands in the last hour,
rake today and this week, points issued, tournaments running and registering, the store's health (the
readiness report of ``/api/ready``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request

from pokerroom.server.console.access import Staff, front
from pokerroom.server.console_views import table_rows
from pokerroom.server.operations import ready_report

__all__ = ["router", "week_start"]

router = APIRouter(prefix="/api/console/dashboard", tags=["console"])


def day_start(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def week_start(now: datetime) -> datetime:
    """Monday 00:00 UTC of ``now``'s week."""
    return day_start(now) - timedelta(days=now.weekday())


@router.get("")
async def dashboard(me: Staff, request: Request) -> dict[str, Any]:
    f = front(request)
    now = f.now()
    reports = f.store.reports
    today, week = day_start(now), week_start(now)

    def rake_by_currency(rows: list[Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in rows:
            out[row.currency] = out.get(row.currency, 0) + row.rake
        return out

    week_rows = await reports.rake(week)
    points = await reports.points(today)
    figures = await f.console_live()
    statuses = figures["tournaments"]
    return {
        "at": now.isoformat(),
        "players_online": figures["players_online"],
        "seated": figures["seated"],
        "tables": table_rows(figures["tables"]),
        "hands_last_hour": await reports.hands_since(now - timedelta(hours=1)),
        "rake": {
            "today": rake_by_currency([x for x in week_rows if x.day >= today.date().isoformat()]),
            "week": rake_by_currency(week_rows),
        },
        "points_issued_today": sum(p["points"] for p in points),
        "tournaments": {
            "running": statuses.count("running"),
            "registering": sum(1 for s in statuses if s in ("announced", "registering")),
        },
        "store": await ready_report(request.app.state.front),
    }

"""The console's Dashboard: players online and seated, tables by game and state, hands in the last hour,
rake today and this week, points issued, tournaments running and registering, the store's health (the
readiness report of ``/api/ready``)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request

from pokerroom.server.console.access import Staff, room
from pokerroom.server.operations import ready_report
from pokerroom.server.operator import game_state as _state
from pokerroom.server.room import Room

__all__ = ["router", "week_start"]

router = APIRouter(prefix="/api/console/dashboard", tags=["console"])


def day_start(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def week_start(now: datetime) -> datetime:
    """Monday 00:00 UTC of ``now``'s week."""
    return day_start(now) - timedelta(days=now.weekday())


def _tables(r: Room) -> list[dict[str, Any]]:
    counts: dict[tuple[str, str, str], int] = {}
    for tid, actor in r.tables.items():
        key = ("cash", actor.table.config.variant, _state(r, tid))
        counts[key] = counts.get(key, 0) + 1
    for pid, pool in r.pools.items():
        key = ("rush", pool.pool.config.variant, _state(r, pid))
        counts[key] = counts.get(key, 0) + 1
    return [{"kind": k, "game": g, "state": s, "count": n} for (k, g, s), n in sorted(counts.items())]


@router.get("")
async def dashboard(me: Staff, request: Request) -> dict[str, Any]:
    r = room(request)
    now = r.clock.now()
    reports = r.store.reports
    today, week = day_start(now), week_start(now)

    def rake_by_currency(rows: list[Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in rows:
            out[row.currency] = out.get(row.currency, 0) + row.rake
        return out

    week_rows = await reports.rake(week)
    points = await reports.points(today)
    statuses = [t.director.status for t in r.tournaments.values()]
    return {
        "at": now.isoformat(),
        "players_online": r.players.count(),
        "seated": {
            "cash": sum(len(t.table.seats) for t in r.tables.values()),
            "rush": sum(len(p.pool.entries) for p in r.pools.values()),
            "tournament": sum(
                len(t.director.remaining) for t in r.tournaments.values() if t.director.status == "running"
            ),
        },
        "tables": _tables(r),
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

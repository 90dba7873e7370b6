"""The console's Promotions page (issue 17): the Game of the Week calendar, happy hours and points per unit
replaced from the console, in force at once at every table, audited, and kept over the configuration
file's at a reload and a restart."""

from __future__ import annotations

from datetime import UTC, datetime, time
from pathlib import Path

import httpx
import pytest

from pokerroom.engine import Betting
from pokerroom.rooms import PointsPolicy
from pokerroom.rooms.points import Discipline, week_start
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role

from ..conftest import serve_room
from .conftest import FAST, Console, account

FIELDS = {
    "timezone": "UTC",
    "tournament_points_per_unit": 25,
    "game_of_the_week": [{"week": "this", "game": "omaha", "betting": "PL"}],
    "happy_hour": [{"days": ["sat", "sun"], "start": "18:00", "end": "20:00", "multiplier": 3}],
}


@pytest.mark.asyncio
async def test_promotions_are_replaced_at_once_and_audited(console: Console) -> None:
    r = await console.http.put("/api/console/promotions", json={"fields": FIELDS}, headers=console.admin)
    assert r.status_code == 200, r.text
    monday = week_start(datetime.now(UTC), UTC).isoformat()
    body = r.json()["promotions"]
    assert body["game_of_the_week"] == [
        {"week": monday, "game": "omaha", "betting": "PL", "mode": "standard"}
    ]
    assert body["happy_hour"] == [
        {"days": ["sat", "sun"], "start": "18:00", "end": "20:00", "multiplier": 3.0}
    ]
    room = console.s.room
    for actor in room.tables.values():
        policy = actor.table.points
        assert policy is not None and policy.tournament_points_per_unit == 25
        assert policy.featured(datetime.now(UTC)) == Discipline("omaha", Betting.POT_LIMIT)
        assert policy.happy_hours[0].start == time(18, 0) and policy.happy_hours[0].multiplier_pct == 300
    got = (await console.http.get("/api/console/promotions", headers=console.support)).json()
    assert got["from_console"] is True and got["game_of_the_week_now"]["game"] == "omaha"
    r = await console.http.get("/api/console/audit", params={"action": "promotions."}, headers=console.admin)
    [entry] = r.json()["entries"]
    assert entry["before"] is None and entry["after"] == body


@pytest.mark.asyncio
async def test_bad_promotions_are_named_by_key_and_change_nothing(console: Console) -> None:
    bad = {
        **FIELDS,
        "happy_hour": [{"days": ["someday"], "start": "18:00", "end": "20:00"}],
        "timezone": "Mars",
    }
    r = await console.http.put("/api/console/promotions", json={"fields": bad}, headers=console.admin)
    assert r.status_code == 422
    problems = r.json()["detail"]["details"]["problems"]
    assert any(p.startswith("promotions.timezone") for p in problems)
    assert any(p.startswith("promotions.happy_hour[0].days") for p in problems)
    assert console.s.room.console.promotions is None and await console.store.games.all() == []


@pytest.mark.asyncio
async def test_the_consoles_promotions_win_over_the_file_at_a_reload_and_a_restart(tmp_path: Path) -> None:
    file_policy = PointsPolicy(UTC, {}, (), 10)
    settings = RoomSettings(tables=tuple(demo_tables(FAST, games=("holdem",))), points=file_policy)
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin, _ = await account(http, s, "boss", Role.ADMIN)
        r = await http.put("/api/console/promotions", json={"fields": FIELDS}, headers=admin)
        assert r.status_code == 200
        await s.room.reconfigure(settings)
        assert s.room.services.points is not None and s.room.services.points.tournament_points_per_unit == 25
    async with serve_room(tmp_path, settings, durable=False) as s:
        points = s.room.services.points
        assert points is not None and points.tournament_points_per_unit == 25
        assert all(a.table.points is points for a in s.room.tables.values())

"""Issue 34, defect 4: a tournament field crashed the schedule endpoints. ``"start_time":
"2026-12-05T22:30:00Z"`` (the name of ``TournamentConfig``'s field) in ``POST /api/admin/tournaments`` or
``/api/console/tournaments`` went through to the tournament as a string and answered ``500
internal_error`` (``'str' object has no attribute 'isoformat'``). Now ``start_time`` is read as ``start``
is (an ISO date and time, UTC when it names no zone), and a bad one is ``422 bad_tournament`` naming it;
nothing is scheduled then."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.store import Role

from .conftest import FAST, LiveServer, live_server
from .wire import bearer, register

pytestmark = pytest.mark.asyncio
ENDPOINTS = ("/api/admin/tournaments", "/api/console/tournaments")


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[tuple[LiveServer, dict[str, str]]]:
    from pokerroom.server.demo import demo_tables

    async with live_server(tmp_path, demo_tables(FAST, games=("holdem",))) as s:
        token = await register(s, "boss")
        store = s.room.store
        await store.accounts.set_role((await store.accounts.find("boss")).id, Role.ADMIN)
        yield s, bearer(token)


def _body(tid: str, **more: Any) -> dict[str, Any]:
    return {"id": tid, "name": tid, "kind": "mtt", "buy_in": 500, "fee": 50, **more}


@pytest.mark.parametrize("path", ENDPOINTS)
async def test_start_time_is_read_as_a_date_and_time(
    room: tuple[LiveServer, dict[str, str]], path: str
) -> None:
    s, admin = room
    when = (datetime.now(UTC) + timedelta(days=2)).replace(microsecond=0)
    text = when.strftime("%Y-%m-%dT%H:%M:%SZ")
    async with httpx.AsyncClient(base_url=s.url, timeout=30, headers=admin) as http:
        r = await http.post(path, json=_body("late1", start_time=text))
        assert r.status_code == 201, r.text
        assert s.room.tournaments["late1"].director.config.start_time == when
        # the issue's own request: whatever the clock says now, an answer, never a 500
        r = await http.post(path, json=_body("late2", start_time="2026-12-05T22:30:00Z"))
        assert r.status_code in (201, 422), r.text
        # a time with no zone is UTC, as for "start"
        r = await http.post(path, json=_body("late3", start_time=text.rstrip("Z")))
        assert r.status_code == 201, r.text
        assert s.room.tournaments["late3"].director.config.start_time == when


@pytest.mark.parametrize("path", ENDPOINTS)
@pytest.mark.parametrize(
    "fields",
    [
        {"start_time": "tomorrow evening"},
        {"start_time": 1796500000},
        {"start_time": True},
        {"start_time": None},
        {"start_time": "2026-12-05T22:30:00Z", "start": "2026-12-05T22:30:00Z"},
        {"registration_opens": ["2026-12-05"]},
    ],
)
async def test_a_bad_start_time_is_refused_and_schedules_nothing(
    room: tuple[LiveServer, dict[str, str]], path: str, fields: dict[str, Any]
) -> None:
    s, admin = room
    async with httpx.AsyncClient(base_url=s.url, timeout=30, headers=admin) as http:
        r = await http.post(path, json=_body("bad1", **fields))
        assert r.status_code == 422, r.text
        body = r.json()
        error = body.get("detail", body)
        assert error["code"] == "bad_tournament"
        assert "start" in error["message"] or "registration_opens" in error["message"]
        assert "bad1" not in s.room.tournaments
        assert not await s.room.store.tournaments.statuses(["bad1"])

"""Recurring series from the console (issue 35, "Recurring schedules ... in the configuration and the
console"): ``GET /api/console/tournaments`` lists the series (``recurring``: each with its next
occurrences); ``POST /api/console/tournaments/recurring`` adds one from the fields of a ``[[recurring]]``,
checked as the configuration file's (``422 bad_config``, nothing stored), for admins only (anonymous
callers, players and support agents are refused); it is stored (``store.games``, kind ``recurring``) so
that a restart lays it over the file's settings again, its due occurrence opens at once, and the audit
log keeps ``recurring.add``."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from pokerroom.server.console_state import ConsoleState
from pokerroom.server.room import RoomSettings

from .console.conftest import Console, console  # noqa: F401 (the fixture)

URL = "/api/console/tournaments/recurring"
NIGHTLY: dict[str, object] = {
    "id": "nightly",
    "name": "Nightly",
    "kind": "mtt",
    "buy_in": 100,
    "fee": 10,
    "currency": "PLAY",
    "repeat": "daily",
    "at": "20:00",
    "timezone": "Europe/Sofia",
}

# Each refused as the configuration file refuses it, naming the key (an sng: a series is of mtt).
BAD: list[tuple[dict[str, object], str]] = [
    ({"repeat": "hourly"}, "repeat"),
    ({"at": "25:00"}, "at"),
    ({"timezone": "Mars/Base"}, "timezone"),
    ({"repeat": "weekly"}, "days"),
    ({"kind": "sng", "max_players": 6}, "recurring"),
]


@pytest.mark.asyncio
async def test_an_admin_adds_a_recurring_series_that_is_stored_and_listed(console: Console) -> None:  # noqa: F811
    http = console.http
    r = await http.get("/api/console/tournaments", headers=console.support)
    assert r.status_code == 200 and r.json()["recurring"] == []
    for headers in ({}, console.player, console.support):  # anonymous, a player, a support agent
        r = await http.post(URL, json=NIGHTLY, headers=headers)
        assert r.status_code in (401, 403), (headers, r.status_code)
    for bad, key in BAD:
        r = await http.post(URL, json={**NIGHTLY, **bad}, headers=console.admin)
        assert r.status_code == 422, (bad, r.text)
        detail = r.json()["detail"]
        assert detail["code"] == "bad_config" and key in detail["message"], (bad, detail)
    assert [g for g in await console.store.games.all() if g.kind == "recurring"] == []  # nothing stored
    r = await http.post(URL, json=NIGHTLY, headers=console.admin)
    assert r.status_code == 201, r.text
    row = r.json()["series"]
    assert row["series"] == "nightly" and row["source"] == "console" and len(row["next"]) == 3
    starts = [datetime.fromisoformat(x["start"]) for x in row["next"]]
    local = [s.astimezone(ZoneInfo("Europe/Sofia")) for s in starts]
    assert all((t.hour, t.minute) == (20, 0) for t in local)  # 20:00 in the operator's zone, DST kept
    assert [x["tournament"] for x in row["next"]] == [f"nightly-{t.date().isoformat()}" for t in local]
    assert starts == sorted(starts) and starts[0] > datetime.now(UTC)
    room = console.s.room
    assert row["next"][0]["tournament"] in room.tournaments  # the next one is open for registration
    assert r.json()["opened"][0] == row["next"][0]["tournament"]
    r = await http.post(URL, json=NIGHTLY, headers=console.admin)
    assert r.status_code == 422 and "exists already" in r.json()["detail"]["message"]
    listed = (await http.get("/api/console/tournaments", headers=console.support)).json()["recurring"]
    assert [x["series"] for x in listed] == ["nightly"] and listed[0]["next"] == row["next"]
    # A restart: the stored series is laid over the file's settings again.
    state = ConsoleState()
    await state.load(console.store)
    again = state.apply(RoomSettings())
    assert [rec.series for rec, rush in again.recurring] == ["nightly"]
    [entry] = (
        await http.get("/api/console/audit", params={"action": "recurring.add"}, headers=console.admin)
    ).json()["entries"]
    assert entry["target"] == "nightly" and entry["after"]["at"] == "20:00"

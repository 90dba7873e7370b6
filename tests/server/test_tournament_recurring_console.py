"""Recurring series edited and removed from the console (issue 35, "Recurring schedules ... in the
configuration and the console"; docs/console.md, docs/tournaments.md "Recurring tournaments"):

- ``PUT /api/console/tournaments/recurring/{id}`` edits a series added in the console, checked as adding
  one (``422 bad_config`` naming each problem, nothing changed); ``DELETE`` removes it; admins only
  (anonymous callers, players and support agents refused, nothing changed); a series of the
  configuration file is refused with ``409 recurring_in_file``, an unknown one with ``404
  unknown_series``; audited as ``recurring.edit`` / ``recurring.remove`` with before and after;
- an occurrence open with registrations stays as announced (its start, its entrants), across a
  restart too; one nobody registered for is withdrawn and the edited rule opens its own (at the new
  time), or none once the series is removed.

The endpoint on a live server (httpx), the restarts on the server's harness."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.commands import AddRecurring, CommandRefused, EditRecurring, RemoveRecurring
from pokerroom.server.config.parse import recurring_from_fields
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role

from .conftest import serve_room
from .console.conftest import account
from .harness import EPOCH, Harness

BASE: dict[str, Any] = {
    "kind": "mtt",
    "buy_in": 100,
    "fee": 10,
    "currency": "PLAY",
    "repeat": "daily",
    "timezone": "UTC",
}
NIGHTLY = {**BASE, "id": "nightly", "name": "Nightly", "at": "20:00"}
FROM_FILE = {**BASE, "id": "filed", "name": "From the file", "at": "18:00"}
URL = "/api/console/tournaments/recurring"


@dataclass
class Site:
    http: httpx.AsyncClient
    room: Any
    admin: dict[str, str]
    support: dict[str, str]
    player: dict[str, str]


@pytest_asyncio.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    """A live room whose configuration file has the series ``filed``."""
    settings = RoomSettings(recurring=(recurring_from_fields(FROM_FILE),))
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin, _ = await account(http, s, "boss", Role.ADMIN)
        support, _ = await account(http, s, "helpdesk", Role.SUPPORT)
        player, _ = await account(http, s, "alice", Role.PLAYER)
        http.cookies.clear()
        yield Site(http, s.room, admin, support, player)


async def listed(site: Site) -> dict[str, dict[str, Any]]:
    r = await site.http.get("/api/console/tournaments", headers=site.support)
    assert r.status_code == 200, r.text
    return {row["series"]: row for row in r.json()["recurring"]}


@pytest.mark.asyncio
async def test_an_admin_edits_and_removes_a_console_series(site: Site) -> None:
    http, room = site.http, site.room
    r = await http.post(URL, json=NIGHTLY, headers=site.admin)
    assert r.status_code == 201, r.text
    rows = await listed(site)
    assert rows["nightly"]["source"] == "console" and rows["nightly"]["fields"] == NIGHTLY
    assert rows["filed"]["source"] == "file" and "fields" not in rows["filed"]
    edited = {**NIGHTLY, "name": "Nightly Deep", "at": "21:30"}
    for headers in ({}, site.player, site.support):  # anonymous, a player, a support agent
        r = await http.put(f"{URL}/nightly", json=edited, headers=headers)
        assert r.status_code in (401, 403), (headers, r.status_code)
        r = await http.delete(f"{URL}/nightly", headers=headers)
        assert r.status_code in (401, 403), (headers, r.status_code)
    for bad, keys in (
        ({"at": "25:00"}, ["at"]),
        ({"repeat": "weekly"}, ["days"]),
        ({"timezone": "Mars/Base"}, ["timezone"]),
        ({"id": "other"}, ["id"]),
    ):
        r = await http.put(f"{URL}/nightly", json={**edited, **bad}, headers=site.admin)
        assert r.status_code == 422, (bad, r.text)
        detail = r.json()["detail"]
        assert detail["code"] == "bad_config" and all(k in detail["message"] for k in keys), (bad, detail)
    assert (await listed(site))["nightly"]["fields"] == NIGHTLY  # bad input: nothing changed
    assert (await room.store.games.get("nightly")).spec == NIGHTLY
    for method in ("put", "delete"):
        kw: dict[str, Any] = {"json": FROM_FILE} if method == "put" else {}
        r = await http.request(method.upper(), f"{URL}/filed", headers=site.admin, **kw)
        assert r.status_code == 409 and r.json()["detail"]["code"] == "recurring_in_file", r.text
        r = await http.request(method.upper(), f"{URL}/nope", headers=site.admin, **kw)
        assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_series", r.text
    r = await http.put(f"{URL}/nightly", json=edited, headers=site.admin)
    assert r.status_code == 200, r.text
    row = r.json()["series"]
    assert row["name"] == "Nightly Deep" and row["at"] == "21:30"
    starts = [datetime.fromisoformat(x["start"]) for x in row["next"]]
    assert all((s.hour, s.minute) == (21, 30) for s in starts)
    assert r.json()["withdrawn"] and r.json()["opened"] and r.json()["kept"] == []  # nobody registered
    for tid in r.json()["withdrawn"] + r.json()["opened"]:  # each open now is the edited rule's
        if tid in room.tournaments:
            assert room.tournaments[tid].director.config.start_time.time().isoformat() == "21:30:00"
    assert row["next"][0]["tournament"] in room.tournaments  # the next one is open for registration
    assert (await room.store.games.get("nightly")).spec == edited
    r = await http.delete(f"{URL}/nightly", headers=site.admin)
    assert r.status_code == 200, r.text
    gone = r.json()["withdrawn"]
    assert gone and all(tid not in room.tournaments for tid in gone) and r.json()["kept"] == []
    assert "nightly" not in await listed(site) and "filed" in await listed(site)
    assert not any(t.startswith("nightly-") for t in room.tournaments)  # nothing announced any more
    r = await http.delete(f"{URL}/nightly", headers=site.admin)
    assert r.status_code == 404  # (removed: unknown now)
    r = await http.get("/api/console/audit", params={"action": "recurring.edit"}, headers=site.admin)
    [entry] = r.json()["entries"]
    assert entry["target"] == "nightly" and entry["before"] == NIGHTLY and entry["after"]["at"] == "21:30"
    r = await http.get("/api/console/audit", params={"action": "recurring.remove"}, headers=site.admin)
    [entry] = r.json()["entries"]
    assert entry["before"] == edited and entry["after"]["removed"] is True


@pytest.mark.asyncio
async def test_occurrences_with_registrations_stay_as_announced_across_restarts(tmp_path: Path) -> None:
    """The harness's clock starts at 12:00 UTC: the 20:00 series has today's and tomorrow's occurrences
    open (48 hours ahead). Alice registers for today's. An edit to 21:00 keeps hers at 20:00 with her
    entry and reopens tomorrow's at 21:00; a restart keeps both so; removing the series leaves hers (the
    console's since the edit) and withdraws tomorrow's, and a restart opens nothing of the series again."""
    h = await Harness.open(tmp_path, RoomSettings(), seed=7)
    try:
        today, tomorrow = "nightly-" + EPOCH.date().isoformat(), "nightly-2026-12-02"
        assert datetime(2026, 12, 1, 12, 0, tzinfo=UTC) == EPOCH
        await h.front.command(AddRecurring(dict(NIGHTLY)))
        assert {today, tomorrow} <= set(h.room.tournaments)
        alice = await h.player("alice")
        await h.front.tournament_request(today, "register", str(alice.id), "alice", False)
        out = await h.front.command(EditRecurring("nightly", {**NIGHTLY, "at": "21:00"}))
        assert (out.answer["kept"], out.answer["withdrawn"]) == ([today], [tomorrow])

        def start_of(tid: str) -> str:
            cfg = h.room.tournaments[tid].director.config
            assert cfg.start_time is not None
            return cfg.start_time.strftime("%d %H:%M")

        def entrants(tid: str) -> list[str]:
            return [e.name for e in h.room.tournaments[tid].director.entrants.values()]

        assert (start_of(today), entrants(today)) == ("01 20:00", ["alice"])
        assert (start_of(tomorrow), entrants(tomorrow)) == ("02 21:00", [])
        await h.restart(RoomSettings())
        assert (start_of(today), entrants(today)) == ("01 20:00", ["alice"])  # as announced
        assert start_of(tomorrow) == "02 21:00"
        out = await h.front.command(RemoveRecurring("nightly"))
        # (today's is the console's tournament since the edit kept it: the removal leaves it alone)
        assert (out.answer["kept"], out.answer["withdrawn"]) == ([], [tomorrow])
        assert tomorrow not in h.room.tournaments and entrants(today) == ["alice"]
        await h.restart(RoomSettings())
        assert h.room.settings.recurring == ()
        assert [t for t in h.room.tournaments if t.startswith("nightly-")] == [today]
        assert (start_of(today), entrants(today)) == ("01 20:00", ["alice"])
        with pytest.raises(CommandRefused) as refused:
            await h.front.command(EditRecurring("nightly", dict(NIGHTLY)))
        assert (refused.value.status, refused.value.code) == (404, "unknown_series")
    finally:
        await h.close()

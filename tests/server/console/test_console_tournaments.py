"""The console's Tournaments page (issue 17): every kind scheduled, a sit-and-go that bots fill and
finish, a registering tournament cancelled with every buy-in and fee refunded (RULES.md §9.2), and the
console's schedule and cancellations kept across a restart."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest

from pokerroom.bots.runner import start_tournament_bots
from pokerroom.server.demo import demo_tournaments
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, AccountKind, Role
from tests.waiting import until

from ..conftest import serve_room
from .conftest import FAST, Console, account

BASE = {"variant": "holdem", "betting": "NL", "buy_in": 100, "fee": 10, "currency": "PLAY"}
MTT = {**BASE, "kind": "mtt", "start_in_minutes": 90}
EVERY_KIND: dict[str, dict[str, Any]] = {
    "sng": {**BASE, "id": "c-sng", "kind": "sng", "max_players": 6, "table_size": 6},
    "scheduled": {**MTT, "id": "c-mtt"},
    "satellite": {**MTT, "id": "c-sat", "start_in_minutes": 60, "target": "c-mtt", "seat_value": 110},
    "guaranteed": {**MTT, "id": "c-gtd", "guarantee": 5000},
    "freeroll": {**MTT, "id": "c-free", "buy_in": 0, "fee": 0, "freeroll_pool": 1000},
    "rebuy": {**MTT, "id": "c-rebuy", "rebuy_levels": 2, "add_on": True},
    "rush": {**MTT, "id": "c-rush", "rush": True},
}


def lobby_ids(lobby: dict[str, list[dict[str, Any]]]) -> set[str]:
    return {t["tournament"] for rows in lobby.values() if isinstance(rows, list) for t in rows}


@pytest.mark.asyncio
async def test_every_kind_is_scheduled_and_audited(console: Console) -> None:
    for kind, fields in EVERY_KIND.items():
        r = await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
        assert r.status_code == 201, (kind, r.text)
    room = console.s.room
    assert room.tournaments["c-gtd"].director.config.guarantee == 5000
    assert room.tournaments["c-free"].director.config.freeroll_pool == 1000
    assert room.tournaments["c-rebuy"].director.config.add_on
    assert room.tournaments["c-sat"].director.config.target == "c-mtt"
    assert type(room.tournaments["c-rush"].director).__name__ == "RushTournamentDirector"
    assert any(t.series == "c-sng" for t in room.tournaments.values())
    public = (await console.http.get("/api/tournaments")).json()
    assert {"c-mtt", "c-sat", "c-gtd", "c-free", "c-rebuy", "c-rush"} <= lobby_ids(public)
    r = await console.http.get(
        "/api/console/audit", params={"action": "tournament.schedule"}, headers=console.admin
    )
    assert len(r.json()["entries"]) == 7
    for bad in (
        {**BASE, "id": "c-mtt", "kind": "mtt", "start_in_minutes": 5},
        {**BASE, "id": "x", "kind": "nope"},
    ):
        r = await console.http.post("/api/console/tournaments", json=bad, headers=console.admin)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_tournament"


@pytest.mark.asyncio
async def test_a_sit_and_go_from_the_console_is_filled_by_bots_and_finished(console: Console) -> None:
    fast = {"level_minutes": 0.03, "action_seconds": 1.0, "time_bank": 0.5, "between_hands": 0.02}
    fields = {**BASE, **fast, "id": "c-hyper", "kind": "sng", "max_players": 3, "table_size": 3}
    r = await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
    assert r.status_code == 201, r.text
    room = console.s.room
    copy = next(t for t in room.tournaments.values() if t.series == "c-hyper")
    bots = await start_tournament_bots(
        console.s.url, copy.tid, 3, ["caller", "random"], think=(0, 0.01), seed=5
    )
    try:
        await until(
            lambda: copy.finished_at is not None,
            timeout=240,
            what=f"{copy.tid} ends",
            show=lambda: copy.director.status,
        )
    finally:
        for bot, task in bots:
            await bot.stop()
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
    details = (await console.http.get(f"/api/console/tournaments/{copy.tid}", headers=console.support)).json()
    assert details["summary"]["status"] == "finished"
    assert len(details["standings"]) == 3 and sum(p["amount"] for p in details["prizes"]) == 300
    assert (await console.store.verify()).ok


@pytest.mark.asyncio
async def test_cancelling_a_registering_tournament_refunds_every_buy_in_and_fee(console: Console) -> None:
    fields = {**BASE, "id": "c-cancel", "kind": "mtt", "start_in_minutes": 90}
    assert (
        await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
    ).status_code == 201
    ledger = console.store.ledger
    alice = console.player_id
    before = await ledger.balance(alice, PLAY)
    bob_headers, bob = await account(console.http, console.s, "bobby", Role.PLAYER)
    console.http.cookies.clear()
    bob_before = await ledger.balance(bob, PLAY)
    for headers in (console.player, bob_headers):
        r = await console.http.post("/api/tournaments/c-cancel/register", json={}, headers=headers)
        assert r.status_code == 200, r.text
    assert await ledger.balance(alice, PLAY) == before - 110
    r = await console.http.post("/api/console/tournaments/c-cancel/cancel", headers=console.admin)
    assert r.status_code == 200, r.text
    assert sorted(x["name"] for x in r.json()["refunds"]) == ["alice", "bobby"]
    assert all(x["amount"] == 110 and x["to"] == "wallet" for x in r.json()["refunds"])
    assert await ledger.balance(alice, PLAY) == before and await ledger.balance(bob, PLAY) == bob_before
    pool = await ledger.account(AccountKind.PRIZE_POOL, PLAY, ref="c-cancel")
    assert (await ledger.get_account(pool)).balance == 0
    assert (await console.store.verify()).ok
    r = await console.http.post("/api/console/tournaments/c-cancel/cancel", headers=console.admin)
    assert r.status_code == 409
    r = await console.http.get(
        "/api/console/audit", params={"action": "tournament.cancel"}, headers=console.admin
    )
    [entry] = r.json()["entries"]
    assert entry["before"]["entrants"] == ["alice", "bobby"] and entry["after"]["status"] == "cancelled"


@pytest.mark.asyncio
async def test_the_consoles_schedule_and_cancellations_survive_a_restart(tmp_path: Path) -> None:
    settings = RoomSettings(tournaments=tuple(demo_tournaments(FAST, 5.0)))  # the series "turbo6"
    later = {**BASE, "id": "c-later", "kind": "mtt", "start_in_minutes": 90}
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin, _ = await account(http, s, "boss", Role.ADMIN)
        assert (await http.post("/api/console/tournaments", json=later, headers=admin)).status_code == 201
        start = s.room.tournaments["c-later"].director.config.start_time
        copy = next(t.tid for t in s.room.tournaments.values() if t.series == "turbo6")
        assert (await http.post(f"/api/console/tournaments/{copy}/cancel", headers=admin)).status_code == 200
    async with serve_room(tmp_path, settings, durable=False) as s:
        room = s.room
        assert room.tournaments["c-later"].director.config.start_time == start  # not 90 minutes from now
        assert not any(t.series == "turbo6" for t in room.tournaments.values())
        await room.reconfigure(settings)  # a reload of the file does not bring the series back
        assert not any(t.series == "turbo6" for t in room.tournaments.values())


@pytest.mark.asyncio
async def test_a_tournament_is_edited_before_anybody_registers_and_not_after(console: Console) -> None:
    fields = {**MTT, "id": "c-edit"}
    assert (
        await console.http.post("/api/console/tournaments", json=fields, headers=console.admin)
    ).status_code == 201
    r = await console.http.put(
        "/api/console/tournaments/c-edit",
        json={**MTT, "name": "Edited", "guarantee": 900},
        headers=console.admin,
    )
    assert r.status_code == 200, r.text
    actor = console.s.room.tournaments["c-edit"]
    assert actor.director.config.name == "Edited" and actor.director.config.guarantee == 900
    r = await console.http.post("/api/tournaments/c-edit/register", json={}, headers=console.player)
    assert r.status_code == 200, r.text
    r = await console.http.put(
        "/api/console/tournaments/c-edit", json={**MTT, "fee": 0}, headers=console.admin
    )
    assert r.status_code == 409
    assert console.s.room.tournaments["c-edit"].director.config.fee == 10
    r = await console.http.get(
        "/api/console/audit", params={"action": "tournament.edit"}, headers=console.admin
    )
    [entry] = r.json()["entries"]
    assert entry["before"]["name"] == "c-edit" and entry["after"]["name"] == "Edited"

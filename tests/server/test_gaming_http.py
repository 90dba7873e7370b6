"""Responsible gaming over HTTP (issue 29, item 5) on a live room: the player's limits (bad input refused
with typed errors and nothing kept; a raise waits the cooling period), a self-exclusion that ends every
session and socket at once and refuses the login and a deposit with its end date, the attempt to lift it
refused to the player and to an administrator, and the console's register and CSV report."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
import websockets

from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role

from .conftest import FAST, LiveServer, serve_room
from .wire import PASSWORD, Wire

pytestmark = pytest.mark.asyncio


@dataclass
class Gaming:
    s: LiveServer
    http: httpx.AsyncClient
    admin: dict[str, str]
    alice: dict[str, str]
    alice_token: str
    alice_id: int


async def _account(http: httpx.AsyncClient, s: LiveServer, name: str, role: Role) -> tuple[str, int]:
    r = await http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    player = await s.room.store.accounts.find(name)
    if role is not Role.PLAYER:
        await s.room.store.accounts.set_role(player.id, role)
    return r.json()["token"], player.id


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[Gaming]:
    tables = tuple(demo_tables(FAST, games=("holdem",)))
    settings = RoomSettings(tables=tables, currencies=("EUR",), gaming_cooling_hours=48)
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin, _ = await _account(http, s, "boss", Role.ADMIN)
        alice, pid = await _account(http, s, "alice", Role.PLAYER)
        http.cookies.clear()
        yield Gaming(s, http, _bearer(admin), _bearer(alice), alice, pid)


async def _put(g: Gaming, body: dict[str, Any]) -> httpx.Response:
    return await g.http.put("/api/gaming/limits", json=body, headers=g.alice)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"kind": "loss_day", "currency": "EUR", "amount": True}, "invalid_amount"),
        ({"kind": "loss_day", "currency": "EUR", "amount": 12.5}, "invalid_amount"),
        ({"kind": "loss_day", "currency": "EUR", "amount": "500"}, "invalid_amount"),
        ({"kind": "loss_day", "currency": "EUR", "amount": -1}, "invalid_amount"),
        ({"kind": "loss_day", "currency": "EUR", "amount": 10**15}, "invalid_amount"),
        ({"kind": "loss_day", "currency": "USD", "amount": 500}, "invalid_currency"),  # not this room's
        ({"kind": "loss_day", "currency": "euro", "amount": 500}, "invalid_currency"),
        ({"kind": "loss_day", "currency": "PLAY", "amount": 500}, "invalid_currency"),
        ({"kind": "loss_forever", "currency": "EUR", "amount": 500}, "invalid_limit"),
        ({"kind": "session", "amount": 1}, "invalid_limit"),
    ],
)
async def test_a_bad_limit_is_a_typed_400_and_changes_nothing(
    room: Gaming, body: dict[str, Any], code: str
) -> None:
    r = await _put(room, body)
    assert (r.status_code, r.json()["code"]) == (400, code), r.text
    assert (await room.http.get("/api/gaming", headers=room.alice)).json()["limits"] == []


async def test_a_limit_holds_at_once_and_a_raise_waits_the_configured_cooling(room: Gaming) -> None:
    assert (await room.http.get("/api/gaming")).status_code == 401
    r = await _put(room, {"kind": "deposit_week", "currency": "EUR", "amount": 20_000})
    assert r.status_code == 200 and r.json()["limit"]["amount"] == 20_000
    r = await _put(room, {"kind": "deposit_week", "currency": "EUR", "amount": 50_000})
    raised = r.json()["limit"]
    assert (raised["amount"], raised["pending"]) == (20_000, 50_000)  # [responsible_gaming] 48 h
    overview = (await room.http.get("/api/gaming", headers=room.alice)).json()
    assert overview["cooling_hours"] == 48 and overview["currencies"] == ["EUR"]
    assert overview["limits"][0]["pending_from"] == raised["pending_from"]
    assert overview["used"] == {"EUR": {"deposit": {"day": 0, "week": 0, "month": 0}}}
    ask = {"currency": "EUR", "amount": 30_000, "reference": "SEPA 1", "request_id": "dep-00000001"}
    r = await room.http.post("/api/cashier/deposits", json=ask, headers=room.alice)
    refusal = r.json().get("detail", r.json())  # (the cashier's router answers {"detail": {...}})
    assert r.status_code == 403 and refusal["code"] == "limit_reached", r.text
    assert refusal["details"]["limit_text"] == "200.00 EUR"
    assert await room.s.room.store.cashier.requests(player_id=room.alice_id) == []
    session = (await room.http.get("/api/gaming/session", headers=room.alice)).json()
    assert session["reminder_minutes"] is None and session["net"] == {}
    await _put(room, {"kind": "session", "amount": 45})
    session = (await room.http.get("/api/gaming/session", headers=room.alice)).json()
    assert session["reminder_minutes"] == 45 and 0 < session["seconds_to_reminder"] <= 45 * 60


async def test_a_self_exclusion_ends_the_sessions_and_refuses_login_and_deposits(room: Gaming) -> None:
    wire = await Wire.open(room.s, room.alice_token)
    exclude = {"kind": "self_exclusion", "months": 6, "password": "not-my-password-at-all"}
    r = await room.http.post("/api/gaming/exclusion", json=exclude, headers=room.alice)
    assert (r.status_code, r.json()["code"]) == (401, "bad_credentials")
    assert (await room.http.get("/api/gaming", headers=room.alice)).status_code == 200  # still logged in
    r = await room.http.post(
        "/api/gaming/exclusion", json={**exclude, "password": PASSWORD}, headers=room.alice
    )
    assert r.status_code == 200, r.text
    ends = r.json()["exclusion"]["ends_at"]
    frame = await wire.until(lambda m: m["type"] == "error" and m["code"] == "session_ended")
    assert frame["code"] == "session_ended"
    with pytest.raises(websockets.ConnectionClosed):
        await wire.until(lambda m: False)
    assert (await room.http.get("/api/gaming", headers=room.alice)).status_code == 401  # the token is gone
    login = await room.http.post("/api/login", json={"name": "alice", "password": PASSWORD})
    assert (login.status_code, login.json()["code"]) == (403, "self_excluded")
    assert login.json()["details"]["kind"] == "self_exclusion"
    assert login.json()["details"]["ends"][:10] == ends[:10]
    assert "pokerroom_token" not in room.http.cookies
    store = room.s.room.store
    with pytest.raises(Exception) as deposit:
        await store.cashier.request_deposit(
            room.alice_id, "EUR", 500, reference="x", request_id="dep-00000002"
        )
    assert getattr(deposit.value, "code", None) == "self_excluded"
    # nobody lifts it: not the player (through a session opened by other means), not an administrator
    session = await store.accounts.open_session(room.alice_id)
    r = await room.http.delete("/api/gaming/exclusion", headers=_bearer(session.token))
    assert (r.status_code, r.json()["code"]) == (403, "exclusion_locked")
    r = await room.http.delete(f"/api/console/gaming/players/{room.alice_id}/exclusion", headers=room.admin)
    assert (r.status_code, r.json()["code"]) == (403, "exclusion_locked")
    shorter = {"kind": "cool_off", "days": 1, "password": PASSWORD}
    r = await room.http.post("/api/gaming/exclusion", json=shorter, headers=_bearer(session.token))
    assert (r.status_code, r.json()["code"]) == (403, "exclusion_locked")
    assert (await store.gaming.active_exclusion(room.alice_id)) is not None


async def test_the_console_lists_limits_and_exclusions_and_reports_them_as_csv(room: Gaming) -> None:
    await _put(room, {"kind": "loss_month", "currency": "EUR", "amount": 90_000})
    body = {"kind": "cool_off", "days": 7, "password": PASSWORD}
    assert (await room.http.post("/api/gaming/exclusion", json=body, headers=room.alice)).status_code == 200
    assert (await room.http.get("/api/console/gaming", headers=room.alice)).status_code == 401  # logged out
    r = await room.http.get("/api/console/gaming", headers=room.admin)
    rows = r.json()["rows"]
    assert [(x["player"], x["what"], x["kind"]) for x in rows] == [
        ("alice", "exclusion", "cool_off"),
        ("alice", "limit", "loss_month"),
    ]
    assert rows[0]["active"] is True
    one = (await room.http.get(f"/api/console/gaming/players/{room.alice_id}", headers=room.admin)).json()
    assert one["exclusion"]["kind"] == "cool_off" and one["limits"][0]["amount"] == 90_000
    r = await room.http.get("/api/console/gaming/register.csv", headers=room.admin)
    assert r.headers["content-type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(r.text)))
    assert [(x["player"], x["kind"], x["amount"], x["active"]) for x in table] == [
        ("alice", "cool_off", "", "True"),
        ("alice", "loss_month", "90000", ""),
    ]

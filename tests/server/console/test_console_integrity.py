"""Issue 30, item 1 in the console: an account's login history with the accounts that share an address or
a device, and the room's shared addresses and devices; staff only (the access test walks them too)."""

from __future__ import annotations

import pytest

from pokerroom.server.integrity.logins import BROWSER_COOKIE

from ..wire import PASSWORD
from .conftest import Console

pytestmark = pytest.mark.asyncio


async def test_an_accounts_logins_and_the_accounts_it_shares_an_address_or_device_with(
    console: Console,
) -> None:
    s = console.store
    r = await console.http.post(
        "/api/login", json={"name": "alice", "password": PASSWORD}, headers={"User-Agent": "AliceBrowser/1"}
    )
    assert r.status_code == 200
    device = r.cookies[BROWSER_COOKIE]
    console.http.cookies.clear()
    mallory = await s.accounts.register("mallory", PASSWORD)
    await s.logins.record(mallory.id, "198.51.100.8", device, "AliceBrowser/1")  # alice's browser
    r = await console.http.get(
        f"/api/console/integrity/players/{console.player_id}/logins", headers=console.support
    )
    assert r.status_code == 200
    body = r.json()
    assert body["player"] == {"id": console.player_id, "name": "alice"} and body["kept_days"] == 90
    newest = body["logins"][0]
    assert (newest["address"], newest["device"], newest["user_agent"]) == (
        "127.0.0.1",
        device,
        "AliceBrowser/1",
    )
    assert len(body["logins"]) == 2  # the registration's login and this one
    by_name = {k["name"]: k for k in body["linked"]}
    assert by_name["mallory"]["devices"] == [device] and by_name["mallory"]["addresses"] == []
    # boss and helpdesk registered from this machine too: they share its address
    assert by_name["boss"]["addresses"] == ["127.0.0.1"]

    r = await console.http.get("/api/console/integrity/shared", headers=console.admin)
    assert r.status_code == 200
    rows = {(x["kind"], x["value"]): {p["name"] for p in x["players"]} for x in r.json()["shared"]}
    assert rows[("device", device)] == {"alice", "mallory"}
    assert {"alice", "boss", "helpdesk"} <= rows[("address", "127.0.0.1")]


async def test_bad_input_is_a_typed_error(console: Console) -> None:
    r = await console.http.get("/api/console/integrity/players/999999/logins", headers=console.admin)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_player"
    r = await console.http.get("/api/console/integrity/players/x/logins", headers=console.admin)
    assert r.status_code == 422
    r = await console.http.get("/api/console/integrity/shared?limit=0", headers=console.admin)
    assert r.status_code == 422


async def test_notes_on_an_account_with_its_flags_written_by_administrators(console: Console) -> None:
    http, pid = console.http, console.player_id
    url = f"/api/console/integrity/players/{pid}/notes"
    r = await http.get(url, headers=console.support)
    assert r.status_code == 200 and r.json()["notes"] == []
    assert r.json()["flags"]["chat_muted"] is None
    assert r.json()["flags"]["linked"] == 2  # boss and helpdesk registered from this machine too
    assert (
        await http.post(url, json={"text": "asked about rakeback"}, headers=console.support)
    ).status_code == 403
    r = await http.post(url, json={"text": "asked about rakeback"}, headers=console.admin)
    assert r.status_code == 201 and r.json()["note"]["author"]["name"] == "boss"
    for bad in ({"text": ""}, {"text": "   "}, {"text": 5}, {}):
        assert (await http.post(url, json=bad, headers=console.admin)).status_code == 422, bad
    assert (
        await http.post(
            "/api/console/integrity/players/999999/notes", json={"text": "x"}, headers=console.admin
        )
    ).status_code == 404
    await console.store.chat.mute(None, pid, reason="spam", by_name="boss")
    body = (await http.get(url, headers=console.support)).json()
    assert [(n["author"]["name"], n["text"]) for n in body["notes"]] == [("boss", "asked about rakeback")]
    assert body["flags"]["chat_muted"]["reason"] == "spam"
    (entry,) = (await http.get("/api/console/audit?action=player.note", headers=console.admin)).json()[
        "entries"
    ]
    assert entry["target"] == "alice" and entry["after"]["text"] == "asked about rakeback"

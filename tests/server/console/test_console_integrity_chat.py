"""Issue 30, item 4 over HTTP: a player mutes another for himself and reports a chat line or a hand; the
staff search the chat log, edit the word filter, mute a player for everyone for a time with a reason (in
the audit log), and read and close the reports. Bad input is a typed error and changes nothing."""

from __future__ import annotations

import pytest

from ..wire import PASSWORD
from .conftest import Console

pytestmark = pytest.mark.asyncio


async def test_a_player_mutes_and_unmutes_another_for_himself(console: Console) -> None:
    http, me = console.http, console.player
    await console.store.accounts.register("loudmouth", PASSWORD)
    assert (await http.get("/api/chat/mutes")).status_code == 401
    assert (await http.post("/api/chat/mutes", json={"name": "loudmouth"})).status_code == 401
    r = await http.post("/api/chat/mutes", json={"name": "LoudMouth"}, headers=me)
    assert r.status_code == 200 and r.json()["muted"] == "loudmouth"
    assert [m["name"] for m in (await http.get("/api/chat/mutes", headers=me)).json()["muted"]] == [
        "loudmouth"
    ]
    r = await http.post("/api/chat/mutes", json={"name": "nobody-here"}, headers=me)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_player"
    r = await http.post("/api/chat/mutes", json={"name": "alice"}, headers=me)
    assert r.status_code == 422 and r.json()["detail"]["code"] == "invalid_record"
    assert (await http.post("/api/chat/mutes", json={"name": 5}, headers=me)).status_code == 422
    r = await http.post("/api/chat/unmute", json={"name": "loudmouth"}, headers=me)
    assert r.json() == {"ok": True, "lifted": True}
    assert (await http.get("/api/chat/mutes", headers=me)).json()["muted"] == []


async def test_a_player_reports_a_line_and_the_staff_read_and_close_it(console: Console) -> None:
    http, s = console.http, console.store
    rude = await s.accounts.register("rude", PASSWORD)
    line = await s.chat.record("holdem-nl", rude.id, "rude", "you fish", "you fish")
    body = {"kind": "chat", "line": line.id, "reason": "insulting the table"}
    assert (await http.post("/api/reports", json=body)).status_code == 401
    r = await http.post("/api/reports", json=body, headers=console.player)
    assert r.status_code == 201
    rid = r.json()["report"]
    bad = [
        ({"kind": "chat", "line": 999999, "reason": "xyz"}, 404, "unknown_line"),
        ({"kind": "chat", "reason": "xyz"}, 422, "invalid_field"),
        ({"kind": "hand", "hand": "holdem-nl-1", "reason": "xyz"}, 404, "unknown_hand"),
        ({"kind": "hand", "reason": "xyz"}, 422, "invalid_field"),
    ]
    for payload, status, code in bad:
        r = await http.post("/api/reports", json=payload, headers=console.player)
        assert (r.status_code, r.json()["detail"]["code"]) == (status, code), payload
    r = await http.post("/api/reports", json={"kind": "table", "reason": "xyz"}, headers=console.player)
    assert r.status_code == 422
    listed = (await http.get("/api/console/integrity/reports", headers=console.support)).json()["reports"]
    assert [x["id"] for x in listed] == [rid]
    assert listed[0]["line"]["text"] == "you fish" and listed[0]["reporter"]["name"] == "alice"
    assert (
        await http.post(f"/api/console/integrity/reports/{rid}/close", headers=console.support)
    ).status_code == 403
    assert (
        await http.post(f"/api/console/integrity/reports/{rid}/close", headers=console.admin)
    ).status_code == 200
    r = await http.post(f"/api/console/integrity/reports/{rid}/close", headers=console.admin)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_report"
    r = await http.get("/api/console/integrity/reports?status=open", headers=console.admin)
    assert r.json()["reports"] == []
    entries = (await http.get("/api/console/audit?action=report.", headers=console.admin)).json()["entries"]
    assert [(e["action"], e["target"]) for e in entries] == [("report.close", f"report:{rid}")]


async def test_the_staff_search_the_log_and_edit_the_filter(console: Console) -> None:
    http, s = console.http, console.store
    bob = await s.accounts.register("bobby", PASSWORD)
    await s.chat.record("holdem-nl", bob.id, "bobby", "nice hand", "nice hand")
    await s.chat.record("holdem-pl", bob.id, "bobby", "darn river", "**** river")
    r = await http.get("/api/console/integrity/chat?q=RIVER", headers=console.support)
    assert [(x["table"], x["text"], x["shown"]) for x in r.json()["lines"]] == [
        ("holdem-pl", "darn river", "**** river")
    ]
    r = await http.get("/api/console/integrity/chat?table=holdem-nl&player=bobby", headers=console.support)
    assert [x["text"] for x in r.json()["lines"]] == ["nice hand"]
    words = {"words": ["Darn", "heck"]}
    assert (
        await http.put("/api/console/integrity/chat/words", json=words, headers=console.support)
    ).status_code == 403
    r = await http.put("/api/console/integrity/chat/words", json=words, headers=console.admin)
    assert r.status_code == 200 and r.json() == {"words": ["darn", "heck"]}
    r = await http.put(
        "/api/console/integrity/chat/words", json={"words": ["two words"]}, headers=console.admin
    )
    assert r.status_code == 422 and r.json()["detail"]["code"] == "bad_words"
    r = await http.put("/api/console/integrity/chat/words", json={"words": "darn"}, headers=console.admin)
    assert r.status_code == 422
    assert (await http.get("/api/console/integrity/chat/words", headers=console.support)).json()["words"] == [
        "darn",
        "heck",
    ]
    (entry,) = (await http.get("/api/console/audit?action=chat.words", headers=console.admin)).json()[
        "entries"
    ]
    assert entry["before"] == [] and entry["after"] == ["darn", "heck"]


async def test_the_staff_mute_a_player_for_a_time_with_a_reason_in_the_audit_log(console: Console) -> None:
    http = console.http
    pid = console.player_id
    body = {"player": pid, "minutes": 60, "reason": "insults at holdem-nl"}
    assert (
        await http.post("/api/console/integrity/mutes", json=body, headers=console.support)
    ).status_code == 403
    r = await http.post("/api/console/integrity/mutes", json=body, headers=console.admin)
    assert r.status_code == 200
    mute = r.json()["mute"]
    assert mute["player"]["name"] == "alice" and mute["reason"] == "insults at holdem-nl" and mute["until"]
    listed = (await http.get("/api/console/integrity/mutes", headers=console.support)).json()["mutes"]
    assert [m["player"]["id"] for m in listed] == [pid]
    for bad in ({**body, "minutes": 0}, {**body, "reason": ""}, {**body, "player": "1"}, {"player": pid}):
        assert (
            await http.post("/api/console/integrity/mutes", json=bad, headers=console.admin)
        ).status_code == 422
    r = await http.post(
        "/api/console/integrity/mutes", json={**body, "player": 999999}, headers=console.admin
    )
    assert r.status_code == 404 and r.json()["detail"]["code"] == "unknown_player"
    r = await http.post(f"/api/console/integrity/mutes/{pid}/lift", headers=console.admin)
    assert r.status_code == 200
    r = await http.post(f"/api/console/integrity/mutes/{pid}/lift", headers=console.admin)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "not_muted"
    entries = (await http.get("/api/console/audit?action=chat.", headers=console.admin)).json()["entries"]
    assert [(e["action"], e["target"], e["reason"]) for e in entries] == [
        ("chat.unmute", "alice", None),
        ("chat.mute", "alice", "insults at holdem-nl"),
    ]

"""The console's Tables and pools page (issue 17): a table opened from the configuration file's fields
that bots then play at, pause and resume, a message, an observer's view without hole cards, closing after
the hand with every player cashed out; what the console changed survives a restart and a reload."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import Room, RoomSettings
from pokerroom.store import Role
from tests.waiting import until

from ..conftest import serve_room
from ..wire import Wire
from .conftest import FAST, Console, account

FIELDS = {
    "id": "console-nl",
    "name": "Console NL",
    "game": "holdem",
    "betting": "NL",
    "stakes": {"small_blind": 10, "big_blind": 20},
    "seats": 6,
    "timing": {"action": 2.0, "time_bank": 1.0, "between_hands": 0.05, "disconnect_grace": 3},
}


async def audit(c: Console, action: str) -> list[dict[str, Any]]:
    r = await c.http.get("/api/console/audit", params={"action": action}, headers=c.admin)
    entries: list[dict[str, Any]] = r.json()["entries"]
    return entries


async def open_table(c: Console, fields: dict[str, Any] = FIELDS) -> httpx.Response:
    return await c.http.post("/api/console/tables", json={"kind": "table", "fields": fields}, headers=c.admin)


async def stop(bots: list[Any]) -> None:
    for _, task in bots:
        task.cancel()
    await asyncio.gather(*(t for _, t in bots), return_exceptions=True)


@pytest.mark.asyncio
async def test_a_table_opened_in_the_console_is_in_the_lobby_and_played(console: Console) -> None:
    r = await open_table(console)
    assert r.status_code == 201, r.text
    assert r.json()["state"] == "playing"
    lobby = (await console.http.get("/api/lobby")).json()["tables"]
    assert [t["name"] for t in lobby if t["table"] == "console-nl"] == ["Console NL"]
    [entry] = await audit(console, "table.open")
    assert entry["target"] == "console-nl" and entry["after"] == FIELDS and entry["actor"]["name"] == "boss"
    bots = await start_bots(console.s.url, 2, ["caller"], tables=["console-nl"], think=(0, 0.01), seed=1)
    try:
        actor = console.s.room.tables["console-nl"]
        await until(lambda: actor.hands_played >= 2, timeout=60, what="two hands at the new table")
    finally:
        await stop(bots)
    assert (await console.store.verify()).ok


@pytest.mark.asyncio
async def test_bad_fields_are_named_by_key_and_open_nothing(console: Console) -> None:
    bad = {**FIELDS, "stakes": {"small_blind": 10, "big_blind": -5}, "seats": 99}
    r = await open_table(console, bad)
    assert r.status_code == 422
    problems = r.json()["detail"]["details"]["problems"]
    assert any(p.startswith("table.stakes") for p in problems), problems
    assert "console-nl" not in console.s.room.tables
    r = await open_table(console, {**FIELDS, "id": "holdem-nl", "unknown": 1})
    assert r.status_code == 422 and "unknown" in r.text
    existing = next(iter(console.s.room.tables))
    r = await open_table(console, {**FIELDS, "id": existing})
    assert r.status_code == 409
    assert await console.store.games.all() == [] and await audit(console, "table.") == []


@pytest.mark.asyncio
async def test_pause_message_watch_resume_and_close(console: Console) -> None:
    assert (await open_table(console)).status_code == 201
    room = console.s.room
    actor = room.tables["console-nl"]
    watcher = await Wire.open(console.s)
    await watcher.send({"type": "subscribe", "table": "console-nl", "ref": "w"})
    await watcher.until(lambda m: m["type"] == "snapshot")
    bots = await start_bots(console.s.url, 3, ["caller"], tables=["console-nl"], think=(0.05, 0.1), seed=2)
    try:
        await until(lambda: actor.table.in_hand, timeout=60, what="a hand deals")
        view = (await console.http.get("/api/console/tables/console-nl", headers=console.support)).json()[
            "view"
        ]
        hand = actor.table.hand
        assert hand is not None
        hidden = {str(c) for p in hand.players.values() if not p.shown for c in p.hole}
        assert hidden and not any(card in json.dumps(view) for card in hidden)  # never a hole card

        r = await console.http.post("/api/console/tables/console-nl/pause", headers=console.admin)
        assert r.status_code == 200 and r.json()["state"] == "paused"
        await watcher.until(lambda m: m["type"] == "chat" and "paused by the operator" in m["text"])
        in_progress = actor.hands_played  # the hand dealt when the pause came is played to its end
        await until(
            lambda: not actor.table.in_hand and actor.hands_played > in_progress,
            timeout=60,
            what="the hand dealt before the pause ends",
        )
        played = actor.hands_played
        assert actor.table.halted and len(actor.table.seats) == 3  # nobody left, nothing cashed out
        r = await console.http.post(
            "/api/console/tables/console-nl/message", json={"text": "break ends soon"}, headers=console.admin
        )
        assert r.status_code == 200
        chat = await watcher.until(lambda m: m["type"] == "chat" and "break ends soon" in m["text"])
        assert chat["from"] == "dealer" and chat["text"] == "Operator: break ends soon"
        assert actor.hands_played == played and not actor.table.in_hand

        r = await console.http.post("/api/console/tables/console-nl/resume", headers=console.admin)
        assert r.json()["state"] == "playing"
        await until(lambda: actor.hands_played > played, timeout=60, what="a hand after the break")

        r = await console.http.post("/api/console/tables/console-nl/close", headers=console.admin)
        assert r.status_code == 200
        await until(
            lambda: "console-nl" not in room.tables, timeout=60, what="the closed table leaves the room"
        )
    finally:
        await stop(bots)
        await watcher.close()
    assert await console.store.ledger.sessions(table_id="console-nl", open_only=True) == []
    assert (await console.store.verify()).ok
    actions = [e["action"] for e in await audit(console, "table.")]
    assert actions == ["table.close", "table.resume", "table.message", "table.pause", "table.open"]


def settings() -> RoomSettings:
    return RoomSettings(tables=tuple(demo_tables(FAST, games=("holdem", "stud"))))


@pytest.mark.asyncio
async def test_console_changes_survive_a_restart_and_a_reload(tmp_path: Path) -> None:
    file_tables = [t.table_id for t in settings().tables]
    closed, paused = file_tables[0], file_tables[1]
    async with (
        serve_room(tmp_path, settings(), durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin, _ = await account(http, s, "boss", Role.ADMIN)
        r = await http.post("/api/console/tables", json={"kind": "table", "fields": FIELDS}, headers=admin)
        assert r.status_code == 201
        assert (await http.post(f"/api/console/tables/{closed}/close", headers=admin)).status_code == 200
        assert (await http.post(f"/api/console/tables/{paused}/pause", headers=admin)).status_code == 200
        await until(lambda: closed not in s.room.tables, timeout=60, what=f"{closed} leaves the room")
    async with serve_room(tmp_path, settings(), durable=False) as s:
        room: Room = s.room
        assert "console-nl" in room.tables and closed not in room.tables
        assert room.tables[paused].held and room.tables[paused].table.halted
        # a reload of the same file: the console's word still wins
        await room.reconfigure(settings())
        assert "console-nl" in room.tables and not room.tables["console-nl"].closing
        assert closed not in room.tables and room.tables[paused].held


@pytest.mark.asyncio
@pytest.mark.allow_errors(
    "pokerroom.faults", reason="the injected bug and the suspension are logged as errors"
)
async def test_a_table_suspended_by_repeated_errors_is_named_by_readiness_and_resumed_in_the_console(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 28: the same bug three hands in a row suspends a table; /api/ready answers 503 naming it,
    the lobby shows it not playing, the console lists the reason, and the console's Resume lets it deal
    again (audited)."""
    from pokerroom.server import cash, history_glue

    assert (await open_table(console)).status_code == 201
    actor = console.s.room.tables["console-nl"]
    real = history_glue.histories_of
    broken = {"on": False}

    def histories_of(record: Any) -> Any:
        if broken["on"]:
            raise RuntimeError("injected bug")
        return real(record)

    monkeypatch.setattr(cash, "histories_of", histories_of)
    bots = await start_bots(console.s.url, 3, ["caller"], tables=["console-nl"], think=(0, 0.02), seed=4)
    try:
        await until(lambda: actor.hands_played >= 1, timeout=60, what="a first hand")
        broken["on"] = True
        await until(lambda: actor.suspended is not None, timeout=60, what="the table is suspended")
        http = console.http
        r = await http.get("/api/ready")
        assert r.status_code == 503
        assert any("console-nl" in x and "suspended" in x for x in r.json()["reasons"]), r.json()
        row = next(t for t in (await http.get("/api/lobby")).json()["tables"] if t["table"] == "console-nl")
        assert row["state"] == "suspended" and row["suspended"]
        games = (await http.get("/api/console/tables", headers=console.support)).json()["games"]
        listed = next(g for g in games if g["id"] == "console-nl")
        assert listed["state"] == "suspended" and "RuntimeError" in listed["reason"]
        metrics = (await http.get("/metrics")).text
        assert 'pokerroom_actor_errors_total{kind="cash"} 3.0' in metrics
        assert 'pokerroom_tables{kind="cash",state="suspended"} 1.0' in metrics
        support = await http.post("/api/console/tables/console-nl/resume", headers=console.support)
        assert support.status_code == 403  # support cannot
        broken["on"] = False
        played = actor.hands_played
        r = await http.post("/api/console/tables/console-nl/resume", headers=console.admin)
        assert r.status_code == 200 and r.json()["state"] == "playing", r.text
        await until(lambda: actor.hands_played >= played + 2, timeout=60, what="two hands after the resume")
        assert (await http.get("/api/ready")).status_code == 200
    finally:
        await stop(bots)
    entries = await audit(console, "table.resume")
    assert entries and "RuntimeError" in json.dumps(entries[0])
    assert (await console.store.verify()).ok

"""A player's reads on others and his preferences over HTTP (issue 31): notes and colour tags kept on the
server for their owner only (refused to anonymous callers; no other player ever sees or changes them),
renamed tag colours, bet-sizing presets; bad input a typed 400 that changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store.reads import NOTE_MAX, TAG_COLORS

from .conftest import FAST, LiveServer, serve_room
from .wire import PASSWORD

pytestmark = pytest.mark.asyncio


@dataclass
class Reads:
    s: LiveServer
    http: httpx.AsyncClient
    alice: dict[str, str]
    bob: dict[str, str]


async def _bearer(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[Reads]:
    settings = RoomSettings(tables=tuple(demo_tables(FAST, games=("holdem",))))
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        alice = await _bearer(http, "alice")
        bob = await _bearer(http, "bob")
        await _bearer(http, "carol")
        http.cookies.clear()
        yield Reads(s, http, alice, bob)


async def _notes(g: Reads, who: dict[str, str]) -> list[dict[str, Any]]:
    r = await g.http.get("/api/notes", headers=who)
    assert r.status_code == 200, r.text
    notes: list[dict[str, Any]] = r.json()["notes"]
    return notes


async def test_a_note_and_a_tag_are_kept_for_their_owner_only(room: Reads) -> None:
    r = await room.http.put(
        "/api/notes/players/Carol", json={"text": " calls too much ", "tag": "red"}, headers=room.alice
    )
    assert r.status_code == 200, r.text
    assert r.json()["note"] | {"updated_at": ""} == {
        "player": r.json()["note"]["player"],
        "name": "carol",
        "text": "calls too much",
        "tag": "red",
        "updated_at": "",
    }
    got = await _notes(room, room.alice)
    assert [(n["name"], n["text"], n["tag"]) for n in got] == [("carol", "calls too much", "red")]
    assert await _notes(room, room.bob) == []  # bob keeps no reads, and sees none of alice's
    # bob's own read on carol is his, and changes nothing of alice's
    r = await room.http.put("/api/notes/players/carol", json={"text": "tight", "tag": None}, headers=room.bob)
    assert r.status_code == 200, r.text
    assert [(n["text"], n["tag"]) for n in await _notes(room, room.alice)] == [("calls too much", "red")]
    assert [(n["text"], n["tag"]) for n in await _notes(room, room.bob)] == [("tight", None)]
    # bob's DELETE removes his own read only
    r = await room.http.delete("/api/notes/players/carol", headers=room.bob)
    assert r.json() == {"removed": True}
    assert await _notes(room, room.bob) == []
    assert len(await _notes(room, room.alice)) == 1
    # changing it again keeps one row; an empty note with no tag forgets the player
    await room.http.put("/api/notes/players/carol", json={"text": "", "tag": "blue"}, headers=room.alice)
    assert [(n["text"], n["tag"]) for n in await _notes(room, room.alice)] == [("", "blue")]
    r = await room.http.put("/api/notes/players/carol", json={"text": "  ", "tag": None}, headers=room.alice)
    assert r.json() == {"note": None}
    assert await _notes(room, room.alice) == []


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/notes"),
        ("PUT", "/api/notes/players/carol"),
        ("DELETE", "/api/notes/players/carol"),
        ("PUT", "/api/notes/tags"),
        ("GET", "/api/prefs"),
        ("PATCH", "/api/prefs"),
    ],
)
async def test_anonymous_callers_are_refused(room: Reads, method: str, path: str) -> None:
    await room.http.put("/api/notes/players/carol", json={"text": "kept", "tag": "red"}, headers=room.alice)
    body = {"text": "x", "tag": "red"} if "players" in path else {"presets": {"preflop": [3]}}
    r = await room.http.request(method, path, json=body if method in ("PUT", "PATCH") else None)
    assert (r.status_code, r.json()["detail"]["code"]) == (401, "login_required")
    assert [(n["text"], n["tag"]) for n in await _notes(room, room.alice)] == [("kept", "red")]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"text": "x" * (NOTE_MAX + 1), "tag": None}, "invalid_note", "text"),
        ({"text": 12, "tag": None}, "invalid_note", "text"),
        ({"text": "ok", "tag": "pink"}, "invalid_note", "tag"),
        ({"text": "ok", "tag": 3}, "invalid_note", "tag"),
    ],
)
async def test_a_bad_note_is_a_typed_400_and_changes_nothing(
    room: Reads, body: dict[str, Any], code: str, field: str
) -> None:
    await room.http.put("/api/notes/players/carol", json={"text": "kept", "tag": "red"}, headers=room.alice)
    r = await room.http.put("/api/notes/players/carol", json=body, headers=room.alice)
    assert (r.status_code, r.json()["code"], r.json()["details"]) == (400, code, {"field": field}), r.text
    assert [(n["text"], n["tag"]) for n in await _notes(room, room.alice)] == [("kept", "red")]


async def test_a_read_on_nobody_or_on_oneself_is_refused(room: Reads) -> None:
    r = await room.http.put("/api/notes/players/nobody", json={"text": "x"}, headers=room.alice)
    assert (r.status_code, r.json()["code"]) == (400, "unknown_player")
    r = await room.http.put("/api/notes/players/ALICE", json={"text": "me"}, headers=room.alice)
    assert (r.status_code, r.json()["code"], r.json()["details"]) == (
        400,
        "invalid_note",
        {"field": "player"},
    )
    r = await room.http.delete("/api/notes/players/nobody", headers=room.alice)
    assert (r.status_code, r.json()["code"]) == (400, "unknown_player")
    assert await _notes(room, room.alice) == []


async def test_tag_names_are_the_players_own(room: Reads) -> None:
    r = await room.http.get("/api/notes", headers=room.alice)
    assert r.json()["colors"] == list(TAG_COLORS) and r.json()["tag_names"] == {}
    r = await room.http.put("/api/notes/tags", json={"red": " maniac ", "blue": "nit"}, headers=room.alice)
    assert r.json() == {"tag_names": {"red": "maniac", "blue": "nit"}}
    r = await room.http.put("/api/notes/tags", json={"blue": ""}, headers=room.alice)  # back to its default
    assert r.json() == {"tag_names": {"red": "maniac"}}
    assert (await room.http.get("/api/notes", headers=room.bob)).json()["tag_names"] == {}
    for bad in ({"pink": "x"}, {"red": "x" * 25}, {"red": 5}):
        r = await room.http.put("/api/notes/tags", json=bad, headers=room.alice)
        assert (r.status_code, r.json()["code"]) == (400, "invalid_prefs"), bad
    assert (await room.http.get("/api/notes", headers=room.alice)).json()["tag_names"] == {"red": "maniac"}


async def test_presets_are_remembered_per_player(room: Reads) -> None:
    r = await room.http.get("/api/prefs", headers=room.alice)
    assert r.json()["presets"] == {"preflop": [2.5, 3.0, 4.0], "postflop": [33, 50, 75, 100]}
    r = await room.http.patch("/api/prefs", json={"presets": {"preflop": [3, 2.2, 3]}}, headers=room.alice)
    assert r.status_code == 200, r.text
    assert r.json()["presets"] == {"preflop": [2.2, 3.0], "postflop": [33, 50, 75, 100]}
    r = await room.http.patch("/api/prefs", json={"presets": {"postflop": [60]}}, headers=room.alice)
    assert r.json()["presets"] == {"preflop": [2.2, 3.0], "postflop": [60]}
    assert (await room.http.get("/api/prefs", headers=room.bob)).json()["presets"]["preflop"] == [
        2.5,
        3.0,
        4.0,
    ]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"presets": {"preflop": [1.0]}}, "presets.preflop"),  # under 1.5 big blinds
        ({"presets": {"preflop": [2.25]}}, "presets.preflop"),  # one decimal at most
        ({"presets": {"preflop": [True]}}, "presets.preflop"),
        ({"presets": {"preflop": [2, 3, 4, 5, 6]}}, "presets.preflop"),  # four at most
        ({"presets": {"preflop": []}}, "presets.preflop"),
        ({"presets": {"postflop": [50.5]}}, "presets.postflop"),
        ({"presets": {"postflop": [5]}}, "presets.postflop"),
        ({"presets": {"postflop": [501]}}, "presets.postflop"),
        ({"presets": {"river": [50]}}, "presets"),
        ({"presets": {"postflop": [50]}, "theme": "x"}, "theme"),  # unknown key: the valid part is not kept
    ],
)
async def test_bad_presets_are_a_typed_400_and_change_nothing(
    room: Reads, body: dict[str, Any], field: str
) -> None:
    r = await room.http.patch("/api/prefs", json=body, headers=room.alice)
    assert (r.status_code, r.json()["code"], r.json()["details"]) == (
        400,
        "invalid_prefs",
        {"field": field},
    ), r.text
    r = await room.http.get("/api/prefs", headers=room.alice)
    assert r.json()["presets"] == {"preflop": [2.5, 3.0, 4.0], "postflop": [33, 50, 75, 100]}


async def test_avatar_theme_and_card_back_are_kept_and_the_avatar_is_public(room: Reads) -> None:
    r = await room.http.get("/api/prefs", headers=room.alice)
    got = r.json()
    assert (got["avatar"], got["theme"], got["card_back"]) == (None, "green", "blue")
    assert len(got["choices"]["avatar"]) == 10 and len(got["choices"]["theme"]) == 4
    assert len(got["choices"]["card_back"]) == 3
    r = await room.http.patch(
        "/api/prefs", json={"avatar": "owl", "theme": "blue", "card_back": "red"}, headers=room.alice
    )
    assert (r.json()["avatar"], r.json()["theme"], r.json()["card_back"]) == ("owl", "blue", "red")
    for bad, field in (
        ({"avatar": "dragon"}, "avatar"),
        ({"theme": "pink"}, "theme"),
        ({"card_back": None}, "card_back"),
    ):
        r = await room.http.patch("/api/prefs", json=bad, headers=room.alice)
        assert (r.status_code, r.json()["code"], r.json()["details"]) == (
            400,
            "invalid_prefs",
            {"field": field},
        )
    r = await room.http.get("/api/prefs", headers=room.alice)
    assert (r.json()["avatar"], r.json()["theme"], r.json()["card_back"]) == ("owl", "blue", "red")
    assert (await room.http.get("/api/prefs", headers=room.bob)).json()["theme"] == "green"
    # Anybody may ask which avatars players chose (the tables show them): only the avatar, nothing else.
    r = await room.http.get("/api/avatars", params=[("name", "ALICE"), ("name", "bob"), ("name", "nobody")])
    assert r.status_code == 200 and r.json() == {"ALICE": "owl"}
    r = await room.http.get("/api/avatars", params=[("name", f"p{i}") for i in range(21)])
    assert (r.status_code, r.json()["detail"]["code"]) == (400, "invalid_field")
    r = await room.http.patch("/api/prefs", json={"avatar": None}, headers=room.alice)
    assert r.json()["avatar"] is None
    assert (await room.http.get("/api/avatars", params={"name": "alice"})).json() == {}

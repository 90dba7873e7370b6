"""Issue 34, defect 8: ``POST /api/admin/unlock`` validated its body before it checked the caller, so a
player learned what the endpoint takes (``422``) instead of being refused (``403``). Now the caller is
checked first, on every administrator's endpoint that takes a body: anonymous ``401``, a player ``403``,
whatever the body; only an administrator's bad body gets ``422``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.demo import demo_tables
from pokerroom.store import Role

from .conftest import FAST, LiveServer, live_server
from .wire import bearer, register

pytestmark = pytest.mark.asyncio
BAD_BODIES: list[Any] = [{}, {"name": 5}, {"name": ""}, ["alice"], "alice", None]


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[tuple[LiveServer, dict[str, str], dict[str, str]]]:
    async with live_server(tmp_path, demo_tables(FAST, games=("holdem",))) as s:
        player = await register(s, "alice")
        admin = await register(s, "boss")
        store = s.room.store
        await store.accounts.set_role((await store.accounts.find("boss")).id, Role.ADMIN)
        yield s, bearer(player), bearer(admin)


@pytest.mark.parametrize("path", ["/api/admin/unlock", "/api/admin/tournaments"])
async def test_the_caller_is_checked_before_the_body(
    room: tuple[LiveServer, dict[str, str], dict[str, str]], path: str
) -> None:
    s, player, admin = room
    async with httpx.AsyncClient(base_url=s.url, timeout=30) as http:
        for body in BAD_BODIES:
            r = await http.post(path, json=body)
            assert r.status_code == 401, (body, r.text)
            r = await http.post(path, json=body, headers=player)
            assert r.status_code == 403, (body, r.text)
            assert r.json()["detail"]["code"] == "forbidden"
            r = await http.post(
                path, content=b"{not json", headers={**player, "Content-Type": "application/json"}
            )
            assert r.status_code == 403, r.text
            r = await http.post(path, json=body, headers=admin)
            assert r.status_code == 422, (body, r.text)
        r = await http.post("/api/admin/unlock", json={"name": "alice"}, headers=admin)
        assert r.status_code == 200, r.text


async def test_the_consoles_endpoints_check_the_caller_first_too(
    room: tuple[LiveServer, dict[str, str], dict[str, str]],
) -> None:
    s, player, _ = room
    pid = (await s.room.store.accounts.find("alice")).id
    async with httpx.AsyncClient(base_url=s.url, timeout=30, headers=player) as http:
        for path in (
            f"/api/console/players/{pid}/adjust",
            f"/api/console/players/{pid}/lock",
            "/api/console/tournaments",
        ):
            for body in BAD_BODIES:
                r = await http.post(path, json=body)
                assert r.status_code == 403, (path, body, r.text)

"""Issue 34, defect 8: a session had no idle timeout: a token left in a browser on a shared computer worked
for its whole 12 hours. Now a session unused for 30 minutes (``pokerroom serve --session-idle``,
``Accounts.session_idle``) is over: ``401 token_expired``. A request with the token is a use; so is a
socket open with it. With the store's clock injected, against a live server."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Database, Store
from tests.store.storehelpers import FakeClock

from .conftest import FAST, serve_room
from .wire import bearer, register

pytestmark = pytest.mark.asyncio


async def test_a_session_left_unused_ends(tmp_path: Path) -> None:
    clock = FakeClock()
    store = Store(Database(f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"), clock=clock)
    await store.db.upgrade()
    settings = RoomSettings(tables=tuple(demo_tables(FAST, games=("holdem",))))
    async with serve_room(tmp_path, settings, store=store) as s:
        used = bearer(await register(s, "alice"))
        left = bearer(await register(s, "bob"))
        async with httpx.AsyncClient(base_url=s.url, timeout=30) as http:
            for _ in range(4):  # an hour of use, a request every quarter of an hour
                clock.advance(timedelta(minutes=15))
                r = await http.get("/api/account", headers=used)
                assert r.status_code == 200, r.text
            r = await http.get("/api/account", headers=left)
            assert r.status_code == 401
            assert r.json()["code"] == "token_expired" and "unused for 30 minutes" in r.json()["message"]
            clock.advance(timedelta(minutes=29))
            assert (await http.get("/api/account", headers=used)).status_code == 200
            clock.advance(timedelta(minutes=30))
            r = await http.get("/api/account", headers=used)
            assert r.status_code == 401 and r.json()["code"] == "token_expired"

"""A live room for the console tests: one hold'em table, an administrator, a support account, a player."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest_asyncio

from pokerroom.rooms import Timing
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import Role, Store

from ..conftest import LiveServer, serve_room
from ..wire import PASSWORD

FAST = Timing(action=2.0, time_bank=1.0, between_hands=0.05, offer_time=5, disconnect_grace=3)


@dataclass
class Console:
    s: LiveServer
    http: httpx.AsyncClient
    admin: dict[str, str]
    support: dict[str, str]
    player: dict[str, str]
    player_id: int

    @property
    def store(self) -> Store:
        return self.s.room.store


async def login(http: httpx.AsyncClient, name: str, password: str = PASSWORD) -> dict[str, str]:
    r = await http.post("/api/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}


async def account(
    http: httpx.AsyncClient, s: LiveServer, name: str, role: Role
) -> tuple[dict[str, str], int]:
    r = await http.post("/api/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    player = await s.room.store.accounts.find(name)
    if role is not Role.PLAYER:
        await s.room.store.accounts.set_role(player.id, role)
    return {"Authorization": f"Bearer {r.json()['token']}"}, player.id


@pytest_asyncio.fixture
async def console(tmp_path: Path) -> AsyncIterator[Console]:
    settings = RoomSettings(tables=tuple(demo_tables(FAST, games=("holdem",))))
    async with (
        serve_room(tmp_path, settings, durable=False) as s,
        httpx.AsyncClient(base_url=s.url, timeout=30) as http,
    ):
        admin, _ = await account(http, s, "boss", Role.ADMIN)
        support, _ = await account(http, s, "helpdesk", Role.SUPPORT)
        player, pid = await account(http, s, "alice", Role.PLAYER)
        http.cookies.clear()  # every request says who it is (an Authorization header) or is anonymous
        yield Console(s, http, admin, support, player, pid)

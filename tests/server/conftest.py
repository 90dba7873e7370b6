"""A real server for the tests: uvicorn on a free loopback port, a fresh SQLite store, fast clocks."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest_asyncio
import uvicorn
from argon2 import PasswordHasher

from pokerroom.rooms import TableConfig, Timing
from pokerroom.server.app import create_app
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import Room, RoomSettings
from pokerroom.server.uvicorn_read import ws_protocol
from pokerroom.store import Database, Store
from tests.waiting import until

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
FAST = Timing(action=2.0, time_bank=1.0, between_hands=0.05, offer_time=5, disconnect_grace=3)


@dataclass
class LiveServer:
    url: str
    room: Room
    store_url: str

    @property
    def ws(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start_serving(server: uvicorn.Server) -> asyncio.Task[None]:
    """``server.serve()`` in a task, once it accepts connections (a server that fails to start raises)."""
    task = asyncio.create_task(server.serve())
    await until(lambda: server.started or task.done(), timeout=120, every=0.02, what="uvicorn starts serving")
    if not server.started:
        await task  # (its error)
        raise AssertionError("uvicorn ended before it started serving")
    return task


@contextlib.asynccontextmanager
async def serve_room(
    tmp: Path, settings: RoomSettings, *, durable: bool = True, store: Store | None = None
) -> AsyncIterator[LiveServer]:
    """uvicorn on a free loopback port serving a room on a fresh SQLite store in ``tmp`` (or on ``store``);
    ``durable=False`` turns SQLite's syncing off for speed where durability is not under test."""
    url = f"sqlite+aiosqlite:///{tmp / 'room.db'}"
    if store is None:
        store = Store.open(url) if durable else Store(Database(url, sqlite_synchronous="OFF"))
    else:
        url = store.db.url
    store.accounts.hasher = FAST_HASHER  # test accounts: a cheap hash (the rules of passwords are the same)
    app = create_app(store, settings)
    port = free_port()
    server = uvicorn.Server(  # (the room's own reading of the clients' frames, as `pokerroom serve`)
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="error",
            ws_max_size=65536,
            ws=ws_protocol(),
            lifespan="on",
        )
    )
    task = await start_serving(server)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", app.state.room, url)
    finally:
        server.should_exit = True
        await task


@contextlib.asynccontextmanager
async def live_server(tmp: Path, tables: Sequence[TableConfig], **settings: Any) -> AsyncIterator[LiveServer]:
    async with serve_room(tmp, RoomSettings(tables=tuple(tables), **settings)) as s:
        yield s


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[LiveServer]:
    tables = demo_tables(FAST, games=("holdem", "stud", "irish", "deuce7_triple"))
    async with live_server(tmp_path, tables) as s:
        yield s

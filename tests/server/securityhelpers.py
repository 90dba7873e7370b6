"""Helpers of the security tests (issue 19): a live room with chosen security settings, a fake monotonic
clock for the throttles, clients from other loopback addresses, a password hasher that counts its checks."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import httpx
import uvicorn
from argon2 import PasswordHasher
from fastapi import FastAPI

from pokerroom.server.app import create_app
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.server.security import SecuritySettings
from pokerroom.server.uvicorn_read import ws_protocol
from pokerroom.store import Database, Store

from .conftest import FAST, LiveServer, free_port, start_serving
from .wire import PASSWORD


class FakeMonotonic:
    """A monotonic clock that only moves when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class CountingHasher(PasswordHasher):
    """argon2 with cheap parameters that counts its password checks (real or dummy)."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self._lock = threading.Lock()
        self.checks = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:  # (else it raises)
        with self._lock:
            self.checks += 1
        return super().verify(hash, password)


@dataclass
class SecureServer(LiveServer):
    app: FastAPI
    hasher: CountingHasher

    @property
    def origin(self) -> str:
        return self.url


@contextlib.asynccontextmanager
async def secure_server(
    tmp: Path,
    security: SecuritySettings | None = None,
    *,
    games: tuple[str, ...] = ("holdem",),
    **uvicorn_options: Any,
) -> AsyncIterator[SecureServer]:
    """A room on loopback with ``security``; by default uvicorn believes no proxy headers."""
    url = f"sqlite+aiosqlite:///{tmp / 'room.db'}"
    hasher = CountingHasher()
    store = Store(Database(url, sqlite_synchronous="OFF"), hasher=hasher)
    app = create_app(store, RoomSettings(tables=tuple(demo_tables(FAST, games=games))), security=security)
    port = free_port()
    options: dict[str, Any] = {"proxy_headers": False, "ws": ws_protocol(), **uvicorn_options}
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on", **options)
    )
    task = await start_serving(server)
    scheme = "https" if "ssl_certfile" in uvicorn_options else "http"
    try:
        yield SecureServer(f"{scheme}://127.0.0.1:{port}", app.state.room, url, app, hasher)
    finally:
        server.should_exit = True
        await task


def client(s: LiveServer, source: str = "127.0.0.1", **options: Any) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``source`` (any 127.x.y.z address is this machine)."""
    transport = httpx.AsyncHTTPTransport(local_address=source, verify=options.pop("verify", True))
    return httpx.AsyncClient(base_url=s.url, transport=transport, timeout=30, **options)


async def register(s: LiveServer, name: str, password: str = PASSWORD) -> httpx.AsyncClient:
    """Register ``name`` from a browser-like client that keeps its cookies; returns the client (open)."""
    http = client(s)
    r = await http.post("/api/register", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return http

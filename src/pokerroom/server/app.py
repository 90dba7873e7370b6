"""The ASGI application: HTTP API, WebSocket endpoint and the browser client's static files."""

from __future__ import annotations

import gc
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from pokerroom import __version__
from pokerroom.server.console import router as console_router
from pokerroom.server.console.apikeys import router as api_keys_router
from pokerroom.server.front import LocalFront, Node
from pokerroom.server.http import router, store_error_handler
from pokerroom.server.http_account import router as account_router
from pokerroom.server.http_cashier import router as cashier_router
from pokerroom.server.http_equity import router as equity_router
from pokerroom.server.http_gaming import router as gaming_router
from pokerroom.server.http_mystats import router as mystats_router
from pokerroom.server.http_reads import router as reads_router
from pokerroom.server.http_tournaments import router as tournaments_router
from pokerroom.server.integrity.http import router as integrity_router
from pokerroom.server.operations import failure_handler, metrics_router
from pokerroom.server.operations import router as operations_router
from pokerroom.server.operator_api import router as operator_api_router
from pokerroom.server.room import Room, RoomSettings
from pokerroom.server.security import SecurityMiddleware, SecuritySettings
from pokerroom.server.sessions import SessionSockets
from pokerroom.server.throttle import LoginGuard, RegisterGuard, TooManyAttempts
from pokerroom.server.ws import websocket_endpoint
from pokerroom.store import Store, StoreError

__all__ = ["SERVER_GC_THRESHOLDS", "WEB_DIR", "collect_as_a_server", "create_app"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# A server process's garbage collector (create_app's freeze_heap): young collections every 50,000 net
# allocations of container objects (Python's default: 700), each older generation after 20 and 10 of the
# one below (defaults 10 and 10). Side by side with 2,000 thinking players the p99 went from 38.7 to
# 20.0 ms; at 1,000 zero-think players the collections' stops fell from 23.7 s to 0.4 s in 175 s
# (docs/server-speed.md, item 14).
SERVER_GC_THRESHOLDS = (50_000, 20, 10)


def collect_as_a_server() -> None:
    """Collect, move what is alive now to the permanent generation, and collect on
    :data:`SERVER_GC_THRESHOLDS` from now on: for a process of its own (the server's, a load test's bots')."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)


def create_app(
    store: Store,
    settings: RoomSettings,
    *,
    freeze_heap: bool = False,
    security: SecuritySettings | None = None,
    node: Node | None = None,
) -> FastAPI:
    """An app serving one room on ``store``; the room starts with the app's lifespan. ``security``: its
    origins, limits and throttles (docs/security.md).

    ``freeze_heap`` (for a server process of its own, not for tests that start many apps in one process):
    once the room has started, the objects alive then (modules, classes, the room's configuration) move
    to the collector's permanent generation, so that a full garbage collection no longer walks them; each
    such walk stops the event loop. The collector's thresholds become :data:`SERVER_GC_THRESHOLDS` until
    the app stops: the young generation is collected every 50,000 allocations instead of 700, so that the
    objects of an action and of a hand die young instead of being promoted, and the older generations,
    whose collections stopped the loop for 25-500 ms, fill far more slowly (docs/decisions.md, "Garbage
    collection pauses").

    ``node``: a cluster's node (server/cluster: a gateway, a host, or both) instead of the one-process
    room; it starts and stops with the app, and serves the endpoints through its ``front``."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if node is None:
            room = Room(store, settings)
            await room.start()
            app.state.room = room
            app.state.front = LocalFront(room)
        else:
            await node.start()
            app.state.room = node.room
            app.state.front = node.front
        sessions.start()
        thresholds = gc.get_threshold()
        if freeze_heap:
            collect_as_a_server()
        try:
            yield
        finally:
            gc.set_threshold(*thresholds)
            findings = getattr(app.state, "findings", None)  # a console report's run: its child killed
            if findings is not None:
                await findings.stop()
            await sessions.stop()
            if node is None:
                await room.stop()
            else:
                await node.stop()
            await store.close()

    security = security or SecuritySettings()
    sessions = SessionSockets(store, recheck=security.session_recheck)

    app = FastAPI(
        title="pokerroom",
        version=__version__,
        description="An open online poker room. Real-time play uses the WebSocket protocol at /ws "
        "(docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.security = security
    app.state.sessions = sessions
    app.state.login_guard = LoginGuard(security.login, clock=security.clock)
    app.state.register_guard = RegisterGuard(security.register, clock=security.clock)
    app.include_router(router)
    app.include_router(tournaments_router)
    app.include_router(equity_router)
    app.include_router(operations_router)
    app.include_router(metrics_router)
    app.include_router(console_router)
    app.include_router(integrity_router)
    app.include_router(operator_api_router)  # the operator API, /api/v1 and /sso (issue 29)
    app.include_router(api_keys_router)  # the console's Operator API page (issue 29)
    app.include_router(cashier_router)
    app.include_router(account_router)  # accounts players manage (issue 29)
    app.include_router(gaming_router)  # responsible gaming (issue 29)
    app.include_router(mystats_router)  # lifetime statistics (issue 31)
    app.include_router(reads_router)  # players' notes, tags and preferences (issue 31)
    app.add_exception_handler(StoreError, store_error_handler)
    app.add_exception_handler(TooManyAttempts, store_error_handler)
    for kind in (SQLAlchemyError, OSError, TimeoutError, sqlite3.Error, Exception):
        app.add_exception_handler(kind, failure_handler)
    app.add_middleware(SecurityMiddleware, settings=security)
    app.add_api_websocket_route("/ws", websocket_endpoint)
    if (WEB_DIR / "index.html").exists():
        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(WEB_DIR / "index.html")

    return app

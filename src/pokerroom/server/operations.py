"""What an operator needs of a running room: liveness and readiness, and clear answers when the store
fails (docs/operations.md).

- ``GET /api/health``: liveness: the process answers (it says nothing about the database).
- ``GET /api/ready``: 200 when the room can serve: the database answers, its schema is current, no
  table waits for it and none is stopped by repeated errors; otherwise 503 with the reasons, each
  naming the table, pool or tournament. A load balancer sends players elsewhere meanwhile.
- ``GET /metrics``: the Prometheus metrics, for the operator only: a client on the room's own machine
  (a loopback address, not through a proxy), one with the metrics token (``SecuritySettings.metrics_token``:
  ``Authorization: Bearer ...``), or a logged-in administrator or support; anybody else gets 403.
- An HTTP request that meets an unavailable store (connection lost, server stopped or frozen, disk full)
  is answered 503 with ``{"code": "store_unavailable"}`` and ``Retry-After``; any other unexpected
  failure 500 with ``{"code": "internal_error"}``: never a bare error page or a dropped connection.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from pokerroom.server.front import Front
from pokerroom.server.metrics import CONTENT_TYPE
from pokerroom.server.security import SESSION_COOKIE, SecuritySettings, local_client
from pokerroom.store import Database, StoreError, unavailable

__all__ = [
    "READY_TIMEOUT_S",
    "failure_handler",
    "may_read_metrics",
    "metrics_router",
    "ready_report",
    "router",
]

log = logging.getLogger("pokerroom.operations")

router = APIRouter(prefix="/api")
metrics_router = APIRouter()
READY_TIMEOUT_S = 3.0  # a database that does not answer a ping within this is not ready


async def failure_handler(request: Request, exc: Exception) -> JSONResponse:
    """An exception no endpoint handled: 503 if the store is unavailable, else 500; JSON either way."""
    if unavailable(exc):
        log.warning(
            "%s %s: the store is unavailable (%s)", request.method, request.url.path, type(exc).__name__
        )
        return JSONResponse(
            {"code": "store_unavailable", "message": "the room cannot reach its store; try again shortly"},
            status_code=503,
            headers={"Retry-After": "2"},
        )
    log.exception("%s %s failed", request.method, request.url.path)
    return JSONResponse({"code": "internal_error", "message": "the request failed"}, status_code=500)


async def ready_report(room: Front) -> dict[str, Any]:
    """Whether the room can serve, and if not, why."""
    reasons: list[str] = []
    try:
        await asyncio.wait_for(room.store.db.ping(), READY_TIMEOUT_S)
    except Exception as exc:
        reasons.append(f"the database does not answer ({type(exc).__name__})")
    else:
        try:
            current = await asyncio.wait_for(room.store.db.current_revision(), READY_TIMEOUT_S)
            head = Database.head_revision()
            if current != head:
                reasons.append(f"the database schema is at {current}, not {head}: run pokerroom db upgrade")
        except Exception as exc:
            reasons.append(f"the database schema cannot be read ({type(exc).__name__})")
    reasons += room.unready()
    paused = room.paused()
    if paused:
        shown = ", ".join(sorted(paused)[:5]) + (" ..." if len(paused) > 5 else "")
        reasons.append(f"{len(paused)} table(s) wait for the store: {shown}")
    return {"ready": not reasons, "reasons": reasons}


async def may_read_metrics(request: Request) -> bool:
    """The operator's: a client on the room's own machine, the metrics token, or a staff session."""
    if local_client(request.scope):
        return True
    settings: SecuritySettings = request.app.state.security
    header = request.headers.get("authorization") or ""
    bearer = header[7:].strip() if header.lower().startswith("bearer ") else None
    token = settings.metrics_token
    if token and bearer and hmac.compare_digest(bearer.encode(), token.encode()):
        return True
    session = bearer or request.cookies.get(SESSION_COOKIE)
    if not session:
        return False
    front: Front = request.app.state.front
    try:
        player = await front.store.accounts.authenticate(session)
    except StoreError:  # (no such session, or an ended one)
        return False
    return player.is_staff


@metrics_router.get("/metrics", tags=["operations"], include_in_schema=True)
async def metrics(request: Request) -> Response:
    """The room's metrics in the Prometheus text format (server/metrics.py lists them), for the operator:
    a client on the room's own machine, one with the metrics token (``Authorization: Bearer``), or a
    logged-in administrator or support; anybody else gets ``403 forbidden``."""
    if not await may_read_metrics(request):
        message = "the metrics are the operator's: use the metrics token (docs/operations.md)"
        return JSONResponse({"code": "forbidden", "message": message}, status_code=403)
    front: Front = request.app.state.front
    return Response(front.metrics.text(), media_type=CONTENT_TYPE)


@router.get("/ready", tags=["operations"])
async def ready(request: Request) -> JSONResponse:
    """Readiness: 200 when the database answers, its schema is current and no table waits for it."""
    report = await ready_report(request.app.state.front)
    return JSONResponse(report, status_code=200 if report["ready"] else 503)

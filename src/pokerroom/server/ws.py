"""The WebSocket endpoint: authenticate, validate every frame, hand each request to its route.

A malformed, oversized or hostile frame gets an ``error`` frame with a stable code; the connection and
the table go on. A client that floods is rate limited, then disconnected. Where each message goes is
:mod:`pokerroom.server.routes`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerroom.server import protocol as p
from pokerroom.server.connection import Connection, FloodWindow, TokenBucket
from pokerroom.server.errors import Refused, error_frame
from pokerroom.server.front import Front
from pokerroom.server.http import COOKIE
from pokerroom.server.routes import handle, welcome
from pokerroom.server.security import SOCKET_RECEIVE, SOCKET_SEND, SecuritySettings
from pokerroom.server.sessions import SessionSockets
from pokerroom.server.uvicorn_direct import direct_writer
from pokerroom.store import StoreError, unavailable

__all__ = ["websocket_endpoint"]

log = logging.getLogger("pokerroom.ws")

_handle = handle  # (the loopback tests hand frames to the same function)
STORE_DOWN = 1013  # WebSocket close code "try again later": the store could not be asked
STORE_UNAVAILABLE = "the room cannot reach its store; try again shortly"


def _error(code: str, message: str, ref: str | None = None) -> str:
    return orjson.dumps(error_frame(Refused(code, message), ref)).decode()


def _sender(ws: WebSocket) -> Callable[[str], Awaitable[None]]:
    """How the connection sends a text frame once the socket is accepted: straight to the server's ASGI
    send that the security middleware kept (every frame of every watcher goes this way; Starlette's
    state checks and its two exception wrappers were a few per cent of the server's CPU in the load
    test's profile), else through Starlette."""
    send = ws.scope.get(SOCKET_SEND)
    if send is None:
        return ws.send_text

    async def send_text(text: str) -> None:
        await send({"type": "websocket.send", "text": text})

    return send_text


async def websocket_endpoint(ws: WebSocket) -> None:
    """Authentication: the ``pokerroom_token`` cookie at connect, or a ``hello`` frame with the token;
    never the URL (it lands in logs: a ``?token=`` is refused with ``token_in_url`` and not used). The
    socket belongs to its session until it closes (sessions.py). The upgrade's ``Origin`` was checked
    by the security middleware."""
    front: Front = ws.app.state.front
    security: SecuritySettings = ws.app.state.security
    sessions: SessionSockets = ws.app.state.sessions
    clock = security.clock
    await ws.accept()
    # frames straight to the socket under uvicorn (uvicorn_direct.py), else through the ASGI send
    direct = direct_writer(ws.scope.get(SOCKET_SEND))
    conn = Connection(_sender(ws), lambda code: ws.close(code), direct=direct)
    conn.messages = TokenBucket(front.settings.message_rate, front.settings.message_burst, stamp=clock())
    conn.start()
    if not await _log_in(front, sessions, conn, ws.cookies.get(COOKIE)):
        conn.end(_error("store_unavailable", STORE_UNAVAILABLE), STORE_DOWN)
        await conn.stop()
        return
    conn.send(orjson.dumps(welcome(conn)).decode())
    if "token" in ws.query_params:
        conn.send(
            _error("token_in_url", "send the session token in a hello frame or the cookie, not the URL")
        )
    flood = FloodWindow(security.flood_strikes, security.flood_window)
    # the server's ASGI receive, below Starlette's state checks (its one check that matters here, the
    # disconnect, is the loop's own), as the frames go out through its send
    receive = ws.scope.get(SOCKET_RECEIVE) or ws.receive
    try:
        while not conn.closed:
            frame = await receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            now = clock()
            if not conn.messages.take(now):
                conn.send(_error("rate_limited", "too many messages; slow down"))
                if flood.strike(now):
                    break
                continue
            try:
                msg = p.parse_client(raw)
            except p.ProtocolError as exc:
                conn.send(_error(exc.code, exc.message, exc.ref))
                continue
            if isinstance(msg, p.Hello) and msg.token and conn.player is None:
                if msg.version == p.PROTOCOL_VERSION and not await _log_in(front, sessions, conn, msg.token):
                    conn.send(_error("store_unavailable", STORE_UNAVAILABLE, msg.ref))
                    continue
            await front.handle(conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        sessions.discard(conn)
        await front.detach(conn)
        await conn.stop()


async def _log_in(front: Front, sessions: SessionSockets, conn: Connection, token: str | None) -> bool:
    """Attach ``conn`` to the player of ``token`` and to its session, if the token is valid. False when
    the store cannot be asked now: the client is told ``store_unavailable`` (the socket then closes with
    1013, "try again later", and the client reconnects)."""
    if not token:
        return True
    try:
        session = await front.store.accounts.session(token)
    except Exception as exc:
        if unavailable(exc):
            return False
        if isinstance(exc, StoreError):  # (no such session: anonymous, unless it just ended here)
            sessions.refuse_if_ended(conn, token)
            return True
        raise
    front.attach(conn, session.player)
    sessions.add(conn, token, session.expires_at)
    return True

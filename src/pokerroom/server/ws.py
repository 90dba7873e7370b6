"""The WebSocket endpoint: authenticate, validate every frame, hand each request to its route.

A malformed, oversized or hostile frame gets an ``error`` frame with a stable code; the connection and
the table go on. A client that floods is rate limited, then disconnected. Where each message goes is
:mod:`pokerroom.server.routes`.
"""

from __future__ import annotations

import logging

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerroom.server import protocol as p
from pokerroom.server.connection import Connection, TokenBucket
from pokerroom.server.errors import Refused, error_frame
from pokerroom.server.room import Room
from pokerroom.server.routes import handle, welcome
from pokerroom.store import Player, StoreError

__all__ = ["websocket_endpoint"]

log = logging.getLogger("pokerroom.ws")

_handle = handle  # (the loopback tests hand frames to the same function)


def _error(code: str, message: str, ref: str | None = None) -> str:
    return orjson.dumps(error_frame(Refused(code, message), ref)).decode()


async def _authenticate(room: Room, token: str | None) -> Player | None:
    if not token:
        return None
    try:
        return await room.store.accounts.authenticate(token)
    except StoreError:
        return None


async def websocket_endpoint(ws: WebSocket) -> None:
    room: Room = ws.app.state.room
    await ws.accept()
    conn = Connection(ws.send_text, lambda code: ws.close(code))
    conn.messages = TokenBucket(room.settings.message_rate, room.settings.message_burst)
    conn.start()
    player = await _authenticate(room, ws.query_params.get("token") or ws.cookies.get("pokerroom_token"))
    room.attach(conn, player)
    conn.send(orjson.dumps(welcome(conn)).decode())
    strikes = 0
    try:
        while not conn.closed:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes") or b""
            if not conn.messages.take():
                strikes += 1
                conn.send(_error("rate_limited", "too many messages; slow down"))
                if strikes > 200:
                    break
                continue
            try:
                msg = p.parse_client(raw)
            except p.ProtocolError as exc:
                conn.send(_error(exc.code, exc.message, exc.ref))
                continue
            await _handle(room, conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        await room.detach(conn)
        await conn.stop()

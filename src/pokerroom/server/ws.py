"""The WebSocket endpoint: authenticate, validate every frame, route requests to table actors.

A malformed, oversized or hostile frame gets an ``error`` frame with a stable code; the connection and
the table go on. A client that floods is rate limited, then disconnected.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, cast

import orjson
from pydantic import BaseModel
from starlette.websockets import WebSocket, WebSocketDisconnect

from pokerroom.engine import EngineError
from pokerroom.server import protocol as p
from pokerroom.server.actor import ActionRefused, TableActor
from pokerroom.server.connection import Connection, FloodWindow, TokenBucket
from pokerroom.server.http import COOKIE
from pokerroom.server.pool import pool_request
from pokerroom.server.room import Room
from pokerroom.server.security import SecuritySettings
from pokerroom.server.sessions import SessionSockets
from pokerroom.server.tournament import register_player, unregister_player
from pokerroom.store import Player, StoreError

__all__ = ["websocket_endpoint"]

log = logging.getLogger("pokerroom.ws")


def _error(code: str, message: str, ref: str | None = None) -> str:
    return orjson.dumps({"type": "error", "code": code, "message": message, "ref": ref}).decode()


def _ack(ref: str | None, duplicate: bool = False) -> str:
    return orjson.dumps({"type": "ack", "ref": ref, "duplicate": duplicate}).decode()


async def _authenticate(room: Room, token: str | None) -> Player | None:
    if not token:
        return None
    try:
        return await room.store.accounts.authenticate(token)
    except StoreError:
        return None


async def websocket_endpoint(ws: WebSocket) -> None:
    """Authentication: the ``pokerroom_token`` cookie at connect, or a ``hello`` frame with the token;
    never the URL (it lands in logs: a ``?token=`` is refused with ``token_in_url`` and not used). The
    socket belongs to its session until it closes (sessions.py). The upgrade's ``Origin`` was checked
    by the security middleware."""
    room: Room = ws.app.state.room
    security: SecuritySettings = ws.app.state.security
    sessions: SessionSockets = ws.app.state.sessions
    clock = security.clock
    await ws.accept()
    conn = Connection(ws.send_text, lambda code: ws.close(code))
    conn.messages = TokenBucket(room.settings.message_rate, room.settings.message_burst, stamp=clock())
    conn.start()
    await _log_in(room, sessions, conn, ws.cookies.get(COOKIE))
    conn.send(
        orjson.dumps(
            {
                "type": "welcome",
                "version": p.PROTOCOL_VERSION,
                "player": {"id": conn.player, "name": conn.name} if conn.player else None,
            }
        ).decode()
    )
    if "token" in ws.query_params:
        conn.send(
            _error("token_in_url", "send the session token in a hello frame or the cookie, not the URL")
        )
    flood = FloodWindow(security.flood_strikes, security.flood_window)
    try:
        while not conn.closed:
            frame = await ws.receive()
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
                if msg.version == p.PROTOCOL_VERSION:
                    await _log_in(room, sessions, conn, msg.token)
            await _handle(room, conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        sessions.discard(conn)
        await room.detach(conn)
        await conn.stop()


async def _log_in(room: Room, sessions: SessionSockets, conn: Connection, token: str | None) -> None:
    """Attach ``conn`` to the player of ``token`` and to its session, if the token is valid."""
    if not token:
        return
    try:
        session = await room.store.accounts.session(token)
    except StoreError:
        return
    room.attach(conn, session.player)
    sessions.add(conn, token, session.expires_at)


def _actor(room: Room, table: str) -> TableActor:
    # a tournament table answers the same requests as a table actor (server/tournament.py)
    actor = room.actors.get(table) or cast("TableActor | None", room.tournament_table(table))
    if actor is None:
        if room.is_pool_table(table):  # R212: nobody observes a Rush table
            raise ActionRefused("no_observers", "Rush tables cannot be observed")
        raise ActionRefused("unknown_table", "no such table")
    return actor


async def _guard(conn: Connection, ref: str | None, job: Callable[[], Awaitable[Any]]) -> Any:
    """Run a request; any refusal becomes an ``error`` frame with its stable code (and the request's ref)."""
    try:
        return await job()
    except ActionRefused as exc:
        conn.send(_error(exc.code, exc.message, ref))
    except EngineError as exc:  # engine and table errors: public information only
        conn.send(_error(exc.code, str(exc), ref))
    except StoreError as exc:
        conn.send(_error(getattr(exc, "code", "store_error"), str(exc), ref))
    except Exception:
        log.exception("request failed")
        conn.send(_error("internal_error", "the request failed", ref))
    return _FAILED


_FAILED = object()


async def _handle(room: Room, conn: Connection, msg: BaseModel) -> None:
    ref = getattr(msg, "ref", None)
    if isinstance(msg, p.Ping):
        conn.send(orjson.dumps({"type": "pong", "ref": ref}).decode())
    elif isinstance(msg, p.Hello):
        if msg.version != p.PROTOCOL_VERSION:
            conn.send(_error("bad_version", f"this server speaks protocol version {p.PROTOCOL_VERSION}", ref))
            return
        if msg.token and conn.player is None:
            player = await _authenticate(room, msg.token)
            if player is None:
                conn.send(_error("bad_token", "the session token is unknown or expired", ref))
                return
            room.attach(conn, player)
        conn.send(
            orjson.dumps(
                {
                    "type": "welcome",
                    "version": p.PROTOCOL_VERSION,
                    "player": {"id": conn.player, "name": conn.name} if conn.player else None,
                }
            ).decode()
        )
    elif isinstance(msg, p.Subscribe):

        async def sub() -> None:
            actor = _actor(room, msg.table)
            snap = await actor.call(lambda: actor.subscribe(conn))
            conn.tables.add(msg.table)
            conn.send(orjson.dumps(snap).decode())

        await _guard(conn, ref, sub)
    elif isinstance(msg, p.Unsubscribe):

        async def unsub() -> None:
            actor = _actor(room, msg.table)
            await actor.call(lambda: actor.unsubscribe(conn))
            conn.tables.discard(msg.table)
            conn.send(_ack(ref))

        await _guard(conn, ref, unsub)
    elif isinstance(msg, p.Sit):

        async def sit() -> None:
            actor = _actor(room, msg.table)
            await actor.call(lambda: actor.sit(conn, msg.seat, msg.buy_in, msg.post_now))
            conn.tables.add(msg.table)
            conn.send(_ack(ref))

        await _guard(conn, ref, sit)
    elif isinstance(msg, p.Act):

        async def act() -> None:
            actor = _actor(room, msg.table)
            action = msg.action.model_dump(exclude_none=True)
            dup = await actor.call(lambda: actor.act(conn, msg.hand_id, msg.action_no, action))
            conn.send(_ack(ref, bool(dup)))

        await _guard(conn, ref, act)
    elif isinstance(msg, p.Chat):
        if not conn.chats.take():
            conn.send(_error("chat_rate_limited", "you are chatting too fast", ref))
            return

        async def chat() -> None:
            actor = _actor(room, msg.table)
            await actor.call(lambda: actor.chat(conn, msg.text))

        await _guard(conn, ref, chat)
    elif isinstance(msg, p.LastHands):
        await _guard(conn, ref, lambda: _last_hands(room, conn, msg))
    elif isinstance(msg, p.PoolJoin | p.PoolLeave | p.QuickFold | p.PoolAct):
        await _guard(conn, ref, lambda: pool_request(room, conn, msg))
    elif isinstance(msg, p.TournamentRegister | p.TournamentUnregister):
        await _guard(conn, ref, lambda: _tournament(room, conn, msg))
    else:
        await _guard(conn, ref, lambda: _request(room, conn, msg))


async def _request(room: Room, conn: Connection, msg: BaseModel) -> None:
    data = msg.model_dump(exclude={"ref", "type", "table"})
    actor = _actor(room, msg.table)  # type: ignore[attr-defined]
    kind = msg.type  # type: ignore[attr-defined]
    await actor.call(lambda: actor.request(conn, kind, **data))
    conn.send(_ack(getattr(msg, "ref", None)))


async def _tournament(
    room: Room, conn: Connection, msg: p.TournamentRegister | p.TournamentUnregister
) -> None:
    if conn.player is None:
        raise ActionRefused("login_required", "log in first")
    if isinstance(msg, p.TournamentRegister):
        await register_player(room, msg.tournament, conn.player, conn.name, ticket=msg.ticket)
    else:
        await unregister_player(room, msg.tournament, conn.player)
    conn.send(_ack(msg.ref))


async def _last_hands(room: Room, conn: Connection, msg: p.LastHands) -> None:
    if conn.player is None:
        raise ActionRefused("login_required", "log in first")
    if msg.hand_id is None:
        hands = [
            {
                "hand_id": h.hand_id,
                "table": h.table_name,
                "started_at": h.started_at.isoformat(),
                "variant": h.variant,
                "seat": h.seat_of(conn.player),
            }
            for h in room.last_hands.hands(conn.player)
        ]
        conn.send(orjson.dumps({"type": "last_hands", "hands": hands}).decode())
        return
    record = room.last_hands.get(conn.player, msg.hand_id)
    if record is None:
        raise ActionRefused("unknown_hand", "that hand is not among your last 50 hands of this session")
    seat = record.seat_of(conn.player)
    events = [e.to_dict() for e in record.events_for(seat)]
    players = {str(s): name for s, (_, name) in record.players.items()}
    conn.send(
        orjson.dumps(
            {
                "type": "last_hand",
                "hand_id": record.hand_id,
                "table": record.table_name,
                "seat": seat,
                "players": players,
                "events": events,
            }
        ).decode()
    )

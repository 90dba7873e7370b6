"""Where each client message goes: the actor that owns the table, pool or tournament it names.

A request runs inside its actor (``actor.call``), so nothing else touches the actor's state meanwhile.
Any refusal becomes an ``error`` frame with its stable code, the request's ``ref`` and the error's typed
``details`` (:mod:`pokerroom.server.errors`); a request that succeeds is answered ``ack`` (or its own
answer: ``snapshot``, ``pool_joined``, ``last_hands``, ...).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from pydantic import BaseModel

from pokerroom.engine import EngineError
from pokerroom.history import HistoryError, Verdict, read_phh, verify_hand
from pokerroom.server import last_hand
from pokerroom.server import protocol as p
from pokerroom.server.cash import CashActor, login_of
from pokerroom.server.connection import Connection
from pokerroom.server.errors import Refused, error_frame
from pokerroom.server.ids import store_id
from pokerroom.server.room import Room
from pokerroom.server.tournament import TournamentActor
from pokerroom.store import Store, StoreError, UnknownHand, unavailable

__all__ = ["handle", "send_error", "verify_own_hand"]

log = logging.getLogger("pokerroom.ws")


def _send(conn: Connection, frame: dict[str, Any]) -> None:
    conn.send(orjson.dumps(frame).decode())


def send_error(conn: Connection, exc: BaseException, ref: str | None = None) -> None:
    _send(conn, error_frame(exc, ref))


def _ack(conn: Connection, ref: str | None, duplicate: bool = False) -> None:
    _send(conn, {"type": "ack", "ref": ref, "duplicate": duplicate})


async def _acked(conn: Connection, ref: str | None, action: Awaitable[bool]) -> None:
    """Run a player's action inside its actor and queue the ``ack`` there, right after the events and the
    next turn the action caused: a batching client gets them in one message (docs/protocol.md), one write
    less per action than an ack queued once the actor's job is back. A refused action raises as before."""
    duplicate = await action
    _ack(conn, ref, bool(duplicate))


def welcome(conn: Connection) -> dict[str, Any]:
    return {
        "type": "welcome",
        "version": p.PROTOCOL_VERSION,
        "player": {"id": conn.player, "name": conn.name} if conn.player else None,
        "batch": conn.batch,
    }


async def _guard(conn: Connection, ref: str | None, job: Callable[[], Awaitable[None]]) -> None:
    """Run a request; any refusal becomes an ``error`` frame (with the request's ref)."""
    try:
        await job()
    except (Refused, EngineError, StoreError) as exc:
        send_error(conn, exc, ref)
    except Exception as exc:
        if not unavailable(exc):
            log.exception("request failed")
        send_error(conn, exc, ref)


def _table(room: Room, table: str) -> CashActor | TournamentActor:
    actor = room.tables.get(table)
    if actor is not None:
        return actor
    tournament = room.tournament_of_table(table)
    if tournament is not None:
        return tournament
    if room.is_pool_table(table):  # R212: nobody observes a Rush table
        raise Refused("no_observers", "Rush tables cannot be observed", table=table)
    raise Refused("unknown_table", "no such table", table=table)


async def handle(room: Room, conn: Connection, msg: BaseModel) -> None:
    """Answer one validated client message."""
    ref: str | None = getattr(msg, "ref", None)
    if isinstance(msg, p.Ping):
        _send(conn, {"type": "pong", "ref": ref})
    elif isinstance(msg, p.Hello):
        await _hello(room, conn, msg)
    elif isinstance(msg, p.Chat) and not conn.chats.take():
        _send(conn, error_frame(Refused("chat_rate_limited", "you are chatting too fast"), ref))
    else:
        await _guard(conn, ref, lambda: _route(room, conn, msg, ref))


async def _hello(room: Room, conn: Connection, msg: p.Hello) -> None:
    if msg.version != p.PROTOCOL_VERSION:
        text = f"this server speaks protocol version {p.PROTOCOL_VERSION}"
        send_error(conn, Refused("bad_version", text, version=p.PROTOCOL_VERSION), msg.ref)
        return
    if msg.token and conn.player is None:
        try:
            player = await room.store.accounts.authenticate(msg.token)
        except StoreError:
            send_error(conn, Refused("bad_token", "the session token is unknown or expired"), msg.ref)
            return
        room.attach(conn, player)
    conn.batch = msg.batch
    _send(conn, welcome(conn))


async def _route(room: Room, conn: Connection, msg: BaseModel, ref: str | None) -> None:
    if isinstance(msg, p.Subscribe | p.Unsubscribe | p.Act | p.Chat):
        await _table_message(room, conn, msg, ref)
    elif isinstance(msg, p.Sit):
        cash = _cash(room, msg.table)
        await cash.call(lambda: cash.sit(conn, msg.seat, msg.buy_in, msg.post_now))
        conn.tables.add(msg.table)
        _ack(conn, ref)
    elif isinstance(msg, p.Leave | p.TopUp | p.SitOut | p.SitIn | p.Settings | p.WaitingList | p.AnswerPost):
        await _table_request(room, conn, msg, ref)
    elif isinstance(msg, p.LastHands):
        _last_hands(room, conn, msg)
    elif isinstance(msg, p.VerifyHand):
        await verify_own_hand(room.store, conn, msg, ref)
    elif isinstance(msg, p.PoolJoin | p.PoolLeave | p.QuickFold | p.PoolAct):
        await _pool(room, conn, msg, ref)
    elif isinstance(msg, p.TournamentRegister):
        player = login_of(conn)
        t = room.tournament(msg.tournament)
        await t.call(lambda: t.register(player, conn.name, ticket=msg.ticket))
        _ack(conn, ref)
    elif isinstance(msg, p.TournamentUnregister):
        player = login_of(conn)
        t = room.tournament(msg.tournament)
        await t.call(lambda: t.unregister(player))
        _ack(conn, ref)
    else:  # pragma: no cover - every client message type is routed above
        raise Refused("unknown_request", "unknown request")


def _cash(room: Room, table: str) -> CashActor:
    actor = _table(room, table)
    if isinstance(actor, TournamentActor):
        raise Refused("tournament_table", "register for the tournament to play", table=table)
    return actor


async def _table_message(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    actor = _table(room, msg.table)
    table: str = msg.table
    if isinstance(msg, p.Subscribe):
        if isinstance(actor, CashActor):
            snap = await actor.call(lambda: actor.subscribe(conn))
        else:
            snap = await actor.call(lambda: actor.subscribe(conn, table))
        conn.tables.add(table)
        _send(conn, snap)
    elif isinstance(msg, p.Unsubscribe):
        if isinstance(actor, CashActor):
            await actor.call(lambda: actor.unsubscribe(conn))
        else:
            await actor.call(lambda: actor.unsubscribe(conn, table))
        conn.tables.discard(table)
        _ack(conn, ref)
    elif isinstance(msg, p.Act):
        action = msg.action.model_dump(exclude_none=True)
        if isinstance(actor, CashActor):
            await actor.call(lambda: _acked(conn, ref, actor.act(conn, msg.hand_id, msg.action_no, action)))
        else:
            await actor.call(
                lambda: _acked(conn, ref, actor.act(conn, table, msg.hand_id, msg.action_no, action))
            )
    else:
        if isinstance(actor, CashActor):
            await actor.call(lambda: actor.chat(conn, msg.text))
        else:
            await actor.call(lambda: actor.chat(conn, table, msg.text))


async def _table_request(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    actor = _table(room, msg.table)
    kind: str = msg.type
    if isinstance(actor, CashActor):
        data = msg.model_dump(exclude={"ref", "type", "table"})
        await actor.call(lambda: actor.request(conn, kind, **data))
    else:
        table: str = msg.table
        await actor.call(lambda: actor.table_request(conn, table, kind))
    _ack(conn, ref)


async def _pool(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    actor = room.pool(msg.pool)
    if isinstance(actor, TournamentActor):
        if isinstance(msg, p.PoolJoin):
            raise Refused("tournament_pool", "register for the tournament to play", pool=msg.pool)
        if isinstance(msg, p.PoolLeave):
            raise Refused("tournament_pool", "a tournament is played to the end", pool=msg.pool)
        if isinstance(msg, p.QuickFold):
            await actor.call(lambda: actor.quick_fold(conn, msg.entry))
            _ack(conn, ref)
            return
        action = msg.action.model_dump(exclude_none=True)
        await actor.call(
            lambda: _acked(conn, ref, actor.pool_act(conn, msg.entry, msg.hand_id, msg.action_no, action))
        )
        return
    if isinstance(msg, p.PoolJoin):
        numbers = await actor.call(lambda: actor.join(conn, msg.entries, msg.buy_in))
        _send(conn, {"type": "pool_joined", "pool": actor.pid, "entries": numbers, "ref": ref})
    elif isinstance(msg, p.PoolLeave):
        await actor.call(lambda: actor.leave(conn, msg.entry))
        _ack(conn, ref)
    elif isinstance(msg, p.QuickFold):
        await actor.call(lambda: actor.quick_fold(conn, msg.entry))
        _ack(conn, ref)
    else:
        action = msg.action.model_dump(exclude_none=True)
        await actor.call(
            lambda: _acked(conn, ref, actor.act(conn, msg.entry, msg.hand_id, msg.action_no, action))
        )


def _last_hands(room: Room, conn: Connection, msg: p.LastHands) -> None:
    _send(conn, last_hand.answer(room.last_hands, login_of(conn), msg.hand_id))


async def verify_own_hand(store: Store, conn: Connection, msg: p.VerifyHand, ref: str | None) -> None:
    """Check the deck proof of the player's own history of a hand, as ``pokerroom verify`` does (the store
    only: a cluster's gateway answers it itself)."""
    player = login_of(conn)
    try:
        own = await store.histories.player_hand(store_id(player), msg.hand_id)
    except UnknownHand:
        raise Refused("unknown_hand", "you have no history of that hand", hand_id=msg.hand_id) from None
    try:
        verdict = verify_hand(read_phh(own.phh))
    except HistoryError as exc:
        verdict = Verdict(msg.hand_id, ok=False, problems=[f"the history cannot be read: {exc}"])
    _send(conn, {"type": "hand_verified", "ref": ref, **verdict.to_dict(), "hand_id": msg.hand_id})

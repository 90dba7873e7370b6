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

from pydantic import BaseModel

from pokerroom.engine import EngineError
from pokerroom.history import HistoryError, Verdict, read_phh, verify_hand
from pokerroom.server import last_hand
from pokerroom.server import protocol as p
from pokerroom.server.cash import login_of
from pokerroom.server.connection import Connection, send_frame
from pokerroom.server.errors import SERVER_CODES, Refused, error_frame
from pokerroom.server.ids import store_id
from pokerroom.server.room import Room
from pokerroom.store import Store, StoreError, UnknownHand, unavailable

__all__ = ["handle", "send_error", "verify_own_hand"]

log = logging.getLogger("pokerroom.ws")


def _send(conn: Connection, frame: dict[str, Any]) -> None:
    send_frame(conn.send, frame)


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


async def handle(room: Room, conn: Connection, msg: BaseModel) -> None:
    """Answer one validated client message."""
    ref: str | None = getattr(msg, "ref", None)
    if isinstance(msg, p.Ping):
        _send(conn, {"type": "pong", "ref": ref})
    elif isinstance(msg, p.Hello):
        await _hello(room, conn, msg)
    elif isinstance(msg, p.Chat | p.TournamentChat) and not conn.chats.take():
        _send(conn, error_frame(Refused("chat_rate_limited", "you are chatting too fast"), ref))
    else:
        handler = HANDLERS.get(type(msg))
        if handler is None:  # pragma: no cover - every client message type has a handler (tested)
            send_error(conn, Refused("unknown_request", "unknown request"), ref)
            return
        await _guard(conn, ref, lambda: handler(room, conn, msg, ref))


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


# ------------------------------------------------------------------------------------------- tables
# Each handler finds the endpoint its message names (server/endpoints.py) and runs the call inside the
# endpoint's owner; nothing here asks what kind of table or actor it is.


async def _subscribe(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.table(msg.table)
    snapshot = await ep.owner.call(lambda: ep.subscribe(conn))
    conn.tables.add(msg.table)
    _send(conn, snapshot)


async def _unsubscribe(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.table(msg.table)
    await ep.owner.call(lambda: ep.unsubscribe(conn))
    conn.tables.discard(msg.table)
    _ack(conn, ref)


async def _act(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.table(msg.table)
    action = msg.action.model_dump(exclude_none=True)
    await ep.owner.call(lambda: _acked(conn, ref, ep.act(conn, msg.hand_id, msg.action_no, action)))


async def _chat(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.table(msg.table)
    await ep.owner.call(lambda: ep.chat(conn, msg.text))


async def _sit(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.table(msg.table)
    await ep.owner.call(lambda: ep.sit(conn, msg.seat, msg.buy_in, msg.post_now))
    conn.tables.add(msg.table)
    _ack(conn, ref)


async def _table_request(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.table(msg.table)
    data = msg.model_dump(exclude={"ref", "type", "table"})
    await ep.owner.call(lambda: ep.request(conn, msg.type, data))
    _ack(conn, ref)


# -------------------------------------------------------------------------------------------- pools


async def _pool_join(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.pool(msg.pool)
    numbers = await ep.owner.call(lambda: ep.join(conn, msg.entries, msg.buy_in))
    _send(conn, {"type": "pool_joined", "pool": msg.pool, "entries": numbers, "ref": ref})


async def _pool_leave(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.pool(msg.pool)
    await ep.owner.call(lambda: ep.leave(conn, msg.entry))
    _ack(conn, ref)


async def _quick_fold(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.pool(msg.pool)
    await ep.owner.call(lambda: ep.quick_fold(conn, msg.entry))
    _ack(conn, ref)


async def _pool_act(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    ep = room.endpoints.pool(msg.pool)
    action = msg.action.model_dump(exclude_none=True)
    await ep.owner.call(
        lambda: _acked(conn, ref, ep.act(conn, msg.entry, msg.hand_id, msg.action_no, action))
    )


# ---------------------------------------------------------------------------------- tournaments


async def _register(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    player = login_of(conn)
    t = room.tournament(msg.tournament)
    await t.call(lambda: t.register(player, conn.name, ticket=msg.ticket))
    _ack(conn, ref)


async def _unregister(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    player = login_of(conn)
    t = room.tournament(msg.tournament)
    await t.call(lambda: t.unregister(player))
    _ack(conn, ref)


async def _follow(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    t = room.tournament(msg.tournament)
    await t.call(lambda: t.follow(conn, msg.follow))
    _ack(conn, ref)


async def _tournament_chat(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    t = room.tournament(msg.tournament)
    await t.call(lambda: t.lobby_chat(conn, msg.text))
    _ack(conn, ref)


# ------------------------------------------------------------------------------------- the room


async def _last_hands(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    _send(conn, last_hand.answer(room.last_hands, login_of(conn), msg.hand_id))


async def _verify_hand(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    await verify_own_hand(room.store, conn, msg, ref)


async def _contribute(room: Room, conn: Connection, msg: Any, ref: str | None) -> None:
    """A player's entropy for the next hand at a table or pool (docs/fairness.md): kept for its deal."""
    dealer = getattr(room.rng, "dealer", None)
    if dealer is None:
        raise Refused("stale_seed", SERVER_CODES["stale_seed"])
    dealer.contribute(msg.table, login_of(conn), msg.seed, msg.value)
    _ack(conn, ref)


Handler = Callable[[Room, Connection, Any, "str | None"], Awaitable[None]]

HANDLERS: dict[type[BaseModel], Handler] = {
    p.Subscribe: _subscribe,
    p.Unsubscribe: _unsubscribe,
    p.Act: _act,
    p.Chat: _chat,
    p.Sit: _sit,
    p.Leave: _table_request,
    p.TopUp: _table_request,
    p.SitOut: _table_request,
    p.SitIn: _table_request,
    p.Settings: _table_request,
    p.WaitingList: _table_request,
    p.AnswerPost: _table_request,
    p.ChooseGame: _table_request,
    p.PoolJoin: _pool_join,
    p.PoolLeave: _pool_leave,
    p.QuickFold: _quick_fold,
    p.PoolAct: _pool_act,
    p.TournamentRegister: _register,
    p.TournamentUnregister: _unregister,
    p.TournamentFollow: _follow,
    p.TournamentChat: _tournament_chat,
    p.LastHands: _last_hands,
    p.VerifyHand: _verify_hand,
    p.Contribute: _contribute,
}
"""Every client message but ``ping`` and ``hello`` (answered at once), by type: its handler."""


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

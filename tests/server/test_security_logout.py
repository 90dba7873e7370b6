"""Issue 19, defect 1: a session that ends (logout, expiry, revoked elsewhere) ends every WebSocket logged
in with it at once; before, a socket opened before logout stayed logged in and could still sit down with
a buy-in taken from the wallet."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import websockets

from pokerroom.server.protocol import PROTOCOL_VERSION
from pokerroom.server.sessions import SessionSockets
from tests.waiting import until

from .securityhelpers import SecureServer, client, register, secure_server
from .wire import Wire

pytestmark = pytest.mark.asyncio
TABLE = "holdem-nl"


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[SecureServer]:
    async with secure_server(tmp_path) as s:
        yield s


async def _ended(w: Wire) -> dict[str, Any]:
    """The ``session_ended`` frame, then the close (code 4401)."""
    frame = await w.until(lambda m: m["type"] == "error" and m["code"] == "session_ended")
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await w.until(lambda m: False)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    return frame


async def _wallet(http: Any) -> int:
    return int((await http.get("/api/account")).json()["balances"]["PLAY"])


async def test_logout_ends_every_socket_of_the_session_at_once(room: SecureServer) -> None:
    alice = await register(room, "alice")
    token = alice.cookies["pokerroom_token"]
    first, second = await Wire.open(room, token), await Wire.open(room, token)
    hello = await Wire.open(room)  # logged in by a hello frame after connecting
    await hello.send({"type": "hello", "version": PROTOCOL_VERSION, "token": token, "ref": "h"})
    assert (await hello.until(lambda m: m["type"] == "welcome" and m["player"] is not None))["player"]
    async with client(room) as phone:  # alice's other session, on another device
        other = await phone.post("/api/login", json={"name": "alice", "password": "hunter-22-poker"})
    elsewhere = await Wire.open(room, other.json()["token"])
    wallet = await _wallet(alice)

    r = await alice.post("/api/logout")
    assert r.status_code == 200
    for w in (first, second, hello):
        frame = await _ended(w)
        assert frame["details"]["reason"] == "logged_out"
    # what the issue saw: the old socket sitting down after logout, with a buy-in from the wallet
    with pytest.raises(websockets.ConnectionClosed):
        await first.send({"type": "sit", "table": TABLE, "seat": 1, "buy_in": 800, "ref": "s"})
        await first.reply("s", timeout=5)
    assert room.room.tables[TABLE].table.seats == {}
    # the other session is not this one: it goes on
    await elsewhere.send({"type": "ping", "ref": "still"})
    assert (await elsewhere.until(lambda m: m["type"] == "pong"))["ref"] == "still"
    assert (await alice.post("/api/login", json={"name": "alice", "password": "hunter-22-poker"})).is_success
    assert await _wallet(alice) == wallet  # nothing was taken from the wallet
    await elsewhere.close()
    await alice.aclose()


async def test_an_expired_session_ends_its_sockets(room: SecureServer) -> None:
    room.room.store.accounts.session_ttl = timedelta(seconds=2)
    alice = await register(room, "alice")
    w = await Wire.open(room, alice.cookies["pokerroom_token"])
    assert (await _ended(w))["details"]["reason"] == "expired"
    assert (await alice.get("/api/account")).status_code == 401
    await alice.aclose()


async def test_a_session_revoked_elsewhere_ends_its_sockets_at_the_next_recheck(room: SecureServer) -> None:
    alice = await register(room, "alice")
    token = alice.cookies["pokerroom_token"]
    w = await Wire.open(room, token)
    await room.room.store.accounts.logout(token)  # e.g. by another process on the same database
    sessions: SessionSockets = room.app.state.sessions
    # the socket is registered once its welcome went out
    await until(lambda: sessions.sockets(token), timeout=15, what="the socket is registered with its session")
    assert await sessions.recheck_now() == 1
    assert (await _ended(w))["details"]["reason"] == "revoked"
    await alice.aclose()

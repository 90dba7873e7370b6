"""The room online: HTTP API, WebSocket protocol, money through the ledger (issue: server)."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest
import websockets

from pokerroom.bots.runner import start_bots

from .conftest import LiveServer
from .wire import auth, recv_until, register

pytestmark = pytest.mark.asyncio


async def test_http_register_login_lobby_health_openapi(server: LiveServer) -> None:
    token = await register(server, "alice")
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.post("/api/register", json={"name": "alice", "password": "hunter-22-poker"})
        assert r.status_code == 409 and r.json()["code"] == "name_taken"
        r = await http.post("/api/login", json={"name": "alice", "password": "wrong-password-1"})
        assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
        me = (await http.get("/api/account", headers={"Authorization": f"Bearer {token}"})).json()
        assert me["player"]["name"] == "alice" and me["balances"]["PLAY"] > 0
        assert (await http.get("/api/account")).status_code == 401
        lobby = (await http.get("/api/lobby", params={"game": "stud"})).json()["tables"]
        assert [t["variant"] for t in lobby] == ["stud"]
        assert (await http.get("/api/lobby", params={"betting": "XX"})).status_code == 422
        assert (await http.get("/api/health")).json()["ok"]
        spec = (await http.get("/openapi.json")).json()
        assert "/api/register" in spec["paths"] and "/api/lobby" in spec["paths"]
        ledger = (await http.get("/api/account/ledger", headers={"Authorization": f"Bearer {token}"})).json()
        assert ledger["entries"][0]["amount"] == me["balances"]["PLAY"]


async def test_a_player_sits_plays_against_bots_and_cashes_out(server: LiveServer) -> None:
    token = await register(server, "carol")
    bots = await start_bots(server.url, 2, ["caller"], tables=["holdem-nl"], think=(0, 0.01))
    try:
        async with websockets.connect(server.ws, additional_headers=auth(token)) as ws:
            welcome = orjson.loads(await ws.recv())
            assert welcome["type"] == "welcome" and welcome["player"]["name"] == "carol"
            await ws.send(orjson.dumps({"type": "subscribe", "table": "holdem-nl", "ref": "s"}).decode())
            snap = await recv_until(ws, lambda m: m["type"] == "snapshot")
            taken = {int(s) for s in snap["state"]["players"]}
            for _ in range(snap["state"]["seats"]):  # the bots may take a seat the snapshot showed free
                seat = min(set(range(1, snap["state"]["seats"] + 1)) - taken)
                await ws.send(
                    orjson.dumps(
                        {"type": "sit", "table": "holdem-nl", "seat": seat, "buy_in": 2000, "ref": "sit"}
                    ).decode()
                )
                answer = await recv_until(
                    ws, lambda m: m["type"] in ("ack", "error") and m.get("ref") == "sit"
                )
                if answer["type"] == "ack":
                    break
                assert answer["code"] == "seat_taken", answer
                taken.add(seat)
            assert answer["type"] == "ack"
            played, acts, balances = 0, 0, 0
            acks: list[dict[str, Any]] = []
            while played < 3:
                # One stream of frames: an act's ack may arrive after the next turn it caused.
                msg = await recv_until(
                    ws, lambda m: m["type"] in ("turn", "event", "ack", "error", "balance"), timeout=30
                )
                if msg["type"] == "balance":
                    balances += 1
                elif msg["type"] in ("ack", "error"):
                    if msg.get("ref") == "a":
                        acks.append(msg)
                elif msg["type"] == "turn" and msg.get("decision"):
                    d = msg["decision"]
                    action = (
                        {"type": "check"}
                        if d.get("check")
                        else {"type": "call"}
                        if d.get("call")
                        else {"type": "fold"}
                    )
                    act = {
                        "type": "act",
                        "table": "holdem-nl",
                        "hand_id": msg["hand_id"],
                        "action_no": msg["action_no"],
                        "action": action,
                        "ref": "a",
                    }
                    await ws.send(orjson.dumps(act).decode())
                    await ws.send(orjson.dumps(act).decode())  # a retry is acknowledged, not applied twice
                    acts += 1
                elif msg["type"] == "event" and msg["event"]["type"] == "hand_ended":
                    played += 1
            assert balances == 0  # a hand moves seat stacks, not the wallet: no balance frame
            while len(acks) < 2 * acts:
                acks.append(
                    await recv_until(ws, lambda m: m["type"] in ("ack", "error") and m.get("ref") == "a")
                )
            assert acts > 0 and all(a["type"] == "ack" for a in acks)
            assert [a["duplicate"] for a in acks] == [False, True] * acts
            await ws.send(orjson.dumps({"type": "leave", "table": "holdem-nl", "ref": "l"}).decode())
            await recv_until(ws, lambda m: m["type"] == "balance", timeout=30)
    finally:
        for bot, task in bots:
            await bot.stop()
            task.cancel()
    report = await server.room.store.verify()
    assert report.ok


async def test_malformed_frames_get_error_codes_and_the_connection_survives(server: LiveServer) -> None:
    async with websockets.connect(server.ws) as ws:
        await ws.recv()
        for frame, code in [
            ("not json", "bad_json"),
            ("[1,2]", "bad_message"),
            ('{"type": "nope"}', "unknown_type"),
            ('{"type": "sit", "table": "holdem-nl", "seat": 99, "buy_in": 1}', "invalid_field"),
            ('{"type": "chat", "table": "holdem-nl", "text": "hi", "extra": 1}', "invalid_field"),
            ("x" * 5000, "frame_too_large"),
            ('{"type": "sit", "table": "holdem-nl", "seat": 1, "buy_in": 2000}', "login_required"),
            ('{"type": "subscribe", "table": "no-such-table"}', "unknown_table"),
        ]:
            await ws.send(frame)
            msg = orjson.loads(await ws.recv())
            assert (msg["type"], msg["code"]) == ("error", code), frame[:40]
        await ws.send('{"type": "ping", "ref": "p"}')
        assert orjson.loads(await ws.recv()) == {"type": "pong", "ref": "p"}


async def test_a_server_process_freezes_its_startup_heap(tmp_path: Any) -> None:
    """`pokerroom serve` starts the app with ``freeze_heap``: what is alive once the room has started
    leaves the collector's young and old generations, so full collections (which stop the event loop)
    walk only what the room creates while it runs, and the collector runs on the server's thresholds
    until the app stops. Apps in tests leave the heap and the thresholds alone."""
    import gc

    from pokerroom.server.app import SERVER_GC_THRESHOLDS, create_app
    from pokerroom.server.room import RoomSettings
    from pokerroom.store import Store

    for freeze in (False, True):
        store = Store.open(f"sqlite+aiosqlite:///{tmp_path / f'{freeze}.db'}")
        await store.db.upgrade()
        app = create_app(store, RoomSettings(tables=()), freeze_heap=freeze)
        gc.unfreeze()
        before = gc.get_threshold()
        assert before != SERVER_GC_THRESHOLDS
        try:
            async with app.router.lifespan_context(app):
                assert (gc.get_freeze_count() > 0) is freeze
                assert (gc.get_threshold() == SERVER_GC_THRESHOLDS) is freeze
                assert app.state.room is not None
            assert gc.get_threshold() == before
        finally:
            gc.unfreeze()
            gc.set_threshold(*before)

"""Issue 34, defect 5: money amounts were coerced. The console's adjust booked JSON ``true`` as 1 and
``"5"`` as 5. Every money field, everywhere (the console's adjust, the WebSocket's buy-ins, top-ups and bet
amounts, a tournament's buy-in, fee and guarantee), takes strict integers: ``true``, ``"5"`` and ``5.0``
are refused with a typed error (``422`` over HTTP, ``invalid_field`` on the WebSocket) and change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from pokerroom.server.demo import demo_tables
from pokerroom.store import PLAY, Role

from .conftest import FAST, LiveServer, live_server
from .wire import Frame, Wire, balance, bearer, register, sit

pytestmark = pytest.mark.asyncio
NOT_INTEGERS: list[Any] = [True, False, "5", "2000", 5.0, 2000.0, 1e3, None, [5], {"amount": 5}]
ON_THE_SOCKET: list[Any] = [True, "2000", 2000.0, None]  # (fewer: the socket's frames are rate-limited)


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[tuple[LiveServer, dict[str, str], str]]:
    async with live_server(tmp_path, demo_tables(FAST, games=("holdem",))) as s:
        admin = await register(s, "boss")
        store = s.room.store
        await store.accounts.set_role((await store.accounts.find("boss")).id, Role.ADMIN)
        yield s, bearer(admin), await register(s, "alice")


async def test_the_consoles_adjust_takes_only_integers(room: tuple[LiveServer, dict[str, str], str]) -> None:
    s, admin, alice = room
    store = s.room.store
    pid = (await store.accounts.find("alice")).id
    before = await balance(s, alice)
    async with httpx.AsyncClient(base_url=s.url, timeout=30, headers=admin) as http:
        for amount in NOT_INTEGERS:
            body = {"currency": PLAY, "amount": amount, "reason": "a correction"}
            r = await http.post(f"/api/console/players/{pid}/adjust", json=body)
            assert r.status_code == 422, (amount, r.text)
        assert await balance(s, alice) == before  # nothing was booked ...
        assert await store.audit.entries(action="player.adjust") == []  # ... or audited
        r = await http.post(
            f"/api/console/players/{pid}/adjust",
            json={"currency": PLAY, "amount": 5, "reason": "a correction"},
        )
        assert r.status_code == 200, r.text
    assert await balance(s, alice) == before + 5


async def test_the_websockets_money_fields_take_only_integers(
    room: tuple[LiveServer, dict[str, str], str],
) -> None:
    s, _, alice = room
    table = next(iter(s.room.tables))
    before = await balance(s, alice)
    w = await Wire.open(s, alice)
    try:
        await w.send({"type": "subscribe", "table": table, "ref": "sub"})
        await w.until(Frame("snapshot"))
        frames: list[dict[str, Any]] = []
        for amount in ON_THE_SOCKET:
            frames += [
                {"type": "sit", "table": table, "seat": 1, "buy_in": amount},
                {"type": "pool_join", "pool": "rush-holdem", "buy_in": amount},
            ]
        for i, frame in enumerate(frames):
            await w.send({**frame, "ref": f"m{i}"})
            answer = await w.reply(f"m{i}")
            assert answer["type"] == "error" and answer["code"] == "invalid_field", (frame, answer)
        assert await balance(s, alice) == before  # no buy-in was taken
        assert (
            await s.room.store.ledger.sessions(player_id=(await s.room.store.accounts.find("alice")).id) == []
        )
        # seated, a top-up and a bet take only integers too
        assert (await sit(w, table, 1, 2000))["type"] == "ack"
        for i, amount in enumerate(ON_THE_SOCKET):
            await w.send({"type": "top_up", "table": table, "amount": amount, "ref": f"t{i}"})
            answer = await w.reply(f"t{i}")
            assert answer["type"] == "error" and answer["code"] == "invalid_field", (amount, answer)
            if amount is None:
                continue  # (an action without an amount is a fold, a check, a call: no money named)
            act = {"type": "raise_to", "amount": amount}
            await w.send(
                {"type": "act", "table": table, "hand_id": "h", "action_no": 0, "action": act, "ref": f"a{i}"}
            )
            answer = await w.reply(f"a{i}")
            assert answer["type"] == "error" and answer["code"] == "invalid_field", (amount, answer)
        assert await balance(s, alice) == before - 2000
    finally:
        await w.close()


@pytest.mark.parametrize("path", ["/api/admin/tournaments", "/api/console/tournaments"])
@pytest.mark.parametrize("field", ["buy_in", "fee", "guarantee", "starting_stack", "seat_value"])
async def test_a_tournaments_money_fields_take_only_integers(
    room: tuple[LiveServer, dict[str, str], str], path: str, field: str
) -> None:
    s, admin, _ = room
    async with httpx.AsyncClient(base_url=s.url, timeout=30, headers=admin) as http:
        for i, amount in enumerate([True, "500", 500.0]):
            body = {
                "id": f"t{i}",
                "kind": "mtt",
                "start_in_minutes": 60,
                "buy_in": 500,
                "fee": 50,
                field: amount,
            }
            r = await http.post(path, json=body)
            assert r.status_code == 422, (field, amount, r.text)
            error = r.json().get("detail", r.json())
            assert error["code"] == "bad_tournament" and field in error["message"]
            assert f"t{i}" not in s.room.tournaments

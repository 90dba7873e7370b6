"""Every frame the server sends is described by docs/protocol.schema.json, and every error code by
docs/protocol.md (issue 14: "every outgoing frame typed").

A mixed session over a live server: cash tables of every game family (board, stud, draw, Irish), a Rush
pool, a sit-and-go to its end, observers, a reconnect, bad input. Every frame the server writes to any
connection is validated against the schema of its type; nothing may hold a field the schema does not
list."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema_rs
import orjson
import pytest

from pokerroom.bots.runner import start_bots, start_pool_bots, start_tournament_bots
from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.connection import Connection, Head
from pokerroom.server.demo import demo_pools, demo_tables, demo_tournaments
from pokerroom.server.errors import PROTOCOL_CODES, SERVER_CODES
from pokerroom.server.frames import ERROR_CODES
from pokerroom.server.room import RoomSettings
from tests.waiting import until

from .conftest import serve_room
from .harness import Client, Harness
from .wire import Wire, register

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
FAST = Timing(action=1.0, time_bank=0.5, between_hands=0.02, disconnect_grace=30)
GAMES = ("holdem", "omaha8", "stud", "irish", "deuce7_triple", "draw5")
POOL = "rush-holdem-nl-6max"


def _validator(kind: str) -> Any:
    """A JSON Schema (draft 2020-12) validator of one server message, from docs/protocol.schema.json."""
    return jsonschema_rs.validator_for(SCHEMA["server"][kind])


def validate(frames: list[str]) -> tuple[dict[str, int], list[str]]:
    """(frames seen by type, problems)."""
    seen: dict[str, int] = {}
    problems: list[str] = []
    validators: dict[str, Any] = {}
    for text in frames:
        msg = orjson.loads(text)
        kind = msg.get("type")
        if kind not in SCHEMA["server"]:
            problems.append(f"undocumented frame type {kind!r}: {text[:200]}")
            continue
        seen[kind] = seen.get(kind, 0) + 1
        v = validators.get(kind)
        if v is None:
            v = validators[kind] = _validator(kind)
        if not v.is_valid(msg):
            first = next(iter(v.iter_errors(msg)))
            problems.append(f"{kind}: {first.message} at {list(first.instance_path)}: {text[:300]}")
    return seen, problems


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every frame the server hands to any connection."""
    frames: list[str] = []
    original = Connection.send

    def send(self: Connection, text: str, head: Head | None = None) -> None:
        frames.append(text)
        original(self, text, head)

    monkeypatch.setattr(Connection, "send", send)
    return frames


async def _bad_input(w: Wire) -> None:
    """Frames a client gets wrong, each refused with its code (and a ping and the last-hands window)."""
    for raw in ("{", "[1]", '{"type": 5}', '{"type": "nope", "ref": "x"}', '{"type": "subscribe"}'):
        await w.send(raw)
    await w.send({"type": "ping", "ref": "p"})
    await w.send({"type": "subscribe", "table": "no-such-table", "ref": "u"})
    await w.send({"type": "subscribe", "table": POOL, "ref": "r"})
    await w.send(
        {
            "type": "act",
            "table": "holdem-nl",
            "hand_id": "x",
            "action_no": 0,
            "action": {"type": "fold"},
            "ref": "a",
        }
    )
    await w.send({"type": "chat", "table": "holdem-nl", "text": "hi", "ref": "c"})
    await w.send({"type": "last_hands", "ref": "l"})
    await w.send({"type": "last_hands", "hand_id": "nope", "ref": "l2"})
    await w.send({"type": "hello", "version": 1, "ref": "h"})
    await w.send({"type": "tournament_register", "tournament": "nope", "ref": "t"})
    await w.send(
        {
            "type": "pool_act",
            "pool": POOL,
            "entry": 1,
            "hand_id": "x",
            "action_no": 0,
            "action": {"type": "fold"},
            "ref": "pa",
        }
    )
    await w.reply("pa")


def _cards(data: Any) -> Iterator[str]:
    if isinstance(data, str) and re.match(r"^(10|[2-9TJQKA])[cdhs]$", data):
        yield data
    elif isinstance(data, dict):
        for v in data.values():
            yield from _cards(v)
    elif isinstance(data, list):
        for v in data:
            yield from _cards(v)


@pytest.mark.asyncio
async def test_every_frame_of_a_mixed_session_matches_the_schema(tmp_path: Path, recorded: list[str]) -> None:
    tables = demo_tables(FAST, games=GAMES)
    pools = [replace(demo_pools(RushTiming(action=1.0, reduced_action=1.0, time_bank=0.5))[0])]
    (sng,) = demo_tournaments(FAST, level_minutes=0.05)
    sng = replace(sng, max_players=3, min_players=3, tournament_id="mini", name="Mini")
    settings = RoomSettings(tables=tuple(tables), pools=tuple(pools), tournaments=(sng,))
    async with serve_room(tmp_path, settings, durable=False) as s:
        cash = await start_bots(s.url, 2 * len(tables), ["random", "caller"], think=(0, 0.01), seed=1)
        rush = await start_pool_bots(s.url, POOL, 5, ["caller", "random"], think=(0, 0.01), seed=2)
        (copy,) = [t for t in s.room.tournaments if t.startswith("mini-")]
        tour = await start_tournament_bots(s.url, copy, 3, ["random"], think=(0, 0.01), seed=3)
        observers: list[Wire] = []
        try:
            token = await register(s, "watcher")
            observers += [await Wire.open(s) for _ in range(2)] + [await Wire.open(s, token)]
            for i, cfg in enumerate(tables):
                await observers[i % len(observers)].send({"type": "subscribe", "table": cfg.table_id})
            await _bad_input(observers[2])
            await observers[2].close()  # a reconnect: a fresh connection subscribes again
            again = await Wire.open(s, token)
            observers.append(again)
            await again.send({"type": "subscribe", "table": "holdem-nl", "ref": "s"})
            await again.until(lambda m: m["type"] == "snapshot")
            actor = s.room.tournaments[copy]

            await until(
                lambda: (
                    min(a.hands_played for a in s.room.tables.values()) >= 3
                    and s.room.pools[POOL].hands_played >= 5
                    and actor.finished_at is not None
                ),
                timeout=240,
                what="three hands at each table, five in the pool, and the sit-and-go to its end",
                show=lambda: (
                    {t: a.hands_played for t, a in s.room.tables.items()},
                    s.room.pools[POOL].hands_played,
                    actor.director.status,
                ),
            )
        finally:
            everyone = [*cash, *rush, *tour]
            for _, task in everyone:  # (no goodbyes: the server is shut down right after)
                task.cancel()
            # The observers read nothing: their sockets are closed here, not left to the garbage collector.
            await asyncio.gather(*(w.close() for w in observers), return_exceptions=True)
    seen, problems = validate(recorded)
    assert not problems, problems[:5]
    expected = {
        "welcome", "snapshot", "event", "turn", "seat", "chat", "ack", "error", "pong", "balance",
        "last_hands", "pool_joined", "pool_move", "pool_entry", "tournament_seat", "tournament_status",
        "table_closed",
    }  # fmt: skip
    assert expected <= set(seen), expected - set(seen)
    errors = {orjson.loads(t)["code"] for t in recorded if t.startswith('{"type":"error"')}
    assert {
        "bad_json",
        "bad_message",
        "unknown_type",
        "invalid_field",
        "unknown_table",
        "no_observers",
    } <= errors
    assert {"not_seated", "unknown_hand", "bad_version", "unknown_tournament", "stale_hand"} <= errors


def test_every_error_code_is_in_the_schema_and_the_document() -> None:
    """The schema's ``error.code`` lists every code the code can send, and docs/protocol.md names each."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    enum = set(SCHEMA["server"]["error"]["properties"]["code"]["enum"])
    assert enum == set(ERROR_CODES)
    for code in ERROR_CODES:
        assert f"`{code}`" in text, code
    assert set(SERVER_CODES) | set(PROTOCOL_CODES) <= enum


def test_every_refusal_in_the_server_uses_a_registered_code() -> None:
    """A ``Refused("...")`` anywhere in the server names a code of SERVER_CODES or PROTOCOL_CODES."""
    used: set[str] = set()
    for path in (ROOT / "src" / "pokerroom" / "server").rglob("*.py"):
        used |= set(re.findall(r'Refused\(\s*"([a-z_]+)"', path.read_text()))
    assert used, "the scan found nothing"
    assert used <= set(SERVER_CODES) | set(PROTOCOL_CODES), used - set(SERVER_CODES) - set(PROTOCOL_CODES)


def test_an_error_frame_carries_the_typed_fields_of_its_error() -> None:
    """Errors keep their fields on the wire: a client can say "raise between 40 and 1,980"."""
    from pokerroom.engine import AmountOutOfRange
    from pokerroom.rooms import BuyInOutOfRange
    from pokerroom.server.errors import Refused, error_frame
    from pokerroom.store.errors import InsufficientFunds

    frame = error_frame(AmountOutOfRange(3, 30, 40, 1980), "r1")
    assert frame["code"] == "amount_out_of_range" and frame["ref"] == "r1"
    assert {"amount": 30, "minimum": 40, "maximum": 1980, "seat": 3}.items() <= frame["details"].items()
    assert error_frame(BuyInOutOfRange(10, 800, 2000))["details"] == {
        "amount": 10,
        "minimum": 800,
        "maximum": 2000,
    }
    funds = error_frame(InsufficientFunds(17, 300, 800))["details"]
    assert funds == {"balance": 300, "needed": 800}  # the account number stays inside
    assert error_frame(Refused("stale_action", "moved on", current=7))["details"] == {"current": 7}
    oops = error_frame(RuntimeError("secret As Kd inside"))
    assert oops["code"] == "internal_error" and "As" not in json.dumps(oops)
    for f in (frame, oops):
        assert _validator("error").is_valid(f)


@pytest.mark.asyncio
async def test_a_refused_raise_says_its_bounds_on_the_wire(tmp_path: Path) -> None:
    """Issue 14: an ``error`` frame keeps the typed fields of its error: a raise below the minimum is
    answered with ``details`` holding the amount and the legal range, as the decision offered it. (On the
    server's harness: the frame its connection would write to the socket.)"""
    tables = demo_tables(Timing(action=30, time_bank=0, between_hands=0.05), games=("holdem",))
    h = await Harness.open(tmp_path, RoomSettings(tables=tuple(tables)), seed=1)
    try:
        clients = [await h.login(name) for name in ("alice", "bobby")]
        for seat, c in enumerate(clients, start=1):
            await h.sit(c, "holdem-nl", seat)

        def a_decision() -> tuple[Client, dict[str, Any]] | None:
            return next(
                ((c, f) for c in clients for f in c.frames if f["type"] == "turn" and f.get("decision")), None
            )

        await h.run(lambda: a_decision() is not None, seconds=60)  # a decision for alice or bobby
        found = a_decision()
        assert found is not None
        me, turn = found
        d = turn["decision"]
        act = {
            "type": "act",
            "table": "holdem-nl",
            "hand_id": turn["hand_id"],
            "action_no": turn["action_no"],
        }
        err = await h.ask(
            me, {**act, "action": {"type": "raise_to", "amount": d["min_to"] - 1}, "ref": "low"}
        )
        assert err["type"] == "error" and err["code"] == "amount_out_of_range"
        assert err["details"]["minimum"] == d["min_to"] and err["details"]["maximum"] == d["max_to"]
        assert err["details"]["amount"] == d["min_to"] - 1
        assert _validator("error").is_valid(err)
    finally:
        await h.close()

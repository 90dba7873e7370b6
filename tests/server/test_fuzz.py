"""Fuzz: 10,000 random and malformed frames at a live server from several connections (issue: server,
"Security"). Bad JSON, wrong types, huge numbers, negative amounts, unknown types, binary, oversize,
wrong hand ids and action numbers. Each frame gets an ``error`` frame with a code; the server does not
crash; the tables keep dealing afterwards; ``ledger verify`` passes.

The frames are built so that none of them is an acceptable request, so every one must be answered by an
error (a frame that was accepted would show up as an ack and fail the test). ``POKERROOM_SOAK=1`` sends
100,000.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.rooms import Timing
from pokerroom.server.demo import demo_tables
from tests.waiting import until

from .conftest import LiveServer, live_server
from .wire import Wire, register

pytestmark = pytest.mark.asyncio

FRAMES = 100_000 if os.environ.get("POKERROOM_SOAK") == "1" else 10_000
CONNECTIONS = 5
CLOCK = Timing(action=5, time_bank=0, between_hands=0.05, disconnect_grace=30)
TABLES = ("holdem-nl", "draw5-fl")

# values that are wrong for the field they replace (per the field's type)
BAD_STR: list[Any] = [None, 5, -1, 1.5, True, [], {}, ["x"], {"a": 1}, "", "x" * 300, "bad id!", "../etc"]
BAD_INT: list[Any] = [None, "abc", "", -1, -(10**30), 10**30, 2**64, 1e308, 1.5, [], {}, [1], True and "t"]
BAD_BOOL: list[Any] = [None, "maybe", 7, -1, 2.5, [], {}, "yes please"]
BAD_ACTION: list[Any] = [
    None,
    "fold",
    5,
    [],
    {},
    {"type": "dance"},
    {"type": "raise_to", "amount": -100},
    {"type": "raise_to", "amount": 10**30},
    {"type": "raise_to", "amount": "lots"},
    {"type": "draw", "cards": ["Zz"]},
    {"type": "draw", "cards": ["As", "Kd", "Qh", "Jc", "Ts", "9d"]},
    {"type": "discard", "cards": "AsKd"},
    {"type": "fold", "seat": 3},
]
TEMPLATES: dict[str, dict[str, Any]] = {
    "hello": {"version": 1},  # (a logged-in client's hello is welcomed whatever its token)
    "subscribe": {"table": "holdem-nl"},
    "unsubscribe": {"table": "holdem-nl"},
    "sit": {"table": "holdem-nl", "seat": 1, "buy_in": 2000, "post_now": False},
    "leave": {"table": "holdem-nl"},
    "top_up": {"table": "holdem-nl", "amount": 100},
    "sit_out": {"table": "holdem-nl", "when": "now"},
    "sit_in": {"table": "holdem-nl", "post_missed": False},
    "settings": {"table": "holdem-nl", "auto_post": True},
    "waiting_list": {"table": "holdem-nl", "join": True},
    "answer_post": {"table": "holdem-nl", "accept": True},
    "act": {"table": "holdem-nl", "hand_id": "h", "action_no": 0, "action": {"type": "fold"}},
    "chat": {"table": "holdem-nl", "text": "hi"},
    "last_hands": {"hand_id": "h"},
    "ping": {},
}
KINDS = list(TEMPLATES)
OPTIONAL = {"token", "auto_post", "hand_id"}


def _bad_value(rng: random.Random, field: str, value: Any) -> Any:
    if field == "action":
        return rng.choice(BAD_ACTION)
    if isinstance(value, bool):
        return rng.choice(BAD_BOOL)
    if isinstance(value, int):
        return rng.choice(BAD_INT)
    return rng.choice(BAD_STR)


def _mutated(rng: random.Random) -> dict[str, Any]:
    """A known message type with at least one invalid part (wrong type, missing or extra field)."""
    kind = rng.choice(KINDS)
    msg: dict[str, Any] = {"type": kind, **TEMPLATES[kind], "ref": f"r{rng.randrange(10**6)}"}
    fields = list(TEMPLATES[kind])
    how = rng.random()
    if not fields or how < 0.25:
        msg[rng.choice(["seat", "player", "zz", "__proto__", "amount", "TYPE"])] = rng.choice(BAD_STR)
    elif how < 0.4 and kind not in ("last_hands",):
        required = [f for f in fields if f not in ("token", "post_missed", "post_now", "auto_post", "when")]
        if required:
            del msg[rng.choice(required)]
        else:
            msg["zz"] = 1
    else:
        for f in rng.sample(fields, rng.randint(1, len(fields))):
            bad = _bad_value(rng, f, TEMPLATES[kind][f])
            msg[f] = 5 if bad is None and f in OPTIONAL else bad  # (None is a valid value there)
    return msg


def _refused(rng: random.Random) -> dict[str, Any]:
    """Well-formed requests that must be refused: wrong hand ids and action numbers, unknown tables."""
    ref = f"s{rng.randrange(10**6)}"
    r = rng.random()
    if r < 0.6:
        return {
            "type": "act",
            "table": rng.choice(TABLES),
            "hand_id": rng.choice(["holdem-nl-1", "x", "draw5-fl-99999", "holdem-nl-0", "9" * 64]),
            "action_no": rng.choice([0, 1, 7, 10_000]),
            "action": rng.choice(
                [{"type": "fold"}, {"type": "raise_to", "amount": 10**12}, {"type": "show"}]
            ),
            "ref": ref,
        }
    if r < 0.8:
        return {"type": "subscribe", "table": f"no-such-{rng.randrange(1000)}", "ref": ref}
    return {"type": "hello", "version": rng.choice([1, 3, 99]), "ref": ref}


def random_frame(rng: random.Random) -> str | bytes:
    r = rng.random()
    if r < 0.07:
        return rng.randbytes(rng.randint(0, 300))
    if r < 0.14:
        return "".join(chr(rng.randint(1, 0x2FFF)) for _ in range(rng.randint(1, 60))) + "{"
    if r < 0.21:
        text = json.dumps(_mutated(rng))
        return text[: rng.randint(0, len(text) - 1)]  # a cut JSON object is never valid JSON
    if r < 0.27:
        return json.dumps(rng.choice([1, -(10**18), "x", None, True, [], [{"type": "ping"}], 1.5]))
    if r < 0.31:
        return json.dumps({"type": "chat", "table": "holdem-nl", "text": "y" * rng.randint(4100, 20_000)})
    if r < 0.37:
        kind = rng.choice(["", "PING", "act ", "admin", "eval", "🂡"])
        return json.dumps({"type": kind, "ref": "u"})
    if r < 0.5:
        return json.dumps(_refused(rng))
    return json.dumps(_mutated(rng))


async def _fuzz(w: Wire, rng: random.Random, count: int, codes: dict[str, int]) -> None:
    for _ in range(count):
        frame = random_frame(rng)
        await w.send(frame)
        reply = await w.until(lambda m: m["type"] in ("error", "ack", "pong", "welcome", "snapshot"))
        assert reply["type"] == "error", (frame[:200], reply)
        assert isinstance(reply["code"], str) and reply["code"]
        codes[reply["code"]] = codes.get(reply["code"], 0) + 1


async def test_ten_thousand_malformed_frames_leave_the_room_standing(tmp_path: Path) -> None:
    tables = [t for t in demo_tables(CLOCK, games=("holdem", "draw5")) if t.table_id in TABLES]
    async with live_server(tmp_path, tables, message_rate=1e6, message_burst=1e6) as s:
        bots = await start_bots(s.url, 6, ["random", "caller"], think=(0, 0.02), seed=3)
        try:
            await _fuzz_room(s)
        finally:
            for bot, task in bots:
                await bot.stop()
                task.cancel()
        assert (await s.room.store.verify()).ok


async def _fuzz_room(s: LiveServer) -> None:
    tokens = [await register(s, f"fuzzer{i}") for i in range(CONNECTIONS - 2)]
    wires = [await Wire.open(s, t) for t in tokens] + [await Wire.open(s) for _ in range(2)]
    before = {tid: a.hands_played for tid, a in s.room.tables.items()}
    codes: dict[str, int] = {}
    per = FRAMES // len(wires)
    await asyncio.gather(*(_fuzz(w, random.Random(i), per, codes) for i, w in enumerate(wires)))
    assert sum(codes.values()) == per * len(wires) >= FRAMES
    assert "internal_error" not in codes, codes
    assert {"bad_json", "bad_message", "invalid_field", "unknown_type", "frame_too_large"} <= set(codes)
    assert {"not_seated", "unknown_table", "login_required", "bad_version"} <= set(codes)
    # the connections are still usable, and the tables kept dealing (no table is stuck)
    for w in wires:
        await w.send({"type": "ping", "ref": "alive"})
        assert (await w.until(lambda m: m["type"] == "pong"))["ref"] == "alive"
        await w.close()

    await until(
        lambda: all(s.room.tables[t].hands_played >= before[t] + 3 for t in TABLES),
        timeout=120,
        what="every table deals three more hands",
        show=lambda: {t: (before[t], s.room.tables[t].hands_played) for t in TABLES},
    )
    assert all(not a.table.halted for a in s.room.tables.values())

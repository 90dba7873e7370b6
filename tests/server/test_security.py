"""Security (issue: server, "Security"): only a logged-in player sits, and only for himself; a client acts
only for its own seat; chat is escaped and limited; frames are size and rate limited. Every refusal
carries a stable code and changes nothing. What a table checks of an action runs on the server's harness
(a manual clock, no sockets); logging in, chat and frame limits on a live server."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import websockets

from pokerroom.rooms import Timing
from pokerroom.server.demo import demo_tables
from pokerroom.server.protocol import PROTOCOL_VERSION
from pokerroom.server.room import Room, RoomSettings

from .conftest import LiveServer, live_server
from .harness import Harness
from .wire import Frame, Wire, balance, register, sit

pytestmark = pytest.mark.asyncio

SLOW_CLOCK = Timing(action=30, time_bank=0, between_hands=0.05, disconnect_grace=30)
TABLE = "holdem-nl"


@pytest_asyncio.fixture
async def room(tmp_path: Path) -> AsyncIterator[LiveServer]:
    async with live_server(tmp_path, demo_tables(SLOW_CLOCK, games=("holdem",))) as s:
        yield s


def _state(room: Room) -> Any:
    """What a refused request must not change: seats, stacks, and the hand's commands."""
    t = room.tables[TABLE].table
    hand = t.hand
    return (
        {seat: (p.player, p.stack) for seat, p in t.seats.items()},
        None
        if hand is None
        else (hand.hand_id, len(hand.commands), {k: v.stack for k, v in hand.players.items()}),
    )


async def test_only_a_logged_in_player_sits_and_only_for_himself(room: LiveServer) -> None:
    anon = await Wire.open(room)
    await anon.send({"type": "sit", "table": TABLE, "seat": 1, "buy_in": 2000, "ref": "a"})
    assert (await anon.reply("a"))["code"] == "login_required"
    # a forged identity does not parse: the seat is always the sender's own
    for forged in ({"player": "1"}, {"player_id": 1}, {"name": "alice"}, {"token": "x"}):
        await anon.send({"type": "sit", "table": TABLE, "seat": 1, "buy_in": 2000, "ref": "f", **forged})
        assert (await anon.reply("f"))["code"] == "invalid_field"
    bad_token = await Wire.open(room, "not-a-real-token")
    await bad_token.send({"type": "sit", "table": TABLE, "seat": 1, "buy_in": 2000, "ref": "b"})
    assert (await bad_token.reply("b"))["code"] == "login_required"
    await bad_token.send({"type": "hello", "version": PROTOCOL_VERSION, "token": "forged", "ref": "h"})
    assert (await bad_token.reply("h"))["code"] == "bad_token"
    assert room.room.tables[TABLE].table.seats == {}

    alice_t, bob_t = await register(room, "alice"), await register(room, "bob")
    alice, bob = await Wire.open(room, alice_t), await Wire.open(room, bob_t)
    assert (await sit(alice, TABLE, 1))["type"] == "ack"
    before, bob_wallet = _state(room.room), await balance(room, bob_t)
    assert (await sit(bob, TABLE, 1))["code"] == "seat_taken"
    await bob.send({"type": "sit", "table": TABLE, "seat": 2, "buy_in": -5, "ref": "n"})
    assert (await bob.reply("n"))["code"] == "invalid_field"
    await bob.send({"type": "sit", "table": TABLE, "seat": 2, "buy_in": 10**9, "ref": "m"})
    assert (await bob.reply("m"))["code"] == "buy_in_out_of_range"
    await bob.send({"type": "sit", "table": TABLE, "seat": 7, "buy_in": 2000, "ref": "s"})
    assert (await bob.reply("s"))["code"] == "no_such_seat"
    await alice.send({"type": "sit", "table": TABLE, "seat": 3, "buy_in": 2000, "ref": "again"})
    assert (await alice.reply("again"))["code"] == "already_seated"
    assert _state(room.room)[0] == before[0]
    assert await balance(room, bob_t) == bob_wallet  # nothing was booked for a refused sit
    for w in (anon, bad_token, alice, bob):
        await w.close()
    assert (await room.room.store.verify()).ok


async def test_a_client_acts_only_for_its_own_seat_and_current_decision(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tables=tuple(demo_tables(SLOW_CLOCK, games=("holdem",)))))
    try:
        alice, bob, carol = [await h.login(name) for name in ("alice", "bob", "carol")]
        anon = h.connect("anonymous", None)
        await h.sit(alice, TABLE, 1)
        await h.sit(bob, TABLE, 2)
        await h.subscribe(carol, TABLE)
        clients = {1: alice, 2: bob}
        await h.run(lambda: bool(alice.of("turn")), seconds=60)
        turn = alice.of("turn")[0]
        actor, other = clients[turn["seat"]], clients[3 - turn["seat"]]
        if turn["seat"] == 2:  # only the deciding player's copy of the turn carries his legal actions
            assert turn.get("decision") is None
            await h.run(lambda: any(m.get("decision") is not None for m in bob.of("turn")), seconds=60)
            mine = next(m for m in bob.of("turn") if m.get("decision") is not None)
            assert mine["action_no"] == turn["action_no"]
        else:
            assert turn["decision"] is not None
        hand_id, no = turn["hand_id"], turn["action_no"]

        def act(ref: str, **kw: Any) -> dict[str, Any]:
            msg = {
                "type": "act",
                "table": TABLE,
                "hand_id": hand_id,
                "action_no": no,
                "action": {"type": "call"},
            }
            return {**msg, **kw, "ref": ref}

        before = _state(h.room)
        refusals = [
            (other, act("o1"), "not_your_turn"),  # the other player answers the decision: it is not his
            (other, act("o2", action={"type": "fold"}), "not_your_turn"),
            (other, act("o3", action={"type": "call", "seat": turn["seat"]}), "invalid_field"),
            (other, act("o4", seat=turn["seat"]), "invalid_field"),
            (actor, act("a1", hand_id="holdem-nl-999"), "stale_hand"),  # another hand id
            (actor, act("a2", action_no=no + 3), "bad_action_no"),
            (actor, act("a3", action_no=-1), "invalid_field"),
            (actor, act("a4", action={"type": "raise_to", "amount": -100}), "invalid_field"),
            (actor, act("a5", action={"type": "raise_to", "amount": 10**15}), "invalid_field"),
            (actor, act("a6", action={"type": "raise_to", "amount": 10**6}), "amount_out_of_range"),
            (actor, act("a7", table="omaha-nl"), "unknown_table"),
            (carol, act("c1"), "not_seated"),  # logged in, watching, no seat
            (anon, act("n1"), "login_required"),
        ]
        for client, msg, code in refusals:
            got = await h.ask(client, msg)
            assert (got["type"], got["code"]) == ("error", code), (msg, got)
            assert _state(h.room) == before, msg
        # the seat to act still can: the refusals left the decision where it was
        assert (await h.ask(actor, act("ok")))["type"] == "ack"
        assert _state(h.room) != before
    finally:
        await h.close()


async def test_chat_is_escaped_length_and_rate_limited(room: LiveServer) -> None:
    alice_t, carol_t = await register(room, "alice"), await register(room, "carol")
    alice, carol, anon = await Wire.open(room, alice_t), await Wire.open(room, carol_t), await Wire.open(room)
    await sit(alice, TABLE, 1)
    await carol.send({"type": "subscribe", "table": TABLE})
    await carol.until(lambda m: m["type"] == "snapshot")
    attack = "<script>alert('x')</script> & \x00\x07bye"
    await alice.send({"type": "chat", "table": TABLE, "text": attack})
    said = await carol.until(lambda m: m["type"] == "chat")
    assert said["from"] == "alice"
    assert said["text"] == html.escape("<script>alert('x')</script> & bye")
    assert "<" not in said["text"] and "\x00" not in said["text"]
    await alice.send({"type": "chat", "table": TABLE, "text": "x" * 201, "ref": "long"})
    assert (await alice.reply("long"))["code"] == "invalid_field"
    await alice.send({"type": "chat", "table": TABLE, "text": "\x00\x01", "ref": "empty"})
    assert (await alice.reply("empty"))["code"] == "empty_chat"
    await carol.send({"type": "chat", "table": TABLE, "text": "hi", "ref": "obs"})
    assert (await carol.reply("obs"))["code"] == "not_seated"  # observers do not chat at a table
    await anon.send({"type": "chat", "table": TABLE, "text": "hi", "ref": "anon"})
    assert (await anon.reply("anon"))["code"] == "login_required"
    codes = []
    for i in range(8):  # a burst of 3, then one message every two seconds
        await alice.send({"type": "chat", "table": TABLE, "text": f"spam {i}", "ref": f"c{i}"})
    for i in range(8):
        reply = await alice.until(Frame("error", ref=f"c{i}") | Frame("chat", text=f"spam {i}"))
        codes.append(reply.get("code", "said"))
    assert codes.count("chat_rate_limited") >= 3 and "said" in codes
    for w in (alice, carol, anon):
        await w.close()


async def test_oversized_frames_are_refused_and_floods_are_rate_limited(room: LiveServer) -> None:
    w = await Wire.open(room)
    await w.send('{"type": "ping", "ref": "' + "x" * 5000 + '"}')
    assert (await w.until(lambda m: m["type"] == "error"))["code"] == "frame_too_large"
    await w.send(b"\x00\xff" * 3000)
    assert (await w.until(lambda m: m["type"] == "error"))["code"] == "frame_too_large"
    await w.send({"type": "ping", "ref": "alive"})
    assert (await w.until(lambda m: m["type"] == "pong"))["ref"] == "alive"
    # beyond the transport limit (64 KiB) the server closes the connection, and serves others
    big = await Wire.open(room)
    await big.send("y" * 70_000)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await big.until(lambda m: False, timeout=20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    # a flood: past the burst, pings are refused with rate_limited; the connection stays up
    for i in range(120):
        await w.send({"type": "ping", "ref": f"p{i}"})
    got = [await w.until(lambda m: m["type"] in ("pong", "error")) for _ in range(120)]
    limited = [m for m in got if m["type"] == "error"]
    assert limited and all(m["code"] == "rate_limited" for m in limited)
    assert sum(m["type"] == "pong" for m in got) >= 30  # the burst (less what was sent before)
    # a client that keeps flooding after being told is disconnected
    flood = await Wire.open(room)
    with pytest.raises(websockets.ConnectionClosed):
        for _ in range(2000):
            await flood.send("{}")
        await flood.until(lambda m: False, timeout=20)
    fresh = await Wire.open(room)
    await fresh.send({"type": "ping", "ref": "after"})
    assert (await fresh.until(lambda m: m["type"] == "pong"))["ref"] == "after"
    for c in (w, fresh):
        await c.close()

"""Disconnects and crashes (issue: server, "Disconnects" and "Money moves through the store"):

- a player whose WebSocket drops and who reconnects within the grace period gets a snapshot and carries
  on: same seat, same hand, his pending decision (live: a real socket closes and a new one opens);
- after the grace period the table's timeout rules apply: his decision times out (check or fold) and he
  is sat out, and the others play on without him (on the server's harness: the grace and the clocks pass
  on its manual clock);
- a hand in progress when the server stops is cancelled on the next start and every stack returns to the
  wallets (the journal's recovery); the restarted tables number their hands after the old ones (on the
  harness, whose room stops and starts again on the same store).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerroom.engine.events import HandStarted
from pokerroom.rooms import TableConfig, Timing
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from tests.waiting import until

from .conftest import live_server
from .harness import Harness
from .wire import Wire, register, sit

pytestmark = pytest.mark.asyncio

TABLE = "holdem-nl"


def _tables(timing: Timing) -> list[TableConfig]:
    return [t for t in demo_tables(timing, games=("holdem",)) if t.table_id == TABLE]


async def test_a_player_who_reconnects_within_the_grace_carries_on(tmp_path: Path) -> None:
    clock = Timing(action=60, time_bank=0, between_hands=0.05, disconnect_grace=600)
    async with live_server(tmp_path, _tables(clock)) as s:
        alice_t, bob_t = await register(s, "alice"), await register(s, "bob")
        alice, bob = await Wire.open(s, alice_t), await Wire.open(s, bob_t)
        await sit(alice, TABLE, 1)
        await sit(bob, TABLE, 2)
        turn = await alice.until(lambda m: m["type"] == "turn")
        wires, tokens = {1: alice, 2: bob}, {1: alice_t, 2: bob_t}
        seat = turn["seat"]
        await wires[seat].close()  # the player to act drops
        table = s.room.tables[TABLE].table
        await until(
            lambda: table.seats[seat].disconnected_at is not None,
            timeout=60,
            what=f"seat {seat} is disconnected",
        )
        back = await Wire.open(s, tokens[seat])
        await back.send({"type": "subscribe", "table": TABLE})
        snap = await back.until(lambda m: m["type"] == "snapshot")
        state = snap["state"]
        assert state["you"] == seat and state["players"][str(seat)]["status"] == "playing"
        hand = state["hand"]
        assert hand["hand_id"] == turn["hand_id"] and hand["action_no"] == turn["action_no"]
        assert (
            len(hand["players"][str(seat)]["cards"]) == 2 and "??" not in hand["players"][str(seat)]["cards"]
        )
        assert hand["decision"]["seat"] == seat  # his pending decision, with the legal actions
        assert table.seats[seat].disconnected_at is None
        act = {
            "type": "act",
            "table": TABLE,
            "hand_id": hand["hand_id"],
            "action_no": hand["action_no"],
            "action": {"type": "call"},
            "ref": "back",
        }
        await back.send(act)
        assert (await back.reply("back"))["type"] == "ack"
        assert table.hand is not None and table.hand.hand_id == turn["hand_id"]
        assert len(table.hand.commands) > turn["action_no"]  # his call went into the same hand
        for w in (back, wires[3 - seat]):
            await w.close()


async def test_after_the_grace_the_timeout_rules_apply(tmp_path: Path) -> None:
    clock = Timing(action=0.5, time_bank=0, between_hands=0.05, disconnect_grace=0.5)
    h = await Harness.open(tmp_path, RoomSettings(tables=tuple(_tables(clock))), seed=5)
    try:
        alice = await h.login("alice")
        assert (await h.sit(alice, TABLE, 1))["type"] == "ack"
        for i in range(2):
            await h.cash_bot(f"bot{i + 1}", TABLE, "caller", seed=5 + i)
        actor = h.room.tables[TABLE]
        table = actor.table
        # a hand with alice (seat 1) in it
        await h.run(lambda: table.hand is not None and 1 in table.hand.players, seconds=60)
        await h.drop(alice)  # alice leaves her seat unattended and does not come back
        await h.run(lambda: table.seats[1].status == "sitting_out", seconds=60)  # alice is sat out
        assert table.seats[1].stack > 0  # sat out with her chips, not unseated
        # the others play on, in hands without her
        mark = actor.hands_played
        await h.run(lambda: actor.hands_played >= mark + 2, seconds=60)
        other = next(p.player for seat, p in table.seats.items() if seat != 1)
        record = h.room.last_hands.hands(other)[0]
        started = next(e for e in record.events if isinstance(e, HandStarted))
        assert 1 not in started.seats and len(started.seats) == 2
        assert table.seats[1].status == "sitting_out"
        assert (await h.store.verify()).ok
    finally:
        await h.close()


async def test_a_hand_in_progress_at_a_crash_is_cancelled_and_stacks_return(tmp_path: Path) -> None:
    clock = Timing(action=60, time_bank=0, between_hands=0.05, disconnect_grace=600)
    h = await Harness.open(tmp_path, RoomSettings(tables=tuple(_tables(clock))), seed=1)
    try:
        players = [await h.player("alice"), await h.player("bob")]
        wallets = [await h.balance(p) for p in players]
        clients = [h.connect(p.name, p) for p in players]
        assert (await h.sit(clients[0], TABLE, 1, buy_in=2000))["type"] == "ack"
        assert (await h.sit(clients[1], TABLE, 2, buy_in=1500))["type"] == "ack"
        await h.run(lambda: bool(clients[0].of("turn")), seconds=60)
        turn = clients[0].of("turn")[0]
        hand = h.room.tables[TABLE].table.hand
        assert hand is not None and hand.hand_id == turn["hand_id"]
        assert sum(p.paid for p in hand.players.values()) > 0  # the blinds are in the pot
        open_hands = await h.store.journal.open_hands()
        assert [x.hand_id for x in open_hands] == [hand.hand_id]
        await h.restart()  # the server goes away mid-hand: the hand is never finished
        record = await h.store.journal.hand(turn["hand_id"])
        assert record.status == "cancelled"
        assert await h.store.journal.open_hands() == []
        assert [await h.balance(p) for p in players] == wallets  # buy-ins and blinds all returned
        assert (await h.store.verify()).ok
        # the table deals again, with a new hand id
        clients = [h.connect(p.name, p) for p in players]
        assert (await h.sit(clients[0], TABLE, 1))["type"] == "ack"
        assert (await h.sit(clients[1], TABLE, 2))["type"] == "ack"
        await h.run(lambda: bool(clients[0].of("turn")), seconds=60)
        assert clients[0].of("turn")[0]["hand_id"] != turn["hand_id"]
    finally:
        await h.close()

"""Disconnects and crashes (issue: server, "Disconnects" and "Money moves through the store"):

- a player who reconnects within the grace period gets a snapshot and carries on: same seat, same hand,
  his pending decision;
- after the grace period the table's timeout rules apply: his decision times out (check or fold) and he
  is sat out, and the others play on without him;
- a hand in progress when the server stops is cancelled on the next start and every stack returns to the
  wallets (the journal's recovery); the restarted tables number their hands after the old ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerroom.bots.runner import start_bots
from pokerroom.engine.events import HandStarted
from pokerroom.rooms import TableConfig, Timing
from pokerroom.server.demo import demo_tables
from tests.waiting import until

from .conftest import live_server
from .wire import Wire, balance, register, sit

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
    async with live_server(tmp_path, _tables(clock)) as s:
        alice = await Wire.open(s, await register(s, "alice"))
        await sit(alice, TABLE, 1)
        bots = await start_bots(s.url, 2, ["caller"], tables=[TABLE], think=(0, 0), seed=5)
        actor = s.room.tables[TABLE]
        table = actor.table
        try:
            await until(
                lambda: table.hand is not None and 1 in table.hand.players,
                timeout=60,
                what="a hand with alice (seat 1) in it",
            )
            await alice.close()  # alice leaves her seat unattended and does not come back
            await until(
                lambda: table.seats[1].status == "sitting_out",
                timeout=60,
                what="alice is sat out",
                show=lambda: table.seats[1].status,
            )
            assert table.seats[1].stack > 0  # sat out with her chips, not unseated
            # the others play on, in hands without her
            mark = actor.hands_played
            await until(
                lambda: actor.hands_played >= mark + 2,
                timeout=60,
                what="two hands without alice",
                show=lambda: actor.hands_played,
            )
            other = next(p.player for seat, p in table.seats.items() if seat != 1)
            record = s.room.last_hands.hands(other)[0]
            started = next(e for e in record.events if isinstance(e, HandStarted))
            assert 1 not in started.seats and len(started.seats) == 2
            assert table.seats[1].status == "sitting_out"
        finally:
            for bot, task in bots:
                await bot.stop()
                task.cancel()
        assert (await s.room.store.verify()).ok


async def test_a_hand_in_progress_at_a_crash_is_cancelled_and_stacks_return(tmp_path: Path) -> None:
    clock = Timing(action=60, time_bank=0, between_hands=0.05, disconnect_grace=600)
    tokens: list[str] = []
    async with live_server(tmp_path, _tables(clock)) as s:
        tokens = [await register(s, "alice"), await register(s, "bob")]
        wallets = [await balance(s, t) for t in tokens]
        wires = [await Wire.open(s, t) for t in tokens]
        await sit(wires[0], TABLE, 1, buy_in=2000)
        await sit(wires[1], TABLE, 2, buy_in=1500)
        turn = await wires[0].until(lambda m: m["type"] == "turn")
        hand = s.room.tables[TABLE].table.hand
        assert hand is not None and hand.hand_id == turn["hand_id"]
        assert sum(p.paid for p in hand.players.values()) > 0  # the blinds are in the pot
        open_hands = await s.room.store.journal.open_hands()
        assert [h.hand_id for h in open_hands] == [hand.hand_id]
        # the server goes away mid-hand: the hand is never finished
    async with live_server(tmp_path, _tables(clock)) as s2:
        record = await s2.room.store.journal.hand(turn["hand_id"])
        assert record.status == "cancelled"
        assert await s2.room.store.journal.open_hands() == []
        assert [await balance(s2, t) for t in tokens] == wallets  # buy-ins and blinds all returned
        assert (await s2.room.store.verify()).ok
        # the table deals again, with a new hand id
        wires = [await Wire.open(s2, t) for t in tokens]
        await sit(wires[0], TABLE, 1)
        await sit(wires[1], TABLE, 2)
        turn2 = await wires[0].until(lambda m: m["type"] == "turn")
        assert turn2["hand_id"] != turn["hand_id"]
        for w in wires:
            await w.close()

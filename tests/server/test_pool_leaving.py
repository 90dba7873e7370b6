"""Issue 28: a Rush entry that leaves the pool while the hand it quick-folded out of still runs is settled
when that hand ends (its points, its history), and the pool deals on (RULES.md §8.2, §8.5, R213).

On the manual clock of the server's harness (no sockets, no sleeps): a player quick-folds and leaves the
pool at once, ten times in a row, among bots that play and quick-fold themselves; the hands he left end
with a rake, so their settlements name his departed entry. Before the fix the pool halted at the first
such hand (``KeyError`` on the departed entry's owner). The pool keeps playing (never suspended) and, once
the bots leave too, empties with every escrow paid out."""

from __future__ import annotations

from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from pokerroom.engine import Betting, RakeRule, Stakes
from pokerroom.rooms.points import PointsPolicy
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, AccountKind, verify_ledger

from .harness import Client, Harness

TIMING = RushTiming(action=10.0, reduced_action=5.0, time_bank=5.0, disconnect_grace=30)
POOL = PoolConfig(
    "r",
    "Rush",
    "holdem",
    Betting.NO_LIMIT,
    Stakes.blinds(10, 20),
    6,
    rake=RakeRule(500, 60),
    timing=TIMING,
)
BUY_IN = 2_000


def settings() -> RoomSettings:
    return RoomSettings(pools=(POOL,), points=PointsPolicy(tz=UTC))


def live(actor: Any, hand_id: str) -> bool:
    return hand_id in {t.hand.hand_id for t in actor.pool.tables.values()}


def empty(actor: Any) -> bool:
    """No table, book, entry or session left in the pool."""
    return not actor.pool.tables and not actor.books and not actor.pool.entries and not actor.sessions


def quick_foldable(client: Client) -> dict[str, Any] | None:
    """The client's newest ``turn`` for entry 1 if it may Quick Fold now (and its hand is live)."""
    moves = client.of("pool_move", entry=1)
    if not moves:
        return None
    hand = moves[-1]["hand_id"]
    turns = [f for f in client.of("turn", entry=1) if f.get("hand_id", hand) == hand]
    ended = [f for f in client.of("event", entry=1) if f["event"].get("type") == "hand_ended"]
    if ended and ended[-1].get("hand_id") == hand:
        return None
    if turns and turns[-1].get("can_quick_fold"):
        return turns[-1]
    return None


@pytest.mark.asyncio
async def test_quick_fold_then_leave_ten_times_the_pool_deals_on(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, settings(), seed=3)
    try:
        actor = h.room.pools["r"]
        bots = [await h.pool_bot(f"bot{i}", "r", ("random", "caller")[i % 2], seed=i) for i in range(11)]
        me = await h.player("leaver")
        client = h.connect("leaver", me)
        await h.run(lambda: actor.hands_played >= 3, seconds=600)
        left_hands: list[str] = []
        settled_with_points = 0
        for _ in range(10):
            client.frames.clear()
            await h.send(client, {"type": "pool_join", "pool": "r", "buy_in": BUY_IN})
            await h.run(lambda: quick_foldable(client) is not None, seconds=900)
            hand = client.of("pool_move", entry=1)[-1]["hand_id"]
            await h.send(client, {"type": "quick_fold", "pool": "r", "entry": 1})
            await h.send(client, {"type": "pool_leave", "pool": "r", "entry": 1})
            # (it leaves at once, or after the next hand if it was dealt one as it quick-folded)
            await h.run(lambda: bool(client.of("pool_entry", entry=1, status="left")), seconds=900)
            assert not h.room.pools["r"].pool.entries_of(str(me.id))
            left_hands.append(hand)
            # The hand he left ends without him; the pool deals on past it.

            def left_hand_over(hand: str = hand) -> bool:
                return not live(actor, hand)

            await h.run(left_hand_over, seconds=900)

            def three_more(done: int = actor.hands_played) -> bool:
                return actor.hands_played >= done + 3

            await h.run(three_more, seconds=900)
            assert not actor.broken and actor.errors == 0, "the pool failed settling a hand"
            assert actor.state == "playing", actor.suspended
            record = await h.store.journal.hand(hand)
            assert record is not None and record.status == "ended", record
            if any(pid == me.id and v > 0 for pid, v in record.result["points"]):
                settled_with_points += 1
        assert settled_with_points >= 1, "no hand he left ended with points for him: the test missed the case"
        for bot in bots:
            await h.stop_bot(bot)
        await h.run(lambda: empty(actor), seconds=900)
        assert actor.pool.dealing and actor.errors == 0
        report = await verify_ledger(h.store.db)
        assert report.ok, report.problems
        assert report.totals[PLAY].by_kind.get(AccountKind.ESCROW, 0) == 0
    finally:
        await h.close()

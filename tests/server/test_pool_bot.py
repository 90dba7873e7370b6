"""The pool bot (bots/pool.py) keeps what a ``pool_move`` told it when its ``pool_join`` is answered
after the move: the pool may deal the moment an entry joins, so the move can come first. Before the fix
the answer reset the entry, the bot ignored its first turn (another hand id) and that hand waited for
the clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import RushTiming
from pokerroom.server.demo import demo_pools, demo_tables
from pokerroom.server.room import RoomSettings

from .harness import Harness

POOL = "rush-holdem-nl-6max"


@pytest.mark.asyncio
async def test_a_pool_bot_moved_before_its_join_is_answered_plays_its_first_hand(tmp_path: Path) -> None:
    rush = RushTiming(action=2.0, reduced_action=1.0, time_bank=0.5, disconnect_grace=2.0)
    cash = Timing(action=2.0, time_bank=0.5, between_hands=2.0, disconnect_grace=3)
    table = demo_tables(cash, games=("holdem",))[0]
    h = await Harness.open(tmp_path, RoomSettings(tables=(table,), pools=(demo_pools(rush)[0],)), seed=3)
    try:
        for i in range(3):
            await h.cash_bot(f"cash{i}", table.table_id, "caller", seed=i)
        clients = [
            await h.pool_bot(f"rushbot{i}", POOL, "caller", seed=3 + i, quick_fold=0.5) for i in range(4)
        ]
        actor = h.room.pools[POOL]
        await h.run(lambda: actor.pool.hands_dealt >= 2, seconds=60)
        for c in clients:  # each bot knows the hand its entry was moved to
            move = c.of("pool_move", entry=1)[-1]
            assert c.bot.entries[1].hand_id == move["hand_id"], (c.name, c.bot.entries)
    finally:
        await h.close()

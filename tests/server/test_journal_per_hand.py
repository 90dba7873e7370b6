"""A hand costs its table two write transactions, its start record and its end record, however many
actions it has: the commands go with the end record (docs/store.md, "Per hand"; issue 37 item 4 and issue
32 item 3). Before, every batch of actions was a commit of its own, so a table host's commits per hand grew
with the actions and with how few tables it had to batch them with."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from pokerroom.engine import Betting, Stakes
from pokerroom.rooms import TableConfig, Timing
from pokerroom.server.room import RoomSettings
from pokerroom.store import verify_ledger

from .harness import Harness

TIMING = Timing(action=10.0, time_bank=5.0, between_hands=1.0, disconnect_grace=600, sit_out_limit=3600)


@pytest.mark.asyncio
async def test_each_hand_is_two_commits_and_its_commands_are_all_journaled(tmp_path: Path) -> None:
    cfg = TableConfig("t", "T", "holdem", Betting.FIXED_LIMIT, Stakes.fixed_limit(2, 4), 6, timing=TIMING)
    h = await Harness.open(tmp_path, RoomSettings(tables=(cfg,)), seed=3)
    try:
        clients = [await h.cash_bot(f"player{i}", "t", "caller", seed=i) for i in range(4)]
        # (fixed limit, deep stacks: nobody busts or tops up in these few hands)
        actor = h.room.tables["t"]
        await h.run(lambda: actor.hands_played >= 1, seconds=600)
        samples = []
        for n in range(2, 6):
            await h.run(lambda n=n: actor.hands_played >= n, seconds=600)  # type: ignore[misc]
            await h.quiet()  # (the next hand waits for the clock: its start is not written yet)
            samples.append((actor.hands_played, h.store.db.commits))
        per_hand = [(c2 - c1) / (n2 - n1) for (n1, c1), (n2, c2) in pairwise(samples)]
        assert per_hand == [2.0] * len(per_hand), per_hand
        journal = h.store.journal
        frames = clients[0].frames
        ended = {f["hand_id"] for f in frames if f["type"] == "event" and f["event"]["type"] == "hand_ended"}
        assert len(ended) >= 5
        for hand_id in ended:
            acted = sum(
                1
                for f in frames
                if f["type"] == "event" and f.get("hand_id") == hand_id and f["event"]["type"] == "action"
            )
            commands = await journal.commands(hand_id)
            assert [c.seq for c in commands] == list(range(1, len(commands) + 1))
            assert len(commands) >= acted > 0  # every action the players saw is in the journal
            assert (await journal.hand(hand_id)).status == "ended"
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()

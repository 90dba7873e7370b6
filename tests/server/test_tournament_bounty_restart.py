"""Bounties across a restart (issue 35, item 5; RULES.md §11.3): a running bounty tournament cancelled by a
restart pays each player still in his own bounty exactly (kept in the store after every hand), then shares
the prize part by chips (docs/decisions.md, server/tournament/recovery.py).

On the server's harness (tests/server/harness.py): the room on a manual clock, bots as clients."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.ids import player_key
from pokerroom.server.room import RoomSettings
from pokerroom.store import verify_ledger

from .harness import EPOCH, Harness
from .test_tournament_reentry import FAST, memos
from .wire import prize_pool


@pytest.mark.asyncio
async def test_a_restart_pays_each_player_still_in_his_own_bounty_exactly(tmp_path: Path) -> None:
    """Issue 35, item 5: a running progressive-knockout tournament cancelled by a restart used to share
    what was left in its pool (bounties included) by chips; each player still in now gets his own bounty
    as the store kept it after the last finished hand, then the prize part is shared by chips."""
    cfg = TournamentConfig(
        "pkr", "PKO restart", kind="mtt", buy_in=1000, fee=100, bounty=50, progressive=True,
        start_time=EPOCH + timedelta(seconds=8), table_size=2, starting_stack=300, level_minutes=0.2,
        break_minutes=0, timing=FAST, currency="PLAY",
    )  # fmt: skip
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=8)
    try:
        actor = h.room.tournaments["pkr"]
        bots = [await h.tournament_bot(f"kbot{i + 1}", "pkr", "caller", seed=i) for i in range(5)]
        d = actor.director

        def knocked_out() -> bool:
            return d.bounty_out > 0 or d.status in ("finished", "cancelled")

        await h.run(knocked_out, seconds=3_600)
        # The director counts a knockout when its hand ends; the hand's bounty and ledger writes follow.
        # Let the room come to rest before reading the store, or the balances read below may miss the
        # cash half of a bounty that the restart's payout then finds paid (a flake under load).
        await h.quiet()
        assert d.status == "running" and d.bounty_out > 0 and d.left >= 2
        own = {e.player: e.bounty for e in d.remaining if e.stack > 0}
        assert sum(own.values()) == d.bounty_in - d.bounty_out and max(own.values()) > 500  # (progressive)
        before = {player_key(p.id): await h.balance(p) for c in bots if (p := c.player) is not None}
        left = await prize_pool(h.store, "pkr")
        await h.restart()
        paid = [m for m in await memos(h, "tourney_bounty") if m.get("ended") == "restart"]
        assert {str(m["player"]): m["victim"] for m in paid} == {p: p for p in own}
        async with h.store.db.read() as conn:
            rows = (
                await conn.execute(
                    text(
                        "SELECT t.memo, e.amount FROM ledger_transactions t JOIN ledger_postings e"
                        " ON e.tx_id = t.id WHERE t.kind = 'tourney_bounty' AND e.amount > 0"
                    )
                )
            ).all()
        amounts = {json.loads(m)["player"]: a for m, a in rows if json.loads(m).get("ended") == "restart"}
        assert amounts == own, "each his own bounty, exactly"
        after = {player_key(p.id): await h.balance(p) for c in bots if (p := c.player) is not None}
        assert sum(after[k] - before[k] for k in before) == left + 100 * len(own)
        assert await prize_pool(h.store, "pkr") == 0 and (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()

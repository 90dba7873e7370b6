"""A progressive-knockout sit-and-go in the room (issue 35; RULES.md §11.3, R259): bots play it to the
end; every bounty is paid through the ledger once (``tourney_bounty``, memo naming the eliminated player),
the prize pool (the prize part only) is paid by the payout table, the pool account ends empty and the
ledger verifies; the lobby row and the table's snapshot show the bounties.

On the server's harness (tests/server/harness.py): a manual clock, bots as clients."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, AccountKind, verify_ledger

from .harness import Harness

CLOCK = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)


@pytest.mark.asyncio
async def test_a_pko_sit_and_go_pays_every_bounty_once_through_the_ledger(tmp_path: Path) -> None:
    cfg = TournamentConfig(
        "pko", "PKO", kind="sng", max_players=4, buy_in=1000, fee=100, bounty=50, progressive=True,
        level_minutes=0.03, timing=CLOCK,
    )  # fmt: skip
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=9)
    try:
        actor = next(a for a in h.room.tournaments.values() if a.series == "pko")
        bots = [await h.tournament_bot(f"tbot{i + 1}", actor.tid, "random", seed=i) for i in range(4)]
        await h.run(lambda: actor.hands_played >= 1, seconds=60)
        assert actor.summary()["bounty"] == 50 and actor.summary()["progressive"] is True
        snapshot = next(f for c in bots for f in c.of("snapshot") if f["state"].get("tournament"))
        assert set(snapshot["state"]["tournament"]["bounties"].values()) <= {500, 750, 1000, 1250, 1500}
        await h.run(lambda: actor.finished_at is not None, seconds=50_000)
        d = actor.director
        assert d.pool == 2000 and d.bounty_in == 2000 == d.bounty_out  # 4 x (500 prize + 500 bounty)
        async with h.store.db.read() as conn:
            rows = (
                await conn.execute(text("SELECT memo FROM ledger_transactions WHERE kind = 'tourney_bounty'"))
            ).all()
        memos = [json.loads(m) for (m,) in rows]
        victims = [m["victim"] for m in memos]
        assert len(victims) == len(set(victims)) == 4  # three knockouts and the winner's own bounty
        winner = next(e.player for e in d.entrants.values() if e.place == 1)
        assert {m["player"] for m in memos if m["victim"] == winner} == {winner}
        pool = await h.store.ledger.account(AccountKind.PRIZE_POOL, PLAY, ref=actor.tid)
        assert (await h.store.ledger.get_account(pool)).balance == 0
        assert (await verify_ledger(h.store.db)).ok
        assert sum(e.bounties_won for e in d.entrants.values()) == 2000
        assert {r["player"]: r["bounties_won"] for r in d.standings()} == {
            p: e.bounties_won for p, e in d.entrants.items()
        }
    finally:
        await h.close()

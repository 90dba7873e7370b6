"""Re-entry in the room (issue 35; RULES.md §11.3, R261): a busted player registers again during late
registration as a new entry, a new buy-in through the ledger (``tourney_buyin``, memo kind ``re_entry``
and its ``entry``), a row of its own in the store; each entry finishes in its own place, his prize is the
sum of his entries' prizes, and the pool is paid to the unit. A restart while it runs shares the pool by
the chips of each player's live entry.

On the server's harness (tests/server/harness.py): the room on a manual clock, bots as clients."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.errors import Refused
from pokerroom.server.ids import player_key
from pokerroom.server.room import RoomSettings
from pokerroom.server.tournament.actor import TournamentActor
from pokerroom.store import verify_ledger

from .harness import EPOCH, Harness
from .wire import prize_pool

FAST = Timing(action=1.0, time_bank=0.5, between_hands=0.5, disconnect_grace=2)


def reentry_mtt(tid: str = "re") -> TournamentConfig:
    return TournamentConfig(
        tid,
        "Re-entry",
        kind="mtt",
        buy_in=1000,
        fee=100,
        start_time=EPOCH + timedelta(seconds=8),
        table_size=2,
        starting_stack=300,
        late_registration_levels=20,
        level_minutes=0.2,  # 12 s a level: late registration stays open for 4 minutes of room time
        break_minutes=0,
        max_entries=3,
        timing=FAST,
        currency="PLAY",
    )


async def wait_for_a_bust(h: Harness, actor: TournamentActor) -> str:
    """The first player whose only entry is out (the tournament still running, registration open)."""
    d = actor.director

    def busted() -> bool:
        over = d.status in ("finished", "cancelled")
        return over or any(k == e.player and e.out for k, e in d.entrants.items())

    await h.run(busted, seconds=3_600)
    assert d.status == "running" and d.registration_open(h.clock.now())
    return next(k for k, e in d.entrants.items() if k == e.player and e.out)


async def memos(h: Harness, kind: str) -> list[dict[str, object]]:
    async with h.store.db.read() as conn:
        rows = (
            await conn.execute(text("SELECT memo FROM ledger_transactions WHERE kind = :k"), {"k": kind})
        ).all()
    return [json.loads(m) for (m,) in rows]


@pytest.mark.asyncio
async def test_a_re_entry_is_a_new_entry_booked_stored_and_paid_on_its_own(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(reentry_mtt(),)), seed=4)
    try:
        actor = h.room.tournaments["re"]
        bots = [await h.tournament_bot(f"tbot{i + 1}", "re", "caller", seed=i) for i in range(4)]
        names: dict[str, str] = {player_key(c.player.id): c.name for c in bots if c.player is not None}
        d = actor.director
        busted = await wait_for_a_bust(h, actor)
        player = next(c.player for c in bots if c.player and player_key(c.player.id) == busted)
        before = await h.balance(player)
        keeper = next(k for k, e in d.entrants.items() if k == e.player and not e.out)
        with pytest.raises(Refused) as refused:  # a player still in has no second entry
            await h.front.tournament_request("re", "register", keeper, names[keeper], False)
        assert refused.value.code == "already_registered"
        await h.front.tournament_request("re", "register", busted, names[busted], False)
        assert d.entrants[busted].entry == 2 and not d.entrants[busted].out
        assert await h.balance(player) == before - 1100, "a new buy-in and fee from the wallet"
        bought = [m for m in await memos(h, "tourney_buyin") if m.get("kind") == "re_entry"]
        assert bought == [{"tournament": "re", "player": busted, "kind": "re_entry", "entry": 2}]
        standings = [(r["player"], r["entry"]) for r in actor.details()["standings"]]
        assert (busted, 1) in standings and (busted, 2) in standings, "standings number the entries"
        await h.run(lambda: actor.finished_at is not None, seconds=36_000)
        assert d.status == "finished"
        entries = len(d.entrants)
        assert d.pool == 1000 * entries and sum(actor.prizes.values()) == d.pool
        assert await prize_pool(h.store, "re") == 0 and (await verify_ledger(h.store.db)).ok
        prizes = await memos(h, "tourney_prize")
        assert Counter((m["player"], m["entry"]) for m in prizes).most_common(1)[0][1] == 1
        for p, amount in actor.prizes.items():  # his prize is the sum of his entries' prizes (R261)
            booked = [m for m in prizes if m["player"] == p]
            assert len(booked) == sum(1 for e in d.entrants.values() if e.player == p and e.place and
                                      e.place <= len(d.prizes))  # fmt: skip
            assert amount > 0
        stored = next(r for r in await h.store.tournaments.finished() if r.id == "re")
        rows = {(str(e.player_id), e.entry): e.place for e in stored.entries}
        assert rows == {(e.player, e.entry): e.place for e in d.entrants.values()}, "each entry stored"
        places = sorted(p for p in rows.values() if p is not None)
        assert len(places) == entries
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_restart_shares_the_pool_by_each_players_live_entry(tmp_path: Path) -> None:
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(reentry_mtt("rr"),)), seed=6)
    try:
        actor = h.room.tournaments["rr"]
        bots = [await h.tournament_bot(f"rbot{i + 1}", "rr", "caller", seed=i) for i in range(3)]
        names: dict[str, str] = {player_key(c.player.id): c.name for c in bots if c.player is not None}
        busted = await wait_for_a_bust(h, actor)
        await h.front.tournament_request("rr", "register", busted, names[busted], False)
        d = actor.director
        assert len(d.entrants) == 4 and d.entrants[busted].entry == 2
        holders = {e.player for k, e in d.entrants.items() if k == e.player and e.stack > 0}
        assert busted in holders, "his live entry holds a full stack"
        before = {player_key(p.id): await h.balance(p) for c in bots if (p := c.player) is not None}
        await h.restart()
        assert await prize_pool(h.store, "rr") == 0, "the whole pool paid out after the restart"
        assert (await verify_ledger(h.store.db)).ok
        after = {player_key(p.id): await h.balance(p) for c in bots if (p := c.player) is not None}
        gained = {k: after[k] - before[k] for k in before}
        # 4 entries' 4,000 by the chips of the live entries, and each holder's fee back (his first
        # entry's busted row, stack 0, adds nothing)
        assert sum(gained.values()) == 4000 + 100 * len(holders)
        assert {k for k, g in gained.items() if g > 0} == holders
    finally:
        await h.close()

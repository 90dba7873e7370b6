"""Issue 29, item 6: the rake report groups a Rush pool's hands as one row (not one row per short-lived Rush
table) and a cash table's hands by the stakes they were dealt at (a reload that changed the stakes starts a
new row; before, every row showed the table's current stakes). The report's sums are the rake RULES.md
§7.1 books to the house (each hand's by R185-R187), to the chip."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select, update

from pokerroom.engine import Betting, RakeRule, Stakes
from pokerroom.rooms import Timing
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import RoomSettings
from pokerroom.store import PLAY, AccountKind, verify_ledger
from pokerroom.store.models import HandRow

from .harness import Harness

CLOCK = Timing(action=3.0, time_bank=0.0, between_hands=0.05, disconnect_grace=600, sit_out_limit=3600)
POOL = PoolConfig(
    pool_id="r",
    name="Rush",
    variant="holdem",
    betting=Betting.NO_LIMIT,
    stakes=Stakes.blinds(10, 20),
    table_size=6,
    rake=RakeRule(500, 60),
    timing=RushTiming(),
    currency=PLAY,
)
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


@pytest.mark.asyncio
async def test_rake_report_has_one_row_per_pool_and_per_stakes_of_the_hands_time(tmp_path: Path) -> None:
    (table,) = demo_tables(CLOCK, games=("holdem",))[:1]
    h = await Harness.open(tmp_path, RoomSettings(tables=(table,), pools=(POOL,)), seed=5)
    try:
        pool = h.room.pools["r"]
        for i in range(7):
            await h.pool_bot(f"rush{i}", "r", ("caller", "random")[i % 2], seed=i)
        for i in range(2):
            await h.cash_bot(f"cash{i}", table.table_id, "caller", seed=20 + i)
        cash = h.room.tables[table.table_id]
        await h.run(lambda: pool.hands_played >= 6 and cash.hands_played >= 2, seconds=3600)
        # a reload raises the table's stakes: it closes after its hand and opens again at 20/40
        dearer = replace(table, stakes=Stakes.blinds(20, 40))
        await h.room.reconfigure(RoomSettings(tables=(dearer,), pools=(POOL,)))

        def reopened() -> bool:
            t = h.room.tables.get(table.table_id)
            return t is not None and t.table.config.stakes == dearer.stakes and t.hands_played >= 2

        await h.run(reopened, seconds=3600)
        await h.quiet()
        for client in list(h.clients):
            await h.stop_bot(client)
        await h.quiet()
        rows = await h.store.reports.rake(EPOCH)
        async with h.store.db.read() as conn:
            rush_tables = set(
                (await conn.execute(select(HandRow.table_id).where(HandRow.pool_id == "r"))).scalars()
            )
        assert len(rush_tables) > 1  # Rush deals on many short-lived tables ...
        rush = [r for r in rows if r.kind == "rush"]
        assert {(r.table, r.stakes) for r in rush} == {("r", "10/20")}  # ... reported as one pool
        assert len(rush) == len({r.day for r in rush})
        cash_rows = {r.stakes: r for r in rows if r.kind == "cash"}
        assert set(cash_rows) == {"10/20", "20/40"}, rows  # the stakes each hand was dealt at
        assert all(r.table == table.table_id for r in cash_rows.values())
        house = await h.store.ledger.system_balance(AccountKind.HOUSE, PLAY)
        assert sum(r.rake for r in rows) == house > 0  # every chip of rake, once
        # hands dealt before revision 0019 kept no pool: a pool still offered takes its tables' hands back
        async with h.store.db.write() as conn:
            await conn.execute(
                update(HandRow).where(HandRow.pool_id == "r").values(pool_id=None, stakes=None)
            )
        before = await h.store.reports.rake(EPOCH)
        assert len([r for r in before if r.table.startswith("r-t")]) > 1  # (one per table: as before 0019)
        again = await h.store.reports.rake(EPOCH, pools=["r"])
        assert {(r.table, r.kind) for r in again if r.kind == "rush"} == {("r", "rush")}
        assert sum(r.rake for r in again) == house
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()

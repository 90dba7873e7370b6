"""Issue 37, item 1, live: a host that joins a busy room gets its share of the tables by itself, between
hands (no hand voided, every player seated again with his chips); a host stopped with SIGTERM drains (its
tables and its pool move to the other host between hands) instead of failing over. Real processes: two
hosts and a gateway on PostgreSQL and NATS, bots playing through the gateway."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from pokerroom.bots.client import BotStats
from pokerroom.bots.runner import start_bots, start_pool_bots
from tests.cluster.nodes import TABLES, Cluster, Node, room_file, until
from tests.cluster.test_cluster import _check_ledger
from tests.cluster.watch import Watcher

JOIN_LIMIT = 60.0  # seconds within which a joining host gets its share (issue 37)


def _took_over(node: Node) -> dict[str, str]:
    """resource -> the host's "took over" log line for it (the last one)."""
    out: dict[str, str] = {}
    for line in node.output().splitlines():
        found = re.search(r"took over (pool )?(\S+) \(lease", line)
        if found:
            out[("pool:" if found.group(1) else "table:") + found.group(2)] = line
    return out


@pytest.mark.asyncio
async def test_a_joining_host_gets_its_share_and_a_stopping_host_drains(
    tmp_path: Path, services: None
) -> None:
    config = room_file(tmp_path, extra=True)
    tables = [t[0] for t in TABLES]
    cluster = Cluster(tmp_path)
    bots: list[Any] = []
    watcher: Watcher | None = None
    pool_stats = BotStats()
    try:
        h1 = cluster.start("host", "h1", config)
        g1 = cluster.start("gateway", "g1", config)
        for node in (h1, g1):
            await cluster.ready(node)

        async def h1_holds_everything() -> bool:
            held = await cluster.leases()
            return all(held.get(f"table:{t}") == "h1" for t in tables) and held.get("pool:rush-e") == "h1"

        await until(h1_holds_everything, 60, "h1 holds every table and the pool")
        watcher = Watcher(g1.url)
        await watcher.open(tables)
        bots += await start_bots(g1.url, 8, ["caller", "random"], think=(0, 0.05), seed=11, prefix="sp")
        bots += await start_pool_bots(
            g1.url, "rush-e", 3, ["caller"], think=(0, 0.05), seed=12, prefix="spp", stats=pool_stats
        )

        async def every_table_deals() -> bool:
            return all(len(watcher.hands_started(t, 0)) >= 2 for t in tables) and pool_stats.hands >= 2

        await until(every_table_deals, 180, "every table and the pool deal")

        # A second host joins the busy room: the first hands it tables between hands, by itself.
        h2 = cluster.start("host", "h2", config)
        await cluster.ready(h2)
        joined = time.monotonic()

        async def h2_has_a_share() -> bool:
            held = await cluster.leases()
            return sum(1 for t in tables if held.get(f"table:{t}") == "h2") >= 1

        took = await until(h2_has_a_share, JOIN_LIMIT, "the joining host gets tables by itself")
        print(f"\nthe joining host held its first table {took:.1f} s after it was ready")
        held = await cluster.leases()
        moved = [t for t in tables if held.get(f"table:{t}") == "h2"]

        async def logged() -> bool:  # (its lease comes before its line in the log)
            return all(f"table:{t}" in _took_over(h2) for t in moved)

        await until(logged, 60, f"h2 says it took {moved} over")
        lines = _took_over(h2)
        for t in moved:
            assert " 0 hand(s) voided" in lines[f"table:{t}"], lines[f"table:{t}"]

        async def moved_deal_again() -> bool:  # (h2's hands: their ids carry its lease, fence 2 or more)
            return all(
                sum(1 for h in watcher.hands_started(t, joined) if not h.startswith(f"{t}-f1-")) >= 2
                for t in moved
            )

        await until(moved_deal_again, 120, f"{moved} deal on h2")

        # The first host is stopped (SIGTERM): it drains, its tables and its pool move between hands.
        before = set(_took_over(h2))
        stopped = time.monotonic()
        hands = pool_stats.hands
        h1.proc.send_signal(signal.SIGTERM)

        async def drained() -> bool:
            held = await cluster.leases()
            return all(held.get(f"table:{t}") == "h2" for t in tables) and held.get("pool:rush-e") == "h2"

        await until(drained, 120, "h1's tables and pool move to h2")
        drained_in = time.monotonic() - stopped

        async def all_logged() -> bool:
            return {f"table:{t}" for t in tables} | {"pool:rush-e"} <= set(_took_over(h2))

        await until(all_logged, 60, "h2 says it took h1's work over")
        print(f"h1's tables and pool moved to h2 {drained_in:.1f} s after its SIGTERM")
        # (uvicorn stops gracefully on SIGTERM, then ends by the signal it caught)
        assert h1.proc.wait(60) in (0, -signal.SIGTERM), h1.output()[-3000:]
        lines = _took_over(h2)
        for resource in set(lines) - before:
            assert " 0 hand(s) voided" in lines[resource], lines[resource]

        async def deal_again() -> bool:
            tables_deal = all(len(watcher.hands_started(t, stopped)) >= 2 for t in tables)
            return tables_deal and pool_stats.hands >= hands + 2

        async def seen() -> dict[str, Any]:  # (what a failure shows: each table as the room has it)
            async with httpx.AsyncClient(timeout=10) as http:
                state = {t: (await http.get(f"{g1.url}/api/tables/{t}")).json() for t in tables}
            return {
                "hands since the stop": {t: len(watcher.hands_started(t, stopped)) for t in tables},
                "pool hands": (hands, pool_stats.hands),
                "tables": state,
            }

        await until(deal_again, 120, "every table and the pool deal again on h2", show=seen)
        assert "draining: handing" in h1.output()
        for table in tables:
            assert watcher.stale_notices(table) == [], table
    finally:
        for bot, task in bots:
            await bot.stop()
            task.cancel()
        if watcher is not None:
            await watcher.close()
        cluster.stop()
    try:
        assert watcher is not None and watcher.leaks() == []
        await _check_ledger(cluster.schema)
    finally:
        await cluster.drop_schema()

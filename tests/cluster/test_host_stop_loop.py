"""A table host stopped for 20 s and resumed, again and again (issue 37): two hosts, one gateway, bots at
every cash table and in a Rush pool; after each stop every table and the pool deal again (at most 120 s;
the times are printed, with the pool bots' refusals). A tool to reproduce a rare failure, never in CI:
``POKERROOM_STOP_LOOP=<rounds>`` runs it; ``POKERROOM_STOP_BOTH=1`` stops the other host too, 2 s later,
and resumes it ``POKERROOM_STOP_GAP`` seconds after the first (negative: before it), so that it takes the
first one's tables over at the moment that one runs again. Logs: the directory it prints."""

from __future__ import annotations

import os
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.nodes import Cluster, NatsServer, room_file
from tests.cluster.test_fault_sequence import _pause, _quietly, start_room
from tests.cluster.watch import Watcher
from tests.pgcluster import PrivatePostgres, pg_binaries

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("POKERROOM_STOP_LOOP") is None, reason="repro loop"),
]


@pytest.mark.asyncio
async def test_stop_loop(tmp_path: Path, services: None) -> None:
    assert pg_binaries() is not None
    nats = NatsServer(tmp_path)
    pg = PrivatePostgres()
    pg.init()
    nats.start()
    config = room_file(tmp_path, extra=True)
    cluster = Cluster(tmp_path, bus=nats.url, database=pg.url)
    bots: list[Any] = []
    watcher: Watcher | None = None
    print("logs in", tmp_path)
    try:
        room = await start_room(cluster, config, ("h1", "h2"), ("g1",), bots)
        watcher, pool = room.watcher, room.pool
        for n in range(int(os.environ["POKERROOM_STOP_LOOP"])):
            held = await cluster.leases()
            counts = Counter(held.values())
            hosts = room.live("host")
            victim = hosts[n % 2] if n % 3 else max(hosts, key=lambda h: counts.get(h.node_id, 0))
            print(f"round {n}: stopping {victim.node_id} ({dict(counts)}) {held}")
            other = next(h for h in hosts if h is not victim)
            both = os.environ.get("POKERROOM_STOP_BOTH") == "1"
            victim.proc.send_signal(signal.SIGSTOP)
            if both:  # the other stopped too, before the victim's leases expire; resumed just after it
                await _pause(2)
                other.proc.send_signal(signal.SIGSTOP)
                await _pause(18)
                gap = float(os.environ.get("POKERROOM_STOP_GAP", "0.3"))  # (< 0: the other first)
                first, second = (victim, other) if gap >= 0 else (other, victim)
                first.proc.send_signal(signal.SIGCONT)
                await _pause(abs(gap))
                second.proc.send_signal(signal.SIGCONT)
            else:
                await _pause(20)
                victim.proc.send_signal(signal.SIGCONT)
            await room.deals_again(f"{victim.node_id} stopped for 20 s (round {n})")
            print(f"  pool bots: {pool.hands} hands, errors {dict(pool.error_codes)}")
            await _pause(5 + n % 7)
    finally:
        for bot, task in bots:
            await _quietly(bot.stop)
            task.cancel()
        if watcher is not None:
            await _quietly(watcher.close)
        cluster.stop()
        nats.kill()
        pg.destroy()

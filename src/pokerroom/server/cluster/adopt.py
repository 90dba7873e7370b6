"""A host takes a table, pool or tournament over (docs/cluster.md, "Failover").

It holds the resource's lease (``fence``) first. Then, exactly as a restart would for that resource and
for nothing else: its interrupted hands are voided (the journal cancels them; the stakes were never
booked, so every seat session holds its start stack again), and the players are seated again from their
open seat sessions (a cash table: each at the seat of the table's last hand when it is free; a Rush pool:
each entry waits for its next table). A tournament is settled by the rule of a restart
(``server/tournament/recovery.py``: one not started yet opens again with its registrations; one that was
running is cancelled and its pool paid out by ``interrupted_shares``). Every write carries the fence: a
host that lost the lease meanwhile cannot write.
"""

from __future__ import annotations

import logging
from typing import Any

from pokerroom.rooms import TableConfig
from pokerroom.rooms.rush_rules import PoolConfig
from pokerroom.server.cash import CashActor
from pokerroom.server.pool import PoolActor
from pokerroom.server.room import Room
from pokerroom.server.tournament import TournamentActor
from pokerroom.server.tournament.recovery import recover_one, settings_by_id
from pokerroom.store import FENCE, Fence, Store

__all__ = ["adopt_pool", "adopt_table", "adopt_tournament"]

log = logging.getLogger("pokerroom.cluster")


async def _names(store: Store, ids: set[int]) -> dict[int, str]:
    return {pid: (await store.accounts.get(pid)).name for pid in sorted(ids)}


async def adopt_table(room: Room, cfg: TableConfig, fence: Fence) -> CashActor:
    store, tid = room.store, cfg.table_id
    token = FENCE.set(fence)
    try:
        cancelled = await store.journal.recover(tables=lambda t: t == tid)
        sessions = await store.ledger.sessions(table_id=tid)
        seat_of = await store.journal.last_seats(tid)
        names = await _names(store, {s.player_id for s in sessions})
        hands = await store.journal.hand_count(tid)
        actor = room.add_table(cfg, hands_before=hands)  # its task starts with this fence (its context)
    finally:
        FENCE.reset(token)
    actor.fence = fence
    actor.table.hand_prefix = f"f{fence.fence}-"
    seats = [(s.id, s.player_id, s.balance, names[s.player_id], seat_of.get(s.id)) for s in sessions]
    await actor.call(lambda: actor.restore(seats))
    log.warning(
        "took over %s (lease %d): %d hand(s) voided, %d player(s) seated again",
        tid,
        fence.fence,
        len(cancelled),
        len(actor.table.seats),
    )
    return actor


async def adopt_pool(room: Room, cfg: PoolConfig, fence: Fence) -> PoolActor:
    store, pid = room.store, cfg.pool_id
    prefix = f"{pid}-t"
    token = FENCE.set(fence)
    try:
        cancelled = await store.journal.recover(
            tables=lambda t: t.startswith(prefix) and t[len(prefix) :].isdigit()
        )
        sessions = await store.ledger.sessions(table_id=pid)
        names = await _names(store, {s.player_id for s in sessions})
        actor = room.add_pool(cfg)
    finally:
        FENCE.reset(token)
    actor.fence = fence
    entries = [(s.id, s.player_id, s.balance, names[s.player_id]) for s in sessions]
    await actor.call(lambda: actor.restore(entries))
    log.warning(
        "took over pool %s (lease %d): %d hand(s) voided, %d entr(ies) back in the pool",
        pid,
        fence.fence,
        len(cancelled),
        len(actor.pool.entries),
    )
    return actor


async def adopt_tournament(room: Room, tid: str, fence: Fence) -> TournamentActor | None:
    """Settle or reopen a stored tournament (None: it is over, or was settled by the restart rule)."""
    store = room.store
    settings = settings_by_id(room.settings.tournaments, room.settings.rush_tournaments)
    token = FENCE.set(fence)
    try:
        record = next((r for r in await store.tournaments.live() if r.id == tid), None)
        if record is None:
            return None
        opened: list[TournamentActor] = []

        def reopen(cfg: Any, rush: bool, series: str | None, spec: Any) -> TournamentActor:
            actor = room.open_tournament(cfg, rush=rush, series=series, spec=spec)
            actor.fence = fence  # before its task first runs (it sets its fence from this)
            opened.append(actor)
            return actor

        await recover_one(store, record, settings, reopen)
    finally:
        FENCE.reset(token)
    return opened[0] if opened else None

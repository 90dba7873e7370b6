"""The planted-table harness of the integrity detectors (issue 30), shared by their tests
(tests/server/test_integrity_*.py) and their benchmark (benchmarks/integrity.py, which imports it): a
room of 6-max no-limit hold'em tables on the server's virtual clock, its store on the same clock (so the
journal's times are the room's), a field of bots seated at them (honest strategies in turn, the planted
ones given their roles by :func:`pokerroom.bots.planted.plant`), played for a number of hands; and
``pokerroom integrity report`` run over the store it leaves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from typer.testing import CliRunner

from pokerroom.bots.dumping import Seat
from pokerroom.bots.planted import HONEST, plant
from pokerroom.cli import app
from pokerroom.rooms import Timing
from pokerroom.server.clock import ManualClock
from pokerroom.server.demo import demo_tables
from pokerroom.server.room import Room, RoomSettings
from pokerroom.store import Database, Store

from .harness import CHEAP, EPOCH, Client, Harness

__all__ = ["TIMING", "integrity_report", "open_planted_room", "play_hands", "seat_field"]

TIMING = Timing(action=10.0, time_bank=0.0, between_hands=0.5, disconnect_grace=5)


async def open_planted_room(
    path: Path, *, seed: int, tables: int | None = None, prefix: str = "bench", start: datetime | None = None
) -> tuple[Harness, tuple[str, ...]]:
    """A started room on the SQLite store at ``path`` (clock and store on one manual clock, from
    ``start``: by default the harness's ``EPOCH``), dealing with ``random.Random(seed)``; its tables are
    the demo hold'em ones (``tables`` None: "holdem-nl" among them) or ``tables`` copies of the first,
    ``{prefix}-0`` on. Returns the harness and the table ids."""
    clock = ManualClock(start)
    store = Store(
        Database(f"sqlite+aiosqlite:///{path}", sqlite_synchronous="OFF"), hasher=CHEAP, clock=clock.now
    )
    demo = tuple(demo_tables(TIMING, games=("holdem",)))
    if tables is not None:
        demo = tuple(replace(demo[0], table_id=f"{prefix}-{i}", name=f"Bench {i}") for i in range(tables))
    room = Room(store, RoomSettings(tables=demo), clock=clock, rng=random.Random(seed))
    await room.start()
    return Harness(room, store, clock, path), tuple(t.table_id for t in demo)


async def seat_field(
    h: Harness, field: Sequence[Seat], tables: Sequence[str], *, seed: int, planted_as: str = "strength"
) -> dict[str, Client]:
    """Seat each player of ``field`` at ``tables[p.table]`` (the honest in turn as the strategies of
    ``HONEST``, the planted first as ``planted_as``; bot ``i`` seeded ``seed + i``), then give the planted
    their roles. The clients by name."""
    clients = {}
    for i, p in enumerate(field):
        strategy = HONEST[i % len(HONEST)] if p.role == "honest" else planted_as
        clients[p.name] = await h.cash_bot(p.name, tables[p.table], strategy, seed=seed + i)
    plant(field, {name: c.bot for name, c in clients.items()})
    return clients


async def play_hands(
    h: Harness, hands: int, *, seconds: float | None = None, limit: float | None = None
) -> None:
    """Let every table of the room deal at least ``hands`` hands (at most ``seconds`` of the room's time,
    ``limit`` real seconds: by default 600 and 60 a hand)."""
    await h.run(
        lambda: all(a.table.hand_count >= hands for a in h.room.tables.values()),
        seconds=hands * 600 if seconds is None else seconds,
        limit=hands * 60.0 if limit is None else limit,
    )


async def integrity_report(path: Path, *args: str) -> tuple[int, str]:
    """``pokerroom integrity report`` over the store at ``path`` for the hands since the harness's
    ``EPOCH`` day, with ``args``: its exit code and output (run in a thread: it has its own event loop)."""
    url = f"sqlite+aiosqlite:///{path}"
    since = EPOCH.strftime("%Y-%m-%d")
    out = await asyncio.to_thread(
        CliRunner().invoke, app, ["integrity", "report", "--url", url, "--since", since, *args]
    )
    return out.exit_code, out.output

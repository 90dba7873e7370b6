"""A store with a planted finding for the console's Findings page (issue 30): the bots package's timing
field (honest bots and one that waits exactly one second before every action) played on the integrity
detectors' planted-table harness (tests/server/planted_room.py) at a hold'em table, on a manual clock
that starts ``ago`` before now, so the hands fall in the report's "last day". The console's tests then
serve a room on the same SQLite file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from pokerroom.bots.planted import timing_field

from ..planted_room import open_planted_room

TABLE = "holdem-nl"


async def plant_a_machine(path: Path, *, hands: int = 20, ago: timedelta = timedelta(hours=3)) -> str:
    """Play the timing field (3 honest bots, 1 machine) at ``TABLE`` until ``hands`` hands have been dealt,
    in the SQLite store at ``path``; the machine's name. Every bot makes 50+ decisions (the report's
    least for an opinion)."""
    h, _ = await open_planted_room(path, seed=11, start=datetime.now(UTC) - ago)
    try:
        field = timing_field(3, 1, seed=4)
        for i, p in enumerate(field):
            c = await h.cash_bot(p.name, TABLE, "caller", seed=i)
            c.bot.think = p.think
        await h.run(lambda: h.room.tables[TABLE].table.hand_count >= hands, seconds=hands * 600)
    finally:
        await h.close()
    return next(p.name for p in field if p.machine)

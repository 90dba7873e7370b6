from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from pokerroom.engine import Betting, RakeRule, Stakes
from pokerroom.rooms import CashTable, TableConfig, Timing

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def holdem_table(
    seats: int = 6, *, rake: RakeRule | None = None, seed: int = 1, **timing: float
) -> CashTable:
    cfg = TableConfig(
        "t1",
        "Alpha",
        "holdem",
        Betting.NO_LIMIT,
        Stakes.blinds(50, 100),
        seats,
        rake=rake,
        timing=Timing(**timing),  # type: ignore[arg-type]
    )
    return CashTable(cfg, random.Random(seed))

"""Late registration set in minutes (issue 35; RULES.md §11.3): open for that many minutes of wall-clock
time from the start, whatever the levels; places wait for it to close, and the director's clock wakes at
the moment it closes (a moment that need not be a level's start)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from pokerroom.engine import ConfigError
from pokerroom.rooms import TableError
from pokerroom.rooms.tournament import TournamentConfig, TournamentDirector

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def mtt(**kw: object) -> TournamentDirector:
    cfg = TournamentConfig("m", "MTT", buy_in=1000, start_time=T0, level_minutes=10, **kw)  # type: ignore[arg-type]
    d = TournamentDirector(cfg, random.Random(1))
    for i in range(4):
        d.register(f"p{i}", f"p{i}", T0 - timedelta(minutes=1))
    d.tick(T0)
    assert d.status == "running"
    return d


def test_late_registration_in_minutes_closes_on_time_and_the_clock_wakes_for_it() -> None:
    d = mtt(late_registration_minutes=7)
    assert d.registration_open(T0 + timedelta(minutes=6, seconds=59))
    d.register("late", "late", T0 + timedelta(minutes=6))
    assert d.contributions == 5000 and d.entrants["late"].stack == 1500
    later = T0 + timedelta(minutes=6, seconds=30)
    due = d.next_deadline(later)
    assert due is not None and due <= T0 + timedelta(minutes=7)
    d.tick(T0 + timedelta(minutes=7))
    assert not d.registration_open(T0 + timedelta(minutes=7))
    with pytest.raises(TableError):
        d.register("too_late", "too_late", T0 + timedelta(minutes=7))
    assert d.pool_final  # nothing else open: the pool is final when the registration closes


def test_late_registration_is_set_in_levels_or_in_minutes() -> None:
    with pytest.raises(ConfigError):
        TournamentConfig("m", "MTT", start_time=T0, late_registration_levels=2, late_registration_minutes=5)
    with pytest.raises(ConfigError):
        TournamentConfig("m", "MTT", start_time=T0, late_registration_minutes=-1)

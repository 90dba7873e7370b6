"""Recurring tournaments (issue 35): daily, weekday and weekly series in the operator's time zone, each
occurrence with a stable id ``<series>-YYYY-MM-DD``; the clock (``now``) driven across the daylight-saving
changes of Europe/Sofia (2026: summer time from 29 March, winter time from 25 October)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from pokerroom.engine import ConfigError
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import Recurrence, occurrences

SOFIA = ZoneInfo("Europe/Sofia")
T0 = datetime(2026, 10, 1, tzinfo=UTC)


def series(repeat: str = "daily", at: time = time(20, 0), **kw: object) -> Recurrence:
    template = TournamentConfig("evening", "Evening", buy_in=100, start_time=T0)
    return Recurrence(template, repeat, at, "Europe/Sofia", **kw)  # type: ignore[arg-type]


def walk(rec: Recurrence, start: datetime, hours: int) -> dict[str, datetime]:
    """The clock moves an hour at a time; every occurrence seen, by id (the same id: the same start)."""
    seen: dict[str, datetime] = {}
    for h in range(hours):
        now = start + timedelta(hours=h)
        for cfg in occurrences(rec, now):
            assert cfg.start_time is not None and cfg.start_time > now
            assert seen.setdefault(cfg.tournament_id, cfg.start_time) == cfg.start_time, "a stable id"
    return seen


def test_a_daily_2000_sofia_stays_at_2000_local_across_the_autumn_change() -> None:
    seen = walk(series(), datetime(2026, 10, 22, 12, tzinfo=UTC), 24 * 6)
    by_day = {tid[-10:]: start for tid, start in seen.items()}
    assert set(by_day) >= {"2026-10-23", "2026-10-24", "2026-10-25", "2026-10-26", "2026-10-27"}
    for start in by_day.values():
        assert start.astimezone(SOFIA).time() == time(20, 0)
    assert by_day["2026-10-24"].hour == 17 and by_day["2026-10-25"].hour == 18  # UTC+3, then UTC+2
    assert all(tid.startswith("evening-2026-10-") for tid in seen)


def test_and_across_the_spring_change() -> None:
    seen = walk(series(), datetime(2026, 3, 27, tzinfo=UTC), 24 * 4)
    by_day = {tid[-10:]: start for tid, start in seen.items()}
    assert by_day["2026-03-28"].hour == 18 and by_day["2026-03-29"].hour == 17
    assert {s.astimezone(SOFIA).time() for s in by_day.values()} == {time(20, 0)}


def test_a_time_in_the_spring_gap_starts_after_it_and_a_doubled_one_at_its_first() -> None:
    gap = occurrences(series(at=time(3, 30)), datetime(2026, 3, 28, 12, tzinfo=UTC))[0]
    assert gap.tournament_id == "evening-2026-03-29" and gap.start_time is not None
    assert gap.start_time == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)  # 04:30 summer time
    doubled = occurrences(series(at=time(3, 30)), datetime(2026, 10, 24, 12, tzinfo=UTC))[0]
    assert doubled.tournament_id == "evening-2026-10-25" and doubled.start_time is not None
    assert doubled.start_time == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # the first 03:30 (UTC+3)


def test_weekdays_skip_the_weekend_and_weekly_runs_on_its_days() -> None:
    days = walk(series("weekdays"), datetime(2026, 12, 3, tzinfo=UTC), 24 * 8)  # Thursday to Friday
    assert sorted(t[-10:] for t in days) == [f"2026-12-{d:02d}" for d in (3, 4, 7, 8, 9, 10, 11)]
    assert all(datetime.fromisoformat(t[-10:]).weekday() < 5 for t in days)
    assert "evening-2026-12-05" not in days and "evening-2026-12-06" not in days
    weekly = walk(series("weekly", days=(6,)), datetime(2026, 12, 1, tzinfo=UTC), 24 * 21)  # Sundays
    assert sorted(weekly) == [f"evening-2026-12-{d}" for d in ("06", "13", "20", "27")]  # (27: the next)


def test_occurrences_within_the_horizon_and_always_the_next() -> None:
    now = datetime(2026, 12, 7, 10, tzinfo=UTC)  # a Monday
    daily = occurrences(series(ahead_hours=48), now)
    assert [c.tournament_id for c in daily] == ["evening-2026-12-07", "evening-2026-12-08"]
    weekly = occurrences(series("weekly", days=(4,), ahead_hours=24), now)  # Fridays, 24 hours ahead
    assert [c.tournament_id for c in weekly] == ["evening-2026-12-11"], "the next one, however far"
    opens = occurrences(series(registration_hours=6), now)[0]
    assert opens.start_time is not None and opens.registration_opens == opens.start_time - timedelta(hours=6)
    assert opens.tournament_id != "evening" and opens.buy_in == 100


def test_a_series_is_checked() -> None:
    for bad in (
        {"repeat": "hourly"},
        {"repeat": "weekly"},  # no days
        {"repeat": "daily", "days": (1,)},
        {"repeat": "weekly", "days": (7,)},
        {"repeat": "daily", "ahead_hours": 0},
    ):
        with pytest.raises(ConfigError):
            series(**bad)
    sng = TournamentConfig("s", "S", kind="sng", max_players=6)
    with pytest.raises(ConfigError):
        Recurrence(sng, "daily", time(20))

"""Recurring tournaments (issue 35): a series that runs daily, on weekdays or on chosen days of the week at
a time of day in the operator's time zone, each occurrence its own tournament with a stable id
``<series>-YYYY-MM-DD`` (the local date of its start). Pure: ``now`` comes in, configurations go out.

Daylight-saving changes keep the local time: a 20:00 Europe/Sofia daily starts at 18:00 UTC in summer
and 19:00 UTC in winter. A local time that does not exist on a spring-forward day (02:30 in most of
Europe) starts after the gap, as much later as the gap is long (03:30); one that exists twice on a
fall-back day starts at the first of them (PEP 495's ``fold=0``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pokerroom.engine import ConfigError
from pokerroom.rooms.tournament.config import TournamentConfig

__all__ = ["DAYS", "REPEATS", "Recurrence", "occurrence", "occurrence_day", "occurrence_id", "occurrences"]

REPEATS = ("daily", "weekdays", "weekly")
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True, slots=True)
class Recurrence:
    """``template`` is every occurrence's configuration (its ``tournament_id`` the series id; its start
    and registration times are replaced); ``days`` (weekly) are indexes into :data:`DAYS`.
    ``ahead_hours``: occurrences starting within that many hours are created (and always the next one,
    however far: the series never stops between two occurrences); ``registration_hours``: each opens
    for registration that many hours before its start (0: as soon as it is created)."""

    template: TournamentConfig
    repeat: str
    at: time
    timezone: str = "UTC"
    days: tuple[int, ...] = ()
    ahead_hours: float = 48.0
    registration_hours: float = 0.0

    def __post_init__(self) -> None:
        if self.repeat not in REPEATS:
            raise ConfigError(f"repeat is one of {', '.join(REPEATS)}")
        if self.repeat == "weekly" and not self.days:
            raise ConfigError("a weekly series names its days (mon ... sun)")
        if self.repeat != "weekly" and self.days:
            raise ConfigError("days are for a weekly series")
        if not all(0 <= d < 7 for d in self.days) or len(set(self.days)) != len(self.days):
            raise ConfigError("days are mon ... sun, each once")
        if self.ahead_hours <= 0 or self.registration_hours < 0:
            raise ConfigError("ahead_hours is positive and registration_hours not negative")
        if self.template.kind != "mtt":
            raise ConfigError("a recurring series is of scheduled tournaments (mtt)")
        if self.at.tzinfo is not None:
            raise ConfigError("at is a local time of day, without a zone (the series has its timezone)")
        ZoneInfo(self.timezone)  # (ZoneInfoNotFoundError: the caller names the key)

    @property
    def series(self) -> str:
        return self.template.tournament_id

    def runs_on(self, day: date) -> bool:
        if self.repeat == "daily":
            return True
        if self.repeat == "weekdays":
            return day.weekday() < 5
        return day.weekday() in self.days

    def start_on(self, day: date) -> datetime:
        """The UTC start of the occurrence on this local date (DST kept: the module's docstring)."""
        local = datetime.combine(day, self.at, tzinfo=ZoneInfo(self.timezone))
        return local.astimezone(UTC)


def occurrence_id(series: str, day: date) -> str:
    return f"{series}-{day.isoformat()}"


def occurrence_day(series: str, tid: str) -> date | None:
    """The local date of the series' occurrence ``tid`` (``<series>-YYYY-MM-DD``); None when ``tid`` is
    not one of its ids."""
    if not tid.startswith(f"{series}-") or len(tid) != len(series) + 11:
        return None
    try:
        day = date.fromisoformat(tid[len(series) + 1 :])
    except ValueError:
        return None
    return day if occurrence_id(series, day) == tid else None  # (not another ISO form: 2026-W49-2)


def occurrence(rec: Recurrence, day: date) -> TournamentConfig:
    """The series' occurrence on this local date (whether or not the series runs that day: an occurrence
    stored before its rule was edited keeps its id and date)."""
    start = rec.start_on(day)
    opens = start - timedelta(hours=rec.registration_hours) if rec.registration_hours else None
    return replace(
        rec.template, tournament_id=occurrence_id(rec.series, day), start_time=start, registration_opens=opens
    )


def occurrences(rec: Recurrence, now: datetime) -> list[TournamentConfig]:
    """The occurrences that start after ``now`` and within ``ahead_hours`` of it, and in any case the
    next one, earliest first."""
    tz = ZoneInfo(rec.timezone)
    until = now + timedelta(hours=rec.ahead_hours)
    day = now.astimezone(tz).date() - timedelta(days=1)  # (yesterday's may still be ahead in UTC terms)
    out: list[TournamentConfig] = []
    for _ in range(8 + int(rec.ahead_hours // 24) + 1):  # a week, and the horizon, cover the next one
        if rec.runs_on(day):
            start = rec.start_on(day)
            if start > now and (start <= until or not out):
                out.append(occurrence(rec, day))
            elif start > until:
                break
        day += timedelta(days=1)
    return out

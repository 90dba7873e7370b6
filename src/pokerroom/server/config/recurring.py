"""``[[recurring]]`` of a room's configuration file (issue 35; docs/tournaments.md, "Recurring
tournaments"): a series of scheduled tournaments, daily, on weekdays or weekly, at a local time of day in
the operator's time zone. The keys of a ``[[tournament]]`` (its ``id`` is the series' id, no ``start``)
and ``repeat``, ``at``, ``timezone``, ``days``, ``ahead_hours`` and ``registration_hours``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, time
from typing import Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pokerroom.engine import ConfigError
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import DAYS, REPEATS, Recurrence

__all__ = ["RECURRING_KEYS", "parse_recurring"]

RECURRING_KEYS = ("repeat", "at", "timezone", "days", "ahead_hours", "registration_hours")
SERIES_ID_MAX = 29  # an occurrence's id adds "-YYYY-MM-DD" and a tournament id has at most 40 characters

Path = tuple[str | int, ...]


class Reader(Protocol):
    def problem(self, path: Path, message: str) -> None: ...


TournamentParser = Callable[[Any, Any, Path, datetime], "tuple[TournamentConfig, bool, int] | None"]


def parse_recurring(
    r: Reader, data: Any, path: Path, now: datetime, tournament: TournamentParser
) -> tuple[Recurrence, bool, int] | None:
    """One series: (its recurrence, whether it is a Rush tournament, its bots), or None (a problem)."""
    if not isinstance(data, dict):
        r.problem(path, "must be a table")
        return None
    d = dict(data)
    own = {k: d.pop(k) for k in RECURRING_KEYS if k in d}
    for key in ("start", "start_time", "start_in_minutes", "registration_opens"):
        if key in d:
            r.problem((*path, key), "a recurring series starts at its `at` time: no start of its own")
            return None
    sid = d.get("id")
    if isinstance(sid, str) and len(sid) > SERIES_ID_MAX:
        r.problem((*path, "id"), f"a series id has at most {SERIES_ID_MAX} characters (its dates are added)")
        return None
    got = tournament(r, {**d, "start_time": now.astimezone(UTC).isoformat()}, path, now)
    if got is None:
        return None
    template, rush, bots = got
    repeat = own.get("repeat")
    if repeat not in REPEATS:
        r.problem((*path, "repeat"), f"must be one of {', '.join(REPEATS)}")
        return None
    try:
        at = time.fromisoformat(str(own.get("at", "")))
    except ValueError:
        r.problem((*path, "at"), "must be a local time of day, e.g. 20:00")
        return None
    zone = own.get("timezone", "UTC")
    try:
        ZoneInfo(str(zone))
    except (ZoneInfoNotFoundError, ValueError):
        r.problem((*path, "timezone"), "must be a time zone name such as Europe/Sofia")
        return None
    days = own.get("days", [])
    if not isinstance(days, list) or not all(isinstance(x, str) and x in DAYS for x in days):
        r.problem((*path, "days"), f"must be a list of {', '.join(DAYS)}")
        return None
    numbers: dict[str, float] = {}
    for key, default in (("ahead_hours", 48.0), ("registration_hours", 0.0)):
        value = own.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            r.problem((*path, key), "must be a number of hours")
            return None
        numbers[key] = float(value)
    try:
        rec = Recurrence(
            template,
            str(repeat),
            at,
            str(zone),
            tuple(DAYS.index(x) for x in days),
            numbers["ahead_hours"],
            numbers["registration_hours"],
        )
    except ConfigError as exc:
        r.problem(path, str(exc))
        return None
    return rec, rush, bots

"""Tournament schedules: ``pokerroom serve --tournaments FILE`` (TOML) and the admin HTTP API share this.

```toml
[[tournament]]                 # any field of TournamentConfig; "id" is the tournament id
id = "turbo6"
name = "Turbo 6-max sit-and-go"
kind = "sng"                   # "sng" (starts when full) or "mtt" (starts at "start")
max_players = 6
buy_in = 1000
fee = 100
level_minutes = 5
payouts = [65, 35]             # percentages (optional: the default table by field size)

[[tournament]]
id = "daily"
name = "Daily 5k guaranteed"
start = 2026-12-01T18:00:00Z   # or start_in_minutes = 30
guarantee = 5000
late_registration_levels = 3
rush = true                    # a Rush tournament (RULES.md §8.9): Rush tables, then a final table

[[big_game]]                   # the Sunday Big Game of the Week and its satellites (RULES.md §9.10)
variant = "holdem"
betting = "NL"
satellites = 3                 # one a day from tomorrow, at the same hour
currency = "PLAY"
```
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import fields
from datetime import UTC, datetime, time, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

from pokerroom.engine import Betting, ConfigError
from pokerroom.rooms.config import Timing
from pokerroom.rooms.mixes import MIXES
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.promotions import big_game_of_the_week, big_game_satellite

__all__ = [
    "ScheduleError",
    "load_schedule",
    "load_split_schedule",
    "schedule_from_data",
    "split_schedule",
    "tournament_from_dict",
]

_FIELDS = {f.name for f in fields(TournamentConfig)} - {"tournament_id", "timing", "payouts", "betting"}
_TIMING = {"action_seconds": "action", "time_bank": "time_bank", "between_hands": "between_hands"}


class ScheduleError(ValueError):
    """A schedule entry that is not a valid tournament; the message says which and why, and ``key``
    names the field at fault when there is one."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


_WHOLE = {f.name for f in fields(TournamentConfig) if f.type in ("int", int)}
_NUMBER = {f.name for f in fields(TournamentConfig) if f.type in ("float", float)} | set(
    ("start_in_minutes", "action_seconds", "time_bank", "between_hands")
)
_FLAG = {f.name for f in fields(TournamentConfig) if f.type in ("bool", bool)}
_TEXT = {f.name for f in fields(TournamentConfig) if f.type in ("str", str)} - {"tournament_id"}


def _check_types(tid: str, d: Mapping[str, Any]) -> None:
    """Chips are whole numbers, minutes numbers, flags true or false, names strings: a wrong type is
    named before it can become a fractional stack or a comparison's TypeError."""
    for key, value in d.items():
        if key in _WHOLE and (isinstance(value, bool) or not isinstance(value, int)):
            raise ScheduleError(f"{tid}: {key} must be a whole number", key)
        if key in _NUMBER and (isinstance(value, bool) or not isinstance(value, int | float) or value < 0):
            raise ScheduleError(f"{tid}: {key} must be a number of at least 0", key)
        if key in _FLAG and not isinstance(value, bool):
            raise ScheduleError(f"{tid}: {key} must be true or false", key)
        if key in _TEXT and not isinstance(value, str):
            raise ScheduleError(f"{tid}: {key} must be a string", key)
    payouts = d.get("payouts")
    if payouts is not None and (
        not isinstance(payouts, list)
        or not payouts
        or not all(isinstance(x, int | float) and not isinstance(x, bool) and x > 0 for x in payouts)
    ):
        raise ScheduleError(f"{tid}: payouts must be a list of positive percentages", "payouts")


def _when(value: Any, now: datetime, tid: str, key: str) -> datetime:
    """A date and time (a TOML one, or ISO 8601 text such as ``2026-12-05T22:30:00Z``); UTC when it names
    no zone."""
    wrong = ScheduleError(f"{tid}: {key} is not a date and time (ISO 8601): {str(value)[:40]!r}", key)
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str) and len(value) <= 40:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise wrong from None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)
    raise wrong


def tournament_from_dict(data: Mapping[str, Any], now: datetime | None = None) -> TournamentConfig:
    """One tournament from a TOML table or a JSON object (the admin API)."""
    now = now or datetime.now(UTC)
    d = dict(data)
    tid = d.pop("id", None) or d.pop("tournament_id", None)
    if not isinstance(tid, str) or not tid or len(tid) > 40 or not all(c.isalnum() or c in "_-" for c in tid):
        raise ScheduleError("a tournament needs an id of 1-40 letters, digits, '_' or '-'", "id")
    _check_types(tid, d)
    if "mix" in d and ("variant" in d or "betting" in d):  # RULES.md §11.1: the mix names its games
        raise ScheduleError(f"{tid}: a mixed tournament names its mix, not a game", "mix")
    if "mix" in d and d["mix"] not in MIXES:
        raise ScheduleError(f"{tid}: mix is one of {', '.join(MIXES)}", "mix")
    kw: dict[str, Any] = {}
    if "betting" in d:
        try:
            kw["betting"] = Betting(str(d.pop("betting")).upper())
        except ValueError:
            raise ScheduleError(f"{tid}: betting is FL, PL or NL", "betting") from None
    if "payouts" in d:
        kw["payouts"] = tuple(Fraction(str(x)) for x in d.pop("payouts"))
    if "start" in d and "start_time" in d:
        raise ScheduleError(f"{tid}: give start or start_time, not both", "start_time")
    for key in ("start", "start_time"):  # (start_time: TournamentConfig's own name for it)
        if key in d:
            kw["start_time"] = _when(d.pop(key), now, tid, key)
    if "start_in_minutes" in d:
        kw["start_time"] = now + timedelta(minutes=float(d.pop("start_in_minutes")))
    if "registration_opens" in d:
        kw["registration_opens"] = _when(d.pop("registration_opens"), now, tid, "registration_opens")
    timing: dict[str, Any] = {_TIMING[k]: float(d.pop(k)) for k in list(d) if k in _TIMING}
    if timing:
        kw["timing"] = Timing(**{"between_hands": 2.0, **timing})
    unknown = set(d) - _FIELDS
    if unknown:
        first = sorted(unknown)[0]
        raise ScheduleError(f"{tid}: unknown field(s) {', '.join(sorted(unknown))}", first)
    kw.update(d)
    kw.setdefault("name", tid)
    try:
        return TournamentConfig(tid, **kw)
    except (ConfigError, TypeError, ValueError) as exc:
        raise ScheduleError(f"{tid}: {exc}") from None


def _big_game(data: Mapping[str, Any], now: datetime) -> list[TournamentConfig]:
    d = dict(data)
    betting = Betting(str(d.get("betting", "NL")).upper())
    at = time.fromisoformat(str(d.get("at", "18:00")))
    target = big_game_of_the_week(
        now, str(d.get("variant", "holdem")), betting, at=at, currency=str(d.get("currency", "USD"))
    )
    out = [target]
    for n in range(1, int(d.get("satellites", 0)) + 1):
        start = datetime.combine(now.date() + timedelta(days=n), at, tzinfo=UTC)
        if start < target.start_time:  # type: ignore[operator]
            out.append(big_game_satellite(target, start, n))
    return out


def schedule_from_data(data: Mapping[str, Any], now: datetime | None = None) -> list[TournamentConfig]:
    return [cfg for cfg, _ in _entries(data, now)]


def split_schedule(
    data: Mapping[str, Any], now: datetime | None = None
) -> tuple[list[TournamentConfig], list[TournamentConfig]]:
    """(standard tournaments, Rush tournaments: those with ``rush = true``)."""
    entries = _entries(data, now)
    return [c for c, rush in entries if not rush], [c for c, rush in entries if rush]


def _entries(data: Mapping[str, Any], now: datetime | None) -> list[tuple[TournamentConfig, bool]]:
    now = now or datetime.now(UTC)
    unknown = set(data) - {"tournament", "big_game"}
    if unknown:
        raise ScheduleError(
            f"unknown section(s) {', '.join(sorted(unknown))}: use [[tournament]], [[big_game]]"
        )
    out: list[tuple[TournamentConfig, bool]] = []
    for t in data.get("tournament", []):
        rush = t.get("rush", False)
        if not isinstance(rush, bool):
            raise ScheduleError("rush is true or false")
        out.append((tournament_from_dict({k: v for k, v in t.items() if k != "rush"}, now), rush))
    for g in data.get("big_game", []):
        try:
            out += [(c, False) for c in _big_game(g, now)]
        except (ConfigError, ValueError) as exc:
            raise ScheduleError(f"big_game: {exc}") from None
    ids = [c.tournament_id for c, _ in out]
    if len(set(ids)) != len(ids):
        raise ScheduleError("tournament ids must be unique")
    return out


def _read(path: str | Path) -> dict[str, Any]:
    try:
        return tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScheduleError(f"{path}: {exc}") from None


def load_schedule(path: str | Path, now: datetime | None = None) -> list[TournamentConfig]:
    """The tournaments of a TOML schedule file."""
    return schedule_from_data(_read(path), now)


def load_split_schedule(
    path: str | Path, now: datetime | None = None
) -> tuple[list[TournamentConfig], list[TournamentConfig]]:
    """The tournaments of a TOML schedule file: (standard, Rush)."""
    return split_schedule(_read(path), now)

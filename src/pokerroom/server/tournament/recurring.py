"""Recurring series in the room (issue 35; rooms/tournament/recurring.py, docs/tournaments.md "Recurring
tournaments"): the occurrences due within each series' horizon open at the room's start (those the store
kept are taken back by the recovery, those over never open again: their ids are stable), and again each
time an occurrence gets under way (starts, or is cancelled at its start), so that the next one is always
open for registration. Nothing opens twice: an id open, archived or stored as over is skipped."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import DAYS, Recurrence, occurrence_id, occurrences

__all__ = [
    "RecurringHost",
    "due_occurrences",
    "is_occurrence",
    "next_starts",
    "open_due",
    "open_due_soon",
    "series_row",
]

log = logging.getLogger("pokerroom.tournament")

Series = Sequence[tuple[Recurrence, bool]]


class RecurringHost(Protocol):
    tournaments: dict[str, Any]
    archive: dict[str, Any]
    store: Any

    def add_tournament(self, cfg: TournamentConfig, *, rush: bool = False) -> Any: ...


def due_occurrences(series: Series, now: datetime) -> list[tuple[TournamentConfig, bool]]:
    """Every series' occurrences due now (within its horizon, and its next), with whether it is Rush."""
    return [(cfg, rush) for rec, rush in series for cfg in occurrences(rec, now)]


def is_occurrence(series: Series, tid: str) -> bool:
    """Is ``tid`` an occurrence of one of these series (``<series>-YYYY-MM-DD``)?"""
    return any(tid.startswith(f"{rec.series}-") and len(tid) == len(rec.series) + 11 for rec, _ in series)


def next_starts(rec: Recurrence, now: datetime, count: int = 3) -> list[tuple[str, datetime]]:
    """The series' next ``count`` occurrences after ``now``: (id, UTC start), earliest first."""
    tz = ZoneInfo(rec.timezone)
    day = now.astimezone(tz).date() - timedelta(days=1)
    out: list[tuple[str, datetime]] = []
    for _ in range(7 * count + 2):  # (a weekly series runs at least once a week)
        if rec.runs_on(day) and (start := rec.start_on(day)) > now:
            out.append((occurrence_id(rec.series, day), start))
            if len(out) == count:
                break
        day += timedelta(days=1)
    return out


def series_row(rec: Recurrence, rush: bool, now: datetime, source: str) -> dict[str, Any]:
    """A series as the console's tournaments page lists it: its rule, its template's main fields, and
    its next occurrences (ids and UTC starts); ``source``: ``file`` or ``console``."""
    t = rec.template
    return {
        "series": rec.series,
        "name": t.name,
        "repeat": rec.repeat,
        "at": rec.at.isoformat(timespec="minutes"),
        "timezone": rec.timezone,
        "days": [DAYS[d] for d in rec.days],
        "variant": t.variant,
        "buy_in": t.buy_in,
        "fee": t.fee,
        "currency": t.currency,
        "rush": rush,
        "source": source,
        "next": [{"tournament": tid, "start": start.isoformat()} for tid, start in next_starts(rec, now)],
    }


async def open_due(room: RecurringHost, series: Series, now: datetime) -> list[str]:
    """Open the occurrences due now that are not open, archived or stored (as over, or kept: the
    recovery took those back); their ids."""
    cancelled: set[str] = getattr(getattr(room, "console", None), "cancelled", set())  # (the console)
    fresh = [
        (cfg, rush)
        for cfg, rush in due_occurrences(series, now)
        if cfg.tournament_id not in room.tournaments
        and cfg.tournament_id not in room.archive
        and cfg.tournament_id not in cancelled
    ]
    if not fresh:
        return []
    stored = await room.store.tournaments.statuses([cfg.tournament_id for cfg, _ in fresh])
    opened = []
    for cfg, rush in fresh:
        if cfg.tournament_id not in stored and cfg.tournament_id not in room.tournaments:
            room.add_tournament(cfg, rush=rush)
            opened.append(cfg.tournament_id)
    if opened:
        log.info("recurring tournaments opened: %s", ", ".join(opened))
    return opened


def open_due_soon(room: RecurringHost, series: Series, now: datetime) -> None:
    """The same, from an actor's step (which cannot wait for the store): a task of the room's loop."""
    task = asyncio.get_running_loop().create_task(open_due(room, series, now))
    _pending.add(task)
    task.add_done_callback(_done)


_pending: set[asyncio.Task[list[str]]] = set()  # (kept referenced until done)


def _done(task: asyncio.Task[list[str]]) -> None:
    _pending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("recurring tournaments could not be opened", exc_info=task.exception())

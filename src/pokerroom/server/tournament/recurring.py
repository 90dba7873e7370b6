"""Recurring series in the room (issue 35; rooms/tournament/recurring.py, docs/tournaments.md "Recurring
tournaments"): the occurrences due within each series' horizon open at the room's start (those the store
kept are taken back by the recovery, those over never open again: their ids are stable), and again each
time an occurrence gets under way (starts, or is cancelled at its start), so that the next one is always
open for registration. Nothing opens twice: an id open, archived or stored as over is skipped.

A series the console added may be edited or removed there (``withdraw_open``, server/operator.py): its
occurrences open and not started are settled first. One with registrations stays as it was announced
(kept as a tournament the console scheduled, so that a restart takes it back as announced); one nobody
registered for is withdrawn, and the edited rule opens its own (docs/tournaments.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import DAYS, Recurrence, occurrence_id, occurrences
from pokerroom.server.config.recurring import RECURRING_KEYS
from pokerroom.server.schedule import ScheduleError, tournament_from_dict

__all__ = [
    "RecurringHost",
    "due_occurrences",
    "is_occurrence",
    "next_starts",
    "occurrence_spec",
    "open_due",
    "open_due_soon",
    "series_row",
    "withdraw_open",
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
    return any(occurrence_of(rec.series, tid) for rec, _ in series)


def occurrence_of(series: str, tid: str) -> bool:
    """Is ``tid`` an occurrence of the series ``series`` (``<series>-YYYY-MM-DD``)?"""
    return tid.startswith(f"{series}-") and len(tid) == len(series) + 11


def occurrence_spec(fields: Mapping[str, Any], cfg: TournamentConfig, rush: bool) -> dict[str, Any] | None:
    """An occurrence as the fields of a tournament the console scheduled (what ``store.games`` keeps to
    open it again): the series' fields without its rule, the occurrence's id and its start. None when
    they do not make the same tournament again (it is then not kept)."""
    spec = {k: v for k, v in fields.items() if k not in (*RECURRING_KEYS, "bots", "rush")}
    if "game" in spec and "variant" not in spec:
        spec["variant"] = spec.pop("game")
    spec["id"] = cfg.tournament_id
    if cfg.start_time is not None:
        spec["start"] = cfg.start_time.isoformat()
    if cfg.registration_opens is not None:
        spec["registration_opens"] = cfg.registration_opens.isoformat()
    try:
        again = tournament_from_dict(spec)
    except (ScheduleError, ValueError):
        return None
    if again.start_time != cfg.start_time or (again.buy_in, again.fee) != (cfg.buy_in, cfg.fee):
        return None
    return {**spec, "rush": rush}


async def withdraw_open(
    room: Any, series: str, fields: Mapping[str, Any], rush: bool
) -> dict[str, list[str]]:
    """Before the console's series ``series`` (stored ``fields``) is edited or removed: each of its
    occurrences open and not started is settled. One with registrations stays as announced: it becomes a
    tournament the console scheduled (``store.games``, so that a restart takes it back with its
    registrations as announced, whatever the series becomes); one nobody registered for is withdrawn (its
    actor stops; nothing was paid). Started ones play on. Returns the ids ``kept`` and ``withdrawn``."""
    out: dict[str, list[str]] = {"kept": [], "withdrawn": []}
    for tid, actor in sorted(room.tournaments.items()):
        if not occurrence_of(series, tid):
            continue

        async def settle(actor: Any = actor) -> str:
            d = actor.director
            if d.status not in ("announced", "registering"):
                return "started"
            if d.entrants:
                return "kept"
            d.status = "cancelled"  # nobody registers any more: it is withdrawn
            return "withdrawn"

        verdict = await actor.call(settle)
        if verdict == "withdrawn":
            await actor.stop()
            del room.tournaments[tid]
            room.endpoints.remove_owner(actor)
            out["withdrawn"].append(tid)
        elif verdict == "kept":
            cfg = actor.director.config
            spec = occurrence_spec(fields, cfg, rush)
            if spec is None:
                log.warning("occurrence %s of series %s could not be kept for a restart", tid, series)
            else:
                await room.store.games.save(tid, "tournament", spec, "open")
                room.console.scheduled[tid] = (cfg, rush)
            out["kept"].append(tid)
    return out


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

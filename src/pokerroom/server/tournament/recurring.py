"""Recurring series in the room (issue 35; rooms/tournament/recurring.py, docs/tournaments.md "Recurring
tournaments"): the occurrences due within each series' horizon open at the room's start (those the store
kept are taken back by the recovery, those over never open again: their ids are stable), and again each
time an occurrence gets under way (starts, or is cancelled at its start), so that the next one is always
open for registration. Nothing opens twice: an id open, archived or stored as over is skipped.

A series the console added may be edited or removed there (``withdraw_open``, server/operator.py): its
occurrences open and not started are settled once the change is stored. One with registrations or
satellite seats for it stays as it was announced (kept as a tournament the console scheduled, so that a
restart takes it back as announced); one nobody holds a place in is withdrawn, and the edited rule opens
its own (docs/tournaments.md)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import MISSING, fields
from datetime import datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

import orjson

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.rooms.tournament.recurring import (
    DAYS,
    Recurrence,
    occurrence,
    occurrence_day,
    occurrence_id,
    occurrences,
)
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.store.tournaments import TournamentChanges

__all__ = [
    "RecurringHost",
    "config_spec",
    "due_occurrences",
    "is_occurrence",
    "next_starts",
    "open_due",
    "open_due_soon",
    "past_occurrence",
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


def past_occurrence(series: Series, tid: str) -> tuple[TournamentConfig, bool] | None:
    """The configuration of the occurrence ``tid`` of one of these series, whenever it started (the
    archive's, after a restart: the due ones alone are in the settings), with whether it is Rush; None
    when ``tid`` is no occurrence of theirs. Of two series whose ids both fit, the longer id wins
    (``daily-2026-12-01`` is of ``daily``; ``a-b-2026-12-01`` of ``a-b``, not of ``a``)."""
    for rec, rush in sorted(series, key=lambda s: -len(s[0].series)):
        day = occurrence_day(rec.series, tid)
        if day is not None:
            return occurrence(rec, day), rush
    return None


def config_spec(cfg: TournamentConfig, rush: bool) -> dict[str, Any] | None:
    """A tournament's live configuration as the fields of one the console scheduled (what
    ``store.games`` keeps to open it again, ``tournament_from_dict``'s): each field that differs from
    its default. None when those fields do not make the very same configuration again (it is then not
    kept for a restart)."""
    spec: dict[str, Any] = {"id": cfg.tournament_id}
    for f in fields(cfg):
        if f.name == "tournament_id" or (cfg.mix and f.name in ("variant", "betting")):
            continue  # (a mix names its games)
        value = getattr(cfg, f.name)
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        if value == default:
            continue
        if f.name == "timing":
            spec.update(action_seconds=value.action, time_bank=value.time_bank)
            spec["between_hands"] = value.between_hands
        elif f.name == "betting":
            spec["betting"] = value.value
        elif f.name == "payouts":
            spec["payouts"] = [str(x) for x in value]
        elif f.name == "start_time":
            spec["start"] = value.isoformat()
        elif isinstance(value, datetime):
            spec[f.name] = value.isoformat()
        else:
            spec[f.name] = value
    try:
        again = tournament_from_dict(spec)
    except (ScheduleError, ValueError):
        return None
    return {**spec, "rush": rush} if again == cfg else None


async def _tickets_out(room: Any, tid: str) -> bool:
    """Does ``tid`` hold satellite seats not used yet: an unused ticket won for it, or a satellite for
    it that is not over (its seats are still to be won)? Such an occurrence is never withdrawn."""
    for actor in room.tournaments.values():
        d = actor.director
        if d.config.target == tid and d.status not in ("finished", "cancelled"):
            return True
    try:
        return any(t.used_for is None for t in await room.store.tournaments.targeted(tid))
    except Exception as exc:  # (the series is stored already: when in doubt it is kept, never stranded)
        log.warning("occurrence %s: its tickets could not be read, it is kept: %s", tid, exc)
        return True


async def withdraw_open(room: Any, series: str, rush: bool, *, removed: bool = False) -> dict[str, list[str]]:
    """When the console's series ``series`` is edited or removed (``removed``), after the series is
    stored: each of its occurrences open and not started is settled. One with registrations, or with
    satellite seats won or to be won for it (``_tickets_out``: a ticket is a seat in that very event,
    docs/tournaments.md), stays as announced: it becomes a tournament the console scheduled
    (``store.games``, built from its live configuration, so that a restart takes it back as announced
    whatever the series becomes). One nobody holds a place in is withdrawn: its actor stops (nothing was
    paid), those following its page get ``tournament_status`` ``cancelled``, and once the series is
    removed its stored row (if any) is stored as cancelled. An occurrence an earlier edit kept is the
    console's tournament now, not the series': untouched. Started ones play on. Returns the ids
    ``kept`` and ``withdrawn``."""
    out: dict[str, list[str]] = {"kept": [], "withdrawn": []}
    scheduled = getattr(getattr(room, "console", None), "scheduled", {})
    for tid, actor in sorted(room.tournaments.items()):
        if not occurrence_of(series, tid) or tid in scheduled:
            continue
        held = await _tickets_out(room, tid)

        async def settle(actor: Any = actor, held: bool = held) -> str:
            d = actor.director
            if d.status not in ("announced", "registering"):
                return "started"
            if d.entrants or held:
                return "kept"
            d.status = "cancelled"  # nobody registers any more: it is withdrawn
            frame = orjson.dumps({"type": "tournament_status", "tournament": d.tid, "status": "cancelled"})
            for conn in list(actor.lobby.followers):
                if not conn.closed:
                    conn.send(frame.decode())
            return "withdrawn"

        verdict = await actor.call(settle)
        if verdict == "withdrawn":
            await actor.stop()
            del room.tournaments[tid]
            room.endpoints.remove_owner(actor)
            out["withdrawn"].append(tid)
            if removed:
                try:
                    await room.store.tournaments.apply(tid, TournamentChanges(status="cancelled"))
                except Exception as exc:  # (a restart's recovery cancels it then: no config is left)
                    log.warning("withdrawn occurrence %s not stored as cancelled: %s", tid, exc)
        elif verdict == "kept":
            cfg = actor.director.config
            spec = config_spec(cfg, rush)
            try:
                if spec is None:
                    raise ValueError("its configuration cannot be stored as fields")
                await room.store.games.save(tid, "tournament", spec, "open")
                room.console.scheduled[tid] = (cfg, rush)
            except Exception as exc:  # (it stays open as announced until a restart)
                log.warning("occurrence %s of %s could not be kept for a restart: %s", tid, series, exc)
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

"""The console's Tournaments page: schedule every kind the room has (sit-and-go, scheduled, satellite,
guaranteed, freeroll, rebuy, Rush: the fields of a ``[[tournament]]`` of the schedule file), cancel one
that has not started with every buy-in and fee refunded (RULES.md §9.2), end one that is running (paid
out by the interrupted-tournament rule, docs/tournaments.md), and each one's entrants,
standings and payouts. What the console schedules or cancels is stored and kept across restarts."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from pydantic import StrictBool

from pokerroom.server.commands import (
    AddRecurring,
    CancelTournament,
    EditRecurring,
    EditTournament,
    EndTournament,
    RemoveRecurring,
    ResumeActor,
    ScheduleTournament,
    SetTournamentDeals,
)
from pokerroom.server.console.access import Admin, Staff, command, fail, front
from pokerroom.server.errors import Refused
from pokerroom.server.tournament.recurring import series_row

__all__ = ["router"]

router = APIRouter(prefix="/api/console/tournaments", tags=["console"])

# The kinds of the console's form, each with the fields that make it one (docs/console.md).
KINDS: dict[str, dict[str, Any]] = {
    "sng": {"kind": "sng", "max_players": 6},
    "scheduled": {"kind": "mtt", "start_in_minutes": 60},
    "satellite": {"kind": "mtt", "start_in_minutes": 60, "target": "", "seat_value": 0},
    "guaranteed": {"kind": "mtt", "start_in_minutes": 60, "guarantee": 0},
    "freeroll": {"kind": "mtt", "start_in_minutes": 60, "buy_in": 0, "fee": 0, "freeroll_pool": 0},
    "rebuy": {"kind": "mtt", "start_in_minutes": 60, "rebuy_levels": 3, "add_on": True},
    "rush": {"kind": "mtt", "start_in_minutes": 60, "rush": True},
}


@router.get("")
async def tournaments(me: Staff, request: Request) -> dict[str, Any]:
    """Every tournament by state (upcoming, running, finished), the kinds the form offers, and the
    recurring series (``[[recurring]]`` of the file and those added here) with their next occurrences."""
    return {**front(request).tournament_lobby(), "kinds": KINDS, "recurring": await _series(request)}


async def _series(request: Request) -> list[dict[str, Any]]:
    """Each series' row; one added here carries its stored ``fields`` (what the page's Edit fills in)."""
    room = getattr(front(request), "room", None)  # (a cluster's gateway holds no room: none listed)
    if room is None:
        return []
    now = room.clock.now()
    mine = room.console.series
    stored = {g.id: g.spec for g in await room.store.games.all() if g.kind == "recurring"} if mine else {}
    rows = []
    for rec, rush in room.settings.recurring:
        row = series_row(rec, rush, now, "console" if rec.series in mine else "file")
        if rec.series in mine:
            row["fields"] = stored.get(rec.series, {})
        rows.append(row)
    return rows


@router.post("/recurring", status_code=201)
async def add_recurring(
    me: Admin, request: Request, body: Annotated[dict[str, Any], Body()]
) -> dict[str, Any]:
    """Add a recurring series: the fields of a ``[[recurring]]`` of the configuration file (a
    ``[[tournament]]``'s, ``id`` the series id, with ``repeat``, ``at``, ``timezone``, ``days``,
    ``ahead_hours``, ``registration_hours``), checked as the file's (``422 bad_config`` names each
    problem). Stored: a restart keeps it. Audited as ``recurring.add``."""
    return await command(request, me, AddRecurring(dict(body)))


@router.put("/recurring/{sid}")
async def edit_recurring(
    sid: str, me: Admin, request: Request, body: Annotated[dict[str, Any], Body()]
) -> dict[str, Any]:
    """Edit a series added here: the same fields as adding one, for the same id (``422 bad_config``
    names each problem). Stored first; then its occurrences open and not started are settled: one with
    registrations, a ticket held for it or a satellite for it still to finish stays as it was announced,
    one without is withdrawn and the edited rule opens its own (``kept``, ``withdrawn``, ``opened``). A
    series of the configuration file: ``409 recurring_in_file`` (edit the file); none with this id:
    ``404 unknown_series``; on a cluster: ``409 recurring_on_cluster``. Audited as ``recurring.edit``
    (the fields before and after); docs/tournaments.md."""
    return await command(request, me, EditRecurring(sid, dict(body)))


@router.delete("/recurring/{sid}")
async def remove_recurring(sid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Remove a series added here: no occurrence of it is announced any more. Those open with
    registrations, a ticket or a satellite still to finish stay as announced and are played (``kept``);
    the others are withdrawn (``withdrawn``); started ones play on. ``409 recurring_in_file``, ``404
    unknown_series``, ``409 recurring_on_cluster`` as for an edit. Stored; audited as ``recurring.remove``
    (the fields before)."""
    return await command(request, me, RemoveRecurring(sid))


@router.get("/{tid}")
async def tournament(tid: str, me: Staff, request: Request) -> dict[str, Any]:
    """Structure, entrants, prize pool and payouts, standings, tables."""
    try:
        return await front(request).tournament_details(tid)
    except Refused:
        raise fail(404, "unknown_tournament", "no such tournament", tournament=tid) from None


@router.post("", status_code=201)
async def schedule(me: Admin, request: Request, body: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
    """Schedule a tournament: the fields of a ``[[tournament]]`` of the schedule file, ``rush`` true for a
    Rush tournament (``422 bad_tournament`` names what is wrong)."""
    return await command(request, me, ScheduleTournament(dict(body)))


@router.put("/{tid}")
async def edit(
    tid: str, me: Admin, request: Request, body: Annotated[dict[str, Any], Body()]
) -> dict[str, Any]:
    """Edit a tournament before it starts, while nobody is registered (``409`` otherwise: cancel it, with
    the refunds, and schedule another): the same fields as scheduling, for the same id."""
    return await command(request, me, EditTournament(tid, dict(body)))


@router.post("/{tid}/resume")
async def resume(tid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Resume a tournament that repeated errors suspended (``summary.suspended`` says why); 409 when it
    is not suspended."""
    return await command(request, me, ResumeActor("tournament", tid))


@router.post("/{tid}/cancel")
async def cancel(tid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Cancel a tournament that has not started: every entrant gets his buy-in and fee back (to the
    ticket he registered with, if any), as when a tournament misses its minimum field (§9.2). A
    sit-and-go's copy ends its series."""
    return await command(request, me, CancelTournament(tid))


@router.post("/{tid}/end")
async def end(tid: str, me: Admin, request: Request) -> dict[str, Any]:
    """End a running tournament (a server fault, a scheduling mistake): the hands in progress are void
    and the pool is paid out by the interrupted-tournament rule (docs/tournaments.md, "Ended by an
    operator"): the places already given keep their prizes, the rest of the pool goes to the players
    holding chips (the lowest prize they were sure of, the rest by chips), each with his fee back. ``409
    not_running`` when it is not running. Audited as ``tournament.end``."""
    return await command(request, me, EndTournament(tid))


@router.post("/{tid}/deals")
async def deals(
    tid: str, me: Admin, request: Request, allowed: Annotated[StrictBool, Body(embed=True)]
) -> dict[str, Any]:
    """Allow (``{"allowed": true}``) or forbid deals at this tournament's final table (docs/tournaments.md,
    "Deals at the final table"); forbidding them ends a deal proposed and not yet made (play resumes).
    Stored: when the tournament opens again (a restart, a cluster's host taking it over) the operator's
    word wins over its configuration's ``deals``. Audited as ``tournament.deals``."""
    return await command(request, me, SetTournamentDeals(tid, allowed))

"""The console's Tournaments page: schedule every kind the room has (sit-and-go, scheduled, satellite,
guaranteed, freeroll, rebuy, Rush: the fields of a ``[[tournament]]`` of the schedule file), cancel one
that has not started with every buy-in and fee refunded (RULES.md §9.2), and each one's entrants,
standings and payouts. What the console schedules or cancels is stored and kept across restarts."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.console.access import Admin, Staff, audited, fail, front, room
from pokerroom.server.errors import Refused
from pokerroom.server.schedule import ScheduleError, tournament_from_dict

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


def _spec(body: dict[str, Any], cfg: TournamentConfig, rush: bool) -> dict[str, Any]:
    """The request with its times made absolute: what the store keeps to open it again."""
    spec = {k: v for k, v in body.items() if k != "start_in_minutes"}
    if cfg.start_time is not None:
        spec["start"] = cfg.start_time.isoformat()
    if cfg.registration_opens is not None:
        spec["registration_opens"] = cfg.registration_opens.isoformat()
    return {**spec, "rush": rush}


@router.get("")
async def tournaments(me: Staff, request: Request) -> dict[str, Any]:
    """Every tournament by state (upcoming, running, finished), and the kinds the form offers."""
    return {**front(request).tournament_lobby(), "kinds": KINDS}


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
    r = room(request)
    fields = dict(body)
    rush = fields.pop("rush", False)
    try:
        if not isinstance(rush, bool):
            raise ScheduleError("rush is true or false")
        cfg = tournament_from_dict(fields)
        tid = cfg.tournament_id
        if tid in r.tournaments or any(t.series == tid for t in r.tournaments.values()):
            raise ScheduleError(f"tournament {tid!r} exists already")
        if await r.store.tournaments.statuses([tid]):
            raise ScheduleError(f"tournament {tid!r} exists already")
        spec = _spec(fields, cfg, rush)
        actor = r.schedule_tournament(cfg, rush=rush, spec=spec)
    except (ScheduleError, ValueError) as exc:
        raise fail(422, "bad_tournament", str(exc)) from None
    await r.store.games.save(tid, "tournament", spec, "open")
    await audited(request, me, "tournament.schedule", tid, before=None, after=spec)
    return {"tournament": actor.summary()}


@router.put("/{tid}")
async def edit(
    tid: str, me: Admin, request: Request, body: Annotated[dict[str, Any], Body()]
) -> dict[str, Any]:
    """Edit a tournament before it starts, while nobody is registered (``409`` otherwise: cancel it, with
    the refunds, and schedule another): the same fields as scheduling, for the same id."""
    r = room(request)
    actor = r.tournaments.get(tid)
    if actor is None:
        raise fail(404, "unknown_tournament", "no such tournament", tournament=tid)
    before = r.store.games
    old = {"name": actor.director.config.name, "status": actor.director.status}
    fields = {**body, "id": tid}
    rush = fields.pop("rush", False)
    try:
        if not isinstance(rush, bool):
            raise ScheduleError("rush is true or false")
        cfg = tournament_from_dict(fields)
    except (ScheduleError, ValueError) as exc:
        raise fail(422, "bad_tournament", str(exc)) from None
    spec = _spec(fields, cfg, rush)
    try:
        new = await r.edit_tournament(cfg, rush=rush, spec=spec)
    except Refused as exc:
        raise fail(409, exc.code, exc.message, tournament=tid) from None
    await before.save(tid, "tournament", spec, "open")
    await audited(request, me, "tournament.edit", tid, before=old, after=spec)
    return {"tournament": new.summary()}


@router.post("/{tid}/resume")
async def resume(tid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Resume a tournament that repeated errors suspended (``summary.suspended`` says why); 409 when it
    is not suspended."""
    r = room(request)
    actor = r.tournaments.get(tid)
    if actor is None:
        raise fail(404, "unknown_tournament", "no such tournament", tournament=tid)
    before = {"state": actor.state, "reason": actor.suspended}
    if not await r.resume_actor(tid):
        raise fail(409, "not_suspended", "the tournament is not suspended", tournament=tid)
    await audited(request, me, "tournament.resume", tid, before=before, after={"state": actor.state})
    return {"tournament": actor.summary()}


@router.post("/{tid}/cancel")
async def cancel(tid: str, me: Admin, request: Request) -> dict[str, Any]:
    """Cancel a tournament that has not started: every entrant gets his buy-in and fee back (to the
    ticket he registered with, if any), as when a tournament misses its minimum field (§9.2). A
    sit-and-go's copy ends its series."""
    r = room(request)
    actor = r.tournaments.get(tid)
    if actor is None:
        raise fail(404, "unknown_tournament", "no such tournament", tournament=tid)
    cfg = actor.director.config
    before = {
        "status": actor.director.status,
        "entrants": sorted(e.name for e in actor.director.entrants.values()),
    }
    refunds = [
        {"name": e.name, "amount": cfg.buy_in + cfg.fee, "to": "ticket" if e.ticket else "wallet"}
        for e in actor.director.entrants.values()
    ]
    try:
        kept = await r.cancel_tournament(tid)
    except Refused as exc:
        raise fail(409, exc.code, exc.message, tournament=tid) from None
    await r.store.games.save(kept, "tournament", {}, "closed")
    after = {"status": actor.director.status, "refunds": refunds, "currency": cfg.currency}
    await audited(request, me, "tournament.cancel", tid, before=before, after=after)
    return {"tournament": actor.summary(), "refunds": refunds}

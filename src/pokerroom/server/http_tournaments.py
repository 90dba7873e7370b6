"""HTTP API of tournaments and Rush pools: lobby, details, registration, tickets, admin scheduling."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, HTTPException, Query, Request

from pokerroom.engine import EngineError
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.errors import Refused, error_details
from pokerroom.server.http import AdminMe, Me, _room, body_schema, read_body, with_registration
from pokerroom.server.ids import player_key
from pokerroom.server.schedule import ScheduleError, tournament_from_dict
from pokerroom.store import Player

__all__ = ["router"]

router = APIRouter(prefix="/api")


def _refused(exc: Refused | EngineError) -> HTTPException:
    status = 404 if exc.code == "unknown_tournament" else 409
    detail = {"code": exc.code, "message": str(exc), "details": error_details(exc)}
    return HTTPException(status, detail=detail)


@router.get("/tournaments", tags=["tournaments"])
async def tournaments(
    request: Request,
    status: Annotated[str | None, Query(pattern="^(upcoming|running|finished)$")] = None,
    kind: Annotated[str | None, Query(pattern="^(sng|mtt)$")] = None,
    game: str | None = None,
) -> dict[str, Any]:
    """Tournaments by state (upcoming, running, finished), filtered by kind and game. For a logged-in
    player (the session cookie or a bearer token) each upcoming and running row has ``registered``: whether
    he is registered in it (his entry stands), so that a client offers Register or Unregister, not both."""
    room = _room(request)
    groups = await with_registration(request, room.tournament_lobby(status))
    return {
        k: [r for r in rows if (kind is None or r["kind"] == kind) and (game is None or r["variant"] == game)]
        for k, rows in groups.items()
    }


@router.get("/tournaments/{tid}", tags=["tournaments"])
async def tournament(tid: str, request: Request) -> dict[str, Any]:
    """Structure, entrants, prize pool and payouts, standings, tables, the level clock; for a tournament
    that ended before the room last started, what the store kept (``"archived": true``)."""
    try:
        return await _room(request).tournament_details(tid)
    except Refused as exc:
        raise _refused(exc) from None


@router.post("/tournaments/{tid}/register", tags=["tournaments"])
async def register(
    tid: str, me: Me, request: Request, ticket: Annotated[bool, Body(embed=True)] = False
) -> dict[str, Any]:
    """Register: the buy-in and fee are booked from the wallet (or the ticket) to the prize pool and the
    house; a sit-and-go starts when its last seat is taken."""
    return await _request(request, tid, "register", me, ticket)


@router.post("/tournaments/{tid}/unregister", tags=["tournaments"])
async def unregister(tid: str, me: Me, request: Request) -> dict[str, Any]:
    """Unregister while registration is open: the whole buy-in comes back (to the ticket if one was used)."""
    return await _request(request, tid, "unregister", me, False)


@router.post("/tournaments/{tid}/rebuy", tags=["tournaments"])
async def rebuy(
    tid: str, me: Me, request: Request, add_on: Annotated[bool, Body(embed=True)] = False
) -> dict[str, Any]:
    """A rebuy (at or below the starting stack, in the rebuy period, between hands) or the add-on (once,
    at the end of the period): the buy-in and fee are booked from the wallet."""
    return await _request(request, tid, "rebuy", me, add_on)


@router.post("/tournaments/{tid}/deal", tags=["tournaments"])
async def deal(
    tid: str,
    me: Me,
    request: Request,
    method: Annotated[Literal["icm", "chip_chop"], Body(embed=True)] = "icm",
) -> dict[str, Any]:
    """Propose a deal at the final table (RULES.md §11.3): the tournament pauses at the end of the hand in
    progress and every player still in is offered the ICM or chip-chop amounts (``tournament_deal``
    frames); ``409 deal_refused`` when deals are off, not at the final table, or one is proposed."""
    return await _request(request, tid, f"deal_{method}", me, False)


@router.post("/tournaments/{tid}/deal/answer", tags=["tournaments"])
async def deal_answer(
    tid: str, me: Me, request: Request, accept: Annotated[bool, Body(embed=True)]
) -> dict[str, Any]:
    """Accept or refuse the deal offered (every player must accept before its deadline; a refusal ends
    it and play resumes with the next hand)."""
    return await _request(request, tid, "deal_answer", me, accept)


async def _request(request: Request, tid: str, what: str, me: Player, flag: bool) -> dict[str, Any]:
    try:
        summary = await _room(request).tournament_request(tid, what, player_key(me.id), me.name, flag)
    except (Refused, EngineError) as exc:
        raise _refused(exc) from None
    return {"ok": True, "tournament": summary}


@router.get("/account/tickets", tags=["tournaments"])
async def tickets(me: Me, request: Request) -> dict[str, Any]:
    """Satellite tickets kept in the account until used."""
    rows = await _room(request).store.tournaments.tickets(me.id)
    return {"tickets": [{"target": t.target, "value": t.value, "satellite": t.satellite} for t in rows]}


@router.post("/admin/tournaments", tags=["admin"], status_code=201, openapi_extra=body_schema(dict[str, Any]))
async def schedule(me: AdminMe, request: Request) -> dict[str, Any]:
    """Admin only: schedule a tournament (the fields of a ``[[tournament]]`` of the schedule file, with
    ``rush`` for a Rush tournament). The caller is checked before the body."""
    body = await read_body(request, dict[str, Any])
    rush = body.pop("rush", False)
    room = _room(request)
    try:
        if not isinstance(rush, bool):
            raise ScheduleError("rush is true or false")
        cfg = tournament_from_dict(body)
        if await room.store.tournaments.statuses([cfg.tournament_id]):
            raise ScheduleError(f"tournament {cfg.tournament_id!r} exists already")
        summary = await room.schedule(cfg, rush, _spec(body, cfg, rush))
    except (ScheduleError, ValueError) as exc:
        raise HTTPException(422, detail={"code": "bad_tournament", "message": str(exc)}) from None
    return {"tournament": summary}


def _spec(body: dict[str, Any], cfg: TournamentConfig, rush: bool) -> dict[str, Any]:
    """The request as kept with the registrations, to open the tournament again after a restart: times
    made absolute."""
    spec = {k: v for k, v in body.items() if k not in ("start_in_minutes", "start_time")}
    if cfg.start_time is not None:
        spec["start"] = cfg.start_time.isoformat()
    if cfg.registration_opens is not None:
        spec["registration_opens"] = cfg.registration_opens.isoformat()
    return {**spec, "rush": rush}


@router.get("/pools/{pool}", tags=["lobby"])
async def pool(pool: str, request: Request, me: Me) -> dict[str, Any]:
    """A Rush pool and the caller's entries in it."""
    try:
        return await _room(request).pool_details(pool, player_key(me.id))
    except Refused:
        raise HTTPException(404, detail={"code": "unknown_pool", "message": "no such pool"}) from None

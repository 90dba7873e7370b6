"""Responsible gaming over HTTP (issue 29, item 5): the player's own limits, cool-off and self-exclusion,
and the session reminder's figures. docs/responsible-gaming.md describes the rules; the store keeps them
(store/gaming.py), so every process of a room honours them."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from pokerroom.server.front import Front
from pokerroom.server.http import COOKIE, Me, body_schema, read_body
from pokerroom.server.sessions import SessionSockets
from pokerroom.server.throttle import LoginGuard, TooManyAttempts, address_key
from pokerroom.store import PLAY, POINTS, BadCredentials
from pokerroom.store.currencies import check_room_currency
from pokerroom.store.gaming import LIMIT_KINDS

__all__ = ["router"]

router = APIRouter(prefix="/api/gaming", tags=["responsible gaming"])


class LimitIn(BaseModel):
    """One limit. ``amount`` is checked by the store (strict ints only: a boolean, a fraction or a
    string is ``400 invalid_amount``), so it is taken as it came."""

    model_config = ConfigDict(extra="forbid")
    kind: Annotated[str, Field(description=f"one of {', '.join(LIMIT_KINDS)}", examples=["loss_day"])]
    currency: Annotated[
        str | None, Field(description="the limit's currency (none for 'session')", examples=["EUR"])
    ] = None
    amount: Annotated[
        Any,
        Field(
            description="minor units (cents) for deposit and loss limits, minutes (5-1440) for 'session';"
            " null removes the limit (after the cooling period)",
            examples=[5000],
        ),
    ] = None


class ExclusionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Annotated[str, Field(description="cool_off or self_exclusion", examples=["cool_off"])]
    password: Annotated[str, Field(min_length=1, max_length=200, description="the player's password")]
    days: Annotated[Any, Field(description="a cool-off's length: 1 to 42 days", examples=[7])] = None
    months: Annotated[Any, Field(description="a self-exclusion's length: 6 to 120 months")] = None
    permanent: Annotated[Any, Field(description="a self-exclusion with no end")] = False


def _front(request: Request) -> Front:
    f: Front = request.app.state.front
    return f


def _cooling(request: Request) -> timedelta:
    return timedelta(hours=_front(request).settings.gaming_cooling_hours)


@router.get("")
async def overview(me: Me, request: Request) -> dict[str, Any]:
    """The player's limits (with any raise or removal waiting out the cooling period, and when it takes
    effect), his deposits and losses so far in each window per currency he has a limit in, the exclusion
    in force (null: none) and every one he ever set."""
    room = _front(request)
    gaming = room.store.gaming
    limits = await gaming.limits(me.id)
    used: dict[str, dict[str, dict[str, int]]] = {}
    for s in limits:
        if s.currency:
            what = s.kind.split("_")[0]
            mine = used.setdefault(s.currency, {})
            if what not in mine:
                mine[what] = await gaming.used(me.id, s.currency, what)
    active = await gaming.active_exclusion(me.id)
    currencies = room.settings.currencies
    return {
        "limits": [s.to_dict() for s in limits],
        "used": used,
        "exclusion": None if active is None else active.to_dict(),
        "exclusions": [e.to_dict() for e in await gaming.exclusions(me.id)],
        "cooling_hours": room.settings.gaming_cooling_hours,
        "currencies": [c for c in currencies if c not in (PLAY, POINTS)],
    }


@router.put("/limits", openapi_extra=body_schema(LimitIn))
async def set_limit(me: Me, request: Request) -> dict[str, Any]:
    """Set, lower, raise or remove a limit. Setting or lowering holds at once (and cancels a waiting
    raise); raising or removing waits the cooling period (``[responsible_gaming] cooling_hours``, 24 by
    default): the answer's ``pending`` and ``pending_from`` say what and when. Bad input: ``400``
    ``invalid_amount``, ``invalid_currency`` or ``invalid_limit``; nothing changes."""
    body = await read_body(request, LimitIn)
    if body.currency is not None:  # a currency of this room (the store checks the rest)
        check_room_currency(body.currency, _front(request).settings.currencies)
    got = await _front(request).store.gaming.set_limit(
        me.id, body.kind, body.currency, body.amount, cooling=_cooling(request)
    )
    return {"limit": got.to_dict()}


@router.post("/exclusion", openapi_extra=body_schema(ExclusionIn))
async def exclude(
    me: Me, request: Request, response: Response, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Start a cool-off (``days``: 1-42) or a self-exclusion (``months``: 6-120, or ``permanent``),
    confirmed with the password (``401 bad_credentials`` otherwise; wrong passwords are throttled as at a
    login: ``429 too_many_attempts``). It ends every login session of the
    player at once (his sockets close); until it ends, login, stakes and deposits are refused
    (``self_excluded``). Nobody can lift or shorten it: ``403 exclusion_locked``."""
    body = await read_body(request, ExclusionIn)
    guard: LoginGuard = request.app.state.login_guard  # a password guessed here counts as at a login
    address, name = address_key(request.client.host if request.client else None), me.name.lower()
    wait = guard.check(address, name, known_device=False)
    if wait:
        raise TooManyAttempts(wait)
    try:
        got = await _front(request).store.gaming.exclude(
            me.id,
            body.kind,
            password=body.password,
            days=body.days,
            months=body.months,
            permanent=body.permanent,
        )
    except BadCredentials:
        guard.failed(address, name)
        raise
    sockets: SessionSockets = request.app.state.sessions
    await sockets.recheck_now()  # the sessions are gone from the store: end their sockets here now
    response.delete_cookie(COOKIE, httponly=True, samesite="strict", secure=request.url.scheme == "https")
    return {"exclusion": got.to_dict()}


@router.delete("/exclusion")
async def lift(me: Me, request: Request) -> dict[str, Any]:
    """Always refused: a cool-off or a self-exclusion runs to its end (``403 exclusion_locked``)."""
    await _front(request).store.gaming.lift(me.id)


@router.get("/session")
async def session(
    me: Me, request: Request, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """The session reminder's figures for this login session: when it started, the seconds played, the
    player's session limit (``reminder_minutes``, null: none), when the next reminder is due, and the
    net result per currency since the login (what came back from tables and tournaments minus what went
    to them; chips still on a table count as his)."""
    token = ""
    if authorization and authorization.lower().startswith("bearer "):
        token = authorization[7:].strip()
    token = token or request.cookies.get(COOKIE, "")
    room = _front(request)
    report = await room.store.gaming.session(token)
    return report.to_dict(room.store.clock())

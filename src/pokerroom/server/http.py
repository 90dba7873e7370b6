"""The HTTP API: accounts, lobby, tables, cashier, hand histories, health. Described by OpenAPI
(``/openapi.json``, browsable at ``/docs``)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from pokerroom.history import HistoryError
from pokerroom.server.errors import Refused, error_details
from pokerroom.server.front import Front
from pokerroom.server.ids import player_key
from pokerroom.server.integrity.logins import record_login
from pokerroom.server.operations import failure_handler
from pokerroom.server.security import SESSION_COOKIE, local_client
from pokerroom.server.sessions import SessionSockets
from pokerroom.server.stored_hands import stored_hand
from pokerroom.server.throttle import (
    LoginGuard,
    RegisterGuard,
    TooManyAttempts,
    TooManyRegistrations,
    address_key,
)
from pokerroom.store import (
    PLAY,
    POINTS,
    AccountLocked,
    BadCredentials,
    Player,
    PlayerHand,
    Store,
    StoreError,
    UnknownPlayer,
    unavailable,
)

__all__ = [
    "COOKIE",
    "DEVICE_COOKIE",
    "AdminMe",
    "Me",
    "admin_player",
    "body_schema",
    "read_body",
    "router",
    "store_error_handler",
]

router = APIRouter(prefix="/api")
COOKIE = SESSION_COOKIE
DEVICE_COOKIE = "pokerroom_device"  # known-device tokens of the accounts logged in from this browser
DEVICE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
DEVICES_KEPT = 5


class Credentials(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


class UnlockIn(BaseModel):
    name: Annotated[str, Field(min_length=1, max_length=40)]


class SessionOut(BaseModel):
    token: str
    player: dict[str, Any]
    expires_at: datetime


def _room(request: Request) -> Front:
    front: Front = request.app.state.front
    return front


async def _balances(store: Store, player_id: int, currencies: tuple[str, ...] = (PLAY,)) -> dict[str, int]:
    """The player's balance in each of ``currencies`` (0 where he has no wallet yet) and his points."""
    return {currency: await store.ledger.balance(player_id, currency) for currency in (*currencies, POINTS)}


def _token(request: Request, authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return request.cookies.get(COOKIE)


async def current_player(request: Request, authorization: Annotated[str | None, Header()] = None) -> Player:
    token = _token(request, authorization)
    if not token:
        raise HTTPException(401, detail={"code": "login_required", "message": "log in first"})
    return await _room(request).store.accounts.authenticate(token)


Me = Annotated[Player, Depends(current_player)]


async def admin_player(me: Me) -> Player:
    """The logged-in administrator: anonymous callers get 401, anybody else 403, before a request's body is
    looked at (a player learns nothing from an endpoint he may not use, not even what it takes)."""
    if not me.is_admin:
        raise HTTPException(403, detail={"code": "forbidden", "message": "administrators only"})
    return me


AdminMe = Annotated[Player, Depends(admin_player)]
T = TypeVar("T")


async def read_body(request: Request, shape: type[T]) -> T:
    """The request's JSON body as ``shape`` (a pydantic model, ``dict[str, Any]``, ...), read by an endpoint
    once its dependencies have accepted the caller: FastAPI parses a body it is given as a parameter
    before it checks anything, and answers malformed JSON with 422 even to a caller who may not use the
    endpoint at all. A bad body is 422, as FastAPI words it."""
    try:
        return TypeAdapter(shape).validate_json(await request.body() or b"null")
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        raise RequestValidationError(errors) from None


def body_schema(shape: Any) -> dict[str, Any]:
    """``openapi_extra`` describing a body read with :func:`read_body` (for ``/docs``)."""
    schema = TypeAdapter(shape).json_schema()
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


async def optional_player(request: Request) -> Player | None:
    """The logged-in player, or ``None`` (no token, or one that no longer works): for lists anyone may read
    that say more to a player."""
    token = _token(request, request.headers.get("authorization"))
    if not token:
        return None
    try:
        return await _room(request).store.accounts.authenticate(token)
    except StoreError:
        return None


async def with_registration(
    request: Request, groups: dict[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """The tournament lobby's groups, each upcoming and running row with ``registered`` (does this player's
    entry stand?) for a logged-in player; as they are for anyone else, and when no tournament is upcoming
    or running (nothing is asked of the store then). Rows are copied: a lobby's rows are shared."""
    live = ("upcoming", "running")
    ids = {str(r["tournament"]) for k in live for r in groups.get(k, ())}
    me = await optional_player(request) if ids else None
    if me is None:
        return groups
    mine = await _room(request).store.tournaments.entered(me.id, ids)
    return {
        k: [{**r, "registered": r["tournament"] in mine} for r in rows] if k in live else rows
        for k, rows in groups.items()
    }


def _player(p: Player) -> dict[str, Any]:
    return {"id": str(p.id), "name": p.name, "role": p.role.value}


async def store_error_handler(request: Request, exc: Exception) -> JSONResponse:
    code = getattr(exc, "code", "store_error")
    if isinstance(exc, TooManyAttempts):
        return JSONResponse(
            {"code": code, "message": str(exc)},
            status_code=429,
            headers={"Retry-After": str(exc.retry_after)},
        )
    status = {
        "name_taken": 409,
        "reserved_name": 409,  # a name kept for the room's own bots
        "bad_credentials": 401,
        "account_locked": 423,
        "unknown_token": 401,
        "token_expired": 401,
        "insufficient_funds": 402,
        "forbidden": 403,
        "unknown_hand": 404,  # a hand the player has no history of (not dealt in, or no such hand)
        "self_excluded": 403,  # a cool-off or self-exclusion (store/gaming.py)
        "limit_reached": 403,  # a deposit or loss limit the player set
        "exclusion_locked": 403,  # nobody lifts an exclusion early
        "store_unavailable": 503,
    }.get(code, 400)
    if unavailable(exc):  # (a store error raised because the database failed under it)
        return await failure_handler(request, exc)
    body: dict[str, Any] = {"code": code, "message": str(exc)}
    if details := error_details(exc):  # (typed fields a client shows: e.g. the end of a self-exclusion)
        body["details"] = details
    return JSONResponse(body, status_code=status)


def _secure(request: Request) -> bool:
    """Served over HTTPS (directly, or behind a proxy the ASGI server trusts: docs/security.md)."""
    return request.url.scheme == "https"


def _devices(request: Request) -> list[str]:
    return [d for d in (request.cookies.get(DEVICE_COOKIE) or "").split("~") if d][:DEVICES_KEPT]


def _login_response(session: Any, request: Request, response: Response) -> SessionOut:
    secure = _secure(request)
    response.set_cookie(
        COOKIE, session.token, httponly=True, samesite="strict", secure=secure, expires=session.expires_at
    )
    if session.device:
        mine = session.device.split(".")[1]
        others = [d for d in _devices(request) if d.split(".")[1:2] != [mine]]
        response.set_cookie(
            DEVICE_COOKIE,
            "~".join([session.device, *others][:DEVICES_KEPT]),
            httponly=True,
            samesite="strict",
            secure=secure,
            max_age=DEVICE_MAX_AGE,
            path="/api/",
        )
    return SessionOut(token=session.token, player=_player(session.player), expires_at=session.expires_at)


@router.post("/register", response_model=SessionOut, tags=["accounts"])
async def register(creds: Credentials, request: Request, response: Response) -> SessionOut:
    """Create an account (with play money) and log in. The password: at least 15 characters, not common
    or easy to guess (docs/security.md); a refusal (``weak_password``) says why. Throttled per client
    address: ``429 too_many_registrations`` with ``Retry-After``."""
    guard: RegisterGuard = request.app.state.register_guard
    address = address_key(request.client.host if request.client else None)
    wait = guard.check(address, local=local_client(request.scope))
    if wait:
        raise TooManyRegistrations(wait)
    room = _room(request)
    player = await room.store.accounts.register(creds.name, creds.password)
    if room.settings.play_money_on_register:
        await room.store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
    session = await room.store.accounts.login(creds.name, creds.password, devices=_devices(request))
    await record_login(request, response, session.player.id)  # (issue 30: server/integrity)
    return _login_response(session, request, response)


@router.post("/login", response_model=SessionOut, tags=["accounts"])
async def login(creds: Credentials, request: Request, response: Response) -> SessionOut:
    """Log in. Throttled per client address and per name (growing delays) and over all clients (a
    global rate): ``429 too_many_attempts`` with ``Retry-After``. Repeated failures lock the name for
    devices it was never logged in from: ``423 account_locked``. An unknown name answers as a wrong
    password does (``401 bad_credentials``), and locks the same way."""
    guard: LoginGuard = request.app.state.login_guard
    address = address_key(request.client.host if request.client else None)
    name = creds.name.lower()

    def gate(known_device: bool) -> None:
        wait = guard.check(address, name, known_device=known_device)
        if wait:
            raise TooManyAttempts(wait)

    try:
        store = _room(request).store
        session = await store.accounts.login(  # (a cool-off or self-exclusion refuses it: store/gaming.py)
            creds.name, creds.password, devices=_devices(request), gate=gate, admit=store.gaming.check_login
        )
    except BadCredentials:
        guard.failed(address, name)
        raise
    except AccountLocked:  # no password was checked: only the address counts it
        guard.failed(address, None)
        raise
    guard.succeeded(name)
    await record_login(request, response, session.player.id)  # (issue 30: server/integrity)
    return _login_response(session, request, response)


@router.post("/logout", tags=["accounts"])
async def logout(
    request: Request, response: Response, authorization: Annotated[str | None, Header()] = None
) -> dict[str, bool]:
    """End the session: its token stops working and every WebSocket logged in with it is closed."""
    token = _token(request, authorization)
    if token:
        with contextlib.suppress(StoreError):
            await _room(request).store.accounts.logout(token)
        sockets: SessionSockets = request.app.state.sessions
        sockets.end(token, "logged_out")
    response.delete_cookie(COOKIE, httponly=True, samesite="strict", secure=_secure(request))
    return {"ok": True}


@router.post("/admin/unlock", tags=["admin"], openapi_extra=body_schema(UnlockIn))
async def unlock(me: AdminMe, request: Request) -> dict[str, Any]:
    """Admin only: lift the lock that repeated failed logins put on an account (``{"name": ...}``). The
    caller is checked before the body: anonymous 401, not an administrator 403."""
    body = await read_body(request, UnlockIn)
    accounts = _room(request).store.accounts
    try:
        player = await accounts.find(body.name)
    except UnknownPlayer:
        raise HTTPException(404, detail={"code": "unknown_player", "message": "no such player"}) from None
    await accounts.unlock(player.id)
    guard: LoginGuard = request.app.state.login_guard
    guard.succeeded(player.name.lower())
    return {"ok": True, "player": _player(player)}


@router.get("/room", tags=["lobby"])
async def room_info(request: Request) -> dict[str, Any]:
    """What the login page says of the room (no login needed): its demo account when ``[room]
    demo_account`` is on (``{"name", "password"}``, the documented ones), else null."""
    demo = _room(request).settings.demo_account
    return {"demo_account": {"name": demo[0], "password": demo[1]} if demo else None}


@router.get("/lobby", tags=["lobby"])
async def lobby(
    request: Request,
    game: str | None = None,
    betting: Annotated[str | None, Query(pattern="^(FL|PL|NL|fl|pl|nl)$")] = None,
    seats: Annotated[int | None, Query(ge=2, le=10)] = None,
    min_players: Annotated[int | None, Query(ge=0, le=10)] = None,
    max_stake: Annotated[int | None, Query(ge=0)] = None,
) -> dict[str, Any]:
    """Cash tables, filtered by game, structure, seats, players and stakes (the big blind or small bet);
    Rush pools; tournaments (for a logged-in player, upcoming and running ones with ``registered``, as in
    ``GET /api/tournaments``)."""
    room = _room(request)
    rows = room.lobby(game=game, betting=betting, seats=seats, min_players=min_players, max_stake=max_stake)
    tournaments = await with_registration(request, room.tournament_lobby())
    return {"tables": rows, "pools": room.pool_lobby(), "tournaments": tournaments}


@router.get("/tables/{table_id}", tags=["lobby"])
async def table_details(table_id: str, request: Request) -> dict[str, Any]:
    """A table as an observer sees it: seats, stacks, the public cards of the hand in progress."""
    try:
        return await _room(request).table_details(table_id)
    except Refused:
        raise HTTPException(404, detail={"code": "unknown_table", "message": "no such table"}) from None


@router.get("/account", tags=["cashier"])
async def account(me: Me, request: Request) -> dict[str, Any]:
    """The player and his balances: one for every currency of the room (``PLAY`` first; minor units, 0
    where he has no wallet yet) and ``PTS``, his loyalty points in centipoints. ``currencies`` lists the
    room's currencies in order (docs/cashier.md)."""
    room = _room(request)
    currencies = room.settings.currencies
    balances = await _balances(room.store, me.id, currencies)
    return {"player": _player(me), "balances": balances, "currencies": list(currencies)}


@router.post("/account/play-money", tags=["cashier"])
async def play_money(me: Me, request: Request) -> dict[str, Any]:
    """Refill a low play-money balance."""
    room = _room(request)
    key = f"play-topup:{me.id}:{datetime.now(UTC).isoformat(timespec='seconds')}"
    await room.store.ledger.play_money_top_up(me.id, idempotency_key=key)
    await room.send_balance(player_key(me.id), PLAY)
    return {"balances": await _balances(room.store, me.id)}


@router.get("/account/ledger", tags=["cashier"])
async def ledger_history(
    me: Me,
    request: Request,
    currency: str = PLAY,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The player's ledger entries, newest first."""
    entries = await _room(request).store.ledger.history(me.id, currency, limit=limit, offset=offset)
    return {"currency": currency, "entries": [e.to_dict() for e in entries]}


@router.get("/hands", tags=["histories"])
async def hands(
    me: Me,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The player's stored hands, newest first: the game, the stakes (``stakes`` in engine units and
    ``stakes_label`` as the lobby words it), when it ended and what it won or lost him (``net``, after the
    rake, in the hand's ``currency``: ``CHIPS`` for tournament chips), read from his own history of each
    hand. ``GET /api/hands/{hand_id}/replay`` gives one of them for the replayer."""
    rows = await _room(request).store.histories.player_hands(me.id, limit=limit, offset=offset)
    # Reading the histories takes about a millisecond a hand: off the event loop, which runs the tables.
    return {"hands": await asyncio.to_thread(lambda: [_hand_row(h) for h in rows])}


def _hand_row(h: PlayerHand) -> dict[str, Any]:
    row: dict[str, Any] = {
        "hand_id": h.hand_id,
        "table": h.table_id,
        "game": h.game,
        "ended_at": h.ended_at.isoformat(),
    }
    try:
        row.update(stored_hand(h.phh).summary())
    except HistoryError:  # an unreadable history still lists (its downloads work); no figures
        row.update({"stakes": None, "stakes_label": None, "net": None})
    return row


@router.get("/hands/{hand_id}/replay", tags=["histories"])
async def hand_replay(hand_id: str, me: Me, request: Request) -> dict[str, Any]:
    """One of the player's own hands for the replayer, as he saw it: the seats and names, and the hand's
    events (the WebSocket's ``last_hand`` events) with his own cards, face-up cards and the hands that
    reached the showdown (R182); folded hands, discards and the deck never. Made from his own stored
    history only. ``404 unknown_hand`` for a hand he was not dealt into (another player's hand too)."""
    h = await _room(request).store.histories.player_hand(me.id, hand_id)  # UnknownHand: 404
    try:
        view = stored_hand(h.phh).replay()  # one hand: a millisecond or two
    except HistoryError as exc:
        raise HTTPException(
            409, detail={"code": "unreadable_hand", "message": f"the history cannot be replayed: {exc}"}
        ) from None
    return {
        "hand_id": h.hand_id,
        "table": h.table_id,
        "game": h.game,
        "ended_at": h.ended_at.isoformat(),
        **view,
    }


@router.get("/hands/export.phhs", tags=["histories"], response_class=PlainTextResponse)
async def export_phhs(me: Me, request: Request) -> PlainTextResponse:
    text = await _room(request).store.histories.export_phhs(me.id)
    return PlainTextResponse(text, headers={"Content-Disposition": 'attachment; filename="hands.phhs"'})


@router.get("/hands/export.txt", tags=["histories"], response_class=PlainTextResponse)
async def export_text(me: Me, request: Request) -> PlainTextResponse:
    text = await _room(request).store.histories.export_pokerstars(me.id)
    return PlainTextResponse(text, headers={"Content-Disposition": 'attachment; filename="hands.txt"'})


@router.get("/hands/{hand_id}.phh", tags=["histories"], response_class=PlainTextResponse)
async def hand_phh(hand_id: str, me: Me, request: Request) -> PlainTextResponse:
    h = await _room(request).store.histories.player_hand(me.id, hand_id)
    return PlainTextResponse(h.phh, headers={"Content-Disposition": f'attachment; filename="{hand_id}.phh"'})


@router.get("/hands/{hand_id}.txt", tags=["histories"], response_class=PlainTextResponse)
async def hand_text(hand_id: str, me: Me, request: Request) -> PlainTextResponse:
    h = await _room(request).store.histories.player_hand(me.id, hand_id)
    return PlainTextResponse(h.pokerstars)


@router.get("/health", tags=["operations"])
async def health(request: Request) -> dict[str, Any]:
    return _room(request).health()

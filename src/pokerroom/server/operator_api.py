"""The operator API (issue 29, item 3; docs/operator-api.md): what a club's website does with a key made in
the console, under ``/api/v1``, instead of logging in as an administrator.

Every call goes through :func:`serve`, in this order: the key (``Authorization: Bearer prk_...``: none
``401 api_key_required``, unknown ``401 bad_api_key``), the key's rate (``429 api_rate_limited`` with
``Retry-After``), a revoked key (``401 api_key_revoked``), the endpoint's scope (``403 out_of_scope``), and
only then the request's body and the work. Every call made with a key the room knows (revoked or not) is
written to the audit log, whatever its outcome: the actor ``api:<key name>``, the action ``api.<what>``,
the endpoint and the outcome's code, never the key. Calls with no key or an unknown one name no key and
are not audited; calls refused by the rate limit are not either (the limit protects the audit log too).

``GET /sso/<token>`` is the browser's end of a sign-on link: it logs the browser in as the link's account
(the login's session cookie) and redirects to ``/``; a link works once, for ``[operator_api]
sso_seconds``."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.security import HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from pokerroom.engine import EngineError
from pokerroom.server.errors import Refused, error_details
from pokerroom.server.front import Front
from pokerroom.server.http import COOKIE, body_schema, read_body
from pokerroom.server.ids import player_key
from pokerroom.server.integrity.logins import record_login
from pokerroom.server.operations import failure_handler
from pokerroom.server.throttle import RateBuckets
from pokerroom.store import (
    POINTS,
    AccountDetail,
    AccountLocked,
    Store,
    StoreError,
    UnknownPlayer,
    unavailable,
)
from pokerroom.store.api_keys import ApiKey, ApiKeyPolicy, ApiKeyRevoked, BadApiKey, SsoLinkInvalid
from pokerroom.store.cashier import MAX_CASHIER_AMOUNT, CashierRequest, UnknownCashierRequest
from pokerroom.store.currencies import check_room_currency

__all__ = ["STATUS", "router"]

log = logging.getLogger("pokerroom.operator_api")

BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="apiKey",
    bearerFormat="prk_<prefix>_<secret>",
    description="An operator API key made in the console: `Authorization: Bearer prk_...`",
)
router = APIRouter()
api = APIRouter(prefix="/api/v1", tags=["operator API"], dependencies=[Depends(BEARER)])

# HTTP statuses of the typed refusals (anything else a store refuses is 400).
STATUS = {
    "api_key_required": 401,
    "bad_api_key": 401,
    "api_key_revoked": 401,
    "sso_link_invalid": 401,
    "forbidden": 403,
    "out_of_scope": 403,
    "self_excluded": 403,
    "limit_reached": 403,
    "insufficient_funds": 402,
    "unknown_player": 404,
    "unknown_cashier_request": 404,
    "unknown_tournament": 404,
    "name_taken": 409,
    "reserved_name": 409,
    "idempotency_conflict": 409,
    "cashier_request_decided": 409,
    "account_locked": 423,
    "api_rate_limited": 429,
    "store_unavailable": 503,
}
ID = r"^[1-9][0-9]{0,17}$"
REQUEST_ID = r"^[A-Za-z0-9_-]{8,60}$"
# Field names whose refusal has a code of its own (else ``invalid_field``).
FIELD_CODES = {"amount": "invalid_amount", "currency": "invalid_currency"}


class ApiError(Exception):
    """A refusal of this API: ``status``, a stable ``code``, a message and public details."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.status = STATUS.get(code, 400)
        self.details = details


@dataclass
class Call:
    """One call with a known key: what the audit entry says of it (``target``, ``facts``)."""

    key: ApiKey
    target: str | None = None
    facts: dict[str, Any] = field(default_factory=dict)


Work = Callable[[Call], Awaitable[Any]]


def _front(request: Request) -> Front:
    front: Front = request.app.state.front
    return front


def _store(request: Request) -> Store:
    return _front(request).store


def _error(status: int, code: str, message: str, details: dict[str, Any], **headers: str) -> JSONResponse:
    body = {"code": code, "message": message, "details": jsonable_encoder(details)}
    return JSONResponse(body, status_code=status, headers=headers or None)


def _limiter(request: Request) -> RateBuckets:
    """The per-key rate buckets of this app (made again when a reload changes ``[operator_api]``)."""
    policy: ApiKeyPolicy = _front(request).settings.operator_api
    state = request.app.state
    found: tuple[ApiKeyPolicy, RateBuckets] | None = getattr(state, "operator_api_buckets", None)
    if found is None or found[0] != policy:
        found = (policy, RateBuckets(policy.rate, policy.burst))
        state.operator_api_buckets = found
    return found[1]


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization") or ""
    scheme, _, token = header.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _refusal(exc: Exception) -> ApiError | None:
    """The typed refusal an exception of a call is, or None for a failure of the room itself."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, RequestValidationError):
        errors = [
            {"field": ".".join(str(p) for p in e.get("loc", ())[1:]), "message": e.get("msg", "")}
            for e in exc.errors()
        ]
        code = next((FIELD_CODES[f["field"]] for f in errors if f["field"] in FIELD_CODES), "invalid_field")
        text = "; ".join(f"{f['field'] or 'body'}: {f['message']}" for f in errors)
        err = ApiError(code, text or "the request body is not valid", errors=errors)
        err.status = 422
        return err
    if isinstance(exc, StoreError) and not unavailable(exc):
        return ApiError(exc.code, str(exc), **error_details(exc))
    if isinstance(exc, Refused | EngineError):
        err = ApiError(exc.code, str(exc), **error_details(exc))
        err.status = 404 if exc.code == "unknown_tournament" else 409
        return err
    return None


async def _audit(request: Request, call: Call, action: str, status: int, outcome: str) -> None:
    after = {"endpoint": f"{request.method} {request.url.path}", "status": status, "outcome": outcome}
    await _store(request).audit.record(
        None, f"api:{call.key.name}", f"api.{action}", call.target, after={**after, **call.facts}
    )


async def serve(request: Request, scope: str, action: str, work: Work, *, status: int = 200) -> Response:
    """Run one call of the API (the checks in the module's order), audit it, and answer it."""
    token = _bearer(request)
    revoked = False
    try:
        if token is None:
            raise ApiError(
                "api_key_required", "this API needs an operator key: Authorization: Bearer prk_..."
            )
        try:
            key = await _store(request).api_keys.authenticate(token)
        except ApiKeyRevoked as exc:
            key, revoked = exc.key, True
        except BadApiKey as exc:
            raise ApiError(exc.code, str(exc)) from None
    except ApiError as exc:
        return _error(exc.status, exc.code, str(exc), exc.details)
    wait = _limiter(request).take(str(key.id), request.app.state.security.clock())
    if wait > 0:
        seconds = max(1, int(wait + 0.999))
        message = f"too many calls with this key: try again in {seconds} s"
        return _error(
            429, "api_rate_limited", message, {"retry_after": seconds}, **{"Retry-After": str(seconds)}
        )
    call = Call(key)
    try:
        if revoked:
            raise ApiError("api_key_revoked", f"the API key {key.name!r} was revoked")
        if scope not in key.scopes:
            raise ApiError("out_of_scope", f"this key has no {scope!r} scope", scope=scope)
        result = await work(call)
    except Exception as exc:
        refusal = _refusal(exc)
        if refusal is None:  # the room failed (the store is away, or a bug): 503 or 500, as anywhere
            await _audit(request, call, action, 503 if unavailable(exc) else 500, "failed")
            return await failure_handler(request, exc)
        await _audit(request, call, action, refusal.status, refusal.code)
        return _error(refusal.status, refusal.code, str(refusal), refusal.details)
    await _audit(request, call, action, status, "ok")
    return JSONResponse(jsonable_encoder(result), status_code=status)


# -- what the endpoints take and give -------------------------------------------------------------------


def _examples(*examples: dict[str, Any]) -> ConfigDict:
    return ConfigDict(strict=True, extra="forbid", json_schema_extra={"examples": list(examples)})


_Currency = Annotated[str, Field(max_length=8, description="a currency of the room (ISO 4217)")]
_Amount = Annotated[StrictInt, Field(gt=0, le=MAX_CASHIER_AMOUNT, description="minor units (cents)")]
_RequestId = Annotated[str, Field(pattern=REQUEST_ID, description="the website's id: a retry is safe")]


class AccountIn(BaseModel):
    model_config = _examples({"name": "alice", "password": "correct horse battery staple"})
    name: Annotated[str, Field(min_length=3, max_length=20, description="3-20 letters, digits, _ or -")]
    password: Annotated[str, Field(min_length=1, max_length=128, description="at least 15 characters")]


class DepositIn(BaseModel):
    model_config = _examples(
        {"currency": "EUR", "amount": 5000, "request_id": "order-10042", "reference": "SEPA 77"}
    )
    currency: _Currency
    amount: _Amount
    request_id: _RequestId
    reference: Annotated[str, Field(max_length=200, description="the payment's reference")] = ""


class WithdrawalIn(BaseModel):
    model_config = _examples(
        {"currency": "EUR", "amount": 2500, "request_id": "payout-991", "destination": "IBAN DE89 3704 0044"}
    )
    currency: _Currency
    amount: _Amount
    request_id: _RequestId
    destination: Annotated[str, Field(max_length=200, description="where to pay it (an IBAN ...)")] = ""


class DecisionIn(BaseModel):
    model_config = _examples({"reason": "paid by bank transfer 2026-12-06"})
    reason: Annotated[str, Field(max_length=500)] = ""


class DeclineIn(BaseModel):
    model_config = _examples({"reason": "the account details do not match"})
    reason: Annotated[str, Field(min_length=1, max_length=500)]


class RegistrationIn(BaseModel):
    model_config = _examples({"account": "42"})
    account: Annotated[str, Field(pattern=ID, description="the account's id")]


ACCOUNT = {"id": "42", "name": "alice", "created_at": "2026-12-06T10:00:00+00:00", "locked": False}
REQUEST = {
    "id": 7,
    "player_id": "42",
    "kind": "deposit",
    "currency": "EUR",
    "amount": 5000,
    "state": "approved",
    "reference": "SEPA 77",
    "request_id": "api-order-10042",
    "method": "api",
    "created_at": "2026-12-06T10:00:00+00:00",
    "decided_at": "2026-12-06T10:00:00+00:00",
    "decided_by": "1",
    "reason": "confirmed through the API key club-site",
}
ERROR = {
    "code": "out_of_scope",
    "message": "this key has no 'cashier' scope",
    "details": {"scope": "cashier"},
}


def _doc(example: Any, status: int = 200, body: type[BaseModel] | None = None) -> dict[str, Any]:
    """The OpenAPI description of an endpoint: its answer's example, its refusals, and its body."""
    responses: dict[int | str, dict[str, Any]] = {
        status: {"description": "done", "content": {"application/json": {"example": example}}},
        401: {"description": "no key, an unknown key or a revoked key (api_key_required, bad_api_key,"
              " api_key_revoked)"},
        403: {"description": "the key lacks the endpoint's scope (out_of_scope)",
              "content": {"application/json": {"example": ERROR}}},
        422: {"description": "a malformed body (invalid_field, invalid_amount, invalid_currency)"},
        429: {"description": "too many calls with this key (api_rate_limited; Retry-After)"},
    }  # fmt: skip
    doc: dict[str, Any] = {"responses": responses, "status_code": status}
    if body is not None:
        extra = body_schema(body)
        extra["requestBody"]["content"]["application/json"]["examples"] = {
            "example": {"value": body.model_config.get("json_schema_extra", {})["examples"][0]}  # type: ignore[index]
        }
        doc["openapi_extra"] = extra
    return doc


async def _account(store: Store, ref: str) -> AccountDetail:
    """A player's account by its id: the room's own bots and its staff are no account of this API."""
    if not isinstance(ref, str) or not ref.isdigit() or len(ref) > 18:
        raise UnknownPlayer(ref)
    detail = await store.operator.detail(int(ref))
    if detail.bot or detail.player.is_staff:
        raise UnknownPlayer(ref)
    return detail


def _account_out(d: AccountDetail) -> dict[str, Any]:
    p = d.player
    return {
        "id": str(p.id),
        "name": p.name,
        "created_at": p.created_at.isoformat(),
        "locked": d.locked_by is not None,
    }


def _request_no(ref: str) -> int:
    if not ref.isdigit() or len(ref) > 18:
        raise UnknownCashierRequest(ref)
    return int(ref)


# -- accounts ---------------------------------------------------------------------------------------------


@api.post("/accounts", **_doc({"account": ACCOUNT}, 201, AccountIn))
async def create_account(request: Request) -> Response:
    """Create a player's account (scope ``accounts``), with the room's welcome play money as a registration
    gives it. The password follows the room's rules (``weak_password`` says why not)."""

    async def work(call: Call) -> dict[str, Any]:
        body = await read_body(request, AccountIn)
        call.target = body.name
        front = _front(request)
        player = await front.store.accounts.register(body.name, body.password)
        if front.settings.play_money_on_register:
            await front.store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
        call.facts["account"] = str(player.id)
        return {"account": _account_out(await front.store.operator.detail(player.id))}

    return await serve(request, "accounts", "accounts.create", work, status=201)


@api.get("/accounts", **_doc({"account": ACCOUNT}))
async def find_account(request: Request, name: str = "") -> Response:
    """A player's account by its name (scope ``accounts``); ``404 unknown_player`` if there is none."""

    async def work(call: Call) -> dict[str, Any]:
        call.target = name[:40]
        store = _store(request)
        player = await store.accounts.find(name)  # UnknownPlayer
        return {"account": _account_out(await _account(store, str(player.id)))}

    return await serve(request, "accounts", "accounts.find", work)


@api.get("/accounts/{account_id}", **_doc({"account": ACCOUNT}))
async def get_account(account_id: str, request: Request) -> Response:
    """A player's account by its id (scope ``accounts``)."""

    async def work(call: Call) -> dict[str, Any]:
        call.target = account_id[:40]
        return {"account": _account_out(await _account(_store(request), account_id))}

    return await serve(request, "accounts", "accounts.get", work)


@api.get(
    "/accounts/{account_id}/balances",
    **_doc({"account": "42", "balances": {"PLAY": 1000000, "EUR": 5000, "PTS": 0}}),
)
async def balances(account_id: str, request: Request) -> Response:
    """The account's balance in every currency of the room, and its loyalty points (``PTS``, centipoints),
    in minor units (scope ``balances``)."""

    async def work(call: Call) -> dict[str, Any]:
        call.target = account_id[:40]
        front = _front(request)
        d = await _account(front.store, account_id)
        currencies = (*front.settings.currencies, POINTS)
        amounts = {c: await front.store.ledger.balance(d.player.id, c) for c in currencies}
        return {"account": str(d.player.id), "balances": amounts}

    return await serve(request, "balances", "balances", work)


# -- the cashier ----------------------------------------------------------------------------------------


async def _operator(store: Store, key: ApiKey) -> int:
    """The administrator in whose name the key's cashier decisions are made: the one who made it, while he
    is an administrator (checked before anything is asked of the cashier)."""
    maker = None
    if key.created_by_id is not None:
        with contextlib.suppress(UnknownPlayer):
            maker = await store.accounts.get(key.created_by_id)
    if maker is None or not maker.is_admin:
        raise ApiError("forbidden", "the administrator who made this key is one no more: make a new key")
    return maker.id


async def _answer(request: Request, req: CashierRequest, replayed: bool) -> dict[str, Any]:
    front = _front(request)
    await front.send_balance(player_key(req.player_id), req.currency)
    balance = await front.store.ledger.balance(req.player_id, req.currency)
    return {"request": req.to_dict(), "replayed": replayed, "balance": balance}


@api.post(
    "/accounts/{account_id}/deposits",
    **_doc({"request": REQUEST, "replayed": False, "balance": 5000}, 200, DepositIn),
)
async def deposit(account_id: str, request: Request) -> Response:
    """Credit a deposit the website has confirmed (scope ``cashier``): a cashier request, approved at once
    in the name of the administrator who made the key (one ledger transaction, cashier -> wallet). A retry
    with the same ``request_id`` and content books nothing again (``replayed``); with other content it is
    ``409 idempotency_conflict``. The room's responsible-gaming limits may refuse it."""

    async def work(call: Call) -> dict[str, Any]:
        call.target = account_id[:40]
        body = await read_body(request, DepositIn)
        front = _front(request)
        d = await _account(front.store, account_id)
        currency = check_room_currency(body.currency, front.settings.currencies)
        call.facts.update(currency=currency, amount=body.amount, request_id=body.request_id)
        operator = await _operator(front.store, call.key)
        cashier = front.store.cashier
        req = await cashier.request_deposit(
            d.player.id, currency, body.amount, reference=body.reference, request_id=f"api-{body.request_id}",
            method="api",
        )  # fmt: skip
        replayed = req.replayed
        call.facts["cashier_request"] = req.id
        if req.state == "pending":
            reason = f"confirmed through the API key {call.key.name}"
            try:
                req = await cashier.approve(req.id, operator_id=operator, reason=reason)
            except StoreError as exc:  # refused (a limit, the key's administrator no more): it ends here
                if not unavailable(exc):
                    with contextlib.suppress(StoreError):
                        await cashier.decline(req.id, operator_id=operator, reason=f"refused: {exc}"[:500])
                raise
            replayed = replayed and req.replayed
        if req.state == "declined":
            raise ApiError("cashier_request_decided", f"deposit {req.id} was declined: {req.reason}")
        return await _answer(request, req, replayed)

    return await serve(request, "cashier", "deposits.credit", work)


@api.post(
    "/accounts/{account_id}/withdrawals",
    **_doc(
        {
            "request": {**REQUEST, "kind": "withdrawal", "state": "pending"},
            "replayed": False,
            "balance": 2500,
        },
        200,
        WithdrawalIn,
    ),
)
async def withdraw(account_id: str, request: Request) -> Response:
    """Ask for a withdrawal from the account (scope ``cashier``): the amount leaves the playable balance
    for the pending-withdrawal account at once; approve or decline it later. ``request_id`` as for
    deposits; ``402 insufficient_funds`` books nothing."""

    async def work(call: Call) -> dict[str, Any]:
        call.target = account_id[:40]
        body = await read_body(request, WithdrawalIn)
        front = _front(request)
        d = await _account(front.store, account_id)
        currency = check_room_currency(body.currency, front.settings.currencies)
        call.facts.update(currency=currency, amount=body.amount, request_id=body.request_id)
        req = await front.store.cashier.request_withdrawal(
            d.player.id,
            currency,
            body.amount,
            request_id=f"api-{body.request_id}",
            destination=body.destination,
        )
        call.facts["cashier_request"] = req.id
        return await _answer(request, req, req.replayed)

    return await serve(request, "cashier", "withdrawals.request", work)


@api.get("/cashier/requests", **_doc({"requests": [REQUEST]}))
async def cashier_requests(
    request: Request, account: str = "", state: str = "", kind: str = "", limit: str = "100"
) -> Response:
    """Cashier requests, newest first (scope ``cashier``): by ``account`` (an id), ``state`` (pending,
    approved, declined) and ``kind`` (deposit, withdrawal); at most ``limit`` (1-500)."""

    async def work(call: Call) -> dict[str, Any]:
        if state not in ("", "pending", "approved", "declined"):
            raise ApiError("invalid_field", "state: pending, approved or declined", field="state")
        if kind not in ("", "deposit", "withdrawal"):
            raise ApiError("invalid_field", "kind: deposit or withdrawal", field="kind")
        if not limit.isdigit() or not 1 <= int(limit) <= 500:
            raise ApiError("invalid_field", "limit: 1-500", field="limit")
        store = _store(request)
        pid = (await _account(store, account)).player.id if account else None
        rows = await store.cashier.requests(
            player_id=pid, state=state or None, limit=500 if kind else int(limit)
        )
        chosen = [r.to_dict() for r in rows if not kind or r.kind == kind][: int(limit)]
        return {"requests": chosen}

    return await serve(request, "cashier", "cashier.requests", work)


async def _decide(request: Request, call: Call, ref: str, approve: bool) -> dict[str, Any]:
    call.target = f"cashier:{ref[:20]}"
    cashier = _store(request).cashier
    req = await cashier.get(_request_no(ref))
    if req.kind != "withdrawal":
        raise UnknownCashierRequest(ref)
    operator = await _operator(_store(request), call.key)
    if approve:
        body = await read_body(request, DecisionIn) if await request.body() else DecisionIn()
        why = body.reason or f"paid, through the API key {call.key.name}"
        req = await cashier.approve(req.id, operator_id=operator, reason=why)
    else:
        declined = await read_body(request, DeclineIn)
        req = await cashier.decline(req.id, operator_id=operator, reason=declined.reason)
    call.facts.update(currency=req.currency, amount=req.amount, state=req.state)
    return await _answer(request, req, req.replayed)


@api.post(
    "/withdrawals/{request_no}/approve",
    **_doc(
        {"request": {**REQUEST, "kind": "withdrawal"}, "replayed": False, "balance": 2500}, 200, DecisionIn
    ),
)
async def approve_withdrawal(request_no: str, request: Request) -> Response:
    """The withdrawal was paid out (scope ``cashier``): pending account -> cashier. The body is optional."""
    return await serve(
        request, "cashier", "withdrawals.approve", lambda call: _decide(request, call, request_no, True)
    )


@api.post(
    "/withdrawals/{request_no}/decline",
    **_doc(
        {
            "request": {**REQUEST, "kind": "withdrawal", "state": "declined"},
            "replayed": False,
            "balance": 5000,
        },
        200,
        DeclineIn,
    ),
)
async def decline_withdrawal(request_no: str, request: Request) -> Response:
    """Refuse a withdrawal with a reason (scope ``cashier``): the amount goes back to the wallet."""
    return await serve(
        request, "cashier", "withdrawals.decline", lambda call: _decide(request, call, request_no, False)
    )


# -- tournaments ----------------------------------------------------------------------------------------


@api.get(
    "/tournaments", **_doc({"upcoming": [{"tournament": "sunday-500", "name": "Sunday 500"}], "running": []})
)
async def tournaments(request: Request, status: str = "") -> Response:
    """The tournament lobby (scope ``tournaments``): upcoming, running and finished tournaments, as
    ``GET /api/tournaments`` lists them; ``status`` picks one group."""

    async def work(call: Call) -> dict[str, Any]:
        if status not in ("", "upcoming", "running", "finished"):
            raise ApiError("invalid_field", "status: upcoming, running or finished", field="status")
        return _front(request).tournament_lobby(status or None)

    return await serve(request, "tournaments", "tournaments.list", work)


@api.post(
    "/tournaments/{tid}/registrations",
    **_doc({"ok": True, "tournament": {"tournament": "sunday-500"}}, 200, RegistrationIn),
)
async def register(tid: str, request: Request) -> Response:
    """Register a player (scope ``tournaments``): the buy-in and fee are booked from his wallet as when he
    registers himself, with the same refusals (``registration_closed``, ``already_registered``,
    ``insufficient_funds``, a responsible-gaming limit ...)."""

    async def work(call: Call) -> dict[str, Any]:
        call.target = tid[:128]
        body = await read_body(request, RegistrationIn)
        front = _front(request)
        d = await _account(front.store, body.account)
        call.facts["account"] = body.account
        summary = await front.tournament_request(
            tid, "register", player_key(d.player.id), d.player.name, False
        )
        return {"ok": True, "tournament": summary}

    return await serve(request, "tournaments", "tournaments.register", work)


# -- single sign-on -------------------------------------------------------------------------------------


async def _may_log_in(store: Store, d: AccountDetail) -> None:
    if d.locked_by is not None:
        raise AccountLocked(None, by_operator=True)
    await store.gaming.check_login(d.player.id)


@api.post(
    "/accounts/{account_id}/sso",
    **_doc(
        {
            "url": "https://poker.example.com/sso/Jx2...",
            "path": "/sso/Jx2...",
            "expires_at": "2026-12-06T10:01:00+00:00",
        }
    ),
)
async def sso(account_id: str, request: Request) -> Response:
    """A one-time sign-on link for the account (scope ``sso``): opened in a browser within
    ``[operator_api] sso_seconds`` (default 60), it logs that browser in as the account and shows the room.
    It works once. A locked or self-excluded account gets no link."""

    async def work(call: Call) -> dict[str, Any]:
        call.target = account_id[:40]
        front = _front(request)
        d = await _account(front.store, account_id)
        await _may_log_in(front.store, d)
        seconds = front.settings.operator_api.sso_seconds
        token, expires = await front.store.api_keys.issue_sso(d.player.id, call.key.id, seconds=seconds)
        path = f"/sso/{token}"
        base = str(request.base_url).rstrip("/")
        return {"url": base + path, "path": path, "expires_at": expires.isoformat()}

    return await serve(request, "sso", "sso", work)


@router.get(
    "/sso/{token}",
    tags=["operator API"],
    status_code=303,
    responses={303: {"description": "logged in: to /"}, 401: {"description": "sso_link_invalid"}},
)
async def sso_login(token: str, request: Request) -> Response:
    """The browser's end of a sign-on link: the session cookie a login sets, and a redirect to ``/``.
    ``401 sso_link_invalid`` for a link used already, expired, or never made."""
    store = _store(request)
    try:
        pid = await store.api_keys.redeem_sso(token)
        d = await store.operator.detail(pid)
        if d.bot or d.player.is_staff:
            raise SsoLinkInvalid()
        await _may_log_in(store, d)
        session = await store.accounts.open_session(pid)
    except StoreError as exc:
        if unavailable(exc):
            return await failure_handler(request, exc)
        return _error(STATUS.get(exc.code, 401), exc.code, str(exc), error_details(exc))
    response = RedirectResponse("/", status_code=303)
    secure = request.url.scheme == "https"
    response.set_cookie(
        COOKIE, session.token, httponly=True, samesite="strict", secure=secure, expires=session.expires_at
    )
    await record_login(request, response, pid)
    log.info("sign-on link used: account %s", pid)
    return response


router.include_router(api)

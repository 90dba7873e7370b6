"""The player's cashier over HTTP (issue 29): his balances in every currency of the room, deposit and
withdrawal requests (idempotent by the client's ``request_id``), and his requests. The operator decides
them in the console (server/console/cashier.py). docs/cashier.md describes the flows."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from pokerroom.server.errors import error_details
from pokerroom.server.front import Front
from pokerroom.server.http import Me, body_schema, read_body
from pokerroom.server.ids import player_key
from pokerroom.server.payments import provider_of
from pokerroom.store import PLAY, POINTS, AccountKind, CashierRequest, Player, StoreError, unavailable
from pokerroom.store.cashier import MAX_CASHIER_AMOUNT
from pokerroom.store.currencies import check_room_currency

__all__ = ["STATUS", "cashier_errors", "router"]

router = APIRouter(prefix="/api/cashier", tags=["cashier"])

# HTTP statuses of the cashier's typed errors (any other store error is 400, through the app's handler).
STATUS = {
    "unknown_cashier_request": 404,
    "cashier_request_decided": 409,
    "idempotency_conflict": 409,
    "insufficient_funds": 402,
    "forbidden": 403,
    "self_excluded": 403,  # a cool-off or self-exclusion (store/gaming.py), as the rest of the API answers
    "limit_reached": 403,  # a deposit limit the player set
}
RequestId = Annotated[
    StrictStr,
    Field(
        min_length=8,
        max_length=64,
        pattern="^[A-Za-z0-9_-]+$",
        description="the client's id of this request: a retry with the same id and content returns the same"
        " request; the same id with other content is 409 idempotency_conflict",
        examples=["dep-2026-12-06-0001"],
    ),
]
Amount = Annotated[
    StrictInt,
    Field(description=f"minor units (cents), 1 to {MAX_CASHIER_AMOUNT}; JSON integers only", examples=[5000]),
]
Currency = Annotated[StrictStr, Field(description="one of the room's currencies, not PLAY", examples=["EUR"])]


class DepositIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    currency: Currency
    amount: Amount
    reference: Annotated[
        StrictStr, Field(max_length=200, description="what the payment method needs", examples=["SEPA 4411"])
    ]
    request_id: RequestId


class WithdrawalIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    currency: Currency
    amount: Amount
    destination: Annotated[
        StrictStr, Field(max_length=200, description="where to pay it (e.g. an IBAN)", examples=["BG80 BNBG"])
    ] = ""
    request_id: RequestId


def _front(request: Request) -> Front:
    front: Front = request.app.state.front
    return front


@contextmanager
def cashier_errors() -> Iterator[None]:
    """A cashier refusal becomes its HTTP error (the code, the message, the public details); a failing
    database stays what it is (``503 store_unavailable``, the app's handler)."""
    try:
        yield
    except StoreError as exc:
        if unavailable(exc):
            raise
        status = STATUS.get(exc.code, 400)
        detail = {"code": exc.code, "message": str(exc), "details": error_details(exc)}
        raise HTTPException(status, detail=detail) from None


def _money_currency(request: Request, currency: str) -> str:
    real = tuple(c for c in _front(request).settings.currencies if c != PLAY)
    return check_room_currency(currency, real)


async def _audit(request: Request, me: Player, action: str, req: CashierRequest) -> None:
    await _front(request).store.audit.record(
        me.id, me.name, action, f"cashier:{req.id}",
        after={"player": me.name, "currency": req.currency, "amount": req.amount, "state": req.state},
    )  # fmt: skip


@router.get("")
async def cashier(me: Me, request: Request) -> dict[str, Any]:
    """The player's cashier: his balance in every currency of the room and his loyalty points, what he has
    asked to withdraw and is not paid yet (``pending``, per currency), the currencies he may deposit or
    withdraw, what the payment method needs as a deposit's reference, and his 20 latest requests."""
    front = _front(request)
    store = front.store
    currencies = front.settings.currencies
    balances = {c: await store.ledger.balance(me.id, c) for c in (*currencies, POINTS)}
    pending: dict[str, int] = {}
    for c in currencies:
        if c != PLAY:
            pending[c] = await store.ledger.system_balance(AccountKind.WITHDRAWAL, c, ref=str(me.id))
    provider = provider_of(_front(request).settings)
    return {
        "currencies": [c for c in currencies if c != PLAY],
        "balances": balances,
        "pending": pending,
        "provider": {"name": provider.name, "reference": provider.reference_label},
        "requests": [r.to_dict() for r in await store.cashier.requests(player_id=me.id, limit=20)],
    }


@router.get("/requests")
async def my_requests(me: Me, request: Request, limit: int = 50) -> dict[str, Any]:
    """The player's deposit and withdrawal requests, newest first."""
    rows = await _front(request).store.cashier.requests(player_id=me.id, limit=max(1, min(limit, 200)))
    return {"requests": [r.to_dict() for r in rows]}


@router.post("/deposits", openapi_extra=body_schema(DepositIn))
async def deposit(me: Me, request: Request) -> dict[str, Any]:
    """Ask for a deposit: nothing is booked until the operator confirms that the money arrived and approves
    it (docs/cashier.md). ``422``: a field of the wrong type (``true``, ``"5"`` and ``5.0`` are not amounts);
    ``400 invalid_amount`` (not positive, too large), ``invalid_currency`` (not a currency of the room, or
    PLAY), ``invalid_cashier_request`` (a reference the payment method cannot use); ``409
    idempotency_conflict``: the ``request_id`` was used for another request."""
    body = await read_body(request, DepositIn)
    front = _front(request)
    with cashier_errors():
        currency = _money_currency(request, body.currency)
        provider_of(_front(request).settings).check_reference(body.reference)
        req = await front.store.cashier.request_deposit(
            me.id, currency, body.amount, reference=body.reference, request_id=body.request_id,
            method=provider_of(_front(request).settings).name,
        )  # fmt: skip
    if not req.replayed:
        await _audit(request, me, "cashier.deposit_request", req)
    return {"request": req.to_dict(), "replayed": req.replayed}


@router.post("/withdrawals", openapi_extra=body_schema(WithdrawalIn))
async def withdrawal(me: Me, request: Request) -> dict[str, Any]:
    """Ask for a withdrawal: the amount leaves the playable balance at once for a pending account, in one
    ledger transaction, until the operator pays it (approves) or declines it (back to the wallet). Errors
    as for deposits, and ``402 insufficient_funds`` (nothing is held then)."""
    body = await read_body(request, WithdrawalIn)
    front = _front(request)
    with cashier_errors():
        currency = _money_currency(request, body.currency)
        req = await front.store.cashier.request_withdrawal(
            me.id, currency, body.amount, request_id=body.request_id, destination=body.destination
        )
    if not req.replayed:
        await _audit(request, me, "cashier.withdrawal_request", req)
        await front.send_balance(player_key(me.id), currency)
    return {"request": req.to_dict(), "replayed": req.replayed}

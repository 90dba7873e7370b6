"""The console's Cashier page (issue 29): the players' deposit and withdrawal requests, pending first;
an administrator approves each (after the payment provider's check: the manual provider is the operator's
own word that the money arrived or was paid) or declines it with a reason. Every decision is a ledger
transaction (a declined deposit moves nothing) and an audit entry (docs/cashier.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from pokerroom.server.console.access import Admin, Staff, audited, fail, front, store
from pokerroom.server.http import body_schema, read_body
from pokerroom.server.http_cashier import cashier_errors
from pokerroom.server.ids import player_key
from pokerroom.server.payments import provider_of
from pokerroom.store import CashierRequest, Player

__all__ = ["router"]

router = APIRouter(prefix="/api/console/cashier", tags=["console"])


class ApproveIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    reason: Annotated[StrictStr, Field(max_length=500, examples=["arrived on the club's account"])] = ""


class DeclineIn(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    reason: Annotated[StrictStr, Field(min_length=3, max_length=500, examples=["no payment arrived"])]


async def _rows(request: Request, reqs: list[CashierRequest]) -> list[dict[str, Any]]:
    s = store(request)
    names: dict[int, str] = {}
    out = []
    for r in reqs:
        if r.player_id not in names:
            names[r.player_id] = (await s.accounts.get(r.player_id)).name
        out.append({**r.to_dict(), "player": names[r.player_id]})
    return out


@router.get("")
async def requests(
    me: Staff,
    request: Request,
    state: Literal["pending", "approved", "declined", "all"] = "pending",
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """Requests in one state (``all``: every one), newest first, with the player's name; the provider."""
    rows = await store(request).cashier.requests(state=None if state == "all" else state, limit=limit)
    return {"requests": await _rows(request, rows), "provider": provider_of(front(request).settings).name}


async def _decided(request: Request, me: Player, req: CashierRequest, action: str) -> dict[str, Any]:
    if not req.replayed:
        player = (await store(request).accounts.get(req.player_id)).name
        await audited(
            request, me, action, f"cashier:{req.id}",
            before={"state": "pending"},
            after={"player": player, "kind": req.kind, "currency": req.currency, "amount": req.amount,
                   "state": req.state},
            reason=req.reason or None,
        )  # fmt: skip
        await front(request).send_balance(player_key(req.player_id), req.currency)
    return {"request": (await _rows(request, [req]))[0], "replayed": req.replayed}


@router.post("/{no}/approve", openapi_extra=body_schema(ApproveIn))
async def approve(no: int, me: Admin, request: Request) -> dict[str, Any]:
    """Approve a pending request: a deposit's money arrived (cashier -> wallet), a withdrawal was paid
    (pending -> cashier). The provider is asked first; when it fails (``409 payment_failed``) the request
    stays pending and nothing is booked. Approving an approved request again changes nothing; a declined
    one is ``409 cashier_request_decided``."""
    body = await read_body(request, ApproveIn)
    s = store(request)
    provider = provider_of(front(request).settings)
    with cashier_errors():
        req = await s.cashier.get(no)
        if req.state == "pending":
            check = await (
                provider.confirm_deposit(req) if req.kind == "deposit" else provider.pay_withdrawal(req)
            )
            if not check.ok:
                raise fail(409, "payment_failed", check.note, provider=provider.name)
        done = await s.cashier.approve(no, operator_id=me.id, reason=body.reason)
    return await _decided(request, me, done, "cashier.approve")


@router.post("/{no}/decline", openapi_extra=body_schema(DeclineIn))
async def decline(no: int, me: Admin, request: Request) -> dict[str, Any]:
    """Decline a pending request with a reason: a declined withdrawal goes back to the player's wallet in
    one ledger transaction; a declined deposit moves nothing. An approved request is ``409
    cashier_request_decided``."""
    body = await read_body(request, DeclineIn)
    with cashier_errors():
        done = await store(request).cashier.decline(no, operator_id=me.id, reason=body.reason)
    return await _decided(request, me, done, "cashier.decline")

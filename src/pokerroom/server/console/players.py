"""The console's Players page: search, account detail, balances, ledger, hand histories, tickets; lock and
unlock, a forced password reset, roles, and balance or points adjustments with a reason."""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from pokerroom.server.console.access import Admin, Staff, audited, fail, front, store
from pokerroom.server.ids import player_key
from pokerroom.server.sessions import SessionSockets
from pokerroom.store import PLAY, POINTS, AccountDetail, Role, UnknownPlayer

__all__ = ["router"]

router = APIRouter(prefix="/api/console/players", tags=["console"])
Currency = Annotated[str, Field(pattern="^[A-Z]{3,5}$")]


class LockIn(BaseModel):
    reason: Annotated[str, Field(min_length=1, max_length=500)]


class AdjustIn(BaseModel):
    # No coercion: JSON true is not 1, "5" and 5.0 are not 5 (issue 34): a money amount is an integer.
    model_config = ConfigDict(strict=True)
    currency: Currency
    amount: StrictInt = Field(description="minor units (centipoints for PTS); negative debits")
    reason: Annotated[str, Field(min_length=3, max_length=500)]
    request_id: Annotated[str | None, Field(min_length=8, max_length=64, pattern="^[A-Za-z0-9_-]+$")] = None


class RoleIn(BaseModel):
    role: Literal["player", "admin", "support"]


async def _detail(request: Request, pid: int) -> AccountDetail:
    try:
        return await store(request).operator.detail(pid)
    except UnknownPlayer:
        raise fail(404, "unknown_player", "no such player", player=str(pid)) from None


async def _balances(request: Request, pid: int) -> dict[str, int]:
    """Every currency of the room (PLAY first), then any other the player holds chips in, then PTS."""
    s = store(request)
    room = front(request).settings.currencies
    seats = sorted({t.currency for t in await s.ledger.sessions(player_id=pid)} - set(room))
    return {c: await s.ledger.balance(pid, c) for c in (*room, *seats, POINTS)}


async def _end_sockets(request: Request) -> None:
    """End the sockets of sessions the store no longer has (a lock or a reset deleted them)."""
    sockets: SessionSockets = request.app.state.sessions
    await sockets.recheck_now()


@router.get("")
async def search(
    me: Staff, request: Request, q: Annotated[str, Query(max_length=20)] = "", limit: int = 50
) -> dict[str, Any]:
    """Accounts whose name contains ``q`` (those starting with it first)."""
    rows = await store(request).operator.search(q, limit=limit)
    return {"players": [r.to_dict() for r in rows]}


@router.get("/{pid}")
async def detail(pid: int, me: Staff, request: Request) -> dict[str, Any]:
    """An account: role, locks, balances, open seats, unused tickets, points."""
    d = await _detail(request, pid)
    s = store(request)
    seats = [
        {"table": t.table_id, "currency": t.currency, "chips": t.balance, "since": t.opened_at.isoformat()}
        for t in await s.ledger.sessions(player_id=pid)
    ]
    tickets = [
        {"target": t.target, "value": t.value, "satellite": t.satellite}
        for t in await s.tournaments.tickets(pid)
    ]
    return {
        "player": d.to_dict(),
        "balances": await _balances(request, pid),
        "seats": seats,
        "tickets": tickets,
    }


@router.get("/{pid}/ledger")
async def ledger(
    pid: int,
    me: Staff,
    request: Request,
    currency: Annotated[str, Query(pattern="^[A-Z]{3,5}$")] = PLAY,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The player's ledger entries in one currency (``PTS``: points), newest first."""
    await _detail(request, pid)
    entries = await store(request).ledger.history(pid, currency, limit=limit, offset=offset)
    return {"currency": currency, "entries": [e.to_dict() for e in entries]}


@router.get("/{pid}/hands")
async def hands(
    pid: int,
    me: Staff,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """The player's hand histories, newest first (each as the player saw it)."""
    await _detail(request, pid)
    rows = await store(request).histories.player_hands(pid, limit=limit, offset=offset)
    return {
        "hands": [
            {"hand_id": h.hand_id, "table": h.table_id, "game": h.game, "ended_at": h.ended_at.isoformat()}
            for h in rows
        ]
    }


@router.get("/{pid}/hands/{hand_id}.txt", response_class=PlainTextResponse)
async def hand_text(pid: int, hand_id: str, me: Staff, request: Request) -> PlainTextResponse:
    """One hand as the player saw it (his own hole cards and what was shown down: nobody else's)."""
    h = await store(request).histories.player_hand(pid, hand_id)
    return PlainTextResponse(h.pokerstars)


@router.post("/{pid}/lock")
async def lock(pid: int, body: LockIn, me: Staff, request: Request) -> dict[str, Any]:
    """Lock the account (administrators and support): its sessions end now, and no login passes, from any
    device, until an administrator unlocks it. Support locks players only; nobody locks himself."""
    before = await _detail(request, pid)
    if pid == me.id:
        raise fail(409, "own_account", "you cannot lock your own account")
    if before.player.is_staff and not me.is_admin:
        raise fail(403, "forbidden", "only an administrator locks an administrator or support account")
    await store(request).operator.lock(pid, body.reason)
    await _end_sockets(request)
    after = await _detail(request, pid)
    await audited(
        request, me, "player.lock", before.player.name, before={"locked_by": before.locked_by},
        after={"locked_by": after.locked_by}, reason=body.reason,
    )  # fmt: skip
    return {"player": after.to_dict()}


@router.post("/{pid}/unlock")
async def unlock(pid: int, me: Admin, request: Request) -> dict[str, Any]:
    """Lift the operator's lock and the failed-logins lock."""
    before = await _detail(request, pid)
    await store(request).operator.unlock(pid)
    request.app.state.login_guard.succeeded(before.player.name.lower())
    after = await _detail(request, pid)
    await audited(
        request, me, "player.unlock", before.player.name,
        before={"locked_by": before.locked_by, "locked_until": before.to_dict()["locked_until"]},
        after={"locked_by": after.locked_by, "locked_until": None},
    )  # fmt: skip
    return {"player": after.to_dict()}


@router.post("/{pid}/reset-password")
async def reset_password(pid: int, me: Admin, request: Request) -> dict[str, Any]:
    """Force a password reset: the password stops working and every session ends. The answer holds a
    one-time code (shown once, never stored in clear: not in the audit log either) that the player uses
    at ``POST /api/account/reset-password`` within three days."""
    before = await _detail(request, pid)
    code = await store(request).operator.force_reset(pid)
    await _end_sockets(request)
    await audited(
        request, me, "player.reset_password", before.player.name,
        before={"reset_pending": before.reset_pending}, after={"reset_pending": True},
    )  # fmt: skip
    return {"player": (await _detail(request, pid)).to_dict(), "code": code}


@router.post("/{pid}/role")
async def set_role(pid: int, body: RoleIn, me: Admin, request: Request) -> dict[str, Any]:
    """Make an account a player, an administrator or support. An administrator cannot take his own."""
    before = await _detail(request, pid)
    if pid == me.id and body.role != Role.ADMIN.value:
        raise fail(409, "own_role", "an administrator cannot take his own role away")
    await store(request).accounts.set_role(pid, Role(body.role))
    await audited(
        request, me, "player.role", before.player.name,
        before={"role": before.player.role.value}, after={"role": body.role},
    )  # fmt: skip
    return {"player": (await _detail(request, pid)).to_dict()}


@router.post("/{pid}/adjust")
async def adjust(pid: int, body: AdjustIn, me: Admin, request: Request) -> dict[str, Any]:
    """Correct a balance (``PTS``: points) by ``amount`` with a reason: one ledger transaction between the
    player's account and the house adjustments account, so the ledger still sums to zero. A debit below
    zero is refused (``402 insufficient_funds``) and books nothing. ``request_id`` makes a retry safe."""
    d = await _detail(request, pid)
    s = store(request)
    before = await s.ledger.balance(pid, body.currency)
    key = f"adjust:{body.request_id or secrets.token_urlsafe(12)}"
    tx = await s.operator.adjust(
        pid, body.currency, body.amount, admin_id=me.id, reason=body.reason, idempotency_key=key,
        currencies=front(request).settings.currencies,
    )  # fmt: skip
    after = await s.ledger.balance(pid, body.currency)
    if not tx.replayed:
        await audited(
            request, me, "player.adjust", d.player.name,
            before={"currency": body.currency, "balance": before},
            after={"currency": body.currency, "balance": after, "amount": body.amount, "transaction": tx.id},
            reason=body.reason,
        )  # fmt: skip
    await front(request).send_balance(player_key(pid), body.currency)
    return {"transaction": tx.id, "replayed": tx.replayed, "balance": after}

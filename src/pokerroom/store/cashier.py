"""The cashier (issue 29): players' deposit and withdrawal requests and the operator's decisions.

Every step that moves money is one ledger transaction, booked in the same database transaction as the
request's row (docs/cashier.md):

- a deposit request books nothing (no money has arrived); its approval moves the amount from the cashier
  account (the outside world) to the player's wallet; a declined deposit books nothing;
- a withdrawal request moves the amount from the wallet to the player's pending-withdrawal account at
  once (out of play); its approval pays it from there to the cashier account; its decline puts it back
  in the wallet.

A request is idempotent by the player's ``request_id``: the same id with the same content returns the
same request (``replayed``), with other content raises :class:`IdempotencyConflict`."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.booking import Change
from pokerroom.store.db import Database
from pokerroom.store.errors import (
    Forbidden,
    IdempotencyConflict,
    InvalidAmount,
    InvalidCurrency,
    StoreError,
    UnknownPlayer,
)
from pokerroom.store.kinds import PLAY, AccountKind, check_amount, check_currency
from pokerroom.store.ledger import Ledger
from pokerroom.store.models import CashierRequestRow, PlayerRow
from pokerroom.store.util import Clock, fingerprint, utc_now

__all__ = [
    "MAX_CASHIER_AMOUNT",
    "Cashier",
    "CashierRequest",
    "DepositGuard",
    "InvalidCashierRequest",
    "RequestDecided",
    "UnknownCashierRequest",
]

MAX_CASHIER_AMOUNT = 10**10  # minor units in one request (100,000,000.00): a typo's extra zeros stop here
_REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_TEXT_MAX = {"reference": 200, "method": 32, "reason": 500}

DepositGuard = Callable[[int, str, int], Awaitable[None]]


class UnknownCashierRequest(StoreError):
    code = "unknown_cashier_request"

    def __init__(self, request_no: object) -> None:
        super().__init__(f"no cashier request {request_no!r}")
        self.request_no = request_no


class RequestDecided(StoreError):
    """An approval of a declined request, or a decline of an approved one: a decision stands."""

    code = "cashier_request_decided"

    def __init__(self, request_no: int, state: str) -> None:
        super().__init__(f"cashier request {request_no} is {state} already")
        self.request_no = request_no
        self.state = state


class InvalidCashierRequest(StoreError):
    """A request id, reference, method or reason that breaks the rules (the message says which)."""

    code = "invalid_cashier_request"


@dataclass(frozen=True)
class CashierRequest:
    id: int
    player_id: int
    kind: str  # "deposit" | "withdrawal"
    currency: str
    amount: int
    state: str  # "pending" | "approved" | "declined"
    reference: str  # a deposit's payment reference; a withdrawal's destination
    request_id: str
    method: str
    created_at: datetime
    decided_at: datetime | None
    decided_by: int | None
    reason: str
    replayed: bool = False  # this call changed nothing: a retry of a request or of a decision

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "player_id": str(self.player_id),
            "kind": self.kind,
            "currency": self.currency,
            "amount": self.amount,
            "state": self.state,
            "reference": self.reference,
            "request_id": self.request_id,
            "method": self.method,
            "created_at": self.created_at.isoformat(),
            "decided_at": None if self.decided_at is None else self.decided_at.isoformat(),
            "decided_by": None if self.decided_by is None else str(self.decided_by),
            "reason": self.reason,
        }


def _request(row: Any, *, replayed: bool = False) -> CashierRequest:
    return CashierRequest(
        id=int(row.id),
        player_id=int(row.player_id),
        kind=row.kind,
        currency=row.currency,
        amount=int(row.amount),
        state=row.state,
        reference=row.reference,
        request_id=row.request_id,
        method=row.method,
        created_at=row.created_at,
        decided_at=row.decided_at,
        decided_by=None if row.decided_by is None else int(row.decided_by),
        reason=row.reason,
        replayed=replayed,
    )


def _text(value: object, what: str, *, required: bool = False) -> str:
    if not isinstance(value, str):
        raise InvalidCashierRequest(f"{what} must be a string")
    value = value.strip()
    if required and not value:
        raise InvalidCashierRequest(f"{what} is required")
    if len(value) > _TEXT_MAX[what] or not value.isprintable():
        raise InvalidCashierRequest(f"{what}: at most {_TEXT_MAX[what]} printable characters")
    return value


def _money(currency: object, amount: object) -> tuple[str, int]:
    code = check_currency(currency, cash=True)
    if code == PLAY:
        raise InvalidCurrency(code, "play money is not deposited or withdrawn")
    check_amount(amount)
    assert isinstance(amount, int)
    if amount > MAX_CASHIER_AMOUNT:
        raise InvalidAmount(f"amount is at most {MAX_CASHIER_AMOUNT} minor units")
    return code, amount


@dataclass(frozen=True)
class _Move:
    """Money from ``src`` to ``dst``; ``free``: the one of them without a floor (the cashier account)."""

    src: int
    dst: int
    free: int | None = None


class Cashier:
    """Deposit and withdrawal requests over the ledger. ``deposit_guard`` (responsible gaming) may refuse
    a deposit: it is called when one is asked for and again when it is approved."""

    def __init__(
        self,
        db: Database,
        ledger: Ledger,
        *,
        clock: Clock = utc_now,
        deposit_guard: DepositGuard | None = None,
    ) -> None:
        self.db = db
        self.ledger = ledger
        self.clock = clock
        self.deposit_guard = deposit_guard

    # -- players' requests ------------------------------------------------------------------------------

    async def request_deposit(
        self,
        player_id: int,
        currency: str,
        amount: int,
        *,
        reference: str,
        request_id: str,
        method: str = "manual",
    ) -> CashierRequest:
        """A player asks to deposit ``amount``; ``reference`` is what the payment method needs to match
        the money that arrives (a transfer's reference, a voucher number ...). Books nothing yet."""
        code, amount = _money(currency, amount)
        ref = _text(reference, "reference")
        how = _text(method, "method", required=True)
        content = {"kind": "deposit", "currency": code, "amount": amount, "reference": ref, "method": how}
        found = await self._existing(player_id, request_id, content)
        if found is not None:
            return found
        if self.deposit_guard is not None:
            await self.deposit_guard(player_id, code, amount)
        return await self._insert(player_id, request_id, content, hold=None)

    async def request_withdrawal(
        self, player_id: int, currency: str, amount: int, *, request_id: str, destination: str = ""
    ) -> CashierRequest:
        """A player asks to withdraw ``amount`` (to ``destination``, e.g. an IBAN): it leaves his wallet for
        his pending-withdrawal account at once, in one ledger transaction (InsufficientFunds: nothing)."""
        code, amount = _money(currency, amount)
        dest = _text(destination, "reference")
        content = {
            "kind": "withdrawal",
            "currency": code,
            "amount": amount,
            "reference": dest,
            "method": "manual",
        }
        found = await self._existing(player_id, request_id, content)
        if found is not None:
            return found
        wallet = await self.ledger.account(AccountKind.WALLET, code, owner_id=player_id)
        hold = await self.ledger.account(AccountKind.WITHDRAWAL, code, ref=str(player_id))
        return await self._insert(player_id, request_id, content, hold=(wallet, hold))

    async def _existing(
        self, player_id: int, request_id: object, content: dict[str, Any]
    ) -> CashierRequest | None:
        if not isinstance(request_id, str) or not _REQUEST_ID.match(request_id):
            raise InvalidCashierRequest("a request id is 8-64 letters, digits, '_' or '-'")
        async with self.db.read() as conn:
            return await self._lookup(conn, player_id, request_id, fingerprint(content))

    async def _lookup(
        self, conn: AsyncConnection, player_id: int, request_id: str, fp: str
    ) -> CashierRequest | None:
        row = (
            await conn.execute(
                select(CashierRequestRow).where(
                    CashierRequestRow.player_id == player_id, CashierRequestRow.request_id == request_id
                )
            )
        ).one_or_none()
        if row is None:
            return None
        if row.fingerprint != fp:
            raise IdempotencyConflict(f"cashier:{request_id}")
        return _request(row, replayed=True)

    async def _insert(
        self, player_id: int, request_id: str, content: dict[str, Any], *, hold: tuple[int, int] | None
    ) -> CashierRequest:
        fp = fingerprint(content)
        now = self.clock()
        values = {
            "player_id": player_id,
            "request_id": request_id,
            "fingerprint": fp,
            "state": "pending",
            "created_at": now,
            "reason": "",
            "hold_account_id": hold[1] if hold else None,
            **content,
        }
        try:
            async with self.db.write() as conn:
                found = await self._lookup(conn, player_id, request_id, fp)  # a concurrent twin
                if found is not None:
                    return found
                exists = (
                    await conn.execute(select(PlayerRow.id).where(PlayerRow.id == player_id))
                ).scalar_one_or_none()
                if exists is None:
                    raise UnknownPlayer(player_id)
                new_id = (
                    await conn.execute(
                        insert(CashierRequestRow).values(**values).returning(CashierRequestRow.id)
                    )
                ).scalar_one()
                if hold is not None:
                    move = _Move(hold[0], hold[1])
                    tx = await self._move(conn, new_id, "hold", content["currency"], content["amount"], move)
                    await conn.execute(
                        update(CashierRequestRow).where(CashierRequestRow.id == new_id).values(tx_id=tx)
                    )
                row = (
                    await conn.execute(select(CashierRequestRow).where(CashierRequestRow.id == new_id))
                ).one()
                return _request(row)
        except IntegrityError:  # the same request id inserted meanwhile by another process
            async with self.db.read() as conn:
                found = await self._lookup(conn, player_id, request_id, fp)
            if found is None:
                raise
            return found

    async def _move(
        self, conn: AsyncConnection, request_no: int, step: str, currency: str, amount: int, move: _Move
    ) -> int:
        """One ledger transaction ``src -> dst`` for step ``step`` of a request (key ``cashier:<no>:<step>``);
        the floored accounts (wallet, pending withdrawals) may not go below zero."""
        changes = [
            Change(a, d, currency) for a, d in ((move.src, -amount), (move.dst, amount)) if a != move.free
        ]
        tx = await self.ledger.book_in(
            conn,
            f"cashier:{request_no}:{step}",
            f"cashier_{step}",
            {"op": "cashier", "request": request_no, "step": step, "currency": currency, "amount": amount},
            [(move.src, currency, -amount), (move.dst, currency, amount)],
            changes,
            memo={"request": request_no, "step": step},
        )
        return tx.id

    async def _cashier_id(self, currency: str) -> int:
        return await self.ledger.account(AccountKind.CASHIER, currency)

    # -- the operator's decisions -----------------------------------------------------------------------

    async def approve(self, request_no: int, *, operator_id: int, reason: str = "") -> CashierRequest:
        """The money arrived (a deposit: cashier -> wallet) or was paid out (a withdrawal: pending ->
        cashier). Approving an approved request again changes nothing (``replayed``)."""
        why = _text(reason, "reason")
        req = await self._pending(request_no, operator_id, "approved")
        if req.state != "pending":
            return req
        if req.kind == "deposit" and self.deposit_guard is not None:
            await self.deposit_guard(req.player_id, req.currency, req.amount)
        cashier = await self._cashier_id(req.currency)
        if req.kind == "deposit":
            wallet = await self.ledger.account(AccountKind.WALLET, req.currency, owner_id=req.player_id)
            move = _Move(cashier, wallet, free=cashier)
        else:
            move = _Move(await self._hold(req), cashier, free=cashier)
        return await self._decide(req, "approved", operator_id, why, move)

    async def decline(self, request_no: int, *, operator_id: int, reason: str) -> CashierRequest:
        """Refuse a request with a reason; a declined withdrawal goes back to the wallet."""
        why = _text(reason, "reason", required=True)
        req = await self._pending(request_no, operator_id, "declined")
        if req.state != "pending":
            return req
        move: _Move | None = None
        if req.kind == "withdrawal":
            wallet = await self.ledger.account(AccountKind.WALLET, req.currency, owner_id=req.player_id)
            move = _Move(await self._hold(req), wallet)
        return await self._decide(req, "declined", operator_id, why, move)

    async def _hold(self, req: CashierRequest) -> int:
        return await self.ledger.account(AccountKind.WITHDRAWAL, req.currency, ref=str(req.player_id))

    async def _pending(self, request_no: object, operator_id: int, wanted: str) -> CashierRequest:
        """The request, checked to be still pending (or already in the ``wanted`` state: a retry)."""
        if isinstance(request_no, bool) or not isinstance(request_no, int):
            raise UnknownCashierRequest(request_no)
        async with self.db.read() as conn:
            role = (
                await conn.execute(select(PlayerRow.role).where(PlayerRow.id == operator_id))
            ).scalar_one_or_none()
        if role != "admin":
            raise Forbidden("only an admin decides cashier requests")
        req = await self.get(request_no)
        if req.state == wanted:
            return _replayed(req)
        if req.state != "pending":
            raise RequestDecided(req.id, req.state)
        return req

    async def _decide(
        self, req: CashierRequest, state: str, operator_id: int, reason: str, move: _Move | None
    ) -> CashierRequest:
        now = self.clock()
        async with self.db.write() as conn:
            changed = (
                await conn.execute(
                    update(CashierRequestRow)
                    .where(CashierRequestRow.id == req.id, CashierRequestRow.state == "pending")
                    .values(state=state, decided_at=now, decided_by=operator_id, reason=reason)
                )
            ).rowcount
            if changed:
                if move is not None:
                    step = "approve" if state == "approved" else "decline"
                    tx = await self._move(conn, req.id, step, req.currency, req.amount, move)
                    await conn.execute(
                        update(CashierRequestRow)
                        .where(CashierRequestRow.id == req.id)
                        .values(decision_tx_id=tx)
                    )
                row = (
                    await conn.execute(select(CashierRequestRow).where(CashierRequestRow.id == req.id))
                ).one()
                return _request(row)
        again = await self.get(req.id)  # decided meanwhile (another operator, another process)
        if again.state != state:
            raise RequestDecided(again.id, again.state)
        return _replayed(again)

    # -- reading ----------------------------------------------------------------------------------------

    async def get(self, request_no: int) -> CashierRequest:
        async with self.db.read() as conn:
            row = (
                await conn.execute(select(CashierRequestRow).where(CashierRequestRow.id == request_no))
            ).one_or_none()
        if row is None:
            raise UnknownCashierRequest(request_no)
        return _request(row)

    async def requests(
        self, *, player_id: int | None = None, state: str | None = None, limit: int = 100
    ) -> list[CashierRequest]:
        """Requests, newest first, by player and/or state."""
        q = (
            select(CashierRequestRow)
            .order_by(CashierRequestRow.id.desc())
            .limit(max(1, min(int(limit), 500)))
        )
        if player_id is not None:
            q = q.where(CashierRequestRow.player_id == player_id)
        if state is not None:
            q = q.where(CashierRequestRow.state == state)
        async with self.db.read() as conn:
            return [_request(r) for r in (await conn.execute(q)).all()]


def _replayed(req: CashierRequest) -> CashierRequest:
    return CashierRequest(**{**req.__dict__, "replayed": True})

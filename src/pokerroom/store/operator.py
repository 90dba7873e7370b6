"""What the console does to accounts: search, detail, roles, an operator's lock, a forced password reset,
and balance or points adjustments booked against the house adjustments account (so the ledger still sums
to zero in every currency)."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update

from pokerroom.store.accounts import NO_PASSWORD, Accounts, Kind, Player, _role, check_name, name_key
from pokerroom.store.currencies import check_room_currency
from pokerroom.store.db import Database
from pokerroom.store.errors import BadCredentials, InvalidAmount, UnknownPlayer
from pokerroom.store.kinds import POINTS, AccountKind, Transaction, check_currency, check_key
from pokerroom.store.ledger import Ledger
from pokerroom.store.models import AuthSessionRow, PlayerRow
from pokerroom.store.util import Clock, hash_token, utc_now

__all__ = ["AccountDetail", "Operator"]

RESET_VALID = timedelta(days=3)  # a reset code handed to a player works this long
MAX_ADJUSTMENT = 10**12  # minor units: a bound on one correction (a typo's extra zeros stop here)


@dataclass(frozen=True)
class AccountDetail:
    player: Player
    locked_by: str | None  # the operator's lock (its reason)
    locked_until: datetime | None  # the failed-logins lock
    reset_pending: bool
    bot: bool  # one of the room's own accounts (no password)

    def to_dict(self) -> dict[str, Any]:
        p = self.player
        return {
            "id": str(p.id),
            "name": p.name,
            "role": p.role.value,
            "created_at": p.created_at.isoformat(),
            "locked_by": self.locked_by,
            "locked_until": None if self.locked_until is None else self.locked_until.isoformat(),
            "reset_pending": self.reset_pending,
            "bot": self.bot,
        }


def _detail(r: Any) -> AccountDetail:
    player = Player(id=r.id, name=r.name, role=_role(r.role, r.staff), created_at=r.created_at)
    # A bot is a service account (players.kind), not an account with no password: a forced reset leaves
    # a player's account with none until he sets a new one (issue 29).
    bot = r.kind == Kind.SERVICE.value
    return AccountDetail(player, r.locked_by, r.locked_until, r.reset_hash is not None, bot)


_DETAIL = (
    PlayerRow.id,
    PlayerRow.name,
    PlayerRow.role,
    PlayerRow.staff,
    PlayerRow.created_at,
    PlayerRow.locked_by,
    PlayerRow.locked_until,
    PlayerRow.reset_hash,
    PlayerRow.password_hash,
    PlayerRow.kind,
)


class Operator:
    def __init__(self, db: Database, accounts: Accounts, ledger: Ledger, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.accounts = accounts
        self.ledger = ledger
        self.clock = clock

    async def search(self, text: str, *, limit: int = 50) -> list[AccountDetail]:
        """Accounts whose name contains ``text`` (case-insensitive), those starting with it first."""
        key = name_key(text.strip())[:20]
        q = select(*_DETAIL).order_by(PlayerRow.name_key).limit(max(1, min(limit, 200)))
        if key:
            q = q.where(PlayerRow.name_key.contains(key, autoescape=True))
        async with self.db.read() as conn:
            rows = [_detail(r) for r in (await conn.execute(q)).all()]
        return sorted(
            rows, key=lambda d: (not name_key(d.player.name).startswith(key), d.player.name.lower())
        )

    async def detail(self, player_id: int) -> AccountDetail:
        async with self.db.read() as conn:
            row = (await conn.execute(select(*_DETAIL).where(PlayerRow.id == player_id))).one_or_none()
        if row is None:
            raise UnknownPlayer(player_id)
        return _detail(row)

    async def _set(self, player_id: int, **values: Any) -> None:
        async with self.db.write() as conn:
            n = (
                await conn.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(**values))
            ).rowcount
            if not n:
                raise UnknownPlayer(player_id)
            if values.get("locked_by") is not None or values.get("reset_hash") is not None:
                await conn.execute(delete(AuthSessionRow).where(AuthSessionRow.player_id == player_id))

    async def lock(self, player_id: int, reason: str) -> None:
        """An operator's lock: every session of the account ends and no login passes (from any device)
        until :meth:`unlock`."""
        await self._set(player_id, locked_by=reason or "locked by the operator")

    async def unlock(self, player_id: int) -> None:
        """Lift the operator's lock and the failed-logins lock."""
        await self._set(player_id, locked_by=None, locked_until=None, failed_logins=0)

    async def force_reset(self, player_id: int) -> str:
        """The password stops working and every session ends; returns a one-time code (shown once, to the
        operator, who hands it to the player) with which the player sets a new password
        (:meth:`reset_password`) within ``RESET_VALID``."""
        code = secrets.token_urlsafe(18)
        await self._set(
            player_id,
            password_hash=NO_PASSWORD,
            reset_hash=hash_token(code),
            reset_until=self.clock() + RESET_VALID,
        )
        return code

    async def reset_password(self, name: str, code: str, password: str) -> Player:
        """A player's new password with the code of a forced reset. Raises BadCredentials (no such name,
        no reset pending, a wrong or expired code: not told apart) or WeakPassword."""
        try:
            check_name(name)
        except Exception:
            raise BadCredentials() from None
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(PlayerRow.id, PlayerRow.reset_hash, PlayerRow.reset_until).where(
                        PlayerRow.name_key == name_key(name)
                    )
                )
            ).one_or_none()
        if (
            row is None
            or row.reset_hash is None
            or not isinstance(code, str)
            or not secrets.compare_digest(row.reset_hash, hash_token(code))
            or row.reset_until is None
            or row.reset_until <= self.clock()
        ):
            raise BadCredentials()
        await self.accounts.set_password(row.id, password)
        await self._set(row.id, reset_hash=None, reset_until=None, failed_logins=0, locked_until=None)
        return await self.accounts.get(row.id)

    async def adjust(
        self,
        player_id: int,
        currency: str,
        amount: int,
        *,
        admin_id: int,
        reason: str,
        idempotency_key: str,
        now: datetime | None = None,
        currencies: Collection[str] | None = None,
    ) -> Transaction:
        """Correct a balance (``PTS``: loyalty points) by ``amount`` (positive credits, negative debits):
        one transaction between the player's wallet (or points account) and the house adjustments account
        of that currency. A debit below zero raises InsufficientFunds and books nothing. ``currencies``:
        the room's (PLAY first); a currency not among them (or PTS) raises InvalidCurrency."""
        check_currency(currency)
        if currencies is not None and currency != POINTS:
            check_room_currency(currency, currencies)
        check_key(idempotency_key)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise InvalidAmount("an adjustment is a non-zero int in minor units")
        if abs(amount) > MAX_ADJUSTMENT:
            raise InvalidAmount(f"an adjustment is at most {MAX_ADJUSTMENT} in absolute value")
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidAmount("an adjustment needs a reason")
        await self.accounts.get(player_id)
        kind = AccountKind.POINTS if currency == POINTS else AccountKind.WALLET
        account = await self.ledger.account(kind, currency, owner_id=player_id)
        house = await self.ledger.account(AccountKind.ADJUSTMENTS, currency)
        memo = {"reason": reason.strip(), "admin": admin_id, "player": player_id}
        return await self.ledger.post(
            "adjustment",
            [(house, -amount), (account, amount)],
            idempotency_key=idempotency_key,
            memo=memo,
            now=now,
        )

    async def count_locked(self) -> int:
        async with self.db.read() as conn:
            q = select(func.count()).select_from(PlayerRow).where(PlayerRow.locked_by.is_not(None))
            return int((await conn.execute(q)).scalar_one())

"""The double-entry ledger: every transaction is a set of postings summing to zero per currency, booked
once per idempotency key, with balances that never go below zero where a floor applies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store import booking
from pokerroom.store.booking import Change
from pokerroom.store.db import Database
from pokerroom.store.errors import (
    AlreadySeated,
    Forbidden,
    IdempotencyConflict,
    InvalidAmount,
    InvalidCurrency,
    SessionClosed,
    SessionInHand,
    TopUpRefused,
    UnbalancedTransaction,
    UnknownAccount,
    UnknownPlayer,
    UnknownSession,
)
from pokerroom.store.kinds import (
    PLAY,
    POINTS,
    Account,
    AccountKind,
    BuyIn,
    Posting,
    SeatSession,
    Transaction,
    check_amount,
    check_currency,
    check_key,
)
from pokerroom.store.models import AccountRow, HandRow, HandSeatRow, PlayerRow, PostingRow, TransactionRow
from pokerroom.store.util import Clock, canonical_json, fingerprint, utc_now


@dataclass(frozen=True)
class LedgerEntry:
    """One transaction as it touched a player's account: the amount and the balance after it."""

    transaction_id: int
    kind: str
    created_at: datetime
    amount: int
    balance: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.transaction_id,
            "kind": self.kind,
            "at": self.created_at.isoformat(),
            "amount": self.amount,
            "balance": self.balance,
        }


@dataclass(frozen=True)
class PlayMoneyPolicy:
    """A play-money top-up is allowed while the PLAY wallet holds less than ``threshold``; it refills the
    wallet to ``refill_to``."""

    threshold: int = 100_000
    refill_to: int = 1_000_000


def account_key(kind: AccountKind, currency: str, owner_id: int | None = None, ref: str | None = None) -> str:
    """The unique key of a singleton account (seat sessions have none of these: there is one per buy-in;
    a cash table's open seat holds ``seat:<table>:<player>`` instead, see :meth:`Ledger.buy_in`)."""
    if kind is AccountKind.SEAT:
        raise ValueError("seat sessions have no key")
    if kind is AccountKind.POINTS:
        return f"points/{owner_id}"
    if kind is AccountKind.WALLET:
        return f"wallet/{owner_id}/{currency}"
    if kind is AccountKind.PRIZE_POOL:
        return f"prize_pool/{ref}/{currency}"
    return f"{kind.value}/{currency}" if ref is None else f"{kind.value}/{ref}/{currency}"


class Ledger:
    """Money operations. All amounts are ints in minor units (cents; centipoints for ``PTS``).

    Every operation takes an idempotency key (settlements use the hand id): a retry with the same key and
    the same content returns the original :class:`Transaction` (``replayed=True``); the same key with other
    content raises :class:`IdempotencyConflict`. A failed operation books nothing."""

    def __init__(
        self, db: Database, *, clock: Clock = utc_now, play_money: PlayMoneyPolicy | None = None
    ) -> None:
        self.db = db
        self.clock = clock
        self.play_money = play_money or PlayMoneyPolicy()
        self._ids: dict[str, int] = {}
        self._insert_ignore = postgresql.insert if db.dialect == "postgresql" else sqlite.insert

    # -- accounts ----------------------------------------------------------------------------------------

    async def account(
        self, kind: AccountKind, currency: str, *, owner_id: int | None = None, ref: str | None = None
    ) -> int:
        """The id of the (singleton) account of this kind, created on first use. Not for seat sessions."""
        kind = AccountKind(kind)
        check_currency(currency)
        if kind is AccountKind.POINTS and currency != POINTS:
            raise InvalidCurrency(currency, "a points account holds PTS")
        if (kind in (AccountKind.WALLET, AccountKind.POINTS)) != (owner_id is not None):
            raise ValueError(f"a {kind.value} account needs an owner, and only it")
        if kind is AccountKind.PRIZE_POOL and not ref:
            raise ValueError("a prize pool needs a ref (the tournament id)")
        key = account_key(kind, currency, owner_id, ref)
        found = self._ids.get(key)
        if found is not None:
            return found
        async with self.db.read() as conn:
            found = (
                await conn.execute(select(AccountRow.id).where(AccountRow.key == key))
            ).scalar_one_or_none()
        if found is None:
            try:
                async with self.db.write() as conn:
                    await conn.execute(
                        self._insert_ignore(AccountRow)
                        .values(
                            kind=kind.value,
                            currency=currency,
                            owner_id=owner_id,
                            ref=ref,
                            key=key,
                            balance=None if kind.may_go_negative else 0,
                            opened_at=self.clock(),
                        )
                        .on_conflict_do_nothing(index_elements=["key"])
                    )
                    found = (
                        await conn.execute(select(AccountRow.id).where(AccountRow.key == key))
                    ).scalar_one()
            except IntegrityError:
                raise UnknownPlayer(owner_id) from None
        # Cached only once committed: ids of committed accounts never change.
        self._ids[key] = found
        return found

    async def get_account(self, account_id: int) -> Account:
        async with self.db.read() as conn:
            row = (await conn.execute(select(AccountRow).where(AccountRow.id == account_id))).one_or_none()
            if row is None:
                raise UnknownAccount(account_id)
            balance = row.balance
            if balance is None:
                balance = await _posted_sum(conn, account_id)
        return Account(
            id=row.id,
            kind=AccountKind(row.kind),
            currency=row.currency,
            owner_id=row.owner_id,
            ref=row.ref,
            balance=int(balance),
            opened_at=row.opened_at,
            closed_at=row.closed_at,
        )

    async def balance(self, player_id: int, currency: str) -> int:
        """A player's wallet balance (loyalty points for ``PTS``); 0 if he never had that currency."""
        check_currency(currency)
        kind = AccountKind.POINTS if currency == POINTS else AccountKind.WALLET
        key = account_key(kind, currency, player_id)
        async with self.db.read() as conn:
            value = (
                await conn.execute(select(AccountRow.balance).where(AccountRow.key == key))
            ).scalar_one_or_none()
        return int(value or 0)

    async def history(
        self, player_id: int, currency: str, *, limit: int = 50, offset: int = 0
    ) -> list[LedgerEntry]:
        """The player's wallet (or points, for ``PTS``) entries, newest first, with the balance after each."""
        check_currency(currency)
        kind = AccountKind.POINTS if currency == POINTS else AccountKind.WALLET
        key = account_key(kind, currency, player_id)
        limit = max(1, min(int(limit), 500))
        offset = max(0, int(offset))
        async with self.db.read() as conn:
            account_id = (
                await conn.execute(select(AccountRow.id).where(AccountRow.key == key))
            ).scalar_one_or_none()
            if account_id is None:
                return []
            rows = (
                await conn.execute(
                    select(
                        TransactionRow.id,
                        TransactionRow.kind,
                        TransactionRow.created_at,
                        func.sum(PostingRow.amount).label("amount"),
                    )
                    .join(PostingRow, PostingRow.tx_id == TransactionRow.id)
                    .where(PostingRow.account_id == account_id)
                    .group_by(TransactionRow.id, TransactionRow.kind, TransactionRow.created_at)
                    .order_by(TransactionRow.id.desc())
                    .limit(limit)
                    .offset(offset)
                )
            ).all()
            if not rows:
                return []
            newest = rows[0].id
            after = (
                await conn.execute(
                    select(func.coalesce(func.sum(PostingRow.amount), 0)).where(
                        PostingRow.account_id == account_id, PostingRow.tx_id <= newest
                    )
                )
            ).scalar_one()
        out = []
        balance = int(after)
        for r in rows:
            out.append(LedgerEntry(int(r.id), str(r.kind), r.created_at, int(r.amount), balance))
            balance -= int(r.amount)
        return out

    async def system_balance(self, kind: AccountKind, currency: str, *, ref: str | None = None) -> int:
        """Balance of a system account (house, cashier, ...) computed from its postings; 0 if unused."""
        key = account_key(AccountKind(kind), currency, None, ref)
        async with self.db.read() as conn:
            row = (
                await conn.execute(select(AccountRow.id, AccountRow.balance).where(AccountRow.key == key))
            ).one_or_none()
            if row is None:
                return 0
            return int(row.balance) if row.balance is not None else await _posted_sum(conn, row.id)

    async def session(self, session_id: int) -> SeatSession:
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(AccountRow).where(
                        AccountRow.id == session_id, AccountRow.kind == AccountKind.SEAT.value
                    )
                )
            ).one_or_none()
        if row is None:
            raise UnknownSession(session_id)
        return _session(row)

    async def sessions(
        self, *, player_id: int | None = None, table_id: str | None = None, open_only: bool = True
    ) -> list[SeatSession]:
        """Seat sessions, oldest first, filtered by player and/or table."""
        q = select(AccountRow).where(AccountRow.kind == AccountKind.SEAT.value).order_by(AccountRow.id)
        if player_id is not None:
            q = q.where(AccountRow.owner_id == player_id)
        if table_id is not None:
            q = q.where(AccountRow.ref == table_id)
        if open_only:
            q = q.where(AccountRow.closed_at.is_(None))
        async with self.db.read() as conn:
            return [_session(r) for r in (await conn.execute(q)).all()]

    async def transaction(self, key: str) -> Transaction | None:
        """The transaction booked under an idempotency key (a settlement's key is ``hand:<hand id>``)."""
        async with self.db.read() as conn:
            return await _load_tx(conn, key, replayed=False)

    # -- operations -------------------------------------------------------------------------------------

    async def deposit(
        self,
        player_id: int,
        currency: str,
        amount: int,
        *,
        admin_id: int,
        idempotency_key: str,
        now: datetime | None = None,
    ) -> Transaction:
        """An admin credits a wallet: real money from the cashier, ``PLAY`` from the play-money bank."""
        check_currency(currency, cash=True)
        check_amount(amount)
        check_key(idempotency_key)
        await self._require_admin(admin_id)
        source_kind = AccountKind.BANK if currency == PLAY else AccountKind.CASHIER
        source = await self.account(source_kind, currency)
        wallet = await self.account(AccountKind.WALLET, currency, owner_id=player_id)
        request = {
            "op": "deposit",
            "player": player_id,
            "currency": currency,
            "amount": amount,
            "admin": admin_id,
        }
        async with self.db.write() as conn:
            return await self._book(
                conn,
                idempotency_key,
                "deposit",
                request,
                [(source, currency, -amount), (wallet, currency, amount)],
                [Change(wallet, amount, currency)],
                now,
            )

    async def withdraw(
        self,
        player_id: int,
        currency: str,
        amount: int,
        *,
        admin_id: int,
        idempotency_key: str,
        now: datetime | None = None,
    ) -> Transaction:
        """An admin pays real money out of a wallet to the cashier (not for ``PLAY`` or ``PTS``)."""
        check_currency(currency, cash=True)
        if currency == PLAY:
            raise InvalidCurrency(currency, "play money cannot be withdrawn")
        check_amount(amount)
        check_key(idempotency_key)
        await self._require_admin(admin_id)
        cashier = await self.account(AccountKind.CASHIER, currency)
        wallet = await self.account(AccountKind.WALLET, currency, owner_id=player_id)
        request = {
            "op": "withdraw",
            "player": player_id,
            "currency": currency,
            "amount": amount,
            "admin": admin_id,
        }
        async with self.db.write() as conn:
            return await self._book(
                conn,
                idempotency_key,
                "withdraw",
                request,
                [(wallet, currency, -amount), (cashier, currency, amount)],
                [Change(wallet, -amount, currency)],
                now,
            )

    async def play_money_top_up(
        self, player_id: int, *, idempotency_key: str, now: datetime | None = None
    ) -> Transaction:
        """Refill a player's ``PLAY`` wallet to ``refill_to`` from the play-money bank, only while it holds
        less than ``threshold``; otherwise :class:`TopUpRefused`."""
        check_key(idempotency_key)
        bank = await self.account(AccountKind.BANK, PLAY)
        wallet = await self.account(AccountKind.WALLET, PLAY, owner_id=player_id)
        policy = self.play_money
        now = now or self.clock()
        async with self.db.write() as conn:
            claimed = await self._claim(
                conn, idempotency_key, "play_top_up", {"op": "play_top_up", "player": player_id}, None, now
            )
            if isinstance(claimed, Transaction):
                return claimed
            q = select(AccountRow.balance).where(AccountRow.id == wallet)
            if not self.db.is_sqlite:
                q = q.with_for_update(key_share=True)
            balance = int((await conn.execute(q)).scalar_one() or 0)
            if balance >= policy.threshold:
                raise TopUpRefused(f"play-money top-up only below {policy.threshold} (balance {balance})")
            amount = policy.refill_to - balance
            return await self._finish(
                conn,
                claimed,
                idempotency_key,
                "play_top_up",
                [(bank, PLAY, -amount), (wallet, PLAY, amount)],
                [Change(wallet, amount, PLAY)],
                now,
            )

    async def buy_in(
        self,
        player_id: int,
        table_id: str,
        currency: str,
        amount: int,
        *,
        idempotency_key: str,
        now: datetime | None = None,
        exclusive: bool = False,
    ) -> BuyIn:
        """Move ``amount`` from the wallet to a new seat-session account at ``table_id``. Refused with
        :class:`InsufficientFunds` (nothing booked) beyond the wallet balance. ``exclusive`` (a cash
        table's seat): the session holds the unique key ``seat:<table>:<player>`` until it is cashed out,
        so the database itself refuses a second open seat of the player at the table
        (:class:`AlreadySeated`), whichever process asks; a Rush pool's entries are not exclusive."""
        check_currency(currency, cash=True)
        check_amount(amount)
        check_key(idempotency_key)
        if not isinstance(table_id, str) or not 1 <= len(table_id) <= 64:
            raise InvalidAmount("a table id is a string of 1-64 characters")
        wallet = await self.account(AccountKind.WALLET, currency, owner_id=player_id)
        request = {
            "op": "buy_in",
            "player": player_id,
            "table": table_id,
            "currency": currency,
            "amount": amount,
        }
        now = now or self.clock()
        async with self.db.write() as conn:
            claimed = await self._claim(conn, idempotency_key, "buy_in", request, {"table": table_id}, now)
            if isinstance(claimed, Transaction):
                return BuyIn(_seat_of(claimed, wallet), claimed)
            if exclusive:
                taken = await conn.execute(
                    select(AccountRow.id).where(AccountRow.key == _seat_key(table_id, player_id))
                )
                if taken.first() is not None:
                    raise AlreadySeated(player_id, table_id)
            try:
                seat = (
                    await conn.execute(
                        insert(AccountRow)
                        .values(
                            kind=AccountKind.SEAT.value,
                            currency=currency,
                            owner_id=player_id,
                            ref=table_id,
                            key=_seat_key(table_id, player_id) if exclusive else None,
                            balance=0,
                            opened_at=now,
                        )
                        .returning(AccountRow.id)
                    )
                ).scalar_one()
            except IntegrityError:  # (another process seated the player in between)
                raise AlreadySeated(player_id, table_id) from None
            tx = await self._finish(
                conn,
                claimed,
                idempotency_key,
                "buy_in",
                [(wallet, currency, -amount), (seat, currency, amount)],
                [Change(wallet, -amount, currency), Change(seat, amount, currency)],
                now,
            )
        return BuyIn(seat, tx)

    async def top_up(
        self, session_id: int, amount: int, *, idempotency_key: str, now: datetime | None = None
    ) -> Transaction:
        """Add chips from the wallet to an open seat session (between hands only)."""
        check_amount(amount)
        check_key(idempotency_key)
        sess = await self.session(session_id)
        wallet = await self.account(AccountKind.WALLET, sess.currency, owner_id=sess.player_id)
        request = {"op": "top_up", "session": session_id, "amount": amount}
        now = now or self.clock()
        async with self.db.write() as conn:
            claimed = await self._claim(conn, idempotency_key, "top_up", request, None, now)
            if isinstance(claimed, Transaction):
                return claimed
            if not self.db.is_sqlite:  # lock the seat first: no hand may start on it meanwhile
                await conn.execute(
                    select(AccountRow.id).where(AccountRow.id == session_id).with_for_update(key_share=True)
                )
            await _not_in_hand(conn, session_id)
            return await self._finish(
                conn,
                claimed,
                idempotency_key,
                "top_up",
                [(wallet, sess.currency, -amount), (session_id, sess.currency, amount)],
                [
                    Change(wallet, -amount, sess.currency),
                    Change(session_id, amount, sess.currency, AccountKind.SEAT, must_be_open=True),
                ],
                now,
            )

    async def cash_out(
        self, session_id: int, *, idempotency_key: str, now: datetime | None = None
    ) -> Transaction:
        """Move a seat session's whole balance back to the wallet and close the session (between hands)."""
        check_key(idempotency_key)
        sess = await self.session(session_id)
        wallet = await self.account(AccountKind.WALLET, sess.currency, owner_id=sess.player_id)
        now = now or self.clock()
        async with self.db.write() as conn:
            claimed = await self._claim(
                conn, idempotency_key, "cash_out", {"op": "cash_out", "session": session_id}, None, now
            )
            if isinstance(claimed, Transaction):
                return claimed
            # Close first (this locks the seat, so no hand can start on it meanwhile), then check.
            row = (
                await conn.execute(
                    update(AccountRow)
                    .where(AccountRow.id == session_id, AccountRow.closed_at.is_(None))
                    .values(closed_at=now, key=None)  # (the seat's unique key is free again)
                    .returning(AccountRow.balance)
                )
            ).one_or_none()
            if row is None:
                raise SessionClosed(session_id)
            await _not_in_hand(conn, session_id)
            amount = int(row.balance)
            postings = (
                [(session_id, sess.currency, -amount), (wallet, sess.currency, amount)] if amount else []
            )
            changes = [Change(session_id, -amount, sess.currency), Change(wallet, amount, sess.currency)]
            return await self._finish(
                conn, claimed, idempotency_key, "cash_out", postings, changes if amount else [], now
            )

    async def settle_hand(
        self,
        hand_id: str,
        currency: str,
        deltas: Mapping[int, int],
        rake: int,
        points: Mapping[int, int],
        *,
        now: datetime | None = None,
    ) -> Transaction:
        """Book a hand's result in one transaction (idempotency key ``hand:<hand_id>``).

        ``deltas`` maps seat-session ids to their net chip change; ``deltas`` plus ``rake`` sum to zero; the
        rake goes to the house account of ``currency``; ``points`` (player id -> centipoints) are issued
        from the points-issuer account."""
        prepared = await self.prepare_settlement(hand_id, currency, deltas, rake, points)
        if not self.db.is_sqlite:
            # The hot path: one call of pokerroom_book() in autocommit, straight on the driver.
            now = now or self.clock()
            _check_sums(prepared.postings)
            fp = fingerprint(prepared.request)
            tx_id = await booking.book_pg_direct(
                self.db.engine, prepared.key, "settle", fp, None, now, prepared.postings, prepared.changes
            )
            if tx_id is not None:
                return Transaction(
                    tx_id, prepared.key, "settle", now, tuple(Posting(*p) for p in prepared.postings)
                )
            async with self.db.read() as conn:
                return await self._replay(conn, prepared.key, fp)
        async with self.db.write() as conn:
            return await self.settle_in(conn, prepared, now)

    async def accrue_points(
        self,
        player_id: int,
        centipoints: int,
        *,
        idempotency_key: str,
        reason: str = "",
        now: datetime | None = None,
    ) -> Transaction:
        """Issue loyalty points (e.g. for a tournament fee) from the points issuer."""
        check_amount(centipoints, what="points")
        check_key(idempotency_key)
        issuer = await self.account(AccountKind.POINTS_ISSUER, POINTS)
        pts = await self.account(AccountKind.POINTS, POINTS, owner_id=player_id)
        request = {"op": "points", "player": player_id, "points": centipoints, "reason": reason}
        async with self.db.write() as conn:
            return await self._book(
                conn,
                idempotency_key,
                "points",
                request,
                [(issuer, POINTS, -centipoints), (pts, POINTS, centipoints)],
                [Change(pts, centipoints, POINTS, AccountKind.POINTS)],
                now,
                memo={"reason": reason} if reason else None,
            )

    async def post(
        self,
        kind: str,
        postings: Sequence[tuple[int, int]],
        *,
        idempotency_key: str,
        memo: Mapping[str, Any] | None = None,
        now: datetime | None = None,
    ) -> Transaction:
        """A general transaction over existing accounts, ``(account_id, amount)`` pairs that must sum to
        zero per currency (tournament buy-ins, prize payouts, overlays ...). Floors are enforced."""
        check_key(idempotency_key)
        if not isinstance(kind, str) or not 1 <= len(kind) <= 16:
            raise InvalidAmount("a transaction kind is a string of 1-16 characters")
        merged = merge_postings(postings)
        async with self.db.read() as conn:
            request, full, changes = await plan_postings(conn, merged, kind, memo)
        async with self.db.write() as conn:
            return await self._book(conn, idempotency_key, kind, request, full, changes, now, memo=memo)

    # -- settlement internals (shared with the hand journal) ---------------------------------------------

    async def prepare_settlement(
        self,
        hand_id: str,
        currency: str,
        deltas: Mapping[int, int],
        rake: int,
        points: Mapping[int, int],
        escrow: tuple[int, int] | None = None,
    ) -> PreparedSettlement:
        """Validate a settlement and resolve its accounts (outside any money transaction). ``escrow`` is
        ``(account, amount)``: the chips of seats that left the hand early come back out of it."""
        check_currency(currency, cash=True)
        check_amount(rake, allow_zero=True, what="rake")
        if not isinstance(hand_id, str) or not 1 <= len(hand_id) <= 64:
            raise InvalidAmount("a hand id is a string of 1-64 characters")
        for sid, d in deltas.items():
            if (
                isinstance(d, bool)
                or not isinstance(d, int)
                or isinstance(sid, bool)
                or not isinstance(sid, int)
            ):
                raise InvalidAmount("deltas map seat-session ids (int) to int amounts")
        for pid, p in points.items():
            if isinstance(pid, bool) or not isinstance(pid, int):
                raise InvalidAmount("points map player ids (int) to centipoints")
            check_amount(p, allow_zero=True, what="points")
        from_escrow = escrow[1] if escrow else 0
        total = sum(deltas.values()) + rake + from_escrow
        if total != 0:
            raise UnbalancedTransaction(f"deltas plus rake sum to {total}, not 0")
        house = await self.account(AccountKind.HOUSE, currency) if rake else 0
        issuer = await self.account(AccountKind.POINTS_ISSUER, POINTS) if any(points.values()) else 0
        point_accounts = {
            pid: await self.account(AccountKind.POINTS, POINTS, owner_id=pid)
            for pid, p in points.items()
            if p
        }
        postings: list[tuple[int, str, int]] = [(sid, currency, d) for sid, d in sorted(deltas.items()) if d]
        changes = [
            Change(sid, d, currency, AccountKind.SEAT, must_be_open=True) for sid, d in sorted(deltas.items())
        ]
        if rake:
            postings.append((house, currency, rake))
        if escrow and escrow[1]:
            postings.append((escrow[0], currency, escrow[1]))
        issued = 0
        for pid, p in sorted(points.items()):
            if p:
                postings.append((point_accounts[pid], POINTS, p))
                changes.append(Change(point_accounts[pid], p, POINTS, AccountKind.POINTS))
                issued += p
        if issued:
            postings.append((issuer, POINTS, -issued))
        request = {
            "op": "settle",
            "hand": hand_id,
            "currency": currency,
            "deltas": sorted(deltas.items()),
            "rake": rake,
            "points": sorted((k, v) for k, v in points.items() if v),
        }
        if from_escrow:
            request["escrow"] = from_escrow
        return PreparedSettlement(f"hand:{hand_id}", request, postings, changes)

    async def book_in(
        self,
        conn: AsyncConnection,
        key: str,
        kind: str,
        request: Mapping[str, Any],
        postings: list[tuple[int, str, int]],
        changes: list[Change],
        now: datetime | None = None,
        memo: Mapping[str, Any] | None = None,
    ) -> Transaction:
        """Book a transaction on an open write transaction (the journal's seat releases use this); the
        memo is kept with it (the request, so the fingerprint, holds it already: ``plan_postings``)."""
        return await self._book(conn, key, kind, request, postings, changes, now, memo=memo)

    async def settle_in(
        self, conn: AsyncConnection, prepared: PreparedSettlement, now: datetime | None = None
    ) -> Transaction:
        """Book a prepared settlement on an open write transaction (the journal's end record uses this)."""
        return await self._book(
            conn, prepared.key, "settle", prepared.request, prepared.postings, prepared.changes, now
        )

    # -- booking ----------------------------------------------------------------------------------------

    async def _require_admin(self, admin_id: int) -> None:
        async with self.db.read() as conn:
            role = (
                await conn.execute(select(PlayerRow.role).where(PlayerRow.id == admin_id))
            ).scalar_one_or_none()
        if role != "admin":
            raise Forbidden("only an admin may do this")

    async def _book(
        self,
        conn: AsyncConnection,
        key: str,
        kind: str,
        request: Mapping[str, Any],
        postings: list[tuple[int, str, int]],
        changes: list[Change],
        now: datetime | None,
        memo: Mapping[str, Any] | None = None,
    ) -> Transaction:
        now = now or self.clock()
        if self.db.is_sqlite:
            claimed = await self._claim(conn, key, kind, request, memo, now)
            if isinstance(claimed, Transaction):
                return claimed
            return await self._finish(conn, claimed, key, kind, postings, changes, now)
        _check_sums(postings)
        fp = fingerprint(request)
        tx_id = await booking.book_pg(
            conn, key, kind, fp, canonical_json(memo) if memo else None, now, postings, changes
        )
        if tx_id is None:
            return await self._replay(conn, key, fp)
        return Transaction(tx_id, key, kind, now, tuple(Posting(a, c, d) for a, c, d in postings))

    async def _claim(
        self,
        conn: AsyncConnection,
        key: str,
        kind: str,
        request: Mapping[str, Any],
        memo: Mapping[str, Any] | None,
        now: datetime,
    ) -> int | Transaction:
        """Insert the transaction row under its idempotency key, or return the original on a retry."""
        fp = fingerprint(request)
        tx_id = await booking.claim(conn, key, kind, fp, canonical_json(memo) if memo else None, now)
        if tx_id is not None:
            return tx_id
        return await self._replay(conn, key, fp)

    async def _replay(self, conn: AsyncConnection, key: str, fp: str) -> Transaction:
        existing = (
            await conn.execute(select(TransactionRow.fingerprint).where(TransactionRow.idem_key == key))
        ).scalar_one()
        if existing != fp:
            raise IdempotencyConflict(key)
        tx = await _load_tx(conn, key, replayed=True)
        assert tx is not None
        return tx

    async def _finish(
        self,
        conn: AsyncConnection,
        tx_id: int,
        key: str,
        kind: str,
        postings: list[tuple[int, str, int]],
        changes: list[Change],
        now: datetime,
    ) -> Transaction:
        _check_sums(postings)
        ids = [c.account_id for c in changes]
        if len(ids) != len(set(ids)):
            raise InvalidAmount("an account appears twice in one transaction")
        await booking.apply(conn, changes, sqlite=self.db.is_sqlite)
        await booking.insert_postings(conn, tx_id, postings, sqlite=self.db.is_sqlite)
        return Transaction(tx_id, key, kind, now, tuple(Posting(a, c, d) for a, c, d in postings))


def _check_sums(postings: list[tuple[int, str, int]]) -> None:
    sums: dict[str, int] = {}
    for _, currency, amount in postings:
        sums[currency] = sums.get(currency, 0) + amount
    bad = {c: s for c, s in sums.items() if s}
    if bad:
        raise UnbalancedTransaction(f"postings do not sum to zero: {bad}")


@dataclass(frozen=True)
class PreparedSettlement:
    key: str
    request: Mapping[str, Any]
    postings: list[tuple[int, str, int]]
    changes: list[Change]

    def session_ids(self) -> set[int]:
        return {c.account_id for c in self.changes if c.kind is AccountKind.SEAT}


def merge_postings(postings: Sequence[tuple[int, int]]) -> dict[int, int]:
    """``(account id, amount)`` pairs summed per account (checked to be integers)."""
    merged: dict[int, int] = {}
    for account_id, amount in postings:
        if isinstance(amount, bool) or not isinstance(amount, int) or isinstance(account_id, bool):
            raise InvalidAmount("postings are (account id, int amount) pairs")
        merged[account_id] = merged.get(account_id, 0) + amount
    return merged


async def plan_postings(
    conn: AsyncConnection, merged: Mapping[int, int], kind: str, memo: Mapping[str, Any] | None
) -> tuple[dict[str, Any], list[tuple[int, str, int]], list[Change]]:
    """What :meth:`Ledger.post` books for ``merged``: the request (its fingerprint), the postings with their
    currencies and the floored balance changes. Raises :class:`UnknownAccount` for a missing account."""
    query = select(AccountRow.id, AccountRow.currency, AccountRow.balance).where(
        AccountRow.id.in_(list(merged))
    )
    rows = {r.id: r for r in (await conn.execute(query)).all()}
    for account_id in merged:
        if account_id not in rows:
            raise UnknownAccount(account_id)
    full = [(a, rows[a].currency, d) for a, d in merged.items() if d]
    changes = [Change(a, d, cur) for a, cur, d in full if rows[a].balance is not None]
    request = {"op": "post", "kind": kind, "postings": sorted(merged.items()), "memo": dict(memo or {})}
    return request, full, changes


async def _not_in_hand(conn: AsyncConnection, session_id: int) -> None:
    hand = (
        await conn.execute(
            select(HandRow.id)
            .join(HandSeatRow, HandSeatRow.hand_id == HandRow.id)
            .where(
                HandSeatRow.session_id == session_id,
                HandRow.status == "open",
                HandSeatRow.released.is_(None),
            )
            .limit(1)
        )
    ).scalar_one_or_none()
    if hand is not None:
        raise SessionInHand(session_id, hand)


async def _posted_sum(conn: AsyncConnection, account_id: int) -> int:
    total = (
        await conn.execute(
            select(func.coalesce(func.sum(PostingRow.amount), 0)).where(PostingRow.account_id == account_id)
        )
    ).scalar_one()
    return int(total)


async def _load_tx(conn: AsyncConnection, key: str, *, replayed: bool) -> Transaction | None:
    row = (await conn.execute(select(TransactionRow).where(TransactionRow.idem_key == key))).one_or_none()
    if row is None:
        return None
    postings = (
        await conn.execute(
            select(PostingRow.account_id, PostingRow.currency, PostingRow.amount)
            .where(PostingRow.tx_id == row.id)
            .order_by(PostingRow.id)
        )
    ).all()
    return Transaction(
        id=row.id,
        key=row.idem_key,
        kind=row.kind,
        created_at=row.created_at,
        postings=tuple(Posting(int(p.account_id), p.currency, int(p.amount)) for p in postings),
        replayed=replayed,
    )


def _seat_of(tx: Transaction, wallet: int) -> int:
    for p in tx.postings:
        if p.account_id != wallet and p.amount > 0:
            return p.account_id
    raise AssertionError("a buy-in transaction without a seat posting")


def _session(row: Any) -> SeatSession:
    return SeatSession(
        id=row.id,
        player_id=row.owner_id,
        table_id=row.ref,
        currency=row.currency,
        balance=int(row.balance),
        opened_at=row.opened_at,
        closed_at=row.closed_at,
    )


def _seat_key(table_id: str, player_id: int) -> str:
    return f"seat:{table_id}:{player_id}"

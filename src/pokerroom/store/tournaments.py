"""Tournaments in the store: registrations, the chips and places of a running tournament, satellite tickets
and tournament hand histories, each change written in the same transaction as the money it moves.

A tournament's row is created with its first registration (a tournament nobody paid for needs nothing
kept). Every step of a running tournament (a hand's end, eliminations and prizes, a ticket, the status) is
one :meth:`TournamentStore.apply`: the money (ledger bookings through ``Ledger.book_in``) and the state
that says who is owed what commit together, so a restart finds them consistent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.db import Database
from pokerroom.store.errors import StoreError
from pokerroom.store.histories import HandHistory, check_history, view_rows
from pokerroom.store.kinds import check_key
from pokerroom.store.ledger import Ledger, merge_postings, plan_postings
from pokerroom.store.models import (
    AccountRow,
    TournamentEntryRow,
    TournamentHandRow,
    TournamentPlayerHandRow,
    TournamentRow,
    TournamentSwitchRow,
    TournamentTicketRow,
    TransactionRow,
)
from pokerroom.store.numbers import HandNumbers, hand_number_in, tournament_number_in
from pokerroom.store.util import Clock, utc_now

__all__ = [
    "Booking",
    "CashTickets",
    "NewTicket",
    "Refund",
    "StoredEntry",
    "StoredTicket",
    "StoredTournament",
    "TournamentChanges",
    "TournamentHand",
    "TournamentRefused",
    "TournamentStore",
]

LIVE = ("registering", "running")


class TournamentRefused(StoreError):
    """The registration cannot be kept: the tournament is over, the player is registered already, or the
    ticket is gone."""

    code = "tournament_refused"


@dataclass(frozen=True)
class Booking:
    """A ledger transaction: ``(account id, amount)`` pairs summing to zero per currency."""

    kind: str
    key: str
    postings: Sequence[tuple[int, int]]
    memo: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Refund:
    """Give a registration back: the buy-in and fee to the account they came from (a ticket becomes
    unused again), out of the prize pool and the house; the entry is removed."""

    player_id: int
    pool_id: int
    house_id: int
    key: str


@dataclass(frozen=True)
class NewTicket:
    """A satellite seat: ``value`` from the satellite's prize pool (the promotions account adds what the
    pool lacks: a guaranteed seat, R230) to the player's ticket account."""

    player_id: int
    satellite: str
    target: str
    currency: str
    value: int
    account_id: int
    pool_id: int
    promotions_id: int
    key: str


@dataclass(frozen=True)
class CashTickets:
    """Every unused ticket for ``target`` (read in the step's transaction, after its refunds gave tickets
    back) is paid to its holder's wallet (``wallets``: player id -> wallet account, for the currency of
    his tickets) and marked used (``used_for`` = ``"cashed"``): its target can no longer take it
    (cancelled, over, or its registration closed). A holder missing from ``wallets`` keeps his ticket
    (it came after the wallets were read: the satellite that awarded it cashes it, docs/tournaments.md).
    """

    target: str
    wallets: Mapping[int, int]
    key: str  # idempotency keys: ``{key}:{ticket id}``
    reason: str


@dataclass(frozen=True)
class TournamentHand:
    hand_id: str
    table_id: str
    game: str
    ended_at: datetime
    history: HandHistory


@dataclass
class TournamentChanges:
    """One step of a tournament, written in one transaction, in this order: refunds, bookings, tickets,
    hands, chips and places, status and payout table, the unused tickets for it cashed."""

    refunds: list[Refund] = field(default_factory=list)
    bookings: list[Booking] = field(default_factory=list)
    tickets: list[NewTicket] = field(default_factory=list)
    hands: list[TournamentHand] = field(default_factory=list)
    chips: dict[int, tuple[int, int | None]] = field(default_factory=dict)  # player -> (stack, place)
    # (``chips``: his latest entry's; the places of his earlier entries, re-entry R261:)
    entry_places: dict[tuple[int, int], int | None] = field(default_factory=dict)  # (player, entry)
    bounties: dict[int, int] = field(default_factory=dict)  # player -> his latest entry's bounty now
    deals: dict[int, int] = field(default_factory=dict)  # player -> what deals paid his latest entry
    status: str | None = None
    prizes: Sequence[int] | None = None
    cash_tickets: CashTickets | None = None  # last, after the status

    def __bool__(self) -> bool:
        return bool(
            self.cash_tickets is not None
            or self.refunds
            or self.bookings
            or self.tickets
            or self.hands
            or self.chips
            or self.entry_places
            or self.bounties
            or self.deals
            or self.status is not None
            or self.prizes is not None
        )


@dataclass(frozen=True)
class StoredEntry:
    player_id: int
    name: str
    source_id: int
    ticket_id: int | None
    stack: int | None
    place: int | None
    entry: int = 1  # a player's first entry, or a re-entry's number (R261)
    bounty: int | None = None  # its bounty now (a bounty tournament; None: not kept)
    deal: int | None = None  # what deals at the final table paid it (None: none)


@dataclass(frozen=True)
class StoredTournament:
    id: str
    series: str | None
    spec: dict[str, Any] | None
    currency: str
    buy_in: int
    fee: int
    status: str
    prizes: tuple[int, ...]
    entries: tuple[StoredEntry, ...]


@dataclass(frozen=True)
class StoredTicket:
    id: int
    player_id: int
    satellite: str
    target: str
    currency: str
    value: int
    account_id: int
    won_at: datetime
    used_for: str | None


def _latest(tid: str, player_id: int) -> tuple[Any, ...]:
    """Conditions selecting a player's latest entry in a tournament (the one he plays: R261)."""
    latest = (
        select(func.max(TournamentEntryRow.entry))
        .where(TournamentEntryRow.tournament_id == tid, TournamentEntryRow.player_id == player_id)
        .scalar_subquery()
    )
    return (
        TournamentEntryRow.tournament_id == tid,
        TournamentEntryRow.player_id == player_id,
        TournamentEntryRow.entry == latest,
    )


def _ticket(r: Any) -> StoredTicket:
    """A ticket row as the store hands it out."""
    return StoredTicket(
        r.id, r.player_id, r.satellite, r.target, r.currency, int(r.value), r.account_id, r.won_at, r.used_for
    )


class TournamentStore:
    def __init__(self, db: Database, ledger: Ledger, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.ledger = ledger
        self.clock = clock
        self._insert_ignore = postgresql.insert if db.dialect == "postgresql" else sqlite.insert

    # ---------------------------------------------------------------------------------- queries

    async def statuses(self, ids: Iterable[str]) -> dict[str, str]:
        """The stored status of each of these tournaments that has a row."""
        wanted = list(ids)
        if not wanted:
            return {}
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(TournamentRow.id, TournamentRow.status).where(TournamentRow.id.in_(wanted))
                )
            ).all()
        return {r.id: r.status for r in rows}

    async def entered(self, player_id: int, ids: Iterable[str]) -> set[str]:
        """Those of these tournaments the player is registered in (his entry stands: not unregistered)."""
        wanted = list(ids)
        if not wanted:
            return set()
        async with self.db.read() as conn:
            rows = await conn.execute(
                select(TournamentEntryRow.tournament_id).where(
                    TournamentEntryRow.player_id == player_id, TournamentEntryRow.tournament_id.in_(wanted)
                )
            )
            return set(rows.scalars())

    async def live(self) -> list[StoredTournament]:
        """Tournaments registering or running, with their entries (what a restart must deal with)."""
        return await self._load(TournamentRow.status.in_(LIVE), TournamentRow.created_at)

    async def finished(self, limit: int = 50) -> list[StoredTournament]:
        """The ``limit`` tournaments finished or cancelled last, newest first, with their entries (the
        lobby's "finished" list after a restart)."""
        return await self._load(
            TournamentRow.status.in_(("finished", "cancelled")), TournamentRow.updated_at.desc(), limit
        )

    async def _load(self, where: Any, order: Any, limit: int | None = None) -> list[StoredTournament]:
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(TournamentRow).where(where).order_by(order, TournamentRow.id).limit(limit)
                )
            ).all()
            entries = (
                await conn.execute(
                    select(TournamentEntryRow)
                    .where(TournamentEntryRow.tournament_id.in_([r.id for r in rows]))
                    .order_by(
                        TournamentEntryRow.registered_at,
                        TournamentEntryRow.player_id,
                        TournamentEntryRow.entry,
                    )
                )
            ).all()
        by_tid: dict[str, list[StoredEntry]] = {}
        for e in entries:
            by_tid.setdefault(e.tournament_id, []).append(
                StoredEntry(
                    e.player_id,
                    e.name,
                    e.source_id,
                    e.ticket_id,
                    e.stack,
                    e.place,
                    e.entry,
                    e.bounty,
                    None if e.deal is None else int(e.deal),
                )
            )
        return [
            StoredTournament(
                r.id,
                r.series,
                orjson.loads(r.spec) if r.spec else None,
                r.currency,
                int(r.buy_in),
                int(r.fee),
                r.status,
                tuple(orjson.loads(r.prizes)) if r.prizes else (),
                tuple(by_tid.get(r.id, ())),
            )
            for r in rows
        ]

    async def deal_switches(self, ids: Iterable[str]) -> dict[str, bool]:
        """The operator's word on deals (allowed or not) in each of these tournaments that has one."""
        wanted = list(ids)
        if not wanted:
            return {}
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(TournamentSwitchRow.tournament_id, TournamentSwitchRow.deals).where(
                        TournamentSwitchRow.tournament_id.in_(wanted)
                    )
                )
            ).all()
        return {r.tournament_id: bool(r.deals) for r in rows}

    async def set_deal_switch(self, tid: str, allowed: bool) -> None:
        """Keep the operator's word on deals in ``tid`` (it wins over the tournament's configuration when
        the tournament opens again: a restart, a cluster's host taking it over)."""
        now = self.clock()
        async with self.db.write() as conn:
            await conn.execute(
                self._insert_ignore(TournamentSwitchRow)
                .values(tournament_id=tid, deals=allowed, updated_at=now)
                .on_conflict_do_update(
                    index_elements=["tournament_id"], set_={"deals": allowed, "updated_at": now}
                )
            )

    async def tickets(self, player_id: int, *, target: str | None = None) -> list[StoredTicket]:
        """A player's unused tickets (for ``target`` only if given), oldest first."""
        q = select(TournamentTicketRow).where(
            TournamentTicketRow.player_id == player_id, TournamentTicketRow.used_for.is_(None)
        )
        if target is not None:
            q = q.where(TournamentTicketRow.target == target)
        async with self.db.read() as conn:
            rows = (await conn.execute(q.order_by(TournamentTicketRow.id))).all()
        return [_ticket(r) for r in rows]

    # ---------------------------------------------------------------------------- registration

    async def register(
        self,
        tid: str,
        *,
        currency: str,
        buy_in: int,
        fee: int,
        player_id: int,
        name: str,
        source_id: int,
        booking: Booking,
        ticket_id: int | None = None,
        series: str | None = None,
        spec: Mapping[str, Any] | None = None,
        stack: int | None = None,
        entry: int = 1,
    ) -> None:
        """Book a buy-in and keep the registration, in one transaction (the tournament's row is created
        with its first registration). ``stack`` is set for a late registration; ``entry`` > 1: a
        re-entry (R261), a row of its own."""
        now = self.clock()
        async with self.db.write() as conn:
            await conn.execute(
                self._insert_ignore(TournamentRow)
                .values(
                    id=tid,
                    series=series,
                    spec=orjson.dumps(dict(spec)).decode() if spec is not None else None,
                    currency=currency,
                    buy_in=buy_in,
                    fee=fee,
                    status="registering",
                    prizes=None,
                    created_at=now,
                    updated_at=now,
                )
                .on_conflict_do_nothing(index_elements=["id"])
            )
            status = (
                await conn.execute(select(TournamentRow.status).where(TournamentRow.id == tid))
            ).scalar_one()
            if status not in LIVE:
                raise TournamentRefused(f"tournament {tid!r} is over")
            try:
                await conn.execute(
                    insert(TournamentEntryRow).values(
                        tournament_id=tid,
                        player_id=player_id,
                        entry=entry,
                        name=name,
                        source_id=source_id,
                        ticket_id=ticket_id,
                        stack=stack,
                        place=None,
                        registered_at=now,
                    )
                )
            except IntegrityError:
                raise TournamentRefused("already registered") from None
            if ticket_id is not None:
                used = await conn.execute(
                    update(TournamentTicketRow)
                    .where(
                        TournamentTicketRow.id == ticket_id,
                        TournamentTicketRow.player_id == player_id,
                        TournamentTicketRow.used_for.is_(None),
                    )
                    .values(used_for=tid)
                )
                if used.rowcount != 1:
                    raise TournamentRefused("that ticket is used already")
            await self._book(conn, booking, now)

    async def add_chips(self, tid: str, player_id: int, chips: int, booking: Booking) -> None:
        """A rebuy or add-on: its money and its chips together."""
        now = self.clock()
        async with self.db.write() as conn:
            await conn.execute(
                update(TournamentEntryRow)
                .where(*_latest(tid, player_id))
                .values(stack=func.coalesce(TournamentEntryRow.stack, 0) + chips)
            )
            await self._book(conn, booking, now)

    # ---------------------------------------------------------------------------------- changes

    async def apply(self, tid: str, changes: TournamentChanges) -> None:
        """Write one step of a tournament in one transaction (see :class:`TournamentChanges`)."""
        if not changes:
            return
        now = self.clock()
        async with self.db.write() as conn:
            for refund in changes.refunds:
                await self._refund(conn, tid, refund, now)
            for booking in changes.bookings:
                await self._book(conn, booking, now)
            for ticket in changes.tickets:
                await self._ticket(conn, ticket, now)
            for hand in changes.hands:
                await self._hand(conn, tid, hand)
            for (player_id, entry), place in sorted(changes.entry_places.items()):
                await conn.execute(
                    update(TournamentEntryRow)
                    .where(
                        TournamentEntryRow.tournament_id == tid,
                        TournamentEntryRow.player_id == player_id,
                        TournamentEntryRow.entry == entry,
                    )
                    .values(stack=0, place=place)
                )
            for player_id, (stack, place) in sorted(changes.chips.items()):
                await conn.execute(
                    update(TournamentEntryRow)
                    .where(*_latest(tid, player_id))
                    .values(stack=stack, place=place)
                )
            for player_id, bounty in sorted(changes.bounties.items()):
                await conn.execute(
                    update(TournamentEntryRow).where(*_latest(tid, player_id)).values(bounty=bounty)
                )
            for player_id, deal in sorted(changes.deals.items()):
                await conn.execute(
                    update(TournamentEntryRow).where(*_latest(tid, player_id)).values(deal=deal)
                )
            values: dict[str, Any] = {}
            if changes.status is not None:
                values["status"] = changes.status
            if changes.prizes is not None:
                values["prizes"] = orjson.dumps(list(changes.prizes)).decode()
            if values:
                await conn.execute(
                    update(TournamentRow).where(TournamentRow.id == tid).values(updated_at=now, **values)
                )
            if changes.cash_tickets is not None:
                await self._cash_tickets(conn, changes.cash_tickets, now)

    async def targeted(self, target: str) -> list[StoredTicket]:
        """Every ticket won for ``target``, used or not (whose holders' wallets a ``CashTickets`` needs)."""
        q = select(TournamentTicketRow).where(TournamentTicketRow.target == target)
        async with self.db.read() as conn:
            rows = (await conn.execute(q.order_by(TournamentTicketRow.id))).all()
        return [_ticket(r) for r in rows]

    async def _cash_tickets(self, conn: AsyncConnection, cash: CashTickets, now: datetime) -> None:
        rows = (
            await conn.execute(
                select(TournamentTicketRow)
                .where(TournamentTicketRow.target == cash.target, TournamentTicketRow.used_for.is_(None))
                .order_by(TournamentTicketRow.id)
            )
        ).all()
        for t in rows:
            wallet = cash.wallets.get(t.player_id)
            if wallet is None:
                continue
            await conn.execute(
                update(TournamentTicketRow).where(TournamentTicketRow.id == t.id).values(used_for="cashed")
            )
            memo = {
                "satellite": t.satellite,
                "target": t.target,
                "player": str(t.player_id),
                "value": int(t.value),
                "reason": cash.reason,
            }
            postings = [(t.account_id, -int(t.value)), (wallet, int(t.value))]
            await self._book(conn, Booking("ticket_cash", f"{cash.key}:{t.id}", postings, memo), now)

    async def _refund(self, conn: AsyncConnection, tid: str, refund: Refund, now: datetime) -> None:
        row = (
            await conn.execute(
                select(
                    TournamentEntryRow.source_id,
                    TournamentEntryRow.ticket_id,
                    TournamentRow.buy_in,
                    TournamentRow.fee,
                )
                .join(TournamentRow, TournamentRow.id == TournamentEntryRow.tournament_id)
                .where(*_latest(tid, refund.player_id))
            )
        ).one_or_none()
        if row is None:
            return  # given back already
        await conn.execute(delete(TournamentEntryRow).where(*_latest(tid, refund.player_id)))
        if row.ticket_id is not None:
            await conn.execute(
                update(TournamentTicketRow)
                .where(TournamentTicketRow.id == row.ticket_id)
                .values(used_for=None)
            )
        postings = [
            (row.source_id, row.buy_in + row.fee),
            (refund.pool_id, -row.buy_in),
            (refund.house_id, -row.fee),
        ]
        memo = {"tournament": tid, "player": str(refund.player_id)}
        await self._book(conn, Booking("tourney_refund", refund.key, postings, memo), now)

    async def _ticket(self, conn: AsyncConnection, t: NewTicket, now: datetime) -> None:
        booked = select(TransactionRow.id).where(TransactionRow.idem_key == t.key)
        if (await conn.execute(booked)).scalar_one_or_none() is not None:
            return  # awarded already (the shortfall, read from the pool, would differ now)
        in_pool = (
            await conn.execute(select(AccountRow.balance).where(AccountRow.id == t.pool_id))
        ).scalar_one_or_none() or 0
        shortfall = max(0, t.value - int(in_pool))
        postings = [(t.promotions_id, -shortfall), (t.pool_id, shortfall - t.value), (t.account_id, t.value)]
        memo = {"satellite": t.satellite, "target": t.target, "player": str(t.player_id)}
        await self._book(conn, Booking("tourney_ticket", t.key, postings, memo), now)
        await conn.execute(
            insert(TournamentTicketRow).values(
                player_id=t.player_id,
                satellite=t.satellite,
                target=t.target,
                currency=t.currency,
                value=t.value,
                account_id=t.account_id,
                won_at=now,
                used_for=None,
            )
        )

    async def _hand(self, conn: AsyncConnection, tid: str, hand: TournamentHand) -> None:
        history = hand.history
        if history.numbered is not None or history.seats:  # (views written later: numbered now all the same)
            number = await hand_number_in(conn, hand.hand_id)
            numbers = HandNumbers(number, await tournament_number_in(conn, tid))
            history = history.numbered_views(numbers)
        check_history(history)
        done = await conn.execute(
            self._insert_ignore(TournamentHandRow)
            .values(
                id=hand.hand_id,
                tournament_id=tid,
                table_id=hand.table_id,
                game=hand.game,
                ended_at=hand.ended_at,
                full_phh=history.full_phh,
            )
            .on_conflict_do_nothing(index_elements=["id"])
        )
        rows = view_rows(hand.hand_id, history, hand.ended_at)
        if done.rowcount != 1 or not rows:
            return
        await conn.execute(insert(TournamentPlayerHandRow), rows)

    async def _book(self, conn: AsyncConnection, booking: Booking, now: datetime) -> Any:
        """``Ledger.post`` on this open transaction (the same request, so a retry is recognised)."""
        check_key(booking.key)
        merged = merge_postings(booking.postings)
        if not any(merged.values()):
            return None
        request, full, changes = await plan_postings(conn, merged, booking.kind, booking.memo)
        return await self.ledger.book_in(
            conn, booking.key, booking.kind, request, full, changes, now, memo=booking.memo
        )

"""The hand journal: a start record with a commitment to the deck, every accepted command, and an end
record that reveals the deck and books the settlement in the same database transaction. A hand left open
by a crash is cancelled on start-up by :meth:`HandJournal.recover`; its chips never moved.

The server writes a hand's commands with its end record (or its cancellation), not one by one as they
are played (docs/store.md, "Per hand"): recovery needs none of them (an interrupted hand is voided), and
two transactions per hand instead of one per batch of actions is what a table host's database can carry.
:meth:`HandJournal.record_command` still appends one durably at once, for a caller that wants that."""

from __future__ import annotations

import heapq
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.booking import Change
from pokerroom.store.db import Database
from pokerroom.store.errors import (
    DeckMismatch,
    HandExists,
    HandNotOpen,
    InvalidRecord,
    SessionClosed,
    SessionInHand,
    StackMismatch,
    UnknownHand,
    UnknownSession,
)
from pokerroom.store.group import CommandWriter
from pokerroom.store.histories import HandHistory, insert_history
from pokerroom.store.kinds import AccountKind, Transaction, check_amount, check_currency
from pokerroom.store.ledger import Ledger
from pokerroom.store.models import AccountRow, HandCommandRow, HandRow, HandSeatRow, UTCDateTime
from pokerroom.store.prepared import prebuilt
from pokerroom.store.util import Clock, canonical_json, fingerprint, utc_now, verify_deck

_HEX64 = re.compile(r"^[0-9a-f]{64}$")

# The statements of every hand's start and end record, built once: building one per call (coercing its
# clauses and computing its cache key) was most of SQLAlchemy's cost on this path (docs/server-speed.md).
_START_EXISTING = prebuilt(
    select(HandRow.start_fingerprint, HandRow.started_at).where(HandRow.id == bindparam("hand_id"))
)
_SESSIONS = prebuilt(
    select(
        AccountRow.id,
        AccountRow.kind,
        AccountRow.currency,
        AccountRow.owner_id,
        AccountRow.balance,
        AccountRow.closed_at,
    ).where(AccountRow.id.in_(bindparam("ids", expanding=True)))
)
_SESSIONS_LOCKED = _SESSIONS.order_by(AccountRow.id).with_for_update(key_share=True)
_BUSY = prebuilt(
    select(HandSeatRow.session_id, HandSeatRow.hand_id)
    .join(HandRow, HandRow.id == HandSeatRow.hand_id)
    .where(
        HandSeatRow.session_id.in_(bindparam("ids", expanding=True)),
        HandRow.status == "open",
        HandSeatRow.released.is_(None),
    )
    .limit(1)
)
_INSERT_HAND = prebuilt(insert(HandRow))
_INSERT_COMMANDS = prebuilt(insert(HandCommandRow))
_TOP_SEQ = prebuilt(
    select(func.coalesce(func.max(HandCommandRow.seq), 0)).where(
        HandCommandRow.hand_id == bindparam("hand_id")
    )
)
_INSERT_SEATS = prebuilt(insert(HandSeatRow))
_END_HAND = prebuilt(
    select(HandRow.status, HandRow.currency, HandRow.deck_commitment, HandRow.ended_at).where(
        HandRow.id == bindparam("hand_id")
    )
)
_END_SEATS = prebuilt(
    select(HandSeatRow.player_id, HandSeatRow.session_id, HandSeatRow.released).where(
        HandSeatRow.hand_id == bindparam("hand_id")
    )
)
_MARK_ENDED = prebuilt(
    update(HandRow)
    .where(HandRow.id == bindparam("hand_id"), HandRow.status == "open")
    .values(
        status="ended",
        ended_at=bindparam("ended_at", type_=UTCDateTime()),
        deck=bindparam("deck"),
        salt=bindparam("salt"),
        result=bindparam("result"),
        tx_id=bindparam("tx_id"),
    )
)


@dataclass(frozen=True)
class SeatRecord:
    """A player dealt into a hand: his seat, his seat session and his stack at the start of the hand."""

    seat: int
    player_id: int
    session_id: int
    stack: int


@dataclass(frozen=True)
class HandStart:
    hand_id: str
    table_id: str
    game: str
    currency: str
    seats: tuple[SeatRecord, ...]
    started_at: datetime
    deck_commitment: str


@dataclass(frozen=True)
class HandEnd:
    hand_id: str
    ended_at: datetime
    transaction: Transaction
    replayed: bool = False


@dataclass(frozen=True)
class CancelledHand:
    """A hand cancelled without an end record. ``stacks`` (session id -> chips) are the seat-session
    balances once it is cancelled. A seat still in the hand is back where it was before the hand (the
    hand never changed its balance). A seat that left early (a Rush release) has its release back, on top
    of whatever its session did after it left (other hands, a top-up; a closed session's release went to
    the wallet). ``mismatches`` lists the seats still in the hand whose start-record stack differs from
    their session's balance: chips really off (it should be empty). A seat that left early is not
    compared: its balance is no longer this hand's (see :meth:`HandJournal.recover`)."""

    hand_id: str
    table_id: str
    reason: str
    stacks: Mapping[int, int]
    mismatches: tuple[StackMismatch, ...] = ()


@dataclass(frozen=True)
class JournalCommand:
    seq: int
    command: Any
    recorded_at: datetime


@dataclass(frozen=True)
class HandRecord:
    """Everything the journal holds on a hand (for audit and replay). ``deck`` and ``salt`` are None
    until the end record reveals them."""

    start: HandStart
    status: str
    ended_at: datetime | None
    result: Any
    deck: str | None = field(default=None, repr=False)
    salt: str | None = field(default=None, repr=False)


def _check_hand_id(hand_id: object) -> str:
    if not isinstance(hand_id, str) or not 1 <= len(hand_id) <= 64:
        raise InvalidRecord("a hand id is a string of 1-64 characters")
    return hand_id


def _command_text(command: Any) -> str:
    if isinstance(command, str):
        try:
            json.loads(command)
        except ValueError:
            raise InvalidRecord("a command is JSON text or JSON-able data") from None
        return command
    try:
        return canonical_json(command)
    except (TypeError, ValueError):
        raise InvalidRecord("a command is JSON text or JSON-able data") from None


async def _append_commands(
    conn: AsyncConnection, hand_id: str, bodies: Sequence[str], now: datetime, times: Sequence[datetime] = ()
) -> None:
    """Append the commands of ``bodies`` (a hand's, from its first) that the journal does not hold yet,
    each at its time in ``times`` (when it was played; ``now`` for any without one)."""
    if not bodies:
        return
    top = int((await conn.execute(_TOP_SEQ, {"hand_id": hand_id})).scalar_one())
    rows = [
        {
            "hand_id": hand_id,
            "seq": seq,
            "command": body,
            "recorded_at": times[seq - 1] if seq <= len(times) else now,
        }
        for seq, body in enumerate(bodies[top:], start=top + 1)
    ]
    if rows:
        await conn.execute(_INSERT_COMMANDS, rows)


def _newest_first(by_start: Sequence[str], seats: Sequence[tuple[str, int, bool]]) -> list[str]:
    """The order in which :meth:`HandJournal.recover` cancels the open hands ``by_start`` (newest start
    first), given their seats ``(hand id, session id, released)``: a hand in which a session is still
    seated comes before every hand that session was released from, otherwise the start order holds. A
    consistent journal has no cycle (a session is dealt into a hand only after its releases from the
    others); one would be broken in start order."""
    rank = {h: i for i, h in enumerate(by_start)}
    seated: dict[int, str] = {}  # session -> the open hand it is still in
    left: dict[int, list[str]] = {}  # session -> the open hands it was released from
    for hand_id, session_id, released in seats:
        if hand_id in rank:
            if released:
                left.setdefault(session_id, []).append(hand_id)
            else:
                seated[session_id] = hand_id
    later: dict[str, set[str]] = {h: set() for h in by_start}  # hand -> hands cancelled after it
    for session_id, hand_id in seated.items():
        later[hand_id].update(h for h in left.get(session_id, ()) if h != hand_id)
    waiting = dict.fromkeys(by_start, 0)  # hand -> how many hands must be cancelled before it
    for after in later.values():
        for h in after:
            waiting[h] += 1
    ready = [rank[h] for h in by_start if not waiting[h]]
    heapq.heapify(ready)
    order: list[str] = []
    done: set[str] = set()
    while len(order) < len(by_start):
        if ready:
            hand_id = by_start[heapq.heappop(ready)]
            if hand_id in done:
                continue
        else:
            hand_id = next(h for h in by_start if h not in done)
        done.add(hand_id)
        order.append(hand_id)
        for h in later[hand_id]:
            waiting[h] -= 1
            if not waiting[h] and h not in done:
                heapq.heappush(ready, rank[h])
    return order


class HandJournal:
    """Start, command and end records of hands, recovery after a crash."""

    def __init__(self, db: Database, ledger: Ledger, *, clock: Clock = utc_now) -> None:
        self.db = db
        self.ledger = ledger
        self.clock = clock
        self.writer = CommandWriter(db)

    async def start_hand(
        self,
        hand_id: str,
        *,
        table_id: str,
        game: str,
        currency: str,
        seats: Sequence[SeatRecord],
        deck_commitment: str,
        now: datetime | None = None,
        stakes: str | None = None,
        pool: str | None = None,
    ) -> HandStart:
        """Record the start of a hand. Each seat session must be open, in ``currency``, owned by that
        player, in no other open hand, and hold exactly the stated stack. Repeating an identical start
        record returns it; a different one under the same hand id raises HandExists. ``stakes`` (the
        lobby's words for them now, "10/20") and ``pool`` (a Rush hand's) are kept for the reports."""
        _check_hand_id(hand_id)
        check_currency(currency, cash=True)
        for name, value in (("table_id", table_id), ("game", game)):
            if not isinstance(value, str) or not 1 <= len(value) <= 64:
                raise InvalidRecord(f"{name} is a string of 1-64 characters")
        for name, extra in (("stakes", stakes), ("pool", pool)):
            if extra is not None and (not isinstance(extra, str) or not 1 <= len(extra) <= 64):
                raise InvalidRecord(f"{name} is a string of 1-64 characters")
        if not isinstance(deck_commitment, str) or not _HEX64.match(deck_commitment):
            raise InvalidRecord("the deck commitment is 64 lowercase hex digits (SHA-256)")
        seats = tuple(seats)
        if not seats:
            raise InvalidRecord("a hand needs at least one seat")
        for s in seats:
            if not isinstance(s, SeatRecord) or isinstance(s.seat, bool) or not isinstance(s.seat, int):
                raise InvalidRecord("seats are SeatRecords")
            check_amount(s.stack, allow_zero=True, what="stack")
        for attr in ("seat", "player_id", "session_id"):
            if len({getattr(s, attr) for s in seats}) != len(seats):
                raise InvalidRecord(f"two seats share a {attr}")
        seats = tuple(sorted(seats, key=lambda s: s.seat))
        now = now or self.clock()
        start = HandStart(hand_id, table_id, game, currency, seats, now, deck_commitment)
        fp = fingerprint(
            [
                table_id,
                game,
                currency,
                deck_commitment,
                [[s.seat, s.player_id, s.session_id, s.stack] for s in seats],
            ]
        )
        async with self.db.write() as conn:
            existing = (await conn.execute(_START_EXISTING, {"hand_id": hand_id})).one_or_none()
            if existing is not None:
                if existing.start_fingerprint != fp:
                    raise HandExists(hand_id)
                return HandStart(
                    hand_id, table_id, game, currency, seats, existing.started_at, deck_commitment
                )
            ids = [s.session_id for s in seats]
            q = _SESSIONS if self.db.is_sqlite else _SESSIONS_LOCKED
            rows = {r.id: r for r in (await conn.execute(q, {"ids": ids})).all()}
            for s in seats:
                r = rows.get(s.session_id)
                if r is None or r.kind != "seat" or r.currency != currency or r.owner_id != s.player_id:
                    raise UnknownSession(s.session_id)
                if r.closed_at is not None:
                    raise SessionClosed(s.session_id)
                if r.balance != s.stack:
                    raise StackMismatch(s.session_id, s.stack, int(r.balance))
            busy = (await conn.execute(_BUSY, {"ids": ids})).one_or_none()
            if busy is not None:
                raise SessionInHand(busy.session_id, busy.hand_id)
            try:
                await conn.execute(
                    _INSERT_HAND,
                    {
                        "id": hand_id,
                        "table_id": table_id,
                        "game": game,
                        "currency": currency,
                        "status": "open",
                        "started_at": now,
                        "deck_commitment": deck_commitment,
                        "start_fingerprint": fp,
                        "stakes": stakes,
                        "pool_id": pool,
                    },
                )
            except IntegrityError:  # the same hand id started concurrently
                raise HandExists(hand_id) from None
            await conn.execute(
                _INSERT_SEATS,
                [
                    {
                        "hand_id": hand_id,
                        "seat": s.seat,
                        "player_id": s.player_id,
                        "session_id": s.session_id,
                        "stack": s.stack,
                    }
                    for s in seats
                ],
            )
        return start

    async def record_command(
        self, hand_id: str, seq: int, command: Any, *, now: datetime | None = None
    ) -> None:
        """Append an accepted command (JSON text, or data that is turned into canonical JSON) as number
        ``seq`` (1, 2, ...). Repeating a stored command with the same content is a no-op. Returns once the
        command is committed; the commands of all tables that arrive during one write go together in the
        next (group commit, :mod:`pokerroom.store.group`)."""
        _check_hand_id(hand_id)
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise InvalidRecord("a command sequence number is an int >= 1")
        body = _command_text(command)
        await self.writer.append(hand_id, seq, body, now or self.clock())

    async def end_hand(
        self,
        hand_id: str,
        *,
        deck_text: str,
        salt: str,
        deltas: Mapping[int, int],
        rake: int,
        points: Mapping[int, int],
        history: HandHistory | None = None,
        commands: Sequence[Any] = (),
        times: Sequence[datetime] = (),
        now: datetime | None = None,
    ) -> HandEnd:
        """The end record: reveal the deck and salt (checked against the commitment) and book the
        settlement (see :meth:`Ledger.settle_hand`) in the same database transaction, with the hand's
        histories if given and its ``commands`` (all of them, in order: those the journal has not yet,
        by :meth:`record_command`, are appended; ``times``: when each was played, else the end's time).
        A retry with the same result returns the original (``replayed=True``)."""
        _check_hand_id(hand_id)
        bodies = [_command_text(c) for c in commands]
        async with self.db.read() as conn:
            hand = (await conn.execute(_END_HAND, {"hand_id": hand_id})).one_or_none()
            seats = (await conn.execute(_END_SEATS, {"hand_id": hand_id})).all()
        if hand is None:
            raise UnknownHand(hand_id)
        if hand.status == "cancelled":
            raise HandNotOpen(hand_id, hand.status)
        if not verify_deck(hand.deck_commitment, deck_text, salt):
            raise DeckMismatch(hand_id)
        sessions = {s.session_id for s in seats if s.released is None}
        players = {s.player_id for s in seats}
        if not set(deltas) <= sessions:
            raise InvalidRecord(f"deltas for seat sessions not (or no longer) in hand {hand_id!r}")
        if not set(points) <= players:
            raise InvalidRecord(f"points for players not dealt into hand {hand_id!r}")
        held = -sum(int(s.released) for s in seats if s.released is not None)  # chips in the escrow
        escrow = None
        if held:
            escrow = (await self.ledger.account(AccountKind.ESCROW, hand.currency, ref=hand_id), -held)
        prepared = await self.ledger.prepare_settlement(hand_id, hand.currency, deltas, rake, points, escrow)
        if hand.status == "ended":
            async with self.db.write() as conn:
                tx = await self.ledger.settle_in(conn, prepared, now)
            assert hand.ended_at is not None
            return HandEnd(hand_id, hand.ended_at, tx, replayed=True)
        now = now or self.clock()
        result = {"deltas": sorted(deltas.items()), "rake": rake, "points": sorted(points.items())}
        async with self.db.write() as conn:
            tx = await self.ledger.settle_in(conn, prepared, now)
            values = {
                "hand_id": hand_id,
                "ended_at": now,
                "deck": deck_text,
                "salt": salt,
                "result": canonical_json(result),
                "tx_id": tx.id,
            }
            n = (await conn.execute(_MARK_ENDED, values)).rowcount
            if n != 1:
                raise HandNotOpen(hand_id, "ended")
            await _append_commands(conn, hand_id, bodies, now, times)
            if history is not None:
                await insert_history(conn, hand_id, history, players, now, now)
        return HandEnd(hand_id, now, tx, replayed=tx.replayed)

    async def release_seat(
        self, hand_id: str, session_id: int, result: int, *, now: datetime | None = None
    ) -> None:
        """Rush: a seat leaves an open hand early (a quick fold). Its result (what it put in, negated) is
        final: it is booked at once from the seat session into the hand's escrow account, and the session
        is free for another hand, a top-up or a cash-out. The hand's end record pays the escrow out; a
        cancelled hand gives it back. Repeating the same release is a no-op."""
        _check_hand_id(hand_id)
        if isinstance(result, bool) or not isinstance(result, int) or result > 0:
            raise InvalidRecord("a released seat's result is what it put in, negated (an int <= 0)")
        async with self.db.read() as conn:
            row = (
                await conn.execute(
                    select(HandRow.status, HandRow.currency, HandSeatRow.released)
                    .join(HandSeatRow, HandSeatRow.hand_id == HandRow.id)
                    .where(HandRow.id == hand_id, HandSeatRow.session_id == session_id)
                )
            ).one_or_none()
        if row is None:
            raise InvalidRecord(f"seat session {session_id} is not in hand {hand_id!r}")
        if row.released is not None:
            if int(row.released) != result:
                raise InvalidRecord(f"seat session {session_id} already left hand {hand_id!r}")
            return
        if row.status != "open":
            raise HandNotOpen(hand_id, row.status)
        escrow = await self.ledger.account(AccountKind.ESCROW, row.currency, ref=hand_id)
        request = {"op": "release", "hand": hand_id, "session": session_id, "result": result}
        async with self.db.write() as conn:
            if result:
                await self.ledger.book_in(
                    conn,
                    f"release:{hand_id}:{session_id}",
                    "release",
                    request,
                    [(session_id, row.currency, result), (escrow, row.currency, -result)],
                    [Change(session_id, result, row.currency, AccountKind.SEAT, must_be_open=True)],
                    now,
                )
            n = (
                await conn.execute(
                    update(HandSeatRow)
                    .where(
                        HandSeatRow.hand_id == hand_id,
                        HandSeatRow.session_id == session_id,
                        HandSeatRow.released.is_(None),
                    )
                    .values(released=result)
                )
            ).rowcount
            if n != 1:
                raise InvalidRecord(f"seat session {session_id} already left hand {hand_id!r}")

    async def cancel_hand(
        self,
        hand_id: str,
        *,
        reason: str,
        commands: Sequence[Any] = (),
        times: Sequence[datetime] = (),
        now: datetime | None = None,
    ) -> CancelledHand:
        """Cancel an open hand: nothing is booked (its chips never left the seat sessions) except that the
        seats that left it early get their releases back; the cancellation, the stacks and any mismatch
        of a seat still in the hand with its start record are recorded, with the ``commands`` it was
        played with (as :meth:`end_hand` takes them). Several open hands of a Rush pool are cancelled the
        newest first (see :meth:`recover`)."""
        _check_hand_id(hand_id)
        bodies = [_command_text(c) for c in commands]
        now = now or self.clock()
        async with self.db.write() as conn:
            cancelled = await self._cancel(conn, hand_id, reason, now)
            await _append_commands(conn, hand_id, bodies, now, times)
            return cancelled

    async def _cancel(self, conn: AsyncConnection, hand_id: str, reason: str, now: datetime) -> CancelledHand:
        row = (
            await conn.execute(
                update(HandRow)
                .where(HandRow.id == hand_id, HandRow.status == "open")
                .values(status="cancelled", ended_at=now)
                .returning(HandRow.table_id)
            )
        ).one_or_none()
        if row is None:
            status = (
                await conn.execute(select(HandRow.status).where(HandRow.id == hand_id))
            ).scalar_one_or_none()
            raise UnknownHand(hand_id) if status is None else HandNotOpen(hand_id, status)
        await self._unrelease(conn, hand_id, now)
        seats = (
            await conn.execute(
                select(HandSeatRow.session_id, HandSeatRow.stack, HandSeatRow.released, AccountRow.balance)
                .join(AccountRow, AccountRow.id == HandSeatRow.session_id)
                .where(HandSeatRow.hand_id == hand_id)
                .order_by(HandSeatRow.seat)
            )
        ).all()
        stacks = {int(s.session_id): int(s.balance) for s in seats}
        # Only the seats still in the hand: one that left early went on with its session (see recover).
        mismatches = tuple(
            StackMismatch(int(s.session_id), int(s.stack), int(s.balance))
            for s in seats
            if s.released is None and s.stack != s.balance
        )
        record = {
            "cancelled": reason,
            "stacks": sorted(stacks.items()),
            "mismatches": [[m.session_id, m.stack, m.balance] for m in mismatches],
        }
        await conn.execute(update(HandRow).where(HandRow.id == hand_id).values(result=canonical_json(record)))
        return CancelledHand(hand_id, row.table_id, reason, stacks, mismatches)

    async def _unrelease(self, conn: AsyncConnection, hand_id: str, now: datetime) -> None:
        """A cancelled hand gives seats that left it early their chips back (to the seat session, or to the
        player's wallet if the session was cashed out meanwhile)."""
        rows = (
            await conn.execute(
                select(
                    HandSeatRow.session_id,
                    HandSeatRow.player_id,
                    HandSeatRow.released,
                    AccountRow.currency,
                    AccountRow.closed_at,
                )
                .join(AccountRow, AccountRow.id == HandSeatRow.session_id)
                .where(
                    HandSeatRow.hand_id == hand_id,
                    HandSeatRow.released.is_not(None),
                    HandSeatRow.released != 0,
                )
            )
        ).all()
        for r in rows:
            amount = -int(r.released)
            escrow = await self.ledger.account(AccountKind.ESCROW, r.currency, ref=hand_id)
            if r.closed_at is None:
                target = int(r.session_id)
                changes = [Change(target, amount, r.currency, AccountKind.SEAT, must_be_open=True)]
            else:
                target = await self.ledger.account(AccountKind.WALLET, r.currency, owner_id=int(r.player_id))
                changes = [Change(target, amount, r.currency, AccountKind.WALLET)]
            request = {"op": "unrelease", "hand": hand_id, "session": int(r.session_id), "amount": amount}
            await self.ledger.book_in(
                conn,
                f"unrelease:{hand_id}:{r.session_id}",
                "release",
                request,
                [(target, r.currency, amount), (escrow, r.currency, -amount)],
                changes,
                now,
            )

    async def recover(
        self, now: datetime | None = None, *, tables: Callable[[str], bool] | None = None
    ) -> list[CancelledHand]:
        """Run at start-up: cancel every hand that has a start record but no end record, the newest first,
        and return them in that order. ``tables``: only the hands of the tables it accepts (a cluster's
        host taking over some tables recovers those and never another host's).

        A Rush entry that quick-folds out of hand A (its result released from its session into A's
        escrow) goes on at once: it is dealt into hand B with the rest, B may end, the entry may top up
        or leave the pool, or be released from B into hand C, all while A is still open. Two rules keep
        ``mismatches`` empty unless chips are really off (issue 28):

        - The newest first, by the journal's own order: a hand in which a session is still seated is
          cancelled before every open hand that session was released from (it was dealt into the newer
          hand after those releases), then by start time, newest first. The start times alone may tie
          (a coarse clock) or step back, and the hand ids' text order is no order (``p-t10-h`` sorts
          before ``p-t9-h``). So each seat still in a hand, when that hand is cancelled, finds its
          session at the stack the hand started with: the older hands it quick-folded out of have not
          given their releases back yet.
        - Only the seats still in the hand are compared with their start stacks. A seat that left early
          is no longer the hand's: its result was booked at the release and its session went on (a hand
          that ended, a top-up, a cash-out), so its balance now says nothing of this hand; the
          cancellation only gives the release back, a ledger transfer that ``verify`` checks. Chips moved
          on its session while it was still in the hand show at the entry's next start record
          (``start_hand`` checks the stack the pool gives against the balance)."""
        now = now or self.clock()
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(HandRow.id, HandRow.table_id)
                    .where(HandRow.status == "open")
                    .order_by(HandRow.started_at.desc(), HandRow.id.desc())
                )
            ).all()
            seats = (
                await conn.execute(
                    select(HandSeatRow.hand_id, HandSeatRow.session_id, HandSeatRow.released)
                    .join(HandRow, HandRow.id == HandSeatRow.hand_id)
                    .where(HandRow.status == "open")
                )
            ).all()
        by_start = [r.id for r in rows if tables is None or tables(r.table_id)]
        ids = _newest_first(by_start, [(s.hand_id, int(s.session_id), s.released is not None) for s in seats])
        cancelled = []
        for hand_id in ids:
            async with self.db.write() as conn:
                try:
                    cancelled.append(await self._cancel(conn, hand_id, "recovery", now))
                except HandNotOpen:
                    continue  # ended or cancelled meanwhile by someone else
        return cancelled

    async def open_hands(self, *, table_id: str | None = None) -> list[HandStart]:
        q = select(HandRow.id).where(HandRow.status == "open").order_by(HandRow.started_at, HandRow.id)
        if table_id is not None:
            q = q.where(HandRow.table_id == table_id)
        async with self.db.read() as conn:
            ids = list((await conn.execute(q)).scalars())
        return [(await self.hand(h)).start for h in ids]

    async def last_seats(self, table_id: str) -> dict[int, int]:
        """The seats of the table's newest hand: seat-session id -> seat number (a host taking a table over
        seats each player where he sat)."""
        async with self.db.read() as conn:
            newest = (
                await conn.execute(
                    select(HandRow.id)
                    .where(HandRow.table_id == table_id)
                    .order_by(HandRow.started_at.desc(), HandRow.id.desc())
                    .limit(1)
                )
            ).scalar_one_or_none()
            if newest is None:
                return {}
            rows = (
                await conn.execute(
                    select(HandSeatRow.session_id, HandSeatRow.seat).where(HandSeatRow.hand_id == newest)
                )
            ).all()
        return {int(r.session_id): int(r.seat) for r in rows}

    async def hand_count(self, table_id: str) -> int:
        """How many hands the journal holds for a table (open, ended or cancelled): a restarted server
        numbers its next hand after them, so that a hand id is never used twice."""
        q = select(func.count()).select_from(HandRow).where(HandRow.table_id == table_id)
        async with self.db.read() as conn:
            return int((await conn.execute(q)).scalar_one())

    async def hand(self, hand_id: str) -> HandRecord:
        """The journal's record of a hand (audit and replay; the deck only once revealed)."""
        async with self.db.read() as conn:
            h = (await conn.execute(select(HandRow).where(HandRow.id == hand_id))).one_or_none()
            if h is None:
                raise UnknownHand(hand_id)
            seats = (
                await conn.execute(
                    select(HandSeatRow.seat, HandSeatRow.player_id, HandSeatRow.session_id, HandSeatRow.stack)
                    .where(HandSeatRow.hand_id == hand_id)
                    .order_by(HandSeatRow.seat)
                )
            ).all()
        start = HandStart(
            h.id,
            h.table_id,
            h.game,
            h.currency,
            tuple(SeatRecord(int(s.seat), int(s.player_id), int(s.session_id), int(s.stack)) for s in seats),
            h.started_at,
            h.deck_commitment,
        )
        result = json.loads(h.result) if h.result else None
        return HandRecord(start, h.status, h.ended_at, result, h.deck, h.salt)

    async def commands(self, hand_id: str) -> list[JournalCommand]:
        async with self.db.read() as conn:
            rows = (
                await conn.execute(
                    select(HandCommandRow.seq, HandCommandRow.command, HandCommandRow.recorded_at)
                    .where(HandCommandRow.hand_id == hand_id)
                    .order_by(HandCommandRow.seq)
                )
            ).all()
        return [JournalCommand(int(r.seq), json.loads(r.command), r.recorded_at) for r in rows]

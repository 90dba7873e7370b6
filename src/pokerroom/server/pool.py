"""One actor per Rush pool: an asyncio task that owns a :class:`~pokerroom.rooms.rush.RushPool`.

Like a cash table's actor, every change goes through the inbox. Each entry is its own seat session in
the ledger (a buy-in per entry); every hand is journaled as at cash tables
(:class:`~pokerroom.server.books.HandBook`), and a quick-folded entry's result is booked at once into the
hand's escrow. The wire is :class:`~pokerroom.server.rush.RushWindows`.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from pokerroom.engine.events import HandStarted
from pokerroom.rooms import CashOut, HandEvents, HandFinished
from pokerroom.rooms.effects import EarlyExit
from pokerroom.rooms.record import FinishedHand
from pokerroom.rooms.rush import EntryLeft, EntryMoved, RushPool
from pokerroom.server.books import HandBook
from pokerroom.server.cash import fmt_amount, login_of
from pokerroom.server.connection import Connection
from pokerroom.server.core import Action
from pokerroom.server.errors import Refused
from pokerroom.server.faults import FaultTolerantActor, HandVoided
from pokerroom.server.history_glue import histories_of
from pokerroom.server.ids import player_key, store_id
from pokerroom.server.integrity.seating import check_seat
from pokerroom.server.logs import log_context
from pokerroom.server.metrics import game_of
from pokerroom.server.rush import RushWindows
from pokerroom.server.services import Services
from pokerroom.store import HandNotOpen, SeatRecord, StoreUnavailable, UnknownHand

__all__ = ["PoolActor"]

log = logging.getLogger("pokerroom.pool")


class PoolActor(FaultTolerantActor):
    kind = "rush"

    def __init__(self, services: Services, pool: RushPool) -> None:
        super().__init__(services.clock)
        self.services = services
        self.pool = pool
        self.pid = pool.pid
        # Table (and so hand) ids must stay unique across restarts of the room: start the counter at the
        # clock (milliseconds) rather than at 0.
        pool._tables_made = int(services.clock.now().timestamp() * 1000)
        self.windows = RushWindows(pool, services.players, services.seals)
        self.sessions: dict[str, int] = {}  # entry id -> seat session (ledger account) id
        self.numbers: dict[str, int] = {}  # entry id -> its number, until the entry has left the pool
        self.owners: dict[str, str] = {}  # entry id -> its player, likewise
        self.books: dict[str, HandBook] = {}  # table id -> the hand there
        # table id -> the entries dealt in there, each with its player and seat session, kept until the
        # hand's end is booked: an entry that quick-folded out of it may have left the pool meanwhile.
        self.dealt: dict[str, dict[str, tuple[str, int]]] = {}
        self.hands_played = 0
        self._last_tick: datetime | None = None
        self.closing = False  # the operator closed the pool: every entry leaves after its hand
        self.handing_over = False  # its host drains: no new hand; when none is left it moves, chips kept
        self.on_closed: Callable[[PoolActor], None] | None = None

    # ----------------------------------------------------------------------------------- running

    def task_name(self) -> str:
        return f"pool {self.pid}"

    def log_fields(self) -> dict[str, str]:
        return {"pool": self.pid}

    def next_deadline(self) -> datetime | None:
        if self.pause is not None:
            return self.pause.next_try
        deadline = self.pool.next_deadline()
        if deadline is not None and self._last_tick is not None and deadline <= self._last_tick:
            return None  # passed and handled (e.g. the grace of an entry still in its hand)
        return deadline

    async def tick(self) -> bool:
        if self.pause is not None:
            if not await self.try_resume():
                return False
            # Playing again: deal now. Entries waiting for a table have no deadline (a table's next hand
            # has one), so the loop would sleep its longest wait (mailbox.MAX_WAIT, 1 s) before dealing.
            await self.tick()
            return True
        winding_down = (self.handing_over or self.closing) and self.suspended is None and not self.broken
        if not self.pool.dealing and not winding_down:  # (winding down: no new table, the clocks run)
            return False
        try:
            self._last_tick = self.clock.now()
            out = self.pool.tick(self._last_tick)
            if out:
                await self.process(out)
            return bool(out)
        except (StoreUnavailable, HandVoided):
            return True
        except Exception as exc:
            await self.fail(exc, "the clock")
            return True

    def live_hands(self) -> list[str]:
        """The hands in progress, and those whose end is not booked yet."""
        live = {t.hand.hand_id for t in self.pool.tables.values() if not t.hand.is_over}
        return sorted(live | {b.hand.hand_id for b in self.books.values()})

    def on_suspend(self) -> None:
        self.pool.dealing = False

    async def on_unsuspend(self) -> None:
        self.pool.dealing = not self.broken and not self.closing and not self.handing_over
        await self.process(self.pool.restart_clocks(self.clock.now()))

    # ------------------------------------------------------------------------------ store faults

    async def services_ping(self) -> None:
        await self.services.store.db.ping()

    def on_pause(self) -> None:
        self.pool.dealing = False

    async def on_resume(self) -> None:
        self.pool.dealing = (
            not self.broken and not self.closing and not self.handing_over and self.suspended is None
        )
        await self.process(self.pool.restart_clocks(self.clock.now()))

    def tell_status(self, paused: bool, reason: str | None) -> None:
        frame = {"type": "table_status", "status": "paused" if paused else "playing", "reason": reason}
        for core in list(self.windows.cores.values()):
            core.broadcast(dict(frame))

    async def reconcile(self) -> None:
        """A buy-in booked while the store failed, whose answer was lost: back to the wallet."""
        ledger = self.services.store.ledger
        known = set(self.sessions.values())
        for session in await ledger.sessions(table_id=self.pid, open_only=True):
            if session.id not in known:
                await ledger.cash_out(session.id, idempotency_key=f"cashout:{session.id}")
                await self.services.players.send_balance(
                    player_key(session.player_id), self.pool.config.currency
                )

    async def void(self) -> None:
        """Every hand in progress in the pool is cancelled in the journal, the newest first (a quick fold's
        release goes back in the order it was made), and every entry waits again with its seat session's
        balance: what a restart does."""
        journal = self.services.store.journal
        for book in sorted(self.books.values(), key=lambda b: b.opened, reverse=True):
            with contextlib.suppress(UnknownHand, HandNotOpen):
                await journal.cancel_hand(
                    book.hand.hand_id, reason="voided", commands=book.commands(), times=book.stamp()
                )
            self.services.seals.done(book.hand.hand_id)  # a cancelled hand: its deck is never revealed
        self.books.clear()
        self.dealt.clear()
        self.windows.cores.clear()
        ledger = self.services.store.ledger
        for eid in [e for e in self.owners if e not in self.pool.entries]:
            # removed from the pool by the step that failed, before its cash-out was booked or it was told
            player, stack = self.owners[eid], 0
            session = self.sessions.pop(eid, None)
            if session is not None:
                stack = (await ledger.session(session)).balance
                await ledger.cash_out(session, idempotency_key=f"cashout:{session}")
                await self.services.players.send_balance(player, self.pool.config.currency)
            self.windows.left(EntryLeft(self.pid, eid, player, stack), self.numbers.get(eid, 0))
            self.numbers.pop(eid, None)
            self.owners.pop(eid, None)
        stacks = {e: (await ledger.session(sid)).balance for e, sid in self.sessions.items()}
        await self.process(self.pool.void_all(stacks, self.clock.now()))

    # ----------------------------------------------------------------------------- processing

    async def do_item(self, item: object, step: Sequence[object]) -> None:
        """The journal and the ledger first: nothing goes out before it is durable."""
        if isinstance(item, HandEvents):
            log_context(table=item.table_id, hand=item.hand_id)
            finished = next(
                (
                    n.record
                    for n in step
                    if isinstance(n, HandFinished) and n.record.table_id == item.table_id
                ),
                None,
            )
            seated = {n.seat: n.entry for n in step if isinstance(n, EntryMoved) and n.table == item.table_id}
            await self._journal(item, finished, seated)
        elif isinstance(item, EarlyExit):
            book = self.books.get(item.table)
            if book is not None:
                await book.release(self._dealt(item.table, item.entry)[1], item.result)
            self.windows.left_hand(item.table, item.entry)
        elif isinstance(item, HandFinished):
            await self._finish(item.record)
        elif isinstance(item, CashOut):
            session = self.sessions.get(item.entry)
            if session is not None:
                await self.services.store.ledger.cash_out(session, idempotency_key=f"cashout:{session}")
                del self.sessions[item.entry]
                await self.services.players.send_balance(item.player, self.pool.config.currency)
        # TopUp: booked before the pool applies it
        self.windows.process([item], self.clock.now(), self.numbers, list(step))
        if isinstance(item, EntryLeft):
            self.numbers.pop(item.entry, None)
            self.owners.pop(item.entry, None)

    async def after_step(self, step: Sequence[object]) -> None:
        """A busted entry leaves the pool (its player may join again with a new buy-in); a closing pool
        closes when its last entry has left."""
        busted = [e.entry_id for e in self.pool.entries.values() if e.state == "busted"]
        for eid in busted:
            e = self.pool.entries.get(eid)
            if e is not None and e.state == "busted":  # (an inner round may have removed it already)
                await self.process(self.pool.leave(eid, self.clock.now()))
        await self._close_if_done()

    async def restore(self, entries: Sequence[tuple[int, int, int, str]]) -> None:
        """Entries whose chips are in the pool (a host took it over: docs/cluster.md): (seat session,
        player id, balance, name). Each waits for its next table; one with no chips is cashed out."""
        ledger = self.services.store.ledger
        for session_id, player_id, balance, name in entries:
            player = player_key(player_id)
            if balance <= 0 or len(self.pool.entries_of(player)) >= self.pool.config.max_entries:
                await ledger.cash_out(session_id, idempotency_key=f"cashout:{session_id}")
                continue
            out = self.pool.restore(player, name, balance, self.clock.now())
            e = next(e for e in self.pool.entries_of(player) if e.entry_id not in self.sessions)
            self.sessions[e.entry_id] = session_id
            self.numbers[e.entry_id] = e.number
            self.owners[e.entry_id] = player
            await self.process(out)
            if not self.services.players.connected(player):
                self.pool.disconnect(player, self.clock.now())

    async def close(self) -> None:
        """Close the pool (the operator removed it): no new table; every entry leaves (at once if it
        waits, after its hand if it plays) with its stack back to the wallet; then the room forgets it."""
        self.closing = True
        self.pool.dealing = False
        for e in list(self.pool.entries.values()):
            if e.entry_id in self.pool.entries:
                await self.process(self.pool.leave(e.entry_id, self.clock.now()))
        await self._close_if_done()

    async def hand_over(self) -> None:
        """Stop dealing; when the hands in progress are over, the pool moves to another host (a cluster's
        host draining: docs/cluster.md), every entry with its chips in its seat session."""
        self.handing_over = True
        self.pool.dealing = False
        await self._close_if_done()

    async def _close_if_done(self) -> None:
        if self.handing_over and not self.pool.tables and not self.books and self.on_closed is not None:
            callback, self.on_closed = self.on_closed, None
            callback(self)
            return
        if self.closing and not self.pool.entries and not self.pool.tables and self.on_closed is not None:
            callback, self.on_closed = self.on_closed, None
            callback(self)

    async def _journal(self, item: HandEvents, record: FinishedHand | None, entries: dict[int, str]) -> None:
        tid = item.table_id
        if any(isinstance(e, HandStarted) for e in item.events) and not (
            tid in self.books and self.books[tid].started
        ):
            t = self.pool.tables.get(tid)
            hand = t.hand if t is not None else (record.hand if record is not None else None)
            if hand is None:
                return
            opened = self.books.get(tid)
            if opened is None:  # (the same book when this is done again after a store fault)
                seal = self.services.seals.of(hand)
                opened = self.books[tid] = HandBook(
                    self.services.store.journal, hand, self.services.metrics, seal
                )
            dealt = self.dealt.setdefault(
                tid, {eid: (self.owners[eid], self.sessions[eid]) for eid in entries.values()}
            )
            seats = [
                SeatRecord(seat, store_id(dealt[eid][0]), dealt[eid][1], p.starting_stack)
                for seat, p in hand.players.items()
                for eid in (entries[seat],)
            ]
            cfg = self.pool.config  # (the rake report groups Rush hands by pool, at the stakes of the hand)
            sb, bb = (fmt_amount(x, cfg.currency) for x in (cfg.stakes.small_blind, cfg.stakes.big_blind))
            label = f"{sb}/{bb}"
            await opened.open(table_id=tid, currency=cfg.currency, seats=seats, stakes=label, pool=self.pid)
        book = self.books.get(tid)
        if book is not None:
            book.stamp()  # (the time each command was played, written with the end record)

    async def _finish(self, record: FinishedHand) -> None:
        # The book leaves only once its end record is written: a store fault makes this step run again
        # when the store is back, and it must find the book then (or the settlement would be skipped).
        book = self.books.get(record.table_id)
        seals = self.services.seals
        seal = seals.get(record.hand_id)
        record = replace(record, proof=seal.proof() if seal is not None else None)
        s = record.settlement
        tid = record.table_id
        points: dict[int, int] = {}
        for eid, v in s.points.items():  # (a quick-folded entry earns its share, though it left since)
            pid = store_id(self._dealt(tid, eid)[0])
            points[pid] = points.get(pid, 0) + v
        if book is not None:
            await book.close(
                deltas={self._dealt(tid, e)[1]: d for e, d in s.results.items()},
                rake=s.rake,
                points=points,
                history=histories_of(record),
            )
            if self.books.get(tid) is book:
                del self.books[tid]
        self.dealt.pop(tid, None)
        self.hand_finished()
        seals.reveal(
            record.hand_id, record.table_id, record.players, record.hand.events, self.services.players.notify
        )
        self.hands_played += 1
        if self.services.metrics is not None:
            self.services.metrics.hand(self.kind, game_of(record.hand))
        self.services.last_hands.add(record)

    def _dealt(self, table_id: str, entry: str) -> tuple[str, int]:
        """The player and seat session of an entry dealt in at ``table_id`` (it may have left the pool
        since it quick-folded out of that hand)."""
        dealt = self.dealt.get(table_id, {}).get(entry)
        return dealt if dealt is not None else (self.owners[entry], self.sessions[entry])

    # ---------------------------------------------------------------------- client requests

    async def join(self, conn: Connection, entries: int, buy_in: int) -> list[int]:
        """New entries, each with its own buy-in from the wallet (booked before the pool takes it)."""
        player = login_of(conn)
        self.check_dealing()
        have = len(self.pool.entries_of(player))
        if have + entries > self.pool.config.max_entries:
            raise Refused(
                "too_many_entries",
                f"at most {self.pool.config.max_entries} entries per player in a pool",
                maximum=self.pool.config.max_entries,
            )
        others = {e.player for e in self.pool.entries.values()}
        await check_seat(self.services.seat_rule, self.services.store, player, others, "pool")
        await self.services.store.gaming.check_stake(  # limits, cool-off, self-exclusion (issue 29)
            store_id(player), self.pool.config.currency, buy_in * entries, what="Rush entry"
        )
        self.pool.connect(player)
        numbers = []
        for _ in range(entries):
            self.pool.check_join(player, buy_in)
            booked = await self.services.store.ledger.buy_in(
                store_id(player),
                self.pid,
                self.pool.config.currency,
                buy_in,
                idempotency_key=f"buyin:{self.pid}:{player}:{secrets.token_hex(8)}",
            )
            out = self.pool.join(player, conn.name, buy_in, self.clock.now())
            e = next(e for e in self.pool.entries_of(player) if e.entry_id not in self.sessions)
            self.sessions[e.entry_id] = booked.session_id
            self.numbers[e.entry_id] = e.number
            self.owners[e.entry_id] = player
            numbers.append(e.number)
            await self.process(out)
        await self.services.players.send_balance(player, self.pool.config.currency)
        return numbers

    async def leave(self, conn: Connection, entry: int | None) -> None:
        player = login_of(conn)
        self.check_open()
        entries = self.pool.entries_of(player) if entry is None else [self.windows.entry(player, entry)]
        for e in entries:
            if e.entry_id in self.pool.entries:
                await self.process(self.pool.leave(e.entry_id, self.clock.now()))

    async def quick_fold(self, conn: Connection, entry: int) -> None:
        player = login_of(conn)
        self.check_open()
        e = self.windows.entry(player, entry)
        await self.process(self.pool.quick_fold(e.entry_id, self.clock.now()))

    async def act(self, conn: Connection, entry: int, hand_id: str, action_no: int, action: Action) -> bool:
        player = login_of(conn)
        w = self.windows
        e = w.entry_of(player, entry)
        eid, table = (e.entry_id, e.table or "") if e is not None else ("", "")  # (accept refuses no entry)
        return await self.play(
            lambda: w.accept(player, entry, hand_id, action_no, action),
            lambda command: self.pool.act(eid, command, self.clock.now()),
            lambda number: w.applied(table, hand_id, number, player, action),
        )

    @property
    def owner(self) -> PoolActor:
        """(A cash pool is its own endpoint: server/endpoints.py.)"""
        return self

    def owns_table(self, table: str) -> bool:
        return self.windows.owns_table(table)

    def connect(self, conn: Connection) -> None:
        if conn.player is not None:
            self.pool.connect(conn.player)
            self.windows.resync(conn, self.clock.now())

    def disconnect(self, player: str) -> None:
        if self.pool.entries_of(player):
            self.pool.disconnect(player, self.clock.now())

    # ---------------------------------------------------------------------------------- lobby

    def summary(self) -> dict[str, Any]:
        cfg = self.pool.config
        st = cfg.stakes
        lo, hi = cfg.buy_in_range
        players = {e.player for e in self.pool.entries.values()}
        unit = "" if cfg.currency == "PLAY" else "."
        label = (
            f"{st.small_blind:,}/{st.big_blind:,}"
            if not unit
            else f"{st.small_blind / 100:,.2f}/{st.big_blind / 100:,.2f}"
        )
        return {
            "pool": self.pid,
            "name": cfg.name,
            "variant": cfg.variant,
            "variant_name": cfg.spec.name,
            "betting": cfg.betting.value,
            "currency": cfg.currency,
            "table_size": self.pool.table_size,
            "players": len(players),
            "entries": self.pool.size,
            "max_entries": cfg.max_entries,
            "stakes": {"small_blind": st.small_blind, "big_blind": st.big_blind},
            "stakes_label": label,
            "buy_in": {"min": lo, "max": hi},
            "hands": self.hands_played,
            "tables": len(self.pool.tables),
            "state": self.state,
            "suspended": self.suspended,
        }

"""One actor per Rush pool: an asyncio task that owns a :class:`~pokerroom.rooms.rush.RushPool`.

Like a table actor, every change goes through the inbox. Each entry is its own seat session in the
ledger (a buy-in per entry) and its own "window" on the wire: frames carry the pool id and the entry
number (1-4), and the short-lived table the entry plays at. Hands are journaled as at cash tables; a
quick-folded entry's result is booked at once into the hand's escrow (``journal.release_seat``). Nobody
observes a Rush table (R212).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson

from pokerroom.engine import (
    BetDecision,
    Command,
    DiscardDecision,
    Fold,
    HandState,
    QuickFold,
    command_from_dict,
)
from pokerroom.engine.events import HandStarted
from pokerroom.rooms import CashOut, HandEvents, HandFinished, TopUp, TurnClock
from pokerroom.rooms.effects import EarlyExit
from pokerroom.rooms.record import FinishedHand
from pokerroom.rooms.rush import EntryLeft, EntryMoved, EntryWaiting, RushPool
from pokerroom.server.actor import ActionRefused
from pokerroom.server.history_glue import histories_of
from pokerroom.server.mailbox import Mailbox
from pokerroom.store import SeatRecord, deck_commitment

if TYPE_CHECKING:
    from pokerroom.server.room import Room
    from pokerroom.server.tournament import TournamentActor

__all__ = ["PoolActor", "entry_number"]

log = logging.getLogger("pokerroom.pool")


def _now() -> datetime:
    return datetime.now(UTC)


def entry_number(entry_id: str) -> int:
    """``"7#2"`` -> 2: the entry's number among its player's entries (what the wire calls ``entry``)."""
    return int(entry_id.rsplit("#", 1)[1])


def _player_of(entry_id: str) -> str:
    return entry_id.rsplit("#", 1)[0]


@dataclass(slots=True)
class _Open:
    """A hand in progress at one short-lived table, as the journal and the clients know it."""

    hand: HandState
    names: dict[int, tuple[str, str]]
    salt: str
    deck_text: str
    recipients: dict[int, str]  # seat -> entry id still at the table (an entry that left gets no more)
    journaled: int = 0
    seq: dict[str, int] = field(default_factory=dict)


class PoolActor(Mailbox):
    def __init__(self, room: Room, pool: RushPool, tournament: TournamentActor | None = None) -> None:
        super().__init__()
        self.room = room
        self.pool = pool
        # A Rush tournament's pool: tournament chips (nothing booked or journaled), play routed through
        # the tournament's director, no loop of its own (the tournament's clock drives the pool).
        self.tournament = tournament
        self.pid = pool.pid
        # Table (and so hand) ids must stay unique across restarts of the room: start the counter at the
        # clock (milliseconds) rather than at 0.
        pool._tables_made = int(time.time() * 1000)
        self.sessions: dict[str, int] = {}  # entry id -> seat session (ledger account) id
        self.open: dict[str, _Open] = {}  # table id -> the hand there
        self.hands_played = 0
        self._applied: dict[tuple[str, str, int], bool] = {}
        self._sink: list[tuple[str, dict[str, Any]]] | None = None

    # ----------------------------------------------------------------------------------- running

    def task_name(self) -> str:
        return f"pool {self.pid}"

    async def call(self, job: Callable[[], Awaitable[Any]]) -> Any:
        if self.tournament is not None:  # a Rush tournament's pool runs inside its tournament
            return await self.tournament.call(job)
        return await super().call(job)

    async def _run(self) -> None:
        last_tick = _now()
        while True:
            deadline = self.pool.next_deadline()
            if deadline is not None and deadline <= last_tick:
                deadline = None  # passed and handled (e.g. the grace of an entry still in its hand)
            timeout = 1.0 if deadline is None else min(1.0, max(0.0, (deadline - _now()).total_seconds()))
            await self.serve_one(timeout)
            if not self.pool.dealing:
                continue
            try:
                last_tick = _now()
                out = self.pool.tick(last_tick)
                if out:
                    await self.process(out)
            except Exception:
                self.halt("tick failed")

    def halt(self, why: str) -> None:
        """Stop dealing when the pool and the store could drift apart (a restart recovers)."""
        if self.pool.dealing:
            log.exception("pool %s halted: %s", self.pid, why)
        self.pool.dealing = False

    def owns_table(self, table: str) -> bool:
        return table.startswith(f"{self.pid}-t")

    # ----------------------------------------------------------------------------- sending

    def _send(self, player: str, message: dict[str, Any]) -> None:
        if self._sink is not None:  # a resync collects the frames instead
            self._sink.append((player, message))
            return
        self.room.notify_player(player, orjson.dumps(message).decode())

    def _send_entry(self, entry: str, message: dict[str, Any]) -> None:
        message["pool"] = self.pid
        message["entry"] = entry_number(entry)
        self._send(_player_of(entry), message)

    def _next_seq(self, o: _Open, entry: str) -> int:
        o.seq[entry] = o.seq.get(entry, 0) + 1
        return o.seq[entry]

    # ----------------------------------------------------------------------------- processing

    async def process(self, out: list[object]) -> None:
        try:
            await self._process(out)
        except Exception:
            self.halt("booking or journaling failed")
            raise

    async def _process(self, out: list[object]) -> None:
        finished = {n.record.table_id: n.record for n in out if isinstance(n, HandFinished)}
        seated: dict[str, dict[int, str]] = {}  # hand id -> seat -> entry, for the hands dealt now
        for n in out:
            if isinstance(n, EntryMoved):
                seated.setdefault(n.hand_id, {})[n.seat] = n.entry
        for item in out:
            if isinstance(item, HandEvents):
                await self._events(item, finished.get(item.table_id), seated.get(item.hand_id, {}))
            elif isinstance(item, EntryMoved):
                self._moved(item, finished)
            elif isinstance(item, TurnClock):
                self._turn(item)
            elif isinstance(item, EarlyExit):
                await self._release(item)
            elif isinstance(item, HandFinished):
                await self._finish(item.record)
            elif isinstance(item, EntryWaiting):
                e = self.pool.entries.get(item.entry)
                stack = e.stack if e is not None else 0
                self._send_entry(item.entry, {"type": "pool_entry", "status": "waiting", "stack": stack})
            elif isinstance(item, CashOut):
                session = self.sessions.get(item.entry)
                if session is not None:
                    await self.room.store.ledger.cash_out(session, idempotency_key=f"cashout:{session}")
                    del self.sessions[item.entry]
                    await self.room.send_balance(item.player, self.pool.config.currency)
            elif isinstance(item, EntryLeft):
                self._send_entry(item.entry, {"type": "pool_entry", "status": "left", "stack": item.stack})
            elif isinstance(item, TopUp):
                pass  # booked before the pool applies it
        if self.tournament is not None:
            return  # the director eliminates players out of chips
        # A busted entry leaves the pool (its player may join again with a new buy-in).
        busted = [e.entry_id for e in self.pool.entries.values() if e.state == "busted"]
        for eid in busted:
            e = self.pool.entries.get(eid)
            if e is not None and e.state == "busted":  # (an inner round may have removed it already)
                await self._process(self.pool.leave(eid, _now()))

    def _moved(self, item: EntryMoved, finished: dict[str, FinishedHand]) -> None:
        tid = item.hand_id.removesuffix("-h")
        for other_tid, other in self.open.items():  # a moved entry gets nothing more of an older hand
            if other_tid != tid:
                for seat in [s for s, e in other.recipients.items() if e == item.entry]:
                    del other.recipients[seat]
        t = self.pool.tables.get(tid)
        names = t.names if t is not None else (finished[tid].players if tid in finished else {})
        hand = t.hand if t is not None else (finished[tid].hand if tid in finished else None)
        st = self.pool.stakes
        self._send_entry(
            item.entry,
            {
                "type": "pool_move",
                "table": tid,
                "hand_id": item.hand_id,
                "seat": item.seat,
                "seats": self.pool.table_size,
                "players": {str(s): {"name": n} for s, (_, n) in names.items()},
                "button": hand.button if hand is not None else None,
                "stacks": {str(s): p.starting_stack for s, p in hand.players.items()} if hand else {},
                "stakes": {"small_blind": st.small_blind, "big_blind": st.big_blind},
                "quick_fold": self.pool.quick_fold_offered(),
            },
        )

    async def _events(self, item: HandEvents, record: FinishedHand | None, seated: dict[int, str]) -> None:
        tid = item.table_id
        o = self.open.get(tid)
        if o is None and any(isinstance(e, HandStarted) for e in item.events):
            t = self.pool.tables.get(tid)
            hand = t.hand if t is not None else (record.hand if record is not None else None)
            if hand is None:
                return
            names = dict(t.names) if t is not None else dict(record.players) if record else {}
            o = await self._journal_start(tid, hand, seated, names)
        if o is None:
            return
        await self._journal_commands(o)
        for event in item.events:
            for seat, eid in list(o.recipients.items()):
                view = event.view_for(seat, seat in item.dealt_in)
                if view is None:
                    continue
                msg = {
                    "type": "pool_event",
                    "table": tid,
                    "seq": self._next_seq(o, eid),
                    "hand_id": o.hand.hand_id,
                    "event": view.to_dict(),
                }
                self._send_entry(eid, msg)

    async def _journal_start(
        self, tid: str, hand: HandState, entries: dict[int, str], names: dict[int, tuple[str, str]]
    ) -> _Open:
        salt = secrets.token_hex(16)
        deck_text = orjson.dumps(hand.deck_data(), option=orjson.OPT_SORT_KEYS).decode()
        o = _Open(hand, names, salt, deck_text, dict(entries))
        self.open[tid] = o
        if self.tournament is not None:
            return o
        seats = [
            SeatRecord(seat, int(_player_of(entries[seat])), self.sessions[entries[seat]], p.starting_stack)
            for seat, p in hand.players.items()
        ]
        await self.room.store.journal.start_hand(
            hand.hand_id,
            table_id=tid,
            game=f"{hand.variant.code}/{hand.structure.betting.value}",
            currency=self.pool.config.currency,
            seats=seats,
            deck_commitment=deck_commitment(deck_text, salt),
        )
        return o

    async def _journal_commands(self, o: _Open) -> None:
        if self.tournament is not None:
            return
        journal = self.room.store.journal
        while o.journaled < len(o.hand.commands):
            command = o.hand.commands[o.journaled]
            await journal.record_command(o.hand.hand_id, o.journaled + 1, command.to_dict())
            o.journaled += 1

    @staticmethod
    def _turn_frame(o: _Open, clock: TurnClock) -> dict[str, Any]:
        now = _now()
        return {
            "type": "pool_turn",
            "table": clock.table_id,
            "hand_id": o.hand.hand_id,
            "action_no": len(o.hand.commands),
            "seat": clock.seat,
            "action_left": max(0.0, (clock.action_deadline - now).total_seconds()),
            "bank_left": (clock.bank_deadline - clock.action_deadline).total_seconds(),
        }

    @staticmethod
    def _decision(hand: HandState, seat: int) -> dict[str, Any] | None:
        pending = hand.pending
        mine = (isinstance(pending, BetDecision) and pending.seat == seat) or (
            isinstance(pending, DiscardDecision) and seat in pending.seats
        )
        return pending.to_dict() if mine else None

    def _turn(self, clock: TurnClock) -> None:
        o = self.open.get(clock.table_id)
        if o is None or o.hand.is_over:
            return
        base = self._turn_frame(o, clock)
        for seat, eid in o.recipients.items():
            msg = dict(base, seq=self._next_seq(o, eid), can_quick_fold=self.pool.can_quick_fold(eid))
            if seat == clock.seat:
                msg["decision"] = self._decision(o.hand, seat)
            self._send_entry(eid, msg)

    async def _release(self, item: EarlyExit) -> None:
        session = self.sessions[item.entry]
        await self.room.store.journal.release_seat(item.hand_id, session, item.result)
        tid = item.hand_id.removesuffix("-h")
        o = self.open.get(tid)
        if o is not None:
            await self._journal_commands(o)
            for seat, eid in list(o.recipients.items()):
                if eid == item.entry:
                    del o.recipients[seat]

    async def _finish(self, record: FinishedHand) -> None:
        o = self.open.pop(record.table_id, None)
        if self.tournament is not None:
            self.hands_played += 1
            self.room.last_hands.add(record)
            return
        if o is not None:
            await self._journal_commands(o)
        s = record.settlement
        deltas = {self.sessions[e]: d for e, d in s.results.items()}
        points: dict[int, int] = {}
        for e, v in s.points.items():
            points[int(_player_of(e))] = points.get(int(_player_of(e)), 0) + v
        await self.room.store.journal.end_hand(
            record.hand_id,
            deck_text=o.deck_text if o is not None else "",
            salt=o.salt if o is not None else "",
            deltas=deltas,
            rake=s.rake,
            points=points,
            history=histories_of(record),
        )
        self.hands_played += 1
        self.room.last_hands.add(record)

    # ---------------------------------------------------------------------- client requests

    def _player(self, conn: Any) -> str:
        if conn.player is None:
            raise ActionRefused("login_required", "log in first")
        return str(conn.player)

    def _entry_id(self, player: str, entry: int) -> str:
        eid = f"{player}#{entry}"
        if eid not in self.pool.entries:
            raise ActionRefused("unknown_entry", "you have no such entry in this pool")
        return eid

    async def join(self, conn: Any, entries: int, buy_in: int) -> list[int]:
        """New entries, each with its own buy-in from the wallet (booked before the pool takes it)."""
        player = self._player(conn)
        if self.tournament is not None:
            raise ActionRefused("tournament_pool", "register for the tournament to play")
        have = len(self.pool.entries_of(player))
        if have + entries > self.pool.config.max_entries:
            raise ActionRefused(
                "too_many_entries", f"at most {self.pool.config.max_entries} entries per player in a pool"
            )
        self.pool.connect(player)
        numbers = []
        for _ in range(entries):
            self.pool.check_join(player, buy_in)
            booked = await self.room.store.ledger.buy_in(
                int(player),
                self.pid,
                self.pool.config.currency,
                buy_in,
                idempotency_key=f"buyin:{self.pid}:{player}:{secrets.token_hex(8)}",
            )
            out = self.pool.join(player, conn.name, buy_in, _now())
            eid = next(e.entry_id for e in self.pool.entries_of(player) if e.entry_id not in self.sessions)
            self.sessions[eid] = booked.session_id
            numbers.append(entry_number(eid))
            await self.process(out)
        await self.room.send_balance(player, self.pool.config.currency)
        return numbers

    async def leave(self, conn: Any, entry: int | None) -> None:
        player = self._player(conn)
        if self.tournament is not None:
            raise ActionRefused("tournament_pool", "a tournament is played to the end")
        eids = (
            [e.entry_id for e in self.pool.entries_of(player)]
            if entry is None
            else [self._entry_id(player, entry)]
        )
        for eid in eids:
            if eid in self.pool.entries:
                await self.process(self.pool.leave(eid, _now()))

    async def quick_fold(self, conn: Any, entry: int) -> None:
        player = self._player(conn)
        eid = self._entry_id(player, entry)
        if not self.pool.can_quick_fold(eid):
            raise ActionRefused("quick_fold_refused", "Quick Fold is not possible now")
        if self.tournament is not None:
            t = self.tournament
            await t.process(t.director.quick_fold(player, _now()))  # type: ignore[attr-defined]
            return
        await self.process(self.pool.quick_fold(eid, _now()))

    async def act(self, conn: Any, entry: int, hand_id: str, action_no: int, action: dict[str, Any]) -> bool:
        player = self._player(conn)
        eid = f"{player}#{entry}"
        key = (eid, hand_id, action_no)
        e = self.pool.entries.get(eid)
        t = self.pool.tables.get(e.table) if e is not None and e.table is not None else None
        if t is None or t.hand.hand_id != hand_id or e is None or e.seat is None:
            if key in self._applied:
                return True
            raise ActionRefused("stale_hand", "that hand is over for this entry")
        current = len(t.hand.commands)
        if action_no < current and all(isinstance(c, QuickFold) for c in t.hand.commands[action_no:]):
            action_no = current  # other seats quick-folded meanwhile: the decision is still the same one
        if action_no != current:
            if key in self._applied:
                return True
            code = "stale_action" if action_no < current else "bad_action_no"
            raise ActionRefused(code, f"the next action number is {current}")
        command = self._command(e.seat, action)
        if self.tournament is not None:
            out = self.tournament.director.act(player, command, _now())
        else:
            out = self.pool.act(eid, command, _now())
        self._applied[key] = True
        if len(self._applied) > 10_000:
            self._applied.clear()
        if self.tournament is not None:
            await self.tournament.process(out)
        else:
            await self.process(out)
        return False

    @staticmethod
    def _command(seat: int, action: dict[str, Any]) -> Command:
        data: dict[str, Any] = {"type": action["type"], "seat": seat}
        if action.get("amount") is not None:
            data["amount"] = action["amount"]
        if action.get("cards") is not None:
            data["cards"] = action["cards"]
        if data["type"] in ("draw", "discard") and "cards" not in data:
            data["cards"] = []
        command = command_from_dict(data)
        return Fold(seat) if isinstance(command, Fold) else command

    def connect(self, player: str) -> None:
        self.pool.connect(player)

    def resync(self, conn: Any) -> None:
        """A (re)connecting player's windows: each entry in a hand gets its table (``pool_move``), the
        hand so far as its seat may see it (``pool_event``), and its decision if one is pending."""
        for e in self.pool.entries_of(conn.player):
            o = self.open.get(e.table or "")
            if o is None or e.seat is None or e.seat not in o.recipients:
                continue
            t = self.pool.tables.get(e.table or "")
            if t is None:
                continue
            frames: list[tuple[str, dict[str, Any]]] = []
            self._sink = frames
            try:
                self._moved(EntryMoved(self.pid, e.entry_id, e.player, e.seat, o.hand.hand_id), {})
                for event in o.hand.events:
                    view = event.view_for(e.seat, True)
                    if view is not None:
                        msg: dict[str, Any] = {"type": "pool_event", "table": t.table_id}
                        msg["hand_id"] = o.hand.hand_id
                        msg.update(seq=self._next_seq(o, e.entry_id), event=view.to_dict())
                        self._send_entry(e.entry_id, msg)
                for seat, clock in t.clocks.items():  # the decisions pending now, as in _turn
                    now = _now()
                    turn = self._turn_frame(
                        o, TurnClock(t.table_id, seat, now, clock.action_deadline, clock.bank_deadline)
                    )
                    turn.update(
                        seq=self._next_seq(o, e.entry_id), can_quick_fold=self.pool.can_quick_fold(e.entry_id)
                    )
                    if seat == e.seat:
                        turn["decision"] = self._decision(o.hand, seat)
                    self._send_entry(e.entry_id, turn)
            finally:
                self._sink = None
            for player, m in frames:
                if player == conn.player and m.get("entry") == entry_number(e.entry_id):
                    conn.send(orjson.dumps(m).decode())

    def disconnect(self, player: str) -> None:
        if self.pool.entries_of(player):
            self.pool.disconnect(player, _now())

    def entries_view(self, player: str) -> list[dict[str, Any]]:
        return [
            {
                "entry": entry_number(e.entry_id),
                "status": e.state,
                "stack": e.stack,
                "table": e.table,
                "seat": e.seat,
            }
            for e in self.pool.entries_of(player)
        ]

    # ---------------------------------------------------------------------------------- lobby

    def summary(self) -> dict[str, Any]:
        cfg = self.pool.config
        st = cfg.stakes
        lo, hi = cfg.buy_in_range
        players = {e.player for e in self.pool.entries.values()}
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
            "stakes_label": f"{st.small_blind:,}/{st.big_blind:,}"
            if cfg.currency == "PLAY"
            else f"{st.small_blind / 100:,.2f}/{st.big_blind / 100:,.2f}",
            "buy_in": {"min": lo, "max": hi},
            "hands": self.hands_played,
            "tables": len(self.pool.tables),
        }


async def pool_request(room: Room, conn: Any, msg: Any) -> None:
    """Route a pool message of the WebSocket protocol to its pool's actor (``ws.py`` calls this)."""
    from pokerroom.server import protocol as p

    actor = room.pools.get(msg.pool) or room.tournament_pool(msg.pool)
    if actor is None:
        raise ActionRefused("unknown_pool", "no such pool")
    ref = getattr(msg, "ref", None)
    if isinstance(msg, p.PoolJoin):
        numbers = await actor.call(lambda: actor.join(conn, msg.entries, msg.buy_in))
        conn.send(
            orjson.dumps({"type": "pool_joined", "pool": actor.pid, "entries": numbers, "ref": ref}).decode()
        )
        return
    if isinstance(msg, p.PoolLeave):
        await actor.call(lambda: actor.leave(conn, msg.entry))
        dup = False
    elif isinstance(msg, p.QuickFold):
        await actor.call(lambda: actor.quick_fold(conn, msg.entry))
        dup = False
    else:
        action = msg.action.model_dump(exclude_none=True)
        dup = await actor.call(lambda: actor.act(conn, msg.entry, msg.hand_id, msg.action_no, action))
    conn.send(orjson.dumps({"type": "ack", "ref": ref, "duplicate": bool(dup)}).decode())

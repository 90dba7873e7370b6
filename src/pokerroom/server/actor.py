"""One actor per table: an asyncio task that owns a :class:`~pokerroom.rooms.CashTable` and its hand.

Every change to the table goes through the actor's inbox, so nothing else mutates it and no lock is
needed (ARCHITECTURE.md). The actor books money effects in the ledger, writes the hand journal as the
hand goes, projects events per viewer and broadcasts them with a per-table sequence number.
"""

from __future__ import annotations

import asyncio
import html
import logging
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson

from pokerroom.engine import Command, DiscardDecision, HandState, command_from_dict
from pokerroom.engine.events import HandStarted, PotAwarded
from pokerroom.rooms import (
    BuyIn,
    CashOut,
    CashTable,
    HandEvents,
    HandFinished,
    HandSettlement,
    OfferExpired,
    Output,
    PostPrompt,
    SeatChanged,
    SeatOffer,
    TopUp,
    TurnClock,
)
from pokerroom.rooms.view import table_view
from pokerroom.server.connection import Connection
from pokerroom.server.history_glue import histories_of
from pokerroom.server.mailbox import Mailbox
from pokerroom.store import SeatRecord, StoreError, deck_commitment

if TYPE_CHECKING:
    from pokerroom.server.room import Room

__all__ = ["ActionRefused", "TableActor", "stakes_label"]

log = logging.getLogger("pokerroom.table")

IDLE_TICK = 0.1  # seconds: the shortest wait after a tick that had nothing to do


class ActionRefused(Exception):
    """A client request the table refuses; ``code`` is stable and goes on the wire."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _now() -> datetime:
    return datetime.now(UTC)


def _fmt(amount: int, currency: str) -> str:
    return f"{amount:,}" if currency == "PLAY" else f"{amount / 100:,.2f}"


class TableActor(Mailbox):
    def __init__(self, room: Room, table: CashTable) -> None:
        super().__init__()
        self.room = room
        self.table = table
        self.tid = table.config.table_id
        self.subscribers: dict[Connection, None] = {}
        self.seq = 0
        self.sessions: dict[str, int] = {}  # player id -> seat session (ledger account) id
        self._hand: HandState | None = None
        self._salt = ""
        self._deck_text = ""
        self._journaled = 0
        self._applied: dict[int, tuple[str, dict[str, Any]]] = {}
        self.hands_played = 0

    # ----------------------------------------------------------------------------------- running

    def task_name(self) -> str:
        return f"table {self.tid}"

    async def _run(self) -> None:
        idle = False  # the last tick had nothing to do
        while True:
            deadline = self.table.next_deadline()
            timeout = 1.0 if deadline is None else min(1.0, max(0.0, (deadline - _now()).total_seconds()))
            if idle:  # a deadline that is due but changes nothing (say, a next hand with one player
                timeout = max(timeout, IDLE_TICK)  # seated) must not spin the event loop
            ran = await self.serve_one(timeout)
            try:
                out = self.table.tick(_now())
                idle = not out and not ran
                if out:
                    await self.process(out)
            except Exception:
                self.halt("tick failed")

    def halt(self, why: str) -> None:
        """Something failed between the table and the store: stop dealing so that the two cannot drift
        apart. The ledger stays the truth; a restart cancels the open hand and returns every stack."""
        if not self.table.halted:
            log.exception("table %s halted: %s", self.tid, why)
        self.table.halted = True

    # ---------------------------------------------------------------------------- broadcasting

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def broadcast(self, message: dict[str, Any]) -> None:
        message["seq"] = self._next_seq()
        text = orjson.dumps(message).decode()
        for conn in self.subscribers:
            conn.send(text)

    def send_to(self, player: str, message: dict[str, Any]) -> None:
        text = orjson.dumps(message).decode()
        for conn in self.subscribers:
            if conn.player == player:
                conn.send(text)
        self.room.notify_player(player, text, exclude=self.subscribers)

    def _broadcast_events(self, item: HandEvents) -> None:
        seats = {p.player: s for s, p in self.table.seats.items() if s in item.dealt_in}
        viewers = [
            (conn, seats.get(conn.player) if conn.player is not None else None) for conn in self.subscribers
        ]
        for event in item.events:
            seq = self._next_seq()
            public = event.public_view()
            cache: dict[int, str] = {}
            full_text = ""
            for conn, seat in viewers:  # each text is encoded once, for every viewer who may see it
                if event.visible_to(seat, seat is not None):
                    if not full_text:
                        full_text = self._event_text(item.hand_id, seq, event.to_dict())
                    conn.send(full_text)
                elif public is not None:
                    if 0 not in cache:
                        cache[0] = self._event_text(item.hand_id, seq, public.to_dict())
                    conn.send(cache[0])

    def _event_text(self, hand_id: str, seq: int, event: dict[str, Any]) -> str:
        msg = {"type": "event", "table": self.tid, "seq": seq, "hand_id": hand_id, "event": event}
        return orjson.dumps(msg).decode()

    def snapshot(self, conn: Connection) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "table": self.tid,
            "seq": self.seq,
            "state": table_view(self.table, conn.player, _now()),
        }

    # ----------------------------------------------------------------------------- processing

    async def process(self, out: Output) -> None:
        try:
            await self._process(out)
        except Exception:
            self.halt("booking or journaling failed")
            raise

    async def _process(self, out: Output) -> None:
        finished = next((n.record for n in out if isinstance(n, HandFinished)), None)
        for item in out:
            if isinstance(item, HandEvents):
                hand = self.table.hand or (finished.hand if finished is not None else None)
                if hand is not None:
                    if any(isinstance(e, HandStarted) for e in item.events):
                        players = (
                            dict(finished.players) if finished is not None else self.table.hand_players()
                        )
                        await self._journal_start(hand, players)
                    await self._journal_commands(hand)
                self._broadcast_events(item)
            elif isinstance(item, HandFinished):
                await self._finish(item)
            elif isinstance(item, SeatChanged):
                self.broadcast(
                    {
                        "type": "seat",
                        "table": self.tid,
                        "seat": item.seat,
                        "player": item.player,
                        "name": item.name,
                        "stack": item.stack,
                        "status": item.status,
                        "markers": list(item.markers),
                    }
                )
            elif isinstance(item, TurnClock):
                self._send_turn(item)
            elif isinstance(item, SeatOffer):
                self.send_to(
                    item.player,
                    {
                        "type": "offer",
                        "table": self.tid,
                        "seat": item.seat,
                        "expires_in": (item.expires - _now()).total_seconds(),
                    },
                )
            elif isinstance(item, OfferExpired):
                self.send_to(
                    item.player,
                    {
                        "type": "error",
                        "code": "offer_expired",
                        "message": f"the seat offer at {self.table.config.name} expired",
                    },
                )
            elif isinstance(item, PostPrompt):
                self.send_to(
                    item.player,
                    {
                        "type": "prompt",
                        "table": self.tid,
                        "seat": item.seat,
                        "amount": item.amount,
                        "what": item.what,
                        "expires_in": (item.deadline - _now()).total_seconds(),
                    },
                )
            elif isinstance(item, TopUp):
                await self._book_top_up(item)
            elif isinstance(item, CashOut):
                await self._book_cash_out(item)
            elif isinstance(item, BuyIn | HandSettlement):
                pass  # a buy-in is booked before the seat is taken; a settlement with its hand's end

    def _send_turn(self, clock: TurnClock) -> None:
        hand = self.table.hand
        if hand is None:
            return
        now = _now()
        msg: dict[str, Any] = {
            "type": "turn",
            "table": self.tid,
            "seq": self._next_seq(),
            "hand_id": hand.hand_id,
            "action_no": len(hand.commands),
            "seat": clock.seat,
            "action_left": max(0.0, (clock.action_deadline - now).total_seconds()),
            "bank_left": (clock.bank_deadline - clock.action_deadline).total_seconds(),
        }
        public = orjson.dumps(msg).decode()
        player = self.table.seats[clock.seat].player
        decision = self.table.decision_of(clock.seat)
        msg["decision"] = decision.to_dict() if decision is not None else None  # type: ignore[attr-defined]
        private = orjson.dumps(msg).decode()
        for conn in self.subscribers:
            conn.send(private if conn.player == player else public)

    # ------------------------------------------------------------------------------ the journal

    async def _journal_start(self, hand: HandState, players: dict[int, tuple[str, str]]) -> None:
        self._hand = hand
        self._journaled = 0
        self._applied = {}
        self._salt = secrets.token_hex(16)
        self._deck_text = orjson.dumps(hand.deck_data(), option=orjson.OPT_SORT_KEYS).decode()
        seats = [
            SeatRecord(seat, int(players[seat][0]), self.sessions[players[seat][0]], p.starting_stack)
            for seat, p in hand.players.items()
        ]
        await self.room.store.journal.start_hand(
            hand.hand_id,
            table_id=self.tid,
            game=f"{hand.variant.code}/{hand.structure.betting.value}",
            currency=self.table.config.currency,
            seats=seats,
            deck_commitment=deck_commitment(self._deck_text, self._salt),
        )

    async def _journal_commands(self, hand: HandState) -> None:
        """Journal the hand's new commands; they are queued together (one group commit) and are all
        durable when this returns, before their events are broadcast."""
        journal = self.room.store.journal
        first = self._journaled
        todo = [
            journal.record_command(hand.hand_id, first + i + 1, command.to_dict())
            for i, command in enumerate(hand.commands[first:])
        ]
        if len(todo) == 1:
            await todo[0]
        elif todo:
            await asyncio.gather(*todo)
        self._journaled = first + len(todo)

    async def _finish(self, item: HandFinished) -> None:
        record = item.record
        s = record.settlement
        deltas = {self.sessions[p]: d for p, d in s.results.items()}
        points = {int(p): v for p, v in s.points.items()}
        await self.room.store.journal.end_hand(
            record.hand_id,
            deck_text=self._deck_text,
            salt=self._salt,
            deltas=deltas,
            rake=s.rake,
            points=points,
            history=histories_of(record),
        )
        self.hands_played += 1
        self.room.last_hands.add(record)
        currency = self.table.config.currency
        for e in record.hand.events:
            if isinstance(e, PotAwarded):
                names = ", ".join(record.players[w][1] for w in e.winners)
                what = f" with {e.description[0].lower()}{e.description[1:]}" if e.description else ""
                half = f" ({e.half})" if e.half else ""
                text = f"{names} wins {_fmt(e.amount, currency)}{half}{what}"
                self.broadcast({"type": "chat", "table": self.tid, "from": "dealer", "text": text})
        self._hand = None  # (no balance message: a hand moves seat stacks, never the wallets)

    async def _book_top_up(self, item: TopUp) -> None:
        ledger = self.room.store.ledger
        try:
            await ledger.top_up(
                self.sessions[item.player],
                item.amount,
                idempotency_key=f"topup:{self.tid}:{secrets.token_hex(8)}",
            )
        except StoreError as exc:
            await self.process(self.table.refuse_top_up(item.player, item.amount))
            self.send_to(
                item.player,
                {
                    "type": "error",
                    "code": getattr(exc, "code", "top_up_failed"),
                    "message": "the top-up could not be booked",
                },
            )
            return
        await self.room.send_balance(item.player, self.table.config.currency)

    async def _book_cash_out(self, item: CashOut) -> None:
        session = self.sessions.pop(item.player, None)
        if session is None:
            return
        await self.room.store.ledger.cash_out(session, idempotency_key=f"cashout:{session}")
        await self.room.send_balance(item.player, self.table.config.currency)

    # ---------------------------------------------------------------------- client requests

    async def subscribe(self, conn: Connection) -> dict[str, Any]:
        self.subscribers[conn] = None
        if conn.player is not None:
            self.table.connect(conn.player, _now())
        return self.snapshot(conn)

    async def unsubscribe(self, conn: Connection) -> None:
        self.subscribers.pop(conn, None)
        if conn.player is not None and not any(c.player == conn.player for c in self.subscribers):
            self.table.disconnect(conn.player, _now())

    async def sit(self, conn: Connection, seat: int, buy_in: int, post_now: bool) -> None:
        player = self._player(conn)
        now = _now()
        self.table.check_sit(player, seat, buy_in)
        ledger = self.room.store.ledger
        booked = await ledger.buy_in(
            int(player),
            self.tid,
            self.table.config.currency,
            buy_in,
            idempotency_key=f"buyin:{self.tid}:{player}:{secrets.token_hex(8)}",
        )
        self.sessions[player] = booked.session_id
        self.subscribers[conn] = None
        out = self.table.sit(player, conn.name, seat, buy_in, now, post_now=post_now)
        await self.process(out)
        await self.room.send_balance(player, self.table.config.currency)

    async def request(self, conn: Connection, name: str, **kw: Any) -> None:
        """leave, top_up, sit_out, sit_in, settings, waiting_list, answer_post."""
        player = self._player(conn)
        now = _now()
        t = self.table
        out: Output
        if name == "leave":
            out = t.leave(player, now)
        elif name == "top_up":
            out = t.top_up(player, kw["amount"], now)
        elif name == "sit_out":
            out = t.sit_out(player, now, kw["when"])
        elif name == "sit_in":
            out = t.sit_in(player, now, post_missed=kw["post_missed"])
        elif name == "settings":
            out = []
            if kw.get("auto_post") is not None:
                out += t.set_auto_post(player, kw["auto_post"])
            if kw.get("auto_muck") is not None:
                out += t.set_auto_muck(player, kw["auto_muck"])
        elif name == "waiting_list":
            out = t.join_waiting_list(player, now) if kw["join"] else t.leave_waiting_list(player, now)
        elif name == "answer_post":
            out = t.answer_post(player, kw["accept"], now)
        else:
            raise ActionRefused("unknown_request", "unknown request")
        await self.process(out)

    async def act(self, conn: Connection, hand_id: str, action_no: int, action: dict[str, Any]) -> bool:
        """Apply a decision; True if it was a duplicate of one already applied (a retry)."""
        player = self._player(conn)
        hand = self.table.hand
        if hand is None or hand.hand_id != hand_id or hand.is_over:
            if self._was_applied(hand_id, action_no, player, action):
                return True
            raise ActionRefused("stale_hand", "that hand is over")
        current = len(hand.commands)
        if action_no < current:
            if any(self._applied.get(k) == (player, action) for k in range(action_no, current)):
                return True  # a retry of an action already applied
            seat = self.table.seat_of(player)
            pending = hand.pending
            simultaneous = isinstance(pending, DiscardDecision) and seat in pending.seats
            if not simultaneous:  # (the Irish discard is offered to everybody at the same action number)
                raise ActionRefused("stale_action", "the hand has moved on since that decision")
            action_no = current
        if action_no > current:
            raise ActionRefused("bad_action_no", f"the next action number is {current}")
        seat = self.table.seat_of(player)
        if seat is None:
            raise ActionRefused("not_seated", "you have no seat at this table")
        command = self._command(seat, action)
        out = self.table.act(player, command, _now())
        self._applied[action_no] = (player, action)
        self._last_applied = (hand_id, action_no, player, action)
        await self.process(out)
        return False

    def _was_applied(self, hand_id: str, action_no: int, player: str, action: dict[str, Any]) -> bool:
        last = getattr(self, "_last_applied", None)
        return last == (hand_id, action_no, player, action)

    @staticmethod
    def _command(seat: int, action: dict[str, Any]) -> Command:
        data: dict[str, Any] = {"type": action["type"], "seat": seat}
        if action.get("amount") is not None:
            data["amount"] = action["amount"]
        if action.get("cards") is not None:
            data["cards"] = action["cards"]
        if data["type"] in ("draw", "discard") and "cards" not in data:
            data["cards"] = []
        return command_from_dict(data)

    async def chat(self, conn: Connection, text: str) -> None:
        player = self._player(conn)
        clean = "".join(ch for ch in text if ch.isprintable()).strip()[:200]
        if not clean:
            raise ActionRefused("empty_chat", "nothing to say")
        if self.table.seat_of(player) is None:
            raise ActionRefused("not_seated", "only players at the table may chat")
        self.broadcast({"type": "chat", "table": self.tid, "from": conn.name, "text": html.escape(clean)})

    def _player(self, conn: Connection) -> str:
        if conn.player is None:
            raise ActionRefused("login_required", "log in first")
        return conn.player

    # ---------------------------------------------------------------------------------- lobby

    def summary(self) -> dict[str, Any]:
        cfg = self.table.config
        st = cfg.stakes
        return {
            "table": self.tid,
            "name": cfg.name,
            "variant": cfg.variant,
            "variant_name": cfg.spec.name,
            "betting": cfg.betting.value,
            "currency": cfg.currency,
            "seats": cfg.seats,
            "players": len(self.table.seats),
            "waiting": len(self.table.waiting_list),
            "stakes": {
                "small_blind": st.small_blind,
                "big_blind": st.big_blind,
                "small_bet": st.small_bet,
                "big_bet": st.big_bet,
                "ante": st.ante,
                "bring_in": st.bring_in,
            },
            "stakes_label": stakes_label(self.table),
            "hands": self.hands_played,
        }


def stakes_label(table: CashTable) -> str:
    """ "20/40" in the lobby: small bet / big bet in fixed limit, the blinds otherwise (RULES.md §1.3)."""
    cfg = table.config
    st = cfg.stakes
    lo, hi = (st.small_bet, st.big_bet) if cfg.betting.value == "FL" else (st.small_blind, st.big_blind)
    return f"{_fmt(lo, cfg.currency)}/{_fmt(hi, cfg.currency)}"

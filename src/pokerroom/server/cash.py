"""One actor per cash table: an asyncio task that owns a :class:`~pokerroom.rooms.CashTable` and its hand.

Every change to the table goes through the actor's inbox, so nothing else mutates it and no lock is
needed (ARCHITECTURE.md). The actor books the table's money effects in the ledger, journals the hand as
it goes (:class:`~pokerroom.server.books.HandBook`) and leaves the wire to the table core
(:class:`~pokerroom.server.core.TableCore`): projection, turns, action numbers, snapshots.
"""

from __future__ import annotations

import contextlib
import html
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import orjson

from pokerroom.engine.events import HandStarted, PotAwarded
from pokerroom.rooms import (
    CashOut,
    CashTable,
    GameChoice,
    HandEvents,
    HandFinished,
    OfferExpired,
    Output,
    PostPrompt,
    SeatChanged,
    SeatOffer,
    TopUp,
    TurnClock,
)
from pokerroom.rooms.record import FinishedHand
from pokerroom.rooms.table_stats import TableStats, figures_of
from pokerroom.rooms.view import mix_view, table_view
from pokerroom.server.books import HandBook
from pokerroom.server.connection import Connection, send_frame
from pokerroom.server.core import Action, TableCore, Watch
from pokerroom.server.errors import Refused
from pokerroom.server.faults import FaultTolerantActor, HandVoided
from pokerroom.server.history_glue import histories_of
from pokerroom.server.ids import PlayerKey, player_key, store_id
from pokerroom.server.integrity.chat import say
from pokerroom.server.integrity.seating import check_seat
from pokerroom.server.logs import log_context
from pokerroom.server.metrics import game_of
from pokerroom.server.services import Services
from pokerroom.store import HandNotOpen, SeatRecord, StoreError, StoreUnavailable, UnknownHand, unavailable

__all__ = ["CashActor", "chat_text", "fmt_amount", "login_of"]

log = logging.getLogger("pokerroom.table")
# Why an auto top-up stopped, in words for the player (the store's own messages name ledger accounts).
_STOPPED = {
    "insufficient_funds": "your balance is too low",
    "limit_reached": "a limit you set does not allow it",
    "self_excluded": "you are in a cool-off or self-exclusion",
}


def fmt_amount(amount: int, currency: str) -> str:
    return f"{amount:,}" if currency == "PLAY" else f"{amount / 100:,.2f}"


def login_of(conn: Connection) -> PlayerKey:
    """The player of a connection, or ``login_required``."""
    if conn.player is None:
        raise Refused("login_required", "log in first")
    return conn.player


def chat_text(text: str) -> str:
    """A chat line as it goes out: printable characters only, at most 200, HTML-escaped."""
    clean = "".join(ch for ch in text if ch.isprintable()).strip()[:200]
    if not clean:
        raise Refused("empty_chat", "nothing to say")
    return html.escape(clean)


class CashActor(FaultTolerantActor):
    kind = "cash"

    def __init__(self, services: Services, table: CashTable) -> None:
        super().__init__(services.clock)
        self.services = services
        self.table = table
        self.tid = table.config.table_id
        self.core = TableCore(self.tid, table.seat_of, services.seals)
        self.sessions: dict[str, int] = {}  # player -> seat session (ledger account) id
        self.book: HandBook | None = None
        self.hands_played = 0
        self.stats = TableStats()  # the lobby's average pot, players per flop, hands per hour
        self._keys: dict[int, str] = {}  # an effect's idempotency key, the same when it is booked again
        self.closing = False  # the operator closed the table: it closes after its hand
        self.handing_over = False  # moving to another host of a cluster after its hand (no cash-out)
        self.held = False  # paused by the operator (the console): no new hand until it resumes
        self.on_closed: Callable[[CashActor], None] | None = None  # (the room forgets a closed table)

    # ----------------------------------------------------------------------------------- running

    def task_name(self) -> str:
        return f"table {self.tid}"

    def log_fields(self) -> dict[str, str]:
        return {"table": self.tid}

    def next_deadline(self) -> Any:
        return self.pause_deadline() or self.table.next_deadline()

    async def tick(self) -> bool:
        if self.pause is not None:
            return await self.try_resume()
        try:
            out = self.table.tick(self.clock.now())
            if out:
                await self.process(out)
            return bool(out)
        except (StoreUnavailable, HandVoided):
            return True
        except Exception as exc:
            await self.fail(exc, "the clock")
            return True

    def stands_still(self) -> bool:
        """No new hand: the store is away, repeated errors or the operator stopped it, or it is closing
        or moving to another host."""
        return (
            self.pause is not None
            or self.broken
            or self.suspended is not None
            or self.closing
            or self.handing_over
            or self.held
        )

    def live_hands(self) -> list[str]:
        """The hand in progress, or the one whose end is not booked yet."""
        hand = self.book.hand if self.book is not None else self.table.hand
        return [hand.hand_id] if hand is not None and (self.book is not None or not hand.is_over) else []

    def on_suspend(self) -> None:
        self.table.halted = True

    async def on_unsuspend(self) -> None:
        self.table.halted = self.stands_still()
        await self.process(self.table.restart_clocks(self.clock.now()))

    # ------------------------------------------------------------------------------ store faults

    async def services_ping(self) -> None:
        await self.services.store.db.ping()

    def on_pause(self) -> None:
        self.table.halted = True  # no hand starts, and (tick is not called) no decision times out

    async def on_resume(self) -> None:
        self.table.halted = self.stands_still()
        await self.process(self.table.restart_clocks(self.clock.now()))
        await self._close_if_idle()

    def tell_status(self, paused: bool, reason: str | None) -> None:
        self.core.broadcast(
            {"type": "table_status", "status": "paused" if paused else "playing", "reason": reason}
        )

    async def reconcile(self) -> None:
        """A buy-in booked while the store failed, whose answer was lost: its session holds the chips, the
        table never seated them: they go back to the wallet."""
        ledger = self.services.store.ledger
        known = set(self.sessions.values())
        for session in await ledger.sessions(table_id=self.tid, open_only=True):
            if session.id not in known:
                await ledger.cash_out(session.id, idempotency_key=f"cashout:{session.id}")
                await self.services.players.send_balance(
                    player_key(session.player_id), self.table.config.currency
                )

    async def void(self) -> None:
        """The interrupted hand is cancelled in the journal (its chips never moved, as after a crash) and
        every stack is its seat session's balance again; the watchers get a fresh snapshot."""
        hand = self.table.hand
        if self.book is not None:  # (its end record, if it was written, stands: HandNotOpen)
            with contextlib.suppress(UnknownHand, HandNotOpen):
                await self.services.store.journal.cancel_hand(
                    self.book.hand.hand_id,
                    reason="voided",
                    commands=self.book.commands(),
                    times=self.book.stamp(),
                )
            self.services.seals.done(self.book.hand.hand_id)
        self.book = None
        if hand is not None:
            self.services.seals.done(hand.hand_id)  # a cancelled hand: its deck is never revealed
        ledger = self.services.store.ledger
        for player in [p for p in self.sessions if self.table.seat_of(p) is None]:
            # unseated by the step that failed, whose cash-out was not booked yet
            await self._book_cash_out(CashOut(self.tid, player, 0, 0))
        stacks = {p: (await ledger.session(sid)).balance for p, sid in self.sessions.items()}
        await self.process(self.table.void_hand(stacks, self.clock.now()))
        for watch in list(self.core.watchers.values()):
            state = self.services.seals.stamp(table_view(self.table, watch.player, self.clock.now()))
            send_frame(
                watch.send, {"type": "snapshot", "table": self.tid, "seq": self.core.seq, "state": state}
            )

    # --------------------------------------------------------------------------- a cluster's host

    async def restore(self, seats: Sequence[tuple[int, int, int, str, int | None]]) -> None:
        """Seat again the players whose chips are at this table (a host took it over: docs/cluster.md):
        (seat session, player id, balance, name, the seat of the table's last hand). Each gets his seat
        back when it is free, another free seat otherwise; one with no chips or no free seat is cashed
        out. A player with no connection starts his disconnection grace."""
        now = self.clock.now()
        ledger = self.services.store.ledger
        for session_id, player_id, balance, name, seat in seats:
            player = player_key(player_id)
            free = [s for s in range(1, self.table.config.seats + 1) if s not in self.table.seats]
            choice = seat if seat in free else (free[0] if free else None)
            if choice is None or balance <= 0:
                await ledger.cash_out(session_id, idempotency_key=f"cashout:{session_id}")
                continue
            self.sessions[player] = session_id
            out = self.table.restore(player, name, choice, balance, now)
            if not self.services.players.connected(player):
                out += self.table.disconnect(player, now)
            await self.process(out)

    async def hand_over(self) -> None:
        """Stop after the hand in progress without cashing anybody out (the table moves to another host,
        which seats everyone again): the players keep their chips in their seat sessions."""
        self.handing_over = True
        self.table.halted = True
        await self._close_if_idle()

    # ----------------------------------------------------------------------------------- closing

    async def close(self) -> None:
        """Close the table (the operator removed it): no new hand; after the hand in progress every player
        is cashed out (his stack back to his wallet), every watcher is told ``table_closed``, and the room
        forgets the table."""
        self.closing = True
        self.table.halted = True
        await self._close_if_idle()

    async def _close_if_idle(self) -> None:
        if self.handing_over and not self.table.in_hand and self.pause is None and not self.core.closed:
            self.core.closed = True  # (the watchers stay: their gateways subscribe them to the next host)
            if self.on_closed is not None:
                self.on_closed(self)
            return
        if not self.closing or self.table.in_hand or self.pause is not None or self.core.closed:
            return
        now = self.clock.now()
        for p in list(self.table.seats.values()):
            await self.process(self.table.leave(p.player, now))
        self.core.close("closed", lambda watch: None)
        if self.on_closed is not None:
            self.on_closed(self)

    async def after_step(self, step: Sequence[object]) -> None:
        if (self.closing or self.handing_over) and any(isinstance(x, HandFinished) for x in step):
            await self._close_if_idle()

    # ----------------------------------------------------------------------------- processing

    async def do_item(self, item: object, step: Sequence[object]) -> None:
        now = self.clock.now()
        if isinstance(item, HandEvents):
            log_context(hand=item.hand_id)
            finished = next((n.record for n in step if isinstance(n, HandFinished)), None)
            await self._journal(item, finished)
            self.core.events(item)
        elif isinstance(item, HandFinished):
            await self._finish(item)
        elif isinstance(item, SeatChanged):
            self.core.seat_changed(item)
        elif isinstance(item, TurnClock):
            if self.table.hand is not None and not self.table.hand.is_over and item.seat in self.table.clocks:
                self.core.turn(self.table.hand, item, now)
        elif isinstance(item, SeatOffer):
            left = (item.expires - now).total_seconds()
            self._tell(
                item.player, {"type": "offer", "table": self.tid, "seat": item.seat, "expires_in": left}
            )
        elif isinstance(item, OfferExpired):
            self._tell(
                item.player,
                {
                    "type": "error",
                    "code": "offer_expired",
                    "message": f"the seat offer at {self.table.config.name} expired",
                    "ref": None,
                    "details": {"table": self.tid, "seat": item.seat},
                },
            )
        elif isinstance(item, PostPrompt):
            self._tell(
                item.player,
                {
                    "type": "prompt",
                    "table": self.tid,
                    "seat": item.seat,
                    "amount": item.amount,
                    "what": item.what,
                    "expires_in": (item.deadline - now).total_seconds(),
                },
            )
        elif isinstance(item, GameChoice):
            self._tell(
                item.player,
                {
                    "type": "choose_game",
                    "table": self.tid,
                    "seat": item.seat,
                    "options": list(item.options),
                    "default": item.default,
                    "expires_in": (item.deadline - now).total_seconds(),
                },
            )
        elif isinstance(item, TopUp):
            await self._book_top_up(item)
        elif isinstance(item, CashOut):
            await self._book_cash_out(item)
        # BuyIn: booked before the seat is taken; HandSettlement: with its hand's end (HandFinished)

    def _tell(self, player: str, frame: dict[str, Any]) -> None:
        self.services.players.notify(player, orjson.dumps(frame).decode())

    # ------------------------------------------------------------------------------ the journal

    async def _journal(self, item: HandEvents, finished: FinishedHand | None) -> None:
        """The hand's start record, before its first events go out (its commands go with its end record:
        server/books.py)."""
        ended = finished if finished is not None and finished.hand_id == item.hand_id else None
        hand = ended.hand if ended is not None else self.table.hand
        if hand is None or hand.hand_id != item.hand_id:
            return
        if any(isinstance(e, HandStarted) for e in item.events):
            players = dict(ended.players) if ended is not None else self.table.hand_players()
            if self.book is None or self.book.hand is not hand:  # (the same book when done again)
                seal = self.services.seals.of(hand)
                self.book = HandBook(self.services.store.journal, hand, self.services.metrics, seal)
            if self.book.started:
                self.book.stamp()
                return
            seats = [
                SeatRecord(
                    seat, store_id(players[seat][0]), self.sessions[players[seat][0]], p.starting_stack
                )
                for seat, p in hand.players.items()
            ]
            await self.book.open(
                table_id=self.tid,
                currency=self.table.config.currency,
                seats=seats,
                stakes=stakes_label(self.table),  # (the stakes of this hand's time: the rake report's)
            )
        if self.book is not None:
            self.book.stamp()  # (the time each command was played, written with the end record)

    async def _finish(self, item: HandFinished) -> None:
        record = item.record
        s = record.settlement
        seals = self.services.seals
        seal = seals.get(record.hand_id)
        record = replace(record, proof=seal.proof() if seal is not None else None)
        if self.book is not None:
            await self.book.close(
                deltas={self.sessions[p]: d for p, d in s.results.items()},
                rake=s.rake,
                points={store_id(p): v for p, v in s.points.items()},
                history=histories_of(record),
            )
        self.book = None
        self.hand_finished()
        seals.reveal(
            record.hand_id, self.tid, record.players, record.hand.events, self.services.players.notify
        )
        self.hands_played += 1
        self.stats.add(figures_of(record.hand.events, self.clock.now()))
        if self.services.metrics is not None:
            self.services.metrics.hand(self.kind, game_of(record.hand))
        self.services.last_hands.add(record)
        currency = self.table.config.currency
        for e in record.hand.events:
            if isinstance(e, PotAwarded):
                names = ", ".join(record.players[w][1] for w in e.winners)
                what = f" with {e.description[0].lower()}{e.description[1:]}" if e.description else ""
                half = f" ({e.half})" if e.half else ""
                if e.run:  # run it twice (R-RIT): each pot is paid once per run
                    half += f" ({'first' if e.run == 1 else 'second'} run)"
                text = f"{names} wins {fmt_amount(e.amount, currency)}{half}{what}"
                self.core.broadcast({"type": "chat", "from": "dealer", "text": text})
        r = self.table.rotation
        if r is not None and r.hands_left == 0:  # a mixed table's round is over (RULES.md §11.1)
            after = "dealer's choice" if r.choice else r.next_game.label
            text = f"The {r.game.label} round is over; next: {after}"
            self.core.broadcast({"type": "chat", "from": "dealer", "text": text})

    async def _book_top_up(self, item: TopUp) -> None:
        key = self._keys.setdefault(id(item), f"topup:{self.tid}:{secrets.token_hex(8)}")
        try:
            if item.auto:  # the player's auto top-up: his limits are checked as for one he asks for
                await self.services.store.gaming.check_stake(
                    store_id(item.player), self.table.config.currency, item.amount, what="top-up"
                )
            await self.services.store.ledger.top_up(
                self.sessions[item.player], item.amount, idempotency_key=key
            )
        except StoreError as exc:
            if unavailable(exc):
                raise
            self._keys.pop(id(item), None)
            if item.auto:
                await self._stop_auto_top_up(item, exc)
                return
            await self.process(self.table.refuse_top_up(item.player, item.amount))
            self._tell(
                item.player,
                {
                    "type": "error",
                    "code": "top_up_failed",
                    "message": "the top-up could not be booked",
                    "ref": None,
                    "details": {"table": self.tid, "amount": item.amount, "reason": exc.code},
                },
            )
            return
        self._keys.pop(id(item), None)
        await self.services.players.send_balance(item.player, self.table.config.currency)

    async def _stop_auto_top_up(self, item: TopUp, exc: StoreError) -> None:
        """An auto top-up refused (the balance, a limit, an exclusion): the chips go back, the setting is
        off, and the player is told why (``auto_top_up_stopped``; ``reason``: the store's code)."""
        await self.process(self.table.refuse_auto_top_up(item.player, item.amount, self.clock.now()))
        self._tell(
            item.player,
            {
                "type": "error",
                "code": "auto_top_up_stopped",
                "message": "auto top-up stopped: " + _STOPPED.get(exc.code, "the top-up could not be booked"),
                "ref": None,
                "details": {"table": self.tid, "amount": item.amount, "reason": exc.code},
            },
        )

    async def _book_cash_out(self, item: CashOut) -> None:
        session = self.sessions.pop(item.player, None)
        if session is None:
            return
        await self.services.store.ledger.cash_out(session, idempotency_key=f"cashout:{session}")
        await self.services.players.send_balance(item.player, self.table.config.currency)

    # ---------------------------------------------------------------------- client requests

    def snapshot(self, conn: Connection) -> dict[str, Any]:
        state = table_view(self.table, conn.player, self.clock.now())
        self.services.seals.stamp(state)
        state["paused"] = self.pause is not None or self.suspended is not None
        return {"type": "snapshot", "table": self.tid, "seq": self.core.seq, "state": state}

    async def subscribe(self, conn: Connection) -> dict[str, Any]:
        self.core.watch(conn, Watch(conn.send, conn.player))
        if conn.player is not None:
            self.table.connect(conn.player, self.clock.now())
        return self.snapshot(conn)

    async def unsubscribe(self, conn: Connection) -> None:
        self.core.unwatch(conn)
        if conn.player is not None and not self.core.watched_by(conn.player):
            self.table.disconnect(conn.player, self.clock.now())

    async def sit(self, conn: Connection, seat: int, buy_in: int, post_now: bool) -> None:
        player = login_of(conn)
        self.check_dealing()
        self.table.check_sit(player, seat, buy_in)
        others = [p.player for p in self.table.seats.values()]
        await check_seat(self.services.seat_rule, self.services.store, player, others, "table")
        await self.services.store.gaming.check_stake(  # limits, cool-off, self-exclusion (issue 29)
            store_id(player), self.table.config.currency, buy_in, what="buy-in"
        )
        booked = await self.services.store.ledger.buy_in(
            store_id(player),
            self.tid,
            self.table.config.currency,
            buy_in,
            idempotency_key=f"buyin:{self.tid}:{player}:{secrets.token_hex(8)}",
            exclusive=True,
        )
        self.sessions[player] = booked.session_id
        self.core.watch(conn, Watch(conn.send, conn.player))
        out = self.table.sit(player, conn.name, seat, buy_in, self.clock.now(), post_now=post_now)
        await self.process(out)
        await self.services.players.send_balance(player, self.table.config.currency)

    @property
    def owner(self) -> CashActor:
        """(A cash table is its own endpoint: server/endpoints.py.)"""
        return self

    async def request(self, conn: Connection, name: str, kw: dict[str, Any]) -> None:
        """leave, top_up, sit_out, sit_in, settings, waiting_list, answer_post, choose_game."""
        player = login_of(conn)
        self.check_open()
        now = self.clock.now()
        t = self.table
        out: Output
        if name == "leave":
            out = t.leave(player, now)
        elif name == "top_up":
            gaming = self.services.store.gaming  # limits, cool-off, self-exclusion (issue 29)
            await gaming.check_stake(store_id(player), t.config.currency, kw["amount"], what="top-up")
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
            if kw.get("straddle") is not None:
                out += t.set_straddle(player, kw["straddle"])
            if kw.get("auto_top_up") is not None:
                out += t.set_auto_top_up(player, kw["auto_top_up"])
        elif name == "waiting_list":
            out = t.join_waiting_list(player, now) if kw["join"] else t.leave_waiting_list(player, now)
        elif name == "answer_post":
            out = t.answer_post(player, kw["accept"], now)
        elif name == "choose_game":
            out = t.choose_game(player, kw["game"], now)
        else:
            raise Refused("unknown_request", "unknown request", request=name)
        await self.process(out)

    async def act(self, conn: Connection, hand_id: str, action_no: int, action: Action) -> bool:
        """Apply a decision; True if it was a retry of one already applied (acknowledged, not applied)."""
        player = login_of(conn)
        return await self.play(
            lambda: self.core.accept(
                self.table.hand, player, self.table.seat_of(player), hand_id, action_no, action
            ),
            lambda command: self.table.act(player, command, self.clock.now()),
            lambda number: self.core.applied(hand_id, number, player, action),
        )

    async def chat(self, conn: Connection, text: str) -> None:
        player = login_of(conn)
        clean = chat_text(text)
        if self.table.seat_of(player) is None:
            raise Refused("not_seated", "only players at the table may chat")
        await say(self.services.chat, self.core, conn, self.tid, clean)

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
            "mix": mix_view(self.table),  # a mixed table: its name, the game now and next (RULES.md §11.1)
            "hands": self.hands_played,
            "state": "paused" if self.held and self.state == "playing" else self.state,
            "suspended": self.suspended,
            **self.stats.summary(self.clock.now()),
            # a mixed table: the figures of each game (RULES.md §11.1; the console's Tables page)
            **({"games": self.stats.by_game()} if self.table.rotation is not None else {}),
        }


def stakes_label(table: CashTable) -> str:
    """ "20/40" in the lobby: small bet / big bet in fixed limit, the blinds otherwise (RULES.md §1.3)."""
    cfg = table.config
    st = cfg.stakes
    limit = cfg.betting.value == "FL" or bool(cfg.mix)  # a mix is named by its small and big bet
    lo, hi = (st.small_bet, st.big_bet) if limit else (st.small_blind, st.big_blind)
    return f"{fmt_amount(lo, cfg.currency)}/{fmt_amount(hi, cfg.currency)}"

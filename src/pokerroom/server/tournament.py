"""One actor per tournament: an asyncio task that owns a tournament director (``rooms.tournament``).

Money moves through the ledger: a buy-in (or a satellite ticket) is booked to the prize pool and the
house *before* the director takes the registration (and given back if it refuses); refunds, the
guarantee's overlay (from the promotions account), prizes and tickets follow the director's effects.
Tournament chips are not money: hands are not booked. Tables are watched and played with the ordinary
``subscribe`` / ``act`` messages (table ids ``<tournament>-t<n>``), through :class:`TournamentTableView`.
"""

from __future__ import annotations

import contextlib
import html
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson

from pokerroom.engine import Command, command_from_dict
from pokerroom.rooms import HandEvents, HandFinished, TurnClock
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.rush import EntryLeft, EntryMoved, EntryWaiting
from pokerroom.rooms.tournament import (
    BlindLevel,
    Finished,
    PlayerMoved,
    TableHandEnded,
    TournamentBuyIn,
    TournamentDirector,
    TournamentOverlay,
    TournamentPoints,
    TournamentPrize,
    TournamentRefund,
    TournamentTable,
    TournamentTicket,
    level_stakes,
)
from pokerroom.server.actor import ActionRefused
from pokerroom.server.connection import Connection
from pokerroom.server.mailbox import Mailbox
from pokerroom.store import AccountKind

if TYPE_CHECKING:
    from pokerroom.server.pool import PoolActor
    from pokerroom.server.room import Room

__all__ = ["Ticket", "TournamentActor", "TournamentTableView"]

log = logging.getLogger("pokerroom.tournament")


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Ticket:
    """A satellite seat kept in the player's account: its value stays in the satellite's prize pool
    (``source``, a ledger account) until the ticket registers for ``target``."""

    player: str
    target: str
    value: int
    source: int
    satellite: str


class TournamentActor(Mailbox):
    def __init__(self, room: Room, director: TournamentDirector, *, series: str | None = None) -> None:
        super().__init__()
        self.room = room
        self.series = series  # a sit-and-go of a series: a fresh copy opens when this one starts
        self._respawned = False
        self.director = director
        self.tid = director.tid
        self.currency = director.config.currency
        self.subscribers: dict[int, dict[Connection, None]] = {}  # table number -> watchers
        self.seq: dict[int, int] = {}
        self.paid_from: dict[str, tuple[int, Ticket | None]] = {}  # player -> (account, ticket used)
        self.prizes: dict[str, int] = {}  # player -> cash won
        self.tickets_won: dict[str, str] = {}  # player -> target
        self.hands_played = 0
        self.finished_at: datetime | None = None
        self._accounts: dict[str, int] = {}
        self.rush_pool: PoolActor | None = None  # a Rush tournament's pool phase
        self.run = secrets.token_hex(4)  # in idempotency keys: a tournament id may come back after a restart

    # ----------------------------------------------------------------------------------- running

    def task_name(self) -> str:
        return f"tournament {self.tid}"

    async def _run(self) -> None:
        halted = False
        while True:
            now = _now()
            deadline = self.director.next_deadline(now)
            rush = getattr(self.director, "rush", None)
            if rush is not None and (due := rush.next_deadline()) is not None:  # the Rush phase's clocks
                deadline = due if deadline is None else min(deadline, due)
            timeout = 1.0 if deadline is None else min(1.0, max(0.01, (deadline - now).total_seconds()))
            await self.serve_one(timeout)
            if halted or self.director.status in ("finished", "cancelled"):
                continue
            try:
                out = self.director.tick(_now())
                if out:
                    await self.process(out)
            except Exception:
                log.exception("tournament %s halted", self.tid)
                halted = True

    # ---------------------------------------------------------------------------------- money

    async def _account(self, kind: AccountKind, *, owner: int | None = None, ref: str | None = None) -> int:
        key = f"{kind.value}:{owner}:{ref}"
        if key not in self._accounts:
            self._accounts[key] = await self.room.store.ledger.account(
                kind, self.currency, owner_id=owner, ref=ref
            )
        return self._accounts[key]

    async def _pool(self) -> int:
        return await self._account(AccountKind.PRIZE_POOL, ref=self.tid)

    async def _post(self, kind: str, postings: list[tuple[int, int]], key: str, memo: dict[str, Any]) -> None:
        if any(amount for _, amount in postings):
            await self.room.store.ledger.post(kind, postings, idempotency_key=key, memo=memo)

    async def _book_entry(self, player: str, source: int, key: str, kind: str = "buy_in") -> None:
        cfg = self.director.config
        house = await self._account(AccountKind.HOUSE)
        postings = [(source, -(cfg.buy_in + cfg.fee)), (await self._pool(), cfg.buy_in), (house, cfg.fee)]
        await self._post(
            "tourney_buyin", postings, key, {"tournament": self.tid, "player": player, "kind": kind}
        )

    async def _book_refund(self, player: str, key: str) -> None:
        cfg = self.director.config
        source, ticket = self.paid_from.pop(player, (0, None))
        if not source:
            return
        house = await self._account(AccountKind.HOUSE)
        postings = [(source, cfg.buy_in + cfg.fee), (await self._pool(), -cfg.buy_in), (house, -cfg.fee)]
        await self._post("tourney_refund", postings, key, {"tournament": self.tid, "player": player})
        if ticket is not None:
            self.room.tickets.append(ticket)
        else:
            await self.room.send_balance(player, self.currency)

    # ----------------------------------------------------------------------------- registration

    async def register(self, player: str, name: str, *, ticket: bool = False) -> None:
        """Book the buy-in (wallet or ticket) first, then register; a refusal gives the money back."""
        d = self.director
        now = _now()
        if not d.registration_open(now):
            raise ActionRefused("registration_closed", "registration is not open")
        if player in d.entrants:
            raise ActionRefused("already_registered", "you are registered already")
        used: Ticket | None = None
        if ticket:
            used = next((t for t in self.room.tickets if t.player == player and t.target == self.tid), None)
            if used is None:
                raise ActionRefused("no_ticket", "you have no ticket for this tournament")
            self.room.tickets.remove(used)
            source = used.source
        else:
            source = await self._account(AccountKind.WALLET, owner=int(player))
        key = f"treg:{self.tid}:{player}:{secrets.token_hex(6)}"
        try:
            await self._book_entry(player, source, key)
        except Exception:
            if used is not None:
                self.room.tickets.append(used)
            raise
        self.paid_from[player] = (source, used)
        try:
            out = d.register(player, name, now, ticket=used is not None)
        except TableError as exc:
            await self._book_refund(player, f"{key}:undo")
            raise ActionRefused(exc.code, str(exc)) from None
        if used is None:
            await self.room.send_balance(player, self.currency)
        await self.process(out)
        if self.series and not self._respawned and d.status == "running":
            self._respawned = True
            self.room.next_in_series(self)

    async def rebuy(self, player: str, *, add_on: bool = False) -> None:
        """A rebuy (or the add-on) in its period: booked from the wallet first, given back if refused."""
        d = self.director
        e = d.entrants.get(player)
        if e is None or e.place is not None:
            raise ActionRefused("not_playing", "you are not in the tournament")
        kind = "add_on" if add_on else "rebuy"
        source = await self._account(AccountKind.WALLET, owner=int(player))
        key = f"t{kind}:{self.tid}:{player}:{secrets.token_hex(6)}"
        await self._book_entry(player, source, key, kind)
        try:
            out = d.rebuy(player, _now(), add_on=add_on)
        except TableError as exc:
            cfg = d.config
            house = await self._account(AccountKind.HOUSE)
            back = [(source, cfg.buy_in + cfg.fee), (await self._pool(), -cfg.buy_in), (house, -cfg.fee)]
            await self._post(
                "tourney_refund", back, f"{key}:undo", {"tournament": self.tid, "player": player}
            )
            raise ActionRefused("rebuy_refused", str(exc)) from None
        await self.room.send_balance(player, self.currency)
        await self.process(out)
        if e.table is not None:
            self._broadcast_seats(e.table)

    async def unregister(self, player: str) -> None:
        try:
            out = self.director.unregister(player, _now())
        except TableError as exc:
            raise ActionRefused("unregister_refused", str(exc)) from None
        await self.process(out)

    # ----------------------------------------------------------------------------- processing

    def _rush_items(self, out: list[object]) -> list[object]:
        """A Rush tournament's pool phase: what concerns the pool goes to its messenger (per-entry
        windows, as in a Rush pool); the rest stays here."""
        rush = getattr(self.director, "rush", None)
        if rush is not None and (self.rush_pool is None or self.rush_pool.pool is not rush):
            from pokerroom.server.pool import PoolActor

            self.rush_pool = PoolActor(self.room, rush, self)
        if self.rush_pool is None:
            return []
        prefix = f"{self.rush_pool.pid}-t"
        return [
            x
            for x in out
            if isinstance(x, EntryMoved | EntryWaiting | EntryLeft | HandFinished)
            or (isinstance(x, HandEvents | TurnClock) and x.table_id.startswith(prefix))
        ]

    async def process(self, out: list[object]) -> None:
        mine = self._rush_items(out)
        if mine:
            assert self.rush_pool is not None
            await self.rush_pool._process(mine)
            taken = {id(x) for x in mine}
            out = [x for x in out if id(x) not in taken]
        for item in out:
            if isinstance(item, HandEvents):
                self._broadcast_events(item)
            elif isinstance(item, TurnClock):
                self._send_turn(item)
            elif isinstance(item, PlayerMoved):
                table = f"{self.tid}-t{item.table_no}"
                self.room.notify_player(
                    item.player,
                    orjson.dumps(
                        {"type": "tournament_seat", "tournament": self.tid, "table": table, "seat": item.seat}
                    ).decode(),
                )
                self._broadcast_seats(item.table_no)
            elif isinstance(item, TournamentBuyIn):
                pass  # booked before the director took it
            elif isinstance(item, TournamentRefund):
                await self._book_refund(item.player, f"tref:{self.tid}:{item.player}:{secrets.token_hex(6)}")
            elif isinstance(item, TournamentOverlay):
                promotions = await self._account(AccountKind.PROMOTIONS)
                await self._post(
                    "tourney_overlay",
                    [(promotions, -item.amount), (await self._pool(), item.amount)],
                    f"toverlay:{self.tid}:{self.run}",
                    {"tournament": self.tid},
                )
            elif isinstance(item, TournamentPrize):
                wallet = await self._account(AccountKind.WALLET, owner=int(item.player))
                await self._post(
                    "tourney_prize",
                    [(await self._pool(), -item.amount), (wallet, item.amount)],
                    f"tprize:{self.tid}:{self.run}:{item.player}",
                    {"tournament": self.tid, "place": item.place},
                )
                self.prizes[item.player] = item.amount
                await self.room.send_balance(item.player, self.currency)
            elif isinstance(item, TournamentTicket):
                await self._ticket(item)
            elif isinstance(item, TournamentPoints):
                await self.room.store.ledger.accrue_points(
                    int(item.player),
                    item.centipoints,
                    idempotency_key=f"tpoints:{self.tid}:{item.player}:{secrets.token_hex(6)}",
                    reason=f"tournament {self.tid}",
                )
            elif isinstance(item, Finished):
                self.finished_at = _now()
                self._notify_all({"type": "tournament_status", "status": self.director.status})
        self._after_hand_updates(out)

    def _after_hand_updates(self, out: list[object]) -> None:
        for number in {x.number for x in out if isinstance(x, TableHandEnded)}:
            self.hands_played += 1
            self._broadcast_seats(number)
        if any(isinstance(x, Finished) for x in out):
            for number in list(self.subscribers):
                for conn in self.subscribers[number]:
                    conn.send(orjson.dumps(self.snapshot(number, conn)).decode())

    async def _ticket(self, item: TournamentTicket) -> None:
        """A satellite seat: registered at once for the target if it is open, else kept in the account."""
        ticket = Ticket(item.player, item.target, item.value, await self._pool(), self.tid)
        self.tickets_won[item.player] = item.target
        self.room.tickets.append(ticket)
        target = self.room.tournaments.get(item.target)
        if target is None:
            return
        name = self.director.entrants[item.player].name
        with contextlib.suppress(ActionRefused, TableError):
            await target.call(lambda: target.register(item.player, name, ticket=True))

    # ----------------------------------------------------------------------------- broadcasting

    def tell_seat(self, conn: Connection) -> None:
        """A (re)connecting player still in this tournament is told where he sits."""
        e = self.director.entrants.get(conn.player or "")
        if e is not None and e.place is None and e.table is not None:
            table = f"{self.tid}-t{e.table}"
            msg = {"type": "tournament_seat", "tournament": self.tid, "table": table, "seat": e.seat}
            conn.send(orjson.dumps(msg).decode())

    def _notify_all(self, message: dict[str, Any]) -> None:
        message["tournament"] = self.tid
        text = orjson.dumps(message).decode()
        for player in self.director.entrants:
            self.room.notify_player(player, text)

    def _next_seq(self, number: int) -> int:
        self.seq[number] = self.seq.get(number, 0) + 1
        return self.seq[number]

    @staticmethod
    def _number(table_id: str) -> int:
        return int(table_id.rsplit("-t", 1)[1])

    def _broadcast_events(self, item: HandEvents) -> None:
        number = self._number(item.table_id)
        table = self.director.tables.get(number)
        subs = self.subscribers.get(number, {})
        for event in item.events:
            seq = self._next_seq(number)
            for conn in subs:
                seat = table.seat_of(conn.player) if table is not None and conn.player else None
                view = event.view_for(seat, seat is not None and seat in item.dealt_in)
                if view is None:
                    continue
                msg = {
                    "type": "event",
                    "table": item.table_id,
                    "seq": seq,
                    "hand_id": item.hand_id,
                    "event": view.to_dict(),
                }
                conn.send(orjson.dumps(msg).decode())

    def _send_turn(self, clock: TurnClock) -> None:
        number = self._number(clock.table_id)
        table = self.director.tables.get(number)
        if table is None or table.hand is None:
            return
        hand = table.hand
        now = _now()
        msg: dict[str, Any] = {
            "type": "turn",
            "table": clock.table_id,
            "seq": self._next_seq(number),
            "hand_id": hand.hand_id,
            "action_no": len(hand.commands),
            "seat": clock.seat,
            "action_left": max(0.0, (clock.action_deadline - now).total_seconds()),
            "bank_left": (clock.bank_deadline - clock.action_deadline).total_seconds(),
        }
        public = orjson.dumps(msg).decode()
        player = table.seats[clock.seat].player if clock.seat in table.seats else None
        pending = hand.pending
        mine = pending if getattr(pending, "seat", None) == clock.seat else None
        msg["decision"] = mine.to_dict() if mine is not None else None
        private = orjson.dumps(msg).decode()
        for conn in self.subscribers.get(number, {}):
            conn.send(private if conn.player is not None and conn.player == player else public)

    def _broadcast_seats(self, number: int) -> None:
        table = self.director.tables.get(number)
        if table is None:
            return
        for conn in self.subscribers.get(number, {}):
            conn.send(orjson.dumps(self.snapshot(number, conn)).decode())

    def snapshot(self, number: int, conn: Connection | None) -> dict[str, Any]:
        table = self.director.tables.get(number)
        now = _now()
        state: dict[str, Any] = {
            "table": f"{self.tid}-t{number}",
            "tournament": self.tid,
            "closed": table is None,
        }
        if table is not None:
            cfg = self.director.config
            you = table.seat_of(conn.player) if conn is not None and conn.player is not None else None
            hand = table.hand if table.in_hand else None
            state.update(
                {
                    "name": f"{cfg.name} - table {number}",
                    "variant": cfg.variant,
                    "betting": cfg.betting.value,
                    "seats": table.size,
                    "players": {
                        str(s): {
                            "player": p.player,
                            "name": p.name,
                            "stack": p.stack,
                            "status": "sitting_out" if p.sitting_out else "playing",
                        }
                        for s, p in table.seats.items()
                    },
                    "you": you,
                    "hand_id": hand.hand_id if hand is not None else None,
                    # the hand so far as this viewer may see it (a late subscriber or a reconnect)
                    "hand_events": [
                        v.to_dict()
                        for e in hand.events
                        if (v := e.view_for(you, you is not None and you in table.hand_players)) is not None
                    ]
                    if hand is not None
                    else [],
                    "decision": _decision(hand, you),
                    "button": table.positions.button if table.positions is not None else None,
                    **self._level(now),
                }
            )
        return {"type": "snapshot", "table": state["table"], "seq": self.seq.get(number, 0), "state": state}

    def _level(self, now: datetime) -> dict[str, Any]:
        d = self.director
        if d.schedule is None:
            return {"level": None}
        level = d.level(now)
        st = level_stakes(level, d.config.betting, d.config.spec.is_stud)
        nxt = d.schedule.next_level_at(now)
        brk = d.schedule.next_break(now)
        return {
            "level": {
                "number": level.number,
                "small_blind": st.small_blind,
                "big_blind": st.big_blind,
                "ante": st.ante,
                "small_bet": st.small_bet,
                "big_bet": st.big_bet,
                "next_level_in": max(0.0, (nxt - now).total_seconds()),
                "next_break_in": max(0.0, (brk - now).total_seconds()) if brk is not None else None,
                "in_break": d.schedule.in_break(now),
            }
        }

    # ---------------------------------------------------------------------------------- views

    def summary(self) -> dict[str, Any]:
        d = self.director
        cfg = d.config
        return {
            "tournament": self.tid,
            "name": cfg.name,
            "kind": cfg.kind,
            "status": d.status,
            "variant": cfg.variant,
            "betting": cfg.betting.value,
            "currency": cfg.currency,
            "buy_in": cfg.buy_in,
            "fee": cfg.fee,
            "starting_stack": cfg.starting_stack,
            "table_size": cfg.table_size,
            "level_minutes": cfg.level_minutes,
            "min_players": cfg.min_players,
            "max_players": cfg.max_players,
            "start_time": cfg.start_time.isoformat() if cfg.start_time else None,
            "entrants": len(d.entrants),
            "remaining": len(d.remaining),
            "prize_pool": d.pool if d.status != "registering" else cfg.buy_in * len(d.entrants),
            "guarantee": cfg.guarantee,
            "freeroll": cfg.is_freeroll,
            "satellite_to": cfg.target or None,
            "rebuy_levels": cfg.rebuy_levels,
            "add_on": cfg.add_on,
            "late_registration_levels": cfg.late_registration_levels,
            "featured": cfg.featured,
        }

    def details(self) -> dict[str, Any]:
        d = self.director
        now = _now()
        return {
            "summary": self.summary(),
            "structure": [
                {
                    "level": n,
                    "small_blind": lvl.small_blind,
                    "big_blind": lvl.big_blind,
                    "ante": lvl.ante,
                    "minutes": d.config.level_minutes,
                }
                for n in range(1, 19)
                for lvl in (BlindLevel.default(n),)
            ],
            "entrants": [{"player": e.player, "name": e.name} for e in d.entrants.values()],
            "payouts": [{"place": i, "amount": a} for i, a in enumerate(d.prizes, start=1)],
            "seats_won": d.seats_won,
            "standings": d.standings() if d.status != "registering" else [],
            "tables": [
                {
                    "table": f"{self.tid}-t{n}",
                    "players": len(t.seats),
                    "stacks": sorted((p.stack for p in t.seats.values()), reverse=True),
                }
                for n, t in sorted(d.tables.items())
            ],
            "hand_for_hand": d.hand_for_hand,
            "prizes": [{"player": p, "amount": a} for p, a in self.prizes.items()],
            "tickets": [{"player": p, "target": t} for p, t in self.tickets_won.items()],
            **self._level(now),
        }

    def table_view(self, table: str) -> TournamentTableView | None:
        if not table.startswith(f"{self.tid}-t"):
            return None
        try:
            number = self._number(table)
        except ValueError:
            return None
        if number not in self.director.tables and number not in self.subscribers:
            return None
        return TournamentTableView(self, number)


class TournamentTableView:
    """One tournament table as the WebSocket handlers see a table actor: subscribe, act, chat, sit in/out."""

    def __init__(self, actor: TournamentActor, number: int) -> None:
        self.actor = actor
        self.number = number
        self.tid = f"{actor.tid}-t{number}"

    async def call(self, job: Callable[[], Awaitable[Any]]) -> Any:
        return await self.actor.call(job)

    def _table(self) -> TournamentTable:
        table = self.actor.director.tables.get(self.number)
        if table is None:
            raise ActionRefused("table_closed", "this tournament table is closed")
        return table

    async def subscribe(self, conn: Connection) -> dict[str, Any]:
        self.actor.subscribers.setdefault(self.number, {})[conn] = None
        if conn.player is not None:
            self.actor.director.set_connected(conn.player, True)
        return self.actor.snapshot(self.number, conn)

    async def unsubscribe(self, conn: Connection) -> None:
        self.actor.subscribers.get(self.number, {}).pop(conn, None)

    async def sit(self, conn: Connection, seat: int, buy_in: int, post_now: bool) -> None:
        raise ActionRefused("tournament_table", "register for the tournament to play")

    async def request(self, conn: Connection, name: str, **kw: Any) -> None:
        player = self._player(conn)
        d = self.actor.director
        try:
            if name == "sit_out":
                d.sit_out(player)
            elif name == "sit_in":
                d.sit_in(player)
            else:
                raise ActionRefused("tournament_table", f"{name} is not possible at a tournament table")
        except TableError as exc:
            raise ActionRefused(exc.code, str(exc)) from None

    async def act(self, conn: Connection, hand_id: str, action_no: int, action: dict[str, Any]) -> bool:
        player = self._player(conn)
        table = self._table()
        hand = table.hand
        if hand is None or hand.hand_id != hand_id or hand.is_over:
            raise ActionRefused("stale_hand", "that hand is over")
        if action_no != len(hand.commands):
            raise ActionRefused("stale_action", f"the next action number is {len(hand.commands)}")
        seat = table.seat_of(player)
        if seat is None:
            raise ActionRefused("not_seated", "you have no seat at this table")
        out = self.actor.director.act(player, _command(seat, action), _now())
        await self.actor.process(out)
        return False

    async def chat(self, conn: Connection, text: str) -> None:
        player = self._player(conn)
        clean = "".join(ch for ch in text if ch.isprintable()).strip()[:200]
        if not clean:
            raise ActionRefused("empty_chat", "nothing to say")
        if self._table().seat_of(player) is None:
            raise ActionRefused("not_seated", "only players at the table may chat")
        msg: dict[str, Any] = {
            "type": "chat",
            "table": self.tid,
            "from": conn.name,
            "text": html.escape(clean),
        }
        msg["seq"] = self.actor._next_seq(self.number)
        text_ = orjson.dumps(msg).decode()
        for c in self.actor.subscribers.get(self.number, {}):
            c.send(text_)

    @staticmethod
    def _player(conn: Connection) -> str:
        if conn.player is None:
            raise ActionRefused("login_required", "log in first")
        return conn.player


def _decision(hand: Any, seat: int | None) -> dict[str, Any] | None:
    """The pending decision if it is this seat's, for the snapshot."""
    if hand is None or seat is None or hand.is_over:
        return None
    pending = hand.pending
    if getattr(pending, "seat", None) != seat:
        return None
    d: dict[str, Any] = pending.to_dict()
    d["action_no"] = len(hand.commands)
    return d


def _command(seat: int, action: dict[str, Any]) -> Command:
    data: dict[str, Any] = {"type": action["type"], "seat": seat}
    if action.get("amount") is not None:
        data["amount"] = action["amount"]
    if action.get("cards") is not None:
        data["cards"] = action["cards"]
    if data["type"] in ("draw", "discard") and "cards" not in data:
        data["cards"] = []
    return command_from_dict(data)

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
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import orjson

from pokerroom.engine import Command, command_from_dict
from pokerroom.history import TournamentInfo
from pokerroom.rooms import HandEvents, HandFinished, TurnClock
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.rush import EntryLeft, EntryMoved, EntryWaiting
from pokerroom.rooms.tournament import (
    BlindLevel,
    Finished,
    PlayerMoved,
    TableHandEnded,
    TournamentConfig,
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
from pokerroom.server.history_glue import tournament_histories
from pokerroom.server.mailbox import Mailbox
from pokerroom.store import (
    AccountKind,
    Booking,
    NewTicket,
    Refund,
    StoredEntry,
    StoreError,
    TournamentChanges,
    TournamentHand,
    TournamentRefused,
)

if TYPE_CHECKING:
    from pokerroom.server.pool import PoolActor
    from pokerroom.server.room import Room

__all__ = ["TournamentActor", "TournamentTableView", "register_player", "unregister_player"]

log = logging.getLogger("pokerroom.tournament")


def _now() -> datetime:
    return datetime.now(UTC)


def tournament_summary(
    cfg: TournamentConfig, tid: str, status: str, entrants: int, remaining: int, prize_pool: int
) -> dict[str, Any]:
    """A tournament's lobby row (docs/protocol.md, "Tournaments")."""
    return {
        "tournament": tid,
        "name": cfg.name,
        "kind": cfg.kind,
        "status": status,
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
        "entrants": entrants,
        "remaining": remaining,
        "prize_pool": prize_pool,
        "guarantee": cfg.guarantee,
        "freeroll": cfg.is_freeroll,
        "satellite_to": cfg.target or None,
        "rebuy_levels": cfg.rebuy_levels,
        "add_on": cfg.add_on,
        "late_registration_levels": cfg.late_registration_levels,
        "featured": cfg.featured,
    }


def tournament_structure(cfg: TournamentConfig) -> list[dict[str, Any]]:
    """The blind and ante levels, as the tournament page shows them."""
    return [
        {
            "level": n,
            "small_blind": lvl.small_blind,
            "big_blind": lvl.big_blind,
            "ante": lvl.ante,
            "minutes": cfg.level_minutes,
        }
        for n in range(1, 19)
        for lvl in (BlindLevel.default(n),)
    ]


class TournamentActor(Mailbox):
    def __init__(
        self,
        room: Room,
        director: TournamentDirector,
        *,
        series: str | None = None,
        spec: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        self.room = room
        self.series = series  # a sit-and-go of a series: a fresh copy opens when this one starts
        self.spec = spec  # an admin-scheduled tournament: its request, to open it again after a restart
        self._respawned = False
        self.director = director
        self.tid = director.tid
        self.currency = director.config.currency
        self.subscribers: dict[int, dict[Connection, None]] = {}  # table number -> watchers
        self.seq: dict[int, int] = {}
        self.prizes: dict[str, int] = {}  # player -> cash won
        self.tickets_won: dict[str, str] = {}  # player -> target
        self.hands_played = 0
        self.finished_at: datetime | None = None
        self._accounts: dict[str, int] = {}
        self.rush_pool: PoolActor | None = None  # a Rush tournament's pool phase
        self.run = secrets.token_hex(4)  # in idempotency keys: a tournament id may come back after a restart
        # What the store holds of this tournament (written when it changes): status, payouts, chips.
        self._saved_status = "registering"
        self._saved_prizes: list[int] = []
        self._saved_chips: dict[str, tuple[int, int | None]] = {}

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

    async def _entry_booking(self, player: str, source: int, key: str, kind: str) -> Booking:
        cfg = self.director.config
        house = await self._account(AccountKind.HOUSE)
        postings = [(source, -(cfg.buy_in + cfg.fee)), (await self._pool(), cfg.buy_in), (house, cfg.fee)]
        return Booking(
            "tourney_buyin", key, postings, {"tournament": self.tid, "player": player, "kind": kind}
        )

    async def _refund(self, player: str, key: str) -> Refund:
        return Refund(int(player), await self._pool(), await self._account(AccountKind.HOUSE), key)

    # ----------------------------------------------------------------------------- registration

    async def register(self, player: str, name: str, *, ticket: bool = False) -> None:
        """Book the buy-in (wallet or ticket) and keep the registration in the store first, then register;
        a refusal gives the money back."""
        d = self.director
        cfg = d.config
        now = _now()
        if not d.registration_open(now):
            raise ActionRefused("registration_closed", "registration is not open")
        if player in d.entrants:
            raise ActionRefused("already_registered", "you are registered already")
        store = self.room.store.tournaments
        ticket_id: int | None = None
        if ticket:
            found = [
                t
                for t in await store.tickets(int(player), target=self.tid)
                if t.currency == self.currency and t.value == cfg.buy_in + cfg.fee
            ]
            if not found:
                raise ActionRefused("no_ticket", "you have no ticket for this tournament")
            ticket_id, source = found[0].id, found[0].account_id
        else:
            source = await self._account(AccountKind.WALLET, owner=int(player))
        key = f"treg:{self.tid}:{player}:{secrets.token_hex(6)}"
        try:
            await store.register(
                self.tid,
                currency=self.currency,
                buy_in=cfg.buy_in,
                fee=cfg.fee,
                player_id=int(player),
                name=name,
                source_id=source,
                booking=await self._entry_booking(player, source, key, "buy_in"),
                ticket_id=ticket_id,
                series=self.series,
                spec=self.spec,
                stack=cfg.starting_stack if d.status == "running" else None,
            )
        except TournamentRefused as exc:
            raise ActionRefused("registration_closed", str(exc)) from None
        try:
            out = d.register(player, name, now, ticket=ticket_id is not None)
        except TableError as exc:
            await self.room.store.tournaments.apply(
                self.tid, TournamentChanges(refunds=[await self._refund(player, f"{key}:undo")])
            )
            raise ActionRefused(exc.code, str(exc)) from None
        if ticket_id is None:
            await self.room.send_balance(player, self.currency)
        await self.process(out)
        if self.series and not self._respawned and d.status == "running":
            self._respawned = True
            self.room.next_in_series(self)

    async def restore(self, entries: Sequence[StoredEntry]) -> None:
        """After a restart: take back the registrations the store kept (their money is in the prize pool
        already); one the director refuses now is given back."""
        now = _now()
        out: list[object] = []
        refunds = []
        for e in entries:
            try:
                out += self.director.register(str(e.player_id), e.name, now, ticket=e.ticket_id is not None)
            except TableError:
                refunds.append(await self._refund(str(e.player_id), f"trestore:{self.tid}:{e.player_id}"))
        if refunds:
            await self.room.store.tournaments.apply(self.tid, TournamentChanges(refunds=refunds))
        await self.process(out)
        if self.series and not self._respawned and self.director.status == "running":
            self._respawned = True
            self.room.next_in_series(self)

    async def rebuy(self, player: str, *, add_on: bool = False) -> None:
        """A rebuy (or the add-on) in its period: booked from the wallet first, given back if refused."""
        d = self.director
        e = d.entrants.get(player)
        if e is None or e.place is not None:
            raise ActionRefused("not_playing", "you are not in the tournament")
        cfg = d.config
        kind = "add_on" if add_on else "rebuy"
        source = await self._account(AccountKind.WALLET, owner=int(player))
        key = f"t{kind}:{self.tid}:{player}:{secrets.token_hex(6)}"
        store = self.room.store.tournaments
        await store.add_chips(
            self.tid, int(player), cfg.starting_stack, await self._entry_booking(player, source, key, kind)
        )
        try:
            out = d.rebuy(player, _now(), add_on=add_on)
        except TableError as exc:
            house = await self._account(AccountKind.HOUSE)
            back = [(source, cfg.buy_in + cfg.fee), (await self._pool(), -cfg.buy_in), (house, -cfg.fee)]
            memo = {"tournament": self.tid, "player": player}
            await store.add_chips(
                self.tid,
                int(player),
                -cfg.starting_stack,
                Booking("tourney_refund", f"{key}:undo", back, memo),
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
        """Store what this step changed (money, chips, places, hands, status: one transaction), then tell
        the players."""
        await self._store(out)
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
            elif isinstance(item, TournamentRefund):
                if not item.ticket:
                    await self.room.send_balance(item.player, self.currency)
            elif isinstance(item, TournamentPrize):
                self.prizes[item.player] = item.amount
                await self.room.send_balance(item.player, self.currency)
            elif isinstance(item, TournamentTicket):
                await self._use_ticket(item)
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

    async def _store(self, out: list[object]) -> None:
        changes = TournamentChanges()
        for item in out:
            if isinstance(item, TournamentRefund):
                key = f"tref:{self.tid}:{item.player}:{secrets.token_hex(6)}"
                changes.refunds.append(await self._refund(item.player, key))
            elif isinstance(item, TournamentOverlay):
                promotions = await self._account(AccountKind.PROMOTIONS)
                changes.bookings.append(
                    Booking(
                        "tourney_overlay",
                        f"toverlay:{self.tid}:{self.run}",
                        [(promotions, -item.amount), (await self._pool(), item.amount)],
                        {"tournament": self.tid},
                    )
                )
            elif isinstance(item, TournamentPrize):
                wallet = await self._account(AccountKind.WALLET, owner=int(item.player))
                changes.bookings.append(
                    Booking(
                        "tourney_prize",
                        f"tprize:{self.tid}:{self.run}:{item.player}",
                        [(await self._pool(), -item.amount), (wallet, item.amount)],
                        {"tournament": self.tid, "place": item.place},
                    )
                )
            elif isinstance(item, TournamentTicket):
                changes.tickets.append(
                    NewTicket(
                        int(item.player),
                        self.tid,
                        item.target,
                        self.currency,
                        item.value,
                        await self._account(AccountKind.TICKET, ref=item.player),
                        await self._pool(),
                        await self._account(AccountKind.PROMOTIONS),
                        f"tticket:{self.tid}:{self.run}:{item.player}",
                    )
                )
            elif isinstance(item, TableHandEnded | HandFinished):
                changes.hands.append(self._hand_record(item))
        d = self.director
        status = "registering" if d.status == "announced" else d.status
        if status != self._saved_status:
            changes.status = status
        if d.prizes != self._saved_prizes and status != "registering":
            changes.prizes = list(d.prizes)
        chips: dict[str, tuple[int, int | None]] = {}
        if status != "registering":
            for e in d.entrants.values():
                now = (e.stack if e.place is None else 0, e.place)
                if self._saved_chips.get(e.player) != now:
                    chips[e.player] = now
        changes.chips = {int(p): c for p, c in chips.items()}
        if not changes:
            return
        await self.room.store.tournaments.apply(self.tid, changes)
        self._saved_status = status
        self._saved_prizes = list(d.prizes)
        self._saved_chips.update(chips)

    def _hand_record(self, item: TableHandEnded | HandFinished) -> TournamentHand:
        cfg = self.director.config
        info = TournamentInfo(self.tid, cfg.name, cfg.buy_in, cfg.fee, self.director.level(_now()).number)
        if isinstance(item, TableHandEnded):
            hand, table = item.hand, item.table_id
            name, seats = f"{cfg.name} - table {item.number}", cfg.table_size
            started, players = item.started_at, item.players
        else:
            rec = item.record
            hand, table, name, seats = rec.hand, rec.table_id, rec.table_name, rec.seats
            started, players = rec.started_at, dict(rec.players)
        history = tournament_histories(
            hand, table=name, seats=seats, started_at=started, players=players, info=info
        )
        game = f"{hand.variant.code}/{hand.structure.betting.value}"
        return TournamentHand(hand.hand_id, table, game, _now(), history)

    def _after_hand_updates(self, out: list[object]) -> None:
        for number in {x.number for x in out if isinstance(x, TableHandEnded)}:
            self.hands_played += 1
            self._broadcast_seats(number)
        if any(isinstance(x, Finished) for x in out):
            for number in list(self.subscribers):
                for conn in self.subscribers[number]:
                    conn.send(orjson.dumps(self.snapshot(number, conn)).decode())

    async def _use_ticket(self, item: TournamentTicket) -> None:
        """A satellite seat (kept in the store): registered at once for the target if it is open."""
        self.tickets_won[item.player] = item.target
        target = self.room.tournaments.get(item.target)
        if target is None:
            return
        name = self.director.entrants[item.player].name
        with contextlib.suppress(ActionRefused, TableError, StoreError):
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
        pool = d.pool if d.status != "registering" else d.config.buy_in * len(d.entrants)
        return tournament_summary(d.config, self.tid, d.status, len(d.entrants), len(d.remaining), pool)

    def details(self) -> dict[str, Any]:
        d = self.director
        now = _now()
        return {
            "summary": self.summary(),
            "structure": tournament_structure(d.config),
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


def _actor_of(room: Room, tid: str) -> TournamentActor:
    actor = room.tournaments.get(tid)
    if actor is None:
        raise ActionRefused("unknown_tournament", "no such tournament")
    return actor


async def register_player(room: Room, tid: str, player: str, name: str, *, ticket: bool) -> TournamentActor:
    """Register a player (the HTTP endpoint and the ``tournament_register`` message): refusals are
    :class:`ActionRefused` with the codes of docs/protocol.md, a wallet short of the buy-in the store's
    ``insufficient_funds``."""
    actor = _actor_of(room, tid)
    await actor.call(lambda: actor.register(player, name, ticket=ticket))
    return actor


async def unregister_player(room: Room, tid: str, player: str) -> TournamentActor:
    """Unregister a player (HTTP and ``tournament_unregister``)."""
    actor = _actor_of(room, tid)
    await actor.call(lambda: actor.unregister(player))
    return actor


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

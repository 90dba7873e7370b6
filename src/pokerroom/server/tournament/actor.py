"""One actor per tournament: an asyncio task that owns a tournament director (``rooms.tournament``).

Its money is :class:`~pokerroom.server.tournament.money.TournamentBank`'s business; its tables are
watched and played with the ordinary ``subscribe`` / ``act`` messages, each through its own
:class:`~pokerroom.server.core.TableCore` (a Rush tournament's pool phase through
:class:`~pokerroom.server.rush.RushWindows`). When a table closes (broken up, or the tournament is
over) every watcher gets ``table_closed`` with the table and seat its player moved to.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

import orjson

from pokerroom.engine import HandState, QuickFoldRefused
from pokerroom.engine.events import HandStarted
from pokerroom.history import DeckProof
from pokerroom.rooms import HandEvents, HandFinished, TurnClock
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.rush import EntryLeft, EntryMoved, EntryWaiting
from pokerroom.rooms.tournament import (
    Finished,
    PlayerMoved,
    RushTournamentDirector,
    TableHandEnded,
    TournamentBounty,
    TournamentDealPaid,
    TournamentDirector,
    TournamentPoints,
    TournamentPrize,
    TournamentRefund,
    TournamentShare,
    TournamentTable,
    TournamentTicket,
)
from pokerroom.rooms.tournament.deal import DealAccepted, DealClosed, DealOffered, DealProposed
from pokerroom.rooms.tournament.view import tournament_table_view
from pokerroom.server.cash import chat_text, login_of
from pokerroom.server.connection import Connection, send_frame
from pokerroom.server.core import Action, TableCore, Watch
from pokerroom.server.errors import Refused
from pokerroom.server.faults import FaultTolerantActor, HandVoided
from pokerroom.server.ids import store_id
from pokerroom.server.integrity.chat import say
from pokerroom.server.integrity.seating import check_seat
from pokerroom.server.logs import note_tournament_status
from pokerroom.server.metrics import game_of
from pokerroom.server.rush import RushWindows
from pokerroom.server.services import Services
from pokerroom.server.tournament.lobby import LobbyChat
from pokerroom.server.tournament.money import (
    StepChanges,
    TournamentBank,
    cash_tickets_for,
    target_over,
)
from pokerroom.server.tournament.views import director_summary, tournament_details
from pokerroom.store import (
    FenceLost,
    StoredEntry,
    StoreError,
    StoreUnavailable,
    TournamentChanges,
    unavailable,
)

__all__ = ["TournamentActor", "TournamentHost"]

log = logging.getLogger("pokerroom.tournament")


class TournamentHost(Protocol):
    """What a tournament asks of the room: the next copy of its sit-and-go series, and a satellite
    ticket's registration in its target tournament."""

    def next_in_series(self, actor: TournamentActor) -> None: ...

    async def register_with_ticket(self, target: str, player: str, name: str) -> None: ...


@dataclass(eq=False)
class _Store:
    """The first item of a tournament's step: store what the step changed (its keys chosen once)."""

    step: list[object]
    changes: StepChanges | None = None


class TournamentActor(FaultTolerantActor):
    kind = "tournament"

    def __init__(
        self,
        services: Services,
        director: TournamentDirector,
        host: TournamentHost,
        *,
        series: str | None = None,
        spec: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(services.clock)
        self.services = services
        self.host = host
        self.series = series  # a sit-and-go of a series: a fresh copy opens when this one starts
        self.spec = spec  # an admin-scheduled tournament: its request, to open it again after a restart
        self._respawned = False
        self.director = director
        self.tid = director.tid
        self.currency = director.config.currency
        self.bank = TournamentBank(services, director, series=series, spec=spec)
        self.cores: dict[str, TableCore] = {}  # table id -> its core, while the table is open
        self._numbers: dict[str, int] = {}  # table id -> the table's number in the director
        self.windows: RushWindows | None = None  # a Rush tournament's pool phase
        self.prizes: dict[str, int] = {}  # player -> cash won
        self.tickets_won: dict[str, str] = {}  # player -> target
        self.hands_played = 0  # hands at its tables
        self.rush_hands = 0  # hands of its Rush phase
        self.finished_at: datetime | None = None
        self._keys: dict[int, str] = {}  # an effect's idempotency key, the same when it is booked again
        self._unstored: list[object] | None = None  # a step whose storing failed by a bug (see void)
        self._listed: dict[str, TournamentTableEndpoint] = {}  # its tables in the room's endpoints
        self._listed_pool: tuple[str, RushTournamentPool] | None = None  # its pool phase, likewise
        self._offer: DealOffered | None = None  # the deal offered now (audited when made)
        self._switch_unread = True  # the operator's stored word on deals: read as its first job
        self._switch_warned = False
        self.lobby = LobbyChat(  # its page's chat (lobby.py)
            self.tid, services, lambda: self.director.config.lobby_chat, lambda: self.director.entrants.keys()
        )
        # A recurring series occurrence: called once when it gets under way (tournament/recurring.py)
        self.on_under_way: Callable[[TournamentActor], None] | None = None

    # ----------------------------------------------------------------------------------- running

    def task_name(self) -> str:
        return f"tournament {self.tid}"

    def start(self) -> None:
        """Run the actor; its first job reads the operator's stored deal switch (``set_deals``), before
        any request reaches it."""
        super().start()
        self.queue_first(self._read_deal_switch)

    def log_fields(self) -> dict[str, str]:
        return {"tournament": self.tid}

    def next_deadline(self) -> datetime | None:
        if self.pause is not None:
            return self.pause.next_try
        if self.broken or self.suspended is not None or self.director.status in ("finished", "cancelled"):
            return None
        deadline = self.director.next_deadline(self.clock.now())
        rush = getattr(self.director, "rush", None)
        if rush is not None and (due := rush.next_deadline()) is not None:  # the Rush phase's clocks
            deadline = due if deadline is None else min(deadline, due)
        return deadline

    async def tick(self) -> bool:
        if self._switch_unread and self.pause is None:  # (the store was away when it started)
            await self._read_deal_switch()
        if self.pause is not None:
            return await self.try_resume()
        if self.broken or self.suspended is not None or self.director.status in ("finished", "cancelled"):
            return False
        try:
            out = self.director.tick(self.clock.now())
            if out:
                await self.process(out)
            return bool(out)
        except (StoreUnavailable, HandVoided):
            return True
        except Exception as exc:
            await self.fail(exc, "the clock")
            return True

    def live_hands(self) -> list[str]:
        hands = [t.hand.hand_id for t in self.director.tables.values() if t.hand is not None and t.in_hand]
        rush = getattr(self.director, "rush", None)
        if rush is not None:
            hands += [t.hand.hand_id for t in rush.tables.values() if not t.hand.is_over]
        return hands

    async def on_unsuspend(self) -> None:
        step, self._unstored = self._unstored, None
        if step is not None:  # the step whose storing failed: stored now, or suspended again
            await self._do_step(step, 0)
        await self.process(self.director.restart_clocks(self.clock.now()))

    # ------------------------------------------------------------------------------ store faults

    async def services_ping(self) -> None:
        await self.services.store.db.ping()

    async def on_resume(self) -> None:
        if self.suspended is None and self._unstored is not None:
            # (an operator resumed it while the store was away: the step it kept is stored first)
            step, self._unstored = self._unstored, None
            await self._do_step(step, 0)
        await self.process(self.director.restart_clocks(self.clock.now()))

    def tell_status(self, paused: bool, reason: str | None) -> None:
        frame = {"type": "table_status", "status": "paused" if paused else "playing", "reason": reason}
        cores = list(self.cores.values())
        if self.windows is not None:
            cores += list(self.windows.cores.values())
        for core in cores:
            core.broadcast(dict(frame))

    async def void(self) -> None:
        """A bug met the tournament (docs/tournaments.md, "When the server fails"). Its money and chips
        move in one stored transaction per step, which cannot be voided: when storing a step failed, the
        tournament is suspended at once with that step kept, and stored when an operator resumes it.
        Otherwise every hand in progress at its tables is void: each player has the chips he had when it
        started (the stored state), and the tables deal on; the watchers get fresh snapshots."""
        if self._unstored is not None:
            self.suspend("a step of the tournament could not be stored")
            return
        for hand_id in self.live_hands():
            self.services.seals.done(hand_id)  # a void hand: its deck is never revealed
        await self.process(self.director.void_hands(self.clock.now()))
        windows = self._rush_windows()
        if windows is not None:
            windows.cores.clear()
        for table_id in list(self.cores):
            self._snapshots(table_id)

    # ------------------------------------------------------------------------- deals (deal.py)

    async def deal_request(self, player: str, what: str, flag: bool) -> None:
        """``deal_icm`` / ``deal_chip_chop``: propose a deal; ``deal_answer``: accept it (``flag``) or not.
        No deal is proposed while the operator's stored switch is unread (``_read_deal_switch``: the store
        was away when the tournament opened): ``deal_refused``, for the configuration's word may be
        overruled."""
        self.check_open()
        now = self.clock.now()
        if what in ("deal_icm", "deal_chip_chop") and self._switch_unread:  # (the store was away)
            raise Refused("deal_refused", "the operator's word on deals is not known yet: try again shortly")
        try:
            if what in ("deal_icm", "deal_chip_chop"):
                out = self.director.propose_deal(player, "icm" if what == "deal_icm" else "chip_chop", now)
            elif what == "deal_answer":
                out = self.director.answer_deal(player, flag, now)
            else:
                raise Refused("unknown_request", "unknown request")
        except TableError as exc:
            raise Refused("deal_refused", str(exc)) from None
        await self.process(out)

    async def set_deals(self, allowed: bool) -> None:
        """The operator allows or forbids deals in this tournament; forbidding them ends a deal proposed
        and not made (``void``). Stored first (``tournament_switches``): when the tournament opens again
        (a restart, a cluster's host taking it over) the operator's word wins over its configuration."""
        await self.services.store.tournaments.set_deal_switch(self.tid, allowed)
        self._switch_unread = False
        await self.process(self.director.set_deals(allowed, self.clock.now()))

    async def _read_deal_switch(self) -> None:
        """Apply the operator's stored word on deals, if any (``set_deals``); a store that is away now is
        asked again at the next tick."""
        try:
            stored = await self.services.store.tournaments.deal_switches([self.tid])
        except Exception as exc:  # (never fails the actor: its configuration's word holds meanwhile)
            if not self._switch_warned:
                self._switch_warned = True
                log.warning("tournament %s: its deal switch could not be read yet: %s", self.tid, exc)
            return
        self._switch_unread = False
        allowed = stored.get(self.tid)
        if allowed is not None and allowed != self.director.config.deals:
            await self.process(self.director.set_deals(allowed, self.clock.now()))

    async def _deal_news(self, item: DealProposed | DealOffered | DealAccepted | DealClosed) -> None:
        """Every entrant hears of the deal (a ``tournament_deal`` frame); a deal made is audited."""
        d = self.director
        names = d.entrants
        frame: dict[str, Any]
        if isinstance(item, DealProposed):
            frame = {"state": "proposed", "method": item.method, "player": names[item.player].name}
        elif isinstance(item, DealAccepted):
            frame = {"state": "accepted", "player": names[item.player].name}
        elif isinstance(item, DealOffered):
            self._offer = item
            _, figures = d.deal_figures(list(item.stacks))
            frame = {
                "state": "offered",
                "method": item.method,
                "keep": item.keep,
                "players": [names[p].name for p in item.players],
                "stacks": list(item.stacks),
                "amounts": list(item.amounts),
                "figures": figures,  # both methods' amounts of these stacks, to compare
                "deadline": item.deadline.isoformat(),
                "expires_in": max(0.0, (item.deadline - self.clock.now()).total_seconds()),
            }
        else:
            who = names[item.player].name if item.player is not None else None
            frame = {"state": "closed", "made": item.made, "reason": item.reason, "player": who}
            offer, self._offer = self._offer, None
            if item.made and offer is not None:
                with contextlib.suppress(StoreError):
                    await self.services.store.audit.record(
                        None,
                        "tournament",
                        "tournament.deal",
                        self.tid,
                        after={
                            "method": offer.method,
                            "keep": offer.keep,
                            "players": [names[p].name for p in offer.players],
                            "stacks": list(offer.stacks),
                            "amounts": list(offer.amounts),
                            "currency": self.currency,
                        },
                    )
        self._notify_all({"type": "tournament_deal", **frame})
        for table_id in list(self.cores):
            self._snapshots(table_id)

    async def end(self) -> None:
        """An operator ends the running tournament (``TournamentDirector.interrupt``): the hands in
        progress are void (their decks never revealed), and the pool is paid out by the interrupted-
        tournament rule in the step's one stored transaction. ``TableError`` when it is not running."""
        hands = self.live_hands()
        out = self.director.interrupt(self.clock.now())
        for hand_id in hands:
            self.services.seals.done(hand_id)
        await self.process(out)

    # ----------------------------------------------------------------------------- registration

    def check_open(self) -> None:
        """Refuse a request while the store is away or the tournament is suspended (a step it could not
        store comes first: see void)."""
        self.check_dealing()

    async def register(self, player: str, name: str, *, ticket: bool = False) -> None:
        self.check_open()
        others = [e.player for e in self.director.entrants.values() if not e.out]
        await check_seat(self.services.seat_rule, self.services.store, player, others, "tournament")
        await self._check_stake(player, 0 if ticket else None, "registration")
        out, by_ticket = await self.bank.register(player, name, self.clock.now(), ticket=ticket)
        if not by_ticket:
            await self.services.players.send_balance(player, self.currency)
        await self.process(out)
        await self._maybe_respawn()

    async def restore(self, entries: list[StoredEntry]) -> None:
        await self.process(await self.bank.restore(entries, self.clock.now()))
        await self._maybe_respawn()

    async def _maybe_respawn(self) -> None:
        """A sit-and-go of a series opens the next copy when it starts; a satellite's series stops once its
        target is over (cancelled or finished: its tickets could only be cashed)."""
        if self.series and not self._respawned and self.director.status == "running":
            self._respawned = True
            target = self.director.config.target
            if self.director.config.is_satellite and target:
                with contextlib.suppress(StoreError):
                    if await target_over(self.services.store, target):
                        return
            self.host.next_in_series(self)

    async def _check_stake(self, player: str, amount: int | None, what: str) -> None:
        """Limits, cool-off, self-exclusion (issue 29): the buy-in and fee from the wallet (0: a ticket)."""
        cfg = self.director.config
        cost = cfg.buy_in + cfg.fee if amount is None else amount
        await self.services.store.gaming.check_stake(store_id(player), self.currency, cost, what=what)

    async def rebuy(self, player: str, *, add_on: bool = False) -> None:
        self.check_open()
        await self._check_stake(player, None, "add-on" if add_on else "rebuy")
        out = await self.bank.rebuy(player, self.clock.now(), add_on=add_on)
        await self.services.players.send_balance(player, self.currency)
        await self.process(out)
        table = self.director.table_of(player)
        if table is not None:
            self._snapshots(table.tid)

    async def unregister(self, player: str) -> None:
        self.check_open()
        try:
            out = self.director.unregister(player, self.clock.now())
        except TableError as exc:
            raise Refused("unregister_refused", str(exc)) from None
        await self.process(out)

    # ----------------------------------------------------------------------------- processing

    def _rush_windows(self) -> RushWindows | None:
        rush = getattr(self.director, "rush", None)
        if rush is None:
            return None
        if self.windows is None or self.windows.pool is not rush:
            self.windows = RushWindows(rush, self.services.players, self.services.seals)
        return self.windows

    def _core(self, table_id: str) -> TableCore | None:
        core = self.cores.get(table_id)
        if core is not None:
            return core
        number = next((n for n, t in self.director.tables.items() if t.tid == table_id), None)
        if number is None:
            return None
        core = self.cores[table_id] = TableCore(
            table_id, lambda player: self._seat_at(number, player), self.services.seals
        )
        self._numbers[table_id] = number
        return core

    def _starting(self, item: HandEvents, step: Sequence[object]) -> HandState | None:
        """The hand these events start (None: they do not start one)."""
        if not any(isinstance(e, HandStarted) for e in item.events):
            return None
        table = next((t for t in self.director.tables.values() if t.tid == item.table_id), None)
        if table is not None and table.hand is not None and table.hand.hand_id == item.hand_id:
            return table.hand
        return next(
            (n.hand for n in step if isinstance(n, TableHandEnded) and n.hand_id == item.hand_id), None
        )

    def _reveal(
        self, hand_id: str, table_id: str, players: dict[int, tuple[str, str]], hand: HandState
    ) -> DeckProof | None:
        """The hand is over (and stored): its deck proof to the players dealt in (docs/fairness.md)."""
        notify = self.services.players.notify
        return self.services.seals.reveal(hand_id, table_id, players, hand.events, notify)

    def _seat_at(self, number: int, player: str) -> int | None:
        table = self.director.tables.get(number)
        return table.seat_of(player) if table is not None else None

    async def process(self, step: Sequence[object]) -> None:
        """Store what this step changed (money, chips, places, hands, status: one transaction), then tell
        the players (a store fault pauses the tournament: see server/faults.py)."""
        await super().process([_Store(list(step)), *step])

    async def do_item(self, item: object, step: Sequence[object]) -> None:
        now = self.clock.now()
        windows = self._rush_windows()
        if isinstance(item, _Store):
            try:
                if item.changes is None:
                    item.changes = await self.bank.changes_of(item.step, now)
                await self.bank.store_changes(item.changes)
            except Exception as exc:
                if not unavailable(exc) and not isinstance(exc, FenceLost):
                    self._unstored = list(step)  # (kept for the operator's resume: see void)
                raise
        elif windows is not None and self._is_rush(item, windows):
            windows.process([item], now, {}, [x for x in step if not isinstance(x, _Store)])
            if isinstance(item, HandFinished):
                self.hand_finished()
                self.rush_hands += 1
                if self.services.metrics is not None:
                    self.services.metrics.hand(self.kind, game_of(item.record.hand))
                record = item.record
                proof = self._reveal(record.hand_id, record.table_id, dict(record.players), record.hand)
                self.services.last_hands.add(replace(record, proof=proof))
        elif isinstance(item, HandEvents):
            hand = self._starting(item, step)
            if hand is not None:
                self.services.seals.of(hand)  # its commitment goes out with ``hand_started``
            core = self._core(item.table_id)
            if core is not None:
                core.events(item)
        elif isinstance(item, TurnClock):
            core = self._core(item.table_id)
            table = self.director.tables.get(self._numbers.get(item.table_id, -1))
            if (
                core is not None
                and table is not None
                and table.hand is not None
                and item.seat in table.clocks
            ):
                core.turn(table.hand, item, now)
        elif isinstance(item, PlayerMoved):
            table = self.director.tables[item.table_no]
            frame = {"type": "tournament_seat", "tournament": self.tid, "table": table.tid, "seat": item.seat}
            self.services.players.notify(item.player, orjson.dumps(frame).decode())
            self._snapshots(table.tid)
        elif isinstance(item, TableHandEnded):
            self.hand_finished()
            self._reveal(item.hand_id, item.table_id, item.players, item.hand)
            self.hands_played += 1
            if self.services.metrics is not None:
                self.services.metrics.hand(self.kind, game_of(item.hand))
            self._snapshots(item.table_id)
        elif isinstance(item, TournamentRefund):
            if not item.ticket:
                await self.services.players.send_balance(item.player, self.currency)
        elif isinstance(item, TournamentPrize):  # (a player's entries' prizes add up: R261)
            self.prizes[item.player] = self.prizes.get(item.player, 0) + item.amount
            await self.services.players.send_balance(item.player, self.currency)
        elif isinstance(item, TournamentBounty):
            await self.services.players.send_balance(item.player, self.currency)
        elif isinstance(item, TournamentDealPaid):
            self.prizes[item.player] = self.prizes.get(item.player, 0) + item.amount
            await self.services.players.send_balance(item.player, self.currency)
        elif isinstance(item, DealProposed | DealOffered | DealAccepted | DealClosed):
            await self._deal_news(item)
        elif isinstance(item, TournamentShare):
            self.prizes[item.player] = self.prizes.get(item.player, 0) + item.amount
            await self.services.players.send_balance(item.player, self.currency)
        elif isinstance(item, TournamentTicket):
            await self._use_ticket(item)
        elif isinstance(item, TournamentPoints):
            key = self._keys.setdefault(id(item), f"tpoints:{self.tid}:{item.player}:{secrets.token_hex(6)}")
            await self.services.store.ledger.accrue_points(
                store_id(item.player), item.centipoints, idempotency_key=key, reason=f"tournament {self.tid}"
            )
            self._keys.pop(id(item), None)
        elif isinstance(item, Finished):
            self.finished_at = now
            self._notify_all({"type": "tournament_status", "status": self.director.status})

    async def after_step(self, step: Sequence[object]) -> None:
        self._close_gone_tables()
        self.list_endpoints()
        if self.on_under_way is not None and self.director.status not in ("announced", "registering"):
            under_way, self.on_under_way = self.on_under_way, None
            under_way(self)
        note_tournament_status(self)  # (tournament_started, _finished, _cancelled: server/logs.py)

    def list_endpoints(self) -> None:
        """Keep the room's index of endpoints (server/endpoints.py) up to date with the tables this
        tournament runs now, and its pool phase."""
        index = self.services.endpoints
        open_ids = {t.tid for t in self.director.tables.values()}
        for table_id in open_ids - self._listed.keys():
            self._listed[table_id] = ep = TournamentTableEndpoint(self, table_id)
            index.add_table(table_id, ep)
        for table_id in self._listed.keys() - open_ids:
            index.remove_table(table_id, self._listed.pop(table_id))
        windows = self._rush_windows()
        pid = windows.pid if windows is not None else None
        if self._listed_pool is not None and self._listed_pool[0] != pid:
            index.remove_pool(*self._listed_pool)
            self._listed_pool = None
        if pid is not None and self._listed_pool is None:
            self._listed_pool = (pid, RushTournamentPool(self))
            index.add_pool(*self._listed_pool)

    @staticmethod
    def _is_rush(item: object, windows: RushWindows) -> bool:
        if isinstance(item, EntryMoved | EntryWaiting | EntryLeft | HandFinished):
            return True
        return isinstance(item, HandEvents | TurnClock) and windows.owns_table(item.table_id)

    def _close_gone_tables(self) -> None:
        """Tell the watchers of every table that closed (broken up, or the tournament is over)."""
        open_ids = {t.tid for t in self.director.tables.values()}
        reason = "finished" if self.director.status in ("finished", "cancelled") else "broken"
        for table_id in [t for t in self.cores if t not in open_ids]:
            core = self.cores.pop(table_id)
            self._numbers.pop(table_id, None)
            core.close(reason, self._moved_to)

    def _moved_to(self, watch: Watch) -> Mapping[str, Any] | None:
        if watch.player is None:
            return None
        table = self.director.table_of(watch.player)
        seat = table.seat_of(watch.player) if table is not None else None
        return {"table": table.tid, "seat": seat} if table is not None and seat is not None else None

    async def _use_ticket(self, item: TournamentTicket) -> None:
        """A satellite seat (kept in the store): registered at once for the target if it is open; when the
        target can no longer take it (its registration closed, cancelled, over), its value goes to the
        winner's wallet at once (docs/tournaments.md, "Satellite tickets whose target is gone")."""
        self.tickets_won[item.player] = item.target
        name = self.director.entrants[item.player].name
        closed = False
        try:
            await self.host.register_with_ticket(item.target, item.player, name)
        except Refused as exc:  # (a target that has not opened its registration yet keeps the ticket)
            closed = exc.code == "registration_closed" and exc.details.get("status") not in (
                "announced",
                "registering",
            )
        except (TableError, StoreError):
            pass
        with contextlib.suppress(StoreError):
            if closed or await target_over(self.services.store, item.target):
                await self._cash_ticket(item)

    async def _cash_ticket(self, item: TournamentTicket) -> None:
        store = self.services.store
        cash = await cash_tickets_for(store, item.target, "target closed", player=store_id(item.player))
        if cash is not None:
            await store.tournaments.apply(self.tid, TournamentChanges(cash_tickets=cash))
            await self.services.players.send_balance(item.player, self.currency)

    # ----------------------------------------------------------------------------- broadcasting

    def tell_seat(self, conn: Connection) -> None:
        """A (re)connecting player still in this tournament is told where he sits; in the Rush phase his
        window comes back."""
        if conn.player is None:
            return
        e = self.director.entrants.get(conn.player)
        table = self.director.table_of(conn.player)
        if e is not None and not e.out and table is not None:
            msg = {"type": "tournament_seat", "tournament": self.tid, "table": table.tid, "seat": e.seat}
            conn.send(orjson.dumps(msg).decode())
        windows = self._rush_windows()
        if windows is not None:
            windows.resync(conn, self.clock.now())

    def _notify_all(self, message: dict[str, Any]) -> None:
        message["tournament"] = self.tid
        text = orjson.dumps(message).decode()
        for player in self.director.entrants:
            self.services.players.notify(player, text)

    def _snapshots(self, table_id: str) -> None:
        """Seats, stacks or the level changed at a table: every watcher gets a fresh snapshot."""
        core = self.cores.get(table_id)
        number = self._numbers.get(table_id)
        if core is None or number is None:
            return
        now = self.clock.now()
        for watch in list(core.watchers.values()):
            state = self.services.seals.stamp(tournament_table_view(self.director, number, watch.player, now))
            if state is not None:
                frame = {"type": "snapshot", "table": table_id, "seq": core.seq, "state": state}
                send_frame(watch.send, frame)

    # ------------------------------------------------------------------------------ its tables

    def _table(self, table_id: str) -> tuple[TableCore, TournamentTable]:
        core = self._core(table_id)
        table = self.director.tables.get(self._numbers.get(table_id, -1))
        if core is None or table is None:
            raise Refused("table_closed", "this tournament table is closed", table=table_id)
        return core, table

    async def subscribe(self, conn: Connection, table_id: str) -> dict[str, Any]:
        core, table = self._table(table_id)
        core.watch(conn, Watch(conn.send, conn.player))
        if conn.player is not None:
            self.director.set_connected(conn.player, True)
        state = tournament_table_view(self.director, table.number, conn.player, self.clock.now())
        self.services.seals.stamp(state)
        if state is not None:
            state["paused"] = self.pause is not None
        return {"type": "snapshot", "table": table_id, "seq": core.seq, "state": state}

    async def unsubscribe(self, conn: Connection, table_id: str) -> None:
        core = self.cores.get(table_id)
        if core is not None:
            core.unwatch(conn)

    def forget(self, conn: Connection) -> None:
        for core in self.cores.values():
            core.unwatch(conn)

    async def table_request(
        self, conn: Connection, table_id: str, name: str, data: dict[str, Any] | None = None
    ) -> None:
        """``sit_out`` and ``sit_in`` (``data``, the message's other fields, change nothing here: a
        tournament player sits out from the next hand); the cash tables' other requests are refused."""
        player = login_of(conn)
        self.check_open()
        self._table(table_id)
        d = self.director
        if name == "sit_out":
            d.sit_out(player)
        elif name == "sit_in":
            d.sit_in(player)
        else:
            raise Refused("tournament_table", f"{name} is not possible at a tournament table", request=name)
        self._snapshots(table_id)

    async def act(
        self, conn: Connection, table_id: str, hand_id: str, action_no: int, action: Action
    ) -> bool:
        player = login_of(conn)
        core, table = self._table(table_id)
        return await self.play(
            lambda: core.accept(table.hand, player, table.seat_of(player), hand_id, action_no, action),
            lambda command: self.director.act(player, command, self.clock.now()),
            lambda number: core.applied(hand_id, number, player, action),
        )

    async def chat(self, conn: Connection, table_id: str, text: str) -> None:
        player = login_of(conn)
        clean = chat_text(text)
        core, table = self._table(table_id)
        allowed = self.director.config.table_chat  # the operator's setting (issue 35)
        if allowed == "off":
            raise Refused("chat_off", "chat is off at this tournament's tables")
        if table.seat_of(player) is None and (allowed == "players" or not core.watched_by(player)):
            raise Refused("not_seated", "only players at the table may chat")
        await say(self.services.chat, core, conn, table_id, clean)

    async def follow(self, conn: Connection, on: bool) -> None:
        """A connection opened (``on``) or left the tournament's page: its lobby chat reaches it."""
        self.lobby.follow(conn, on)

    async def lobby_chat(self, conn: Connection, text: str) -> None:
        """A line in the tournament's lobby chat (lobby.py: the operator's ``lobby_chat``, moderation)."""
        await self.lobby.say(conn, text)

    # ---------------------------------------------------------------------------- the Rush phase

    def rush_windows(self) -> RushWindows | None:
        return self._rush_windows()

    async def pool_act(
        self, conn: Connection, entry: int, hand_id: str, action_no: int, action: Action
    ) -> bool:
        player = login_of(conn)
        windows = self._rush_windows()
        if windows is None:
            raise Refused("stale_hand", "the Rush phase is over")
        e = windows.entry_of(player, entry)
        table = e.table or "" if e is not None else ""
        return await self.play(
            lambda: windows.accept(player, entry, hand_id, action_no, action),
            lambda command: self.director.act(player, command, self.clock.now()),
            lambda number: windows.applied(table, hand_id, number, player, action),
        )

    async def quick_fold(self, conn: Connection, entry: int) -> None:
        player = login_of(conn)
        self.check_open()
        windows = self._rush_windows()
        if windows is None or not isinstance(self.director, RushTournamentDirector):
            raise QuickFoldRefused(None, "it is played in a Rush tournament's pool phase only (R215)")
        windows.entry(player, entry)  # (unknown_entry)
        await self.process(self.director.quick_fold(player, self.clock.now()))

    # ---------------------------------------------------------------------------------- views

    def summary(self) -> dict[str, Any]:
        return {**director_summary(self.director), "state": self.state, "suspended": self.suspended}

    def details(self) -> dict[str, Any]:
        return tournament_details(
            self.director, self.clock.now(), prizes=self.prizes, tickets=self.tickets_won
        )


class TournamentTableEndpoint:
    """One table of a tournament as a :class:`~pokerroom.server.endpoints.TableEndpoint`: watched and
    played as any table; a seat comes from registering, and of the table's requests only sitting out and
    in apply."""

    __slots__ = ("actor", "table_id")

    def __init__(self, actor: TournamentActor, table_id: str) -> None:
        self.actor = actor
        self.table_id = table_id

    @property
    def owner(self) -> TournamentActor:
        return self.actor

    async def subscribe(self, conn: Connection) -> dict[str, Any]:
        return await self.actor.subscribe(conn, self.table_id)

    async def unsubscribe(self, conn: Connection) -> None:
        await self.actor.unsubscribe(conn, self.table_id)

    async def sit(self, conn: Connection, seat: int, buy_in: int, post_now: bool) -> None:
        raise Refused("tournament_table", "register for the tournament to play", table=self.table_id)

    async def act(self, conn: Connection, hand_id: str, action_no: int, action: Action) -> bool:
        return await self.actor.act(conn, self.table_id, hand_id, action_no, action)

    async def chat(self, conn: Connection, text: str) -> None:
        await self.actor.chat(conn, self.table_id, text)

    async def request(self, conn: Connection, name: str, data: dict[str, Any]) -> None:
        await self.actor.table_request(conn, self.table_id, name, data)


class RushTournamentPool:
    """A Rush tournament's pool phase as a :class:`~pokerroom.server.endpoints.PoolEndpoint`: its entries
    quick-fold and act; nobody joins or leaves it (one registers, and a tournament is played out)."""

    __slots__ = ("actor",)

    def __init__(self, actor: TournamentActor) -> None:
        self.actor = actor

    @property
    def owner(self) -> TournamentActor:
        return self.actor

    def _pid(self) -> str:
        windows = self.actor.rush_windows()
        return windows.pid if windows is not None else ""

    def owns_table(self, table: str) -> bool:
        windows = self.actor.rush_windows()
        return windows is not None and windows.owns_table(table)

    async def join(self, conn: Connection, entries: int, buy_in: int) -> list[int]:
        raise Refused("tournament_pool", "register for the tournament to play", pool=self._pid())

    async def leave(self, conn: Connection, entry: int | None) -> None:
        raise Refused("tournament_pool", "a tournament is played to the end", pool=self._pid())

    async def quick_fold(self, conn: Connection, entry: int) -> None:
        await self.actor.quick_fold(conn, entry)

    async def act(self, conn: Connection, entry: int, hand_id: str, action_no: int, action: Action) -> bool:
        return await self.actor.pool_act(conn, entry, hand_id, action_no, action)

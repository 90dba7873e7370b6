"""A Rush (fast-fold) pool: players join the pool, not a table; every hand is dealt at a freshly formed
table (RULES.md §8). Pure: time comes in as ``now``, randomness from the injected ``rng``, money out as
effects (keyed by entry: each entry is its own seat session).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pokerroom.cards import RandomSource
from pokerroom.engine import (
    BetDecision,
    Blinds,
    Command,
    EngineError,
    Fold,
    HandState,
    NotYourTurn,
    QuickFold,
    QuickFoldRefused,
    SeatSetup,
    Structure,
    TimeOut,
)
from pokerroom.rooms.clock import Clocks, spend_bank
from pokerroom.rooms.dealing import deal_deck
from pokerroom.rooms.effects import BuyIn, CashOut, EarlyExit, HandSettlement, TopUp
from pokerroom.rooms.errors import BuyInOutOfRange, TableError
from pokerroom.rooms.notices import HandEvents, HandFinished, Notice
from pokerroom.rooms.points import Discipline, PointsPolicy, hand_points, share_points
from pokerroom.rooms.record import FinishedHand
from pokerroom.rooms.rush_rules import (
    Block,
    PoolConfig,
    Waiting,
    form_tables,
    preflop_unraised,
    seat_order,
)
from pokerroom.rooms.view import seat_view, table_state

__all__ = [
    "Entry",
    "EntryLeft",
    "EntryMoved",
    "EntryWaiting",
    "RushPool",
    "RushTable",
    "entry_key",
    "rush_table_view",
]


def entry_key(player: str, number: int) -> str:
    """The id of a player's entry ``number`` in a pool (keys in :attr:`RushPool.entries`)."""
    return f"{player}#{number}"


Output = list[object]


@dataclass(frozen=True, slots=True)
class EntryMoved(Notice):
    """The entry was dealt a hand at a new table (the client moves its window there)."""

    entry: str
    player: str
    seat: int
    hand_id: str
    table: str  # the new table's id


@dataclass(frozen=True, slots=True)
class EntryWaiting(Notice):
    entry: str
    player: str


@dataclass(frozen=True, slots=True)
class EntryLeft(Notice):
    entry: str
    player: str
    stack: int


@dataclass(slots=True)
class Entry:
    entry_id: str
    player: str
    name: str
    stack: int
    time_bank: float
    first: bool = True
    since_bb: int = 0
    hands: int = 0
    state: str = "waiting"  # waiting, playing, busted
    table: str | None = None
    seat: int | None = None
    leaving: bool = False
    disconnected_at: datetime | None = None
    queued: int = 0
    number: int = 1  # the entry's number among its player's entries (1..max_entries)


@dataclass(slots=True)
class RushTable:
    table_id: str
    hand: HandState
    entries: dict[int, str]  # seat -> entry id (entries that quick-folded stay listed)
    names: dict[int, tuple[str, str]]  # seat -> (player, name)
    started_at: datetime
    left: set[int] = field(default_factory=set)  # seats whose entry quick-folded and moved on
    released: dict[str, int] = field(default_factory=dict)
    clocks: Clocks = field(init=False)

    def __post_init__(self) -> None:
        self.clocks = Clocks(self.table_id)


class RushPool:
    def __init__(self, config: PoolConfig, rng: RandomSource, points: PointsPolicy | None = None) -> None:
        self.config = config
        self.rng = rng
        self.points = points
        self.entries: dict[str, Entry] = {}
        self.queue: list[str] = []
        self.tables: dict[str, RushTable] = {}
        self.blocks: list[Block] = []
        self._tables_made = 0
        self._queued = 0
        self.hands_dealt = 0
        # Rush tournaments change these as players go out and levels rise (RULES.md §8.9).
        self.table_size = config.table_size
        self.stakes = config.stakes
        self.tournament = False  # tournament chips: no rake, the fixed-limit cap kept heads-up
        self.dealing = True

    @property
    def pid(self) -> str:
        return self.config.pool_id

    # ---------------------------------------------------------------------------------- queries

    def names_table(self, table_id: str) -> bool:
        """Is ``table_id`` the name of one of this pool's tables, now or in the past?"""
        prefix = f"{self.pid}-t"
        return table_id.startswith(prefix) and table_id[len(prefix) :].isdigit()

    def entries_of(self, player: str) -> list[Entry]:
        return [e for e in self.entries.values() if e.player == player]

    @property
    def size(self) -> int:
        """Entries in the pool that can play: waiting or playing (a busted entry waits for its top-up or
        its removal and fills no table)."""
        return sum(1 for e in self.entries.values() if e.state != "busted")

    def quick_fold_offered(self) -> bool:
        """Quick Fold is shown only while the pool can fill two full tables (R202)."""
        return self.size >= 2 * self.table_size

    def verify_quick_fold(self, entry_id: str) -> None:
        """May the entry Quick Fold now? The pool's rule (R202: only while it fills two full tables) and
        the hand's (:meth:`HandState.verify_quick_fold`, R200, R201); raises :class:`QuickFoldRefused`."""
        e = self.entries.get(entry_id)
        if e is None or e.table is None or e.seat is None or e.table not in self.tables:
            raise QuickFoldRefused(None, "the entry is not in a hand")
        if not self.quick_fold_offered():
            raise QuickFoldRefused(e.seat, "Quick Fold needs a pool that fills two full tables (R202)")
        self.tables[e.table].hand.verify_quick_fold(e.seat)

    def can_quick_fold(self, entry_id: str) -> bool:
        try:
            self.verify_quick_fold(entry_id)
        except QuickFoldRefused:
            return False
        return True

    # ----------------------------------------------------------------------------- entries

    def join(self, player: str, name: str, buy_in: int, now: datetime) -> Output:
        """A new entry (R196: at most ``max_entries`` per player); it posts the BB on its first hand."""
        self.check_join(player, buy_in)
        numbers = {e.number for e in self.entries_of(player)}
        number = min(n for n in range(1, self.config.max_entries + 1) if n not in numbers)
        entry = Entry(entry_key(player, number), player, name, buy_in, self.config.timing.time_bank)
        entry.number = number
        self.entries[entry.entry_id] = entry
        out: Output = [BuyIn(self.pid, player, number, buy_in, entry.entry_id)]
        out += self._enqueue(entry)
        return out

    def restore(self, player: str, name: str, stack: int, now: datetime) -> Output:
        """An entry whose chips are in the pool already (a cluster's host took the pool over:
        docs/cluster.md): it waits for its next table with its seat session's balance; no buy-in."""
        numbers = {e.number for e in self.entries_of(player)}
        free = [n for n in range(1, self.config.max_entries + 1) if n not in numbers]
        if not free:
            raise TableError(f"at most {self.config.max_entries} entries per player in a pool")
        entry = Entry(entry_key(player, free[0]), player, name, stack, self.config.timing.time_bank)
        entry.number = free[0]
        self.entries[entry.entry_id] = entry
        return self._enqueue(entry)

    def check_join(self, player: str, buy_in: int) -> None:
        if len(self.entries_of(player)) >= self.config.max_entries:
            raise TableError(f"at most {self.config.max_entries} entries per player in a pool")
        lo, hi = self.config.buy_in_range
        if not isinstance(buy_in, int) or buy_in < lo or (hi and buy_in > hi):
            raise BuyInOutOfRange(buy_in if isinstance(buy_in, int) else 0, lo, hi)

    def _enqueue(self, entry: Entry) -> Output:
        entry.state = "waiting"
        entry.table = entry.seat = None
        self._queued += 1
        entry.queued = self._queued
        self.queue.append(entry.entry_id)
        return [EntryWaiting(self.pid, entry.entry_id, entry.player)]

    def top_up(self, entry_id: str, amount: int, now: datetime) -> Output:
        e = self._entry(entry_id)
        hi = self.config.buy_in_range[1]
        if e.state == "playing":
            raise TableError("top up between hands")
        if not isinstance(amount, int) or amount <= 0 or (hi and e.stack + amount > hi):
            raise BuyInOutOfRange(amount if isinstance(amount, int) else 0, 1, max(0, hi - e.stack))
        e.stack += amount
        out: Output = [TopUp(self.pid, e.player, 0, amount, e.entry_id)]
        if e.state == "busted":
            out += self._enqueue(e)
        return out

    def leave(self, entry_id: str, now: datetime) -> Output:
        """Leave the pool: at once when waiting; by a quick fold when one is allowed; else its turns time
        out at once (check, or fold) and it leaves when it folds or the hand ends (§8.2)."""
        e = self._entry(entry_id)
        if e.state != "playing":
            return self._remove(e)
        e.leaving = True
        if self.can_quick_fold(entry_id):
            return self.quick_fold(entry_id, now)
        t = self.tables.get(e.table or "")
        if t is not None and isinstance(t.hand.pending, BetDecision) and t.hand.pending.seat == e.seat:
            return self._after(t, now)  # its turn now: timed out at once (see _after)
        return []

    def eliminate(self, entry_id: str) -> None:
        """Rush tournaments: a player out of chips leaves the pool (tournament chips are not money)."""
        e = self.entries.pop(entry_id, None)
        if e is not None and entry_id in self.queue:
            self.queue.remove(entry_id)

    def _remove(self, e: Entry) -> Output:
        if e.entry_id in self.queue:
            self.queue.remove(e.entry_id)
        del self.entries[e.entry_id]
        return [
            CashOut(self.pid, e.player, 0, e.stack, e.entry_id),
            EntryLeft(self.pid, e.entry_id, e.player, e.stack),
        ]

    def connect(self, player: str) -> None:
        for e in self.entries_of(player):
            e.disconnected_at = None

    def disconnect(self, player: str, now: datetime) -> None:
        for e in self.entries_of(player):
            if e.disconnected_at is None:
                e.disconnected_at = now

    def _entry(self, entry_id: str) -> Entry:
        e = self.entries.get(entry_id)
        if e is None:
            raise TableError("no such entry in this pool")
        return e

    # ----------------------------------------------------------------------------- quick fold

    def quick_fold(self, entry_id: str, now: datetime) -> Output:
        """Fold now and move at once to a new hand (RULES.md §8.5). Out of turn, the fold stays hidden at
        the old table until the action reaches the seat (R204) and blocks re-seating with the players still
        in that hand (§8.6)."""
        e = self._entry(entry_id)
        self.verify_quick_fold(entry_id)
        assert e.table is not None and e.seat is not None
        t = self.tables[e.table]
        hand = t.hand
        pending = hand.pending
        if not (isinstance(pending, BetDecision) and pending.seat == e.seat):
            for seat, (y, _) in t.names.items():  # §8.6: blocks with every player still in the hand
                if seat != e.seat and self._still_in(t, seat):
                    self.blocks.append(Block(e.player, y, t.table_id))
        out = self._apply(t, QuickFold(e.seat), now)
        out += self._release(t, e, now)
        self._prune_blocks(t)
        return out

    @staticmethod
    def _still_in(t: RushTable, seat: int) -> bool:
        p = t.hand.players[seat]
        return seat not in t.left and not p.folded and not p.quick_folded

    def _release(self, t: RushTable, e: Entry, now: datetime) -> Output:
        """The entry leaves the hand: its result so far is final and booked; it plays on elsewhere."""
        if e.seat is None or e.table != t.table_id or t.hand.is_over or e.seat in t.left:
            return []  # the hand ended with the fold: the entry was settled and moved with the others
        p = t.hand.players[e.seat]
        result = -p.paid
        t.left.add(e.seat)
        t.released[e.entry_id] = result
        e.stack = p.stack
        t.clocks.stop(e.seat)
        out: Output = [EarlyExit(self.pid, t.hand.hand_id, e.entry_id, result, t.table_id)]
        if e.leaving:
            out += self._remove(e)
        elif e.stack <= 0:
            e.state = "busted"
            e.table = e.seat = None
        else:
            out += self._enqueue(e)
        return out

    def _prune_blocks(self, t: RushTable) -> None:
        """A block from table ``t`` ends once its player ``y`` has no entry left in that hand (§8.6, 1b)."""
        inside = {t.names[s][0] for s in t.entries if self._still_in(t, s)}
        self.blocks = [b for b in self.blocks if b.table != t.table_id or b.y in inside]

    # --------------------------------------------------------------------------------- playing

    def act(self, entry_id: str, command: Command, now: datetime) -> Output:
        e = self._entry(entry_id)
        if e.table is None or e.seat is None:
            raise TableError("this entry is not in a hand")
        if command.seat != e.seat:
            raise NotYourTurn(command.seat, ())
        t = self.tables[e.table]
        out = self._apply(t, command, now)
        if isinstance(command, Fold) and e.table == t.table_id and t.hand.players[e.seat].folded:
            out += self._release(t, e, now)  # a fold in turn also moves the entry at once (R213)
        return out

    def _apply(self, t: RushTable, command: Command, now: datetime, *, timed_out: bool = False) -> Output:
        seat = command.seat
        events = t.hand.apply(command)
        clock = t.clocks.stop(seat)
        eid = t.entries[seat]
        e = self.entries.get(eid)
        if e is not None and clock is not None and e.table == t.table_id:
            e.time_bank = spend_bank(e.time_bank, clock, now, timed_out=timed_out)
        out: Output = [HandEvents(t.table_id, t.hand.hand_id, tuple(events), tuple(t.entries))]
        self._prune_blocks(t)
        return out + self._after(t, now)

    def _after(self, t: RushTable, now: datetime) -> Output:
        hand = t.hand
        if hand.is_over:
            return self._finish(t, now)
        pending = hand.pending
        out: Output = []
        if isinstance(pending, BetDecision):
            seat = pending.seat
            e = self.entries.get(t.entries[seat])
            if seat in t.left or e is None or e.table != t.table_id:
                return self._apply(t, Fold(seat) if pending.fold else TimeOut(seat), now)
            if e.leaving:  # it asked to leave: its turns time out at once, and a fold frees it (§8.2)
                out = self._apply(t, TimeOut(seat), now, timed_out=True)
                if e.table == t.table_id and t.hand.players[seat].folded:
                    out += self._release(t, e, now)
                return out
            if e.disconnected_at is not None:
                return self._apply(t, TimeOut(seat), now, timed_out=True)
        timing = self.config.timing
        reduced = preflop_unraised(hand)  # R209, R210: the reduced action time, and no time bank
        out += t.clocks.sync(
            hand.waiting_for(),
            now,
            action=timing.reduced_action if reduced else timing.action,
            bank=lambda seat: self._bank(t, seat),
            bank_usable=not reduced,
        )
        return out

    def _bank(self, t: RushTable, seat: int) -> float:
        e = self.entries.get(t.entries[seat])
        return e.time_bank if e is not None else 0.0

    def _finish(self, t: RushTable, now: datetime) -> Output:
        hand = t.hand
        stacks = hand.stacks()
        results: dict[str, int] = {}
        for seat, eid in t.entries.items():
            if eid in t.released:
                continue
            results[eid] = stacks[seat] - hand.players[seat].starting_stack
        contributions = {t.entries[s]: c for s, c in hand.contributions().items()}
        points: dict[str, int] = {}
        if hand.rake and self.points is not None:
            discipline = Discipline(self.config.variant, self.config.betting, "rush")
            total = hand_points(hand.rake, self.points.multiplier_pct(discipline, t.started_at))
            by_seat = share_points(total, hand.contributions(), hand.clockwise_from_button())
            points = {t.entries[s]: v for s, v in by_seat.items() if v}
        settlement = HandSettlement(
            self.pid, hand.hand_id, results, hand.rake, contributions, points, dict(t.released)
        )
        record = FinishedHand(
            hand.hand_id,
            t.table_id,
            self.config.name,
            self.config.table_size,
            self.config.currency,
            t.started_at,
            dict(t.names),
            hand,
            settlement,
        )
        out: Output = [settlement, HandFinished(self.pid, record)]
        self.blocks = [b for b in self.blocks if b.table != t.table_id]  # R208
        del self.tables[t.table_id]
        for seat, eid in t.entries.items():
            e = self.entries.get(eid)
            if e is None or eid in t.released or e.table != t.table_id:
                continue
            e.stack = stacks[seat]
            e.table = e.seat = None
            if e.leaving:
                out += self._remove(e)
            elif e.stack <= 0:
                e.state = "busted"
            else:
                out += self._enqueue(e)
        return out

    # ------------------------------------------------------------------------------ dealing

    def deal(self, now: datetime) -> Output:
        """Form every table the queue allows and deal a hand at each (§8.3, §8.4)."""
        waiting = [
            Waiting(eid, e.player, e.first, e.first and e.hands > 0)
            for eid in self.queue
            if (e := self.entries[eid]).stack > 0
        ]
        out: Output = []
        if not self.dealing:
            return []
        for chosen in form_tables(waiting, self.table_size, self.size, self.blocks):
            out += self._open_table(chosen, now)
        return out

    def _open_table(self, chosen: Sequence[Waiting], now: datetime) -> Output:
        cfg = self.config
        order = seat_order(chosen, {w.entry: self.entries[w.entry].since_bb for w in chosen}, self.rng)
        self._tables_made += 1
        tid = f"{self.pid}-t{self._tables_made}"
        n = len(order)
        seats = {i + 1: w.entry for i, w in enumerate(order)}
        for w in chosen:
            self.queue.remove(w.entry)
        st = self.stakes
        button = 1 if n == 2 else n
        live = tuple((s, st.big_blind) for s, eid in seats.items() if s > 2 and self.entries[eid].first)
        blinds = Blinds(small=(1, st.small_blind), big=(2, st.big_blind), live=live)
        hand = HandState.start(
            variant=cfg.spec,
            structure=Structure(cfg.betting, st, heads_up_uncapped=not self.tournament),
            seats=[SeatSetup(s, self.entries[eid].stack) for s, eid in seats.items()],
            deck=deal_deck(
                self.rng,
                cfg.spec.deck_for(n),
                reshuffle=cfg.spec.is_draw,
                key=self.pid,
                hand_id=f"{tid}-h",
                players={s: self.entries[eid].player for s, eid in seats.items()},
            ),
            button=button,
            blinds=blinds,
            rake=None if self.tournament else cfg.rake,
            hand_id=f"{tid}-h",
        )
        names = {s: (self.entries[eid].player, self.entries[eid].name) for s, eid in seats.items()}
        t = RushTable(tid, hand, seats, names, now)
        self.tables[tid] = t
        self.hands_dealt += 1
        out: Output = []
        for s, eid in seats.items():
            e = self.entries[eid]
            e.state, e.table, e.seat = "playing", tid, s
            # A new entry that had to take the small blind (a table of new entries) still owes its big
            # blind and posts it on its next hand: the big blind, or a live one if another owing entry
            # got the big blind; it is not given the small blind again (seat_order, form_tables).
            e.first = e.first and s == 1
            e.hands += 1
            e.since_bb = 0 if s == 2 else e.since_bb + 1
            e.time_bank = cfg.timing.time_bank  # R211
            out.append(EntryMoved(self.pid, eid, e.player, s, hand.hand_id, tid))
        out.append(HandEvents(tid, hand.hand_id, tuple(hand.events), tuple(seats)))
        return out + self._after(t, now)

    # ----------------------------------------------------------------------------- store faults

    def restart_clocks(self, now: datetime) -> Output:
        """After a pause (the store was unavailable): every pending decision gets its whole time again."""
        out: Output = []
        for t in list(self.tables.values()):
            t.clocks.clear()
            if not t.hand.is_over:
                out += self._after(t, now)
        return out

    def void_all(self, stacks: Mapping[str, int], now: datetime) -> Output:
        """Every hand in progress is void (the journal cancelled them: their chips never moved, and a quick
        fold's release went back): each entry's stack is ``stacks[entry]`` (its seat session's balance)
        and it waits for a new table; one that was leaving leaves; one with no chips is broke."""
        self.tables.clear()
        self.blocks.clear()
        self.queue.clear()
        out: Output = []
        for e in list(self.entries.values()):
            if e.entry_id in stacks:
                e.stack = stacks[e.entry_id]
            e.table = e.seat = None
            if e.leaving:
                out += self._remove(e)
            elif e.stack <= 0:
                e.state = "busted"
            else:
                out += self._enqueue(e)
        return out

    # --------------------------------------------------------------------------------- clock

    def tick(self, now: datetime) -> Output:
        out: Output = []
        for t in list(self.tables.values()):
            for seat in t.clocks.due(now):
                if t.table_id in self.tables and seat in t.clocks and not t.hand.is_over:
                    try:
                        out += self._apply(t, TimeOut(seat), now, timed_out=True)
                    except EngineError:
                        t.clocks.stop(seat)
        grace = self.config.timing.disconnect_grace
        for e in list(self.entries.values()):
            if e.disconnected_at is not None and (now - e.disconnected_at).total_seconds() >= grace:
                if e.state == "playing":
                    e.leaving = True
                else:
                    out += self._remove(e)
        out += self.deal(now)
        return out

    def next_deadline(self) -> datetime | None:
        times = [d for t in self.tables.values() if (d := t.clocks.next_deadline()) is not None]
        grace = timedelta(seconds=self.config.timing.disconnect_grace)
        times += [  # an entry already leaving goes at the end of its hand: no deadline of its own
            e.disconnected_at + grace
            for e in self.entries.values()
            if e.disconnected_at is not None and not (e.state == "playing" and e.leaving)
        ]
        return min(times) if times else None


def rush_table_view(pool: RushPool, table_id: str, entry_id: str, now: datetime) -> dict[str, Any] | None:
    """A Rush table as one entry seated there sees it (the ``snapshot`` of kind ``rush``); None when the
    entry is not at that table any more. Other players are shown by name only."""
    t = pool.tables.get(table_id)
    e = pool.entries.get(entry_id)
    if t is None or e is None or e.table != table_id or e.seat is None:
        return None
    hand = t.hand
    players = {
        str(s): seat_view(
            player if s == e.seat else None,
            name,
            hand.players[s].stack,
            "playing",
            (),
            e.time_bank if s == e.seat else 0.0,
        )
        for s, (player, name) in sorted(t.names.items())
    }
    return table_state(
        kind="rush",
        table_id=table_id,
        name=pool.config.name,
        spec=pool.config.spec,
        betting=pool.config.betting,
        currency=pool.config.currency,
        stakes=pool.stakes,
        seats=pool.table_size,
        players=players,
        you=e.seat,
        button=hand.button,
        hand=hand,
        dealt=e.seat,
        clocks=t.clocks,
        now=now,
        rush={
            "pool": pool.pid,
            "entry": e.number,
            "quick_fold": pool.quick_fold_offered(),
            "can_quick_fold": pool.can_quick_fold(entry_id),
        },
    )

"""The tournament director: registration, the clock, tables, eliminations, balancing, payouts
(RULES.md §9). Pure: ``now`` comes in, randomness from the injected ``rng``, money out as effects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from pokerroom.cards import RandomSource
from pokerroom.engine import Command
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.notices import HandEvents, Notice
from pokerroom.rooms.points import Discipline, PointsPolicy
from pokerroom.rooms.tournament.balance import (
    balance_move,
    bb_seat_for_newcomer,
    mover_blind_game,
    mover_stud,
    seats_for_broken_table,
    table_to_break,
)
from pokerroom.rooms.tournament.config import (
    TournamentBuyIn,
    TournamentConfig,
    TournamentOverlay,
    TournamentPoints,
    TournamentPrize,
    TournamentRefund,
    TournamentTicket,
)
from pokerroom.rooms.tournament.payouts import (
    SatellitePrizes,
    default_percentages,
    pay_places,
    prize_pool,
    satellite_prizes,
    split_ties,
)
from pokerroom.rooms.tournament.structure import BlindLevel, Schedule, level_stakes
from pokerroom.rooms.tournament.table import TableHandEnded, TournamentTable, TPlayer

__all__ = ["Entrant", "Finished", "PlayerMoved", "TournamentDirector"]

REBUY_WAIT = 15.0  # seconds a table waits after a hand in which someone went broke in the rebuy period

Output = list[object]


@dataclass(slots=True)
class Entrant:
    player: str
    name: str
    ticket: bool = False
    entries: int = 1  # buy-ins, rebuys and add-ons paid (each one's prize part goes to the pool)
    add_on: bool = False
    table: int | None = None
    seat: int | None = None
    stack: int = 0
    place: int | None = None  # finishing place once out (tied players share a place range)
    busted_at: int | None = None  # the elimination round


@dataclass(frozen=True, slots=True)
class PlayerMoved(Notice):
    """Seating at the start, balancing or a broken table: ``player`` now plays at ``table``/``seat``."""

    player: str
    table_no: int
    seat: int


@dataclass(frozen=True, slots=True)
class Finished(Notice):
    """The tournament is over (``cancelled`` if it never started)."""

    cancelled: bool
    standings: tuple[tuple[int, str], ...]


class TournamentDirector:
    def __init__(
        self, config: TournamentConfig, rng: RandomSource, points: PointsPolicy | None = None
    ) -> None:
        self.config = config
        self.rng = rng
        self.points = points
        self.status = "announced"
        self.entrants: dict[str, Entrant] = {}
        self.tables: dict[int, TournamentTable] = {}
        self.schedule: Schedule | None = None
        self.started_at: datetime | None = None
        self.pool = 0
        self.overlay = 0
        self.prizes: list[int] = []
        self.seats_won = 0  # satellite tickets
        self.hand_for_hand = False
        self._hfh_done: set[int] = set()
        self._hfh_busts: list[tuple[str, int]] = []
        self._next_hand: dict[int, datetime] = {}
        self._rounds = 0
        self._hand_no = 0
        self._paid: set[str] = set()

    # ------------------------------------------------------------------------------- queries

    @property
    def tid(self) -> str:
        return self.config.tournament_id

    @property
    def remaining(self) -> list[Entrant]:
        return [e for e in self.entrants.values() if e.place is None]

    def level(self, now: datetime) -> BlindLevel:
        return BlindLevel.default(self.schedule.level(now) if self.schedule else 1)

    def in_rebuy_period(self, now: datetime) -> bool:
        return (
            bool(self.config.rebuy_levels)
            and self.status == "running"
            and self.level(now).number <= (self.config.rebuy_levels)
        )

    def registration_open(self, now: datetime) -> bool:
        opens = self.config.registration_opens
        if self.status == "running":
            return self.late_registration(now)
        return self.status in ("announced", "registering") and (opens is None or now >= opens)

    def late_registration(self, now: datetime) -> bool:
        """Scheduled tournaments may take entries during their first ``late_registration_levels`` levels."""
        levels = self.config.late_registration_levels
        return bool(levels) and self.status == "running" and self.level(now).number <= levels

    def places_paid(self) -> int:
        if self.config.is_satellite:
            return self.seats_won + (1 if self._satellite().cash else 0)
        return len(self.prizes)

    def table_of(self, player: str) -> TournamentTable | None:
        e = self.entrants.get(player)
        return self.tables.get(e.table) if e is not None and e.table is not None else None

    # ------------------------------------------------------------------------- registration

    def register(self, player: str, name: str, now: datetime, *, ticket: bool = False) -> Output:
        """Register (R216: only once registration has opened); a sit-and-go starts the moment its last
        seat is taken (R218)."""
        if not self.registration_open(now):
            raise TableError("registration is not open")
        if player in self.entrants:
            raise TableError("you are registered already")
        cfg = self.config
        if cfg.max_players and len(self.entrants) >= cfg.max_players:
            raise TableError("the tournament is full")
        self.entrants[player] = Entrant(player, name, ticket=ticket)
        out: Output = [TournamentBuyIn(self.tid, player, cfg.buy_in, cfg.fee, "buy_in", ticket)]
        if self.status == "running":  # late registration: a starting stack at the shortest table
            self.pool += cfg.buy_in
            self._compute_prizes()
            out += self._award_points([player], cfg.fee, now)
            out += self._seat_late(player)
            return out
        self.status = "registering"
        if cfg.kind == "sng" and len(self.entrants) == cfg.max_players:
            out += self._start(now)
        return out

    def _seat_late(self, player: str) -> Output:
        cfg = self.config
        open_tables = [t for t in self.tables.values() if t.empty_seats()]
        if not open_tables:
            number = max(self.tables, default=0) + 1
            self.tables[number] = TournamentTable(
                self.tid, number, cfg.table_size, cfg.spec, cfg.betting, cfg.timing, self.rng
            )
            open_tables = [self.tables[number]]
        smallest = min(len(t.seats) for t in open_tables)
        table = min((t for t in open_tables if len(t.seats) == smallest), key=lambda t: t.number)
        empty = table.empty_seats()
        seat = empty[self.rng.randrange(len(empty))]
        e = self.entrants[player]
        e.stack, e.table, e.seat = cfg.starting_stack, table.number, seat
        table.add(TPlayer(player, e.name, seat, cfg.starting_stack, cfg.timing.time_bank), moved=True)
        return [PlayerMoved(self.tid, player, table.number, seat)]

    def unregister(self, player: str, now: datetime) -> Output:
        """A full refund while registration is open (R217); refused afterwards."""
        e = self.entrants.get(player)
        if e is None:
            raise TableError("you are not registered")
        if self.status != "registering":
            raise TableError("registration is closed: unregistering is no longer possible")
        del self.entrants[player]
        return [TournamentRefund(self.tid, player, self.config.buy_in, self.config.fee, e.ticket)]

    # ------------------------------------------------------------------------------ starting

    def _start(self, now: datetime) -> Output:
        cfg = self.config
        if len(self.entrants) < cfg.min_players:
            return self._cancel()
        self.status = "running"
        self.started_at = now
        breaks = cfg.break_minutes if cfg.kind == "mtt" else 0.0  # SNGs have no breaks
        self.schedule = Schedule(now, cfg.level_minutes, breaks)
        contributions = cfg.buy_in * len(self.entrants)
        self.pool, self.overlay = prize_pool(
            contributions, guarantee=cfg.guarantee, freeroll=cfg.freeroll_pool
        )
        out: Output = []
        if self.overlay:
            out.append(TournamentOverlay(self.tid, self.overlay))
        out += self._award_points(list(self.entrants), cfg.fee, now)
        self._compute_prizes()
        out += self._seat_everybody(now)
        return out

    def cancel(self) -> Output:
        """The operator cancels the tournament before it starts: every buy-in and fee is refunded (to the
        ticket it came from, if any), as when it is short of its minimum field (§9.2)."""
        if self.status not in ("announced", "registering"):
            raise TableError("only a tournament that has not started can be cancelled")
        return self._cancel()

    def _cancel(self) -> Output:
        """Below the minimum field at start time: cancelled, every buy-in refunded (§9.2)."""
        self.status = "cancelled"
        out: Output = [
            TournamentRefund(self.tid, e.player, self.config.buy_in, self.config.fee, e.ticket)
            for e in self.entrants.values()
        ]
        out.append(Finished(self.tid, True, ()))
        return out

    def _award_points(self, players: Sequence[str], fee: int, now: datetime) -> Output:
        if not fee or self.points is None:
            return []
        cfg = self.config
        pct = self.points.multiplier_pct(Discipline(cfg.variant, cfg.betting), now, cash=False)
        centipoints = fee * self.points.tournament_points_per_unit * pct // 100
        return [TournamentPoints(self.tid, p, centipoints) for p in players if centipoints]

    def _compute_prizes(self) -> None:
        cfg = self.config
        if cfg.is_satellite:
            sat = self._satellite()
            self.seats_won = sat.seats
            if sat.seats == 0:  # no seat and no guarantee: cash by the default table
                self.prizes = pay_places(self.pool, cfg.payouts or default_percentages(len(self.entrants)))
            return
        self.prizes = pay_places(self.pool, cfg.payouts or default_percentages(len(self.entrants)))

    def _satellite(self) -> SatellitePrizes:
        return satellite_prizes(self.pool, self.config.seat_value, self.config.guaranteed_seats)

    def _seat_everybody(self, now: datetime) -> Output:
        """Random tables and seats (R221); as many tables as needed, as evenly filled as possible."""
        cfg = self.config
        players = list(self.entrants)
        for i in range(len(players) - 1, 0, -1):
            j = self.rng.randrange(i + 1)
            players[i], players[j] = players[j], players[i]
        n_tables = -(-len(players) // cfg.table_size)
        out: Output = []
        for number in range(1, n_tables + 1):
            self.tables[number] = TournamentTable(
                self.tid, number, cfg.table_size, cfg.spec, cfg.betting, cfg.timing, self.rng
            )
        for k, player in enumerate(players):
            number = k % n_tables + 1
            table = self.tables[number]
            empty = table.empty_seats()
            seat = empty[self.rng.randrange(len(empty))]
            e = self.entrants[player]
            e.stack, e.table, e.seat = cfg.starting_stack, number, seat
            table.add(TPlayer(player, e.name, seat, cfg.starting_stack, cfg.timing.time_bank), moved=False)
            out.append(PlayerMoved(self.tid, player, number, seat))
        for number in self.tables:
            self._next_hand[number] = now
        return out

    # ------------------------------------------------------------------------------- playing

    def act(self, player: str, command: Command, now: datetime) -> Output:
        table = self.table_of(player)
        if table is None:
            raise TableError("you are not at a table of this tournament")
        return self._handle(table.act(player, command, now), now)

    def sit_out(self, player: str) -> None:
        """Sit out next hand: blinds are posted and the hand folded when the action reaches him (R223)."""
        table = self.table_of(player)
        if table is None or table.seat_of(player) is None:
            raise TableError("you are not playing")
        seat = table.seat_of(player)
        assert seat is not None
        table.seats[seat].sit_out_next_hand = True

    def sit_in(self, player: str) -> None:
        table = self.table_of(player)
        seat = table.seat_of(player) if table is not None else None
        if table is None or seat is None:
            raise TableError("you are not playing")
        p = table.seats[seat]
        p.sitting_out = p.sit_out_next_hand = False
        p.disconnected = False

    def set_connected(self, player: str, connected: bool) -> None:
        table = self.table_of(player)
        seat = table.seat_of(player) if table is not None else None
        if table is not None and seat is not None:
            table.seats[seat].disconnected = not connected

    def rebuy(self, player: str, now: datetime, *, add_on: bool = False) -> Output:
        """During the rebuy period a player at or below the starting stack may rebuy one starting stack
        between hands (R232); the add-on is taken once, at the end of the period."""
        cfg = self.config
        e = self.entrants.get(player)
        if e is None or e.place is not None:
            raise TableError("you are not in the tournament")
        table = self.table_of(player)
        if table is not None and table.in_hand and player in {p for p, _ in table.hand_players.values()}:
            raise TableError("rebuy between hands")
        if add_on:
            if not cfg.add_on or e.add_on or not self.rebuy_period_over_soon(now):
                raise TableError("the add-on is not available now")
            e.add_on = True
        else:
            if not self.in_rebuy_period(now):
                raise TableError("the rebuy period is over")
            if e.stack > cfg.starting_stack:
                raise TableError("only a player at or below the starting stack may rebuy")
        e.entries += 1
        e.stack += cfg.starting_stack
        if table is not None:
            seat = table.seat_of(player)
            assert seat is not None
            table.seats[seat].stack = e.stack
        self.pool += cfg.buy_in
        self._compute_prizes()
        kind = "add_on" if add_on else "rebuy"
        return [
            TournamentBuyIn(self.tid, player, cfg.buy_in, cfg.fee, kind),
            *self._award_points([player], cfg.fee, now),
        ]

    def rebuy_period_over_soon(self, now: datetime) -> bool:
        """The add-on window: the last level of the rebuy period or the break right after it."""
        if not self.config.rebuy_levels or self.status != "running":
            return False
        return self.level(now).number in (self.config.rebuy_levels, self.config.rebuy_levels + 1)

    # --------------------------------------------------------------------------------- clock

    def tick(self, now: datetime) -> Output:
        out: Output = []
        cfg = self.config
        if self.status in ("announced", "registering"):
            if cfg.kind == "mtt" and cfg.start_time is not None and now >= cfg.start_time:
                out += self._start(now)
            return out
        if self.status != "running":
            return out
        for table in list(self.tables.values()):
            out += self._handle(table.tick(now), now)
        assert self.schedule is not None
        if self.schedule.in_break(now):
            return out
        for number, table in list(self.tables.items()):
            if self.status != "running" or table.in_hand or number not in self.tables:
                continue
            if now < self._next_hand.get(number, now):
                continue
            if self.hand_for_hand and number in self._hfh_done:
                continue
            out += self._eliminate_waiting(table, now)
            if number not in self.tables or self.status != "running":
                continue
            self._hand_no += 1
            stakes = level_stakes(self.level(now), cfg.betting, cfg.spec.is_stud, cfg.ante)
            out += self._handle(table.start_hand(now, stakes, f"{self.tid}-{self._hand_no}"), now)
        return out

    def restart_clocks(self, now: datetime) -> Output:
        """After a pause (the store was unavailable): the pending decisions of every table get their whole
        time again, and the level clock is not moved (the levels are wall-clock time)."""
        out: Output = []
        for table in list(self.tables.values()):
            out += self._handle(table.restart_clocks(now), now)
        return out

    def next_deadline(self, now: datetime) -> datetime | None:
        """The next moment :meth:`tick` has something to do. Right after a tick at ``now`` nothing
        returned is due yet: a table waiting for the others (hand for hand) has no deadline of its own."""
        if self.status in ("announced", "registering"):
            start = self.config.start_time
            return start if self.config.kind == "mtt" and start is not None and start > now else None
        times = [t for table in self.tables.values() if (t := table.next_deadline()) is not None]
        times += [
            t
            for n, t in self._next_hand.items()
            if n in self.tables and not self.tables[n].in_hand and t > now
        ]
        if self.schedule is not None and (ends := self.schedule.break_ends(now)) is not None:
            times.append(ends)
        return min(times) if times else None

    # --------------------------------------------------------------------------- hand ends

    def _handle(self, out: Output, now: datetime) -> Output:
        result: Output = []
        for item in out:
            result.append(item)
            if isinstance(item, TableHandEnded):
                result += self._hand_ended(item, now)
        return result

    def _hand_ended(self, ended: TableHandEnded, now: datetime) -> Output:
        table = self.tables[ended.number]
        out: Output = []
        for player, stack in ended.stacks.items():
            self.entrants[player].stack = stack
        busted = [p for p, s in ended.stacks.items() if s == 0]
        rebuying = self.in_rebuy_period(now)
        wait = self.config.timing.between_hands + (REBUY_WAIT if busted and rebuying else 0)
        self._next_hand[ended.number] = now + timedelta(seconds=wait)
        if busted and not rebuying:
            if self.hand_for_hand:
                self._hfh_busts += [(p, ended.starting[p]) for p in busted]
            else:
                out += self._eliminate([(p, ended.starting[p]) for p in busted], now)
        if self.hand_for_hand:
            self._hfh_done.add(ended.number)
            if self._hfh_done >= set(self.tables):  # every table has played the hand-for-hand hand
                self._hfh_done = set()
                busts, self._hfh_busts = self._hfh_busts, []
                out += self._eliminate(busts, now)
        if self.status == "running" and ended.number in self.tables and not table.in_hand:
            out += self._rebalance(ended.number, now)
        return out

    def _eliminate_waiting(self, table: TournamentTable, now: datetime) -> Output:
        """Players with no chips who did not rebuy before their table's next hand are out (§9.11)."""
        out: Output = []
        broke = [(p.player, 0) for p in table.seats.values() if p.stack == 0]
        if broke:
            out += self._eliminate(broke, now)
        return out

    def _eliminate(self, busted: Sequence[tuple[str, int]], now: datetime) -> Output:
        """Rank players out in the same hand by their stacks at its start; equal stacks tie (R234)."""
        if not busted:
            return []
        self._rounds += 1
        left = len(self.remaining)
        groups: dict[int, list[str]] = {}
        for player, start in busted:
            groups.setdefault(start, []).append(player)
        place = left
        out: Output = []
        finishing: list[list[str]] = []
        for start in sorted(groups):  # the smallest starting stack finishes lowest
            group = groups[start]
            top = place - len(group) + 1
            for p in group:
                e = self.entrants[p]
                e.place = top
                e.busted_at = self._rounds
                table = self.tables.get(e.table) if e.table is not None else None
                if table is not None and e.seat in table.seats:
                    table.remove(e.seat)
                e.table = e.seat = None
            finishing.insert(0, group)
            place = top - 1
        out += self._pay(finishing, place + 1)
        if len(self.remaining) <= 1 or self._satellite_done():
            out += self._finish(now)
        else:
            self._update_hand_for_hand()
        return out

    def _satellite_done(self) -> bool:
        cfg = self.config
        return cfg.is_satellite and self.seats_won > 0 and len(self.remaining) <= self.seats_won

    def _update_hand_for_hand(self) -> None:
        """Hand-for-hand when the players left are one more than the places paid (R235)."""
        paid = self.seats_won if self.config.is_satellite and self.seats_won else len(self.prizes)
        self.hand_for_hand = len(self.tables) > 1 and len(self.remaining) == paid + 1

    def _pay(self, groups: Sequence[list[str]], best_place: int) -> Output:
        """Pay the places ``best_place`` .. for these finishing groups, best first (ties split, R233)."""
        if self.config.is_satellite and self.seats_won:
            return self._pay_satellite(groups, best_place)
        prizes = self.prizes
        place = best_place
        out: Output = []
        for group in groups:
            shares = split_ties(prizes[place - 1 :], [group])
            for p in group:
                if shares.get(p) and p not in self._paid:
                    out.append(TournamentPrize(self.tid, p, place, shares[p]))
                    self._paid.add(p)
            place += len(group)
        return out

    def _pay_satellite(self, groups: Sequence[list[str]], best_place: int) -> Output:
        """Seats to places 1..N, the cash remainder to place N + 1 (R228). A tie that straddles the last
        seat is broken by the starting stacks (already: the groups), then by random draw (§9.7)."""
        cfg = self.config
        sat = self._satellite()
        out: Output = []
        place = best_place
        for group in groups:
            members = list(group)
            for i in range(len(members) - 1, 0, -1):  # the random draw inside a tied group
                j = self.rng.randrange(i + 1)
                members[i], members[j] = members[j], members[i]
            for p in members:
                e = self.entrants[p]
                if place <= sat.seats:
                    e.place = place
                    out.append(TournamentTicket(self.tid, p, place, cfg.target, cfg.seat_value))
                    self._paid.add(p)
                elif place == sat.seats + 1 and sat.cash:
                    e.place = place
                    out.append(TournamentPrize(self.tid, p, place, sat.cash))
                    self._paid.add(p)
                place += 1
        return out

    def _finish(self, now: datetime) -> Output:
        out: Output = []
        cfg = self.config
        winners = sorted(self.remaining, key=lambda e: -e.stack)
        if cfg.is_satellite and self.seats_won:
            for e in winners:
                e.place = 1
                out.append(TournamentTicket(self.tid, e.player, 1, cfg.target, cfg.seat_value))
                self._paid.add(e.player)
        else:
            for i, e in enumerate(winners, start=1):
                e.place = i
                if e.player not in self._paid and i <= len(self.prizes):
                    out.append(TournamentPrize(self.tid, e.player, i, self.prizes[i - 1]))
                    self._paid.add(e.player)
        self.status = "finished"
        for table in self.tables.values():
            table.seats.clear()
        self.tables.clear()
        standings = tuple(sorted(((e.place or 0), e.player) for e in self.entrants.values()))
        out.append(Finished(self.tid, False, standings))
        return out

    # ---------------------------------------------------------------------------- balancing

    def _rebalance(self, number: int, now: datetime) -> Output:
        """After a hand at table ``number``: break it if the players fit at one table fewer, or move one
        player from it if it is two or more players bigger than the smallest table (§9.5)."""
        counts = {n: len(t.seats) for n, t in self.tables.items()}
        out: Output = []
        if table_to_break(counts, self.config.table_size) == number:
            table = self.tables.pop(number)
            others = {n: t.empty_seats() for n, t in self.tables.items()}
            sizes = {n: len(t.seats) for n, t in self.tables.items()}
            players = [p.player for p in table.seats.values()]
            for player, (dest, seat) in seats_for_broken_table(players, others, sizes, self.rng).items():
                out += self._move(table, player, dest, seat)
            self._next_hand.pop(number, None)
            self._update_hand_for_hand()
            return out
        while (move := balance_move({n: len(t.seats) for n, t in self.tables.items()}, number)) is not None:
            src, dst = self.tables[move[0]], self.tables[move[1]]
            if self.config.spec.is_stud:
                vacated = dst.vacated[-1] if dst.vacated and dst.vacated[-1] in dst.empty_seats() else None
                seat_to = vacated if vacated is not None else dst.empty_seats()[0]
                seat_from = mover_stud(sorted(src.seats), seat_to)
            else:
                last_bb = src.positions.bb_seat if src.positions else None
                seat_from = mover_blind_game(sorted(src.seats), last_bb)
                dst_bb = dst.positions.bb_seat if dst.positions else None
                seat_to = bb_seat_for_newcomer(dst.empty_seats(), dst_bb)
            out += self._move(src, src.seats[seat_from].player, dst.number, seat_to)
        return out

    def _move(self, src: TournamentTable, player: str, dest: int, seat: int) -> Output:
        s = src.seat_of(player)
        assert s is not None
        p = src.remove(s)
        p.seat = seat
        self.tables[dest].add(p, moved=True)
        e = self.entrants[player]
        e.table, e.seat = dest, seat
        return [PlayerMoved(self.tid, player, dest, seat)]

    # ------------------------------------------------------------------------------- views

    def standings(self) -> list[dict[str, object]]:
        """Players still in by chips, then the others by finishing place."""
        live = sorted(self.remaining, key=lambda e: -e.stack)
        out_ = sorted((e for e in self.entrants.values() if e.place is not None), key=lambda e: e.place or 0)
        return [
            {
                "player": e.player,
                "name": e.name,
                "stack": e.stack if e.place is None else 0,
                "place": e.place,
                "table": e.table,
                "rebuys": e.entries - 1 - e.add_on,
                "add_on": e.add_on,
            }
            for e in [*live, *out_]
        ]

    def events_of(self, out: Output) -> list[HandEvents]:
        return [x for x in out if isinstance(x, HandEvents)]

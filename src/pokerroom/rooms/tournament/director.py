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
from pokerroom.rooms.tournament.bounty import TournamentBounty, eliminators, knockout
from pokerroom.rooms.tournament.config import (
    TournamentBuyIn,
    TournamentConfig,
    TournamentOverlay,
    TournamentPoints,
    TournamentPrize,
    TournamentRefund,
    TournamentShare,
    TournamentTicket,
)
from pokerroom.rooms.tournament.deal import Deal, FinalTableDeals
from pokerroom.rooms.tournament.floor import Entrant, PlayerMoved, TableFloor
from pokerroom.rooms.tournament.mixed import level_game
from pokerroom.rooms.tournament.payouts import (
    SatellitePrizes,
    default_percentages,
    interrupted_shares,
    pay_places,
    prize_pool,
    satellite_prizes,
    split_ties,
)
from pokerroom.rooms.tournament.structure import BlindLevel, Schedule
from pokerroom.rooms.tournament.table import TableHandEnded, TournamentTable, TPlayer

__all__ = ["Entrant", "Finished", "PlayerMoved", "PrizePoolExceeded", "TournamentDirector", "entry_key"]

REBUY_WAIT = 15.0  # seconds a table waits after a hand in which someone went broke in the rebuy period

Output = list[object]


@dataclass(frozen=True, slots=True)
class Finished(Notice):
    """The tournament is over (``cancelled`` if it never started)."""

    cancelled: bool
    standings: tuple[tuple[int, str], ...]


def entry_key(player: str, entry: int) -> str:
    """The key of a player's busted entry once he has re-entered (his live entry is keyed ``player``)."""
    return f"{player}#{entry}"


class PrizePoolExceeded(RuntimeError):
    """Prizes and tickets would add up to more than the prize pool: nothing more is handed out."""


class TournamentDirector(TableFloor, FinalTableDeals):
    mode = "standard"  # the discipline's mode for the Game of the Week (§7.3): standard or rush

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
        self.pool = 0  # the prize pool: max(guarantee, contributions) (§9.8), final once pool_final
        self.contributions = 0  # prize parts of buy-ins, rebuys, add-ons and late entries
        self.overlay = 0  # booked once, when the pool is final
        self.pool_final = False
        self.prizes: list[int] = []
        self.seats_won = 0  # satellite tickets
        self.hand_for_hand = False
        self._hfh_done: set[int] = set()
        self._hfh_busts: list[tuple[str, int]] = []
        self._next_hand: dict[int, datetime] = {}
        self._rounds = 0
        self._hand_no = 0
        self._paid: set[str] = set()
        self._field_closed = False  # late registration over: places can be given
        self._groups: list[list[str]] = []  # players out, by elimination, worst first; a group ties
        self._settled = 0  # groups already paid (or found unpaid)
        self._placed = 0  # groups already given their places
        self._worse = 0  # players in those groups
        self._out = 0  # players out (in the groups)
        self._handed = 0  # prizes and tickets given out, never above the pool
        self.deal: Deal | None = None  # a deal proposed at the final table (deal.py)
        self.deals_made = 0
        self.bounty_in = 0  # bounties contributed (apart from the prize pool: bounty.py)
        self.bounty_out = 0  # bounties paid
        self._bounty_orphan = 0  # a bounty nobody won (never seen: see _knockouts), to the winner

    # ------------------------------------------------------------------------------- queries

    @property
    def remaining(self) -> list[Entrant]:
        return [e for e in self.entrants.values() if not e.out]

    @property
    def left(self) -> int:
        """How many players are still in (``len(remaining)``, counted)."""
        return len(self.entrants) - self._out

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
            return not self._field_closed and self.late_registration(now)
        return self.status in ("announced", "registering") and (opens is None or now >= opens)

    def late_registration(self, now: datetime) -> bool:
        """Scheduled tournaments may take entries during their first ``late_registration_levels`` levels,
        or their first ``late_registration_minutes`` minutes of wall-clock time (RULES.md §11.3)."""
        closes = self._late_registration_closes()
        if closes is not None:
            return self.status == "running" and now < closes
        levels = self.config.late_registration_levels
        return bool(levels) and self.status == "running" and self.level(now).number <= levels

    def _late_registration_closes(self) -> datetime | None:
        """When late registration set in minutes closes (None: set in levels, or none)."""
        minutes = self.config.late_registration_minutes
        if not minutes or self.started_at is None:
            return None
        return self.started_at + timedelta(minutes=minutes)

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
        cfg = self.config
        entry = 1
        if player in self.entrants:
            entry = self.next_entry(player)
            if entry == 0 and self.entrants[player].out and self.status == "running":
                raise TableError("no more entries: re-entry is not offered, or you have used them all")
            if entry == 0:
                raise TableError("you are registered already")
        if cfg.max_players and len(self.entrants) >= cfg.max_players:
            raise TableError("the tournament is full")
        if entry > 1:  # a re-entry (R261): the busted entry keeps its place under a key of its own
            self._set_aside(player)
        self.entrants[player] = Entrant(player, name, ticket=ticket, bounty=self.bounty_part, entry=entry)
        kind = "re_entry" if entry > 1 else "buy_in"
        out: Output = [TournamentBuyIn(self.tid, player, cfg.buy_in, cfg.fee, kind, ticket)]
        if self.status == "running":  # late registration: a starting stack at the shortest table
            self.bounty_in += self.bounty_part
            self._contribute(cfg.buy_in - self.bounty_part)
            out += self._award_points([player], cfg.fee, now)
            out += self._seat_late(player, now)
            return out
        self.status = "registering"
        if cfg.kind == "sng" and len(self.entrants) == cfg.max_players:
            out += self._start(now)
        return out

    def next_entry(self, player: str) -> int:
        """The number the player's next entry would have: 1 (not registered), his next re-entry's
        (RULES.md §11.3, R261: his entry is out, late registration is open, fewer than ``max_entries``),
        or 0 when he cannot enter again now."""
        e = self.entrants.get(player)
        if e is None:
            return 1
        if not e.out or self.status != "running" or e.entry >= self.config.max_entries:
            return 0
        return e.entry + 1

    def can_reenter(self, player: str, now: datetime) -> bool:
        return self.registration_open(now) and self.next_entry(player) > 1

    def _set_aside(self, player: str) -> None:
        """A busted entry makes way for the player's re-entry: it stays in the field (it finishes in its
        own place, R261) under the key ``player#n``, in the elimination groups and among those paid."""
        e = self.entrants.pop(player)
        key = entry_key(player, e.entry)
        self.entrants[key] = e
        for group in self._groups:
            group[:] = [key if p == player else p for p in group]
        if player in self._paid:
            self._paid.discard(player)
            self._paid.add(key)

    def _seat_late(self, player: str, now: datetime) -> Output:
        """A late entrant or a re-entry: a seat drawn at random among the empty seats of the shortest
        tables (RULES.md §11.3), a new table when every table is full."""
        cfg = self.config
        open_tables = [t for t in self.tables.values() if t.empty_seats()]
        if not open_tables:
            number = max(self.tables, default=0) + 1
            self.tables[number] = TournamentTable(
                self.tid, number, cfg.table_size, cfg.spec, cfg.betting, cfg.timing, self.rng
            )
            open_tables = [self.tables[number]]
        smallest = min(len(t.seats) for t in open_tables)
        seats = [
            (t, s)
            for t in sorted(open_tables, key=lambda t: t.number)
            if len(t.seats) == smallest
            for s in t.empty_seats()
        ]
        table, seat = seats[self.rng.randrange(len(seats))]
        e = self.entrants[player]
        e.stack, e.table, e.seat = cfg.starting_stack, table.number, seat
        table.add(TPlayer(player, e.name, seat, cfg.starting_stack, cfg.timing.time_bank), moved=True)
        self._wake(table.number, now)
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
        self.bounty_in += self.bounty_part * len(self.entrants)
        self._contribute((cfg.buy_in - self.bounty_part) * len(self.entrants))
        out: Output = []
        out += self._award_points(list(self.entrants), cfg.fee, now)
        out += self._seat_everybody(now)
        out += self._settle(now)  # no late registration, rebuys or add-on: the pool is final now
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

    def interrupt(self, now: datetime) -> Output:
        """An operator ends the running tournament (a server fault, a scheduling mistake), paid out by the
        interrupted-tournament rule (docs/decisions.md, docs/tournaments.md): the hands in progress are
        void (every player has the chips he had when they started), the pool is final now (the overlay
        is owed: the tournament started, §9.10), the places already given are paid, and what is left of
        the pool goes to the players holding chips (``interrupted_shares``), each with his fee back."""
        if self.status != "running":
            raise TableError("only a running tournament can be ended")
        if getattr(self, "rush", None) is not None:
            raise TableError("a Rush tournament cannot be ended during its pool phase")
        self.void_hands(now)
        self.deal = None
        out = self._settle(now, final=True)
        stacks = {e.player: e.stack for e in self.remaining if e.stack > 0}
        left = max(0, self.pool - self._handed)
        shares = interrupted_shares(left, stacks, self.prizes)
        if left and not shares:  # (chips are conserved: somebody holds them while it runs)
            raise PrizePoolExceeded(f"{left} left in the pool and nobody holds chips")
        for player in sorted(shares):
            self._hand_out(shares[player])
            out.append(TournamentShare(self.tid, player, shares[player], self.config.fee))
        out += self._own_bounties([e.player for e in sorted(self.remaining, key=lambda e: -e.stack)])
        self.status = "cancelled"
        self._next_hand.clear()
        self._hfh_busts.clear()
        self.hand_for_hand = False
        for table in self.tables.values():
            table.seats.clear()
        self.tables.clear()
        standings = tuple(sorted(((e.place or 0), e.player) for e in self.entrants.values()))
        out.append(Finished(self.tid, True, standings))
        return out

    def _award_points(self, players: Sequence[str], fee: int, now: datetime) -> Output:
        if not fee or self.points is None:
            return []
        cfg = self.config
        discipline = Discipline(cfg.variant, cfg.betting, self.mode)  # §7.3: Rush is its own discipline
        pct = self.points.multiplier_pct(discipline, now, cash=False)
        centipoints = fee * self.points.tournament_points_per_unit * pct // 100
        return [TournamentPoints(self.tid, p, centipoints) for p in players if centipoints]

    @property
    def bounty_part(self) -> int:
        """The bounty part of a prize contribution (RULES.md §11.3): rounded down, the rest to the pool."""
        return self.config.buy_in * self.config.bounty // 100

    def _pay_bounty(self, player: str, amount: int, victim: str, entry: int = 1) -> Output:
        """Bounties paid never add up to more than the bounties contributed."""
        if not amount:
            return []
        if self.bounty_out + amount > self.bounty_in:
            raise PrizePoolExceeded(f"{self.bounty_out} + {amount} bounties paid of {self.bounty_in}")
        self.bounty_out += amount
        self.entrants[player].bounties_won += amount
        return [TournamentBounty(self.tid, player, amount, victim, entry)]

    def _knockouts(self, ended: TableHandEnded, busted: Sequence[str]) -> Output:
        """Each player broke in this hand: his bounty to whoever won the highest pot he was eligible for
        (RULES.md §11.3; several share it, odd units clockwise from the button)."""
        out: Output = []
        seats = {player: seat for seat, (player, _) in ended.players.items()}
        for victim in busted:
            e = self.entrants[victim]
            won = eliminators(ended.hand, seats[victim]) if victim in seats else ()
            players = [ended.players[s][0] for s in won]
            if not players:  # (no pot he was in was won by another: kept for the tournament's winner)
                self._bounty_orphan += e.bounty
                e.bounty = 0
                continue
            for player, cash, added in knockout(e.bounty, players, self.config.progressive):
                out += self._pay_bounty(player, cash, victim, e.entry)
                self.entrants[player].bounty += added
            e.bounty = 0
        return out

    def _own_bounties(self, players: Sequence[str]) -> Output:
        """The winner's own bounty (and, in a deal or an ended tournament, each player's still in)."""
        out: Output = []
        for player in players:
            e = self.entrants[player]
            orphan, self._bounty_orphan = self._bounty_orphan, 0
            out += self._pay_bounty(player, e.bounty + orphan, player, e.entry)
            e.bounty = 0
        return out

    def _contribute(self, amount: int) -> None:
        """Prize contributions in: the pool is max(guarantee, their sum) (§9.8), the prizes follow it."""
        if self.pool_final:
            raise TableError("the prize pool is final")
        self.contributions += amount
        self.pool = prize_pool(
            self.contributions, guarantee=self.config.guarantee, freeroll=self.config.freeroll_pool
        )[0]
        self._compute_prizes()

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
        """§9.9, with no more seats than players: when the pool buys a seat for every entrant (rebuys),
        each gets one and the rest of the pool is cash shared by those still in at the end."""
        cfg = self.config
        sat = satellite_prizes(self.pool, cfg.seat_value, cfg.guaranteed_seats)
        n = len(self.entrants)
        if sat.seats <= n:
            return sat
        value = n * cfg.seat_value
        return SatellitePrizes(n, max(0, self.pool - value), max(0, value - self.pool))

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
        out = self._handle(table.act(player, command, now), now)
        return out + self._deal_step(now) if self.deal is not None else out

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
        if e is None or e.out:
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
        e.broke_with = None
        if table is not None:
            seat = table.seat_of(player)
            assert seat is not None
            table.seats[seat].stack = e.stack
        self._contribute(cfg.buy_in)
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
        if self.status != "running":
            return out
        for running in list(self.tables.values()):
            out += self._handle(running.tick(now), now)
        out += self._settle_and_check(now)
        if self.status != "running":
            return out
        out += self._rebalance_all(now)
        if self.deal is not None:  # paused for a deal: no new hand until it is made or off
            out += self._deal_step(now)
            if self._deal_pauses():
                return out
        assert self.schedule is not None
        if self.schedule.in_break(now):
            return out
        for _ in range(3):  # again if hand-for-hand ended on the way: every table that can deal deals
            out += self._deal_round(now)
            if self.status != "running" or not self._ready(now):
                break
        return out

    def _deal_round(self, now: datetime) -> Output:
        cfg = self.config
        out: Output = []
        for number in sorted(self.tables):
            table = self.tables.get(number)
            if self.status != "running" or table is None or table.in_hand:
                continue
            if now < self._next_hand.get(number, now):
                continue
            if self.hand_for_hand and number in self._hfh_done:
                continue
            out += self._eliminate_waiting(table, now)
            if number not in self.tables or self.status != "running" or table.in_hand:
                continue
            self._hand_no += 1
            game = level_game(cfg, self.level(now))  # a mixed tournament: the level's game (R251)
            hand_id = f"{self.tid}-{self._hand_no}"
            dealt = table.start_hand(now, game.stakes, hand_id, (game.spec, game.betting))
            if not dealt and self.hand_for_hand:  # it cannot deal: it has played its hand-for-hand hand
                self._hfh_done.add(number)
                out += self._hfh_check(now)
            out += self._handle(dealt, now)
        return out

    def restart_clocks(self, now: datetime) -> Output:
        """After a pause (the store was unavailable): the pending decisions of every table get their whole
        time again, and the level clock is not moved (the levels are wall-clock time)."""
        out: Output = []
        for table in list(self.tables.values()):
            out += self._handle(table.restart_clocks(now), now)
        return out

    def void_hands(self, now: datetime) -> Output:
        """Every hand in progress is void (the server failed during it: docs/tournaments.md): its players
        have the chips they had when it started, and the table deals again after the usual pause."""
        for number, table in self.tables.items():
            if table.void_hand():
                self._next_hand[number] = now + timedelta(seconds=self.config.timing.between_hands)
        return []

    def next_deadline(self, now: datetime) -> datetime | None:
        """The next moment :meth:`tick` has something to do. Right after a tick at ``now`` nothing
        returned is due yet: a table waiting for the others (hand for hand) has no deadline of its own.
        Until the prize pool is final, the next level (late registration or the rebuy period may close)."""
        if self.status in ("announced", "registering"):
            start = self.config.start_time
            return start if self.config.kind == "mtt" and start is not None and start > now else None
        if self.status != "running":
            return None
        times = [t for table in self.tables.values() if (t := table.next_deadline()) is not None]
        times += [
            t
            for n, t in self._next_hand.items()
            if n in self.tables and not self.tables[n].in_hand and t > now and self.deal is None
        ]
        if self.schedule is not None and (ends := self.schedule.break_ends(now)) is not None:
            times.append(ends)
        if self.schedule is not None and not self.pool_final:
            times.append(self.schedule.next_level_at(now))
        closes = self._late_registration_closes()
        if closes is not None and not self._field_closed and closes > now:
            times.append(closes)
        if self.deal is not None and self.deal.deadline is not None:
            times.append(self.deal.deadline)
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
        out: Output = []
        for player, stack in ended.stacks.items():
            self.entrants[player].stack = stack
        busted = [p for p, s in ended.stacks.items() if s == 0]
        if busted and self.config.bounty:
            out += self._knockouts(ended, busted)
        rebuying = self.in_rebuy_period(now)
        wait = self.config.timing.between_hands + (REBUY_WAIT if busted and rebuying else 0)
        self._next_hand[ended.number] = now + timedelta(seconds=wait)
        if busted and rebuying:  # out at his table's next hand unless he rebuys, ranked by this hand (R234)
            for p in busted:
                self.entrants[p].broke_with = ended.starting[p]
        elif busted:
            if self.hand_for_hand:
                self._hfh_busts += [(p, ended.starting[p]) for p in busted]
            else:
                out += self._eliminate([(p, ended.starting[p]) for p in busted], now)
        if self.hand_for_hand and self.status == "running":
            self._hfh_done.add(ended.number)
            out += self._hfh_check(now)
        if self.status == "running":
            out += self._rebalance_all(now)
        return out

    def _hfh_check(self, now: datetime) -> Output:
        """Every table has played the hand-for-hand hand (or cannot deal): its eliminations, across tables."""
        if not self._hfh_done >= set(self.tables):
            return []
        self._hfh_done = set()
        busts, self._hfh_busts = self._hfh_busts, []
        return self._eliminate(busts, now)

    def _eliminate_waiting(self, table: TournamentTable, now: datetime) -> Output:
        """Players with no chips who did not rebuy before their table's next hand are out (§9.11), ranked
        by their stacks at the start of the hand in which they went broke (R234)."""
        entrants = self.entrants
        pending = {p for p, _ in self._hfh_busts}  # out with the hand-for-hand hand, across tables
        broke = [
            (p.player, entrants[p.player].broke_with or 0)
            for p in table.seats.values()
            if p.stack == 0 and p.player not in pending
        ]
        return self._eliminate(broke, now) if broke else []

    def _eliminate(self, busted: Sequence[tuple[str, int]], now: datetime) -> Output:
        """Players out in the same hand form groups by their stacks at its start, the smallest finishing
        lowest; equal stacks tie (R234). Their places are given once the field is final."""
        once: dict[str, int] = {}  # a player is out only once
        for player, start in busted:
            if not self.entrants[player].out:
                once.setdefault(player, start)
        if not once or self.status != "running":
            return []
        self._rounds += 1
        groups: dict[int, list[str]] = {}
        for player, start in once.items():
            groups.setdefault(start, []).append(player)
        for start in sorted(groups):  # worst first
            for p in groups[start]:
                e = self.entrants[p]
                e.out, e.busted_at, e.broke_with = True, self._rounds, None
                self._out += 1
                table = self.tables.get(e.table) if e.table is not None else None
                if table is not None and e.seat in table.seats:
                    table.remove(e.seat)
                e.table = e.seat = None
            self._groups.append(list(groups[start]))
        out = self._settle(now)
        if self.left <= 1 or self._satellite_done():
            return out + self._finish(now)
        return out + self._rebalance_all(now)

    def _satellite_done(self) -> bool:
        cfg = self.config
        return cfg.is_satellite and self.pool_final and 0 < self.left <= self.seats_won

    def _update_hand_for_hand(self) -> None:
        """Hand-for-hand when the players left are one more than the places paid (R235)."""
        paid = self.seats_won if self.config.is_satellite and self.seats_won else len(self.prizes)
        on = len(self.tables) > 1 and self.left == paid + 1
        if not on and not self._hfh_busts:
            self._hfh_done = set()
        self.hand_for_hand = on or bool(self._hfh_busts)

    # ------------------------------------------------------------------- places and prizes

    def _buying(self, now: datetime) -> bool:
        """Rebuys or the add-on may still come (the add-on window runs one level past the period)."""
        cfg = self.config
        last = cfg.rebuy_levels + (1 if cfg.add_on else 0)
        return bool(cfg.rebuy_levels) and self.status == "running" and self.level(now).number <= last

    def _settle_and_check(self, now: datetime) -> Output:
        out = self._settle(now)
        if self.status == "running" and self._satellite_done():
            out += self._finish(now)
        return out

    def _settle(self, now: datetime, *, final: bool = False) -> Output:
        """Places once the field is final (late registration closed), then the pool once it is final
        (rebuys and add-ons closed too): the overlay max(guarantee, contributions) - contributions booked
        once (§9.8, §9.10), the prizes of every place given so far paid. ``final``: the tournament ends."""
        out: Output = []
        if not self._field_closed and (final or not self.late_registration(now)):
            self._field_closed = True
        if self._field_closed:
            self._place_groups()
        if self._field_closed and not self.pool_final and (final or not self._buying(now)):
            cfg = self.config
            self.pool, self.overlay = prize_pool(
                self.contributions, guarantee=cfg.guarantee, freeroll=cfg.freeroll_pool
            )
            self.pool_final = True
            self._compute_prizes()
            self._update_hand_for_hand()
            if self.overlay:
                out.append(TournamentOverlay(self.tid, self.overlay))
        if self.pool_final:
            out += self._pay_groups()
        return out

    def _place_groups(self) -> None:
        """Places counted from the bottom of the final field: a group's places follow the players out
        before it, never the players remaining, so a place once given is final (§9.7)."""
        n = len(self.entrants)
        for group in self._groups[self._placed :]:
            for p in group:
                self.entrants[p].place = n - self._worse - len(group) + 1
            self._worse += len(group)
        self._placed = len(self._groups)

    def _pay_groups(self) -> Output:
        out: Output = []
        while self._settled < len(self._groups):
            group = self._groups[self._settled]
            best = min(self.entrants[p].place or 0 for p in group)
            out += self._pay([group], best)
            self._settled += 1
        return out

    def _hand_out(self, amount: int) -> None:
        """Prizes and tickets never add up to more than the pool (and the seats the house guarantees)."""
        extra = self._satellite().house_adds if self.config.is_satellite else 0
        if self._handed + amount > self.pool + extra:
            raise PrizePoolExceeded(f"{self._handed} + {amount} handed out from a pool of {self.pool}")
        self._handed += amount

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
                    self._hand_out(shares[p])
                    e = self.entrants[p]
                    out.append(TournamentPrize(self.tid, e.player, place, shares[p], e.entry))
                    self._paid.add(p)
            place += len(group)
        return out

    def _pay_satellite(self, groups: Sequence[list[str]], best_place: int) -> Output:
        """Seats to places 1..N, the cash remainder to place N + 1 (R228). Only a tie that straddles the
        last seat is drawn (§9.7: the starting stacks broke it already, into the groups): each of its
        players then takes his drawn place, seat, cash or nothing. Any other tie keeps its shared place:
        inside the seats each gets a seat (nothing to draw), and a tie over the cash place splits the cash
        (R233: ties share the places they occupy), the leftover unit in the group's order."""
        cfg = self.config
        sat = self._satellite()
        out: Output = []
        place = best_place
        for group in groups:
            last = place + len(group) - 1
            if place <= sat.seats < last:  # straddles the last seat: drawn
                members = list(group)
                for i in range(len(members) - 1, 0, -1):
                    j = self.rng.randrange(i + 1)
                    members[i], members[j] = members[j], members[i]
                drawn, shares = [(p, place + k) for k, p in enumerate(members)], {}
            else:
                drawn = [(p, place) for p in group]
                shares = split_ties([sat.cash], [group]) if place == sat.seats + 1 else {}
            for p, at in drawn:
                self.entrants[p].place = at
                if at <= sat.seats:
                    self._hand_out(cfg.seat_value)
                    out.append(TournamentTicket(self.tid, p, at, cfg.target, cfg.seat_value))
                    self._paid.add(p)
                elif at == sat.seats + 1 and sat.cash:
                    amount = shares.get(p, sat.cash)
                    if amount:
                        self._hand_out(amount)
                        out.append(TournamentPrize(self.tid, p, at, amount))
                        self._paid.add(p)
            place += len(group)
        return out

    def _finish(self, now: datetime) -> Output:
        out = self._settle(now, final=True)
        cfg = self.config
        winners = sorted(self.remaining, key=lambda e: -e.stack)
        out += self._own_bounties([e.player for e in winners])
        if cfg.is_satellite and self.seats_won:
            sat = self._satellite()
            for e in winners:
                e.place = 1
                self._hand_out(cfg.seat_value)
                out.append(TournamentTicket(self.tid, e.player, 1, cfg.target, cfg.seat_value))
                self._paid.add(e.player)
            if sat.seats == len(self.entrants) and sat.cash and winners:  # a seat each, cash left over
                shares = split_ties([sat.cash], [[e.player for e in winners]])
                for e in winners:
                    if shares[e.player]:
                        self._hand_out(shares[e.player])
                        out.append(TournamentPrize(self.tid, e.player, 1, shares[e.player]))
        else:
            for i, e in enumerate(winners, start=1):
                e.place = i
                if e.player not in self._paid and i <= len(self.prizes):
                    self._hand_out(self.prizes[i - 1])
                    out.append(TournamentPrize(self.tid, e.player, i, self.prizes[i - 1], e.entry))
                    self._paid.add(e.player)
        self.status = "finished"
        for table in self.tables.values():
            table.seats.clear()
        self.tables.clear()
        standings = tuple(sorted(((e.place or 0), e.player) for e in self.entrants.values()))
        out.append(Finished(self.tid, False, standings))
        return out

    # ------------------------------------------------------------------------------- views

    def standings(self) -> list[dict[str, object]]:
        """Players still in by chips, then the others by finishing place."""
        live = sorted((e for e in self.remaining if e.place is None), key=lambda e: -e.stack)
        out_ = sorted(
            (e for e in self.entrants.values() if e.out or e.place is not None),
            key=lambda e: (e.place or 0, -(e.busted_at or 0)),
        )
        return [
            {
                "player": e.player,
                "name": e.name,
                "entry": e.entry,  # 1, or the number of a re-entry (R261)
                "stack": e.stack if e.place is None else 0,
                "place": e.place,
                "table": e.table,
                "rebuys": e.entries - 1 - e.add_on,
                "add_on": e.add_on,
                "deal": e.deal,  # paid by a deal at the final table
                "bounty": e.bounty,  # his bounty now (a bounty tournament)
                "bounties_won": e.bounties_won,
            }
            for e in [*live, *out_]
        ]

    def events_of(self, out: Output) -> list[HandEvents]:
        return [x for x in out if isinstance(x, HandEvents)]

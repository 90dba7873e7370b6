"""The tournament floor (RULES.md §9.5): who sits where, tables broken and balanced after every hand and
every elimination, and why each table waits. A mixin of :class:`~.director.TournamentDirector`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pokerroom.cards import RandomSource
from pokerroom.rooms.notices import Notice
from pokerroom.rooms.tournament.balance import (
    balance_move,
    bb_seat_for_newcomer,
    mover_blind_game,
    mover_stud,
    seats_for_broken_table,
    table_to_break,
)
from pokerroom.rooms.tournament.config import TournamentConfig
from pokerroom.rooms.tournament.structure import Schedule
from pokerroom.rooms.tournament.table import TournamentTable

__all__ = ["Entrant", "PlayerMoved", "TableFloor"]

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
    place: int | None = None  # finishing place once out and the field is final (ties share their best)
    busted_at: int | None = None  # the elimination round
    out: bool = False  # eliminated (his place is given once the field is final)
    broke_with: int | None = None  # broke in the rebuy period: his stack at the start of that hand
    deal: int = 0  # paid by a deal at the final table (RULES.md §11.3)
    bounty: int = 0  # his bounty now (a bounty tournament, RULES.md §11.3)
    bounties_won: int = 0  # cash won by knockouts
    entry: int = 1  # the player's first entry, or a re-entry's number (R261)


@dataclass(frozen=True, slots=True)
class PlayerMoved(Notice):
    """Seating at the start, balancing or a broken table: ``player`` now plays at ``table``/``seat``."""

    player: str
    table_no: int
    seat: int


class TableFloor:
    """Tables and seats of a tournament director (the director holds the state declared here)."""

    config: TournamentConfig
    rng: RandomSource
    status: str
    entrants: dict[str, Entrant]
    tables: dict[int, TournamentTable]
    schedule: Schedule | None
    hand_for_hand: bool
    _hfh_done: set[int]
    _next_hand: dict[int, datetime]

    @property
    def tid(self) -> str:
        return self.config.tournament_id

    def _update_hand_for_hand(self) -> None:
        raise NotImplementedError

    def _hfh_check(self, now: datetime) -> Output:
        raise NotImplementedError

    def _ready(self, now: datetime) -> list[int]:
        """Tables not in a hand whose next hand is due, with two or more players holding chips."""
        return [
            n
            for n, t in self.tables.items()
            if not t.in_hand
            and self._next_hand.get(n, now) <= now
            and not (self.hand_for_hand and n in self._hfh_done)
            and sum(1 for p in t.seats.values() if p.stack > 0) >= 2
        ]

    def table_states(self, now: datetime) -> dict[int, str]:
        """Why each table is where it is: ``dealing``, ``break``, ``hand_for_hand`` (waiting for the other
        tables), ``between_hands`` (its next hand has a time), ``ready`` (due now: it deals at the next
        tick, which the actor runs at once after a step that changed something), ``short`` (fewer than two
        players with chips, waiting for players while another table plays) or ``stalled`` (a bug)."""
        states: dict[int, str] = {}
        in_break = self.schedule is not None and self.schedule.in_break(now)
        for n, t in self.tables.items():
            if t.in_hand:
                states[n] = "dealing"
            elif getattr(self, "deal", None) is not None:
                states[n] = "deal"  # paused for a deal at the final table (deal.py)
            elif in_break:
                states[n] = "break"
            elif self.hand_for_hand and n in self._hfh_done:
                states[n] = "hand_for_hand"
            elif self._next_hand.get(n, now) > now:
                states[n] = "between_hands"
            else:
                states[n] = "idle"
        moving = any(s in ("dealing", "between_hands", "break", "deal") for s in states.values())
        ready = set(self._ready(now))
        for n, s in states.items():
            if s == "idle" and n in ready:
                states[n] = "ready"  # it deals at the next tick, due now
            elif s == "idle":
                live = sum(1 for p in self.tables[n].seats.values() if p.stack > 0)
                states[n] = "short" if live < 2 and moving else "stalled"
        return states

    def _rebalance_all(self, now: datetime) -> Output:
        """After every hand and every elimination, every table's need to break or be filled is decided
        (§9.5): empty tables close; the table to break (the highest-numbered once the players fit at one
        table fewer) is broken as soon as it is not in a hand; and every table not in a hand that is two or
        more players above the smallest gives one player at a time. So a table that cannot deal never
        waits for a hand of its own that will not come."""
        out: Output = []
        changed = self.status == "running"
        while changed:
            changed = False
            for n in [n for n, t in self.tables.items() if not t.seats and not t.in_hand]:
                del self.tables[n]
                self._next_hand.pop(n, None)
                self._hfh_done.discard(n)
            counts = {n: len(t.seats) for n, t in self.tables.items()}
            number = table_to_break(counts, self.config.table_size)
            if number is not None and not self.tables[number].in_hand:
                out += self._break(number, now)
                changed = True
                continue
            for n in sorted(counts, key=lambda n: (-counts[n], n)):
                move = balance_move(counts, n) if not self.tables[n].in_hand else None
                if move is not None:
                    out += self._balance(move, now)
                    changed = True
                    break
        self._update_hand_for_hand()
        if self.hand_for_hand and self.status == "running":
            out += self._hfh_check(now)
        return out

    def _break(self, number: int, now: datetime) -> Output:
        table = self.tables.pop(number)
        others = {n: t.empty_seats() for n, t in self.tables.items()}
        sizes = {n: len(t.seats) for n, t in self.tables.items()}
        players = [p.player for p in table.seats.values()]
        out: Output = []
        for player, (dest, seat) in seats_for_broken_table(players, others, sizes, self.rng).items():
            out += self._move(table, player, dest, seat, now)
        self._next_hand.pop(number, None)
        self._hfh_done.discard(number)
        return out

    def _balance(self, move: tuple[int, int], now: datetime) -> Output:
        src, dst = self.tables[move[0]], self.tables[move[1]]
        if src.variant.is_stud:  # the game it deals now (a mixed tournament: the last hand's)
            vacated = dst.vacated[-1] if dst.vacated and dst.vacated[-1] in dst.empty_seats() else None
            seat_to = vacated if vacated is not None else dst.empty_seats()[0]
            seat_from = mover_stud(sorted(src.seats), seat_to)
        else:
            last_bb = src.positions.bb_seat if src.positions else None
            seat_from = mover_blind_game(sorted(src.seats), last_bb)
            dst_bb = dst.positions.bb_seat if dst.positions else None
            seat_to = bb_seat_for_newcomer(dst.empty_seats(), dst_bb)
        return self._move(src, src.seats[seat_from].player, dst.number, seat_to, now)

    def _move(self, src: TournamentTable, player: str, dest: int, seat: int, now: datetime) -> Output:
        s = src.seat_of(player)
        assert s is not None
        p = src.remove(s)
        p.seat = seat
        self.tables[dest].add(p, moved=True)
        e = self.entrants[player]
        e.table, e.seat = dest, seat
        self._wake(dest, now)
        return [PlayerMoved(self.tid, player, dest, seat)]

    def _wake(self, number: int, now: datetime) -> None:
        """A table that receives a player and has no next hand planned plans one: it never waits idle."""
        table = self.tables[number]
        if not table.in_hand and self._next_hand.get(number, now) <= now:
            self._next_hand[number] = now + timedelta(seconds=self.config.timing.between_hands)

"""One table of a tournament: hands with the level's stakes, the dead-button rule, forced bets posted for
everybody, sitting-out players folded at their turn (RULES.md §9.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pokerroom.cards import RandomSource
from pokerroom.engine import (
    BetDecision,
    Betting,
    Blinds,
    Command,
    EngineError,
    Fold,
    HandState,
    NotYourTurn,
    SeatSetup,
    Stakes,
    Structure,
    TimeOut,
    VariantSpec,
)
from pokerroom.rooms.clock import Clocks, refill_bank, spend_bank
from pokerroom.rooms.config import Timing
from pokerroom.rooms.dealing import deal_deck
from pokerroom.rooms.errors import NotSeated, TableError
from pokerroom.rooms.notices import HandEvents, Notice
from pokerroom.rooms.seating import Positions, SeatStatus, plan_hand

__all__ = ["TPlayer", "TournamentTable"]

Output = list[object]


@dataclass(slots=True)
class TPlayer:
    player: str
    name: str
    seat: int
    stack: int
    time_bank: float
    sitting_out: bool = False
    sit_out_next_hand: bool = False
    waits_for_button: bool = False  # moved in between the button and the small blind
    disconnected: bool = False
    hands_dealt: int = 0


@dataclass(frozen=True, slots=True)
class TableHandEnded(Notice):
    """A hand ended at a tournament table: the director ranks eliminations and balances tables."""

    number: int
    hand_id: str
    starting: dict[str, int]  # player -> stack at the start of the hand
    stacks: dict[str, int]  # player -> stack now
    hand: HandState = field(compare=False)
    players: dict[int, tuple[str, str]] = field(default_factory=dict)  # seat -> (player, name), dealt in
    started_at: datetime | None = None


class TournamentTable:
    def __init__(
        self,
        tournament_id: str,
        number: int,
        size: int,
        variant: VariantSpec,
        betting: Betting,
        timing: Timing,
        rng: RandomSource,
    ) -> None:
        self.tid = f"{tournament_id}-t{number}"
        self.tournament_id = tournament_id
        self.number = number
        self.size = size
        self.variant = variant
        self.betting = betting
        self.timing = timing
        self.rng = rng
        self.seats: dict[int, TPlayer] = {}
        self.positions: Positions | None = None
        self.hand: HandState | None = None
        self.hand_players: dict[int, tuple[str, str]] = {}
        self.clocks = Clocks(self.tid)
        self.hands = 0
        self.vacated: list[int] = []  # stud balancing: seats in the order they were vacated
        self._starting: dict[str, int] = {}
        self._started_at: datetime | None = None

    # --------------------------------------------------------------------------------- seats

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.is_over

    def seat_of(self, player: str) -> int | None:
        return next((s for s, p in self.seats.items() if p.player == player), None)

    def empty_seats(self) -> list[int]:
        return [s for s in range(1, self.size + 1) if s not in self.seats]

    def add(self, p: TPlayer, *, moved: bool) -> None:
        if p.seat in self.seats or not 1 <= p.seat <= self.size:
            raise TableError(f"seat {p.seat} is not free")
        p.waits_for_button = moved and not self.variant.is_stud
        self.seats[p.seat] = p

    def remove(self, seat: int) -> TPlayer:
        p = self.seats.pop(seat)
        self.vacated.append(seat)
        return p

    # --------------------------------------------------------------------------------- hands

    def start_hand(
        self, now: datetime, stakes: Stakes, hand_id: str, game: tuple[VariantSpec, Betting] | None = None
    ) -> Output:
        """Deal the next hand with ``stakes`` (the level in force now); every player with chips plays
        (no missed blinds in tournaments), except one moved in between the button and the small blind.
        ``game``: a mixed tournament's game of the level (mixed.py), kept for the hands that follow; stud
        hands leave the button where it was, and the next blind game moves it on from there (R247)."""
        if game is not None and not self.in_hand:
            self.variant, self.betting = game
        for p in self.seats.values():
            if p.sit_out_next_hand:
                p.sitting_out, p.sit_out_next_hand = True, False
        if self.variant.is_stud:
            dealt = tuple(s for s in sorted(self.seats) if self.seats[s].stack > 0)
            button = None
            blinds = None
        else:
            statuses = {s: SeatStatus(s, p.player, p.stack > 0) for s, p in self.seats.items()}
            plan = plan_hand(statuses, self.positions, self.rng)
            if plan is None:
                return []
            waiting = {
                s
                for s in plan.dealt_in
                if self.seats[s].waits_for_button
                and _strictly_between(s, plan.button, plan.sb_seat, self.size)
            }
            dealt = tuple(s for s in plan.dealt_in if s not in waiting)
            if len(dealt) < 2:  # waiting for the button would leave no hand at all: nobody waits
                dealt = tuple(plan.dealt_in)
            for s in dealt:
                self.seats[s].waits_for_button = False
            self.positions = plan.positions(statuses)
            button = plan.button
            blinds = Blinds(
                small=(plan.small_blind, stakes.small_blind) if plan.small_blind is not None else None,
                big=(plan.big_blind, stakes.big_blind),
            )
        if len(dealt) < 2:
            return []
        self.hand_players = {s: (self.seats[s].player, self.seats[s].name) for s in dealt}
        self._starting = {self.seats[s].player: self.seats[s].stack for s in dealt}
        self._started_at = now
        self.hands += 1
        for s in dealt:
            self.seats[s].hands_dealt += 1
        self.hand = HandState.start(
            variant=self.variant,
            structure=Structure(self.betting, stakes, heads_up_uncapped=False),  # R59: cap kept heads-up
            seats=[SeatSetup(s, self.seats[s].stack) for s in dealt],
            deck=deal_deck(
                self.rng,
                self.variant.deck_for(len(dealt)),
                reshuffle=self.variant.is_draw,
                key=self.tid,
                hand_id=hand_id,
                players={s: self.seats[s].player for s in dealt},
            ),
            button=button,
            blinds=blinds,
            hand_id=hand_id,
        )
        out: Output = [HandEvents(self.tid, hand_id, tuple(self.hand.events), dealt)]
        return out + self._after(now)

    def act(self, player: str, command: Command, now: datetime) -> Output:
        seat = self.seat_of(player)
        if seat is None:
            raise NotSeated()
        if command.seat != seat:
            raise NotYourTurn(command.seat, ())
        if not self.in_hand:
            raise TableError("no hand is in progress")
        p = self.seats[seat]
        p.sitting_out = False  # acting means he is back
        return self._apply(command, now, timed_out=False)

    def _apply(self, command: Command, now: datetime, *, timed_out: bool) -> Output:
        assert self.hand is not None
        seat = command.seat
        events = self.hand.apply(command)
        clock = self.clocks.stop(seat)
        p = self.seats.get(seat)
        if p is not None and clock is not None:
            p.time_bank = spend_bank(p.time_bank, clock, now, timed_out=timed_out)
            if timed_out:
                p.sitting_out = True  # §9.3: a timeout puts the player in sit-out until he returns
        out: Output = [HandEvents(self.tid, self.hand.hand_id, tuple(events), tuple(self.hand_players))]
        return out + self._after(now)

    def _after(self, now: datetime) -> Output:
        hand = self.hand
        assert hand is not None
        if hand.is_over:
            return self._end(now)
        pending = hand.pending
        if isinstance(pending, BetDecision):
            p = self.seats.get(pending.seat)
            if p is not None and (p.sitting_out or p.disconnected) and not pending.bring_in:
                # R223: a sitting-out player's hand is folded when the action reaches him
                return self._apply(Fold(pending.seat), now, timed_out=False)
            if p is not None and (p.sitting_out or p.disconnected):
                return self._apply(TimeOut(pending.seat), now, timed_out=False)
        elif p_waiting := [
            s for s in hand.waiting_for() if self.seats[s].sitting_out or self.seats[s].disconnected
        ]:
            return self._apply(TimeOut(p_waiting[0]), now, timed_out=False)
        out: Output = []
        out += self.clocks.sync(hand.waiting_for(), now, action=self.timing.action, bank=self._bank)
        return out

    def _bank(self, seat: int) -> float:
        return self.seats[seat].time_bank

    def _end(self, now: datetime) -> Output:
        hand = self.hand
        assert hand is not None
        self.clocks.clear()
        stacks: dict[str, int] = {}
        t = self.timing
        for seat, stack in hand.stacks().items():
            p = self.seats[seat]
            p.stack = stack
            stacks[p.player] = stack
            p.time_bank = refill_bank(
                p.time_bank, p.hands_dealt, full=t.time_bank, refill=t.bank_refill, every=t.refill_every
            )
        return [
            TableHandEnded(
                self.tid,
                self.number,
                hand.hand_id,
                dict(self._starting),
                stacks,
                hand,
                dict(self.hand_players),
                self._started_at,
            )
        ]

    def tick(self, now: datetime) -> Output:
        out: Output = []
        if not self.in_hand:
            return out
        for seat in self.clocks.due(now):
            if self.in_hand and seat in self.clocks:
                try:
                    out += self._apply(TimeOut(seat), now, timed_out=True)
                except EngineError:
                    self.clocks.stop(seat)
        return out

    def next_deadline(self) -> datetime | None:
        return self.clocks.next_deadline()

    def restart_clocks(self, now: datetime) -> Output:
        """After a pause (the store was unavailable): the pending decisions get their whole time again."""
        self.clocks.clear()
        return self._after(now) if self.in_hand else []

    def void_hand(self) -> bool:
        """The hand in progress is void (the server failed during it: docs/tournaments.md): every player
        dealt in has the chips he had when it started, as if it had never been dealt. True if there was
        one."""
        if not self.in_hand:
            return False
        for seat, (player, _) in self.hand_players.items():
            p = self.seats.get(seat)
            if p is not None and p.player == player:
                p.stack = self._starting[player]
        self.hand = None
        self.clocks.clear()
        return True


def _strictly_between(seat: int, start: int, end: int, size: int) -> bool:
    """Is ``seat`` strictly between ``start`` and ``end`` going clockwise round a table of ``size`` seats?"""
    return 0 < (seat - start) % size < (end - start) % size

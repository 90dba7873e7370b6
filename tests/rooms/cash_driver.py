"""Random play at a cash table with players sitting down, leaving, sitting out and coming back, on a fake
clock: the driver of the cash-table property tests (straddles, bomb pots, mixed games)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from pokerroom.engine import DiscardDecision, HandState, RunTwiceDecision
from pokerroom.rooms import CashTable, FinishedHand, GameChoice, HandFinished
from pokerroom.rooms.effects import BuyIn, CashOut, HandSettlement, TopUp
from pokerroom.rooms.errors import TableError

from ..engine.helpers import random_command
from .helpers import T0


@dataclass
class Ledger:
    """Money in and out of the table as its effects say: booked = buy-ins + top-ups - cash-outs."""

    booked: int = 0
    rake: int = 0
    hands: list[HandState] = field(default_factory=list)
    records: list[FinishedHand] = field(default_factory=list)  # what the table gave the history writers

    def absorb(self, out: Sequence[object]) -> None:
        for x in out:
            if isinstance(x, BuyIn | TopUp):
                self.booked += x.amount
            elif isinstance(x, CashOut):
                self.booked -= x.amount
            elif isinstance(x, HandSettlement):
                self.rake += x.rake
            elif isinstance(x, HandFinished):
                self.records.append(x.record)


def play(
    t: CashTable,
    rng: random.Random,
    hands: int,
    *,
    players: int = 9,
    between: Callable[[CashTable, HandState], None] = lambda t, hand: None,
    seat_change: float = 0.08,
    straddlers: bool = False,
    choose: Callable[[GameChoice], int | None] = lambda asked: None,
) -> Ledger:
    """Play until ``hands`` hands have finished; ``between`` runs after each finished hand (the table is
    between hands then) with the hand that finished. Players join and leave at random; each loop moves
    the clock one second on. ``choose`` answers a dealer's choice (an index of the list, or None: no
    answer, the choice times out)."""
    ledger = Ledger()
    now = T0
    lo, hi = t.config.buy_in_range
    hi = hi or 4 * lo
    names = [f"u{i}" for i in range(players)]
    guard = 0
    while len(ledger.hands) < hands:
        guard += 1
        assert guard < hands * 400, "the table stopped dealing"
        now += timedelta(seconds=1)
        if rng.random() < seat_change:
            name = rng.choice(names)
            seat = t.seat_of(name)
            try:
                if seat is None:
                    free = t.free_seats()
                    if free:
                        buy_in = rng.randrange(lo, hi + 1, t.config.stakes.chip_unit)
                        ledger.absorb(t.sit(name, name, rng.choice(free), buy_in, now))
                        if straddlers:
                            t.set_straddle(name, rng.random() < 0.6)
                else:
                    what = rng.random()
                    if what < 0.4:
                        ledger.absorb(t.leave(name, now))
                    elif what < 0.7:
                        ledger.absorb(t.sit_out(name, now, rng.choice(["now", "next_hand", "next_bb"])))
                    else:
                        ledger.absorb(t.sit_in(name, now, post_missed=rng.random() < 0.5))
            except TableError:
                pass
        out = t.tick(now)
        ledger.absorb(out)
        for asked in [x for x in out if isinstance(x, GameChoice)]:
            pick = choose(asked)
            if pick is not None:
                ledger.absorb(t.choose_game(asked.player, pick, now))
        for p in list(t.seats.values()):  # a broke player tops up or leaves
            if p.stack == 0 and not t.dealt_in(p.player):
                if rng.random() < 0.5:
                    ledger.absorb(t.leave(p.player, now))
                else:
                    ledger.absorb(t.top_up(p.player, lo, now))
                    ledger.absorb(t.sit_in(p.player, now))
        if t.in_hand:
            assert t.hand is not None
            command = random_command(t.hand, rng)
            pending = t.hand.pending
            if isinstance(pending, DiscardDecision | RunTwiceDecision) or command.seat in t.seats:
                ledger.absorb(t.act(t.seats[command.seat].player, command, now))
        for record in ledger.records[len(ledger.hands) :]:  # every finished hand, in order (a hand may
            ledger.hands.append(record.hand)  # start and end within one call: a leaver's fold, all-ins)
            assert sum(p.stack for p in t.seats.values()) == ledger.booked - ledger.rake
            between(t, record.hand)
    return ledger

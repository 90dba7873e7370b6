"""The one decision clock and time bank of cash, Rush and tournament tables (RULES.md §4.1, R209-R211)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from pokerroom.engine import Betting, Check, Fold, Stakes
from pokerroom.rooms import Timing, TurnClock
from pokerroom.rooms.clock import Clock, Clocks, refill_bank, spend_bank
from pokerroom.rooms.tournament.table import TournamentTable, TPlayer
from pokerroom.variants import get_variant

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_clocks_start_once_per_waiting_seat_and_drop_the_others() -> None:
    clocks = Clocks("t1")
    started = clocks.sync([3], at(0), action=15, bank=lambda s: 30.0)
    assert started == [TurnClock("t1", 3, at(0), at(15), at(45))]
    # Still waiting for seat 3 (the Irish discard: 3 and 5 at once): only seat 5's clock starts.
    started = clocks.sync([3, 5], at(2), action=15, bank=lambda s: 10.0)
    assert [c.seat for c in started] == [5] and started[0].bank_deadline == at(27)
    assert clocks.get(3) is not None and clocks.get(3).started == at(0)  # type: ignore[union-attr]
    clocks.sync([5], at(3), action=15, bank=lambda s: 0.0)
    assert list(clocks) == [5]
    assert clocks.next_deadline() == at(27)
    assert clocks.due(at(26.9)) == [] and clocks.due(at(27)) == [5]


def test_r209_a_clock_without_the_bank_ends_with_its_action_time() -> None:
    clocks = Clocks("t1")
    (started,) = clocks.sync([1], at(0), action=8, bank=lambda s: 30.0, bank_usable=False)
    assert started.bank_deadline == started.action_deadline == at(8)
    clock = clocks.stop(1)
    assert clock is not None
    assert spend_bank(30.0, clock, at(7), timed_out=False) == 30.0  # nothing to spend


def test_the_bank_is_spent_beyond_the_action_time_and_all_of_it_on_a_timeout() -> None:
    clock = Clock(1, at(0), at(15), at(45))
    assert spend_bank(30.0, clock, at(10), timed_out=False) == 30.0
    assert spend_bank(30.0, clock, at(25), timed_out=False) == 20.0
    assert spend_bank(30.0, clock, at(45), timed_out=True) == 0.0
    assert clock.action_left(at(10)) == 5 and clock.bank_left(at(10)) == 30 and clock.bank_left(at(40)) == 5


def test_the_bank_grows_5_s_every_20_hands_dealt_never_above_30() -> None:
    grow = {"full": 30.0, "refill": 5.0, "every": 20}
    assert refill_bank(10.0, 19, **grow) == 10.0  # type: ignore[arg-type]
    assert refill_bank(10.0, 20, **grow) == 15.0  # type: ignore[arg-type]
    assert refill_bank(28.0, 40, **grow) == 30.0  # type: ignore[arg-type]
    assert refill_bank(10.0, 0, **grow) == 10.0  # type: ignore[arg-type]


def test_a_tournament_bank_grows_with_the_hands_dealt_to_the_player_not_to_the_table() -> None:
    """§4.1 counts the hands dealt to the player: one moved in after ten hands at the table gets his 5 s
    after his own 20th hand, not after the table's 20th (the tournament table counted the table's)."""
    timing = Timing(action=10, time_bank=30, bank_refill=5, refill_every=20)
    table = TournamentTable("t", 1, 6, get_variant("holdem"), Betting.NO_LIMIT, timing, random.Random(3))
    stakes = Stakes.blinds(10, 20)
    for seat, name in ((1, "a"), (2, "b")):
        table.add(TPlayer(name, name, seat, 10_000, 30.0), moved=False)
    now = at(0)

    def play_hand(number: int) -> None:
        nonlocal now
        table.start_hand(now, stakes, f"h{number}")
        while table.in_hand:
            assert table.hand is not None
            pending = table.hand.pending
            seat = pending.seat  # type: ignore[union-attr]
            player = table.seats[seat].player
            move = Check(seat) if pending.check else Fold(seat)  # type: ignore[union-attr]
            table.act(player, move, now)
        now += timedelta(seconds=1)

    for n in range(10):
        play_hand(n)
    table.add(TPlayer("c", "c", 3, 10_000, 10.0), moved=True)
    for n in range(10, 50):
        play_hand(n)
        c = table.seats[3]
        if c.hands_dealt < 20:
            assert c.time_bank == 10.0, (n, c.hands_dealt)
    assert table.seats[3].hands_dealt >= 20 and table.seats[3].time_bank == 15.0

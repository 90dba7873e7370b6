"""Issue 31, defect 3: the pause after a hand covers its all-in run-out. The web client plays the streets
dealt after the all-in exposure (RULES.md §6.5) back one beat apart; the table waits a beat per street
run out, and one for the result, longer than ``between_hands`` before dealing the next hand."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pokerroom.engine import BetDecision, Call, Check, ConfigError, RaiseTo
from pokerroom.engine.events import CardsShown, StreetStarted
from pokerroom.rooms import CashTable, Timing
from pokerroom.rooms.run_out import run_out_streets

from .helpers import at, holdem_table


def _seat_two(t: CashTable) -> None:
    t.sit("ann", "Ann", 1, 10000, at(0))
    t.sit("bob", "Bob", 2, 10000, at(0))
    t.tick(at(1))
    assert t.in_hand


def _finish(t: CashTable, *, shove: bool) -> None:
    """Play the hand out: the first to act moves all-in and the other calls (``shove``), or both check
    and call down."""
    while t.in_hand:
        d = t.hand.pending  # type: ignore[union-attr]
        assert isinstance(d, BetDecision)
        player = t.seats[d.seat].player
        action: RaiseTo | Check | Call
        if shove and d.max_to:
            action = RaiseTo(d.seat, d.max_to)
        else:
            action = Check(d.seat) if d.check else Call(d.seat)
        t.act(player, action, at(2))


def test_an_all_in_preflop_waits_a_beat_per_street_and_one_for_the_result() -> None:
    t = holdem_table(between_hands=2.0, run_out_beat=1.1)
    _seat_two(t)
    _finish(t, shove=True)
    # Flop, turn and river run out after the exposure: 2 + (3 + 1) * 1.1 seconds.
    assert t.next_hand_at == at(2) + timedelta(seconds=2.0 + 4 * 1.1)


def test_a_hand_without_a_run_out_waits_between_hands_only() -> None:
    t = holdem_table(between_hands=2.0, run_out_beat=1.1)
    _seat_two(t)
    _finish(t, shove=False)
    assert t.next_hand_at == at(2) + timedelta(seconds=2.0)


def test_run_out_streets_counts_only_streets_after_the_exposure() -> None:
    before = [StreetStarted(1, "flop")]
    shown = [CardsShown(1, (), "all_in"), CardsShown(2, (), "all_in")]
    after = [StreetStarted(2, "turn"), StreetStarted(3, "river")]
    assert run_out_streets([*before, *shown, *after]) == 2
    assert run_out_streets([*before, CardsShown(1, (), "showdown"), *after]) == 0
    # run it twice: each run's streets are dealt (and played back) on their own
    twice = [StreetStarted(2, "turn", 1), StreetStarted(3, "river", 1), StreetStarted(2, "turn", 2)]
    assert run_out_streets([*shown, *twice, StreetStarted(3, "river", 2)]) == 4


def test_pause_after_and_a_negative_beat() -> None:
    assert Timing(between_hands=0.5, run_out_beat=1.0).pause_after(0) == 0.5
    assert Timing(between_hands=0.5, run_out_beat=1.0).pause_after(2) == 3.5
    with pytest.raises(ConfigError):
        Timing(run_out_beat=-1.0)

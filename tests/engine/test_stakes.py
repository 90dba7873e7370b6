"""RULES.md §1.3 and §10 R1-R7: stakes in minor units, default small blind, fixed-limit units."""

from __future__ import annotations

import pytest

from pokerroom.engine import AmountOutOfRange, Betting, Call, Check, ConfigError, RaiseTo, Stakes
from pokerroom.engine.events import Posted

from .helpers import start
from .rules_helpers import bet, of

FL = Betting.FIXED_LIMIT


def test_r1_fl_5_10_is_stored_in_cents_as_ints() -> None:
    s = Stakes.fixed_limit(500, 1000)
    assert (s.small_bet, s.big_bet, s.big_blind) == (500, 1000, 500)
    for name in ("small_blind", "big_blind", "small_bet", "big_bet", "ante", "bring_in", "chip_unit"):
        assert type(getattr(s, name)) is int
    with pytest.raises(ConfigError):
        Stakes(small_blind=250, big_blind=500, small_bet=5.0, big_bet=1000)  # type: ignore[arg-type]
    # Every amount of a hand played at these stakes is an int as well.
    hand = start("holdem", FL, s, [10_000, 10_000, 10_000])
    hand.apply(RaiseTo(3, 1000))
    hand.apply(Call(1))
    hand.apply(Call(2))
    for e in hand.events:
        for value in e.to_dict().values():
            assert not isinstance(value, float)
    assert all(type(v) is int for v in hand.stacks().values())


def test_r2_default_small_blind_half_of_5_dollars_with_cent_unit() -> None:
    assert Stakes.default_small_blind(500, 1) == 250
    assert Stakes.fixed_limit(500, 1000).small_blind == 250
    assert Stakes.blinds(None, 500).small_blind == 250


def test_r3_default_small_blind_rounds_down_to_dollar_unit() -> None:
    assert Stakes.default_small_blind(500, 100) == 200
    assert Stakes.fixed_limit(500, 1000, chip_unit=100).small_blind == 200


def test_r4_default_small_blind_15_dollars_with_dollar_unit() -> None:
    assert Stakes.default_small_blind(1500, 100) == 700
    assert Stakes.fixed_limit(1500, 3000, chip_unit=100).small_blind == 700


@pytest.mark.parametrize("unit", [1, 2, 5, 10, 25, 50, 100])
def test_r5_default_small_blind_of_2_dollars_is_1_dollar(unit: int) -> None:
    assert Stakes.default_small_blind(200, unit) == 100
    assert Stakes.fixed_limit(200, 400, chip_unit=unit).small_blind == 100


def test_r6_fixed_limit_big_blind_is_the_small_bet() -> None:
    assert Stakes.fixed_limit(500, 1000).big_blind == 500
    assert Stakes.fixed_limit(200, 400).big_blind == 200
    hand = start("holdem", FL, Stakes.fixed_limit(500, 1000), [10_000, 10_000, 10_000])
    assert [(p.seat, p.what, p.amount) for p in of(hand.events, Posted)] == [
        (1, "small_blind", 250),
        (2, "big_blind", 500),
    ]


def test_r7_half_dollar_one_dollar_units_per_street() -> None:
    stakes = Stakes.fixed_limit(50, 100)
    hand = start("holdem", FL, stakes, [10_000, 10_000, 10_000])  # button 3: SB 1, BB 2, UTG 3
    # Preflop: every raise is +$0.50.
    d = bet(hand)
    assert (d.seat, d.choices) == (3, (100,))
    for wrong in (75, 150, 200):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(3, wrong))
    hand.apply(RaiseTo(3, 100))
    assert bet(hand).choices == (150,)
    hand.apply(RaiseTo(1, 150))
    assert bet(hand).choices == (200,)
    hand.apply(Call(2))
    hand.apply(Call(3))
    # Flop: bet $0.50, raises +$0.50.
    assert bet(hand).choices == (50,)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(1, 100))
    hand.apply(RaiseTo(1, 50))
    assert bet(hand).choices == (100,)
    hand.apply(RaiseTo(2, 100))
    hand.apply(Call(3))
    hand.apply(Call(1))
    # Turn: bet $1, raises +$1.
    assert bet(hand).choices == (100,)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(1, 50))
    hand.apply(RaiseTo(1, 100))
    assert bet(hand).choices == (200,)
    hand.apply(RaiseTo(2, 200))
    hand.apply(Call(3))
    hand.apply(Call(1))
    # River: the same $1 unit.
    assert bet(hand).choices == (100,)
    hand.apply(Check(1))
    hand.apply(RaiseTo(2, 100))
    assert bet(hand).choices == (200,)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(3, 150))

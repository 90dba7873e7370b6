"""RULES.md §3.4 and §10 R67-R73, R79 (PL part): pot-limit minimum and maximum bets and raises.

Blinds $5/$10 in cents (500/1000); six players, button 1 / SB 2 / BB 3 / UTG 4.
"""

from __future__ import annotations

import pytest

from pokerroom.engine import AmountOutOfRange, Betting, Blinds, Call, Check, Fold, HandState, RaiseTo, Stakes

from .helpers import start
from .rules_helpers import actions, bet

PL = Betting.POT_LIMIT
STAKES = Stakes.blinds(500, 1000)
DEEP = 1_000_000


def _hand(blinds: Blinds | None = None) -> HandState:
    return start("holdem", PL, STAKES, [DEEP] * 6, button=1, blinds=blinds)


def test_r67_utg_may_call_or_raise_to_at_most_35() -> None:
    hand = _hand()
    d = bet(hand)
    assert (d.seat, d.call, d.check, d.raise_kind, d.min_to, d.max_to) == (
        4,
        1000,
        False,
        "raise",
        2000,
        3500,
    )
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(4, 3600))
    hand.apply(RaiseTo(4, 3500))
    assert actions(hand) == [(4, "raise", 3500)]


def test_r68_pot_after_utg_pot_raise_is_50() -> None:
    """R68: after UTG raises to 35 (blinds 5/10) the pot is 50."""
    hand = _hand()
    hand.apply(RaiseTo(4, 3500))
    assert hand.pot_total() == 5000


def test_r69_next_player_calls_35_or_raises_to_at_most_120() -> None:
    """R69: after UTG's raise to 35 the next player owes 35 and may raise to at most 120; 125 is rejected."""
    hand = _hand()
    hand.apply(RaiseTo(4, 3500))
    d = bet(hand)
    assert (d.seat, d.call, d.max_to) == (5, 3500, 12000)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(5, 12500))
    hand.apply(RaiseTo(5, 12000))
    assert actions(hand)[-1] == (5, "raise", 12000)
    assert hand.pot_total() == 17000


def test_r69_call_puts_in_35() -> None:
    """R69: after UTG's raise to 35 the next player calls by putting in 35."""
    hand = _hand()
    hand.apply(RaiseTo(4, 3500))
    hand.apply(Call(5))
    assert actions(hand)[-1] == (5, "call", 3500)


def test_r70_sb_max_raise_after_utg_pot_raise() -> None:
    """R70: UTG raises to 35, all fold to the SB (5 in, pot 50): he may raise to at most 115, adding 110."""
    hand = _hand()
    hand.apply(RaiseTo(4, 3500))
    for seat in (5, 6, 1):
        hand.apply(Fold(seat))
    d = bet(hand)
    assert (d.seat, d.call, d.max_to) == (2, 3000, 11500)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(2, 11600))
    hand.apply(RaiseTo(2, 11500))
    assert actions(hand)[-1] == (2, "raise", 11000)


def test_r71_max_raise_after_a_utg_limp_is_45() -> None:
    """R71: blinds 5/10, UTG limps: the next player may raise to at most 45."""
    hand = _hand()
    hand.apply(Call(4))
    d = bet(hand)
    assert (d.seat, d.max_to) == (5, 4500)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(5, 4600))
    hand.apply(RaiseTo(5, 4500))


def test_r72_dead_small_blind_counts_in_the_pot() -> None:
    """R72: blinds 5/10 and a dead SB of 5 in the middle: UTG may raise to at most 40."""
    # Seat 5 returns with a missed small blind and posts it dead (RULES.md §4.7).
    hand = _hand(Blinds(small=(2, 500), big=(3, 1000), dead=((5, 500),)))
    d = bet(hand)
    assert (d.seat, d.max_to) == (4, 4000)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(4, 4100))
    hand.apply(RaiseTo(4, 4000))


def test_r73_min_raise_preflop_and_postflop_bet_range() -> None:
    hand = _hand()
    d = bet(hand)
    assert d.min_to == 2000
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(4, 1900))
    for seat in (4, 5, 6, 1, 2):
        hand.apply(Call(seat))
    hand.apply(Check(3))
    assert hand.street == 1 and hand.pot_total() == 6000
    d = bet(hand)
    assert (d.seat, d.raise_kind, d.min_to, d.max_to) == (2, "bet", 1000, 6000)
    for wrong in (900, 6100):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(2, wrong))
    hand.apply(RaiseTo(2, 6000))
    assert actions(hand)[-1] == (2, "bet", 6000)


def test_r79_pot_limit_ten_raises_in_one_round_are_legal() -> None:
    hand = start("holdem", PL, STAKES, [10**12] * 3)  # button 3: SB 1, BB 2, UTG 3
    for i in range(10):
        d = bet(hand)
        assert d.raise_kind == "raise", i
        hand.apply(RaiseTo(d.seat, d.max_to))
    assert sum(1 for _, a, _ in actions(hand) if a == "raise") == 10
    assert bet(hand).raise_kind == "raise"

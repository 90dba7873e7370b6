"""RULES.md §3.5, §3.6 (PL/NL short all-ins) and §10 R74-R79: no-limit minimum raises and reopening."""

from __future__ import annotations

import pytest

from pokerroom.engine import (
    AmountOutOfRange,
    Betting,
    Call,
    Check,
    Fold,
    HandState,
    IllegalAction,
    RaiseTo,
    Stakes,
)

from .helpers import start
from .rules_helpers import actions, bet

NL = Betting.NO_LIMIT
DEEP = 1_000_000


def test_r74_min_raise_is_twice_the_bb_then_the_last_increment() -> None:
    hand = start("holdem", NL, Stakes.blinds(500, 1000), [DEEP] * 5, button=1)  # SB 2, BB 3, UTG 4
    d = bet(hand)
    assert (d.seat, d.min_to, d.max_to) == (4, 2000, DEEP)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(4, 1900))
    hand.apply(RaiseTo(4, 3500))
    d = bet(hand)
    assert (d.seat, d.min_to) == (5, 6000)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(5, 5900))
    hand.apply(RaiseTo(5, 6000))
    assert bet(hand).min_to == 8500


def _flop(stacks: dict[int, int], blinds: tuple[int, int] = (500, 1000)) -> HandState:
    """Everybody calls preflop and the BB checks; the flop starts with seat 1 (button is the last seat)."""
    hand = start("holdem", NL, Stakes.blinds(*blinds), stacks, button=max(stacks))
    while hand.street == 0:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    return hand


def test_r75_postflop_bet_below_the_bb_only_all_in() -> None:
    """R75: a postflop bet below the BB is rejected, except an all-in for less."""
    hand = _flop({1: DEEP, 2: 1000 + 700, 3: DEEP})
    d = bet(hand)
    assert (d.seat, d.raise_kind, d.min_to) == (1, "bet", 1000)
    for wrong in (1, 500, 999):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(1, wrong))
    hand.apply(Check(1))
    d = bet(hand)  # seat 2 has $7 left: only an all-in bet of $7
    assert (d.seat, d.min_to, d.max_to) == (2, 700, 700)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(2, 600))
    hand.apply(RaiseTo(2, 700))
    assert actions(hand)[-1] == (2, "bet", 700)
    assert hand.players[2].all_in


def test_r75_all_in_of_any_size_is_accepted() -> None:
    """R75: an all-in bet of any size is accepted."""
    hand = _flop({1: 1000 + 123_457, 2: DEEP, 3: DEEP})
    hand.apply(RaiseTo(1, 123_457))  # not a round number, but the whole stack
    assert actions(hand)[-1] == (1, "bet", 123_457)
    d = bet(hand)
    assert d.min_to == 2 * 123_457


def _nl_50_100(b_stack: int) -> HandState:
    """NL 50/100, button 1 / SB 2 / BB 3; A = seat 4, B = seat 5 (stack ``b_stack``), C = seat 6."""
    return start(
        "holdem",
        NL,
        Stakes.blinds(50, 100),
        {1: DEEP, 2: DEEP, 3: DEEP, 4: DEEP, 5: b_stack, 6: DEEP},
        button=1,
    )


def test_r76_short_all_in_does_not_reopen_for_the_raiser() -> None:
    """R76: NL 50/100, A raises to 300, B all-in 450, C calls: A may only call 150 or fold."""
    hand = _nl_50_100(450)
    hand.apply(RaiseTo(4, 300))  # A: increment 200
    hand.apply(RaiseTo(5, 450))  # B all-in: increment 150 < 200
    d = bet(hand)
    assert (d.seat, d.call, d.min_to) == (6, 450, 650)  # C (not yet acted) may still raise
    hand.apply(Call(6))
    for seat in (1, 2, 3):
        hand.apply(Fold(seat))
    d = bet(hand)
    assert (d.seat, d.fold, d.call, d.check, d.raise_kind) == (4, True, 150, False, "")
    with pytest.raises(IllegalAction) as exc:
        hand.apply(RaiseTo(4, 750))
    assert exc.value.code == "illegal_action"


def test_r77_full_all_in_raise_reopens() -> None:
    """R77: NL 50/100, A raises to 300, B all-in 500 (a full raise): A may re-raise, at least to 700."""
    hand = _nl_50_100(500)
    hand.apply(RaiseTo(4, 300))
    hand.apply(RaiseTo(5, 500))  # increment 200: a full raise
    hand.apply(Call(6))  # C is still in (with everyone else all-in, a raise could not be answered)
    for seat in (1, 2, 3):
        hand.apply(Fold(seat))
    d = bet(hand)
    assert (d.seat, d.call, d.raise_kind, d.min_to) == (4, 200, "raise", 700)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(4, 699))
    hand.apply(RaiseTo(4, 700))
    assert actions(hand)[-1] == (4, "raise", 400)


def test_r78_short_all_ins_add_up_and_reopen() -> None:
    """R78: A bets 100, B all-in 150, C all-in 200: A may raise, at least to 300."""
    # Flop of NL 50/100: A = seat 1 bets 100, B = seat 2 all-in 150, C = seat 3 all-in 200.
    hand = _flop({1: DEEP, 2: 100 + 150, 3: 100 + 200, 4: DEEP}, blinds=(50, 100))
    hand.apply(RaiseTo(1, 100))
    hand.apply(RaiseTo(2, 150))
    hand.apply(RaiseTo(3, 200))
    hand.apply(Call(4))
    d = bet(hand)
    assert (d.seat, d.call, d.raise_kind, d.min_to) == (1, 100, "raise", 300)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(1, 299))
    hand.apply(RaiseTo(1, 300))


def test_r79_no_limit_ten_raises_in_one_round_are_legal() -> None:
    hand = start("holdem", NL, Stakes.blinds(500, 1000), [10**12] * 3)
    for i in range(10):
        d = bet(hand)
        assert d.raise_kind == "raise", i
        hand.apply(RaiseTo(d.seat, d.min_to))
    assert sum(1 for _, a, _ in actions(hand) if a == "raise") == 10
    assert bet(hand).raise_kind == "raise"

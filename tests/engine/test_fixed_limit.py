"""RULES.md §3.3, §3.6 (FL half-bet rule) and §10 R53-R66, R245: fixed-limit bets, raises and the cap."""

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

FL = Betting.FIXED_LIMIT
S2_4 = Stakes.fixed_limit(200, 400)
S5_10 = Stakes.fixed_limit(500, 1000)
S20_40 = Stakes.fixed_limit(2000, 4000)
DEEP = 100_000


def _no_raise(hand: HandState) -> None:
    d = bet(hand)
    assert (d.raise_kind, d.choices) == ("", ())
    with pytest.raises(IllegalAction):
        hand.apply(RaiseTo(d.seat, d.bet + d.to_call + 200))


def _r53_spot() -> HandState:
    """$2/$4, five players, button 1 / SB 2 / BB 3: seat 4 raises to $4, seat 5 to $6, button folds."""
    hand = start("holdem", FL, S2_4, [DEEP] * 5, button=1)
    hand.apply(RaiseTo(4, 400))
    hand.apply(RaiseTo(5, 600))
    hand.apply(Fold(1))
    return hand


def test_r53_sb_facing_two_raises() -> None:
    hand = _r53_spot()
    d = bet(hand)
    assert (d.seat, d.fold, d.check, d.call, d.raise_kind, d.choices) == (
        2,
        True,
        False,
        500,
        "raise",
        (800,),
    )
    for wrong in (700, 1000):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(2, wrong))
    hand.apply(RaiseTo(2, 800))
    assert actions(hand)[-1] == (2, "raise", 700)


def test_r53_sb_calls_by_adding_5() -> None:
    hand = _r53_spot()
    hand.apply(Call(2))
    assert actions(hand)[-1] == (2, "call", 500)


def test_r54_bb_facing_two_raises() -> None:
    """R54: in R53's spot, after the SB calls, the BB ($2 in) owes $4 and may raise only to $8, adding $6."""
    hand = _r53_spot()
    hand.apply(Call(2))
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (3, 400, (800,))
    hand.apply(RaiseTo(3, 800))
    assert actions(hand)[-1] == (3, "raise", 600)


def test_r54_bb_calls_by_adding_4() -> None:
    """R54: in R53's spot the BB ($2 in) calls by adding $4."""
    hand = _r53_spot()
    hand.apply(Fold(2))
    hand.apply(Call(3))
    assert actions(hand)[-1] == (3, "call", 400)


def test_r55_no_raise_after_the_cap_preflop() -> None:
    """R55: $2/$4 preflop, five players: after the raise to $8 nobody may raise again; the calls end the
    round."""
    hand = _r53_spot()
    hand.apply(RaiseTo(2, 800))  # bet (BB) + 3 raises: capped
    for seat in (3, 4, 5):
        assert bet(hand).seat == seat
        _no_raise(hand)
        hand.apply(Call(seat))
    assert hand.street == 1  # the flop was dealt: the round ended


def test_r56_fl_5_10_sizes_are_exact() -> None:
    """R56: $5/$10: a preflop raise is exactly to $10, a flop bet $5, a turn bet $10, a river raise +$10;
    other sizes are rejected."""
    hand = start("holdem", FL, S5_10, [DEEP] * 3)  # button 3: SB 1, BB 2, UTG 3
    assert bet(hand).choices == (1000,)
    for wrong in (600, 999, 1001, 1500, 2000):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(3, wrong))
    hand.apply(RaiseTo(3, 1000))
    hand.apply(Call(1))
    hand.apply(Call(2))
    # Flop: a bet is exactly $5.
    assert bet(hand).choices == (500,)
    for wrong in (250, 1000):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(1, wrong))
    hand.apply(RaiseTo(1, 500))
    hand.apply(Call(2))
    hand.apply(Call(3))
    # Turn: a bet is exactly $10.
    assert bet(hand).choices == (1000,)
    for wrong in (500, 2000):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(1, wrong))
    hand.apply(RaiseTo(1, 1000))
    hand.apply(Call(2))
    hand.apply(Call(3))
    # River: bet $10, a raise is exactly +$10.
    hand.apply(RaiseTo(1, 1000))
    assert bet(hand).choices == (2000,)
    for wrong in (1500, 2500, 3000):
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(2, wrong))
    hand.apply(RaiseTo(2, 2000))
    assert actions(hand)[-1] == (2, "raise", 2000)


def _to_turn(players: int, *, heads_up_uncapped: bool = True) -> HandState:
    """$2/$4, everybody calls preflop and checks the flop; the turn starts with ``players`` in."""
    hand = start("holdem", FL, S2_4, [DEEP] * players, button=players, heads_up_uncapped=heads_up_uncapped)
    while hand.street == 0:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    while hand.street == 1:
        hand.apply(Check(bet(hand).seat))
    assert hand.street == 2
    return hand


def test_r57_turn_cap_with_three_players() -> None:
    hand = _to_turn(3)
    hand.apply(RaiseTo(1, 400))
    hand.apply(RaiseTo(2, 800))
    hand.apply(RaiseTo(3, 1200))
    hand.apply(RaiseTo(1, 1600))
    assert actions(hand)[-4:] == [
        (1, "bet", 400),
        (2, "raise", 800),
        (3, "raise", 1200),
        (1, "raise", 1200),
    ]
    with pytest.raises(IllegalAction):
        hand.apply(RaiseTo(2, 2000))
    _no_raise(hand)


def test_r58_cash_heads_up_round_has_no_cap() -> None:
    hand = _to_turn(2)  # seats 1 (BB) and 2 (button)
    hand.apply(RaiseTo(1, 400))
    for seat, to in ((2, 800), (1, 1200), (2, 1600), (1, 2000), (2, 2400)):
        assert bet(hand).choices == (to,)
        hand.apply(RaiseTo(seat, to))
    hand.apply(Call(1))
    assert hand.street == 3


def test_r59_tournament_heads_up_keeps_the_cap() -> None:
    hand = _to_turn(2, heads_up_uncapped=False)
    hand.apply(RaiseTo(1, 400))
    hand.apply(RaiseTo(2, 800))
    hand.apply(RaiseTo(1, 1200))
    hand.apply(RaiseTo(2, 1600))  # third raise
    with pytest.raises(IllegalAction):
        hand.apply(RaiseTo(1, 2000))  # fourth raise
    _no_raise(hand)


def test_r60_cap_stays_when_a_player_folds_during_the_round() -> None:
    """R60: cash table, three players start the turn and one folds during it: the bet and three raises still
    cap the round."""
    hand = _to_turn(3)
    hand.apply(RaiseTo(1, 400))
    hand.apply(Fold(2))  # two players left, but the round started with three
    hand.apply(RaiseTo(3, 800))
    hand.apply(RaiseTo(1, 1200))
    hand.apply(RaiseTo(3, 1600))
    _no_raise(hand)


def test_r61_utg_cannot_check_preflop() -> None:
    """R61: FL preflop, UTG may fold, call or raise; a check is neither offered nor accepted."""
    hand = start("holdem", FL, S2_4, [DEEP] * 4, button=4)  # SB 1, BB 2, UTG 3
    d = bet(hand)
    assert (d.seat, d.fold, d.check, d.call, d.raise_kind, d.choices) == (
        3,
        True,
        False,
        200,
        "raise",
        (400,),
    )
    with pytest.raises(IllegalAction):
        hand.apply(Check(3))


def test_r62_half_bet_rule_short_all_in_does_not_reopen() -> None:
    """R62: $20 round, A bets 20, B all-in 25: C may call 25 or raise to 40; after C's call A may call 5 or
    fold, not raise."""
    # A = seat 2, B = seat 3 (all-in for 25 on the flop), C = seat 4; seat 1 (button) folds preflop.
    hand = start("holdem", FL, S20_40, {1: DEEP, 2: DEEP, 3: 4500, 4: DEEP}, button=1)
    hand.apply(Call(4))
    hand.apply(Fold(1))
    hand.apply(Call(2))
    hand.apply(Check(3))
    hand.apply(RaiseTo(2, 2000))  # A bets 20
    assert bet(hand).choices == (2500,)  # B can only go all-in for 25
    hand.apply(RaiseTo(3, 2500))  # B all-in 25
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (4, 2500, (4000,))  # C: call 25 or raise to 40
    hand.apply(Call(4))
    d = bet(hand)
    assert (d.seat, d.call, d.fold) == (2, 500, True)  # A: call 5 more or fold, no raise
    _no_raise(hand)


def test_r63_half_bet_rule_all_in_of_half_a_bet_reopens() -> None:
    """R63: $20 round, A bets 20, B all-in 30 (a raise): C may raise only to 50; after C's call A may re-raise
    to 50."""
    hand = start("holdem", FL, S20_40, {1: DEEP, 2: DEEP, 3: 5000, 4: DEEP}, button=1)
    hand.apply(Call(4))
    hand.apply(Fold(1))
    hand.apply(Call(2))
    hand.apply(Check(3))
    hand.apply(RaiseTo(2, 2000))  # A bets 20
    hand.apply(RaiseTo(3, 3000))  # B all-in 30: counts as a raise
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (4, 3000, (5000,))  # C may raise only to 50
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(4, 4000))
    hand.apply(Call(4))
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (2, 1000, (5000,))  # A is reopened: re-raise to 50
    hand.apply(RaiseTo(2, 5000))
    assert actions(hand)[-1] == (2, "raise", 3000)


def test_r64_short_all_in_bet_counts_as_the_bet() -> None:
    """R64: $20 round, a first-to-act all-in bet of 15 is the bet; the raise over it is to 35 (30 is
    rejected)."""
    hand = start("holdem", FL, S20_40, {1: DEEP, 2: DEEP, 3: 3500, 4: DEEP}, button=1)
    hand.apply(Call(4))
    hand.apply(Call(1))
    hand.apply(Fold(2))
    hand.apply(Check(3))
    # Flop: seat 3 (BB) acts first, all-in bet of 15.
    d = bet(hand)
    assert (d.seat, d.raise_kind, d.choices) == (3, "bet", (1500,))
    hand.apply(RaiseTo(3, 1500))
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (4, 1500, (3500,))
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(4, 3000))
    hand.apply(RaiseTo(4, 3500))


S15_30 = Stakes.fixed_limit(1500, 3000, small_blind=700, chip_unit=100)


def _flop_15_30(short_stack: int) -> HandState:
    """$15/$30, button 1 / SB 2 / BB 3 / seat 4; seat 3 has ``short_stack`` left on the flop."""
    hand = start("holdem", FL, S15_30, {1: DEEP, 2: DEEP, 3: 1500 + short_stack, 4: DEEP}, button=1)
    hand.apply(Call(4))
    hand.apply(Fold(1))
    hand.apply(Call(2))
    hand.apply(Check(3))
    assert hand.street == 1
    return hand


def test_r65_short_stack_may_call_all_in() -> None:
    """R65: $15/$30 flop, a player with $7 calls a $15 bet all-in for $7."""
    hand = _flop_15_30(700)
    hand.apply(RaiseTo(2, 1500))
    d = bet(hand)
    assert (d.seat, d.call, d.to_call, d.choices) == (3, 700, 1500, ())
    hand.apply(Call(3))
    assert actions(hand)[-1] == (3, "call", 700)
    assert hand.players[3].all_in


def test_r65_short_all_in_bet_does_not_count() -> None:
    """R65: $15/$30 flop, unopened, a player with $7 bets it all-in; the next player may call $7 or complete
    to $15."""
    hand = _flop_15_30(700)
    hand.apply(Check(2))
    d = bet(hand)
    assert (d.seat, d.raise_kind, d.choices) == (3, "bet", (700,))
    hand.apply(RaiseTo(3, 700))  # $7 < half of $15: not a bet
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (4, 700, (1500,))  # call $7 or complete to $15
    hand.apply(RaiseTo(4, 1500))
    assert bet(hand).choices == (3000,)


def test_r66_short_all_in_does_not_count_toward_the_cap() -> None:
    # Five players see the flop; seat 5 (D) has exactly 65 left.
    hand = start("holdem", FL, S20_40, {1: DEEP, 2: DEEP, 3: DEEP, 4: DEEP, 5: 2000 + 6500}, button=5)
    while hand.street == 0:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    hand.apply(RaiseTo(1, 2000))  # bet 20
    hand.apply(RaiseTo(2, 4000))  # raise 40
    hand.apply(RaiseTo(3, 6000))  # raise 60
    hand.apply(Call(4))
    assert bet(hand).choices == (6500,)
    hand.apply(RaiseTo(5, 6500))  # all-in 65: does not count
    d = bet(hand)
    assert (d.seat, d.choices) == (1, (8000,))
    hand.apply(RaiseTo(1, 8000))  # raise to 80: the fourth bet, caps the round
    for seat in (2, 3, 4):
        assert bet(hand).seat == seat
        _no_raise(hand)
        hand.apply(Call(seat))
    assert hand.street == 2


def test_r245_fl_omaha_hi_lo_fixed_bets_and_cap() -> None:
    hand = start("omaha8", FL, S2_4, [DEEP] * 3)  # button 3: SB 1, BB 2, UTG 3
    # Preflop: small bet, BB + 3 raises.
    for seat, to in ((3, 400), (1, 600), (2, 800)):
        assert bet(hand).choices == (to,)
        hand.apply(RaiseTo(seat, to))
    _no_raise(hand)
    hand.apply(Call(3))
    hand.apply(Call(1))
    for street, unit in ((1, 200), (2, 400), (3, 400)):
        assert hand.street == street
        for i, seat in enumerate((1, 2, 3, 1)):
            d = bet(hand)
            assert d.choices == ((i + 1) * unit,)
            with pytest.raises(AmountOutOfRange):
                hand.apply(RaiseTo(seat, (i + 1) * unit + unit // 2))
            hand.apply(RaiseTo(seat, (i + 1) * unit))
        _no_raise(hand)
        hand.apply(Call(2))
        hand.apply(Call(3))
    assert hand.is_over

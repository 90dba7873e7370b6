"""Acceptance checks of RULES.md that no test named yet (issue 36: "the tests cite the R checks no test
names yet"), each checked as the rule states it: the default small blind (R2-R5), the limit big blind
(R6), straights and full houses (R12-R14), the cards each game may use (R17-R19, R21, R24), 8-or-better
(R25, R28), and Irish's structures (R155)."""

from __future__ import annotations

import pytest

from pokerroom.engine import Betting, ConfigError, Stakes
from pokerroom.eval import evaluate
from pokerroom.variants import get_variant


def test_r2_to_r5_the_default_small_blind_is_half_the_big_blind_rounded_down_to_the_chip_unit() -> None:
    # amounts in cents: R2 BB $5.00 with chip unit $0.01 -> SB $2.50; R3 BB $5 with chip unit $1 -> SB $2;
    # R4 BB $15 with chip unit $1 -> SB $7; R5 BB $2 -> SB $1 for any chip unit up to $1
    assert Stakes.blinds(None, 500, chip_unit=1).small_blind == 250
    assert Stakes.blinds(None, 500, chip_unit=100).small_blind == 200
    assert Stakes.blinds(None, 1500, chip_unit=100).small_blind == 700
    assert {Stakes.blinds(None, 200, chip_unit=u).small_blind for u in (1, 5, 25, 50, 100)} == {100}


def test_r6_the_limit_big_blind_is_the_small_bet() -> None:
    assert Stakes.fixed_limit(500, 1000).big_blind == 500
    assert Stakes.fixed_limit(200, 400).big_blind == 200


def test_r12_r13_the_wheel_is_the_lowest_straight_and_there_is_no_wrap_around() -> None:
    wheel = evaluate("high", "As 2d 3c 4h 5s")
    assert wheel.description == "Straight, five high"
    assert wheel < evaluate("high", "2s 3d 4c 5h 6s")  # R12
    wrap = evaluate("high", "Qs Kd Ac 2h 3s")
    assert wrap.description == "Ace high"  # R13: not a straight
    assert wrap < evaluate("high", "2c 2d 4h 7s 9c")


def test_r14_full_houses_by_their_trips_and_two_pairs_by_the_kicker() -> None:
    assert evaluate("high", "3s 3d 3c 2h 2s") > evaluate("high", "2c 2d 2h As Ac")
    assert evaluate("high", "Ks Kd 5c 5h As") > evaluate("high", "Kc Kh 5s 5d Qs")


def test_r17_r18_r19_r21_the_cards_each_game_may_use() -> None:
    assert evaluate("high", "Ks 2d", "As Qs Js Ts 3d").description == "Royal flush"  # R17: one hole card
    no_flush = evaluate("omaha_high", "Qh Js 9d 8c", "Ah Kh 7h 4h 2c")  # R18: one heart in the hand
    assert "flush" not in no_flush.description.lower()
    five = evaluate("omaha_high", "Ac Ad Ah Ks 7c", "As Qs Jh Td 9d")  # R19: never four aces
    assert five.description == "Straight, ace high"
    six = evaluate("omaha_high", "Ac Ad Ah Ks 7c 2d", "As Qs Jh Td 9h")  # R21: the straight, split with K-Q
    other = evaluate("omaha_high", "Kc Qd 3h 4s 5c 6d", "As Qs Jh Td 9h")
    assert six.description == "Straight, ace high" and six == other


def test_r24_high_and_low_may_use_different_hole_cards() -> None:
    hole, board = "Ad Kd 2s 9c", "Qd Jd 5d 4h 3c"  # high: A-K of diamonds (a flush); low: A-2
    high = evaluate("omaha_high", hole, board)
    low = evaluate("omaha_eight_low", hole, board)
    assert high.description == "Flush, ace high" and {str(c) for c in high.cards} >= {"Ad", "Kd"}
    assert low.description == "5-4-3-2-A low" and {str(c) for c in low.cards} >= {"Ad", "2s"}


def test_r25_r28_eight_or_better() -> None:
    assert evaluate("eight_low", "Ac 3d 4h 5s 6c") > evaluate("eight_low", "As 2d 4c 5h 7s")  # R25
    assert evaluate("omaha_eight_low", "As Kd Qc Jh", "2c 3d 4h 5s 6c").description == "No low"  # R28


def test_r155_irish_is_not_played_fixed_limit() -> None:
    irish = get_variant("irish")
    with pytest.raises(ConfigError):
        irish.check_structure(Betting.FIXED_LIMIT)
    irish.check_structure(Betting.POT_LIMIT)
    irish.check_structure(Betting.NO_LIMIT)

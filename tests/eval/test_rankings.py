"""Every ranking example of RULES.md §2 and §10 (R8, R11-R52), named by check number."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, pairwise

import pytest

from pokerroom.cards import Card, DeckSpec, parse_cards
from pokerroom.eval import CardNotInDeck, HandValue, evaluate


def ev(rule: str, hole: str | Iterable[Card], board: str = "") -> HandValue:
    return evaluate(rule, hole, board)


def test_r8_suits_never_break_ties() -> None:
    a = ev("high", "Ah Kh Qh Jh 9h")
    b = ev("high", "As Ks Qs Js 9s")
    assert a == b and hash(a) == hash(b) and not a < b and not b < a
    for rule in ("high", "ace5_low", "deuce7_low", "soko", "short_deck_7a", "short_deck_6a"):
        assert ev(rule, "Ac Kd Qh 9s 8c") == ev(rule, "As Kh Qd 9c 8s")


def test_r11_high_category_order() -> None:
    hands = [
        "9h Th Jh Qh Kh",  # straight flush
        "2c 2d 2h 2s 3c",  # four of a kind
        "3c 3d 3h 2s 2c",  # full house
        "2h 4h 6h 8h Th",  # flush
        "5c 6d 7h 8s 9c",  # straight
        "4c 4d 4h 9s Ac",  # three of a kind
        "Ac Ad Kh Ks Qc",  # two pair
        "Ac Ad Kh Qs Jc",  # one pair
        "Ac Kd Qh Js 9c",  # high card
    ]
    values = [ev("high", h) for h in hands]
    assert [v.category for v in values] == [
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "one_pair",
        "high_card",
    ]
    assert all(a > b for a, b in pairwise(values))


def test_r12_wheel_is_the_lowest_straight() -> None:
    wheel = ev("high", "Ac 2d 3h 4s 5c")
    assert wheel.category == "straight" and wheel.description == "Straight, five high"
    assert wheel < ev("high", "2c 3d 4h 5s 6c")
    assert wheel > ev("high", "Ac Ad Ah Ks Qc")  # beats any three of a kind


def test_r13_no_wrap_around() -> None:
    v = ev("high", "Qc Kd Ah 2s 3c")
    assert v.category == "high_card" and v.description == "Ace high"


def test_r14_full_house_and_kicker_ties() -> None:
    assert ev("high", "3c 3d 3h 2s 2c") > ev("high", "2c 2d 2h As Ac")
    assert ev("high", "Kc Kd 5h 5s Ac") > ev("high", "Kc Kd 5h 5s Qc")


def test_r15_no_hand_below_seven_five_four_three_two() -> None:
    # The exhaustive check over all 2,598,960 hands is in test_exhaustive.py; here the boundary.
    worst = ev("high", "7c 5d 4h 3s 2c")
    assert worst.description == "Seven high"
    assert ev("high", "6c 5d 4h 3s 2c").category == "straight"
    assert ev("high", "7c 5d 4h 3s 2c") < ev("high", "7c 6d 4h 3s 2c")


def test_r16_everyone_plays_the_board() -> None:
    board = "As Kh Qd Jc Ts"
    values = [ev("high", h, board) for h in ("2c 3d", "4h 5h", "9s 9d")]
    assert values[0] == values[1] == values[2]
    assert values[0].description == "Straight, ace high"
    assert set(values[0].cards) == set(parse_cards(board))


def test_r17_royal_flush_with_one_hole_card() -> None:
    v = ev("high", "Ks 2d", "As Qs Js Ts 3d")
    assert v.description == "Royal flush"
    assert set(v.cards) == set(parse_cards("As Ks Qs Js Ts"))


def test_r18_omaha_one_heart_gives_no_flush() -> None:
    v = ev("omaha_high", "Qh Js 9d 8c", "Ah Kh 7h 4h 2c")
    assert v.category != "flush"
    assert v.description == "Ace high"  # no pair, no straight, no flush with exactly 2 + 3
    assert ev("high", "Qh Js 9d 8c Ah Kh 7h 4h 2c").category == "flush"  # 5 of 9 would be a flush


def test_r19_five_card_omaha_no_four_aces() -> None:
    v = ev("omaha_high", "Ac Ad Ah Ks 7c", "As Qs Jh Td 9d")
    assert v.description == "Straight, ace high"
    assert v.category != "four_of_a_kind"


def test_r20_five_card_omaha_split() -> None:
    r19 = ev("omaha_high", "Ac Ad Ah Ks 7c", "As Qs Jh Td 9d")
    for other in ("Kh Qc 2c 3c 4h", "Kd Jc 2c 3c 4h", "Kc Tc 2c 3c 4h"):
        assert ev("omaha_high", other, "As Qs Jh Td 9d") == r19


def test_r21_six_card_omaha() -> None:
    board = "As Qs Jh Td 9c"
    v = ev("omaha_high", "Ac Ad Ah Ks 7c 2d", board)
    assert v.description == "Straight, ace high"
    assert ev("omaha_high", "Kh Qd 2c 3c 4h 5s", board) == v


def test_r22_omaha_hi_lo_example() -> None:
    hole, board = "Ad Kd 3s 2s", "Jd 4d 3c Qd 5h"
    hi = ev("omaha_high", hole, board)
    lo = ev("omaha_eight_low", hole, board)
    assert hi.description == "Flush, ace high" and set(hi.cards) == set(parse_cards("Ad Kd Qd Jd 4d"))
    assert lo.description == "5-4-3-2-A low" and set(lo.cards) == set(parse_cards("Ad 2s 5h 4d 3c"))
    assert lo == ev("omaha_eight_low", "Ac 2c 7s 8s", board)  # R23's tie on the low (values only)
    assert ev("omaha_high", "Ac 2c 7s 8s", board) < hi


def test_r23_hand_values_behind_the_quartered_pot() -> None:
    # The pot split ($3.00 / $1.00) is the engine's; here: first player's high is better, lows tie.
    board = "Jd 4d 3c Qd 5h"
    first = (ev("omaha_high", "Ad Kd 3s 2s", board), ev("omaha_eight_low", "Ad Kd 3s 2s", board))
    second = (ev("omaha_high", "Ah 2h 9c Tc", board), ev("omaha_eight_low", "Ah 2h 9c Tc", board))
    assert first[0] > second[0] and first[1] == second[1] and first[1]


def test_r24_high_and_low_use_different_hole_cards() -> None:
    hole, board = "Ad Kd 3s 2s", "Jd 4d 3c Qd 5h"
    hi = ev("omaha_high", hole, board)
    lo = ev("omaha_eight_low", hole, board)
    hole_cards = set(parse_cards(hole))
    assert set(hi.cards) & hole_cards == set(parse_cards("Ad Kd"))
    assert set(lo.cards) & hole_cards == set(parse_cards("Ad 2s"))


def test_r25_eight_low_compares_from_the_top() -> None:
    assert ev("eight_low", "Ac 3d 4h 5s 6c") > ev("eight_low", "Ac 2d 4h 5s 7c")


def test_r26_eight_low_qualification() -> None:
    worst = ev("eight_low", "8c 7d 6h 5s 4c")
    assert worst and worst.description == "8-7-6-5-4 low"
    for no in ("9c 5d 4h 3s 2c", "7c 7d 4h 3s 2c"):
        v = ev("eight_low", no)
        assert not v and v.category == "no_low" and v.description == "No low" and v.cards == ()
        assert v < worst and v == ev("eight_low", "Kc Kd Kh Ks Qc")


def test_r27_board_with_two_low_ranks_gives_no_low() -> None:
    board = "Ks Qd 8c 8h 2s"
    for hole in ("Ac 3d 4h 5s", "Ah 2h 3c 4c", "6c 7d 3h 4s"):
        assert not ev("omaha_eight_low", hole, board)


def test_r28_broadway_hand_never_has_a_low() -> None:
    for board in ("2c 3d 4h 5s 6c", "Ad 2h 3s 7c 8d", "4c 5d 6h 7s 8c"):
        assert not ev("omaha_eight_low", "As Kd Qc Jh", board)


def test_r31_wheel_is_the_best_a5_low_in_any_suits() -> None:
    suited = ev("ace5_low", "5h 4h 3h 2h Ah")
    mixed = ev("ace5_low", "5c 4d 3h 2s Ac")
    assert suited == mixed and suited.description == "5-4-3-2-A low"
    deck = DeckSpec.STANDARD.cards()
    sample = [ev("ace5_low", list(c)) for c in combinations(deck[::3], 5)]
    assert all(v <= mixed for v in sample)


def test_r32_a5_low_ordering() -> None:
    assert ev("ace5_low", "6c 4d 3h 2s Ac") > ev("ace5_low", "6c 5d 3h 2s Ac")
    assert ev("ace5_low", "Kc Qd Jh Ts 9c") > ev("ace5_low", "Ac Ad 2h 3s 4c")
    worst = ev("ace5_low", "Kc Kd Kh Ks Qc")
    assert worst.category == "four_of_a_kind"
    assert ev("ace5_low", "Kc Kd Kh Ks Jc") > worst


def test_r33_razz_best_five_of_seven() -> None:
    """R33: Razz best 5 of 7: A, A, 2, 3, 4, 5, K → 5-4-3-2-A."""
    v = ev("ace5_low", "Ac Ad 2h", "3s 4c 5d Kh")
    assert v.description == "5-4-3-2-A low"


def test_r34_deuce7_wheel_is_not_a_straight() -> None:
    """R34: 2-7: A-2-3-4-5 of mixed suits is ace-high with no pair (not a straight); T-J-Q-K-A of mixed suits
    is a straight."""
    wheel = ev("deuce7_low", "Ac 2d 3h 4s 5c")
    assert wheel.category == "high_card" and wheel.description == "A-5-4-3-2 low"
    assert ev("deuce7_low", "Tc Jd Qh Ks Ac").category == "straight"


def test_r35_deuce7_nuts() -> None:
    """R35: 2-7: 7-5-4-3-2 of mixed suits beats every other hand, e.g. 7-6-4-3-2."""
    nuts = ev("deuce7_low", "7c 5d 4h 3s 2c")
    assert nuts > ev("deuce7_low", "7c 6d 4h 3s 2c")
    order = ["7c 6d 4h 3s 2c", "7c 6d 5h 3s 2c", "7c 6d 5h 4s 2c", "8c 5d 4h 3s 2c"]
    values = [ev("deuce7_low", h) for h in order]
    assert all(nuts > a > b for a, b in pairwise(values))


def test_r36_deuce7_highest_card_first() -> None:
    """R36: 2-7: 9-7-6-4-3 beats T-7-6-4-2."""
    assert ev("deuce7_low", "9c 7d 6h 4s 3c") > ev("deuce7_low", "Tc 7d 6h 4s 2c")


def test_r37_deuce7_next_card_decides() -> None:
    """R37: 2-7: 9-7-6-4-3 beats 9-8-6-4-3."""
    assert ev("deuce7_low", "9c 7d 6h 4s 3c") > ev("deuce7_low", "9c 8d 6h 4s 3c")


def test_r38_deuce7_ace_is_high() -> None:
    """R38: 2-7: 8-6-5-4-2 beats A-5-4-3-2."""
    assert ev("deuce7_low", "8c 6d 5h 4s 2c") > ev("deuce7_low", "Ac 5d 4h 3s 2c")


def test_r39_deuce7_flush_counts_against() -> None:
    """R39: 2-7: K-Q-J-T-8 of mixed suits beats 7-5-4-3-2 all of one suit (a flush)."""
    assert ev("deuce7_low", "Kc Qd Jh Ts 8c") > ev("deuce7_low", "7s 5s 4s 3s 2s")


def test_r40_deuce7_straight_counts_against_and_royal_is_worst() -> None:
    """R40: 2-7: 2-2-K-Q-J beats 2-3-4-5-6 of mixed suits (a straight); a royal flush is the worst hand."""
    assert ev("deuce7_low", "2c 2d Kh Qs Jc") > ev("deuce7_low", "2c 3d 4h 5s 6c")
    royal = ev("deuce7_low", "Ts Js Qs Ks As")
    assert royal.description == "Royal flush"
    assert ev("deuce7_low", "9s Ts Js Qs Ks") > royal
    assert ev("deuce7_low", "Ac Ad Ah As Kc") > royal


def test_r41_soko_four_straight_beats_a_pair() -> None:
    """R41: SOKO: 4-5-6-7-Q (no four of one suit) is a four straight and beats A-A-K-Q-J."""
    v = ev("soko", "4c 5d 6h 7s Qc")
    assert v.category == "four_straight" and v.description == "Four straight, seven high"
    assert v > ev("soko", "Ac Ad Kh Qs 9c")  # a pair of aces
    # R41's literal example A-A-K-Q-J holds J-Q-K-A, an ace-high four straight by §2.5 and R44, so
    # it is not a pair and beats the 7-high four straight; §2.5 (and R44) is followed here.
    aakqj = ev("soko", "Ac Ad Kh Qs Jc")
    assert aakqj.description == "Four straight, ace high" and aakqj > v


def test_r42_soko_four_flush_between_two_pair_and_four_straight() -> None:
    """R42: SOKO: a four flush beats a four straight; two pair beats a four flush."""
    four_flush = ev("soko", "2h 5h 9h Jh Kc")
    assert four_flush.category == "four_flush"
    assert four_flush > ev("soko", "9c Td Jh Qs 3c")
    assert ev("soko", "2c 2d 3h 3s 4c") > four_flush


def test_r43_soko_full_order() -> None:
    """R43: SOKO: the full order is SF > quads > full house > flush > straight > trips > two pair > four flush
    > four straight > pair > high card."""
    hands = [
        ("9h Th Jh Qh Kh", "straight_flush"),
        ("2c 2d 2h 2s 3c", "four_of_a_kind"),
        ("3c 3d 3h 2s 2c", "full_house"),
        ("2h 4h 6h 8h Th", "flush"),
        ("5c 6d 7h 8s 9c", "straight"),
        ("4c 4d 4h 9s Ac", "three_of_a_kind"),
        ("Ac Ad Kh Ks Qc", "two_pair"),
        ("2h 5h 9h Jh Kc", "four_flush"),
        ("9c Td Jh Qs 3c", "four_straight"),
        ("Ac Ad Kh 9s 7c", "one_pair"),
        ("Ac Kd 9h 7s 5c", "high_card"),
    ]
    values = [ev("soko", h) for h, _ in hands]
    assert [v.category for v in values] == [c for _, c in hands]
    assert all(a > b for a, b in pairwise(values))
    # The highest category a hand qualifies for: a four flush with a pair is a four flush.
    assert ev("soko", "Kh 8h 6h 4h 8c").category == "four_flush"


def test_r44_soko_four_straight_tiebreaks() -> None:
    """R44: SOKO: 5-6-7-8-2 (8-high four straight) beats 4-5-6-7-A (7-high); J-Q-K-A-2 (ace-high four
    straight) beats A-2-3-4-K (4-high)."""
    assert ev("soko", "5c 6d 7h 8s 2c") > ev("soko", "4c 5d 6h 7s Ac")
    a, b = ev("soko", "Jc Qd Kh As 2c"), ev("soko", "Ac 2d 3h 4s Kc")
    assert (
        a > b and a.description == "Four straight, ace high" and b.description == "Four straight, four high"
    )


def test_r45_soko_four_flush_tiebreaks() -> None:
    """R45: SOKO: K♥ 8♥ 6♥ 4♥ 8♣ (four flush, king high) beats Q♦ J♦ T♦ 9♦ T♠ (four flush, queen high)."""
    a = ev("soko", "Kh 8h 6h 4h 8c")
    b = ev("soko", "Qd Jd Td 9d Ts")
    assert a > b and a.description == "Four flush, king high"


def test_r46_soko_worst_hand() -> None:
    """R46: SOKO: 7-6-4-3-2 with at most three of a suit is the worst hand; 7-5-4-3-2 is a four straight."""
    worst = ev("soko", "7c 6d 4h 3s 2c")
    assert worst.category == "high_card"
    assert ev("soko", "7c 5d 4h 3s 2c").category == "four_straight"
    assert ev("soko", "8c 6d 4h 3s 2c") > worst and ev("soko", "7c 6d 5h 3s 2s") > worst
    # test_exhaustive.py checks that no five-card hand ranks below it.


@pytest.mark.parametrize("rule", ["short_deck_7a", "short_deck_6a"])
def test_r47_flush_beats_full_house(rule: str) -> None:
    """R47: 7-A: a flush beats a full house."""
    flush = ev(rule, "7h 9h Jh Kh Ah")
    boat = ev(rule, "Ac Ad Ah Ks Kc")
    assert flush.category == "flush" and boat.category == "full_house" and flush > boat
    assert ev(rule, "7c 7d 7h 7s Ac") > flush


def test_r48_ace_low_straight_without_sixes() -> None:
    """R48: 7-A without sixes: A-7-8-9-T is a straight and the lowest one; it loses to 7-8-9-T-J."""
    low = ev("short_deck_7a", "Ac 7d 8h 9s Tc")
    assert low.category == "straight" and low.description == "Straight, ten high"
    assert low < ev("short_deck_7a", "7c 8d 9h Ts Jc")
    assert low > ev("short_deck_7a", "Ac Ad Ah Ks Qc")


def test_r49_ace_low_straight_with_sixes() -> None:
    """R49: 7-A with sixes: A-6-7-8-9 is a straight; A-7-8-9-T is not a straight."""
    low = ev("short_deck_6a", "Ac 6d 7h 8s 9c")
    assert low.category == "straight" and low.description == "Straight, nine high"
    assert low < ev("short_deck_6a", "6c 7d 8h 9s Tc")
    assert ev("short_deck_6a", "Ac 7d 8h 9s Tc").category == "high_card"


def test_r50_ace_low_straight_flush() -> None:
    """R50: 7-A without sixes: A♠7♠8♠9♠T♠ is a straight flush and loses to 7♥8♥9♥T♥J♥."""
    low = ev("short_deck_7a", "As 7s 8s 9s Ts")
    assert low.category == "straight_flush"
    assert low < ev("short_deck_7a", "7h 8h 9h Th Jh")
    assert low > ev("short_deck_7a", "Ac Ad Ah As Kc")
    assert ev("short_deck_6a", "As 6s 7s 8s 9s").category == "straight_flush"


@pytest.mark.parametrize("rule", ["short_deck_7a", "short_deck_6a"])
def test_r51_straight_beats_trips_beats_two_pair(rule: str) -> None:
    """R51: 7-A: a straight beats three of a kind, which beats two pair."""
    straight = ev(rule, "9c Td Jh Qs Kc")
    trips = ev(rule, "Ac Ad Ah Ks Qc")
    two_pair = ev(rule, "Ac Ad Kh Ks Qc")
    assert straight > trips > two_pair


def test_r52_short_deck_rules_use_their_decks() -> None:
    # The deck choice by player count belongs to the engine; the rules refuse cards outside their deck.
    with pytest.raises(CardNotInDeck) as err:
        ev("short_deck_7a", "6c 7d 8h 9s Tc")
    assert err.value.code == "card_not_in_deck"
    assert ev("short_deck_6a", "6c 7d 8h 9s Tc").category == "straight"
    with pytest.raises(CardNotInDeck):
        ev("short_deck_6a", "5c 7d 8h 9s Tc")

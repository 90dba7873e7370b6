"""Exhaustive checks over every five-card hand (all rules) and every seven-card hand (high).

R15 (no five-card hand ranks below 7-5-4-3-2) is covered by the five-card enumeration.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt
import pytest

from pokerroom.cards import DeckSpec
from pokerroom.eval import evaluate, evaluate_batch, tables
from pokerroom.eval.batch import kernels
from pokerroom.eval.value import CATEGORIES

HIGH_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_302_540,
}


@cache
def all_hands(deck: DeckSpec, k: int = 5) -> npt.NDArray[np.uint8]:
    indices = np.array([c.index for c in deck.cards()], dtype=np.uint8)
    out: npt.NDArray[np.uint8] = kernels().all_combinations(indices, k)
    return out


def category_counts(rule: str, ranks: npt.NDArray[np.int32]) -> dict[str, int]:
    counts = np.bincount(ranks >> 20, minlength=16)
    return {name: int(counts[num]) for num, name in CATEGORIES[rule].items() if counts[num]}


def test_all_five_card_high_hands() -> None:
    hands = all_hands(DeckSpec.STANDARD)
    assert len(hands) == 2_598_960
    ranks = evaluate_batch("high", hands)
    assert category_counts("high", ranks) == HIGH_COUNTS
    assert len(np.unique(ranks)) == 7_462


def test_r15_nothing_ranks_below_seven_five_four_three_two() -> None:
    ranks = evaluate_batch("high", all_hands(DeckSpec.STANDARD))
    worst = evaluate("high", "7c 5d 4h 3s 2c").rank
    assert ranks.min() == worst
    assert int((ranks == worst).sum()) == 4**5 - 4  # every suit pattern except the four flushes


def test_all_five_card_deuce7_hands() -> None:
    ranks = evaluate_batch("deuce7_low", all_hands(DeckSpec.STANDARD))
    assert len(np.unique(ranks)) == 7_462
    counts = category_counts("deuce7_low", ranks)
    # A-2-3-4-5 is no straight here: ten straights and ten straight flushes become high cards/flushes.
    assert counts["straight"] == 10_200 - 1_020 and counts["straight_flush"] == 36
    assert counts["flush"] == 5_108 + 4 and counts["high_card"] == 1_302_540 + 1_020
    assert ranks.max() == evaluate("deuce7_low", "7c 5d 4h 3s 2c").rank  # R35
    assert ranks.min() == evaluate("deuce7_low", "Ts Js Qs Ks As").rank  # R40


def test_all_five_card_ace5_hands() -> None:
    ranks = evaluate_batch("ace5_low", all_hands(DeckSpec.STANDARD))
    assert len(np.unique(ranks)) == 6_175  # one class per rank multiset: suits never matter
    assert ranks.max() == evaluate("ace5_low", "5c 4d 3h 2s Ac").rank  # R31
    assert ranks.min() == evaluate("ace5_low", "Kc Kd Kh Ks Qc").rank  # R32
    assert category_counts("ace5_low", ranks)["no_pair"] == 1_287 * 4**5


def test_all_five_card_eight_low_hands() -> None:
    ranks = evaluate_batch("eight_low", all_hands(DeckSpec.STANDARD))
    qualifying = ranks[ranks > 0]
    assert len(qualifying) == 56 * 4**5 and len(np.unique(qualifying)) == 56
    assert qualifying.min() == evaluate("eight_low", "8c 7d 6h 5s 4c").rank  # R26


def test_all_five_card_soko_hands() -> None:
    ranks = evaluate_batch("soko", all_hands(DeckSpec.STANDARD))
    counts = category_counts("soko", ranks)
    for name in ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight"):
        assert counts[name] == HIGH_COUNTS[name]
    # Exactly four of one suit, minus the straights that have exactly four of one suit.
    assert counts["four_flush"] == 4 * 715 * 39 - 10 * 4 * 5 * 3
    assert ranks.min() == evaluate("soko", "7c 6d 4h 3s 2c").rank  # R46


@pytest.mark.parametrize(
    ("rule", "deck", "expected"),
    [
        (
            "short_deck_7a",
            DeckSpec.SHORT_7A,
            {
                "straight_flush": 20,
                "four_of_a_kind": 224,
                "flush": 204,
                "full_house": 1_344,
                "straight": 5_100,
                "three_of_a_kind": 10_752,
                "two_pair": 24_192,
                "one_pair": 107_520,
                "high_card": 52_020,
            },
        ),
        (
            "short_deck_6a",
            DeckSpec.SHORT_6A,
            {
                "straight_flush": 24,
                "four_of_a_kind": 288,
                "flush": 480,
                "full_house": 1_728,
                "straight": 6_120,
                "three_of_a_kind": 16_128,
                "two_pair": 36_288,
                "one_pair": 193_536,
                "high_card": 122_400,
            },
        ),
    ],
)
def test_all_five_card_short_deck_hands(rule: str, deck: DeckSpec, expected: dict[str, int]) -> None:
    # Counts derived by hand: 32 cards have 5 straights (A-7-8-9-T .. T-J-Q-K-A), 36 cards have 6.
    ranks = evaluate_batch(rule, all_hands(deck))
    assert category_counts(rule, ranks) == expected
    worst = "Qc Td 9h 8s 7c" if deck is DeckSpec.SHORT_7A else "Jc 9d 8h 7s 6c"
    assert ranks.min() == evaluate(rule, worst).rank


def test_all_badugi_hands() -> None:
    ranks = evaluate_batch("badugi", all_hands(DeckSpec.STANDARD, 4))
    counts = category_counts("badugi", ranks)
    assert counts["badugi"] == 715 * 24  # four distinct ranks in four distinct suits
    assert ranks.max() == evaluate("badugi", "Ac 2d 3h 4s").rank


def test_all_seven_card_high_hands() -> None:
    keys, bits = (t.astype(np.int64) for t in (tables.card_keys(), tables.card_bits()))
    lo, hi, _ = tables.multiset_index(7)
    counts = kernels().count_seven(
        keys, bits, lo, hi, tables.multiset_values("high", 7), tables.flush_values("high")
    )
    got = {name: int(counts[num]) for num, name in CATEGORIES["high"].items()}
    assert got == {
        "straight_flush": 41_584,
        "four_of_a_kind": 224_848,
        "full_house": 3_473_184,
        "flush": 4_047_644,
        "straight": 6_180_020,
        "three_of_a_kind": 6_461_620,
        "two_pair": 31_433_400,
        "one_pair": 58_627_800,
        "high_card": 23_294_460,
    }
    assert int(counts.sum()) == 133_784_560

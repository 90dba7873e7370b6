"""HandValue semantics and bad input for evaluate()."""

from __future__ import annotations

import pickle
from collections.abc import Callable

import pytest

from pokerroom.cards import parse_cards
from pokerroom.eval import (
    RULES,
    CardNotInDeck,
    DuplicateCard,
    EvalError,
    HandValue,
    UnknownRule,
    WrongCardCount,
    evaluate,
)


def test_hand_value_fields() -> None:
    v = evaluate("high", "Kc Kd Kh 7s 7c 2d 3h")
    assert v.rule == "high" and v.category == "full_house"
    assert v.description == "Full house, kings full of sevens" and str(v) == v.description
    assert v.cards == parse_cards("Kh Kd Kc 7s 7c")
    assert isinstance(v.rank, int)


def test_descriptions() -> None:
    assert evaluate("high", "Ac Ad 7h 7s 2c").description == "Two pair, aces and sevens"
    assert evaluate("high", "Ac Kc 9c 7c 2c").description == "Flush, ace high"
    assert evaluate("high", "Tc Jd Qh Ks Ac").description == "Straight, ace high"
    assert evaluate("high", "Ac Ad 7h 6s 2c").description == "Pair of aces"
    assert evaluate("high", "7c 7d 7h 7s 2c").description == "Four of a kind, sevens"
    assert evaluate("deuce7_low", "7c 5d 4h 3s 2c").description == "7-5-4-3-2 low"
    assert evaluate("eight_low", "8c 6d 5h 4s 2c").description == "8-6-5-4-2 low"
    assert evaluate("badugi", "Ac 2d 3h 4s").description == "4-3-2-A badugi"
    assert evaluate("badugi", "Ac 2c 3h 4s").description == "4-3-A three-card hand"


def test_hand_value_is_frozen_and_slotted() -> None:
    v = evaluate("high", "Ac Ad 7h 6s 2c")
    with pytest.raises(AttributeError):
        v.rank = 3
    assert not hasattr(v, "__dict__")
    assert pickle.loads(pickle.dumps(v)) == v


def test_comparing_different_rules_raises() -> None:
    a = evaluate("high", "Ac Ad 7h 6s 2c")
    b = evaluate("ace5_low", "Ac Ad 7h 6s 2c")
    ops: list[Callable[[], object]] = [
        lambda: a < b,
        lambda: a <= b,
        lambda: a > b,
        lambda: a >= b,
        lambda: a == b,
    ]
    for op in ops:
        with pytest.raises(TypeError):
            op()
    assert (a == "x") is False


def test_repr_shows_no_cards() -> None:
    v = evaluate("high", "Ac Ad 7h 6s 2c")
    assert "Ac" not in repr(v) and "Ad" not in repr(v)


def test_bool_is_false_only_for_no_low() -> None:
    assert not evaluate("eight_low", "9c 5d 4h 3s 2c")
    assert evaluate("eight_low", "8c 5d 4h 3s 2c")
    assert evaluate("ace5_low", "Kc Kd Kh Ks Qc")
    assert evaluate("deuce7_low", "Ts Js Qs Ks As")
    assert not evaluate("omaha_eight_low", "Kc Kd Qh Qs", "2c 3d 4h 9s 9c")


def test_no_low_values_tie_and_hash_alike() -> None:
    a = evaluate("eight_low", "9c 5d 4h 3s 2c")
    b = evaluate("eight_low", "Kc Kd Kh Ks Qc")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


def test_cards_used_by_each_rule() -> None:
    for rule in RULES:
        if rule.startswith("omaha"):
            v = evaluate(rule, "Ac 2d 3h 4s", "5c 6d 7h")
        elif rule == "badugi":
            v = evaluate(rule, "Ac 2d 3h 4s")
        elif rule.startswith("short"):
            v = evaluate(rule, "Ac 7d 8h 9s Tc Jd Qh")
        else:
            v = evaluate(rule, "Ac 2d 3h 4s 5c 6d 7h")
        assert len(v.cards) == (4 if rule == "badugi" else 5)
        assert isinstance(v, HandValue) and v.rule == rule


def test_unknown_rule() -> None:
    with pytest.raises(UnknownRule) as err:
        evaluate("pineapple", "Ac Ad 7h 6s 2c")
    assert err.value.code == "unknown_rule" and isinstance(err.value, EvalError)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    ("rule", "hole", "board"),
    [
        ("high", "Ac Ad 7h 6s", ""),
        ("high", "Ac Ad 7h 6s 2c 3c 4c 5c 6c 7c 8c", ""),
        ("omaha_high", "Ac Ad 7h", "6s 2c 3c"),
        ("omaha_high", "Ac Ad 7h 6s 5s 4s 3s", "Kc Kd Kh"),
        ("omaha_high", "Ac Ad 7h 6s", "2c 3c"),
        ("omaha_eight_low", "Ac Ad 7h 6s", "2c 3c 4c 5c 6c 9c"),
        ("badugi", "Ac 2d 3h", ""),
        ("badugi", "Ac 2d 3h 4s 5c", ""),
        ("deuce7_low", "Ac 2d 3h", ""),
    ],
)
def test_wrong_card_count(rule: str, hole: str, board: str) -> None:
    with pytest.raises(WrongCardCount) as err:
        evaluate(rule, hole, board)
    assert err.value.code == "wrong_card_count"
    for card in parse_cards(hole + " " + board):
        assert str(card) not in str(err.value)


def test_wrong_count_message_says_what_the_rule_needs() -> None:
    with pytest.raises(
        WrongCardCount, match=r"3 hole \+ 4 board cards given, rule omaha_high needs 4-6 hole"
    ):
        evaluate("omaha_high", "Ac Ad 7h", "6s 2c 3c 4c")


def test_duplicate_card() -> None:
    with pytest.raises(DuplicateCard) as err:
        evaluate("high", "Ac Ad", "Ac 7h 6s")
    assert err.value.code == "duplicate_card" and "Ac" not in str(err.value)
    with pytest.raises(DuplicateCard):
        evaluate("omaha_high", "Ac Ad 7h 6s", "Ac 2c 3c")


def test_card_not_in_short_deck() -> None:
    with pytest.raises(CardNotInDeck) as err:
        evaluate("short_deck_7a", "Ac Kd Qh Js 6c")
    assert err.value.code == "card_not_in_deck" and "6c" not in str(err.value)
    with pytest.raises(CardNotInDeck):
        evaluate("short_deck_6a", "Ac Kd Qh Js 2c")


def test_notation_and_card_objects_are_both_accepted() -> None:
    cards = parse_cards("Ac Ad 7h 6s 2c")
    assert evaluate("high", cards) == evaluate("high", "Ac Ad 7h 6s 2c")
    assert evaluate("high", cards[:2], cards[2:]) == evaluate("high", [str(c) for c in cards])


def test_non_cards_are_a_type_error() -> None:
    with pytest.raises(TypeError):
        evaluate("high", [1, 2, 3, 4, 5])  # type: ignore[list-item]


def test_bad_notation_is_a_typed_error() -> None:
    from pokerroom.cards import NotationError

    with pytest.raises(NotationError) as err:
        evaluate("high", "Ac Ad 7h 6s 1x")
    assert err.value.code == "bad_notation"


def test_cards_are_ordered_most_significant_first() -> None:
    assert evaluate("high", "Ac 2d 3h 4s 5c").cards == parse_cards("5c 4s 3h 2d Ac")
    assert evaluate("high", "7c 7d Kh Ks 2c").cards == parse_cards("Ks Kh 7d 7c 2c")
    assert evaluate("soko", "4c 5d 6h 7s Qc").cards == parse_cards("7s 6h 5d 4c Qc")
    assert evaluate("soko", "Ac 2d 3h 4s Kc").cards == parse_cards("4s 3h 2d Ac Kc")
    assert evaluate("soko", "Kh 8h 6h 4h 8c").cards == parse_cards("Kh 8h 6h 4h 8c")
    assert evaluate("ace5_low", "Kc 5d 4h 3s Ac").cards == parse_cards("Kc 5d 4h 3s Ac")

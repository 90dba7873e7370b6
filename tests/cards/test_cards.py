"""Cards and notation (RULES.md §1.1)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.cards import (
    Card,
    NotationError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    parse_cards_masked,
)


def test_index_encoding_is_rank_times_four_plus_suit() -> None:
    assert Card(Rank.TWO, Suit.CLUBS).index == 0
    assert Card(Rank.TWO, Suit.SPADES).index == 3
    assert Card(Rank.ACE, Suit.CLUBS).index == 48
    assert Card(Rank.ACE, Suit.SPADES).index == 51
    assert parse_card("Td").index == Rank.TEN * 4 + Suit.DIAMONDS


def test_suit_order_is_clubs_diamonds_hearts_spades() -> None:
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES


@pytest.mark.parametrize("text", ["As", "AS", "as", "aS", " As "])
def test_parse_is_case_insensitive(text: str) -> None:
    assert parse_card(text) == Card(Rank.ACE, Suit.SPADES)


def test_parse_accepts_ten_written_10() -> None:
    assert parse_card("10h") == parse_card("Th")


def test_parse_many_with_and_without_separators() -> None:
    expected = (parse_card("As"), parse_card("Td"), parse_card("9c"))
    assert parse_cards("As Td 9c") == expected
    assert parse_cards("AsTd9c") == expected
    assert parse_cards("as, td, 9C") == expected
    assert parse_cards(["As", "Td", Card.from_index(parse_card("9c").index)]) == expected
    assert format_cards(expected) == "As Td 9c"


def test_unknown_cards() -> None:
    assert parse_cards_masked("As ?? ??") == (parse_card("As"), None, None)
    assert format_cards([None, parse_card("Kd")]) == "?? Kd"
    with pytest.raises(NotationError):
        parse_cards("As ??")


@pytest.mark.parametrize("bad", ["", "A", "Ax", "1s", "Zs", "AsK", "As Kd Q", "A?", "?s", "11c", "AsAs"])
def test_bad_notation_raises_a_typed_error(bad: str) -> None:
    with pytest.raises(NotationError) as err:
        if " " in bad or len(bad) > 3:
            parse_cards(bad)
        else:
            parse_card(bad)
    assert err.value.code == "bad_notation"


def test_duplicates_may_be_allowed_explicitly() -> None:
    assert len(parse_cards("AsAs", distinct=False)) == 2


def test_cards_are_interned_immutable_and_picklable() -> None:
    card = parse_card("Qh")
    assert card is Card(Rank.QUEEN, Suit.HEARTS) is Card.from_index(card.index)
    with pytest.raises(AttributeError):
        card.rank = Rank.TWO
    assert pickle.loads(pickle.dumps(card)) is card
    assert repr(card) == "Card(Qh)"
    assert card.name == "Queen of hearts"


@given(st.integers(0, 51))
def test_format_parse_round_trip(index: int) -> None:
    card = Card.from_index(index)
    assert parse_card(str(card)) is card
    assert parse_card(str(card).upper()) is card


def test_out_of_range_index_is_an_error() -> None:
    with pytest.raises(NotationError):
        Card.from_index(52)
    with pytest.raises(NotationError):
        Card(13, 0)

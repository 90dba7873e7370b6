"""Test-only comparison with PokerKit's hand types: the same order and the same ties on random hands,
for every rule both implement (PokerKit has no SOKO and no 32-card 7-A ranking).

Convention mapping, made explicit: in PokerKit 0.7 a hand that compares greater is the stronger one
for low games too (its lookups rank lows internally "lower is better" and the Hand class flips
that), and a non-qualifying 8-or-better low is ``None`` from ``from_game_or_none``. Ours: greater
rank is better, no low is rank 0. ``test_pokerkit_conventions`` pins PokerKit's side of this, so a
change there fails loudly instead of silently inverting the comparison.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pokerkit = pytest.importorskip("pokerkit")

from pokerroom.cards import Card, DeckSpec, format_cards  # noqa: E402
from pokerroom.eval import evaluate  # noqa: E402

PK: dict[str, Any] = {
    "high": pokerkit.StandardHighHand,
    "omaha_high": pokerkit.OmahaHoldemHand,
    "ace5_low": pokerkit.RegularLowHand,
    "eight_low": pokerkit.EightOrBetterLowHand,
    "omaha_eight_low": pokerkit.OmahaEightOrBetterLowHand,
    "deuce7_low": pokerkit.StandardLowHand,
    "short_deck_6a": pokerkit.ShortDeckHoldemHand,
    "badugi": pokerkit.BadugiHand,
}


def pk_strength(rule: str, hole: tuple[Card, ...], board: tuple[Card, ...]) -> Any:
    """PokerKit's hand mapped to "greater is stronger", with None (no low) below every hand."""
    hand = PK[rule].from_game_or_none(format_cards(hole, ""), format_cards(board, ""))
    return _Lowest() if hand is None else hand


class _Lowest:
    """Stands for PokerKit's None: below every hand, equal to itself."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Lowest)

    def __lt__(self, other: object) -> bool:
        return not isinstance(other, _Lowest)

    def __gt__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


def _cmp(a: Any, b: Any) -> int:
    if isinstance(a, _Lowest) or isinstance(b, _Lowest):
        return (not isinstance(a, _Lowest)) - (not isinstance(b, _Lowest))
    return int((a > b) - (a < b))


def test_pokerkit_conventions() -> None:
    """PokerKit's orientation, the premise of the mapping above."""
    assert pokerkit.StandardLowHand("7c5d4h3s2c") > pokerkit.StandardLowHand("8c5d4h3s2c")
    assert pokerkit.RegularLowHand("5c4d3h2sAc") > pokerkit.RegularLowHand("6c4d3h2sAc")
    assert pokerkit.EightOrBetterLowHand("5c4d3h2sAc") > pokerkit.EightOrBetterLowHand("8c7d6h5s4c")
    assert pokerkit.EightOrBetterLowHand.from_game_or_none("9c5d4h3s2c") is None
    assert pokerkit.BadugiHand("Ac2d3h4s") > pokerkit.BadugiHand("Ac2d3h5s")
    assert pokerkit.StandardHighHand("AsKsQsJsTs") > pokerkit.StandardHighHand("AsAdAhAcKs")


@st.composite
def deals(draw: st.DrawFn, rule: str) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Three hands of the rule from one deck (Omaha hands share a board)."""
    deck = DeckSpec.SHORT_6A.cards() if rule == "short_deck_6a" else DeckSpec.STANDARD.cards()
    cards = draw(st.permutations(deck))
    if rule.startswith("omaha"):
        nh, nb = draw(st.integers(4, 6)), draw(st.integers(3, 5))
        board = tuple(cards[:nb])
        return [(tuple(cards[nb + i * nh : nb + (i + 1) * nh]), board) for i in range(3)]
    n = 4 if rule == "badugi" else draw(st.integers(5, 7))
    return [(tuple(cards[i * n : (i + 1) * n]), ()) for i in range(3)]


def _test_for(rule: str) -> Callable[..., None]:
    @settings(max_examples=120, deadline=None)
    @given(deals(rule))
    def test(hands: list[tuple[tuple[Card, ...], tuple[Card, ...]]]) -> None:
        ours = [evaluate(rule, h, b) for h, b in hands]
        theirs = [pk_strength(rule, h, b) for h, b in hands]
        for i, j in combinations(range(3), 2):
            assert (ours[i].rank > ours[j].rank) - (ours[i].rank < ours[j].rank) == _cmp(theirs[i], theirs[j])

    return test


for _rule in PK:
    globals()[f"test_same_order_and_ties_as_pokerkit_{_rule}"] = _test_for(_rule)


@pytest.mark.parametrize("rule", list(PK))
def test_same_order_on_hands_with_many_ties(rule: str) -> None:
    """Boards that everyone plays, to exercise ties (hypothesis rarely makes them)."""
    if rule.startswith("omaha"):
        board = "2c 3d 4h 5s 9c"
        hands = ["Ac Kd 7h 8s", "Ad Qd 7c 8c", "Kh Qh Jc Tc"]
    elif rule == "badugi":
        board, hands = "", ["Ac 2c 3h 4s", "Ad 2d 3c 4h", "As 2h 3h 4c"]
    elif rule == "short_deck_6a":
        board, hands = "", ["Ac Kd Qh Js 9c", "Ad Kc Qs Jh 9d", "Ah Kh Qh Jh 9h"]
    else:
        board, hands = "", ["Ac Kd Qh Js 9c 2c 3d", "Ad Kc Qs Jh 9d 2h 3s", "7c 5d 4h 3s 2c 8d 9h"]
    from pokerroom.cards import parse_cards

    parsed = [(parse_cards(h), parse_cards(board)) for h in hands]
    ours = [evaluate(rule, h, b) for h, b in parsed]
    theirs = [pk_strength(rule, h, b) for h, b in parsed]
    for i, j in combinations(range(3), 2):
        assert (ours[i].rank > ours[j].rank) - (ours[i].rank < ours[j].rank) == _cmp(theirs[i], theirs[j])

"""Hand descriptions in PokerStars' words, for the text export (``stars.py``).

PokerStars writes ``a pair of Jacks``, ``two pair, Aces and Eights``, ``a straight, Three to Seven``,
``a flush, Queen high``, ``a full house, Kings full of Sevens``, ``four of a kind, Aces``, ``a straight
flush, Nine to King``, ``a Royal Flush``, ``high card Ace``; lows as ``Lo: 8,6,4,3,2`` (razz, 2-7: high
card first, ``Lo: a pair of Fives`` for a 2-7 hand with a pair); hi/lo as ``HI: ...; LO: 8,7,5,4,2``;
badugi as ``Badugi: 8,4,3,A`` or ``3-card: T,7,2``. SOKO's four flush and four straight, which PokerStars
never dealt, are ``a four flush, King high`` and ``a four straight, Five to Eight`` (docs/history.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.cards import Card, Rank
from pokerroom.eval import HandValue
from pokerroom.eval.value import unpack

__all__ = ["showdown_words", "summary_words"]

_ACE_LOW = "A23456789TJQK"
_HIGH_CHARS = "23456789TJQKA"
# The lowest rank of each rule's deck: a straight that would run below it starts at the ace.
_LOWEST = {"short_deck_6a": Rank.SIX, "short_deck_7a": Rank.SEVEN}
_LOW_RULES = frozenset({"ace5_low", "eight_low", "omaha_eight_low"})


def _one(r: int) -> str:
    return Rank(r).title


def _many(r: int) -> str:
    return Rank(r).plural.capitalize()


def _bottom(rule: str, top: int) -> str:
    lowest = _LOWEST.get(rule, Rank.TWO)
    return "Ace" if top - 4 < lowest else _one(top - 4)


def _high(rule: str, name: str, keys: Sequence[int]) -> str:
    """PokerStars words of a high-style category; ``keys`` are natural ranks (deuce 0 .. ace 12)."""
    k = list(keys)
    if name == "straight_flush":
        return (
            "a Royal Flush"
            if k[0] == Rank.ACE
            else f"a straight flush, {_bottom(rule, k[0])} to {_one(k[0])}"
        )
    if name == "four_of_a_kind":
        return f"four of a kind, {_many(k[0])}"
    if name == "full_house":
        return f"a full house, {_many(k[0])} full of {_many(k[1])}"
    if name == "flush":
        return f"a flush, {_one(k[0])} high"
    if name == "straight":
        return f"a straight, {_bottom(rule, k[0])} to {_one(k[0])}"
    if name == "three_of_a_kind":
        return f"three of a kind, {_many(k[0])}"
    if name == "two_pair":
        return f"two pair, {_many(k[0])} and {_many(k[1])}"
    if name == "one_pair":
        return f"a pair of {_many(k[0])}"
    if name == "four_flush":
        return f"a four flush, {_one(k[0])} high"
    if name == "four_straight":
        return f"a four straight, {_bottom(rule, k[0])} to {_one(k[0])}"
    return f"high card {_one(k[0])}"


def _low_cards(cards: Sequence[Card], ace_low: bool) -> str:
    """The cards of a low hand, highest first: ``8,6,4,3,A`` (ace low) or ``9,8,7,6,3`` (2-7)."""
    if ace_low:
        values = sorted(((c.rank + 1) % 13 for c in cards), reverse=True)
        return ",".join(_ACE_LOW[v] for v in values)
    return ",".join(_HIGH_CHARS[c.rank] for c in sorted(cards, key=lambda c: c.rank, reverse=True))


def _words(value: HandValue) -> str:
    rule, name = value.rule, value.category
    slots = unpack(value.rank)[1]
    if rule == "badugi":
        n = {"badugi": 4, "three_card": 3, "two_card": 2, "one_card": 1}[name]
        size = "Badugi" if n == 4 else f"{n}-card"
        return f"{size}: {','.join(_ACE_LOW[12 - x] for x in slots[:n])}"
    if rule in _LOW_RULES:
        return _low_cards(value.cards, ace_low=True)
    if rule == "deuce7_low":
        if name == "high_card":
            return _low_cards(value.cards, ace_low=False)
        n = {"one_pair": 4, "two_pair": 3, "three_of_a_kind": 3, "full_house": 2, "four_of_a_kind": 2}.get(
            name, 5
        )
        return _high(rule, name, [12 - x for x in slots[:n]])
    return _high(rule, name, slots)


def showdown_words(high: HandValue, low: HandValue | None, hi_lo: bool) -> str:
    """What follows ``shows [cards]`` in brackets: ``a pair of Jacks``, ``Lo: 8,6,4,3,2``, ``HI: ...; LO:
    ...``, ``Badugi: 8,4,3,A``."""
    if hi_lo:
        text = f"HI: {_words(high)}"
        return f"{text}; LO: {_words(low)}" if low is not None and low else text
    if high.rule in _LOW_RULES or high.rule == "deuce7_low":
        return f"Lo: {_words(high)}"
    return _words(high)


def summary_words(high: HandValue, low: HandValue | None, hi_lo: bool) -> str:
    """What follows ``and won (x) with`` in the summary: the same words, a badugi with an article
    (``a Badugi: 8,4,3,A``)."""
    text = showdown_words(high, low, hi_lo)
    return f"a {text}" if high.rule == "badugi" else text

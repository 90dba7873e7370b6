"""Hand values: the packed integer rank, its categories and descriptions, and :class:`HandValue`.

A rank packs the category and up to five tiebreak keys, four bits each::

    rank = category << 20 | k1 << 16 | k2 << 12 | k3 << 8 | k4 << 4 | k5

Greater is better for every rule. High rules store the natural keys (deuce 0 .. ace 12, a straight's
key is its top card). Low rules store ``12 - v`` where ``v`` is the card's low value (ace 0, deuce 1
.. king 12 for A-5, 8-or-better and badugi; deuce 0 .. ace 12 for 2-7), and 2-7 stores the high
category reversed (``10 - category``), so the lower hand gets the greater rank. A non-qualifying
8-or-better low has rank 0. Within a category the number of keys is fixed, so comparing ranks
compares the keys lexicographically, and suits never enter a rank (RULES.md R8).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from pokerroom.cards import Card, Rank

__all__ = [
    "CATEGORIES",
    "RULES",
    "HandValue",
    "category_of",
    "describe",
    "pack",
    "unpack",
]

#: The ranking rules, by name.
RULES: Final = (
    "high",
    "omaha_high",
    "ace5_low",
    "eight_low",
    "omaha_eight_low",
    "deuce7_low",
    "soko",
    "short_deck_7a",
    "short_deck_6a",
    "badugi",
)

_HIGH = {
    1: "high_card",
    2: "one_pair",
    3: "two_pair",
    4: "three_of_a_kind",
    5: "straight",
    6: "flush",
    7: "full_house",
    8: "four_of_a_kind",
    9: "straight_flush",
}
_SHORT = {
    1: "high_card",
    2: "one_pair",
    3: "two_pair",
    4: "three_of_a_kind",
    5: "straight",
    6: "full_house",
    7: "flush",
    8: "four_of_a_kind",
    9: "straight_flush",
}
_SOKO = {
    1: "high_card",
    2: "one_pair",
    3: "four_straight",
    4: "four_flush",
    5: "two_pair",
    6: "three_of_a_kind",
    7: "straight",
    8: "flush",
    9: "full_house",
    10: "four_of_a_kind",
    11: "straight_flush",
}
_DEUCE7 = {10 - c: name for c, name in _HIGH.items()}
_ACE5 = {
    6: "no_pair",
    5: "one_pair",
    4: "two_pair",
    3: "three_of_a_kind",
    2: "full_house",
    1: "four_of_a_kind",
}
_EIGHT = {1: "low", 0: "no_low"}
_BADUGI = {4: "badugi", 3: "three_card", 2: "two_card", 1: "one_card"}

#: Category number -> snake_case name, per rule (greater number = better category).
CATEGORIES: Final[dict[str, dict[int, str]]] = {
    "high": _HIGH,
    "omaha_high": _HIGH,
    "ace5_low": _ACE5,
    "eight_low": _EIGHT,
    "omaha_eight_low": _EIGHT,
    "deuce7_low": _DEUCE7,
    "soko": _SOKO,
    "short_deck_7a": _SHORT,
    "short_deck_6a": _SHORT,
    "badugi": _BADUGI,
}

# How many tiebreak keys each category has.
_NKEYS = {
    "high_card": 5,
    "one_pair": 4,
    "two_pair": 3,
    "three_of_a_kind": 3,
    "straight": 1,
    "flush": 5,
    "full_house": 2,
    "four_of_a_kind": 2,
    "straight_flush": 1,
    "four_straight": 2,
    "four_flush": 5,
    "no_pair": 5,
    "low": 5,
    "no_low": 0,
    "badugi": 4,
    "three_card": 3,
    "two_card": 2,
    "one_card": 1,
}

_LOW_RULES = frozenset({"ace5_low", "eight_low", "omaha_eight_low", "badugi"})
_ACE_LOW_CHARS = "A23456789TJQK"
_HIGH_CHARS = "23456789TJQKA"


def pack(category: int, keys: Sequence[int]) -> int:
    """Pack a category and up to five keys (each 0..15) into a rank."""
    r = category
    for i in range(5):
        r = (r << 4) | (keys[i] if i < len(keys) else 0)
    return r


def unpack(rank: int) -> tuple[int, tuple[int, ...]]:
    """The category number and the five stored key slots of a rank."""
    return rank >> 20, tuple((rank >> (16 - 4 * i)) & 15 for i in range(5))


def category_of(rule: str, rank: int) -> str:
    """The snake_case category name of a rank under a rule."""
    return CATEGORIES[rule][rank >> 20]


def _high_words(name: str, k: Sequence[int]) -> str:
    """English for a high-style category; ``k`` are rank indices (deuce 0 .. ace 12)."""
    r = [Rank(x) for x in k]
    if name == "straight_flush":
        return "Royal flush" if r[0] == Rank.ACE else f"Straight flush, {r[0].title.lower()} high"
    if name == "four_of_a_kind":
        return f"Four of a kind, {r[0].plural}"
    if name == "full_house":
        return f"Full house, {r[0].plural} full of {r[1].plural}"
    if name == "flush":
        return f"Flush, {r[0].title.lower()} high"
    if name == "straight":
        return f"Straight, {r[0].title.lower()} high"
    if name == "three_of_a_kind":
        return f"Three of a kind, {r[0].plural}"
    if name == "two_pair":
        return f"Two pair, {r[0].plural} and {r[1].plural}"
    if name == "one_pair":
        return f"Pair of {r[0].plural}"
    if name == "four_flush":
        return f"Four flush, {r[0].title.lower()} high"
    if name == "four_straight":
        return f"Four straight, {r[0].title.lower()} high"
    return f"{r[0].title} high"


@lru_cache(maxsize=1 << 16)  # a rule has a few thousand ranks; a showdown describes the hands shown
def describe(rule: str, rank: int) -> str:
    """The English description of a rank, e.g. ``"Full house, kings full of sevens"``."""
    cat, slots = unpack(rank)
    name = CATEGORIES[rule][cat]
    n = _NKEYS[name]
    if rule in _LOW_RULES:
        low = [12 - x for x in slots[:n]]  # ace 0 .. king 12
        chars = "-".join(_ACE_LOW_CHARS[v] for v in low)
        if name == "no_low":
            return "No low"
        if name in ("no_pair", "low"):
            return f"{chars} low"
        if name == "badugi":
            return f"{chars} badugi"
        if name in ("three_card", "two_card", "one_card"):
            return f"{chars} {name.replace('_card', '-card')} hand"
        return _high_words(name, [(v - 1) % 13 for v in low])
    if rule == "deuce7_low":
        natural = [12 - x for x in slots[:n]]
        if name == "high_card":
            return "-".join(_HIGH_CHARS[v] for v in natural) + " low"
        return _high_words(name, natural)
    return _high_words(name, slots[:n])


_EIGHT_RULES = frozenset({"eight_low", "omaha_eight_low"})


class HandValue:
    """The value of a hand under one ranking rule.

    ``rank`` is the integer :func:`pokerroom.eval.evaluate_batch` returns for the same cards (greater is
    better, also for low rules). Values of the same rule compare by rank; comparing values of
    different rules raises :class:`TypeError`. ``bool(value)`` is False exactly for an 8-or-better hand
    with no qualifying low. ``cards`` are the cards used (five; four or fewer for badugi; none for
    "no low"), most significant first.
    """

    __slots__ = ("cards", "rank", "rule")

    rule: str
    rank: int
    cards: tuple[Card, ...]

    def __init__(self, rule: str, rank: int, cards: Sequence[Card] = ()) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "cards", tuple(cards))

    # Words are made when asked for: the engine ranks every hand at a showdown and reads few of them.
    @property
    def category(self) -> str:
        return category_of(self.rule, self.rank)

    @property
    def description(self) -> str:
        return describe(self.rule, self.rank)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("HandValue is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("HandValue is immutable")

    def __reduce__(self) -> tuple[object, tuple[str, int, tuple[Card, ...]]]:
        return (HandValue, (self.rule, self.rank, self.cards))

    def _other_rank(self, other: object) -> int:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare HandValue with {type(other).__name__}")
        if other.rule != self.rule:
            raise TypeError(f"cannot compare a {self.rule} value with a {other.rule} value")
        return other.rank

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank == self._other_rank(other)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.rank != self._other_rank(other)

    def __lt__(self, other: HandValue) -> bool:
        return self.rank < self._other_rank(other)

    def __le__(self, other: HandValue) -> bool:
        return self.rank <= self._other_rank(other)

    def __gt__(self, other: HandValue) -> bool:
        return self.rank > self._other_rank(other)

    def __ge__(self, other: HandValue) -> bool:
        return self.rank >= self._other_rank(other)

    def __hash__(self) -> int:
        return hash((self.rule, self.rank))

    def __bool__(self) -> bool:
        return not (self.rank == 0 and self.rule in _EIGHT_RULES)

    def __repr__(self) -> str:
        # No cards: a value may be built from hidden cards.
        return f"HandValue({self.rule!r}, {self.description!r})"

    def __str__(self) -> str:
        return self.description

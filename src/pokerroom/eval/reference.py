"""The reference evaluator: plain Python, no tables, written to be obviously right.

Each rule classifies one combination of five cards (four for badugi) by counting ranks and suits, as
RULES.md §2 states it; the hand's value is the best allowed combination, found by enumerating all of
them. The fast paths (``tables``, ``kernels``) are tested against this module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from pokerroom.cards import Card
from pokerroom.eval.value import pack

__all__ = ["best", "rank5"]

ACE = 12


def _groups(values: Iterable[int]) -> list[tuple[int, int]]:
    """(count, value) pairs, most frequent first, then highest value first."""
    return sorted(((n, v) for v, n in Counter(values).items()), reverse=True)


def _straight_top(ranks: Sequence[int], ace_low_under: int | None) -> int | None:
    """Top rank of a five-card straight, or None.

    ``ace_low_under`` is the lowest rank of the deck under which the ace may play low (deuce for a
    52-card deck: A-2-3-4-5 is a straight with top 5); None means the ace plays only high.
    """
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if ace_low_under is not None and distinct == [*range(ace_low_under, ace_low_under + 4), ACE]:
        return ace_low_under + 3
    return None


def _classify_high(cards: Sequence[Card], ace_low_under: int | None) -> tuple[str, list[int]]:
    """Category name and tiebreak keys of five cards under the standard high ranking (§2.1)."""
    ranks = [int(c.rank) for c in cards]
    flush = len({c.suit for c in cards}) == 1
    top = _straight_top(ranks, ace_low_under)
    groups = _groups(ranks)
    shape = [n for n, _ in groups]
    keys = [v for _, v in groups]
    if top is not None and flush:
        return "straight_flush", [top]
    if shape == [4, 1]:
        return "four_of_a_kind", keys
    if shape == [3, 2]:
        return "full_house", keys
    if flush:
        return "flush", keys
    if top is not None:
        return "straight", [top]
    if shape == [3, 1, 1]:
        return "three_of_a_kind", keys
    if shape == [2, 2, 1]:
        return "two_pair", keys
    if shape == [2, 1, 1, 1]:
        return "one_pair", keys
    return "high_card", keys


_HIGH_NUM = {
    "high_card": 1,
    "one_pair": 2,
    "two_pair": 3,
    "three_of_a_kind": 4,
    "straight": 5,
    "flush": 6,
    "full_house": 7,
    "four_of_a_kind": 8,
    "straight_flush": 9,
}
# §2.6: a flush beats a full house.
_SHORT_NUM = {**_HIGH_NUM, "full_house": 6, "flush": 7}
_SOKO_NUM = {
    "high_card": 1,
    "one_pair": 2,
    "four_straight": 3,
    "four_flush": 4,
    "two_pair": 5,
    "three_of_a_kind": 6,
    "straight": 7,
    "flush": 8,
    "full_house": 9,
    "four_of_a_kind": 10,
    "straight_flush": 11,
}
_ACE5_NUM = {(1, 1, 1, 1, 1): 6, (2, 1, 1, 1): 5, (2, 2, 1): 4, (3, 1, 1): 3, (3, 2): 2, (4, 1): 1}


def _low_value(card: Card) -> int:
    """Ace-low value: ace 0, deuce 1, ..., king 12."""
    return 0 if card.rank == ACE else int(card.rank) + 1


def high(cards: Sequence[Card]) -> int:
    name, keys = _classify_high(cards, ace_low_under=0)
    return pack(_HIGH_NUM[name], keys)


def short_deck(cards: Sequence[Card], lowest: int) -> int:
    name, keys = _classify_high(cards, ace_low_under=lowest)
    return pack(_SHORT_NUM[name], keys)


def deuce7(cards: Sequence[Card]) -> int:
    """§2.4: the high value with A-2-3-4-5 not a straight; the lower value wins, so invert it."""
    name, keys = _classify_high(cards, ace_low_under=None)
    return pack(10 - _HIGH_NUM[name], [12 - k for k in keys])


def ace5(cards: Sequence[Card]) -> int:
    """§2.2: pairs count against the hand, straights and flushes are ignored, ace is low."""
    groups = _groups(_low_value(c) for c in cards)
    shape = tuple(n for n, _ in groups)
    return pack(_ACE5_NUM[shape], [12 - v for _, v in groups])


def eight(cards: Sequence[Card]) -> int:
    """§2.3: five distinct ranks, all 8 or lower (ace low); else 0, "no low"."""
    values = sorted({_low_value(c) for c in cards}, reverse=True)
    if len(values) != 5 or values[0] > 7:
        return 0
    return pack(1, [12 - v for v in values])


def soko(cards: Sequence[Card]) -> int:
    """§2.5: the high ranking with four flush and four straight between two pair and one pair."""
    name, keys = _classify_high(cards, ace_low_under=0)
    if _HIGH_NUM[name] >= _HIGH_NUM["two_pair"]:
        return pack(_SOKO_NUM[name], keys)
    by_suit = Counter(c.suit for c in cards)
    suit, n = by_suit.most_common(1)[0]
    if n == 4:
        suited = sorted((int(c.rank) for c in cards if c.suit == suit), reverse=True)
        (fifth,) = (int(c.rank) for c in cards if c.suit != suit)
        return pack(_SOKO_NUM["four_flush"], [*suited, fifth])
    ranks = [int(c.rank) for c in cards]
    present = set(ranks)
    for top in range(ACE, 2, -1):  # J-Q-K-A down to 2-3-4-5
        run = set(range(top - 3, top + 1))
        if run <= present:
            return pack(_SOKO_NUM["four_straight"], [top, _fifth(ranks, run)])
    if {ACE, 0, 1, 2} <= present:  # A-2-3-4, "4-high"
        return pack(_SOKO_NUM["four_straight"], [2, _fifth(ranks, {ACE, 0, 1, 2})])
    return pack(_SOKO_NUM[name], keys)


def _fifth(ranks: list[int], run: set[int]) -> int:
    rest = list(ranks)
    for r in run:
        rest.remove(r)
    (fifth,) = rest
    return fifth


def badugi(cards: Sequence[Card]) -> int:
    """Badugi: the largest subset of distinct suits and distinct ranks (ace low) plays; more cards
    win, then the lower highest card, and so on."""
    for size in range(len(cards), 0, -1):
        options = [
            sorted((_low_value(c) for c in sub), reverse=True)
            for sub in combinations(cards, size)
            if len({c.suit for c in sub}) == size and len({c.rank for c in sub}) == size
        ]
        if options:
            return pack(size, [12 - v for v in min(options)])
    raise AssertionError("a non-empty hand always has a one-card badugi")


def rank5(rule: str, cards: Sequence[Card]) -> int:
    """The rank of exactly one combination (five cards; up to four for badugi) under ``rule``."""
    if rule in ("high", "omaha_high"):
        return high(cards)
    if rule == "ace5_low":
        return ace5(cards)
    if rule in ("eight_low", "omaha_eight_low"):
        return eight(cards)
    if rule == "deuce7_low":
        return deuce7(cards)
    if rule == "soko":
        return soko(cards)
    if rule == "short_deck_7a":
        return short_deck(cards, lowest=5)
    if rule == "short_deck_6a":
        return short_deck(cards, lowest=4)
    if rule == "badugi":
        return badugi(cards)
    raise KeyError(rule)


def combos(rule: str, hole: Sequence[Card], board: Sequence[Card]) -> Iterable[tuple[Card, ...]]:
    """Every combination the rule allows: exactly 2 hole + 3 board for Omaha, else any 5 of all."""
    if rule.startswith("omaha_"):
        for h in combinations(hole, 2):
            for b in combinations(board, 3):
                yield h + b
    elif rule == "badugi":
        yield tuple(hole) + tuple(board)
    else:
        yield from combinations(tuple(hole) + tuple(board), 5)


def best(rule: str, hole: Sequence[Card], board: Sequence[Card] = ()) -> tuple[int, tuple[Card, ...]]:
    """The best rank and the combination that makes it (no validation; see ``evaluate``)."""
    best_rank = -1
    best_cards: tuple[Card, ...] = ()
    for combo in combos(rule, hole, board):
        r = rank5(rule, combo)
        if r > best_rank:
            best_rank, best_cards = r, combo
    return best_rank, best_cards

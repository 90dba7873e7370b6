"""Stud order: who brings in and whose board acts first (RULES.md §4.5, §5.7-§5.11).

Suits decide only the bring-in between equal upcards (clubs < diamonds < hearts < spades); boards that
show equal hands act in seat order from the fixed button, never by suit (R127, R147).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pokerroom.cards import Card, Rank
from pokerroom.engine.spec import Showing

__all__ = ["bring_in_seat", "first_to_act", "has_open_pair", "showing_key"]


def _low_rank(card: Card) -> int:
    """Ace low: A = 0, 2 = 1, ..., K = 12."""
    return 0 if card.rank == Rank.ACE else card.rank + 1


def bring_in_seat(upcards: Sequence[tuple[int, Card]], highest: bool) -> int:
    """The seat that must bring in.

    High games (ace high): the lowest upcard, ties broken by the lowest suit (R115, R116).
    Razz (``highest``; ace low): the highest upcard, ties broken by the highest suit (R133-R135).
    """
    if highest:
        return max(upcards, key=lambda sc: (_low_rank(sc[1]), sc[1].suit))[0]
    return min(upcards, key=lambda sc: (sc[1].rank, sc[1].suit))[0]


def _grouped(values: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Counts high to low and the ranks ordered by (count, rank), e.g. K K 5 -> (2, 1), (K, 5)."""
    counts = Counter(values)
    order = sorted(counts, key=lambda v: (counts[v], v), reverse=True)
    return tuple(counts[v] for v in order), tuple(order)


_CATEGORY = {(4,): 7, (4, 1): 7, (3,): 5, (3, 1): 5, (2, 2): 4, (2,): 1, (2, 1): 1, (2, 1, 1): 1}


def _pair_category(shape: tuple[int, ...]) -> int:
    """Quads 7, trips 5, two pair 4, pair 1, high card 0 (gaps leave room for SOKO's categories)."""
    return _CATEGORY.get(shape, 0)


def _four_straight_top(ranks: Sequence[int]) -> int | None:
    values = set(ranks)
    if len(values) != 4:
        return None
    for top in range(12, 2, -1):
        run = {top - i for i in range(4)}
        if run == values:
            return top
    if values == {Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR}:
        return int(Rank.FOUR)
    return None


def showing_key(upcards: Sequence[Card], showing: Showing) -> tuple[int, ...]:
    """A key that is greater for the board that acts first.

    HIGH: quads > trips > two pair > pair > high card, then ranks; straights and flushes never count.
    LOW (razz): A-5 low of the upcards; fewer pairs first, then the lowest ranks (R138).
    SOKO: as HIGH, with a four flush and a four straight of 4 upcards above a pair (R148).
    """
    if showing is Showing.LOW:
        shape, order = _grouped([_low_rank(c) for c in upcards])
        return (-_pair_category(shape), *(-v for v in order))
    ranks = [int(c.rank) for c in upcards]
    shape, order = _grouped(ranks)
    category = _pair_category(shape)
    if showing is Showing.SOKO and len(upcards) == 4 and category < 4:
        if len({c.suit for c in upcards}) == 1:
            return (3, *sorted(ranks, reverse=True))
        top = _four_straight_top(ranks)
        if top is not None:
            return (2, top)
    return (category, *order)


def first_to_act(boards: Sequence[tuple[int, Sequence[Card]]], showing: Showing) -> int:
    """The seat with the best showing board; equal boards: the lowest seat (first from the button)."""
    best_seat, best_key = boards[0][0], showing_key(boards[0][1], showing)
    for seat, cards in boards[1:]:
        key = showing_key(cards, showing)
        if key > best_key or (key == best_key and seat < best_seat):
            best_seat, best_key = seat, key
    return best_seat


def has_open_pair(boards: Sequence[Sequence[Card]]) -> bool:
    """Does any board show a pair among its upcards (7-Card Stud 4th street, R121)?"""
    return any(len({c.rank for c in cards}) < len(cards) for cards in boards)

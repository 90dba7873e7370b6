"""Decks and the shuffle.

The shuffle is an unbiased Fisher-Yates driven by an injected random source. Production code passes
nothing and gets :class:`secrets.SystemRandom`; tests pass a seeded generator or use a literal deck.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from enum import Enum
from typing import Protocol

from pokerroom.cards.card import Card, Rank, Suit

__all__ = ["DeckSpec", "RandomSource", "shuffle", "shuffled_deck"]


class RandomSource(Protocol):
    """The part of a random generator the shuffle uses: a uniform integer in ``range(n)`` (and, when the
    generator has it, ``getrandbits``)."""

    def randrange(self, stop: int, /) -> int: ...


class DeckSpec(Enum):
    """The decks of RULES.md §1.1: 52 cards, 7..A (32 cards) and 6..A (36 cards)."""

    STANDARD = 52
    SHORT_7A = 32
    SHORT_6A = 36

    def __init__(self, size: int) -> None:
        # The number of cards: a plain attribute of the member (a property over ``value`` was three Python
        # calls, through the enum's own ``value`` property, for the compiled engine and replay).
        self.size = size

    @property
    def lowest_rank(self) -> Rank:
        return {52: Rank.TWO, 32: Rank.SEVEN, 36: Rank.SIX}[self.value]

    def cards(self) -> tuple[Card, ...]:
        """The deck in index order (deuce of clubs, or the lowest card, first)."""
        return _DECKS[self]

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card.rank >= self.lowest_rank


_DECKS = {spec: tuple(Card(r, s) for r in Rank if r >= spec.lowest_rank for s in Suit) for spec in DeckSpec}

_system_random = secrets.SystemRandom()
_FACTORIALS = [math.factorial(k) for k in range(61)]


def shuffle(cards: Sequence[Card], rng: RandomSource | None = None) -> list[Card]:
    """Return a uniformly random permutation of ``cards`` (Fisher-Yates, unbiased given ``rng``).

    With a generator that has ``getrandbits`` (``secrets.SystemRandom``, ``random.Random``) the swaps
    come from one uniform integer below n! drawn by rejection and read as mixed-radix digits: the same
    unbiased Fisher-Yates, one draw instead of n - 1."""
    source = _system_random if rng is None else rng
    out = list(cards)
    n = len(out)
    getrandbits = getattr(source, "getrandbits", None)
    if getrandbits is None or n < 2:
        for i in range(n - 1, 0, -1):
            j = source.randrange(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
    limit = _FACTORIALS[n] if n < len(_FACTORIALS) else math.factorial(n)
    bits = limit.bit_length()
    code = getrandbits(bits)
    while code >= limit:  # rejection keeps every permutation equally likely
        code = getrandbits(bits)
    for i in range(n - 1, 0, -1):
        code, j = divmod(code, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_deck(spec: DeckSpec = DeckSpec.STANDARD, rng: RandomSource | None = None) -> list[Card]:
    """A freshly shuffled deck of the given kind."""
    return shuffle(spec.cards(), rng)

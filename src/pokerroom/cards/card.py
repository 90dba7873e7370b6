"""Cards: ranks, suits, notation and the integer encoding used by the fast paths.

Encoding: ``index = rank * 4 + suit``; rank 0 is the deuce and 12 the ace, suit 0 clubs, 1 diamonds,
2 hearts, 3 spades (RULES.md §1.1: the suit order used for the stud bring-in).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import ClassVar

__all__ = [
    "Card",
    "NotationError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_cards_masked",
]


class NotationError(ValueError):
    """Text that is not valid card notation. The message quotes only the offending text."""

    code = "bad_notation"

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"invalid card notation {text!r}: {reason}")
        self.text = text
        self.reason = reason


_RANK_CHARS = "23456789TJQKA"
_SUIT_CHARS = "cdhs"
_RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
_RANK_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
_SUIT_SYMBOLS = "♣♦♥♠"


class Rank(IntEnum):
    """Card rank, deuce (0) to ace (12)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def title(self) -> str:
        """English name, e.g. ``"Ace"``."""
        return _RANK_NAMES[self]

    @property
    def plural(self) -> str:
        """Lower-case plural, e.g. ``"kings"``."""
        return _RANK_PLURALS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        t = text.strip().upper()
        if t == "10":
            t = "T"
        if len(t) != 1 or t not in _RANK_CHARS:
            raise NotationError(text, "unknown rank")
        return cls(_RANK_CHARS.index(t))


class Suit(IntEnum):
    """Card suit in bring-in order: clubs < diamonds < hearts < spades."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return _SUIT_CHARS[self]

    @property
    def title(self) -> str:
        return _SUIT_NAMES[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        t = text.strip().lower()
        if len(t) == 1 and t in _SUIT_CHARS:
            return cls(_SUIT_CHARS.index(t))
        if len(t) == 1 and t in _SUIT_SYMBOLS:
            return cls(_SUIT_SYMBOLS.index(t))
        raise NotationError(text, "unknown suit")


class Card:
    """One playing card. Instances are interned: there is exactly one object per card.

    ``Card(rank, suit)`` and ``Card.from_index(i)`` return the shared instance, so cards compare by
    identity as well as by value. Ordering is by index (rank first, then suit).
    """

    __slots__ = ("index", "rank", "suit")
    _ALL: ClassVar[tuple[Card, ...]]

    index: int
    rank: Rank
    suit: Suit

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        r, s = int(rank), int(suit)
        if not (0 <= r <= 12 and 0 <= s <= 3):
            raise NotationError(f"{rank}/{suit}", "rank or suit out of range")
        return cls._ALL[r * 4 + s]

    @classmethod
    def _make(cls, index: int) -> Card:
        obj = object.__new__(cls)
        object.__setattr__(obj, "index", index)
        object.__setattr__(obj, "rank", Rank(index >> 2))
        object.__setattr__(obj, "suit", Suit(index & 3))
        return obj

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise NotationError(str(index), "card index must be 0..51")
        return cls._ALL[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @property
    def name(self) -> str:
        """Spoken name for screen readers and logs: ``"Ace of spades"``."""
        return f"{self.rank.title} of {self.suit.title}"

    def __str__(self) -> str:
        return _RANK_CHARS[self.rank] + _SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index == other.index
        return NotImplemented

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index


Card._ALL = tuple(Card._make(i) for i in range(52))

_TOKEN = re.compile(r"(10|[2-9tjqka?])([cdhs♣♦♥♠?])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,\[\]]+")


def parse_card(text: str) -> Card:
    """Parse one card such as ``"As"``, ``"td"``, ``"10h"``; case-insensitive."""
    t = text.strip()
    m = _TOKEN.fullmatch(t)
    if m is None or "?" in t:
        raise NotationError(text, "expected a rank (2-9, T, J, Q, K, A) followed by a suit (c, d, h, s)")
    return Card(Rank.parse(m.group(1)), Suit.parse(m.group(2)))


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        pos = 0
        while pos < len(chunk):
            m = _TOKEN.match(chunk, pos)
            if m is None:
                raise NotationError(text, f"cannot read a card at {chunk[pos : pos + 3]!r}")
            tok = m.group(0)
            if "?" in tok and tok != "??":
                raise NotationError(text, "an unknown card is written '??'")
            out.append(tok)
            pos = m.end()
    return out


def parse_cards_masked(text: str) -> tuple[Card | None, ...]:
    """Parse cards where ``??`` stands for an unknown card (returned as ``None``)."""
    return tuple(None if tok == "??" else parse_card(tok) for tok in _tokens(text))


def parse_cards(text: str | Iterable[str | Card], *, distinct: bool = True) -> tuple[Card, ...]:
    """Parse ``"As Td 9c"``, ``"AsTd9c"`` or an iterable of tokens/cards into cards.

    Unknown cards (``??``) are refused here; use :func:`parse_cards_masked` for them. With
    ``distinct`` (the default) a repeated card is an error.
    """
    if isinstance(text, str):
        items: list[str | Card] = list(_tokens(text))
    else:
        items = list(text)
    cards: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            cards.append(item)
        elif item == "??":
            raise NotationError(item, "unknown card not allowed here")
        else:
            cards.append(parse_card(item))
    if distinct and len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for c in cards:
            if c in seen:
                raise NotationError(str(c), "card appears twice")
            seen.add(c)
    return tuple(cards)


def format_cards(cards: Sequence[Card | None], sep: str = " ") -> str:
    """Format cards as ``"As Td 9c"``; ``None`` is written ``??``."""
    return sep.join("??" if c is None else str(c) for c in cards)

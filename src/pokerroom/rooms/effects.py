"""What a table asks the store to book: every movement of money or points, as data.

A table never touches money itself. The server books each effect in the ledger (an effect that cannot be
booked, e.g. a buy-in beyond the player's balance, is refused before the table applies it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["BuyIn", "CashOut", "EarlyExit", "Effect", "HandSettlement", "TopUp"]


@dataclass(frozen=True, slots=True)
class Effect:
    table_id: str


@dataclass(frozen=True, slots=True)
class BuyIn(Effect):
    """Wallet -> a new seat session with ``amount`` chips."""

    player: str
    seat: int
    amount: int
    entry: str = ""  # Rush: the entry (its own seat session); empty at cash tables


@dataclass(frozen=True, slots=True)
class TopUp(Effect):
    """Wallet -> the player's seat session (the chips join his stack before the next hand)."""

    player: str
    seat: int
    amount: int
    entry: str = ""  # Rush: the entry (its own seat session); empty at cash tables
    auto: bool = False  # the player's auto top-up (rooms/auto_top_up.py), not a request of his


@dataclass(frozen=True, slots=True)
class CashOut(Effect):
    """The seat session's chips go back to the wallet and the session closes."""

    player: str
    seat: int
    amount: int
    entry: str = ""  # Rush: the entry (its own seat session); empty at cash tables


@dataclass(frozen=True, slots=True)
class HandSettlement(Effect):
    """A finished hand: each player's net result, the rake (to the house) and the points earned.

    ``results`` (player -> chips won or lost) plus ``rake`` sum to zero; ``contributions`` are what each
    player put in; ``points`` are centipoints (a separate, non-cash currency).
    """

    hand_id: str
    results: Mapping[str, int]
    rake: int
    contributions: Mapping[str, int] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    released: Mapping[str, int] = field(default_factory=dict)  # Rush: results booked at a quick fold

    def __post_init__(self) -> None:
        if sum(self.results.values()) + sum(self.released.values()) + self.rake != 0:
            raise ValueError("a settlement must sum to zero")


@dataclass(frozen=True, slots=True)
class EarlyExit(Effect):
    """Rush: an entry quick-folded out of a hand that goes on; its result (minus what it put in) is final
    now and is booked at once, so the entry can play its next hand with the rest of its chips."""

    hand_id: str
    entry: str
    result: int
    table: str = ""  # the Rush table the entry left

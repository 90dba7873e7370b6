"""What a table asks the store to book: every movement of money or points, as data.

A table never touches money itself. The server books each effect in the ledger (an effect that cannot be
booked, e.g. a buy-in beyond the player's balance, is refused before the table applies it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["BuyIn", "CashOut", "Effect", "HandSettlement", "TopUp"]


@dataclass(frozen=True, slots=True)
class Effect:
    table_id: str


@dataclass(frozen=True, slots=True)
class BuyIn(Effect):
    """Wallet -> a new seat session with ``amount`` chips."""

    player: str
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class TopUp(Effect):
    """Wallet -> the player's seat session (the chips join his stack before the next hand)."""

    player: str
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class CashOut(Effect):
    """The seat session's chips go back to the wallet and the session closes."""

    player: str
    seat: int
    amount: int


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

    def __post_init__(self) -> None:
        if sum(self.results.values()) + self.rake != 0:
            raise ValueError("a settlement must sum to zero")

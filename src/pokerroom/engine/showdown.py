"""Showdown: who shows first, which hands are shown automatically, and who wins each pot.

RULES.md §6.2 (order and auto-show, per pot and per half), §6.3 (cards speak), §2.7 (hi/lo), §3.9
(splits and odd chips).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pokerroom.engine.pots import Pot, hi_lo_halves, split
from pokerroom.eval import HandValue

__all__ = ["Award", "ShownTracker", "award_pot"]


@dataclass(frozen=True, slots=True)
class Award:
    """One pot or half pot paid: the winners (odd-chip order) and their shares."""

    pot: int
    half: str
    amount: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    description: str


class ShownTracker:
    """The best high and low shown so far in each pot, to decide automatic shows (§6.2 step 3).

    Hands are compared by their ``rank``: every high value of a hand is of the hand's one high rule and
    every low value of its one low rule, so the ranks order them as the values do (and the comparison
    stays in compiled code: a value's own comparison is an interpreted call)."""

    def __init__(self, pots: Sequence[Pot]) -> None:
        self._pots = pots
        self._high: dict[int, HandValue] = {}
        self._low: dict[int, HandValue] = {}

    def must_show(self, seat: int, high: HandValue, low: HandValue | None) -> bool:
        """True if the hand ties or beats the best shown high, or its qualifying low ties or beats the best
        shown low, in some pot it can win; a pot where nothing is shown yet is won by showing."""
        for k, pot in enumerate(self._pots):
            if seat not in pot.eligible:
                continue
            best = self._high.get(k)
            if best is None or high.rank >= best.rank:
                return True
            if low is not None and low:
                best_low = self._low.get(k)
                if best_low is None or low.rank >= best_low.rank:
                    return True
        return False

    def record(self, seat: int, high: HandValue, low: HandValue | None) -> None:
        for k, pot in enumerate(self._pots):
            if seat not in pot.eligible:
                continue
            if k not in self._high or high.rank > self._high[k].rank:
                self._high[k] = high
            if low is not None and low and (k not in self._low or low.rank > self._low[k].rank):
                self._low[k] = low


def _best(seats: Sequence[int], values: Mapping[int, HandValue]) -> tuple[int, ...]:
    ranks = [values[s].rank for s in seats]
    top = max(ranks)
    return tuple(s for s, rank in zip(seats, ranks, strict=True) if rank == top)


def award_pot(
    index: int,
    amount: int,
    eligible_in_order: Sequence[int],
    high: Mapping[int, HandValue],
    low: Mapping[int, HandValue] | None,
) -> list[Award]:
    """Pay one pot. ``eligible_in_order`` is the pot's contestants in odd-chip order.

    Without a low rule the best high hand wins (ties split). With one, the pot is halved (odd unit high)
    when some contestant has a qualifying low; otherwise the high hand scoops (§2.7).
    """
    winners = _best(eligible_in_order, high)
    if low is not None:
        qualified = [s for s in eligible_in_order if low[s]]
        if qualified:
            high_part, low_part = hi_lo_halves(amount)
            low_winners = _best(qualified, low)
            return [
                Award(
                    index,
                    "high",
                    high_part,
                    winners,
                    tuple(split(high_part, winners)),
                    high[winners[0]].description,
                ),
                Award(
                    index,
                    "low",
                    low_part,
                    low_winners,
                    tuple(split(low_part, low_winners)),
                    low[low_winners[0]].description,
                ),
            ]
    return [Award(index, "", amount, winners, tuple(split(amount, winners)), high[winners[0]].description)]

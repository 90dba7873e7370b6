"""Deals at the final table (RULES.md §11.3, R256-R258): the ICM (Malmuth-Harville) and chip-chop
amounts, exact, in minor units. Pure: stacks and prizes in, integer amounts out.

- **ICM**: P(i first) = s_i / S; the chance of each later place is computed by removing the players
  ranked above, recursively; player i's equity = sum over k of P(i finishes k-th) x prize_k. Computed
  exactly (``Fraction``) over the subsets of players still to be placed: 2^n x n steps, so exact for the
  10 players of a final table (and refused above ``MAX_ICM_PLAYERS``).
- **Chip chop**: each player gets the smallest prize being dealt, plus the rest of the dealt money in
  proportion to his stack.
- **Rounding** (both): each amount rounded down to the minor unit; the leftover units go one each to the
  players in order of stack, largest first (equal stacks: in the order given). The amounts add up to the
  money dealt exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from pokerroom.engine import ConfigError

__all__ = ["MAX_ICM_PLAYERS", "DealMethod", "chip_chop", "deal_amounts", "icm_equities", "round_shares"]

MAX_ICM_PLAYERS = 10
DealMethod = Literal["icm", "chip_chop"]


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> None:
    if not stacks:
        raise ConfigError("a deal needs players")
    if any(type(s) is not int or s <= 0 for s in stacks):
        raise ConfigError("every player in a deal holds chips (whole, positive stacks)")
    if len(prizes) != len(stacks):
        raise ConfigError("a deal deals one prize per player (zero for a place that pays nothing)")
    if any(type(p) is not int or p < 0 for p in prizes):
        raise ConfigError("prizes are whole, non-negative amounts")


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's exact Malmuth-Harville equity of ``prizes`` (1st, 2nd, ...: one per player)."""
    _check(stacks, prizes)
    n = len(stacks)
    if n > MAX_ICM_PLAYERS:
        raise ConfigError(f"the ICM is computed exactly for up to {MAX_ICM_PLAYERS} players")
    full = (1 << n) - 1
    # reach[mask]: the probability that exactly the players of ``mask`` are still to be placed.
    reach: dict[int, Fraction] = {full: Fraction(1)}
    equity = [Fraction(0)] * n
    for mask in sorted(range(1, full + 1), key=lambda m: -m.bit_count()):  # bigger sets first
        p = reach.get(mask)
        if not p:
            continue
        members = [i for i in range(n) if mask >> i & 1]
        place = n - len(members)  # the index of the prize this player takes
        total = sum(stacks[i] for i in members)
        for i in members:
            q = p * Fraction(stacks[i], total)
            equity[i] += q * prizes[place]
            rest = mask & ~(1 << i)
            if rest:
                reach[rest] = reach.get(rest, Fraction(0)) + q
    return equity


def chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> list[Fraction]:
    """Each player's exact chip-chop share: the smallest prize, plus the rest in proportion to chips."""
    _check(stacks, prizes)
    floor = min(prizes)
    rest = sum(prizes) - floor * len(prizes)
    chips = sum(stacks)
    return [floor + Fraction(rest * s, chips) for s in stacks]


def round_shares(exact: Sequence[Fraction], stacks: Sequence[int]) -> list[int]:
    """Rounded down, the leftover units one each by stack, largest first (RULES.md §11.3)."""
    total = sum(exact)
    if total.denominator != 1:
        raise ConfigError("the money dealt is a whole number of units")
    amounts = [int(x) for x in exact]  # (floor: every share is non-negative)
    leftover = int(total) - sum(amounts)
    for i in sorted(range(len(stacks)), key=lambda i: -stacks[i])[:leftover]:
        amounts[i] += 1
    return amounts


def deal_amounts(
    stacks: Sequence[int], prizes: Sequence[int], method: DealMethod, *, keep: int = 0
) -> list[int]:
    """What each player is paid now, by ``method``, when ``keep`` of the money is left to play for (it
    comes off the first prize: whoever wins the rest of the tournament takes it). ``keep`` may be at most
    the first prize less the smallest, so the first prize dealt is never below the others."""
    _check(stacks, prizes)
    if type(keep) is not int or keep < 0 or (keep and keep > prizes[0] - min(prizes)):
        raise ConfigError("the money kept to play for comes off the first prize, above the smallest")
    if method not in ("icm", "chip_chop"):
        raise ConfigError(f"no deal method {method!r}")
    dealt = [prizes[0] - keep, *prizes[1:]]
    exact = icm_equities(stacks, dealt) if method == "icm" else chip_chop(stacks, dealt)
    return round_shares(exact, stacks)

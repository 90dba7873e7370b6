"""Pots: side pots from contributions, equal splits with odd chips, and the rake per pot.

RULES.md §3.8 (side pots), §3.9 (splits and odd chips), §2.7 (hi/lo halves), §7.1 (rake per pot).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Pot", "allocate_rake", "hi_lo_halves", "side_pots", "split"]


@dataclass(frozen=True, slots=True, init=False)
class Pot:
    """A pot: its chips and the seats (active players) who can win it. Pot 0 is the main pot."""

    amount: int
    eligible: tuple[int, ...]

    # Its own constructor, compiled with this module: the one the dataclass decorator generates is
    # interpreted Python (a replayed hand makes about three pots). It sets the fields as that one does.
    def __init__(self, amount: int, eligible: tuple[int, ...]) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)

    def __reduce__(self) -> tuple[type[Pot], tuple[int, tuple[int, ...]]]:
        """Copied and pickled by its constructor (a compiled frozen dataclass cannot be rebuilt from its
        slot state: its setter refuses the fields)."""
        return (Pot, (self.amount, self.eligible))


def side_pots(
    paid: Mapping[int, int],
    active: Collection[int],
    all_in: Collection[int],
    dead: Mapping[int, int] | None = None,
) -> list[Pot]:
    """Main and side pots from each player's total contribution (folded players included).

    ``dead`` is money of ``paid`` that belongs to the main pot whoever put it in: the antes of a hand
    whose antes are unequal (a big-blind ante, or a recorded hand where only some players ante). It is
    no contribution: it makes no level and no side pot, and every player still in can win it, whatever
    he put in (TDA big-blind ante; issue 21). Equal antes stay contributions (RULES.md §3.8).

    Levels are the distinct contributions of active all-in players plus the largest contribution of any
    active player; pot k holds every player's chips between level k-1 and level k, and is contested by
    the active players who reached level k. Adjacent pots with the same contestants are merged (R83).
    An active player who is not all-in has matched every bet, so he contests every pot even when dead
    money (a dead small blind, a big-blind ante) put another player's contribution above his.
    """
    if dead:
        out = side_pots({s: c - dead.get(s, 0) for s, c in paid.items()}, active, all_in)
        out[0] = Pot(out[0].amount + sum(dead.values()), out[0].eligible)
        return out
    live = sorted(active)
    if not live:
        return [Pot(sum(paid.values()), ())]
    top = max(paid[s] for s in live)
    below = {paid[s] for s in all_in if s in active and paid[s] < top}
    if not below:  # nobody in is all-in for less: one pot, contested by everybody still in
        return [Pot(sum(paid.values()), tuple(live))]
    levels = sorted(below | {top})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in paid.values())
        eligible = tuple(s for s in live if paid[s] >= level or s not in all_in)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount > 0 or not pots:
            pots.append(Pot(amount, eligible))
        previous = level
    # Chips above the top level can only come from folded players; they join the last pot.
    extra = sum(max(0, c - top) for c in paid.values())
    if extra:
        pots[-1] = Pot(pots[-1].amount + extra, pots[-1].eligible)
    return pots


def split(amount: int, winners: Sequence[int]) -> list[int]:
    """Split ``amount`` equally; leftover units go one at a time to the winners in the given order.

    ``winners`` must already be in odd-chip order: clockwise from the first seat left of the button
    (stud: from the lowest seat), RULES.md §3.9.
    """
    n = len(winners)
    if n == 0:
        raise ValueError("a pot needs at least one winner")
    base, extra = divmod(amount, n)
    return [base + (1 if i < extra else 0) for i in range(n)]


def hi_lo_halves(amount: int) -> tuple[int, int]:
    """The high half takes the odd unit (R29)."""
    low = amount // 2
    return amount - low, low


def allocate_rake(rake: int, pots: Sequence[int]) -> list[int]:
    """Rake taken from each pot in proportion to its size, leftover units from the main pot (R187)."""
    total = sum(pots)
    if total == 0 or rake == 0:
        return [0] * len(pots)
    parts = [rake * p // total for p in pots]
    parts[0] += rake - sum(parts)
    return parts

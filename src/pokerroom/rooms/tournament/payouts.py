"""Prize pools, payout tables, ties and satellites (RULES.md §9.7-§9.10)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from pokerroom.engine import ConfigError

__all__ = [
    "SatellitePrizes",
    "default_percentages",
    "interrupted_shares",
    "pay_places",
    "prize_pool",
    "satellite_prizes",
    "split_ties",
]

# (entrants up to, percentages of 1st, 2nd, ...) (RULES.md §9.8).
_TABLE: tuple[tuple[int, tuple[str, ...]], ...] = (
    (2, ("100",)),
    (6, ("65", "35")),
    (10, ("50", "30", "20")),
    (20, ("40", "26", "17", "10", "7")),
    (30, ("36", "23", "15", "11", "8", "7")),
    (50, ("30", "20", "14", "10", "8", "7", "6", "5")),
    (
        100,
        ("25", "15.5", "11", "8.5", "7", "5.75", "4.75", "4", "3.5", "3", "2.6", "2.6", "2.3", "2.3", "2.2"),
    ),
)


def default_percentages(entrants: int) -> tuple[Fraction, ...]:
    """The default payout percentages for a field size (RULES.md §9.8). Over 100 entrants RULES.md leaves
    the table to each tournament's configuration; without one, the top 15 % are paid with shares falling
    as 1/place (a stated product choice, exact to the unit: the shares add up to 100 %)."""
    if entrants < 2:
        return (Fraction(100),)
    for limit, pcts in _TABLE:
        if entrants <= limit:
            return tuple(Fraction(p) for p in pcts)
    places = -(-entrants * 15 // 100)
    weights = [Fraction(1, i) for i in range(1, places + 1)]
    total = sum(weights)
    return tuple(w * 100 / total for w in weights)


def pay_places(pool: int, percentages: Sequence[Fraction]) -> list[int]:
    """Each prize is the pool times its percentage rounded down; leftover units go to 1st (R238)."""
    if sum(percentages) != 100:
        raise ConfigError("payout percentages must add up to 100")
    prizes = [int(pool * p / 100) for p in percentages]
    prizes[0] += pool - sum(prizes)
    return prizes


def split_ties(prizes: Sequence[int], places: Sequence[Sequence[str]]) -> dict[str, int]:
    """Players who tie share the total of the places they occupy equally; leftover units go one each in
    the order given (table, then seat). ``places`` lists the finishing groups from 1st down (R233)."""
    out: dict[str, int] = {}
    i = 0
    for group in places:
        total = sum(prizes[i : i + len(group)]) if i < len(prizes) else 0
        base, extra = divmod(total, len(group))
        for k, player in enumerate(group):
            out[player] = base + (1 if k < extra else 0)
        i += len(group)
    return out


def prize_pool(contributions: int, *, guarantee: int = 0, freeroll: int = 0) -> tuple[int, int]:
    """(prize pool, overlay paid by the house): max(guarantee, contributions); a freeroll's pool is set by
    the house (R226, R231)."""
    if freeroll:
        return freeroll, freeroll
    pool = max(guarantee, contributions)
    return pool, pool - contributions


@dataclass(frozen=True, slots=True)
class SatellitePrizes:
    seats: int  # tickets for places 1..seats
    cash: int  # to place seats + 1
    house_adds: int  # what the house pays to honour guaranteed seats


def satellite_prizes(pool: int, seat_value: int, guaranteed_seats: int = 0) -> SatellitePrizes:
    """Seats N = pool // S, the remainder in cash to place N + 1 (R228); a guarantee of G seats raises N to
    G with no cash remainder, the house paying the shortfall (R229, R230)."""
    if seat_value <= 0:
        raise ConfigError("a satellite's seat value must be positive")
    n, rest = divmod(pool, seat_value)
    if n < guaranteed_seats:
        return SatellitePrizes(guaranteed_seats, 0, guaranteed_seats * seat_value - pool)
    return SatellitePrizes(n, rest, 0)


def interrupted_shares(pool: int, stacks: Mapping[str, int], prizes: Sequence[int]) -> dict[str, int]:
    """A running tournament that cannot go on (the server stopped): what is left in the prize pool goes
    to the players still holding chips. Each first gets the prize of the lowest place any of them could
    still finish in (nobody gets less than he was sure of); the rest is split in proportion to chips
    (chips are worth the same everywhere), rounded down, the leftover units one each to the biggest
    stacks (ties by player id). The shares add up to the pool exactly (docs/decisions.md)."""
    players = [p for p, s in stacks.items() if s > 0]
    if not players or pool <= 0:
        return {}
    n = len(players)
    floor = min(prizes[n - 1] if n <= len(prizes) else 0, pool // n)
    rest = pool - floor * n
    chips = sum(stacks[p] for p in players)
    shares = {p: floor + rest * stacks[p] // chips for p in players}
    leftover = pool - sum(shares.values())
    for p in sorted(players, key=lambda p: (-stacks[p], p))[:leftover]:
        shares[p] += 1
    return shares

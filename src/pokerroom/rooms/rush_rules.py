"""The pure rules of a Rush (fast-fold) pool (RULES.md §8): configuration, table forming with the
anti-collusion blocks, seat assignment and the big blind, quick-fold eligibility, the clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pokerroom.cards import RandomSource
from pokerroom.engine import (
    Betting,
    ConfigError,
    HandState,
    Phase,
    RakeRule,
    Stakes,
    Structure,
    VariantSpec,
)
from pokerroom.variants import get_variant

__all__ = [
    "Block",
    "PoolConfig",
    "RushTiming",
    "form_tables",
    "preflop_unraised",
    "seat_order",
]


@dataclass(frozen=True, slots=True)
class RushTiming:
    """Clocks of a pool (RULES.md §8.7 defaults): the reduced preflop time is used, without time bank,
    until somebody raises; the time bank is full again at the start of every hand."""

    action: float = 15.0
    reduced_action: float = 8.0
    time_bank: float = 30.0
    disconnect_grace: float = 120.0

    def __post_init__(self) -> None:
        if min(self.action, self.reduced_action) <= 0 or min(self.time_bank, self.disconnect_grace) < 0:
            raise ConfigError("pool clocks must be positive")


@dataclass(frozen=True, slots=True)
class PoolConfig:
    """A Rush pool: one game and stakes, one table size (6 or 9), buy-in limits like a cash table."""

    pool_id: str
    name: str
    variant: str
    betting: Betting
    stakes: Stakes
    table_size: int = 9
    min_buy_in: int = 0
    max_buy_in: int = 0
    rake: RakeRule | None = None
    timing: RushTiming = RushTiming()
    currency: str = "PLAY"
    max_entries: int = 4

    def __post_init__(self) -> None:
        v = get_variant(self.variant)
        v.check_structure(self.betting)
        Structure(self.betting, self.stakes)
        if v.is_stud:
            raise ConfigError("Rush pools are played in blind games")
        if self.table_size not in (6, 9) or not v.min_players <= self.table_size <= v.max_players:
            raise ConfigError(f"a {v.name} Rush pool has 6- or 9-seat tables within the game's limits")
        if self.stakes.big_blind <= 0:
            raise ConfigError("a Rush pool needs a big blind")
        if not 1 <= self.max_entries <= 4:
            raise ConfigError("a player may have 1 to 4 entries in a pool")
        lo, hi = self.buy_in_range
        if lo <= 0 or (hi and hi < lo):
            raise ConfigError("bad buy-in limits")

    @property
    def spec(self) -> VariantSpec:
        return get_variant(self.variant)

    @property
    def structure(self) -> Structure:
        return Structure(self.betting, self.stakes, heads_up_uncapped=True)

    @property
    def buy_in_range(self) -> tuple[int, int]:
        s = self.stakes
        if self.betting is Betting.FIXED_LIMIT:
            return (self.min_buy_in or 10 * s.big_bet, self.max_buy_in)
        return (self.min_buy_in or 40 * s.big_blind, self.max_buy_in or 100 * s.big_blind)


@dataclass(frozen=True, slots=True)
class Block:
    """Entries of ``x`` and ``y`` may not be seated together at a newly formed table while the hand at
    ``table`` goes on and ``y`` still has an entry in it (RULES.md §8.6)."""

    x: str
    y: str
    table: str

    def between(self, a: str, b: str) -> bool:
        return {a, b} == {self.x, self.y}


@dataclass(frozen=True, slots=True)
class Waiting:
    """A free entry as the table former sees it."""

    entry: str
    player: str
    first: bool  # has not posted its first big blind yet (R198)
    owing: bool = False  # a first-hand entry that already had to take the small blind once: never again


def form_tables(
    queue: Sequence[Waiting], table_size: int, pool_entries: int, blocks: Sequence[Block]
) -> list[list[Waiting]]:
    """Tables formed from the queue, oldest first, skipping an entry whose placement would put two
    entries of one player together, break an active block, or add a second first-hand entry (§8.3).
    Tables are full; a pool smaller than one table plays with all free entries once two are free (one entry
    of each player: his other entries wait for the next hand, R197, or the pool would never deal). An entry
    that no legal table can hold yet keeps its place and waits; it never holds up the entries behind it.

    The first-hand rule is relaxed when it alone stops a table from forming (a new pool, where every
    entry is new, could otherwise never start): the extra new entries then post a live big blind, so every
    entry still posts the big blind on its first hand (R198). Even then a table holds an entry that does
    not owe its big blind (``owing``), to take the small blind (see :func:`seat_order`): a table of owing
    entries only (two new entries that each took the small blind at their first tables, now the only
    free ones) is not formed while an entry of the pool is still playing, since it will come back; only
    when every entry of the pool is waiting, so that none can come back to take it, does one of them take
    the small blind again (it still owes its big blind, and posts it on its next hand)."""
    size = table_size if pool_entries >= table_size else len({w.player for w in queue})
    if size < 2:
        return []
    remaining = list(queue)
    tables = []
    while len(remaining) >= size:
        chosen = _choose(remaining, size, blocks, one_new=True)
        if len(chosen) < size:
            chosen = _choose(remaining, size, blocks, one_new=False)
        if len(chosen) < size and len(remaining) >= pool_entries:
            # Every entry of the pool is here: waiting for an entry that could take the small blind
            # would be waiting forever.
            chosen = _choose(remaining, size, blocks, one_new=False, small_blind=False)
        if len(chosen) < size:
            # No legal table holds the oldest entry now: it waits (§8.3), and the entries behind it go on.
            remaining = remaining[1:]
            continue
        tables.append(chosen)
        taken = {c.entry for c in chosen}
        remaining = [w for w in remaining if w.entry not in taken]
    return tables


def _choose(
    remaining: Sequence[Waiting],
    size: int,
    blocks: Sequence[Block],
    *,
    one_new: bool,
    small_blind: bool = True,
) -> list[Waiting]:
    """The entries of one table, oldest first; ``small_blind``: one of them does not owe its big blind."""
    chosen: list[Waiting] = []
    for w in remaining:
        if any(w.player == c.player for c in chosen):
            continue
        if one_new and w.first and any(c.first for c in chosen):
            continue
        if small_blind and w.owing and len(chosen) == size - 1 and all(c.owing for c in chosen):
            continue  # the last seat goes to an entry that can take the small blind
        if any(b.between(w.player, c.player) for b in blocks for c in chosen):
            continue
        chosen.append(w)
        if len(chosen) == size:
            break
    return chosen


def seat_order(chosen: Sequence[Waiting], since_bb: Mapping[str, int], rng: RandomSource) -> list[Waiting]:
    """Seat 1 is the small blind, seat 2 the big blind, the last seat the button (§8.4).

    The big blind: a first-hand entry if there is one (R198), one that owes its big blind (it had to take
    the small blind at its first table) before a new one; among those candidates (or, with no first-hand
    entry, among all), the entry with the most hands since its last big blind (a first-hand entry: since
    it joined), ties at random (R199). So an entry that owes its big blind gets it on its next hand, and
    when two owing entries meet, the one that is not the big blind posts a live big blind from its seat.

    Every other position at random, except the small blind: another first-hand entry (see
    :func:`form_tables`) is kept out of it when an old entry can take it (it posts a live big blind), and
    an owing entry is never given it again while an entry that does not owe is at the table. Only a table
    of owing entries alone (which :func:`form_tables` forms only when the whole pool is such entries) gives
    one the small blind again; it still owes its big blind."""
    first = [w for w in chosen if w.first]
    candidates = [w for w in first if w.owing] or first or list(chosen)
    top = max(since_bb[w.entry] for w in candidates)
    best = [w for w in candidates if since_bb[w.entry] == top]
    bb = best[rng.randrange(len(best))]
    others = [w for w in chosen if w is not bb]
    for i in range(len(others) - 1, 0, -1):  # Fisher-Yates
        j = rng.randrange(i + 1)
        others[i], others[j] = others[j], others[i]
    # The small blind: the first old entry of the shuffled order, else the first that does not owe.
    swap = next((i for i, w in enumerate(others) if not w.first), None)
    if swap is None:
        swap = next((i for i, w in enumerate(others) if not w.owing), None)
    if swap is not None:
        others[0], others[swap] = others[swap], others[0]
    return [others[0], bb, *others[1:]]


def preflop_unraised(hand: HandState) -> bool:
    """First betting round and nobody has raised yet (the big blind and limps are not raises)."""
    return hand.phase is Phase.BETTING and hand.street == 0 and 0 not in hand.aggressors

"""Rush: a pair dealt in together more often than chance (issue 30, item 2; docs/integrity.md).

In a Rush pool every hand is dealt at a newly formed table, so two entries meet only as often as the
pool's mix brings them together. Two colluders who join and fold in step (to be queued and seated
together) meet far more often. For each pool and each pair of accounts this counts the hands both were
dealt in (``together``) and compares it with what random seating among the players then in the pool
predicts:

- The period is cut into windows (``window``, 1 minute by default: a Rush round or two, so the pool's
  size hardly changes within one; a 10-minute window over a pool that shrank inside it took the few left
  at the end for a pool of the window's average size, and flagged them for meeting). In a window of a
  pool with ``S`` seats dealt in ``T`` hands (``s = S / T`` players a table on average), a player dealt
  ``n_a`` hands there has ``s - 1`` others beside him each hand, drawn from the ``S - n_a`` seats of the
  others; so he is expected beside ``b`` (dealt ``n_b`` hands in that window)
  ``n_a * n_b * (s - 1) / (S - n_a)`` times (averaged over the two directions, at most
  ``min(n_a, n_b)``). The pair's **expected** number is the sum over the windows both played in: two
  players who never play at the same time expect nothing, and a pool of a handful of players at night,
  who meet every hand, expects that.
- The count is a sum of rare, nearly independent events: its chance is taken as Poisson with that mean.
  The **p** of a pair is the exact Poisson tail P(X >= together); ``z = (together - expected) /
  sqrt(expected)`` is reported beside it.
- A pool has many pairs: a pair is **flagged** when ``p`` times the number of pairs of the pool that
  were ever dealt in together (a Bonferroni correction) is at most ``alpha`` (0.001), they were together
  at least ``MIN_TOGETHER`` (5) times, and at least ``MIN_RATIO`` (2) times as often as expected.

Pure: the pools' hands (who was dealt in, when) in, findings out; reading the store is the caller's part
(:meth:`pokerroom.store.integrity.HandTimes.pool_hands`)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from itertools import combinations

__all__ = [
    "ALPHA",
    "MIN_RATIO",
    "MIN_TOGETHER",
    "WINDOW",
    "PoolHand",
    "RushPairFinding",
    "poisson_tail",
    "rush_findings",
]

WINDOW = timedelta(minutes=1)  # a short slice: the pool's size within one is about constant
ALPHA = 0.001  # the chance, over all the pairs of a pool, that an honest pair is flagged
MIN_TOGETHER = 5
MIN_RATIO = 2.0
EVIDENCE = 20  # hands kept as a pair's evidence
_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class PoolHand:
    hand_id: str
    pool_id: str
    started_at: datetime
    players: tuple[int, ...]  # the accounts dealt in (one entry each: two of one player never sit together)


@dataclass(frozen=True)
class RushPairFinding:
    pool_id: str
    a: int  # the lower account id
    b: int
    hands_a: int  # hands each was dealt in this pool in the period
    hands_b: int
    together: int
    expected: float
    z: float
    p: float  # Poisson P(X >= together) given ``expected``
    pairs: int  # the pool's pairs ever dealt in together (the correction's count)
    flagged: bool
    hands: tuple[str, ...]  # the first ``EVIDENCE`` hands they were dealt in together

    @property
    def ratio(self) -> float:
        return self.together / self.expected if self.expected > 0 else math.inf

    def to_dict(self) -> dict[str, object]:
        return {
            "pool": self.pool_id,
            "players": [self.a, self.b],
            "hands_each": [self.hands_a, self.hands_b],
            "together": self.together,
            "expected": round(self.expected, 3),
            "ratio": round(self.ratio, 2) if self.expected > 0 else None,
            "z": round(self.z, 2),
            "p": self.p,
            "pairs_in_pool": self.pairs,
            "flagged": self.flagged,
            "hands": list(self.hands),
        }


def poisson_tail(k: int, mean: float) -> float:
    """P(X >= k) for X Poisson with ``mean``: exact (summed in logarithms, the smaller side)."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    log_mean = math.log(mean)

    def term(i: int) -> float:
        return math.exp(-mean + i * log_mean - math.lgamma(i + 1))

    if k <= mean:  # the head is the smaller sum: 1 - P(X < k)
        return max(0.0, min(1.0, 1.0 - math.fsum(term(i) for i in range(k))))
    total, i = 0.0, k
    while True:
        t = term(i)
        total += t
        if t <= total * 1e-17 or t == 0.0:
            return min(1.0, total)
        i += 1


def rush_findings(
    hands: Iterable[PoolHand],
    *,
    window: timedelta = WINDOW,
    alpha: float = ALPHA,
    min_together: int = MIN_TOGETHER,
    min_ratio: float = MIN_RATIO,
) -> list[RushPairFinding]:
    """One finding per pair of accounts dealt in together at least once in a pool, the flagged first,
    then by p (the least likely first)."""
    if window <= timedelta(0):
        raise ValueError("the window is a positive time")
    width = window.total_seconds()
    # per pool: per window, each player's hands there, and the window's seats and hands
    dealt: dict[str, dict[int, dict[int, int]]] = {}  # pool -> player -> window -> hands
    seats: dict[tuple[str, int], tuple[int, int]] = {}  # (pool, window) -> (seats, hands)
    hands_of: dict[tuple[str, int], int] = {}  # (pool, player) -> hands
    met: dict[str, dict[tuple[int, int], list[str]]] = {}  # pool -> pair -> hands together
    met_n: dict[str, dict[tuple[int, int], int]] = {}
    for h in hands:
        players = sorted(set(h.players))
        if len(players) < 2:
            continue
        w = int((h.started_at - _EPOCH).total_seconds() // width)
        pool = dealt.setdefault(h.pool_id, {})
        for p in players:
            by_window = pool.setdefault(p, {})
            by_window[w] = by_window.get(w, 0) + 1
            hands_of[(h.pool_id, p)] = hands_of.get((h.pool_id, p), 0) + 1
        s, t = seats.get((h.pool_id, w), (0, 0))
        seats[(h.pool_id, w)] = (s + len(players), t + 1)
        pairs = met.setdefault(h.pool_id, {})
        counts = met_n.setdefault(h.pool_id, {})
        for pair in combinations(players, 2):
            counts[pair] = counts.get(pair, 0) + 1
            kept = pairs.setdefault(pair, [])
            if len(kept) < EVIDENCE:
                kept.append(h.hand_id)

    out: list[RushPairFinding] = []
    for pool_id, counts in met_n.items():
        pool = dealt[pool_id]
        tested = len(counts)
        for (a, b), together in counts.items():
            wa, wb = pool[a], pool[b]
            if len(wb) < len(wa):
                wa, wb = wb, wa
            expected = 0.0
            for w, na in wa.items():
                nb = wb.get(w)
                if not nb:
                    continue
                s, t = seats[(pool_id, w)]
                beside = s / t - 1  # others a table, on average, in this window
                e = 0.5 * na * nb * beside * (1 / max(1, s - na) + 1 / max(1, s - nb))
                expected += min(e, na, nb)
            chance = poisson_tail(together, expected)
            z = (together - expected) / math.sqrt(expected) if expected > 0 else 0.0
            flagged = (
                together >= min_together and together >= min_ratio * expected and chance * tested <= alpha
            )
            out.append(
                RushPairFinding(
                    pool_id,
                    a,
                    b,
                    hands_of[(pool_id, a)],
                    hands_of[(pool_id, b)],
                    together,
                    expected,
                    z,
                    chance,
                    tested,
                    flagged,
                    tuple(met[pool_id][(a, b)]),
                )
            )
    out.sort(key=lambda f: (not f.flagged, f.p, -f.together, f.pool_id, f.a, f.b))
    return out

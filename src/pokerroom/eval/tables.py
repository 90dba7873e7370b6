"""Lookup tables of the fast paths, generated at first use (well under a second per rule).

A hand's ranks are summarised by an additive per-card key (a 64-bit integer)::

    bits  0..16  base-5 counts of the ranks deuce..eight   (5**7 = 78,125 values)
    bits 20..33  base-5 counts of the ranks nine..ace      (5**6 = 15,625 values)
    bits 40..55  four 4-bit suit counters (clubs, diamonds, hearts, spades)

so the key of a hand is the sum of its cards' keys. Two small tables turn the two base-5 halves into
a dense index of the hand's rank multiset (``lo_n[low] + hi[high]``: 0..49,204 for seven cards), and
per rule a table maps that index to the best rank over the multiset, assuming suits allow it (no
flush). A flush (a counter >= 5) is looked up by its 13-bit suit mask instead. The per-rule values
come from the reference evaluator applied to one five-card hand per multiset (6,175 of them) and are
extended to six and seven cards by "best of dropping one card"; nothing is copied from elsewhere.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from pokerroom.cards import Card
from pokerroom.eval import reference

__all__ = [
    "card_bits",
    "card_keys",
    "flush_values",
    "four_flush_keys",
    "multiset_index",
    "multiset_values",
]

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

N_LOW = 7  # ranks deuce..eight in the low half, nine..ace in the high half
N_HIGH = 6
HIGH_SHIFT = 20
SUIT_SHIFT = 40
MAX_N = 7


@cache
def card_keys() -> npt.NDArray[np.uint64]:
    """The additive key of each card index (see the module docstring)."""
    keys = np.zeros(52, dtype=np.uint64)
    for i in range(52):
        r, s = i >> 2, i & 3
        k = 5**r if r < N_LOW else 5 ** (r - N_LOW) << HIGH_SHIFT
        keys[i] = k | 1 << (SUIT_SHIFT + 4 * s)
    return keys


@cache
def card_bits() -> npt.NDArray[np.uint64]:
    """``1 << (16 * suit + rank)``: OR-ing them gives the four 13-bit suit masks."""
    return np.array([1 << (16 * (i & 3) + (i >> 2)) for i in range(52)], dtype=np.uint64)


@cache
def _half(nranks: int) -> tuple[npt.NDArray[np.int8], I64, I64]:
    """All count vectors over ``nranks`` ranks (counts 0..4), indexed by their base-5 value; their
    sizes; and each one's position among the vectors of the same size."""
    values = np.arange(5**nranks)
    counts = np.stack([(values // 5**r) % 5 for r in range(nranks)], axis=1).astype(np.int8)
    sizes = counts.sum(axis=1, dtype=np.int64)
    within = np.zeros(len(values), dtype=np.int64)
    for size in range(int(sizes.max()) + 1):
        sel = np.flatnonzero(sizes == size)
        within[sel] = np.arange(len(sel))
    return counts, sizes, within


@cache
def multiset_index(n: int) -> tuple[I32, I32, npt.NDArray[np.int8]]:
    """For hands of ``n`` cards: ``lo`` (by low-half key), ``hi`` (by high-half key) so that
    ``lo[low] + hi[high]`` is the dense index of the rank multiset, and the count vectors (13 ranks)
    in that dense order. ``lo`` is -1 for a low half that cannot occur in ``n`` cards."""
    if not 1 <= n <= MAX_N:
        raise ValueError(n)
    lc, ls, li = _half(N_LOW)
    hc, hs, hi = _half(N_HIGH)
    n_high = np.bincount(hs, minlength=n + 1)
    offsets = np.zeros(n + 2, dtype=np.int64)
    blocks = []
    for j in range(n + 1):
        lows = np.flatnonzero(ls == j)
        highs = np.flatnonzero(hs == n - j)
        offsets[j + 1] = offsets[j] + len(lows) * len(highs)
        block = np.concatenate(
            [np.repeat(lc[lows], len(highs), axis=0), np.tile(hc[highs], (len(lows), 1))], axis=1
        )
        blocks.append(block)
    ok = ls <= n
    lo = np.where(ok, offsets[np.minimum(ls, n)] + li * n_high[np.maximum(n - ls, 0)], -1)
    return lo.astype(np.int32), hi.astype(np.int32), np.concatenate(blocks)


def _dense(n: int, counts: npt.NDArray[np.int8]) -> I64:
    """Dense indices of count vectors of size ``n``."""
    lo, hi, _ = multiset_index(n)
    c = counts.astype(np.int64)
    low_key = c[:, :N_LOW] @ (5 ** np.arange(N_LOW))
    high_key = c[:, N_LOW:] @ (5 ** np.arange(N_HIGH))
    out: I64 = lo[low_key].astype(np.int64) + hi[high_key]
    return out


def _cards_for(counts: npt.NDArray[np.int8]) -> list[Card]:
    """Cards with the given rank counts and suits dealt round-robin: never four of one suit among
    five cards, so no flush or four flush."""
    cards: list[Card] = []
    for rank, n in enumerate(counts.tolist()):
        for _ in range(n):
            cards.append(Card(rank, len(cards) % 4))
    return cards


@cache
def multiset_values(rule: str, n: int) -> I32:
    """Rank of the best unsuited five-card hand of each ``n``-card rank multiset (dense order)."""
    _, _, vectors = multiset_index(n)
    if n == 5:
        return np.array([reference.rank5(rule, _cards_for(v)) for v in vectors], dtype=np.int32)
    smaller = multiset_values(rule, n - 1)
    best = np.zeros(len(vectors), dtype=np.int32)
    for r in range(13):
        has = np.flatnonzero(vectors[:, r] > 0)
        minus = vectors[has].copy()
        minus[:, r] -= 1
        best[has] = np.maximum(best[has], smaller[_dense(n - 1, minus)])
    return best


@cache
def _popcounts() -> I64:
    masks = np.arange(8192)
    return np.array([bin(m).count("1") for m in masks.tolist()], dtype=np.int64)


@cache
def flush_values(rule: str) -> I32:
    """For a 13-bit mask of at least five ranks in one suit: the best five-card rank made of those
    suited cards (a flush or straight flush; the DP keeps the best subset). 0 for fewer bits."""
    pop = _popcounts()
    out = np.zeros(8192, dtype=np.int32)
    for m in np.flatnonzero(pop == 5).tolist():
        out[m] = reference.rank5(rule, [Card(r, 0) for r in range(13) if m >> r & 1])
    for size in range(6, 14):
        masks = np.flatnonzero(pop == size)
        for r in range(13):
            has = masks[(masks >> r) & 1 == 1]
            out[has] = np.maximum(out[has], out[has ^ (1 << r)])
    return out


@cache
def four_flush_keys() -> I32:
    """For a 13-bit mask of exactly four ranks: the four ranks packed high to low (4 bits each)."""
    pop = _popcounts()
    out = np.zeros(8192, dtype=np.int32)
    for m in np.flatnonzero(pop == 4).tolist():
        key = 0
        for r in range(12, -1, -1):
            if m >> r & 1:
                key = key << 4 | r
        out[m] = key
    return out


@cache
def pair_index() -> I32:
    """Index 0..90 of an unordered pair of ranks, looked up by ``13 * r1 + r2`` (either order)."""
    out = np.zeros(169, dtype=np.int32)
    i = 0
    for a in range(13):
        for b in range(a, 13):
            out[13 * a + b] = out[13 * b + a] = i
            i += 1
    return out


@cache
def omaha_values(rule: str, n_board: int) -> I32:
    """For Omaha: the best unsuited rank using both cards of a hole pair and three of the board,
    indexed by ``board_multiset_index * 91 + pair_index`` (``rule`` is "high" or "eight_low")."""
    from itertools import combinations

    _, _, boards = multiset_index(n_board)
    lo5, hi, _ = multiset_index(5)
    ms5 = multiset_values(rule, 5)
    board_ranks = np.array([np.repeat(np.arange(13), v) for v in boards], dtype=np.int64)
    triples = np.array(list(combinations(range(n_board), 3)), dtype=np.int64)
    pairs = np.array([(a, b) for a in range(13) for b in range(a, 13)], dtype=np.int64)
    r = np.arange(13)
    low_part = np.where(r < N_LOW, 5 ** np.minimum(r, N_LOW - 1), 0)
    high_part = np.where(r >= N_LOW, 5 ** np.maximum(r - N_LOW, 0), 0)
    chosen = board_ranks[:, triples]  # boards x triples x 3
    tri_low = low_part[chosen].sum(axis=2)[:, :, None]
    tri_high = high_part[chosen].sum(axis=2)[:, :, None]
    pair_low = low_part[pairs].sum(axis=1)[None, None, :]
    pair_high = high_part[pairs].sum(axis=1)[None, None, :]
    # five equal ranks (a pair plus three of the board, all one rank) cannot occur
    five = (chosen.min(axis=2) == chosen.max(axis=2))[:, :, None] & (
        (pairs[:, 0] == pairs[:, 1])[None, None, :] & (pairs[:, 0][None, None, :] == chosen[:, :, :1])
    )
    low_key = np.where(five, 0, tri_low + pair_low)
    high_key = np.where(five, 0, tri_high + pair_high)
    values = np.where(five, 0, ms5[lo5[low_key] + hi[high_key]])
    best: I32 = values.max(axis=1).astype(np.int32).ravel()
    return best


@cache
def omaha_classes(rule: str, n_board: int) -> tuple[npt.NDArray[np.uint16], I32]:
    """``omaha_values`` compressed: a uint16 class per entry (classes numbered in rank order, so the
    greatest class is the best hand) and the class -> rank decoding table. Halves the memory the
    pair lookups touch."""
    values = omaha_values(rule, n_board)
    decode = np.unique(values).astype(np.int32)
    classes = np.searchsorted(decode, values).astype(np.uint16)
    return classes, decode


@cache
def multiset_index16(n: int) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint16]]:
    """``lo`` and ``hi`` of :func:`multiset_index` in 16 bits (every index is below 49,205; the -1
    entries, which no hand of ``n`` cards reaches, become 0)."""
    lo, hi, _ = multiset_index(n)
    if int(lo.max()) >= 1 << 16 or int(hi.max()) >= 1 << 16:
        raise AssertionError("multiset indices do not fit 16 bits")
    return np.maximum(lo, 0).astype(np.uint16), hi.astype(np.uint16)


@cache
def pooled_classes(rule: str, n: int) -> tuple[npt.NDArray[np.uint16], ...]:
    """The tables of ``n``-card pooled ranking in 16 bits, for work that only compares hands
    (equity): ``lo`` and ``hi`` of :func:`multiset_index` (-1 entries, which no hand reaches, become
    0), and the multiset and flush values replaced by their class: the position of the value among
    all values of both tables, so classes order and tie exactly as the ranks do. Half the memory of
    the 32-bit tables, so more of them stays in the cache."""
    lo, hi = multiset_index16(n)
    ms = multiset_values(rule, n)
    fl = flush_values(rule)
    decode = np.unique(np.concatenate([ms, fl]))
    if len(decode) > 1 << 16:
        raise AssertionError("pooled classes do not fit 16 bits")
    return (
        lo,
        hi,
        np.searchsorted(decode, ms).astype(np.uint16),
        np.searchsorted(decode, fl).astype(np.uint16),
    )

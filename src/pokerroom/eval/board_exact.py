# mypy: ignore-errors
# (numba kernels: the njit dispatchers and numpy scalar types do not type-check usefully)
"""Exact equity of hold'em-style games (best five of two own cards and a five-card board: hold'em,
short deck) over every completion of the board, in one numba call (``pooled_exact``).

Two parts, both exact:

1. Flush-blind: every rank multiset of the ``m`` missing board cards once, weighted by the number of
   boards that have it (the product of C(cards of that rank left, cards of that rank drawn)), each
   player ranked by the rank multiset of his seven cards as if no flush were possible.
2. Flushes: a flush needs at least three board cards of its suit, so at most one suit can make one
   on a given board. The boards are grouped by that suit ``s`` and their exact number of ``s``
   cards; within a group the flush of each player depends only on *which* ``s`` cards are on the
   board (each such set is enumerated), and the other board cards (at most two, never of suit
   ``s``) matter only by their ranks (their rank multisets, weighted as in part 1). For every set
   and multiset the real outcome is added and the flush-blind outcome of part 1 taken back.

Seven cards that hold a flush cannot hold a full house or four of a kind, so a player's real rank is
his flush value whenever he has a flush, his flush-blind rank otherwise. Outcomes are counted as
outright wins per player and n-way ties per player (``ties[i, n]``), in boards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RANK_PART = (1 << 40) - 1  # the rank counters of a key, without the suit counters
LOW_MASK = 0x1FFFF
HIGH_MASK = 0x3FFF
HIGH_SHIFT = 20
SUIT_SHIFT = 40

# C(a, c) for a in 0..4 cards of a rank left and c in 0..5 drawn (0 when c > a)
COMB = np.array([[1, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [1, 2, 1, 0, 0, 0], [1, 3, 3, 1, 0, 0],
                 [1, 4, 6, 4, 1, 0]], dtype=np.int64)  # fmt: skip


@njit(cache=True, nogil=True)
def rank_multisets(avail, m, rank_keys):
    """Every rank multiset of ``m`` cards drawn from ``avail[r]`` cards of each rank: its summed
    rank key and its number of ways (multisets with no way are left out)."""
    total = 1
    for i in range(m):
        total = total * (13 + i) // (i + 1)  # non-decreasing sequences of m ranks: C(12 + m, m)
    out_keys = np.empty(total, dtype=np.int64)
    out_w = np.empty(total, dtype=np.int64)
    n = 0
    idx = np.zeros(m, dtype=np.int64)
    while True:
        w = np.int64(1)
        key = np.int64(0)
        run = 1
        for j in range(m):
            key += rank_keys[idx[j]]
            if j + 1 < m and idx[j + 1] == idx[j]:
                run += 1
            else:
                w *= COMB[avail[idx[j]], run]
                run = 1
        if w > 0:
            out_keys[n] = key
            out_w[n] = w
            n += 1
        j = m - 1
        while j >= 0 and idx[j] == 12:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, m):
            idx[t] = idx[j]
    return out_keys[:n], out_w[:n]


@njit(cache=True, nogil=True)
def pooled_exact(stub, m, k0, b0, own_keys, own_bits, keys, bits, rank_keys, lo, hi, ms, fl, wins, ties):
    """Outright wins and n-way ties of each player over every way to deal the ``m`` (1..5) missing
    board cards from ``stub``, the known board having key ``k0`` and suit bits ``b0``. Adds into
    ``wins`` (p) and ``ties`` (p x p + 1)."""
    p = own_keys.shape[0]
    rank = np.empty(p, dtype=np.int64)
    real = np.empty(p, dtype=np.int64)
    own_rank = np.empty(p, dtype=np.int64)
    for i in range(p):
        own_rank[i] = (own_keys[i] + k0) & RANK_PART
    avail = np.zeros(13, dtype=np.int64)
    present = np.zeros(52, dtype=np.bool_)
    for c in stub:
        avail[c >> 2] += 1
        present[c] = True

    # part 1: flush-blind, by rank multiset of the missing cards
    bkeys, weights = rank_multisets(avail, m, rank_keys)
    for t in range(bkeys.shape[0]):
        bk = bkeys[t]
        w = weights[t]
        best = np.int64(-1)
        n1 = 0
        winner = 0
        for i in range(p):
            key = own_rank[i] + bk
            r = np.int64(ms[lo[key & LOW_MASK] + hi[(key >> HIGH_SHIFT) & HIGH_MASK]])
            rank[i] = r
            if r > best:
                best = r
                n1 = 1
                winner = i
            elif r == best:
                n1 += 1
        if n1 == 1:
            wins[winner] += w
        else:
            for i in range(p):
                if rank[i] == best:
                    ties[i, n1] += w

    # part 2: the boards with three or more cards of a suit some player can make a flush in
    suit_cards = np.empty(13, dtype=np.int64)
    others = np.empty(13, dtype=np.int64)
    own_suit = np.empty(p, dtype=np.int64)
    for s in range(4):
        ns = 0
        for c in stub:
            if (c & 3) == s:
                suit_cards[ns] = c
                ns += 1
        on_board = (k0 >> (SUIT_SHIFT + 4 * s)) & 15
        most = 0
        for i in range(p):
            own_suit[i] = (own_keys[i] >> (SUIT_SHIFT + 4 * s)) & 15
            if own_suit[i] > most:
                most = own_suit[i]
        for r in range(13):  # the other board cards are never of suit s
            others[r] = avail[r] - (1 if present[4 * r + s] else 0)
        for k in range(0, min(m, ns) + 1):
            if on_board + k < 3 or most + on_board + k < 5:
                continue
            okeys, ow = rank_multisets(others, m - k, rank_keys)
            if okeys.shape[0] == 0:
                continue
            idx = np.arange(k)
            while True:
                sk = k0
                sb = b0
                for j in range(k):
                    sk += keys[suit_cards[idx[j]]]
                    sb |= bits[suit_cards[idx[j]]]
                drawn_rank = (sk - k0) & RANK_PART  # the rank counters of the suit's cards drawn
                for i in range(p):
                    if own_suit[i] + on_board + k >= 5:
                        real[i] = np.int64(fl[((own_bits[i] | sb) >> (16 * s)) & 0x1FFF])
                    else:
                        real[i] = -1
                for t in range(okeys.shape[0]):
                    bk = drawn_rank + okeys[t]
                    w = ow[t]
                    best = np.int64(-1)
                    n1 = 0
                    winner = 0
                    best_real = np.int64(-1)
                    n_real = 0
                    winner_real = 0
                    for i in range(p):
                        key = own_rank[i] + bk
                        r = np.int64(ms[lo[key & LOW_MASK] + hi[(key >> HIGH_SHIFT) & HIGH_MASK]])
                        rank[i] = r
                        if r > best:
                            best = r
                            n1 = 1
                            winner = i
                        elif r == best:
                            n1 += 1
                        if real[i] >= 0:
                            r = real[i]
                        real_rank = r
                        if real_rank > best_real:
                            best_real = real_rank
                            n_real = 1
                            winner_real = i
                        elif real_rank == best_real:
                            n_real += 1
                    # take back the flush-blind outcome, add the real one
                    if n1 == 1:
                        wins[winner] -= w
                    else:
                        for i in range(p):
                            if rank[i] == best:
                                ties[i, n1] -= w
                    if n_real == 1:
                        wins[winner_real] += w
                    else:
                        for i in range(p):
                            rr = real[i] if real[i] >= 0 else rank[i]
                            if rr == best_real:
                                ties[i, n_real] += w
                # next k-subset of the suit's cards
                j = k - 1
                while j >= 0 and idx[j] == ns - k + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for u in range(j + 1, k):
                    idx[u] = idx[u - 1] + 1

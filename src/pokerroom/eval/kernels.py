# mypy: ignore-errors
# (numba kernels: the njit dispatchers and numpy scalar types do not type-check usefully)
"""numba kernels of the fast paths (imported lazily: ``import pokerroom.eval`` stays cheap).

All kernels take plain numpy tables from :mod:`pokerroom.eval.tables` and are compiled once per
machine (``cache=True``). Card keys are int64 (see ``tables``), so every shift stays integral.

The batch kernels validate each row as they go (``validate``): a row's ``valid`` bits (one per card,
bit 62 for an index >= 52) must not overlap (their sum equals their OR; in ``pooled5`` and
``pooled7``, their OR has one bit per card) and must avoid ``bad`` (bit 62 and the ranks missing
from a short deck); a kernel returns the index of the first bad row, or -1
(no per-row status array: one store less per row). The per-card tables are padded to 256 entries,
so a bad uint8 index never reads outside them. ``pooled5`` and ``pooled7`` take the 16-bit ``lo`` /
``hi`` index tables (``tables.multiset_index16``): half the cache lines of the 32-bit ones.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LOW_MASK = 0x1FFFF
HIGH_MASK = 0x3FFF
HIGH_SHIFT = 20
SUIT_SHIFT = 40

# 5-card evaluation modes.
MODE_FLUSH = 0  # rank multiset, or the suit mask when all five share a suit (high, 2-7, short decks)
MODE_RANKS = 1  # rank multiset only (A-5, 8-or-better)
MODE_SOKO = 2  # as MODE_FLUSH, plus four flushes


@njit(cache=True, nogil=True, inline="always")
def _suit_of_flush(key: int) -> int:
    """Suit with a counter of at least 5 (at most one for 7 cards or fewer), or -1."""
    t = ((key >> SUIT_SHIFT) + 0x3333) & 0x8888
    if t == 0:
        return -1
    if t & 0x8:
        return 0
    if t & 0x80:
        return 1
    if t & 0x800:
        return 2
    return 3


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    """Set bits of a non-negative int64 (LLVM turns this loop into one ``popcnt`` instruction)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def pooled(cards, keys, bits, valid, bad, validate, lo, hi, ms, fl, use_flush, out):
    """Best five of k <= 7 cards by rank multiset (and suit mask when a suit has five)."""
    n, k = cards.shape
    first = -1
    for i in range(n):
        key = np.int64(0)
        for j in range(k):
            key += keys[cards[i, j]]
        if validate:
            seen = np.int64(0)
            total = np.int64(0)
            for j in range(k):
                v = valid[cards[i, j]]
                seen |= v
                total += v
            if ((total != seen) | ((seen & bad) != 0)) and first < 0:
                first = i
        if use_flush:
            s = _suit_of_flush(key)
            if s >= 0:
                b = np.int64(0)
                for j in range(k):
                    b |= bits[cards[i, j]]
                out[i] = fl[(b >> (16 * s)) & 0x1FFF]
                continue
        out[i] = ms[lo[key & LOW_MASK] + hi[(key >> HIGH_SHIFT) & HIGH_MASK]]
    return first


@njit(cache=True, nogil=True)
def pooled5(cards, keys, bits, valid, bad, validate, lo, hi, ms, fl, out):
    """``pooled`` unrolled for five cards with flushes: a flush is five cards of one suit, told by
    the card indices themselves (no suit counters)."""
    n = cards.shape[0]
    first = -1
    for i in range(n):
        c0, c1, c2, c3, c4 = cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4]
        if validate:
            seen = valid[c0] | valid[c1] | valid[c2] | valid[c3] | valid[c4]
            if ((_popcount(seen) != 5) | ((seen & bad) != 0)) and first < 0:
                first = i
        if ((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3:
            key = keys[c0] + keys[c1] + keys[c2] + keys[c3] + keys[c4]
            out[i] = ms[np.int64(lo[key & LOW_MASK]) + np.int64(hi[(key >> HIGH_SHIFT) & HIGH_MASK])]
        else:
            b = bits[c0] | bits[c1] | bits[c2] | bits[c3] | bits[c4]
            out[i] = fl[(b >> (16 * (c0 & 3))) & 0x1FFF]
    return first


@njit(cache=True, nogil=True)
def pooled7(cards, keys, bits, valid, bad, validate, lo, hi, ms, fl, out):
    """``pooled`` unrolled for seven cards with flushes (hold'em, stud)."""
    n = cards.shape[0]
    first = -1
    for i in range(n):
        c0, c1, c2, c3, c4, c5, c6 = (
            cards[i, 0],
            cards[i, 1],
            cards[i, 2],
            cards[i, 3],
            cards[i, 4],
            cards[i, 5],
            cards[i, 6],
        )
        if validate:
            seen = valid[c0] | valid[c1] | valid[c2] | valid[c3] | valid[c4] | valid[c5] | valid[c6]
            if ((_popcount(seen) != 7) | ((seen & bad) != 0)) and first < 0:
                first = i
        key = keys[c0] + keys[c1] + keys[c2] + keys[c3] + keys[c4] + keys[c5] + keys[c6]
        t = ((key >> SUIT_SHIFT) + 0x3333) & 0x8888
        if t == 0:
            out[i] = ms[np.int64(lo[key & LOW_MASK]) + np.int64(hi[(key >> HIGH_SHIFT) & HIGH_MASK])]
        else:
            s = _suit_of_flush(key)
            b = bits[c0] | bits[c1] | bits[c2] | bits[c3] | bits[c4] | bits[c5] | bits[c6]
            out[i] = fl[(b >> (16 * s)) & 0x1FFF]
    return first


@njit(cache=True, nogil=True, inline="always")
def eval5(keys, bits, lo5, hi, ms5, fl, ff4, mode, c0, c1, c2, c3, c4):
    """One five-card combination under a mode (see the MODE_* constants)."""
    key = keys[c0] + keys[c1] + keys[c2] + keys[c3] + keys[c4]
    v = ms5[lo5[key & LOW_MASK] + hi[(key >> HIGH_SHIFT) & HIGH_MASK]]
    if mode == MODE_RANKS:
        return v
    counts = key >> SUIT_SHIFT
    for s in range(4):
        cnt = (counts >> (4 * s)) & 15
        if cnt >= 4:
            b = bits[c0] | bits[c1] | bits[c2] | bits[c3] | bits[c4]
            m = (b >> (16 * s)) & 0x1FFF
            if cnt == 5:
                return fl[m]
            if mode == MODE_SOKO:
                fifth = 0
                for c in (c0, c1, c2, c3, c4):
                    if (np.int64(c) & 3) != s:
                        fifth = np.int64(c) >> 2
                ffv = (np.int64(4) << 20) | (np.int64(ff4[m]) << 4) | fifth
                if ffv > v:
                    v = ffv
            return v
    return v


@njit(cache=True, nogil=True)
def combos(cards, subsets, keys, bits, valid, bad, validate, lo5, hi, ms5, fl, ff4, mode, out):
    """Best over the given 5-card subsets (column indices) of each row."""
    n, k = cards.shape
    m = subsets.shape[0]
    first = -1
    for i in range(n):
        if validate:
            seen = np.int64(0)
            total = np.int64(0)
            for j in range(k):
                v = valid[cards[i, j]]
                seen |= v
                total += v
            if ((total != seen) | ((seen & bad) != 0)) and first < 0:
                first = i
        best = -1
        for t in range(m):
            v = eval5(
                keys,
                bits,
                lo5,
                hi,
                ms5,
                fl,
                ff4,
                mode,
                cards[i, subsets[t, 0]],
                cards[i, subsets[t, 1]],
                cards[i, subsets[t, 2]],
                cards[i, subsets[t, 3]],
                cards[i, subsets[t, 4]],
            )
            if v > best:
                best = v
        out[i] = best
    return first


@njit(cache=True, nogil=True, inline="always")
def badugi_one(c0, c1, c2, c3):
    """Badugi rank of four cards: the best subset of distinct suits and ranks (ace low)."""
    cs = (np.int64(c0), np.int64(c1), np.int64(c2), np.int64(c3))
    best = 0
    for sub in range(1, 16):
        size = 0
        suits = 0
        ranks = 0
        ok = True
        for j in range(4):
            if sub >> j & 1:
                c = cs[j]
                low = 0 if (c >> 2) == 12 else (c >> 2) + 1
                if suits >> (c & 3) & 1 or ranks >> low & 1:
                    ok = False
                    break
                suits |= 1 << (c & 3)
                ranks |= 1 << low
                size += 1
        if not ok:
            continue
        v = size
        placed = 0
        for r in range(12, -1, -1):
            if ranks >> r & 1:
                v = (v << 4) | (12 - r)
                placed += 1
        for _ in range(5 - placed):
            v = v << 4
        if v > best:
            best = v
    return best


@njit(cache=True, nogil=True)
def badugi(cards, valid, bad, validate, out):
    first = -1
    for i in range(cards.shape[0]):
        if validate:
            v0, v1, v2, v3 = valid[cards[i, 0]], valid[cards[i, 1]], valid[cards[i, 2]], valid[cards[i, 3]]
            seen = v0 | v1 | v2 | v3
            if ((v0 + v1 + v2 + v3 != seen) | ((seen & bad) != 0)) and first < 0:
                first = i
        out[i] = badugi_one(cards[i, 0] & 63, cards[i, 1] & 63, cards[i, 2] & 63, cards[i, 3] & 63)
    return first


@njit(cache=True, nogil=True)
def omaha(cards, nh, keys, bits, valid, bad, validate, blo, hi, om, decode, pair_index, fl, eight, out):
    """Omaha ranks of rows ``nh`` hole cards + board (written inline: no per-row calls with arrays)."""
    n, k = cards.shape
    suited = np.empty(5, dtype=np.int64)
    first = -1
    for i in range(n):
        if validate:
            seen = np.int64(0)
            total = np.int64(0)
            for j in range(k):
                v = valid[cards[i, j]]
                seen |= v
                total += v
            if ((total != seen) | ((seen & bad) != 0)) and first < 0:
                first = i
        bkey = np.int64(0)
        bb = np.int64(0)
        for j in range(nh, k):
            bkey += keys[cards[i, j]]
            bb |= bits[cards[i, j]]
        row = np.int64(blo[bkey & LOW_MASK] + hi[(bkey >> HIGH_SHIFT) & HIGH_MASK]) * 91
        cls = 0
        for a in range(nh - 1):
            ra = np.int64(cards[i, a]) >> 2
            for b in range(a + 1, nh):
                v = om[row + pair_index[ra * 13 + (np.int64(cards[i, b]) >> 2)]]
                if v > cls:
                    cls = v
        best = decode[cls]
        if not eight:
            # at most one suit has three or more of the (at most five) board cards
            counts = bkey >> SUIT_SHIFT
            fs = -1
            for s in range(4):
                if ((counts >> (4 * s)) & 15) >= 3:
                    fs = s
            if fs >= 0:
                bm = (bb >> (16 * fs)) & 0x1FFF
                ns = 0
                for x in range(13):
                    if bm >> x & 1:
                        suited[ns] = np.int64(1) << x
                        ns += 1
                for a in range(nh - 1):
                    ca = np.int64(cards[i, a])
                    if (ca & 3) != fs:
                        continue
                    for b in range(a + 1, nh):
                        cb = np.int64(cards[i, b])
                        if (cb & 3) != fs:
                            continue
                        pm = (np.int64(1) << (ca >> 2)) | (np.int64(1) << (cb >> 2))
                        for x in range(ns - 2):
                            for y in range(x + 1, ns - 1):
                                for z in range(y + 1, ns):
                                    v = fl[pm | suited[x] | suited[y] | suited[z]]
                                    if v > best:
                                        best = v
        out[i] = best
    return first


@njit(cache=True, nogil=True)
def count_seven(keys, bits, lo, hi, ms, fl):
    """Category counts (by ``rank >> 20``) over all 133,784,560 seven-card hands, enumerated with
    incremental key sums."""
    counts = np.zeros(16, dtype=np.int64)
    for a in range(46):
        ka, ba = keys[a], bits[a]
        for b in range(a + 1, 47):
            kb, bb = ka + keys[b], ba | bits[b]
            for c in range(b + 1, 48):
                kc, bc = kb + keys[c], bb | bits[c]
                for d in range(c + 1, 49):
                    kd, bd = kc + keys[d], bc | bits[d]
                    for e in range(d + 1, 50):
                        ke, be = kd + keys[e], bd | bits[e]
                        for f in range(e + 1, 51):
                            kf, bf = ke + keys[f], be | bits[f]
                            for g in range(f + 1, 52):
                                key = kf + keys[g]
                                s = _suit_of_flush(key)
                                if s < 0:
                                    v = ms[lo[key & LOW_MASK] + hi[(key >> HIGH_SHIFT) & HIGH_MASK]]
                                else:
                                    v = fl[((bf | bits[g]) >> (16 * s)) & 0x1FFF]
                                counts[v >> 20] += 1
    return counts


@njit(cache=True, nogil=True)
def all_combinations(items: np.ndarray, k: int) -> np.ndarray:
    """Every k-subset of ``items`` (in lexicographic order of positions), one per row."""
    n = items.shape[0]
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    out = np.empty((total, k), dtype=items.dtype)
    idx = np.arange(k)
    for row in range(total):
        for j in range(k):
            out[row, j] = items[idx[j]]
        j = k - 1
        while j >= 0 and idx[j] == n - k + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[t - 1] + 1
    return out

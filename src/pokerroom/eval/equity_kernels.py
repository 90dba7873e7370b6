# mypy: ignore-errors
# (numba kernels: the njit dispatchers and numpy scalar types do not type-check usefully)
"""numba kernels of the equity calculator.

Board games (every hand known, only board cards missing: hold'em, short deck, Omaha, Omaha hi/lo):
exact Omaha runs go through the rank multisets of the missing cards (``omaha_multisets``: each
multiset once, weighted by how many boards have it, ranked flush-blind) plus the boards on which a
flush is possible (``omaha_flush_corrections``: real outcome added, flush-blind outcome taken back);
exact hold'em and short deck are :mod:`pokerroom.eval.board_exact`. Monte Carlo draws boards
(``board_games``).

``run``: the general deal loop (stud, razz, stud hi/lo, draw games, badugi). A deal fills the missing
cards of the board (group 0) and of each player (group i + 1). Exact runs walk the combinations of the
missing cards from the stub, each combined with every way (``patterns``) to hand them to the groups.

Monte Carlo draws the missing cards with a partial Fisher-Yates shuffle driven by xorshift64* with
unbiased bounded draws (numpy's generator inside numba costs ~20 ns a draw, more than an
evaluation), seeded by the caller. Pot shares are counted in integer units (``POT`` per deal,
divisible by 2 x 1..10 players), so halves and quarters are exact.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerroom.eval.kernels import _suit_of_flush, all_combinations, badugi_one, eval5

POT = 5040  # lcm(1..10) * 2

MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def _xorshift(x):
    """One step of xorshift64* (``x`` is a non-zero uint64 state); returns (state, 32 random bits)."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x, (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)


@njit(cache=True, nogil=True, inline="always")
def _below(x, n):
    """A uniform integer in [0, n) (Lemire's multiply-shift with rejection: no modulo bias)."""
    un = np.uint64(n)
    x, r = _xorshift(x)
    m = r * un
    low = m & MASK32
    if low < un:
        threshold = ((MASK32 + np.uint64(1)) - un) % un
        while low < threshold:
            x, r = _xorshift(x)
            m = r * un
            low = m & MASK32
    return x, np.int64(m >> np.uint64(32))


def seed_state(seed: int) -> np.uint64:
    """A non-zero xorshift state from any integer seed (splitmix64 finaliser)."""
    z = (seed + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return np.uint64((z ^ (z >> 31)) or 1)


KIND_POOLED = 0
KIND_SOKO = 1
KIND_BADUGI = 2


@njit(cache=True, nogil=True)
def run(
    exact, start, count, patterns, deck, samples, seed,
    hands, hs, missing_own, board, missing_board,
    keys, bits, kinds, flushes, lo, lo_off, hi, ms, ms_off, fl, fl_off, ff4, has_low, win, tie, share,
):  # fmt: skip
    """Accumulate win/tie counts and share units per player over ``count`` combinations starting at
    combination ``start`` (exact) or over ``samples`` random deals (Monte Carlo). Returns deals.

    The high ranking (index 0) and the low one (index 1, with ``has_low``) are described by
    ``kinds``/``flushes`` and by offsets into the concatenated ``lo``/``ms``/``fl`` tables (choosing
    between whole arrays inside the loop would cost reference counting on every deal)."""
    p, width = hands.shape
    bs = board.shape[0]
    m = start.shape[0]
    d = deck.shape[0]
    q = patterns.shape[0]
    rank1 = np.empty(p, dtype=np.int64)
    rank2 = np.empty(p, dtype=np.int64)
    fill = np.empty(p + 1, dtype=np.int64)
    drawn = np.empty(m, dtype=np.int64)
    idx = start.copy()
    stub = deck.copy()
    rng_state = seed
    n_deals = 0
    total = count if exact else samples
    for _ in range(total):
        for pat in range(q if exact else 1):
            if exact:
                for t in range(m):
                    drawn[t] = deck[idx[t]]
            else:
                for t in range(m):
                    rng_state, j = _below(rng_state, d - t)
                    j += t
                    tmp = stub[t]
                    stub[t] = stub[j]
                    stub[j] = tmp
                    drawn[t] = stub[t]
            # hand the drawn cards to the groups
            fill[0] = bs - missing_board
            for i in range(p):
                fill[i + 1] = hs - missing_own[i]
            for t in range(m):
                g = patterns[pat, t]
                if g == 0:
                    board[fill[0]] = drawn[t]
                else:
                    hands[g - 1, fill[g]] = drawn[t]
                fill[g] += 1
            for i in range(p):
                for j in range(bs):
                    hands[i, hs + j] = board[j]
            best1 = np.int64(-1)
            best2 = np.int64(0)
            for half in range(2 if has_low else 1):
                kind = kinds[half]
                flush = flushes[half]
                lo0 = lo_off[half]
                ms0 = ms_off[half]
                fl0 = fl_off[half]
                best = np.int64(-1) if half == 0 else np.int64(0)
                for i in range(p):
                    if kind == KIND_POOLED:
                        key = np.int64(0)
                        for j in range(width):
                            key += keys[hands[i, j]]
                        s = _suit_of_flush(key) if flush else -1
                        if s < 0:
                            r = np.int64(ms[ms0 + lo[lo0 + (key & 0x1FFFF)] + hi[(key >> 20) & 0x3FFF]])
                        else:
                            b = np.int64(0)
                            for j in range(width):
                                b |= bits[hands[i, j]]
                            r = np.int64(fl[fl0 + ((b >> (16 * s)) & 0x1FFF)])
                    elif kind == KIND_BADUGI:
                        r = np.int64(badugi_one(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3]))
                    else:  # SOKO: five cards (tables of this half only; SOKO has no low half)
                        r = np.int64(eval5(keys, bits, lo, hi, ms, fl, ff4, 2, hands[i, 0], hands[i, 1],
                                           hands[i, 2], hands[i, 3], hands[i, 4]))  # fmt: skip
                    if half == 0:
                        rank1[i] = r
                    else:
                        rank2[i] = r
                    if r > best:
                        best = r
                if half == 0:
                    best1 = best
                else:
                    best2 = best
            n1 = 0
            n2 = 0
            for i in range(p):
                if rank1[i] == best1:
                    n1 += 1
                if has_low and best2 > 0 and rank2[i] == best2:
                    n2 += 1
            for i in range(p):
                sh = 0
                if n2 > 0:
                    if rank1[i] == best1:
                        sh += POT // 2 // n1
                    if rank2[i] == best2:
                        sh += POT // 2 // n2
                elif rank1[i] == best1:
                    sh = POT // n1
                share[i] += sh
                if sh == POT:
                    win[i] += 1
                elif sh > 0:
                    tie[i] += 1
            n_deals += 1
        if exact:
            j = m - 1
            while j >= 0 and idx[j] == d - m + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for t in range(j + 1, m):
                idx[t] = idx[t - 1] + 1
    return n_deals


@njit(cache=True, nogil=True)
def board_games(
    count, stub, seed, board_known, m,
    own_keys, own_bits, pair_rows, n_pairs, suited_pairs, n_suited,
    keys, bits, omaha, lo, hi, ms, fl, om_hi, dec_hi, om_lo, dec_lo, has_low, win, tie, share,
):  # fmt: skip
    """Board games where every hand is known and ``m`` board cards are missing (hold'em, short deck,
    Omaha, Omaha hi/lo): ``count`` random boards (Monte Carlo), or the one board when ``m`` is 0.
    (Exact enumeration with missing board cards is ``board_exact.pooled_exact`` and
    ``omaha_multisets`` with its flush corrections.)

    Pooled rules use ``own_keys``/``own_bits`` per player. Omaha: ``pair_rows[i, :n_pairs[i]]`` are
    the pair-table columns of player i's hole pairs, ``suited_pairs[i, :n_suited[i]]`` the suit
    masks (``card_bits`` OR-ed) of its suited pairs. (Everything is written inline: passing arrays
    to helper functions in the hot loop costs reference counting on every call.)
    """
    p = own_keys.shape[0]
    d = stub.shape[0]
    k0 = np.int64(0)
    b0 = np.int64(0)
    for j in range(board_known.shape[0]):
        k0 += keys[board_known[j]]
        b0 |= bits[board_known[j]]
    rank1 = np.empty(p, dtype=np.int64)
    rank2 = np.zeros(p, dtype=np.int64)
    suited = np.empty(5, dtype=np.int64)
    deck = stub.copy()
    wins = np.zeros(p, dtype=np.int64)
    ties = np.zeros((p, p + 1), dtype=np.int64)
    rng_state = seed
    for _ in range(count):
        bk = k0
        bb = b0
        for t in range(m):
            rng_state, j = _below(rng_state, d - t)
            j += t
            tmp = deck[t]
            deck[t] = deck[j]
            deck[j] = tmp
            bk += keys[deck[t]]
            bb |= bits[deck[t]]
        best1 = np.int64(-1)
        best2 = np.int64(0)
        n1 = 0
        n2 = 0
        winner = 0
        if omaha:
            row = np.int64(lo[bk & 0x1FFFF] + hi[(bk >> 20) & 0x3FFF]) * 91
            counts = bk >> 40
            for i in range(p):
                c = 0
                for t in range(n_pairs[i]):
                    v = om_hi[row + pair_rows[i, t]]
                    if v > c:
                        c = v
                r = np.int64(dec_hi[c])
                for t in range(n_suited[i]):
                    sp = suited_pairs[i, t]
                    s = 0
                    while (sp >> (16 * s)) & 0x1FFF == 0:
                        s += 1
                    if ((counts >> (4 * s)) & 15) < 3:
                        continue
                    bm = (bb >> (16 * s)) & 0x1FFF
                    pm = (sp >> (16 * s)) & 0x1FFF
                    ns = 0
                    for x in range(13):
                        if bm >> x & 1:
                            suited[ns] = np.int64(1) << x
                            ns += 1
                    for x in range(ns - 2):
                        for y in range(x + 1, ns - 1):
                            for z in range(y + 1, ns):
                                v = fl[pm | suited[x] | suited[y] | suited[z]]
                                if v > r:
                                    r = v
                rank1[i] = r
                if r > best1:
                    best1 = r
                    n1 = 1
                    winner = i
                elif r == best1:
                    n1 += 1
                if has_low:
                    c = 0
                    for t in range(n_pairs[i]):
                        v = om_lo[row + pair_rows[i, t]]
                        if v > c:
                            c = v
                    r2 = np.int64(dec_lo[c])
                    rank2[i] = r2
                    if r2 > best2:
                        best2 = r2
                        n2 = 1
                    elif r2 == best2:
                        n2 += 1
        else:
            for i in range(p):
                key = own_keys[i] + bk
                s = _suit_of_flush(key)
                if s < 0:
                    r = np.int64(ms[lo[key & 0x1FFFF] + hi[(key >> 20) & 0x3FFF]])
                else:
                    r = np.int64(fl[((own_bits[i] | bb) >> (16 * s)) & 0x1FFF])
                rank1[i] = r
                if r > best1:
                    best1 = r
                    n1 = 1
                    winner = i
                elif r == best1:
                    n1 += 1
        if not has_low:  # count outright wins and n-way ties; shares are settled after the loop
            if n1 == 1:
                wins[winner] += 1
            else:
                for i in range(p):
                    if rank1[i] == best1:
                        ties[i, n1] += 1
            continue
        if best2 == 0:
            n2 = 0
        for i in range(p):
            sh = 0
            if n2 > 0:
                if rank1[i] == best1:
                    sh += POT // 2 // n1
                if rank2[i] == best2:
                    sh += POT // 2 // n2
            elif rank1[i] == best1:
                sh = POT // n1
            if sh:
                share[i] += sh
                if sh == POT:
                    win[i] += 1
                else:
                    tie[i] += 1
    for i in range(p):
        win[i] += wins[i]
        share[i] += wins[i] * POT
        for n in range(2, p + 1):
            tie[i] += ties[i, n]
            share[i] += ties[i, n] * (POT // n)
    return count


@njit(cache=True, nogil=True)
def omaha_multisets(
    board_keys, weights, pair_rows, n_pairs, blo, hi, om_hi, dec_hi, om_lo, dec_lo, has_low,
    win, tie, share,
):  # fmt: skip
    """Exact Omaha enumeration, part 1: every rank multiset of the complete board, weighted by the
    number of boards with it, each hand ranked flush-blind from the pair x board tables."""
    p = n_pairs.shape[0]
    rank1 = np.empty(p, dtype=np.int64)
    rank2 = np.zeros(p, dtype=np.int64)
    for t in range(board_keys.shape[0]):
        bk = board_keys[t]
        w = weights[t]
        row = np.int64(blo[bk & 0x1FFFF] + hi[(bk >> 20) & 0x3FFF]) * 91
        best1 = np.int64(-1)
        best2 = np.int64(0)
        n1 = 0
        n2 = 0
        for i in range(p):
            c = 0
            for u in range(n_pairs[i]):
                v = om_hi[row + pair_rows[i, u]]
                if v > c:
                    c = v
            r = np.int64(dec_hi[c])
            rank1[i] = r
            if r > best1:
                best1 = r
                n1 = 1
            elif r == best1:
                n1 += 1
            if has_low:
                c = 0
                for u in range(n_pairs[i]):
                    v = om_lo[row + pair_rows[i, u]]
                    if v > c:
                        c = v
                r2 = np.int64(dec_lo[c])
                rank2[i] = r2
                if r2 > best2:
                    best2 = r2
                    n2 = 1
                elif r2 == best2:
                    n2 += 1
        if best2 == 0:
            n2 = 0
        for i in range(p):
            sh = 0
            if n2 > 0:
                if rank1[i] == best1:
                    sh += POT // 2 // n1
                if rank2[i] == best2:
                    sh += POT // 2 // n2
            elif rank1[i] == best1:
                sh = POT // n1
            if sh:
                share[i] += sh * w
                if sh == POT:
                    win[i] += w
                else:
                    tie[i] += w


@njit(cache=True, nogil=True)
def omaha_flush_corrections(
    comps, suit_cards, suit_n, k0, b0, pair_rows, n_pairs, suited_pairs, n_suited, keys, bits,
    blo, hi, om_hi, dec_hi, om_lo, dec_lo, fl, has_low, win, tie, share,
):  # fmt: skip
    """Part 2: every board whose suit composition lets a hand use a flush (two suited hole cards and
    three board cards of that suit): its real outcome is added and the flush-blind one taken back."""
    p = n_pairs.shape[0]
    rank1 = np.empty(p, dtype=np.int64)
    rank2 = np.zeros(p, dtype=np.int64)
    suited = np.empty(5, dtype=np.int64)
    for q in range(comps.shape[0]):
        c0 = all_combinations(suit_cards[0, : suit_n[0]], comps[q, 0])
        c1 = all_combinations(suit_cards[1, : suit_n[1]], comps[q, 1])
        c2 = all_combinations(suit_cards[2, : suit_n[2]], comps[q, 2])
        c3 = all_combinations(suit_cards[3, : suit_n[3]], comps[q, 3])
        for a in range(c0.shape[0]):
            ka = k0
            ba = b0
            for x in range(c0.shape[1]):
                ka += keys[c0[a, x]]
                ba |= bits[c0[a, x]]
            for b in range(c1.shape[0]):
                kb = ka
                bb1 = ba
                for x in range(c1.shape[1]):
                    kb += keys[c1[b, x]]
                    bb1 |= bits[c1[b, x]]
                for c in range(c2.shape[0]):
                    kc = kb
                    bc = bb1
                    for x in range(c2.shape[1]):
                        kc += keys[c2[c, x]]
                        bc |= bits[c2[c, x]]
                    for d in range(c3.shape[0]):
                        bk = kc
                        bb = bc
                        for x in range(c3.shape[1]):
                            bk += keys[c3[d, x]]
                            bb |= bits[c3[d, x]]
                        row = np.int64(blo[bk & 0x1FFFF] + hi[(bk >> 20) & 0x3FFF]) * 91
                        counts = bk >> 40
                        for sign in (1, -1):
                            best1 = np.int64(-1)
                            best2 = np.int64(0)
                            n1 = 0
                            n2 = 0
                            for i in range(p):
                                cl = 0
                                for u in range(n_pairs[i]):
                                    v = om_hi[row + pair_rows[i, u]]
                                    if v > cl:
                                        cl = v
                                r = np.int64(dec_hi[cl])
                                if sign == 1:
                                    for u in range(n_suited[i]):
                                        sp = suited_pairs[i, u]
                                        s = 0
                                        while (sp >> (16 * s)) & 0x1FFF == 0:
                                            s += 1
                                        if ((counts >> (4 * s)) & 15) < 3:
                                            continue
                                        bm = (bb >> (16 * s)) & 0x1FFF
                                        pm = (sp >> (16 * s)) & 0x1FFF
                                        ns = 0
                                        for x in range(13):
                                            if bm >> x & 1:
                                                suited[ns] = np.int64(1) << x
                                                ns += 1
                                        for x in range(ns - 2):
                                            for y in range(x + 1, ns - 1):
                                                for z in range(y + 1, ns):
                                                    v2 = fl[pm | suited[x] | suited[y] | suited[z]]
                                                    if v2 > r:
                                                        r = v2
                                rank1[i] = r
                                if r > best1:
                                    best1 = r
                                    n1 = 1
                                elif r == best1:
                                    n1 += 1
                                if has_low:
                                    cl = 0
                                    for u in range(n_pairs[i]):
                                        v = om_lo[row + pair_rows[i, u]]
                                        if v > cl:
                                            cl = v
                                    r2 = np.int64(dec_lo[cl])
                                    rank2[i] = r2
                                    if r2 > best2:
                                        best2 = r2
                                        n2 = 1
                                    elif r2 == best2:
                                        n2 += 1
                            if best2 == 0:
                                n2 = 0
                            for i in range(p):
                                sh = 0
                                if n2 > 0:
                                    if rank1[i] == best1:
                                        sh += POT // 2 // n1
                                    if rank2[i] == best2:
                                        sh += POT // 2 // n2
                                elif rank1[i] == best1:
                                    sh = POT // n1
                                if sh:
                                    share[i] += sh * sign
                                    if sh == POT:
                                        win[i] += sign
                                    else:
                                        tie[i] += sign

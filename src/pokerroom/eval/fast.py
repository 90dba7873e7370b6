"""The single-hand fast path in plain Python: list lookups into the numpy-built tables.

No numba here, so the first ``evaluate()`` costs only the table generation (a few hundredths of a
second per rule), never a JIT compilation. :func:`ranker` gives the quickest one-call-per-hand
function for trusted card indices (the benchmark's "one Python call per hand").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

from pokerroom.eval import tables
from pokerroom.eval.rules import rule_spec

__all__ = ["rank5_function", "ranker"]

Ranker = Callable[[Sequence[int]], int]

_RANKS_ONLY = frozenset({"ace5_low", "eight_low"})
_BASE = {"omaha_high": "high", "omaha_eight_low": "eight_low"}


@cache
def _common() -> tuple[list[int], list[int]]:
    return [int(x) for x in tables.card_keys()], [int(x) for x in tables.card_bits()]


@cache
def rank5_function(rule: str) -> Ranker:
    """Rank of exactly five card indices under ``rule`` (not badugi, not Omaha's composition)."""
    rule = _BASE.get(rule, rule)
    keys, bits = _common()
    lo5, hi = (t.tolist() for t in tables.multiset_index(5)[:2])
    ms5 = tables.multiset_values(rule, 5).tolist()
    fl = tables.flush_values(rule).tolist()
    ff4 = tables.four_flush_keys().tolist()
    ranks_only = rule in _RANKS_ONLY
    soko = rule == "soko"

    def rank5(c: Sequence[int]) -> int:
        a, b, d, e, f = c
        key = keys[a] + keys[b] + keys[d] + keys[e] + keys[f]
        v: int = ms5[lo5[key & 0x1FFFF] + hi[(key >> 20) & 0x3FFF]]
        if ranks_only:
            return v
        counts = key >> 40
        for s in range(4):
            n = (counts >> (4 * s)) & 15
            if n == 5:
                return int(fl[(bits[a] | bits[b] | bits[d] | bits[e] | bits[f]) >> (16 * s) & 0x1FFF])
            if n == 4 and soko:
                mask = (bits[a] | bits[b] | bits[d] | bits[e] | bits[f]) >> (16 * s) & 0x1FFF
                (fifth,) = (x >> 2 for x in c if x & 3 != s)
                return max(v, 4 << 20 | int(ff4[mask]) << 4 | fifth)
        return v

    return rank5


@cache
def ranker(rule: str, n_cards: int, *, hole: int = 4) -> Ranker:
    """A function from ``n_cards`` card indices (trusted: not validated) to the rank under ``rule``.

    For Omaha rules the indices are ``hole`` hole cards followed by the board. Hold'em-style
    seven-card evaluation is one key sum and two or three list lookups.
    """
    spec = rule_spec(rule)
    if spec.kind == "omaha":
        five = rank5_function(rule)

        def omaha(c: Sequence[int]) -> int:
            c = tuple(c)
            return max(five(h + b) for h in combinations(c[:hole], 2) for b in combinations(c[hole:], 3))

        return omaha
    if spec.kind == "badugi":
        from pokerroom.cards import Card
        from pokerroom.eval import reference

        return lambda c: reference.badugi([Card.from_index(x) for x in c])
    if n_cards == 5 and rule == "soko":
        return rank5_function(rule)
    if n_cards > 7 or (rule in ("deuce7_low", "soko") and n_cards != 5):
        five = rank5_function(rule)
        return lambda c: max(five(s) for s in combinations(c, 5))
    keys, bits = _common()
    lo_t, hi_t, _ = tables.multiset_index(n_cards)
    lo: list[int] = lo_t.tolist()
    hi: list[int] = hi_t.tolist()
    ms: list[int] = tables.multiset_values(rule, n_cards).tolist()
    fl: list[int] = tables.flush_values(rule).tolist()
    ranks_only = rule in _RANKS_ONLY

    def flush_rank(c: Sequence[int], key: int) -> int:
        t = ((key >> 40) + 0x3333) & 0x8888
        s = (t.bit_length() - 4) >> 2
        mask = 0
        for x in c:
            mask |= bits[x]
        return fl[(mask >> (16 * s)) & 0x1FFF]

    if n_cards == 7 and not ranks_only:

        def rank7(c: Sequence[int]) -> int:
            a, b, d, e, f, g, h = c
            key = keys[a] + keys[b] + keys[d] + keys[e] + keys[f] + keys[g] + keys[h]
            if ((key >> 40) + 0x3333) & 0x8888:
                return flush_rank(c, key)
            return ms[lo[key & 0x1FFFF] + hi[(key >> 20) & 0x3FFF]]

        return rank7

    def rank_n(c: Sequence[int]) -> int:
        key = 0
        for x in c:
            key += keys[x]
        if not ranks_only and ((key >> 40) + 0x3333) & 0x8888:
            return flush_rank(c, key)
        return ms[lo[key & 0x1FFFF] + hi[(key >> 20) & 0x3FFF]]

    return rank_n

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

__all__ = [
    "OMAHA_RULES",
    "RANK7_BUILD",
    "RANK7_RULES",
    "omaha_function",
    "rank5_function",
    "rank7_function",
    "ranker",
]

Ranker = Callable[[Sequence[int]], int]
Rank7 = Callable[[int, int, int, int, int, int, int], int]

try:  # the C ranker (eval/_rank7.c), built by the install when a C compiler is there
    from pokerroom.eval import _rank7  # type: ignore[attr-defined]
except ImportError:  # no compiler at install: the Python function below does the same lookups
    _rank7 = None

RANK7_BUILD = "python" if _rank7 is None else "c"
"""Which entry points :func:`rank7_function` and :func:`omaha_function` give: ``"c"`` or ``"python"``."""

# The seven-card rankings of the room and how the C ranker treats each: 0 flushes count, 1 only the
# ranks count (the A-5 lows), 2 the best of the 21 five-card hands (deuce-to-seven, as ``ranker``).
RANK7_RULES: dict[str, int] = {
    "high": 0,
    "short_deck_6a": 0,
    "short_deck_7a": 0,
    "ace5_low": 1,
    "eight_low": 1,
    "deuce7_low": 2,
}

_RANKS_ONLY = frozenset({"ace5_low", "eight_low"})
_BASE = {"omaha_high": "high", "omaha_eight_low": "eight_low"}
OMAHA_RULES = frozenset(_BASE)
"""The Omaha rankings (exactly two hole cards and three of the board) :func:`omaha_function` takes."""
_OMAHA_HOLE = range(2, 7)  # the hole cards and board cards an Omaha entry point takes (eval/_rank7.c too)
_OMAHA_BOARD = range(3, 6)


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
        if _rank7 is not None and hole in _OMAHA_HOLE and n_cards - hole in _OMAHA_BOARD:
            fast = omaha_function(rule, hole)
            return lambda c: fast(*c)
        return _omaha_python(rule, hole)
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


@cache
def rank7_function(rule: str) -> Rank7:
    """The quickest single-hand call: seven card indices as seven arguments -> the rank under ``rule``
    (the same number as ``ranker(rule, 7)`` and :func:`pokerroom.eval.evaluate`'s ``rank``).

    For the rules of :data:`RANK7_RULES`. With the C extension built (:data:`RANK7_BUILD`) each index
    must be an int from 0 to 51 (``ValueError`` otherwise); the cards are trusted to be distinct: a
    repeated card gives a meaningless rank or ``ValueError``, never a crash."""
    if rule not in RANK7_RULES:
        rule_spec(rule)  # UnknownRule for a name that is no rule at all
        raise ValueError(f"no seven-card entry point for {rule!r}; use ranker({rule!r}, n)")
    if _rank7 is None:
        slow = ranker(rule, 7)

        def rank7(a: int, b: int, c: int, d: int, e: int, f: int, g: int, /) -> int:
            return slow((a, b, c, d, e, f, g))

        return rank7
    mode = RANK7_RULES[rule]
    fast: Rank7 = _c_ranker(rule, 5 if mode == 2 else 7, mode)
    return fast


def _c_ranker(rule: str, n: int, mode: int, hole: int = 0) -> Callable[..., int]:
    """The C ranker (eval/_rank7.c) over the tables of ``rule`` for ``n`` cards."""
    assert _rank7 is not None
    lo, hi, _ = tables.multiset_index(n)
    fast: Callable[..., int] = _rank7.make(
        tables.card_keys().astype("<u8").tobytes(),
        tables.card_bits().astype("<u8").tobytes(),
        lo.astype("<i4").tobytes(),
        hi.astype("<i4").tobytes(),
        tables.multiset_values(rule, n).astype("<i4").tobytes(),
        tables.flush_values(rule).astype("<i4").tobytes(),
        mode,
        hole,
    )
    return fast


def _omaha_python(rule: str, hole: int) -> Ranker:
    """Omaha without the C extension: the lookups of :func:`rank5_function`, with the key sums and suit
    masks of the hole pairs and of the board triples made once each (as eval/_rank7.c does)."""
    base = _BASE[rule]
    keys, bits = _common()
    lo5, hi = (t.tolist() for t in tables.multiset_index(5)[:2])
    ms5: list[int] = tables.multiset_values(base, 5).tolist()
    fl: list[int] = tables.flush_values(base).tolist()
    flushes = base not in _RANKS_ONLY

    def omaha(c: Sequence[int]) -> int:
        c = tuple(c)
        pairs = [(keys[a] + keys[b], bits[a] | bits[b]) for a, b in combinations(c[:hole], 2)]
        triples = [
            (keys[a] + keys[b] + keys[d], bits[a] | bits[b] | bits[d])
            for a, b, d in combinations(c[hole:], 3)
        ]
        best = -1
        for pk, pm in pairs:
            for tk, tm in triples:
                key = pk + tk
                over = ((key >> 40) + 0x3333) & 0x8888  # five cards of a suit
                if flushes and over:
                    v = fl[((pm | tm) >> (16 * ((over.bit_length() - 4) >> 2))) & 0x1FFF]
                else:
                    v = ms5[lo5[key & 0x1FFFF] + hi[(key >> 20) & 0x3FFF]]
                if v > best:
                    best = v
        return best

    return omaha


@cache
def omaha_function(rule: str, hole: int = 4) -> Callable[..., int]:
    """The quickest single-hand call for Omaha: the ``hole`` hole cards' indices, then the board's (three
    to five), as arguments -> the rank under ``rule`` (:data:`OMAHA_RULES`: the same number as
    ``ranker(rule, n, hole=hole)``), the best five of exactly two hole cards and three of the board.

    With the C extension built (:data:`RANK7_BUILD`) each index must be an int from 0 to 51 and the
    count right (``ValueError``, ``TypeError``); the cards are trusted to be distinct: a repeated card
    gives a meaningless rank or ``ValueError``, never a crash. Without it, a Python function of the same
    signature."""
    if rule not in OMAHA_RULES:
        rule_spec(rule)  # UnknownRule for a name that is no rule at all
        raise ValueError(f"{rule!r} is not an Omaha ranking; use ranker({rule!r}, n)")
    if hole not in _OMAHA_HOLE:
        raise ValueError(f"an Omaha hand has 2 to 6 hole cards, not {hole}")
    if _rank7 is None:
        slow = _omaha_python(rule, hole)

        def omaha(*cards: int) -> int:
            if len(cards) - hole not in _OMAHA_BOARD:
                raise TypeError(f"expected {hole} hole cards and 3 to 5 board cards, got {len(cards)}")
            return slow(cards)

        return omaha
    base = _BASE[rule]
    return _c_ranker(base, 5, 4 if base in _RANKS_ONLY else 3, hole)

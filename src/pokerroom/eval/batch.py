"""``evaluate_batch``: ranks of many hands at once (numba kernels over the lookup tables)."""

from __future__ import annotations

from functools import cache
from itertools import combinations
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from pokerroom.eval import tables
from pokerroom.eval.errors import CardNotInDeck, DuplicateCard, EvalError, WrongCardCount
from pokerroom.eval.rules import POOLED_MAX, RuleSpec, needs, rule_spec

__all__ = ["evaluate_batch", "kernels"]

# The five-card rule whose tables a rule uses.
_BASE = {"omaha_high": "high", "omaha_eight_low": "eight_low"}
_RANKS_ONLY = frozenset({"ace5_low", "eight_low"})


@cache
def kernels() -> ModuleType:
    """The numba kernels, imported (and compiled or loaded from numba's cache) on first use."""
    from pokerroom.eval import kernels as k

    return k


@cache
def _common() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    return tables.card_keys().astype(np.int64), tables.card_bits().astype(np.int64)


@cache
def _five(rule: str) -> tuple[Any, ...]:
    """Arguments of the 5-card evaluation: lo5, hi, ms5, flush table, four-flush keys, mode."""
    k = kernels()
    lo5, hi, _ = tables.multiset_index(5)
    mode = k.MODE_RANKS if rule in _RANKS_ONLY else k.MODE_SOKO if rule == "soko" else k.MODE_FLUSH
    return lo5, hi, tables.multiset_values(rule, 5), tables.flush_values(rule), tables.four_flush_keys(), mode


@cache
def _subsets(k: int) -> npt.NDArray[np.int64]:
    return np.array(list(combinations(range(k), 5)), dtype=np.int64)


def check_batch(spec: RuleSpec, arr: npt.NDArray[np.uint8]) -> None:
    """Raise a typed error for the first bad row (out of range, duplicate, not in the deck)."""
    status = kernels().check_rows(arr, spec.lowest_rank)
    bad = np.flatnonzero(status)
    if len(bad) == 0:
        return
    row, code = int(bad[0]), int(status[bad[0]])
    if code == 1:
        raise EvalError(f"row {row}: card indices must be 0..51")
    if code == 2:
        raise DuplicateCard(f"row {row}: a card appears more than once")
    raise CardNotInDeck(spec.name, spec.deck_size)


def evaluate_batch(
    rule: str, cards: npt.ArrayLike, *, hole: int = 4, check: bool = True
) -> npt.NDArray[np.int32]:
    """Ranks (the ``HandValue.rank`` integers; greater is better) of an ``(n, k)`` array of card
    indices (``rank * 4 + suit``), one hand per row.

    Pooled rules take the best five of the ``k`` cards; for ``omaha_*`` the first ``hole`` columns
    are the hole cards and the rest the board; badugi takes four. ``check`` validates every row
    (range, duplicates, deck) and raises a typed error for the first bad one; pass False only for
    uint8 arrays you built correctly yourself (a bad row then gives an unspecified rank).
    """
    spec = rule_spec(rule)
    raw = np.asarray(cards)
    if raw.dtype != np.uint8:
        if raw.size and not np.issubdtype(raw.dtype, np.integer):
            raise EvalError("card indices must be integers 0..51")
        if raw.size and (raw.min() < 0 or raw.max() > 51):
            raise EvalError("card indices must be 0..51")
    arr = np.ascontiguousarray(raw, dtype=np.uint8)
    if arr.ndim != 2:
        raise WrongCardCount(f"expected a 2-D array of card indices, got {arr.ndim} dimensions")
    n, k = arr.shape
    if spec.kind == "omaha":
        if not (4 <= hole <= 6 and 3 <= k - hole <= 5):
            raise WrongCardCount(f"{hole} hole + {k - hole} board cards given, {needs(spec)}")
    elif (spec.kind == "badugi" and k != 4) or (spec.kind == "pooled" and not 5 <= k <= POOLED_MAX):
        raise WrongCardCount(f"{k} cards given, {needs(spec)}")
    if check and n:
        check_batch(spec, arr)
    out = np.empty(n, dtype=np.int32)
    if n == 0:
        return out
    kern = kernels()
    keys, bits = _common()
    if spec.kind == "badugi":
        kern.badugi(arr, out)
    elif spec.kind == "omaha":
        base = _BASE[spec.name]
        lo_b, hi, _ = tables.multiset_index(k - hole)
        om, decode = tables.omaha_classes(base, k - hole)
        kern.omaha(
            arr, hole, keys, bits, lo_b, hi, om, decode, tables.pair_index(), tables.flush_values("high"),
            base == "eight_low", out,
        )  # fmt: skip
    elif k <= 7 and spec.name != "soko" and (spec.name != "deuce7_low" or k == 5):
        # One lookup by rank multiset (or by suit mask for a flush). Not for SOKO (four flushes) nor
        # for 2-7 beyond five cards (there a flush must be avoided, which the multiset cannot see).
        lo, hi, _ = tables.multiset_index(k)
        ms = tables.multiset_values(spec.name, k)
        fl = tables.flush_values(spec.name)
        if k == 7 and spec.name not in _RANKS_ONLY:
            kern.pooled7(arr, keys, bits, lo, hi, ms, fl, out)
        else:
            kern.pooled(arr, keys, bits, lo, hi, ms, fl, spec.name not in _RANKS_ONLY, out)
    else:
        lo5, hi, ms5, fl, ff4, mode = _five(spec.name)
        kern.combos(arr, _subsets(k), keys, bits, lo5, hi, ms5, fl, ff4, mode, out)
    return out

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
def _common() -> tuple[npt.NDArray[np.int64], ...]:
    """Card keys and suit bits padded to 256 entries (zeros), so that a bad uint8 index reads
    inside the tables; and the validation bits: ``1 << index`` for a card, bit 62 for an index
    >= 52. A row is valid when its bits do not overlap (their sum equals their OR) and avoid bit
    62 and the deck's missing low ranks."""
    keys = np.zeros(256, dtype=np.int64)
    keys[:52] = tables.card_keys().astype(np.int64)
    bits = np.zeros(256, dtype=np.int64)
    bits[:52] = tables.card_bits().astype(np.int64)
    valid = np.full(256, 1 << 62, dtype=np.int64)
    valid[:52] = 1 << np.arange(52, dtype=np.int64)
    return keys, bits, valid


@cache
def _pair_index() -> npt.NDArray[np.int32]:
    """``tables.pair_index`` padded so that ranks of bad indices (up to 63) stay inside it."""
    out = np.zeros(64 * 13 + 64, dtype=np.int32)
    out[:169] = tables.pair_index()
    return out


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


def _raise_for_row(spec: RuleSpec, arr: npt.NDArray[np.uint8], row: int) -> None:
    """The typed error for a row the kernel flagged (out of range, duplicate, not in the deck)."""
    cards = arr[row].tolist()
    if max(cards) >= 52:
        raise EvalError(f"row {row}: card indices must be 0..51")
    if len(set(cards)) != len(cards):
        raise DuplicateCard(f"row {row}: a card appears more than once")
    raise CardNotInDeck(spec.name, spec.deck_size)


def evaluate_batch(
    rule: str, cards: npt.ArrayLike, *, hole: int = 4, check: bool = True
) -> npt.NDArray[np.int32]:
    """Ranks (the ``HandValue.rank`` integers; greater is better) of an ``(n, k)`` array of card
    indices (``rank * 4 + suit``), one hand per row.

    Pooled rules take the best five of the ``k`` cards; for ``omaha_*`` the first ``hole`` columns
    are the hole cards and the rest the board; badugi takes four. Every row is validated inside
    the kernel (range, duplicates, deck) and the first bad one raises a typed error; with
    ``check=False`` a bad row only gets an unspecified rank (the tables are padded, so it never
    reads outside them).
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
    out = np.empty(n, dtype=np.int32)
    if n == 0:
        return out
    kern = kernels()
    keys, bits, valid = _common()
    bad = (1 << 62) | ((1 << (4 * spec.lowest_rank)) - 1)
    if spec.kind == "badugi":
        first = kern.badugi(arr, valid, bad, check, out)
    elif spec.kind == "omaha":
        base = _BASE[spec.name]
        lo_b, hi, _ = tables.multiset_index(k - hole)
        om, decode = tables.omaha_classes(base, k - hole)
        fl = tables.flush_values("high")
        first = kern.omaha(
            arr, hole, keys, bits, valid, bad, check, lo_b, hi, om, decode, _pair_index(), fl,
            base == "eight_low", out,
        )  # fmt: skip
    elif k <= 7 and spec.name != "soko" and (spec.name != "deuce7_low" or k == 5):
        # One lookup by rank multiset (or by suit mask for a flush). Not for SOKO (four flushes) nor
        # for 2-7 beyond five cards (there a flush must be avoided, which the multiset cannot see).
        ms = tables.multiset_values(spec.name, k)
        fl = tables.flush_values(spec.name)
        if k in (5, 7) and spec.name not in _RANKS_ONLY:
            lo16, hi16 = tables.multiset_index16(k)
            kernel = kern.pooled7 if k == 7 else kern.pooled5
            first = kernel(arr, keys, bits, valid, bad, check, lo16, hi16, ms, fl, out)
        else:
            lo, hi, _ = tables.multiset_index(k)
            first = kern.pooled(
                arr, keys, bits, valid, bad, check, lo, hi, ms, fl, spec.name not in _RANKS_ONLY, out
            )
    else:
        lo5, hi, ms5, fl, ff4, mode = _five(spec.name)
        first = kern.combos(arr, _subsets(k), keys, bits, valid, bad, check, lo5, hi, ms5, fl, ff4, mode, out)
    if check and first >= 0:
        _raise_for_row(spec, arr, int(first))
    return out

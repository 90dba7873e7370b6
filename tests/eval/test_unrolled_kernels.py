"""The unrolled five- and seven-card batch kernels (``pooled5``, ``pooled7`` over the 16-bit index
tables) against the reference evaluator and against the general ``pooled`` kernel over the 32-bit
tables, on random batches where flushes and paired boards are common."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card
from pokerroom.eval import evaluate_batch, reference, tables
from pokerroom.eval.batch import _common, kernels

RULES = ["high", "deuce7_low", "short_deck_7a", "short_deck_6a"]


@st.composite
def batches(draw: st.DrawFn) -> tuple[str, np.ndarray]:
    rule = draw(st.sampled_from(RULES))
    k = 5 if rule == "deuce7_low" else draw(st.sampled_from([5, 7]))
    low = {"short_deck_7a": 5, "short_deck_6a": 4}.get(rule, 0)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    deck = np.arange(4 * low, 52)
    # some rows from two suits only, so that flushes (and straight flushes) are frequent
    suited = deck[(deck & 3) < 2]
    rows = [rng.choice(suited if rng.random() < 0.5 else deck, k, replace=False) for _ in range(40)]
    return rule, np.array(rows, dtype=np.uint8)


@settings(max_examples=80, deadline=None)
@given(batches())
def test_unrolled_kernels_match_reference_and_general_kernel(batch: tuple[str, np.ndarray]) -> None:
    rule, rows = batch
    got = evaluate_batch(rule, rows)
    for row, rank in zip(rows.tolist(), got.tolist(), strict=True):
        assert reference.best(rule, [Card.from_index(i) for i in row])[0] == rank
    # the general kernel over the 32-bit tables gives the same ranks
    keys, bits, valid = _common()
    k = rows.shape[1]
    lo, hi, _ = tables.multiset_index(k)
    out = np.empty(len(rows), dtype=np.int32)
    first = kernels().pooled(
        rows, keys, bits, valid, 1 << 62, True, lo, hi, tables.multiset_values(rule, k),
        tables.flush_values(rule), True, out,
    )  # fmt: skip
    assert first == -1
    assert (out == got).all()


def test_sixteen_bit_index_tables_equal_the_32_bit_ones() -> None:
    for n in range(1, 8):
        lo, hi, _ = tables.multiset_index(n)
        lo16, hi16 = tables.multiset_index16(n)
        assert (lo16.astype(np.int64) == np.maximum(lo, 0)).all()
        assert (hi16.astype(np.int64) == hi).all()


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["high", "short_deck_6a"]),
    st.sampled_from([5, 7]),
    st.lists(st.lists(st.integers(0, 255), min_size=7, max_size=7), min_size=1, max_size=12),
)
def test_unrolled_kernels_report_the_first_bad_row(rule: str, k: int, raw: list[list[int]]) -> None:
    # rows of any bytes: out of range, duplicated, below the short deck's lowest rank, or good
    from pokerroom.eval.rules import rule_spec

    low = 4 * rule_spec(rule).lowest_rank
    rows = np.array([r[:k] for r in raw], dtype=np.uint8)
    rows[::2] = rows[::2] % (52 - low) + low  # half of them in range, so good rows are common
    expected = next(
        (i for i, r in enumerate(rows.tolist()) if max(r) >= 52 or min(r) < low or len(set(r)) < k), -1
    )
    keys, bits, valid = _common()
    lo16, hi16 = tables.multiset_index16(k)
    kernel = kernels().pooled7 if k == 7 else kernels().pooled5
    bad = (1 << 62) | ((1 << low) - 1)
    out = np.empty(len(rows), dtype=np.int32)
    first = kernel(
        rows, keys, bits, valid, bad, True, lo16, hi16, tables.multiset_values(rule, k),
        tables.flush_values(rule), out,
    )  # fmt: skip
    assert first == expected

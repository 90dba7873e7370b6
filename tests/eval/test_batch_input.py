"""Bad input to evaluate_batch: a typed error, never a wrong answer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pokerroom.eval import (
    CardNotInDeck,
    DuplicateCard,
    EvalError,
    UnknownRule,
    WrongCardCount,
    evaluate,
    evaluate_batch,
)


def test_batch_rank_equals_hand_value_rank() -> None:
    row = np.array([[51, 47, 43, 39, 35, 0, 5]], dtype=np.uint8)  # As Ks Qs Js Ts 2c 3d
    assert int(evaluate_batch("high", row)[0]) == evaluate("high", "As Ks Qs Js Ts 2c 3d").rank


def test_empty_batch() -> None:
    assert evaluate_batch("high", np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


@pytest.mark.parametrize(
    ("rule", "cards", "kw", "error"),
    [
        ("pineapple", [[0, 1, 2, 3, 4]], {}, UnknownRule),
        ("high", [0, 1, 2, 3, 4], {}, WrongCardCount),
        ("high", [[0, 1, 2, 3]], {}, WrongCardCount),
        ("badugi", [[0, 1, 2, 3, 4]], {}, WrongCardCount),
        ("omaha_high", [[0, 1, 2, 3, 4, 5]], {}, WrongCardCount),
        ("omaha_high", [[0, 1, 2, 3, 4, 5, 6, 7, 8]], {"hole": 3}, WrongCardCount),
        ("high", [[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]], {}, DuplicateCard),
        ("high", [[0, 1, 2, 3, 52]], {}, EvalError),
        ("high", [[0, 1, 2, 3, 300]], {}, EvalError),
        ("high", [[0, 1, 2, 3, -1]], {}, EvalError),
        ("high", [[0.0, 1.0, 2.0, 3.0, 4.0]], {}, EvalError),
        ("short_deck_7a", [[48, 44, 40, 36, 19]], {}, CardNotInDeck),
        ("short_deck_6a", [[48, 44, 40, 36, 15]], {}, CardNotInDeck),
    ],
)
def test_bad_batches(rule: str, cards: list[list[float]], kw: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error) as err:
        evaluate_batch(rule, np.array(cards), **kw)
    assert err.value.code  # type: ignore[attr-defined]


def test_short_deck_accepts_its_lowest_rank() -> None:
    assert evaluate_batch("short_deck_6a", np.array([[48, 16, 20, 24, 28]]))[0] > 0  # A 6 7 8 9


@pytest.mark.parametrize(
    ("rule", "k"),
    [
        ("high", 7),
        ("high", 5),
        ("deuce7_low", 5),
        ("short_deck_6a", 7),
        ("high", 6),
        ("high", 9),
        ("ace5_low", 7),
        ("soko", 5),
        ("omaha_high", 9),
        ("badugi", 4),
    ],
)
def test_every_kernel_flags_bad_rows(rule: str, k: int) -> None:
    rng = np.random.default_rng(k)
    low = 16 if rule == "short_deck_6a" else 0
    rows = np.array([rng.choice(52 - low, k, replace=False) + low for _ in range(50)], dtype=np.uint8)
    evaluate_batch(rule, rows)  # all valid
    dup = rows.copy()
    dup[17, 1] = dup[17, 0]
    dup[40, 2] = dup[40, 0]
    with pytest.raises(DuplicateCard, match="row 17"):  # the first bad row is reported
        evaluate_batch(rule, dup)
    wild = rows.copy()
    wild[33, k - 1] = 200
    with pytest.raises(EvalError, match="row 33"):
        evaluate_batch(rule, wild)
    # unchecked, a bad row gets some rank and nothing reads outside the (padded) tables
    wild[:, :] = 255
    assert evaluate_batch(rule, wild, check=False).shape == (50,)

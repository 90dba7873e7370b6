"""The fast paths (numba batch kernels, single-call Python tables, evaluate) agree with the plain
reference implementation on random hands, for every rule."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card, DeckSpec
from pokerroom.eval import RULES, evaluate, evaluate_batch, reference
from pokerroom.eval.fast import ranker
from pokerroom.eval.rules import rule_spec


@st.composite
def deals(draw: st.DrawFn, rule: str) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    spec = rule_spec(rule)
    deck = [c for c in DeckSpec.STANDARD.cards() if c.rank >= spec.lowest_rank]
    if spec.kind == "omaha":
        n_hole = draw(st.integers(4, 6))
        n_board = draw(st.integers(3, 5))
    elif spec.kind == "badugi":
        n_hole, n_board = 4, 0
    else:
        n_hole, n_board = draw(st.integers(5, 8)), 0
    cards = draw(st.permutations(deck))[: n_hole + n_board]
    return tuple(cards[:n_hole]), tuple(cards[n_hole:])


def _check(rule: str, hole: tuple[Card, ...], board: tuple[Card, ...]) -> None:
    expected, _ = reference.best(rule, hole, board)
    value = evaluate(rule, hole, board)
    assert value.rank == expected
    if value.cards and not rule.startswith("omaha"):  # the cards used make the value
        assert reference.best(rule, value.cards)[0] == expected
    row = np.array([[c.index for c in hole + board]], dtype=np.uint8)
    assert int(evaluate_batch(rule, row, hole=len(hole))[0]) == expected
    f = ranker(rule, len(hole) + len(board), hole=len(hole))
    assert f([c.index for c in hole + board]) == expected


def _test_for(rule: str):  # type: ignore[no-untyped-def]
    @settings(max_examples=150, deadline=None)
    @given(deals(rule))
    def test(deal: tuple[tuple[Card, ...], tuple[Card, ...]]) -> None:
        _check(rule, *deal)

    test.__name__ = f"test_fast_paths_match_reference_{rule}"
    return test


for _rule in RULES:
    globals()[f"test_fast_paths_match_reference_{_rule}"] = _test_for(_rule)


def test_batch_of_many_hands_matches_reference_for_every_rule() -> None:
    rng = np.random.default_rng(20261130)
    for rule in RULES:
        spec = rule_spec(rule)
        deck = np.array([c.index for c in DeckSpec.STANDARD.cards() if c.rank >= spec.lowest_rank])
        k, nh = {"omaha": (9, 4), "badugi": (4, 4)}.get(spec.kind, (7, 7))
        rows = np.array([rng.choice(deck, k, replace=False) for _ in range(300)], dtype=np.uint8)
        got = evaluate_batch(rule, rows, hole=nh)
        for row, rank in zip(rows, got, strict=True):
            cards = [Card.from_index(int(i)) for i in row]
            assert reference.best(rule, cards[:nh], cards[nh:])[0] == rank

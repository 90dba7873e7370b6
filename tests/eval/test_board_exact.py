"""Exact hold'em and short-deck equity (pokerroom.eval.board_exact: flush-blind rank multisets plus
the flush boards grouped by suit) against a brute force over every board ranked by evaluate_batch,
on random hands and boards, suits concentrated so that many boards make flushes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card
from pokerroom.eval import equity
from pokerroom.eval.board_exact import rank_multisets
from pokerroom.eval.equity import _RANK_KEYS, resolve_game
from tests.eval.test_eval_equity import _batch_brute_force

Spot = tuple[str, list[tuple[Card, ...]], tuple[Card, ...]]


@st.composite
def spots(draw: st.DrawFn) -> Spot:
    game = draw(st.sampled_from(["holdem", "holdem", "shortdeck"]))
    deck = list(resolve_game(game).deck.cards())
    # favour two suits, so that flushes (and several players drawing to one) are common
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
    weighted = [c for c in deck if c.suit in suits] + deck
    players = draw(st.integers(2, 4))
    n_board = draw(st.sampled_from([3, 4] if game == "holdem" or players > 2 else [0, 3, 4]))
    order = draw(st.permutations(weighted))
    cards: list[Card] = []
    for c in order:
        if c not in cards:
            cards.append(c)
        if len(cards) == 2 * players + n_board:
            break
    hands = [tuple(cards[2 * i : 2 * i + 2]) for i in range(players)]
    return game, hands, tuple(cards[2 * players :])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spots())
def test_exact_board_equity_matches_brute_force(
    spot: tuple[str, list[tuple[Card, ...]], tuple[Card, ...]],
) -> None:
    game, hands, board = spot
    result = equity(game, hands, board)
    assert result.exact
    expected = _batch_brute_force(game, hands, board)
    assert [h.share for h in result.hands] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "hands",
    [
        ["AhKh", "QsQd"],
        ["AhKh", "QhJh"],  # both draw to the same flush
        ["AhKh", "QsQd", "7c8c"],
        ["2c3d", "4h5s", "6c7c", "8h9h"],
    ],
)
def test_preflop_holdem_matches_brute_force(hands: list[str]) -> None:
    # every one of the C(48, 5) or more boards ranked one by one
    from pokerroom.cards import parse_cards

    parsed = [tuple(parse_cards(h)) for h in hands]
    result = equity("holdem", parsed)
    assert result.exact
    expected = _batch_brute_force("holdem", parsed, ())
    assert [h.share for h in result.hands] == pytest.approx(expected, abs=1e-12)


@given(st.lists(st.integers(0, 4), min_size=13, max_size=13), st.integers(0, 5))
def test_rank_multisets_count_every_board_once(avail: list[int], m: int) -> None:
    from math import comb

    import numpy as np

    keys, weights = rank_multisets(np.array(avail, dtype=np.int64), m, _RANK_KEYS)
    assert int(weights.sum()) == comb(sum(avail), m)  # every m-card deal, by its ranks
    assert len(set(keys.tolist())) == len(keys)  # each multiset once
    assert (weights > 0).all()

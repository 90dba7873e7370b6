"""Equity: exact enumeration against a brute force over the reference evaluator, Monte Carlo
against exact, hi/lo quartering, seeding, and bad input."""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest

from pokerroom.cards import Card, DeckSpec, parse_cards
from pokerroom.eval import (
    EQUITY_GAMES,
    CardNotInDeck,
    DuplicateCard,
    TooManyDeals,
    UnknownGame,
    WrongCardCount,
    equity,
    reference,
)
from pokerroom.eval.equity import resolve_game


def brute_force(game_name: str, hands: list[str], board: str = "", dead: str = "") -> list[float]:
    """Expected pot share of each hand by enumerating every deal with the reference evaluator."""
    game = resolve_game(game_name)
    known = [parse_cards(h) for h in hands]
    b = parse_cards(board)
    used = {c for h in known for c in h} | set(b) | set(parse_cards(dead))
    stub = [c for c in game.deck.cards() if c not in used]
    need = [game.hand_size - len(h) for h in known]
    need_board = game.board_size - len(b)
    totals = [0.0] * len(hands)
    deals = 0
    m = need_board + sum(need)
    for drawn in combinations(stub, m):
        for order in set(permutations(range(m))) if sum(need) else [tuple(range(m))]:
            cards = [drawn[i] for i in order]
            full_board = tuple(b) + tuple(cards[:need_board])
            pos = need_board
            full_hands = []
            for h, n in zip(known, need, strict=True):
                full_hands.append(tuple(h) + tuple(cards[pos : pos + n]))
                pos += n
            shares = _shares(game.high, game.low, full_hands, full_board)
            totals = [t + s for t, s in zip(totals, shares, strict=True)]
            deals += 1
    return [t / deals for t in totals]


def _shares(
    high: str, low: str | None, hands: list[tuple[Card, ...]], board: tuple[Card, ...]
) -> list[float]:
    hi = [reference.best(high, h, board)[0] for h in hands]
    lo = [reference.best(low, h, board)[0] for h in hands] if low else [0] * len(hands)
    hi_w = [r == max(hi) for r in hi]
    lo_w = [r == max(lo) and r > 0 for r in lo]
    if any(lo_w):
        return [0.5 * a / sum(hi_w) + 0.5 * c / sum(lo_w) for a, c in zip(hi_w, lo_w, strict=True)]
    return [a / sum(hi_w) for a in hi_w]


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        ("holdem", ["AhKh", "QsQd"], "2h 7h Qc Jd"),
        ("holdem", ["AhKh", "QsQd", "9c8c"], "2h 7h Qc Jd"),
        ("shortdeck", ["AhKh", "6s6d"], "7h 8h 9c Jd"),
        ("omaha", ["AsAd2c3h", "KsKd9c9h"], "2d 5d Kc Qh"),
        ("omaha8", ["AsAd2c3h", "KsKd9c9h", "4c5c6h7h"], "2d 8d Kc Qh"),
        ("omaha8_5", ["AsAd2c3h4h", "KsKd9c9hTc"], "2d 8d Kc Qh"),
        ("omaha6", ["AsAd2c3h4h5s", "KsKd9c9hTcJc"], "2d 8d Kc Qh"),
        ("stud", ["AsAd2c4d5d6h", "KsKd9c9h2h3h"], ""),
        ("stud8", ["As2d3c4d5d6h", "KsKd9c9h2h3h"], ""),
        ("razz", ["As2d3c4d5dKh", "KsKd9c9h2h3h"], ""),
        ("stud5", ["AsAd2c4d", "KsKd9c9h"], ""),
        ("soko", ["AsJd2c4d", "KsKd9c9h"], ""),
        ("draw", ["AsAd2c4d", "KsKd9c9h"], ""),
        ("deuce7", ["7s5d4c3h", "8s6d4h2c"], ""),
        ("draw7a", ["AsKdQcJd", "7s8d9cTh"], ""),
        ("badugi", ["As2d3c", "4s5d6h"], ""),
    ],
)
def test_exact_equity_matches_brute_force(game: str, hands: list[str], board: str) -> None:
    result = equity(game, hands, board)
    assert result.exact and result.game == game
    expected = brute_force(game, hands, board)
    for got, want in zip(result.hands, expected, strict=True):
        assert got.share == pytest.approx(want, abs=1e-12)
    assert sum(h.share for h in result.hands) == pytest.approx(1.0)


def test_dead_cards_are_removed_from_the_deck() -> None:
    result = equity("holdem", ["AhKh", "QsQd"], "2h 7h Qc", dead="Jh Th 3h")
    assert result.deals == 861  # C(42, 2) boards
    expected = brute_force("holdem", ["AhKh", "QsQd"], "2h 7h Qc", dead="Jh Th 3h")
    assert [h.share for h in result.hands] == pytest.approx(expected, abs=1e-12)


def test_preflop_holdem_is_exact_over_every_board() -> None:
    result = equity("holdem", ["AhKh", "QsQd"])
    assert result.exact and result.deals == 1_712_304
    win = [h.win for h in result.hands]
    tie = [h.tie for h in result.hands]
    assert tie[0] == tie[1] > 0
    assert sum(win) + tie[0] == pytest.approx(1.0)
    # Monte Carlo agrees within a few standard errors.
    mc = equity("holdem", ["AhKh", "QsQd"], exact=False, samples=200_000, seed=7)
    assert not mc.exact and mc.deals == 200_000
    assert mc.hands[0].share == pytest.approx(result.hands[0].share, abs=0.006)


def test_hi_lo_quartering() -> None:
    # R22/R23: the first hand has the best high and ties the low -> 3/4 of the pot, the other 1/4.
    result = equity("omaha8", ["Ad Kd 3s 2s", "Ac 2c 7s 8s"], "Jd 4d 3c Qd 5h")
    assert result.exact and result.deals == 1
    assert [h.share for h in result.hands] == [0.75, 0.25]
    assert [h.win for h in result.hands] == [0.0, 0.0] and [h.tie for h in result.hands] == [1.0, 1.0]
    # R27: no low possible -> the high takes the whole pot.
    result = equity("omaha8", ["Ad Kd 3s 2s", "Ac 2c 7s 9s"], "Ks Qd 8c 8h 2h")
    assert [h.share for h in result.hands] == [1.0, 0.0] and result.hands[0].win == 1.0


def test_monte_carlo_is_reproducible_with_a_seed_or_rng() -> None:
    a = equity("stud", ["AsAd2c", "KsKd9c"], samples=20_000, seed=11)
    b = equity("stud", ["AsAd2c", "KsKd9c"], samples=20_000, seed=11)
    c = equity("stud", ["AsAd2c", "KsKd9c"], samples=20_000, rng=random.Random(5))
    d = equity("stud", ["AsAd2c", "KsKd9c"], samples=20_000, rng=random.Random(5))
    assert a == b and c == d and not a.exact


def test_stud_monte_carlo_agrees_with_exact() -> None:
    hands = ["AsAd2c4d5d", "KsKd9c9h2h"]
    exact = equity("stud", hands)
    assert exact.exact
    mc = equity("stud", hands, exact=False, samples=100_000, seed=3)
    assert mc.hands[0].share == pytest.approx(exact.hands[0].share, abs=0.01)


def test_the_exact_limit_chooses_between_enumeration_and_sampling() -> None:
    # fifth street in stud: 2 cards to come for each player, 42 * 41 * 40 * 39 / 4 = 671,580 deals
    hands = ["AsAd2c4d5d", "KsKd9c9h2h"]
    assert equity("stud", hands).exact  # (below EXACT_LIMIT)
    sampled = equity("stud", hands, samples=500, seed=4, exact_limit=671_579)
    assert not sampled.exact and sampled == equity("stud", hands, exact=False, samples=500, seed=4)
    assert equity("stud", hands, samples=500, seed=4, exact_limit=671_580).exact


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    equity("razz", ["As2d3c", "KsKd9c"], samples=300_000, seed=1, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (300_000, 300_000) and len(calls) >= 2


def test_every_game_is_data_and_runs() -> None:
    assert {"holdem", "shortdeck", "omaha", "omaha5", "omaha6", "omaha8", "omaha8_5", "stud", "stud8"} <= set(
        EQUITY_GAMES
    )
    assert {"razz", "stud5", "soko", "draw", "deuce7", "draw7a", "badugi"} <= set(EQUITY_GAMES)
    for name, game in EQUITY_GAMES.items():
        deck = [c for c in game.deck.cards() if c.rank >= 8]
        hands = [deck[: game.hand_size], deck[game.hand_size : 2 * game.hand_size]]
        result = equity(name, hands, samples=2_000, seed=1, exact=False)
        assert sum(h.share for h in result.hands) == pytest.approx(1.0)


def test_a_bare_rule_name_works() -> None:
    by_rule = equity("high", ["AhKh", "QsQd"], "2h 7h Qc")
    by_game = equity("holdem", ["AhKh", "QsQd"], "2h 7h Qc")
    assert by_rule.hands == by_game.hands
    five = equity("omaha_high", ["AsAd2c3h4h", "KsKd9c9hTc"], "2d 8d Kc Qh")
    assert five.hands == equity("omaha5", ["AsAd2c3h4h", "KsKd9c9hTc"], "2d 8d Kc Qh").hands


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("pineapple", ["AhKh", "QsQd"]), UnknownGame),
        (("holdem", ["AhKh"]), WrongCardCount),
        (("holdem", ["AhKhQc", "QsQd"]), WrongCardCount),
        (("holdem", ["AhKh", "QsQd"], "2c 3c"), WrongCardCount),
        (("holdem", ["AhKh", "AhQd"]), DuplicateCard),
        (("holdem", ["AhKh", "QsQd"], "Ah 2c 3c"), DuplicateCard),
        (("shortdeck", ["AhKh", "2s2d"]), CardNotInDeck),
        (("stud", ["AhKh"] * 1 + [c + "c" for c in "23456789"]), WrongCardCount),
        (("omaha", ["AhKhQhJh", "QsQd2c3c4c"]), WrongCardCount),
    ],
)
def test_bad_input(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error) as err:
        equity(*args)  # type: ignore[arg-type]
    assert err.value.code  # type: ignore[attr-defined]


def test_exact_refused_when_far_too_many_deals() -> None:
    with pytest.raises(TooManyDeals) as err:
        equity("stud", ["As", "Kd", "Qh"], exact=True)
    assert err.value.code == "too_many_deals"


def test_no_board_in_a_stud_game() -> None:
    with pytest.raises(WrongCardCount, match="has no board"):
        equity("stud", ["AsKd", "QhQd"], board="2c 3c 4c")


def test_too_many_cards_for_the_deck() -> None:
    hands = [[c] for c in DeckSpec.SHORT_7A.cards()[:8]]
    with pytest.raises(WrongCardCount):
        equity("draw7a", hands, samples=10)


def _batch_brute_force(game: str, hands: list[tuple[Card, ...]], board: tuple[Card, ...]) -> list[float]:
    """Pot shares over every board, ranked by evaluate_batch (code independent of equity's kernels),
    hi/lo halves included."""
    import numpy as np

    from pokerroom.eval import evaluate_batch
    from pokerroom.eval.batch import kernels

    g = resolve_game(game)
    used = {c for h in hands for c in h} | set(board)
    stub = np.array([c.index for c in g.deck.cards() if c not in used], dtype=np.uint8)
    boards = kernels().all_combinations(stub, g.board_size - len(board))
    known = np.array([c.index for c in board], dtype=np.uint8)
    full = np.concatenate([np.broadcast_to(known, (len(boards), len(known))), boards], axis=1)

    def ranks(rule: str) -> np.ndarray:
        cols = []
        for h in hands:
            own = np.broadcast_to(np.array([c.index for c in h], dtype=np.uint8), (len(full), len(h)))
            cols.append(evaluate_batch(rule, np.concatenate([own, full], axis=1), hole=len(h)))
        return np.stack(cols, axis=1)

    def split(r: np.ndarray) -> np.ndarray:
        winners = (r == r.max(axis=1, keepdims=True)) & (r > 0)
        shares: np.ndarray = winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)
        return shares

    high = split(ranks(g.high))
    if g.low is None:
        return list(high.mean(axis=0))
    low = split(ranks(g.low))
    has_low = low.sum(axis=1, keepdims=True) > 0
    return list(np.where(has_low, 0.5 * high + 0.5 * low, high).mean(axis=0))


@pytest.mark.parametrize("seed", range(6))
def test_exact_board_enumeration_matches_batch_brute_force(seed: int) -> None:
    rnd = random.Random(seed)
    game = "shortdeck" if seed % 3 == 2 else "holdem"
    deck = list(resolve_game(game).deck.cards())
    rnd.shuffle(deck)
    players = 2 + seed % 2
    hands = [tuple(deck[2 * i : 2 * i + 2]) for i in range(players)]
    board = tuple(deck[2 * players : 2 * players + (0, 3, 4)[seed % 3]])
    result = equity(game, hands, board)
    assert result.exact
    expected = _batch_brute_force(game, hands, board)
    assert [h.share for h in result.hands] == pytest.approx(expected, abs=1e-12)


def test_flush_heavy_spots_match_batch_brute_force() -> None:
    # suited hands, two-suited flops, hi/lo: many boards need the flush correction
    for game, hands, board in (
        ("holdem", ["AhKh", "QhJh"], ""),
        ("holdem", ["AhKh", "2h3h", "QsJs"], "4h 5s 9s"),
        ("holdem", ["7c8c", "9d9h"], ""),
        ("omaha", ["AhKh2h3h", "QhJhTs9s"], ""),
        ("omaha", ["AsAdKs3h", "QsJs9c9h", "7d8d6h5h"], "2s 4d"[:0]),
        ("omaha8", ["AhKh2h3h", "AsQs2s4s", "5c6c7d8d"], "9h Tc"[:0]),
        ("omaha8", ["Ah2h3d4d", "AsKs2c5c"], "6h 7h 8d"),
        ("omaha8_5", ["Ah2h3d4dKd", "AsKs2c5cQc"], "6h 7h 8d 9c"),
    ):
        parsed = [parse_cards(h) for h in hands]
        b = parse_cards(board)
        result = equity(game, parsed, b)
        assert result.exact
        expected = _batch_brute_force(game, parsed, b)
        assert [h.share for h in result.hands] == pytest.approx(expected, abs=1e-12), (game, hands)

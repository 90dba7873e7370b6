"""The one-call Omaha entry point (``omaha_function``, the C ranker of eval/_rank7.c when it is built, and
``ranker``'s Omaha rules through it) agrees with the reference evaluator for both Omaha rankings, every
hole count of the room's Omaha games (4, 5, 6) and every board from the flop to the river, and refuses
bad arguments with a typed error instead of reading outside its tables (RULES.md §2: exactly two hole
cards and three of the board)."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card, parse_cards
from pokerroom.eval import HandValue, UnknownRule, evaluate, reference
from pokerroom.eval.fast import OMAHA_RULES, RANK7_BUILD, omaha_function, ranker


def _expected(rule: str, hole: list[int], board: list[int]) -> int:
    cards = [Card.from_index(i) for i in hole], [Card.from_index(i) for i in board]
    return reference.best(rule, *cards)[0]


@pytest.mark.parametrize("rule", sorted(OMAHA_RULES))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_omaha_matches_the_reference(rule: str, data: st.DataObject) -> None:
    hole = data.draw(st.integers(4, 6), label="hole cards")
    board = data.draw(st.integers(3, 5), label="board cards")
    cards = data.draw(st.permutations(range(52)))[: hole + board]
    assert omaha_function(rule, hole)(*cards) == _expected(rule, cards[:hole], cards[hole:])


@pytest.mark.parametrize("rule", sorted(OMAHA_RULES))
def test_omaha_matches_the_reference_on_suited_boards(rule: str) -> None:
    """Boards of three to five cards of one suit and hole cards holding none, one, two or more of it:
    a flush needs exactly two of the suit in the hand and three on the board."""
    rng = random.Random(20261207)
    for _ in range(600):
        hole, board = rng.choice((4, 5, 6)), rng.choice((3, 4, 5))
        suit = rng.randrange(4)
        same = [c for c in range(52) if c & 3 == suit]
        other = [c for c in range(52) if c & 3 != suit]
        on_board = rng.randint(3, board)
        in_hand = rng.randint(0, min(hole, 13 - on_board))
        suited = rng.sample(same, on_board + in_hand)
        rest = rng.sample(other, hole - in_hand + board - on_board)
        hand = suited[on_board:] + rest[: hole - in_hand]
        table = suited[:on_board] + rest[hole - in_hand :]
        rng.shuffle(hand)
        rng.shuffle(table)
        assert omaha_function(rule, hole)(*hand, *table) == _expected(rule, hand, table)


def _rank(rule: str, hole: str, board: str) -> int:
    h = [c.index for c in parse_cards(hole)]
    return omaha_function(rule, len(h))(*h, *(c.index for c in parse_cards(board)))


def test_the_rules_omaha_checks() -> None:
    """RULES.md's Omaha checks, through the one-call entry point (exactly two hole cards and three of the
    board, for the high and for the low separately: §2)."""
    # R18: one heart in the hand and four on the board make no flush.
    r18 = _rank("omaha_high", "QhJs9d8c", "AhKh7h4h2c")
    assert HandValue("omaha_high", r18).category != "flush"
    assert r18 == evaluate("omaha_high", "QhJs9d8c", "AhKh7h4h2c").rank
    # R19: three aces in a five-card Omaha hand and one on the board: the A-K-Q-J-T straight, never quads.
    r19 = _rank("omaha_high", "AcAdAhKs7c", "AsQsJhTd9d")
    assert HandValue("omaha_high", r19).category == "straight"
    # R20: K-Q with three other cards has the same straight and splits with R19's player.
    assert _rank("omaha_high", "KhQd2c3d4s", "AsQsJhTd9d") == r19
    # R21: six-card Omaha, A A A K 7 2 on a board A Q J T 9 of three suits: the straight; K-Q splits.
    r21 = _rank("omaha_high", "AcAdAhKs7c2d", "AsQsJhTd9d")
    assert HandValue("omaha_high", r21).category == "straight"
    assert _rank("omaha_high", "KhQd2c3d4s5h", "AsQsJhTd9d") == r21
    # R22: A-K of diamonds for the high flush, A-2 for the 5-4-3-2-A low (R24: different hole cards).
    r22_high = _rank("omaha_high", "AdKd3s2s", "Jd4d3cQd5h")
    assert r22_high == evaluate("high", "AdKdQdJd4d").rank  # A-K-Q-J-4 of diamonds
    assert HandValue("omaha_high", r22_high).category == "flush"
    assert _rank("omaha_eight_low", "AdKd3s2s", "Jd4d3cQd5h") == evaluate("eight_low", "Ad2s5h4d3c").rank
    # R27: a board of two distinct ranks of eight or lower: no low for anyone.
    assert _rank("omaha_eight_low", "Ah3d4c5s", "KsQd8c8h2s") == 0
    # R28: A-K-Q-J in the hand can never make a low, whatever the board.
    assert _rank("omaha_eight_low", "AsKdQcJh", "2c3d4h5s6c") == 0


def test_named_hands() -> None:
    """Four spades on the board and one in the hand are no flush in Omaha (R18); two in the hand are. The
    best low (A-2-3-4-5) needs two low hole cards; three on the board and one in the hand make no low
    (R28's reason)."""
    high = omaha_function("omaha_high", 4)

    def h(hole: str, board: str) -> int:
        return high(*(c.index for c in parse_cards(hole + board)))

    flush = h("As2sKdKc", "3s7s9sJd4h")
    one_spade = h("AsKdKcQh", "3s7s9sJs4h")
    assert flush > one_spade
    assert one_spade == h("AhKdKcQh", "3s7s9sJs4h")  # the spade in the hand plays as an ace, no more
    low = omaha_function("omaha_eight_low", 4)

    def lo(hole: str, board: str) -> int:
        return low(*(c.index for c in parse_cards(hole + board)))

    assert lo("As2dKcKh", "3c4d5hQsJs") > lo("As6dKcKh", "2c4d5hQsJs") > 0  # A-2-3-4-5 over A-2-4-5-6
    assert lo("AsKdKcQh", "2c3d4hQsJs") == 0  # one low hole card: no low


def test_ranker_and_the_function_agree_on_many_hands() -> None:
    """``ranker`` (which the engine's showdown calls) is the same number, on every hole count and board."""
    rng = random.Random(8)
    for rule in OMAHA_RULES:
        for hole in (4, 5, 6):
            for board in (3, 4, 5):
                f, g = omaha_function(rule, hole), ranker(rule, hole + board, hole=hole)
                for _ in range(300):
                    cards = rng.sample(range(52), hole + board)
                    assert f(*cards) == g(cards)


def test_bad_arguments_are_typed_errors() -> None:
    f = omaha_function("omaha_high", 4)
    with pytest.raises(TypeError):
        f(0, 1, 2, 3, 4, 5)  # two board cards
    with pytest.raises(TypeError):
        f(*range(10))  # six board cards
    with pytest.raises((TypeError, ValueError)):
        f(0, 1, 2, 3, 4, 5, 52)
    with pytest.raises((TypeError, ValueError)):
        f(0, 1, 2, 3, 4, 5, -1)
    with pytest.raises(TypeError):
        f(0, 1, 2, 3, 4, 5, "6")
    with pytest.raises(UnknownRule):
        omaha_function("texas")
    with pytest.raises(ValueError):
        omaha_function("high")
    with pytest.raises(ValueError):
        omaha_function("omaha_high", 7)


@pytest.mark.skipif(RANK7_BUILD != "c", reason="the C ranker was not built (no compiler at install)")
def test_repeated_cards_never_read_outside_the_tables() -> None:
    """Trusted input means distinct cards; a caller breaking that gets a rank or ValueError, no crash;
    with tables cut short every lookup is a ValueError."""
    from pokerroom.eval import _rank7, tables  # type: ignore[attr-defined]

    rng = random.Random(4)
    for rule in OMAHA_RULES:
        f = omaha_function(rule, 4)
        for cards in [[c] * 9 for c in range(52)] + [
            [rng.randrange(52) for _ in range(9)] for _ in range(2000)
        ]:
            with contextlib.suppress(ValueError):
                assert isinstance(f(*cards), int)
    lo, hi, _ = tables.multiset_index(5)
    keys, bits = tables.card_keys().tobytes(), tables.card_bits().tobytes()
    ms, fl = tables.multiset_values("high", 5), tables.flush_values("high")
    short = _rank7.make(
        keys, bits, lo[:1].tobytes(), hi[:1].tobytes(), ms[:1].tobytes(), fl[:1].tobytes(), 3, 4
    )
    with pytest.raises(ValueError):
        short(0, 5, 10, 15, 20, 25, 30, 34, 39)  # no flush: the multiset tables
    with pytest.raises(ValueError):
        short(0, 4, 9, 14, 16, 20, 24, 29, 35)  # clubs: 0, 4 in the hand and 16, 20, 24 on the board
    for mode, hole in ((3, 1), (3, 7), (0, 4)):
        with pytest.raises(ValueError):
            _rank7.make(keys, bits, lo.tobytes(), hi.tobytes(), ms.tobytes(), fl.tobytes(), mode, hole)


def test_without_the_c_ranker_the_python_entry_point_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without a C compiler gets the same function signature and the same ranks (its own
    Python lookups: every hole count and board, and boards of one suit for the flush lookups)."""
    from pokerroom.eval import fast

    monkeypatch.setattr(fast, "_rank7", None)
    fast.omaha_function.cache_clear()
    fast.ranker.cache_clear()
    try:
        rng = random.Random(6)
        for rule in OMAHA_RULES:
            for hole in (4, 5, 6):
                f = fast.omaha_function(rule, hole)
                assert f.__module__ == fast.__name__  # the Python function, not the C one
                for board in (3, 4, 5):
                    g = fast.ranker(rule, hole + board, hole=hole)
                    suit = rng.randrange(4)
                    same = [c for c in range(52) if c & 3 == suit]
                    for _ in range(40):
                        cards = rng.sample(range(52), hole + board)
                        suited = rng.sample(same, board)
                        mine = rng.sample([c for c in range(52) if c not in suited], hole)
                        for hand, table in ((cards[:hole], cards[hole:]), (mine, suited)):
                            assert f(*hand, *table) == g([*hand, *table]) == _expected(rule, hand, table)
            with pytest.raises(TypeError):
                f(*range(hole + 6))
    finally:
        fast.omaha_function.cache_clear()
        fast.ranker.cache_clear()

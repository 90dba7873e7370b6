"""The one-call seven-card entry point (``rank7_function``, the C ranker of eval/_rank7.c when it is
built) agrees with the reference evaluator for every seven-card ranking of the room, and refuses bad
arguments with a typed error instead of reading outside its tables."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.cards import Card, DeckSpec, parse_cards
from pokerroom.eval import UnknownRule, reference
from pokerroom.eval.fast import RANK7_BUILD, RANK7_RULES, rank7_function, ranker
from pokerroom.eval.rules import rule_spec


def _deck(rule: str) -> list[int]:
    low = rule_spec(rule).lowest_rank
    return [c.index for c in DeckSpec.STANDARD.cards() if c.rank >= low]


def _expected(rule: str, cards: list[int]) -> int:
    return reference.best(rule, tuple(Card.from_index(i) for i in cards))[0]


@pytest.mark.parametrize("rule", sorted(RANK7_RULES))
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_rank7_matches_the_reference(rule: str, data: st.DataObject) -> None:
    cards = data.draw(st.permutations(_deck(rule)))[:7]
    assert rank7_function(rule)(*cards) == _expected(rule, cards)


@pytest.mark.parametrize("rule", sorted(RANK7_RULES))
def test_rank7_matches_the_reference_on_flush_heavy_hands(rule: str) -> None:
    """Five to seven cards of one suit (every flush branch), and straights, against the reference."""
    rng = random.Random(20261206)
    deck = _deck(rule)
    f = rank7_function(rule)
    for _ in range(400):
        suit = rng.randrange(4)
        same = [c for c in deck if c & 3 == suit]
        k = rng.randint(4, 7)
        cards = rng.sample(same, k) + rng.sample([c for c in deck if c & 3 != suit], 7 - k)
        rng.shuffle(cards)
        assert f(*cards) == _expected(rule, cards)


def test_rank7_is_ranker_on_many_hands() -> None:
    rng = random.Random(7)
    for rule in RANK7_RULES:
        f, g = rank7_function(rule), ranker(rule, 7)
        deck = _deck(rule)
        for _ in range(3000):
            cards = rng.sample(deck, 7)
            assert f(*cards) == g(cards)


def test_named_hands() -> None:
    """A royal flush beats four aces beats a wheel straight flush... in the high ranking; the wheel
    is the best A-5 low; 7-5-4-3-2 the best 2-7 low (its flush would not be)."""

    def hand(text: str) -> list[int]:
        return [c.index for c in parse_cards(text)]

    high = rank7_function("high")
    royal = high(*hand("AsKsQsJsTs2c3d"))
    quads = high(*hand("AsAhAdAcKs2c3d"))
    wheel_sf = high(*hand("As2s3s4s5sKcQd"))
    assert royal > wheel_sf > quads
    ace5 = rank7_function("ace5_low")
    assert ace5(*hand("As2c3d4h5sKcKd")) > ace5(*hand("As2c3d4h6sKcKd"))
    d27 = rank7_function("deuce7_low")
    assert d27(*hand("7s5c4d3h2sKcKd")) > d27(*hand("7s5s4s3s2sKcKd"))
    for rule in RANK7_RULES:
        if rule_spec(rule).lowest_rank == 0:
            cards = hand("7s5c4d3h2sKcKd")
            assert rank7_function(rule)(*cards) == _expected(rule, cards)


def test_bad_arguments_are_typed_errors() -> None:
    f = rank7_function("high")
    with pytest.raises(TypeError):
        f(0, 1, 2, 3, 4, 5)  # type: ignore[call-arg]
    with pytest.raises((TypeError, ValueError)):
        f(0, 1, 2, 3, 4, 5, 52)
    with pytest.raises((TypeError, ValueError)):
        f(0, 1, 2, 3, 4, 5, -1)
    with pytest.raises(TypeError):
        f(0, 1, 2, 3, 4, 5, "6")  # type: ignore[arg-type]
    with pytest.raises(UnknownRule):
        rank7_function("texas")
    with pytest.raises(ValueError):
        rank7_function("badugi")


@pytest.mark.skipif(RANK7_BUILD != "c", reason="the C ranker was not built (no compiler at install)")
def test_repeated_cards_never_read_outside_the_tables() -> None:
    """Trusted input means distinct cards; a caller breaking that gets a rank or ValueError, no crash.
    Every lookup is bounds-checked: with tables cut short, the same hands are ValueErrors."""
    from pokerroom.eval import _rank7, tables  # type: ignore[attr-defined]

    rng = random.Random(3)
    hands = [[c] * 7 for c in range(52)] + [[rng.randrange(52) for _ in range(7)] for _ in range(3000)]
    for rule in RANK7_RULES:
        f = rank7_function(rule)
        for cards in hands:
            with contextlib.suppress(ValueError):
                assert isinstance(f(*cards), int)
    lo, hi, _ = tables.multiset_index(7)
    keys, bits = tables.card_keys().tobytes(), tables.card_bits().tobytes()
    ms, fl = tables.multiset_values("high", 7), tables.flush_values("high")
    short = _rank7.make(keys, bits, lo[:1].tobytes(), hi[:1].tobytes(), ms[:1].tobytes(), fl[:1].tobytes(), 0)
    with pytest.raises(ValueError):
        short(0, 5, 10, 15, 20, 24, 29)  # no flush: the multiset tables
    with pytest.raises(ValueError):
        short(0, 4, 8, 12, 16, 20, 24)  # seven clubs: the flush table
    with pytest.raises(ValueError):
        _rank7.make(keys[:8], bits, lo.tobytes(), hi.tobytes(), ms.tobytes(), fl.tobytes(), 0)
    with pytest.raises(ValueError):
        _rank7.make(keys, bits, lo.tobytes(), hi.tobytes(), ms.tobytes(), fl.tobytes(), 3)


def test_without_the_c_ranker_the_python_entry_point_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without a C compiler gets the same function signature and the same ranks."""
    from pokerroom.eval import fast

    monkeypatch.setattr(fast, "_rank7", None)
    fast.rank7_function.cache_clear()
    try:
        rng = random.Random(5)
        for rule in RANK7_RULES:
            f = fast.rank7_function(rule)
            assert f.__module__ == fast.__name__  # the Python function, not the C one
            for _ in range(200):
                cards = rng.sample(_deck(rule), 7)
                assert f(*cards) == _expected(rule, cards)
    finally:
        fast.rank7_function.cache_clear()

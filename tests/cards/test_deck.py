"""Decks and the shuffle (RULES.md §1.1, R9, R52)."""

from __future__ import annotations

import os
import random

from scipy.stats import chisquare

from pokerroom.cards import Card, DeckSpec, Rank, shuffle, shuffled_deck


def test_r9_standard_deck_has_52_distinct_cards_no_jokers() -> None:
    cards = DeckSpec.STANDARD.cards()
    assert len(cards) == 52 == len(set(cards))
    assert cards == tuple(Card.from_index(i) for i in range(52))


def test_r52_short_decks() -> None:
    seven = DeckSpec.SHORT_7A.cards()
    six = DeckSpec.SHORT_6A.cards()
    assert len(seven) == 32 and {c.rank for c in seven} == {r for r in Rank if r >= Rank.SEVEN}
    assert len(six) == 36 and min(c.rank for c in six) == Rank.SIX
    assert Card(Rank.SIX, 0) in DeckSpec.SHORT_6A and Card(Rank.SIX, 0) not in DeckSpec.SHORT_7A


def test_shuffle_is_a_permutation_and_deterministic_with_a_seed() -> None:
    deck = shuffled_deck(DeckSpec.STANDARD, random.Random(7))
    assert sorted(deck) == list(DeckSpec.STANDARD.cards())
    assert deck == shuffled_deck(DeckSpec.STANDARD, random.Random(7))
    assert deck != shuffled_deck(DeckSpec.STANDARD, random.Random(8))


def test_default_source_is_the_system_rng() -> None:
    # Two system shuffles of a 52-card deck coincide with probability 1/52!.
    assert shuffled_deck() != shuffled_deck()


def test_shuffle_uses_randrange_exactly_n_minus_1_times() -> None:
    calls: list[int] = []

    class Spy:
        def randrange(self, stop: int) -> int:
            calls.append(stop)
            return stop - 1  # identity permutation

    cards = DeckSpec.SHORT_7A.cards()
    assert shuffle(cards, Spy()) == list(cards)
    assert calls == list(range(32, 1, -1))


def test_shuffle_is_uniform_chi_square_on_positions() -> None:
    """Every card is equally likely in every position (chi-square per card, seeded, bounded in CI)."""
    trials = 200_000 if os.environ.get("POKERROOM_SOAK") else 20_000
    rng = random.Random(20261130)
    cards = DeckSpec.STANDARD.cards()
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(trials):
        for pos, card in enumerate(shuffle(cards, rng)):
            counts[card.index][pos] += 1
    pvalues = [chisquare(row).pvalue for row in counts]
    # 52 independent-ish tests at alpha = 0.001 with a Bonferroni-style bound: a biased shuffle (for
    # example j = randrange(n) instead of randrange(i + 1)) fails this by a wide margin.
    assert min(pvalues) > 0.001 / 52
    # And the p-values themselves look uniform (not all near 1 as a too-regular generator would give).
    assert 0.2 < sum(pvalues) / len(pvalues) < 0.8


def test_a_biased_shuffle_is_caught() -> None:
    """The statistical check has power: the classic naive shuffle is rejected."""
    rng = random.Random(1)
    cards = list(DeckSpec.SHORT_7A.cards())
    counts = [[0] * 32 for _ in range(32)]
    for _ in range(20_000):
        deck = cards[:]
        for i in range(len(deck)):
            j = rng.randrange(len(deck))
            deck[i], deck[j] = deck[j], deck[i]
        for pos, card in enumerate(deck):
            counts[cards.index(card)][pos] += 1
    assert min(chisquare(row).pvalue for row in counts) < 1e-6

"""Deck proofs (docs/fairness.md): every hand of every game verifies from every copy of its history, and a
tampered deck or salt does not (issue 19, "Provable fairness")."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import Betting, HandState, ListDeck, RakeRule, SeatSetup, Structure
from pokerroom.history import (
    DeckProof,
    HandContext,
    deck_commitment,
    read_phh,
    verify_hand,
    write_phh,
    write_pokerstars,
)
from pokerroom.server.fairness import DeckSeal
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command
from .helpers import CASES


def _hand(game: str, betting: Betting, seed: int) -> HandState:
    v = VARIANTS[game]
    rng = random.Random(seed)
    n = rng.randint(v.min_players, v.max_players)
    seats = sorted(rng.sample(range(1, 11), n))
    hand = HandState.start(
        variant=v,
        structure=Structure(betting, default_stakes(game, betting)),
        seats=[
            SeatSetup(s, rng.choice([40, 300, 5000, rng.randint(1, 20000)]), rng.random() < 0.7)
            for s in seats
        ],
        deck=ListDeck.shuffled(v.deck_for(n), rng, reshuffle=v.is_draw),
        button=rng.choice(seats),
        rake=RakeRule(500, 300) if rng.random() < 0.3 else None,
        hand_id=f"h{seed}",
        run_it_twice=v.has_shared_board,  # R-RIT: a second run's cards come from the committed deck too
    )
    while not hand.is_over:
        hand.apply(random_command(hand, rng))
    return hand


def _copies(hand: HandState, proof: DeckProof) -> list[str]:
    """The audit copy and each player's copy, with the proof."""
    ctx = HandContext(hand_id=hand.hand_id, proof=proof)
    return [write_phh(hand, viewer=None, context=ctx)] + [
        write_phh(hand, viewer=seat, context=ctx) for seat in hand.order
    ]


def _with(text: str, **fields: str) -> str:
    """The PHH text with some of its proof fields replaced."""
    lines = []
    for line in text.splitlines():
        key = line.split(" = ", 1)[0]
        if key in fields:
            line = f"{key} = {json.dumps(fields[key])}"
        lines.append(line)
    return "\n".join(lines) + "\n"


cases = st.sampled_from(CASES)
seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases, seed=seeds)
def test_every_hand_verifies_from_every_copy(case: tuple[str, Betting], seed: int) -> None:
    game, betting = case
    hand = _hand(game, betting, seed)
    seal = DeckSeal(hand)
    for text in _copies(hand, seal.proof()):
        verdict = verify_hand(read_phh(text), commitment=seal.commitment)
        assert verdict.ok, (game, betting, seed, verdict.problems)
        assert verdict.problems == []
    # the audit copy names every card dealt: all of them are compared with the deck
    audit = verify_hand(read_phh(_copies(hand, seal.proof())[0]))
    assert audit.checked > 0
    assert audit.notes == []


@settings(max_examples=80, deadline=None)
@given(case=cases, seed=seeds, data=st.data())
def test_a_tampered_salt_fails(case: tuple[str, Betting], seed: int, data: st.DataObject) -> None:
    game, betting = case
    hand = _hand(game, betting, seed)
    seal = DeckSeal(hand)
    texts = _copies(hand, seal.proof())
    text = texts[data.draw(st.integers(0, len(texts) - 1))]
    salt = data.draw(st.text("0123456789abcdef", min_size=1, max_size=40).filter(lambda s: s != seal.salt))
    verdict = verify_hand(read_phh(_with(text, _deck_salt=salt)))
    assert not verdict.ok
    assert any("SHA-256(salt:deck)" in p for p in verdict.problems)


@settings(max_examples=80, deadline=None)
@given(case=cases, seed=seeds, data=st.data())
def test_a_tampered_deck_fails(case: tuple[str, Betting], seed: int, data: st.DataObject) -> None:
    """Two cards of the deck swapped: with the commitment published at the start the hash differs; with a
    commitment made up to fit the new deck, the cards the history shows are not the deck's in order (the
    swap touches the first card dealt, which the audit copy always shows)."""
    game, betting = case
    hand = _hand(game, betting, seed)
    seal = DeckSeal(hand)
    deck = json.loads(seal.deck_text)
    cards = deck["cards"].split()
    j = data.draw(st.integers(1, len(cards) - 1))
    cards[0], cards[j] = cards[j], cards[0]
    forged = json.dumps({**deck, "cards": " ".join(cards)}, sort_keys=True, separators=(",", ":"))
    audit = _copies(hand, seal.proof())[0]
    same_commitment = verify_hand(read_phh(_with(audit, _deck=forged)))
    assert not same_commitment.ok
    assert any("SHA-256(salt:deck)" in p for p in same_commitment.problems)
    new = deck_commitment(forged, seal.salt)
    refit = read_phh(_with(audit, _deck=forged, _deck_commitment=new))
    verdict = verify_hand(refit)
    assert not verdict.ok
    assert any("card 1 of the deal" in p for p in verdict.problems), verdict.problems
    published = verify_hand(refit, commitment=seal.commitment)
    assert any("not the one published" in p for p in published.problems)


def test_what_differs_is_named_exactly() -> None:
    """A hold'em hand whose history says the first hole card was another card than the deck's."""
    hand = _hand("holdem", Betting.NO_LIMIT, 7)
    seal = DeckSeal(hand)
    text = _copies(hand, seal.proof())[0]
    first = json.loads(seal.deck_text)["cards"].split()[0]
    deck_text = seal.deck_text
    # swap the first card with the last one of the deck and commit to the result
    cards = json.loads(deck_text)["cards"].split()
    cards[0], cards[-1] = cards[-1], cards[0]
    forged = json.dumps(
        {**json.loads(deck_text), "cards": " ".join(cards)}, sort_keys=True, separators=(",", ":")
    )
    verdict = verify_hand(
        read_phh(_with(text, _deck=forged, _deck_commitment=deck_commitment(forged, seal.salt)))
    )
    assert not verdict.ok
    assert verdict.problems[0] == (
        f"card 1 of the deal (a hole card to p1): the history has {first}, the deck has {cards[0]}"
    )


def test_a_history_without_a_proof_says_so() -> None:
    hand = _hand("holdem", Betting.NO_LIMIT, 3)
    verdict = verify_hand(read_phh(write_phh(hand)))
    assert not verdict.ok
    assert verdict.problems == ["the history has no deck proof (_deck_commitment, _deck_salt, _deck)"]


def test_a_deck_that_is_not_whole_fails() -> None:
    hand = _hand("holdem", Betting.NO_LIMIT, 4)
    seal = DeckSeal(hand)
    deck = json.loads(seal.deck_text)
    cards = deck["cards"].split()
    cards[5] = cards[6]  # one card twice
    forged = json.dumps({**deck, "cards": " ".join(cards)}, sort_keys=True, separators=(",", ":"))
    text = _with(_copies(hand, seal.proof())[0], _deck=forged, _deck_commitment=deck_commitment(forged, "x"))
    verdict = verify_hand(read_phh(_with(text, _deck_salt="x")))
    assert verdict.problems == ["the revealed deck is not a whole deck (every card of its kind once)"]


@pytest.mark.parametrize("game", ["holdem", "stud", "deuce7_triple"])
def test_the_text_export_carries_the_proof(game: str) -> None:
    v = VARIANTS[game]
    hand = _hand(game, v.structures[0], 11)
    seal = DeckSeal(hand)
    text = write_pokerstars(hand, HandContext(hand_id="1", proof=seal.proof()), viewer=hand.order[0])
    tail = text.rstrip("\n").splitlines()[-3:]
    assert tail == [
        f"Deck commitment (SHA-256): {seal.commitment}",
        f"Deck salt: {seal.salt}",
        f"Deck: {seal.deck_text}",
    ]
    assert (
        deck_commitment(tail[2].removeprefix("Deck: "), tail[1].removeprefix("Deck salt: "))
        == seal.commitment
    )

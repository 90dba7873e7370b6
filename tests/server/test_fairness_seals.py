"""The server's deck seals (docs/fairness.md): one per hand, the secret kept out of reprs and snapshots."""

from __future__ import annotations

import random

import orjson

from pokerroom.engine import Betting, HandState, ListDeck, SeatSetup, Structure
from pokerroom.history import deck_commitment
from pokerroom.server.fairness import DeckSeal, Seals
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes


def _hand(hand_id: str, seed: int = 1) -> HandState:
    return HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(Betting.NO_LIMIT, default_stakes("holdem", Betting.NO_LIMIT)),
        seats=[SeatSetup(1, 500, True), SeatSetup(2, 500, True)],
        deck=ListDeck.shuffled(VARIANTS["holdem"].deck, random.Random(seed), reshuffle=False),
        button=1,
        hand_id=hand_id,
    )


def test_a_seal_commits_to_the_engines_deck_with_a_fresh_salt() -> None:
    hand = _hand("h1")
    a, b = DeckSeal(hand), DeckSeal(hand)
    assert a.salt != b.salt and a.commitment != b.commitment  # a fresh 128-bit salt each time
    assert len(a.salt) == 32 and int(a.salt, 16) >= 0
    assert orjson.loads(a.deck_text) == hand.deck_data()
    assert a.commitment == deck_commitment(a.deck_text, a.salt)
    assert a.salt not in repr(a) and a.deck_text not in repr(a)


def test_seals_give_one_seal_per_hand_and_forget_it_once_revealed() -> None:
    seals = Seals()
    hand = _hand("h2")
    seal = seals.of(hand)
    assert seals.of(hand) is seal and seals.get("h2") is seal
    sent: list[tuple[str, str]] = []
    proof = seals.reveal("h2", "t1", ["7", "9", "7"], lambda player, text: sent.append((player, text)))
    assert proof is not None and proof.holds() and proof.salt == seal.salt
    assert [p for p, _ in sent] == ["7", "9"]  # once per player
    frame = orjson.loads(sent[0][1])
    assert frame == {
        "type": "deck_revealed",
        "table": "t1",
        "hand_id": "h2",
        "commitment": seal.commitment,
        "salt": seal.salt,
        "deck": seal.deck_text,
    }
    assert seals.get("h2") is None
    assert seals.reveal("h2", "t1", ["7"], lambda player, text: sent.append((player, text))) is None
    assert len(sent) == 2  # never twice


def test_a_snapshot_gets_the_commitment_and_nothing_else() -> None:
    seals = Seals()
    seal = seals.of(_hand("h3"))
    state = {"table": "t", "hand": {"hand_id": "h3", "board": []}}
    seals.stamp(state)
    assert state["hand"] == {"hand_id": "h3", "board": [], "commitment": seal.commitment}
    assert seals.stamp({"table": "t", "hand": None}) == {"table": "t", "hand": None}
    assert seals.stamp(None) is None

"""The server's deck seals (docs/fairness.md): one per hand, each position committed with its own salt, the
secret kept out of reprs and snapshots, and each player given only his own openings (R184)."""

from __future__ import annotations

import random

import orjson

from pokerroom.engine import Betting, HandState, ListDeck, SeatSetup, Structure
from pokerroom.history import deck_commitment, parse_proof
from pokerroom.history.deckproof import leaf_hash, root_hash
from pokerroom.server.fairness import DeckSeal, Seals
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command


def _hand(hand_id: str, seed: int = 1) -> HandState:
    return HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(Betting.NO_LIMIT, default_stakes("holdem", Betting.NO_LIMIT)),
        seats=[SeatSetup(1, 500, True), SeatSetup(2, 500, True)],
        deck=ListDeck.shuffled(VARIANTS["holdem"].deck, random.Random(seed), reshuffle=False),
        button=1,
        hand_id=hand_id,
    )


def test_a_seal_commits_to_each_position_of_the_engines_deck_with_fresh_salts() -> None:
    hand = _hand("h1")
    a, b = DeckSeal(hand), DeckSeal(hand)
    assert a.commitment != b.commitment  # fresh 128-bit salts each time
    full = a.proof()
    assert full.full and full.root == a.commitment
    assert " ".join(c for _, c, _ in full.openings) == hand.deck_data()["cards"]
    salts = [s for _, _, s in full.openings]
    assert len(set(salts)) == len(salts) == 52 and all(len(s) == 32 and int(s, 16) >= 0 for s in salts)
    assert all(leaf_hash("deck", i, c, s) == full.leaves[i] for i, c, s in full.openings)
    assert root_hash(52, None, full.leaves, ()) == a.commitment
    assert full.reshuffle_leaves == ()  # hold'em never reshuffles
    # the hand journal's own record (server side) is the old whole-deck hash
    assert orjson.loads(a.deck_text) == hand.deck_data()
    assert a.journal_commitment == deck_commitment(a.deck_text, a.salt)
    assert all(s not in repr(a) and s not in repr(full) for s in [a.salt, a.deck_text, *salts])


def test_seals_give_one_seal_per_hand_and_forget_it_once_revealed() -> None:
    seals = Seals()
    hand = _hand("h2")
    while not hand.is_over:
        hand.apply(random_command(hand, random.Random(2)))
    seal = seals.of(hand)
    assert seals.of(hand) is seal and seals.get("h2") is seal
    sent: list[tuple[str, str]] = []
    players = {1: ("7", "Ann"), 2: ("9", "Bob")}
    proof = seals.reveal("h2", "t1", players, hand.events, lambda player, text: sent.append((player, text)))
    assert proof is seal.proof() and proof.full
    assert [p for p, _ in sent] == ["7", "9"]  # once per player
    for (_, text), seat in zip(sent, (1, 2), strict=True):
        frame = orjson.loads(text)
        assert frame == {
            "type": "deck_revealed",
            "table": "t1",
            "hand_id": "h2",
            "commitment": seal.commitment,
            "proof": seal.proof().for_viewer(hand.events, seat).to_text(),
        }
        mine = parse_proof(frame["proof"])
        assert {c for _, c, _ in mine.openings} >= {str(c) for c in hand.players[seat].hole}
        other = 3 - seat
        if hand.players[other].folded:  # R184: never the cards of a player who folded
            assert not {c for _, c, _ in mine.openings} & {str(c) for c in hand.players[other].hole}
    assert seals.get("h2") is None
    assert seals.reveal("h2", "t1", players, hand.events, lambda p, t: sent.append((p, t))) is None
    assert len(sent) == 2  # never twice


def test_a_snapshot_gets_the_commitment_and_nothing_else() -> None:
    seals = Seals()
    seal = seals.of(_hand("h3"))
    state = {"table": "t", "hand": {"hand_id": "h3", "board": []}}
    seals.stamp(state)
    assert state["hand"] == {
        "hand_id": "h3",
        "board": [],
        "commitment": seal.commitment,
        "next_seed": None,  # (a deck the room shuffled itself: no seeds)
        "seed_at": None,
    }
    assert seals.stamp({"table": "t", "hand": None}) == {"table": "t", "hand": None}
    assert seals.stamp(None) is None


def test_the_operator_may_open_the_undealt_stub_and_nothing_more() -> None:
    """``[fairness] open_stub`` (docs/configuration.md): off by default; on, each player's proof also opens
    the positions no card was dealt from, never another player's folded cards (R184)."""
    from pathlib import Path

    from pokerroom.server.config.parse import parse_config

    text = (Path(__file__).parents[2] / "src/pokerroom/server/config/room.toml").read_text()
    assert parse_config(text).fairness_open_stub is False
    assert parse_config(text.replace("open_stub = false", "open_stub = true")).fairness_open_stub is True
    hand = _hand("h4", seed=4)
    while not hand.is_over:
        hand.apply(random_command(hand, random.Random(4)))
    dealt = 52 - hand.deck.remaining()
    for stub in (False, True):
        seals = Seals(open_stub=lambda stub=stub: stub)  # type: ignore[misc]
        seal = seals.of(hand)
        for seat in (1, 2):
            mine = parse_proof(seal.revealed("t", hand.events, seat)["proof"])
            opened = {i for i, _, _ in mine.openings}
            assert (set(range(dealt, 52)) <= opened) is stub and mine.stub is stub
            other = 3 - seat
            if hand.players[other].folded:
                assert not {c for _, c, _ in mine.openings} & {str(c) for c in hand.players[other].hole}

"""The browser's own check of a deck proof (web/js/fairness.js, docs/fairness.md): a player's proof made
by the room holds; a changed card, salt, leaf or a non-canonical text does not, and says where."""

from __future__ import annotations

import json
import random
from typing import Any

from pokerroom.engine import Betting, HandState, ListDeck, SeatSetup, Structure
from pokerroom.rooms.dealing import deal_deck
from pokerroom.server.fairdeal import DealingRandom
from pokerroom.server.fairness import DeckSeal
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes, random_command
from .conftest import Room

CHECK = "t => import('/static/js/fairness.js').then(m => m.checkProof(t))"


def _proof() -> tuple[str, str]:
    """A player's proof of a hold'em hand dealt from seeds, and the root."""
    rng = DealingRandom(random.Random(8))
    v = VARIANTS["holdem"]
    deck: ListDeck = deal_deck(rng, v.deck, reshuffle=False, key="t", hand_id="h", players={1: "a", 2: "b"})
    hand = HandState.start(
        variant=v,
        structure=Structure(Betting.NO_LIMIT, default_stakes("holdem", Betting.NO_LIMIT)),
        seats=[SeatSetup(1, 500, True), SeatSetup(2, 500, True)],
        deck=deck,
        button=1,
        hand_id="h",
    )
    while not hand.is_over:
        hand.apply(random_command(hand, random.Random(1)))
    seal = DeckSeal(hand, seeds=rng.dealer.seeds_of("h"))
    return seal.revealed("t", hand.events, 1)["proof"], seal.commitment


def test_the_page_checks_a_proof_and_names_what_differs(room: Room, page: Any) -> None:
    page.goto(room.url)
    text, root = _proof()
    ok = page.evaluate(CHECK, text)
    assert ok["problems"] == [] and ok["root"] == root and ok["leaves"] == 52 and len(ok["opened"]) >= 2
    data = json.loads(text)
    i, card, salt = data["deck"]["open"][0]
    other = "Ac" if card != "Ac" else "Kc"
    bad_card = {**data, "deck": {**data["deck"], "open": [[i, other, salt], *data["deck"]["open"][1:]]}}
    got = page.evaluate(CHECK, json.dumps(bad_card, sort_keys=True, separators=(",", ":")))
    assert got["problems"] == [f"Position {i} ({other}): the opening does not hash to its leaf."]
    leaves = list(data["deck"]["leaves"])
    leaves[51] = "0" * 64
    bad_leaf = {**data, "deck": {**data["deck"], "leaves": leaves}}
    got = page.evaluate(CHECK, json.dumps(bad_leaf, sort_keys=True, separators=(",", ":")))
    assert len(got["problems"]) == 1 and got["problems"][0].startswith("The leaves hash to ")
    spaced = page.evaluate(CHECK, json.dumps(data, sort_keys=True))
    assert spaced["problems"] == ["The proof is not readable (not its canonical text)."]

"""The leak checker (tests/server/leakcheck.py) reads deck proofs (issue 34, defect 1; R184, R262): a
proof that opens another player's folded card, or a whole deck's text, is a leak; a player's own proof is
not."""

from __future__ import annotations

import random
from typing import Any

import orjson

from pokerroom.engine import Betting, HandState, ListDeck, SeatSetup, Structure
from pokerroom.engine.commands import Fold
from pokerroom.server.fairness import DeckSeal
from pokerroom.variants import VARIANTS

from ..engine.helpers import default_stakes
from .leakcheck import HandTruth, Recorder, Report, Viewer, cards_in, check


def _folded_hand() -> HandState:
    """Heads-up hold'em: the small blind (seat 1, the button) folds preflop."""
    hand = HandState.start(
        variant=VARIANTS["holdem"],
        structure=Structure(Betting.NO_LIMIT, default_stakes("holdem", Betting.NO_LIMIT)),
        seats=[SeatSetup(1, 500, True), SeatSetup(2, 500, True)],
        deck=ListDeck.shuffled(VARIANTS["holdem"].deck, random.Random(4), reshuffle=False),
        button=1,
        hand_id="h1",
    )
    hand.apply(Fold(hand.pending.seat))  # type: ignore[union-attr]
    assert hand.is_over
    return hand


def _report(hand: HandState, frame: dict[str, Any], seat: int) -> Report:
    rec = Recorder()
    truth = rec.hands.setdefault(("t", "h1"), HandTruth("h1"))
    truth.events += list(hand.events)
    truth.seqs = {i + 1: i for i in range(len(hand.events))}
    viewer = Viewer(f"seat{seat}", "t", seat)
    viewer.frames = [
        *(
            orjson.dumps(
                {"type": "event", "table": "t", "seq": i + 1, "hand_id": "h1", "event": {"type": e.kind}}
            ).decode()
            for i, e in enumerate(hand.events)
        ),
        orjson.dumps(frame).decode(),
    ]
    report = Report()
    check(viewer, rec, report)
    return report


def test_each_players_own_proof_passes_the_checker() -> None:
    hand = _folded_hand()
    seal = DeckSeal(hand)
    for seat in (1, 2):
        report = _report(hand, seal.revealed("t", hand.events, seat), seat)
        assert report.leaks == [] and report.cards_checked >= 2


def test_a_proof_that_opens_the_folded_hand_is_a_leak() -> None:
    """What every player got before issue 34 (the whole deck, or every opening) names the folded cards."""
    hand = _folded_hand()
    seal = DeckSeal(hand)
    folder = next(s for s in hand.order if hand.players[s].folded)
    other = 3 - folder
    full = {**seal.revealed("t", hand.events, other), "proof": seal.proof().to_text()}
    leaks = _report(hand, full, other).leaks
    assert leaks and all(f"(seat {other}) saw" in x for x in leaks)
    old = {"type": "deck_revealed", "table": "t", "hand_id": "h1", "deck": hand.deck_data()["cards"]}
    assert _report(hand, old, other).leaks


def test_cards_are_found_inside_texts() -> None:
    assert set(cards_in({"proof": '{"deck":{"open":[[0,"As","00"]]}}'})) == {"As"}
    assert set(cards_in({"deck": "2c 3d ?? 10h"})) == {"2c", "3d", "10h"}
    assert list(cards_in({"chat": "As I said"})) == []

"""Checking a hand's deck proof (docs/fairness.md): ``pokerroom verify`` and the browser's "Verify".

A hand history of a player dealt in carries the commitment published when the hand started and the salt
and deck revealed when it was over (PHH ``_deck_commitment``, ``_deck_salt``, ``_deck``). The check:

1. ``SHA-256(salt:deck)`` is the commitment (and, when the caller kept it, the one published at the start);
2. the deck is a whole deck of the hand's kind (every card once);
3. every card the history names was dealt from the deck in the dealing order: the hand is replayed
   through the engine, which asks for its cards one by one (hole, board, burn, draw), and the n-th card
   asked for must be the deck's n-th card. Cards the history hides (``??``) are not compared; a card
   shown at the showdown must be one the deck dealt to that player. A draw game's reshuffle of the
   discards uses the deck's committed reshuffle order; when the history hides discards of others (a
   player's copy), the cards dealt after a reshuffle cannot be checked, and the verdict says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pokerroom.cards import Card
from pokerroom.engine import ListDeck, RestoreError
from pokerroom.history.errors import HistoryError
from pokerroom.history.model import DeckProof, PhhHand, deck_commitment
from pokerroom.history.replay import replay

__all__ = ["Verdict", "proof_of", "verify_hand"]

_WHAT = {"hole": "a hole card", "board": "a board card", "draw": "a drawn card", "burn": "a burn"}


@dataclass(slots=True)
class Verdict:
    """The outcome: ``ok`` when nothing differs; ``problems`` says exactly what does, ``notes`` what could
    not be checked. ``checked`` counts the dealt cards compared with the deck."""

    hand_id: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: int = 0
    commitment: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "ok": self.ok,
            "problems": list(self.problems),
            "notes": list(self.notes),
            "checked": self.checked,
            "commitment": self.commitment,
        }


def proof_of(hand: PhhHand) -> DeckProof | None:
    """The deck proof a history carries, or None."""
    f = hand.fields
    commitment, salt, deck = f.get("_deck_commitment"), f.get("_deck_salt"), f.get("_deck")
    if not all(isinstance(x, str) and x for x in (commitment, salt, deck)):
        return None
    assert isinstance(commitment, str) and isinstance(salt, str) and isinstance(deck, str)
    return DeckProof(commitment, salt, deck)


def _deck(proof: DeckProof) -> ListDeck:
    try:
        data = json.loads(proof.deck)
    except ValueError:
        raise HistoryError("the revealed deck is not JSON") from None
    if not isinstance(data, dict) or data.get("kind") != "list":
        raise HistoryError("the revealed deck is not a list of cards")
    try:
        return ListDeck.from_data(data)
    except RestoreError:
        raise HistoryError("the revealed deck is not a whole deck (every card of its kind once)") from None


def verify_hand(hand: PhhHand, *, commitment: str | None = None) -> Verdict:
    """Check the deck proof of ``hand``; ``commitment`` is the one published at the start, when the caller
    kept it (the history's own is compared with it)."""
    verdict = Verdict(hand.context.hand_id, ok=False)
    proof = proof_of(hand)
    if proof is None:
        verdict.problems.append("the history has no deck proof (_deck_commitment, _deck_salt, _deck)")
        return verdict
    verdict.commitment = proof.commitment
    problems = verdict.problems
    if commitment is not None and commitment.strip().lower() != proof.commitment.lower():
        problems.append(
            f"the history's commitment {proof.commitment} is not the one published at the start "
            f"({commitment.strip().lower()})"
        )
    computed = deck_commitment(proof.deck, proof.salt)
    if computed != proof.commitment.lower():
        problems.append(f"SHA-256(salt:deck) is {computed}, but the commitment is {proof.commitment}")
    try:
        deck = _deck(proof)
    except HistoryError as exc:
        problems.append(exc.reason)
        return verdict
    wanted = hand.variant.deck_for(hand.player_count)
    if deck.spec is not wanted:
        problems.append(f"the deck has {deck.spec.size} cards; this game deals from {wanted.size}")
        return verdict
    try:
        result = replay(hand)
    except HistoryError as exc:
        problems.append(f"the history does not replay: {exc}")
        return verdict
    _compare(hand, deck, result.deals, verdict)
    if result.unused:
        problems.append(f"the history names {result.unused} card(s) that the deck never dealt")
    verdict.ok = not problems
    return verdict


def _compare(
    hand: PhhHand, deck: ListDeck, deals: list[tuple[str, int | None, tuple[Card, ...]]], verdict: Verdict
) -> None:
    """Walk the engine's requests for cards against the deck and the history's cards (see the module)."""
    hole: dict[int, list[Card | None]] = {}
    board: list[Card | None] = []
    shown: dict[int, set[Card]] = {}
    discard_lines: list[int] = []
    for a in hand.actions:
        if a.verb == "dh" and a.actor is not None:
            hole.setdefault(hand.seat_of(a.actor), []).extend(a.cards)
        elif a.verb == "db":
            board.extend(a.cards)
        elif a.verb == "sm" and a.actor is not None and a.show:
            shown.setdefault(hand.seat_of(a.actor), set()).update(c for c in a.cards if c is not None)
        elif a.verb == "sd" and any(c is None for c in a.cards):
            discard_lines.append(a.index)
    hidden_discards = bool(discard_lines)
    dealt: dict[int, set[Card]] = {}
    n = 0
    for purpose, seat, cards in deals:
        if purpose == "reshuffle":
            if hidden_discards:
                verdict.notes.append(
                    "the discards were reshuffled, and this history hides some of them: the cards dealt "
                    "after the reshuffle are not checked"
                )
                break
            deck.reshuffle(cards)
            continue
        if deck.remaining() == 0:
            verdict.problems.append(f"the hand asks for card {n + 1}, but the deck is used up")
            break
        card = deck.take(purpose, seat)
        n += 1
        expected: Card | None = None
        if purpose in ("hole", "draw") and seat is not None:
            dealt.setdefault(seat, set()).add(card)
            queue = hole.get(seat)
            expected = queue.pop(0) if queue else None
            who = f" to p{hand.player_of(seat)}"
        elif purpose == "board":
            expected = board.pop(0) if board else None
            who = ""
        else:
            continue
        if expected is None:
            continue
        verdict.checked += 1
        if expected != card:
            verdict.problems.append(
                f"card {n} of the deal ({_WHAT.get(purpose, purpose)}{who}): the history has {expected}, "
                f"the deck has {card}"
            )
    else:
        for seat, showed in sorted(shown.items()):
            stray = sorted(str(c) for c in showed - dealt.get(seat, set()))
            if stray:
                verdict.problems.append(
                    f"p{hand.player_of(seat)} shows {' '.join(stray)}, which the deck did not deal to him"
                )

"""The whole-deck proof of histories written before issue 34 (docs/fairness.md, "Older histories"):
``_deck_commitment``, ``_deck_salt`` and ``_deck``, with ``SHA-256(salt ":" deck)`` the commitment. The
room writes it no more (it gave every player the folded hands, R184); ``pokerroom verify`` still checks
it, in its exact documented encoding only: the commitment 64 lowercase hex digits, the salt 32, the deck
its own canonical JSON (sorted keys, no spaces, each key once, cards in canonical form)."""

from __future__ import annotations

import json
import re

import orjson

from pokerroom.cards import Card
from pokerroom.engine import ListDeck, RestoreError
from pokerroom.history.errors import HistoryError
from pokerroom.history.model import LegacyProof, PhhHand, deck_commitment, history_cards
from pokerroom.history.replay import replay
from pokerroom.history.verdict import Verdict

__all__ = ["compare_legacy", "legacy_proof_of", "verify_legacy"]

_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_SALT = re.compile(r"[0-9a-f]{32}\Z")


def legacy_proof_of(hand: PhhHand) -> LegacyProof | None:
    f = hand.fields
    commitment, salt, deck = f.get("_deck_commitment"), f.get("_deck_salt"), f.get("_deck")
    if not all(isinstance(x, str) and x for x in (commitment, salt, deck)):
        return None
    assert isinstance(commitment, str) and isinstance(salt, str) and isinstance(deck, str)
    return LegacyProof(commitment, salt, deck)


class _Repeated(Exception):
    pass


def _no_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _Repeated
    return dict(pairs)


def _deck(proof: LegacyProof) -> ListDeck:
    if not _SALT.match(proof.salt):
        raise HistoryError("the salt is not 32 lowercase hex digits (the documented encoding)")
    if not _HEX64.match(proof.commitment):
        raise HistoryError("the commitment is not 64 lowercase hex digits (the documented encoding)")
    try:
        data = json.loads(proof.deck, object_pairs_hook=_no_repeats)
    except _Repeated:
        raise HistoryError("the revealed deck repeats a key") from None
    except ValueError:
        raise HistoryError("the revealed deck is not JSON") from None
    if (
        not isinstance(data, dict)
        or data.get("kind") != "list"
        or set(data) != {"cards", "kind", "reshuffle", "spec"}
    ):
        raise HistoryError("the revealed deck is not a list of cards")
    try:
        deck = ListDeck.from_data(data)
    except RestoreError:
        raise HistoryError("the revealed deck is not a whole deck (every card of its kind once)") from None
    if orjson.dumps(deck.to_data(), option=orjson.OPT_SORT_KEYS).decode() != proof.deck:
        raise HistoryError("the revealed deck is not in its canonical encoding (sorted keys, no spaces)")
    return deck


def verify_legacy(hand: PhhHand, verdict: Verdict, commitment: str | None) -> Verdict:
    proof = legacy_proof_of(hand)
    if proof is None:
        verdict.problems.append("the history has no deck proof (_deck_proof)")
        return verdict
    verdict.commitment = proof.commitment
    problems = verdict.problems
    if commitment is not None and commitment.strip().lower() != proof.commitment:
        problems.append(
            f"the history's commitment {proof.commitment} is not the one published at the start "
            f"({commitment.strip().lower()})"
        )
    try:
        deck = _deck(proof)
    except HistoryError as exc:
        problems.append(exc.reason)
        return verdict
    computed = deck_commitment(proof.deck, proof.salt)
    if computed != proof.commitment:
        problems.append(f"SHA-256(salt:deck) is {computed}, but the commitment is {proof.commitment}")
    wanted = hand.variant.deck_for(hand.player_count)
    if deck.spec is not wanted:
        problems.append(f"the deck has {deck.spec.size} cards; this game deals from {wanted.size}")
        return verdict
    try:
        result = replay(hand)
    except HistoryError as exc:
        problems.append(f"the history does not replay: {exc}")
        return verdict
    compare_legacy(hand, deck, result.deals, verdict)
    if result.unused:
        problems.append(f"the history names {result.unused} card(s) that the deck never dealt")
    verdict.ok = not problems
    return verdict


_WHAT = {"hole": "a hole card", "board": "a board card", "draw": "a drawn card", "burn": "a burn"}


def compare_legacy(
    hand: PhhHand, deck: ListDeck, deals: list[tuple[str, int | None, tuple[Card, ...]]], verdict: Verdict
) -> None:
    """The old proof's walk: the engine's requests for cards against the whole deck and the history."""
    seen = history_cards(hand)
    hole, board, shown, hidden_discards = seen.hole, seen.board, seen.shown, seen.hidden_discards
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

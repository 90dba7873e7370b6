"""Checking a hand's deck proof (docs/fairness.md): ``pokerroom verify`` and the browser's "Verify".

A history carries its deck proof in PHH ``_deck_proof`` (canonical JSON: :mod:`pokerroom.history.deckproof`):
the root published when the hand started, every position's leaf, and the openings of the cards this copy
shows (a player's copy) or of every position and the server seed (the audit copy, the auditor's full
opening). The check:

1. the text is exactly the proof's canonical encoding (anything else is refused);
2. the root is the hash of the leaves and the seed part (and, when the caller kept it, the one published
   at the start); every opening hashes to its leaf;
3. every card the history names was dealt from its committed position: the hand is replayed through the
   engine, which asks for its cards one by one (hole, burn, board, draw), and the n-th card asked for
   must be the card opened at position n. A card shown at the showdown must be one dealt to that player.
   A player's proof that opens a card his copy hides is refused (R184);
4. a full opening also: the openings are a whole deck; the server seed hashes to its commitment; the
   deck is ``deal_order(combined seed)`` (docs/shuffle.md) in both orders (the deal no one chooses);
5. with ``contribution``: the player's own contribution is the one the proof lists at his seat.

Histories written before issue 34 carry the old whole-deck proof (``_deck_commitment``, ``_deck_salt``,
``_deck``); they are still checked, in their exact documented encoding (:mod:`pokerroom.history.legacy`).
"""

from __future__ import annotations

from pokerroom.cards import Card, DeckSpec, parse_card
from pokerroom.engine import ConfigError, ListDeck
from pokerroom.history.deckproof import DeckProof, leaf_hash, parse_proof, root_hash
from pokerroom.history.errors import HistoryError
from pokerroom.history.legacy import verify_legacy
from pokerroom.history.model import PhhHand, history_cards
from pokerroom.history.replay import replay
from pokerroom.history.seeds import check_seeds
from pokerroom.history.verdict import Verdict

__all__ = ["Verdict", "proof_of", "verify_hand"]

_WHAT = {"hole": "a hole card", "board": "a board card", "draw": "a drawn card", "burn": "a burn"}


def proof_of(hand: PhhHand) -> DeckProof | None:
    """The deck proof a history carries (None: none); :class:`HistoryError` if it is not in the
    documented encoding."""
    text = hand.fields.get("_deck_proof")
    if text is None:
        return None
    if not isinstance(text, str):
        raise HistoryError("the deck proof is not in the documented encoding: _deck_proof must be a text")
    return parse_proof(text)


def verify_hand(hand: PhhHand, *, commitment: str | None = None, contribution: str | None = None) -> Verdict:
    """Check the deck proof of ``hand``; ``commitment`` is the root published at the start, when the caller
    kept it; ``contribution`` the value the viewer's client sent for this hand (64 hex digits)."""
    verdict = Verdict(hand.context.hand_id, ok=False)
    if "_deck_proof" not in hand.fields:
        return verify_legacy(hand, verdict, commitment)  # (histories of before issue 34)
    try:
        proof = proof_of(hand)
    except HistoryError as exc:
        verdict.problems.append(exc.reason)
        return verdict
    assert proof is not None
    verdict.commitment = proof.root
    problems = verdict.problems
    if commitment is not None and commitment.strip().lower() != proof.root:
        problems.append(
            f"the history's commitment {proof.root} is not the one published at the start "
            f"({commitment.strip().lower()})"
        )
    _check_hashes(proof, problems)
    wanted = hand.variant.deck_for(hand.player_count)
    if proof.spec != wanted.size:
        problems.append(f"the deck has {proof.spec} cards; this game deals from {wanted.size}")
        return verdict
    if proof.seed is not None and proof.seed.server_seed is not None:  # the auditor's full opening
        if proof.full:
            check_seeds(proof, hand.context.hand_id, wanted, problems)
        else:
            problems.append("a player's proof carries the server seed (it would tell every folded card)")
    _check_contribution(hand, proof, contribution, verdict)
    try:
        result = replay(hand)
    except HistoryError as exc:
        problems.append(f"the history does not replay: {exc}")
        return verdict
    _compare(hand, proof, wanted, result.deals, verdict)
    if result.unused:
        problems.append(f"the history names {result.unused} card(s) that the deck never dealt")
    verdict.ok = not problems
    return verdict


def _check_hashes(proof: DeckProof, problems: list[str]) -> None:
    root = root_hash(proof.spec, proof.seed, proof.leaves, proof.reshuffle_leaves)
    if root != proof.root:
        problems.append(f"the leaves and seeds hash to the root {root}, but the proof's root is {proof.root}")
    for label, leaves, openings in (
        ("deck", proof.leaves, proof.openings),
        ("reshuffle", proof.reshuffle_leaves, proof.reshuffle_openings),
    ):
        for i, card, salt in openings:
            if leaf_hash(label, i, card, salt) != leaves[i]:
                problems.append(f"{label} position {i}: the opening ({card}) does not hash to its leaf")


def _check_contribution(hand: PhhHand, proof: DeckProof, contribution: str | None, verdict: Verdict) -> None:
    if contribution is None:
        return
    viewer = hand.fields.get("_viewer")
    seat = hand.seat_of(viewer) if isinstance(viewer, int) and 1 <= viewer <= hand.player_count else None
    listed = {s: (h, o) for s, h, o in proof.seed.contributions} if proof.seed is not None else {}
    mine = listed.get(seat) if seat is not None else None
    if mine is None:
        verdict.problems.append("the proof lists no contribution for your seat")
    elif mine[0] != contribution.strip().lower():
        verdict.problems.append(
            f"the proof's contribution for your seat is {mine[0]} ({mine[1]}), not the one you sent"
        )


def _compare(
    hand: PhhHand,
    proof: DeckProof,
    spec: DeckSpec,
    deals: list[tuple[str, int | None, tuple[Card, ...]]],
    verdict: Verdict,
) -> None:
    """Walk the engine's requests for cards against the opened positions and the history's cards."""
    seen = history_cards(hand)
    hole, board, shown, hidden_discards = seen.hole, seen.board, seen.shown, seen.hidden_discards
    opened = {i: parse_card(c) for i, c, _ in proof.openings}
    again_at = {parse_card(c): i for i, c, _ in proof.reshuffle_openings}
    full = _full_deck(proof, spec) if proof.full else None
    dealt: dict[int, set[Card]] = {}
    problems = verdict.problems
    n = 0
    reshuffled = False
    for purpose, seat, cards in deals:
        if purpose == "reshuffle":
            reshuffled = True
            if full is not None:
                full.reshuffle(cards)
            continue
        if n >= spec.size and not reshuffled:
            problems.append(f"the hand asks for card {n + 1}, but the deck is used up")
            break
        expected: Card | None = None
        if purpose in ("hole", "draw") and seat is not None:
            queue = hole.get(seat)
            expected = queue.pop(0) if queue else None
        elif purpose == "board":
            expected = board.pop(0) if board else None
        where = f"card {n + 1} of the deal ({_WHAT.get(purpose, purpose)}"
        where += f" to p{hand.player_of(seat)})" if purpose in ("hole", "draw") and seat is not None else ")"
        n += 1
        if n > spec.size:  # after a reshuffle of the discards
            card = full.take(purpose, seat) if full is not None else None
            if card is None:
                if expected is not None and expected not in again_at:
                    problems.append(f"{where}: {expected} is not opened in the reshuffle order")
                elif expected is not None:
                    verdict.checked += 1
                    if seat is not None:
                        dealt.setdefault(seat, set()).add(expected)
                continue
        else:
            if full is not None:
                full.take(purpose, seat)
            card = opened.get(n - 1)
        if card is not None and seat is not None and purpose in ("hole", "draw"):
            dealt.setdefault(seat, set()).add(card)
        if expected is None:
            if card is not None and not proof.full and purpose != "board":
                problems.append(f"{where}: the proof opens it ({card}), but this history hides it (R184)")
            continue
        verdict.checked += 1
        if card is None:
            problems.append(
                f"{where}: the history has {expected}, but the proof does not open position {n - 1}"
            )
        elif expected != card:
            problems.append(f"{where}: the history has {expected}, the deck has {card}")
    if reshuffled and hidden_discards:
        verdict.notes.append(
            "the discards were reshuffled, and this history hides some of them: the order of the cards dealt "
            "after the reshuffle is not checked, only that each was committed in the reshuffle order"
        )
    for seat, showed in sorted(shown.items()):
        stray = sorted(str(c) for c in showed - dealt.get(seat, set()))
        if stray:
            problems.append(
                f"p{hand.player_of(seat)} shows {' '.join(stray)}, which the deck did not deal to him"
            )


def _full_deck(proof: DeckProof, spec: DeckSpec) -> ListDeck | None:
    """The deck of a full opening (both orders), or None when its openings are not a whole deck."""
    cards = [parse_card(c) for _, c, _ in proof.openings]
    again = [parse_card(c) for _, c, _ in proof.reshuffle_openings] or None
    try:
        return ListDeck(cards, spec, again)
    except ConfigError:
        return None

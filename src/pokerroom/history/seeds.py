"""The deal no one chooses (docs/fairness.md, RULES.md §11.4): the combined seed of a hand and the deck
it gives, as the room deals it and as an auditor checks it.

- the server draws a secret **server seed** (32 bytes) and publishes ``SHA-256(server seed)`` (the seed
  commitment) before any player contributes;
- every player dealt in **contributes** 32 bytes; for a player who sent nothing the server uses
  ``HMAC-SHA256(server seed, "pokerroom/default-contribution/v1:" hand id ":" seat)``, fixed by the
  server seed itself, so the house cannot pick it after seeing the others;
- the **combined seed** is ``SHA-256("pokerroom/combined-seed/v1:" hand id ":" || server seed || (seat as
  one byte || contribution) for each seat in increasing order)``;
- the **deck** is ``deal_order(combined seed, n, label=b"deck")`` over the deck's cards in index order
  (docs/shuffle.md), a draw game's **reshuffle order** the same with ``label=b"reshuffle"``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from pokerroom.cards import Card, DeckSpec
from pokerroom.cards.keyed import deal_order
from pokerroom.history.deckproof import DeckProof, SeedPart

__all__ = [
    "check_seeds",
    "combined_seed",
    "dealt_orders",
    "default_contribution",
    "seed_commitment",
    "seed_part",
]

COMBINED_TAG = b"pokerroom/combined-seed/v1"
DEFAULT_TAG = b"pokerroom/default-contribution/v1:"


def seed_commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def default_contribution(server_seed: bytes, hand_id: str, seat: int) -> bytes:
    """The contribution of a player who sent none (fixed by the server seed)."""
    return hmac.digest(server_seed, DEFAULT_TAG + f"{hand_id}:{seat}".encode(), "sha256")


def seed_part(server_seed: bytes, hand_id: str, seats: list[int], sent: Mapping[int, bytes]) -> SeedPart:
    """The seed part of a hand dealt to ``seats``: ``sent`` holds the contributions that arrived in time."""
    rows = []
    for seat in sorted(seats):
        own = sent.get(seat)
        value, origin = (
            (own, "player")
            if own is not None
            else (default_contribution(server_seed, hand_id, seat), "server")
        )
        rows.append((seat, value.hex(), origin))
    return SeedPart(seed_commitment(server_seed), tuple(rows), server_seed.hex())


def combined_seed(server_seed: bytes, hand_id: str, contributions: tuple[tuple[int, str, str], ...]) -> bytes:
    h = hashlib.sha256(COMBINED_TAG + f":{hand_id}:".encode() + server_seed)
    for seat, value, _ in sorted(contributions):
        h.update(seat.to_bytes(1, "big") + bytes.fromhex(value))
    return h.digest()


def dealt_orders(seed: bytes, spec: DeckSpec, reshuffle: bool) -> tuple[list[Card], list[Card] | None]:
    """The deck in dealing order and (draw games) the reshuffle order of the combined seed ``seed``."""
    cards = spec.cards()
    deck = [cards[i] for i in deal_order(seed, spec.size, label=b"deck")]
    again = [cards[i] for i in deal_order(seed, spec.size, label=b"reshuffle")] if reshuffle else None
    return deck, again


def check_seeds(proof: DeckProof, hand_id: str, spec: DeckSpec, problems: list[str]) -> None:
    """An auditor's check of a full opening's seeds: the server seed is the committed one, the server's
    contributions are the defaults it fixed, and both orders are the combined seed's."""
    seed = proof.seed
    if seed is None:
        return  # (a hand dealt without seeds: verify notes nothing more to check here)
    if seed.server_seed is None:
        problems.append("the full opening has no server seed")
        return
    server = bytes.fromhex(seed.server_seed)
    if seed_commitment(server) != seed.commitment:
        problems.append("SHA-256 of the server seed is not the seed commitment")
    for seat, value, origin in seed.contributions:
        if origin == "server" and value != default_contribution(server, hand_id, seat).hex():
            problems.append(f"seat {seat}'s server-drawn contribution is not the one the server seed fixes")
    combined = combined_seed(server, hand_id, seed.contributions)
    deck, again = dealt_orders(combined, spec, bool(proof.reshuffle_leaves))
    for label, order, openings in (
        ("deck", deck, proof.openings),
        ("reshuffle", again or [], proof.reshuffle_openings),
    ):
        for i, card, _ in openings:
            if str(order[i]) != card:
                problems.append(
                    f"the {label} order is not the combined seed's: position {i} holds {card}, "
                    f"deal_order gives {order[i]}"
                )
                break

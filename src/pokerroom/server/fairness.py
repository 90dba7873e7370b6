"""Every hand's deck proof (docs/fairness.md): sealed when the hand starts, revealed when it is over.

A :class:`DeckSeal` is made for each hand (cash, Rush, sit-and-go, tournament) before its first frame
goes out: a fresh secret salt (``secrets``) and the commitment ``SHA-256(salt:deck)`` to the deck the
engine deals from. The commitment is public from the start (the ``hand_started`` event, the snapshot's
hand); the salt and the deck stay in this process until the hand is over, then go to every player dealt
in (the ``deck_revealed`` frame and his hand histories). Observers get the commitment only.

:class:`Seals` keeps the seals of the hands in play in this process, by hand id: whoever needs a hand's
seal (the journal's book, the table core, the snapshot, the histories) finds the same one.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

import orjson

from pokerroom.engine import HandState
from pokerroom.history import DeckProof, deck_commitment

__all__ = ["DeckSeal", "Seals"]


class DeckSeal:
    """One hand's commitment, and its secret (the salt and the deck text) until the hand is over."""

    __slots__ = ("commitment", "deck_text", "hand_id", "salt")

    def __init__(self, hand: HandState, salt: str | None = None) -> None:
        self.hand_id = hand.hand_id
        self.salt = salt if salt is not None else secrets.token_hex(16)
        self.deck_text = orjson.dumps(hand.deck_data(), option=orjson.OPT_SORT_KEYS).decode()
        self.commitment = deck_commitment(self.deck_text, self.salt)

    def proof(self) -> DeckProof:
        """The whole proof: only for the hand's histories and its players once the hand is over."""
        return DeckProof(self.commitment, self.salt, self.deck_text)

    def revealed(self, table_id: str) -> dict[str, Any]:
        """The ``deck_revealed`` frame (docs/protocol.md): to players dealt in, after the hand."""
        return {
            "type": "deck_revealed",
            "table": table_id,
            "hand_id": self.hand_id,
            "commitment": self.commitment,
            "salt": self.salt,
            "deck": self.deck_text,
        }

    def __repr__(self) -> str:  # never the salt or the deck
        return f"DeckSeal({self.hand_id!r}, {self.commitment})"


class Seals:
    """The seals of the hands in play, by hand id (bounded: a hand voided by a store fault and never
    finished does not stay forever)."""

    LIMIT = 10_000

    def __init__(self) -> None:
        self._by_hand: dict[str, DeckSeal] = {}

    def of(self, hand: HandState) -> DeckSeal:
        """The seal of ``hand``, made now if it has none (before its first frame goes out)."""
        seal = self._by_hand.get(hand.hand_id)
        if seal is None:
            seal = self._by_hand[hand.hand_id] = DeckSeal(hand)
            if len(self._by_hand) > self.LIMIT:
                del self._by_hand[next(iter(self._by_hand))]
        return seal

    def get(self, hand_id: str) -> DeckSeal | None:
        return self._by_hand.get(hand_id)

    def done(self, hand_id: str) -> DeckSeal | None:
        """The hand is over (its proof is out): forget its seal."""
        return self._by_hand.pop(hand_id, None)

    def stamp(self, state: dict[str, Any] | None) -> dict[str, Any] | None:
        """A snapshot's state with its hand's commitment (``state.hand.commitment``)."""
        hand = state.get("hand") if state is not None else None
        if isinstance(hand, dict):
            seal = self._by_hand.get(hand.get("hand_id", ""))
            hand["commitment"] = seal.commitment if seal is not None else None
        return state

    def reveal(self, hand_id: str, table_id: str, players: Iterable[str], notify: Any) -> DeckProof | None:
        """The hand is over: send its ``deck_revealed`` frame to each player dealt in (``notify(player,
        text)``) and forget its seal; the proof for the records, or None if the hand had no seal."""
        seal = self.done(hand_id)
        if seal is None:
            return None
        text = orjson.dumps(seal.revealed(table_id)).decode()
        for player in dict.fromkeys(players):
            notify(player, text)
        return seal.proof()

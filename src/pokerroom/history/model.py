"""Data of the history layer: the context a writer needs, and a parsed PHH hand."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pokerroom.cards import Card
from pokerroom.history.action import PhhAction  # (compiled with the reader: history/action.py)
from pokerroom.history.context import HandContext, Post, TournamentInfo
from pokerroom.history.hand import PhhHand  # (compiled with the reader: history/hand.py)

__all__ = [
    "HandContext",
    "LegacyProof",
    "PhhAction",
    "PhhHand",
    "Post",
    "TournamentInfo",
    "deck_commitment",
]


def deck_commitment(deck_text: str, salt: str) -> str:
    """The commitment of the first proof format (docs/fairness.md, "Histories of before issue 34"), kept
    for the hand journal's own record of a deck and for checking old histories.

    ``SHA-256(salt + ":" + deck_text)`` over UTF-8, as 64 lowercase hex digits. ``deck_text`` is the deck
    as the room committed to it (the canonical JSON of the engine's deck: its cards in dealing order and
    the order of a reshuffle); the salt stays secret until the hand is over, so nobody can search the
    orders of the deck for the hash during the hand, yet anybody can check it afterwards."""
    if not isinstance(deck_text, str) or not isinstance(salt, str):
        raise TypeError("deck_text and salt must be str")
    if not salt:
        raise ValueError("the salt must not be empty")
    return hashlib.sha256(f"{salt}:{deck_text}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class LegacyProof:
    """The whole-deck proof of histories written before issue 34 (PHH ``_deck_commitment``,
    ``_deck_salt``, ``_deck``): checked by ``pokerroom verify``, never written any more (it gave every
    player the folded hands: RULES.md R184)."""

    commitment: str
    salt: str = field(repr=False)
    deck: str = field(repr=False)

    def holds(self) -> bool:
        """Do the salt and the deck hash to the commitment?"""
        return deck_commitment(self.deck, self.salt) == self.commitment.lower()


@dataclass(frozen=True)
class HistoryCards:
    """The cards a history names, by where they went (the deck proofs' walks compare them with the deck):
    each seat's hole cards in order (``None`` for a hidden one), the board in order, the cards each seat
    showed, and whether a discard was written hidden."""

    hole: dict[int, list[Card | None]]
    board: list[Card | None]
    shown: dict[int, set[Card]]
    hidden_discards: bool


def history_cards(hand: PhhHand) -> HistoryCards:
    """The cards ``hand``'s actions name (:class:`HistoryCards`)."""
    hole: dict[int, list[Card | None]] = {}
    board: list[Card | None] = []
    shown: dict[int, set[Card]] = {}
    hidden_discards = False
    for a in hand.actions:
        if a.verb == "dh" and a.actor is not None:
            hole.setdefault(hand.seat_of(a.actor), []).extend(a.cards)
        elif a.verb == "db":
            board.extend(a.cards)
        elif a.verb == "sm" and a.actor is not None and a.show:
            shown.setdefault(hand.seat_of(a.actor), set()).update(c for c in a.cards if c is not None)
        elif a.verb == "sd" and any(c is None for c in a.cards):
            hidden_discards = True
    return HistoryCards(hole, board, shown, hidden_discards)

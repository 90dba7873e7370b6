"""One function deals every hand's deck, for every kind of hand (cash, Rush, sit-and-go, tournament).

Pure: the deck comes from the injected randomness. The server's randomness deals from seeds that no one
chooses (server/fairdeal.py, docs/fairness.md): it offers ``deal(key, hand_id, spec, reshuffle,
players)``; any other generator (a seeded one in tests) shuffles the deck itself, as before.
"""

from __future__ import annotations

from collections.abc import Mapping

from pokerroom.cards import DeckSpec, RandomSource
from pokerroom.engine import ListDeck

__all__ = ["deal_deck"]


def deal_deck(
    rng: RandomSource, spec: DeckSpec, *, reshuffle: bool, key: str, hand_id: str, players: Mapping[int, str]
) -> ListDeck:
    """The deck of hand ``hand_id`` at the dealing place ``key`` (a table, a Rush pool), dealt to
    ``players`` (seat -> player id); ``reshuffle``: a draw game's reshuffle order too."""
    deal = getattr(rng, "deal", None)
    if deal is None:
        return ListDeck.shuffled(spec, rng, reshuffle=reshuffle)
    deck: ListDeck = deal(key, hand_id, spec, reshuffle, dict(players))
    return deck

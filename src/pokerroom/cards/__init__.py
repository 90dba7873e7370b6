"""Cards, notation and decks (the bottom layer; pure)."""

from pokerroom.cards.card import (
    Card,
    NotationError,
    Rank,
    Suit,
    format_cards,
    parse_card,
    parse_cards,
    parse_cards_masked,
)
from pokerroom.cards.deck import DeckSpec, RandomSource, shuffle, shuffled_deck

__all__ = [
    "Card",
    "DeckSpec",
    "NotationError",
    "RandomSource",
    "Rank",
    "Suit",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_cards_masked",
    "shuffle",
    "shuffled_deck",
]

"""Typed errors of the eval layer.

Every error has a stable string ``code`` for the wire. Messages never quote the cards of the hand
(they may be hidden cards): they say how many cards were given and what the rule needs.
"""

from __future__ import annotations

__all__ = [
    "CardNotInDeck",
    "DuplicateCard",
    "EvalError",
    "TooManyDeals",
    "UnknownGame",
    "UnknownRule",
    "WrongCardCount",
]


class EvalError(ValueError):
    """Base class of the evaluation errors."""

    code = "eval_error"


class UnknownRule(EvalError):
    """The ranking rule's name is not one of :data:`pokerroom.eval.RULES`."""

    code = "unknown_rule"

    def __init__(self, rule: object) -> None:
        super().__init__(f"unknown ranking rule {rule!r}")
        self.rule = rule


class UnknownGame(UnknownRule):
    """An equity game name that is neither a game of ``EQUITY_GAMES`` nor a rule."""

    code = "unknown_game"

    def __init__(self, game: object) -> None:
        EvalError.__init__(self, f"unknown game {game!r}")
        self.rule = game


class WrongCardCount(EvalError):
    """The number of cards does not fit the rule (or the batch array has the wrong shape)."""

    code = "wrong_card_count"

    def __init__(self, message: str) -> None:
        super().__init__(message)


class DuplicateCard(EvalError):
    """The same card appears twice among the cards given."""

    code = "duplicate_card"

    def __init__(self, message: str = "a card appears more than once") -> None:
        super().__init__(message)


class CardNotInDeck(EvalError):
    """A card that the rule's deck does not contain (a deuce..five in a short-deck rule)."""

    code = "card_not_in_deck"

    def __init__(self, rule: str, deck_size: int) -> None:
        super().__init__(f"a card given is not in the {deck_size}-card deck of rule {rule}")
        self.rule = rule
        self.deck_size = deck_size


class TooManyDeals(EvalError):
    """Exact equity was asked for a spot with more deals than can be enumerated."""

    code = "too_many_deals"

    def __init__(self, deals: int, limit: int) -> None:
        super().__init__(
            f"exact enumeration of {deals:,} deals is refused (limit {limit:,}); use Monte Carlo"
        )
        self.deals = deals
        self.limit = limit

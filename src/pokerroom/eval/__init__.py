"""Hand rankings (RULES.md §2): one-hand evaluation, fast batch evaluation and equity.

``evaluate(rule, hole, board)`` returns a :class:`HandValue`; ``evaluate_batch(rule, cards)`` ranks
many hands at once; ``equity(game, hands, board)`` gives each hand's share of the pot.
"""

from pokerroom.eval.api import evaluate
from pokerroom.eval.batch import evaluate_batch
from pokerroom.eval.equity import EQUITY_GAMES, EquityGame, EquityResult, HandEquity, equity
from pokerroom.eval.errors import (
    CardNotInDeck,
    DuplicateCard,
    EvalError,
    TooManyDeals,
    UnknownGame,
    UnknownRule,
    WrongCardCount,
)
from pokerroom.eval.fast import ranker
from pokerroom.eval.value import CATEGORIES, RULES, HandValue

__all__ = [
    "CATEGORIES",
    "EQUITY_GAMES",
    "RULES",
    "CardNotInDeck",
    "DuplicateCard",
    "EquityGame",
    "EquityResult",
    "EvalError",
    "HandEquity",
    "HandValue",
    "TooManyDeals",
    "UnknownGame",
    "UnknownRule",
    "WrongCardCount",
    "equity",
    "evaluate",
    "evaluate_batch",
    "ranker",
]

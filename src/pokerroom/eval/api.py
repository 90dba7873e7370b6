"""``evaluate``: the value of one hand under one rule (the single-hand path)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from pokerroom.cards import Card
from pokerroom.eval import reference
from pokerroom.eval.fast import rank5_function
from pokerroom.eval.rules import validate
from pokerroom.eval.value import HandValue, unpack

__all__ = ["evaluate"]

_ACE_LOW = frozenset({"ace5_low", "eight_low", "omaha_eight_low", "badugi"})
_STRAIGHTS = frozenset({"straight", "straight_flush"})


def evaluate(
    rule: str, hole: Iterable[Card | str] | str, board: Iterable[Card | str] | str = ()
) -> HandValue:
    """The best hand ``hole`` and ``board`` make under ``rule`` (RULES.md §2).

    For every rule except the Omaha ones the cards are pooled and the best five of them play (four
    for badugi); ``omaha_high`` and ``omaha_eight_low`` use exactly two of the 4-6 hole cards and
    exactly three of the 3-5 board cards. Cards may be :class:`~pokerroom.cards.Card` objects or
    notation (``"AhKh"``). Raises a subclass of :class:`~pokerroom.eval.EvalError` on bad input.
    """
    spec, h, b = validate(rule, hole, board)
    if spec.kind == "badugi":
        rank, used = reference.best(spec.name, h, b)
    else:
        rank, used = _best_fast(spec.name, h, b)
    if rank == 0 and spec.name in ("eight_low", "omaha_eight_low"):
        return HandValue(spec.name, 0, ())
    return HandValue(spec.name, rank, order_cards(spec.name, rank, used))


def _best_fast(rule: str, hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, tuple[Card, ...]]:
    """Best rank and the combination making it, with the table-driven five-card rank."""
    five = rank5_function(rule)
    best_rank = -1
    best_cards: tuple[Card, ...] = ()
    for combo in reference.combos(rule, hole, board):
        r = five([c.index for c in combo])
        if r > best_rank:
            best_rank, best_cards = r, combo
    return best_rank, best_cards


def order_cards(rule: str, rank: int, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The cards used, most significant first: larger groups first, then higher (ranking) value;
    the ace of an ace-low straight goes last."""
    value = {c: (0 if c.rank == 12 else c.rank + 1) if rule in _ACE_LOW else int(c.rank) for c in cards}
    hv = HandValue(rule, rank)
    if hv.category in _STRAIGHTS and rule != "deuce7_low":
        top = unpack(rank)[1][0]
        if top != 12:
            for c in cards:
                if c.rank == 12:
                    value[c] = -1
    counts = Counter(c.rank for c in cards)
    if hv.category == "four_flush":  # the four suited cards first, then the fifth
        suit = Counter(c.suit for c in cards).most_common(1)[0][0]
        return tuple(sorted(cards, key=lambda c: (c.suit == suit, c.rank, c.suit), reverse=True))
    if hv.category == "four_straight":  # the four-card run first (A-2-3-4: the ace last), then the fifth
        top = unpack(rank)[1][0]
        run = [r % 13 for r in range(top, top - 4, -1)]  # top=2 (A-2-3-4) wraps to the ace
        in_run: list[Card] = []
        for r in run:
            in_run.append(next(c for c in cards if c.rank == r and c not in in_run))
        return (*in_run, *(c for c in cards if c not in in_run))
    return tuple(sorted(cards, key=lambda c: (counts[c.rank], value[c], c.suit), reverse=True))

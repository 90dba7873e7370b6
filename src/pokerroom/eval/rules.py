"""Rule metadata and input validation shared by the single-hand and batch paths."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pokerroom.cards import Card, parse_cards
from pokerroom.eval.errors import CardNotInDeck, DuplicateCard, UnknownRule, WrongCardCount
from pokerroom.eval.value import RULES

__all__ = ["POOLED_MAX", "RuleSpec", "rule_spec", "to_cards", "validate"]

#: Most cards a pooled rule accepts (any 5 of them play).
POOLED_MAX = 10


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """How a rule composes a hand and which deck it is played with."""

    name: str
    kind: str  # "pooled" (any 5 of all cards), "omaha" (2 hole + 3 board), "badugi" (4 cards)
    lowest_rank: int  # 0 for 52 cards, 4 (six) for 36, 5 (seven) for 32
    low: bool  # a low rule (the lower hand wins, stored inverted)

    @property
    def deck_size(self) -> int:
        return 4 * (13 - self.lowest_rank)


_SPECS = {
    "high": RuleSpec("high", "pooled", 0, False),
    "omaha_high": RuleSpec("omaha_high", "omaha", 0, False),
    "ace5_low": RuleSpec("ace5_low", "pooled", 0, True),
    "eight_low": RuleSpec("eight_low", "pooled", 0, True),
    "omaha_eight_low": RuleSpec("omaha_eight_low", "omaha", 0, True),
    "deuce7_low": RuleSpec("deuce7_low", "pooled", 0, True),
    "soko": RuleSpec("soko", "pooled", 0, False),
    "short_deck_7a": RuleSpec("short_deck_7a", "pooled", 5, False),
    "short_deck_6a": RuleSpec("short_deck_6a", "pooled", 4, False),
    "badugi": RuleSpec("badugi", "badugi", 0, True),
}
assert tuple(_SPECS) == RULES


def rule_spec(rule: object) -> RuleSpec:
    """The spec of a rule name; :class:`UnknownRule` otherwise."""
    spec = _SPECS.get(rule) if isinstance(rule, str) else None
    if spec is None:
        raise UnknownRule(rule)
    return spec


def to_cards(cards: str | Iterable[Card | str]) -> tuple[Card, ...]:
    """Accept ``"AhKh"``, cards or card strings; duplicates are checked by :func:`validate`."""
    if not isinstance(cards, str):
        cards = list(cards)
        if not all(isinstance(c, Card | str) for c in cards):
            raise TypeError("cards must be Card objects or card notation")
    return parse_cards(cards, distinct=False)


def needs(spec: RuleSpec) -> str:
    """What the rule needs, in words (for error messages)."""
    if spec.kind == "omaha":
        return f"rule {spec.name} needs 4-6 hole + 3-5 board"
    if spec.kind == "badugi":
        return f"rule {spec.name} needs exactly 4 cards"
    return f"rule {spec.name} needs 5-{POOLED_MAX} cards (hole and board together)"


def check_count(spec: RuleSpec, n_hole: int, n_board: int) -> None:
    if spec.kind == "omaha":
        ok = 4 <= n_hole <= 6 and 3 <= n_board <= 5
        given = f"{n_hole} hole + {n_board} board cards given"
    else:
        n = n_hole + n_board
        ok = n == 4 if spec.kind == "badugi" else 5 <= n <= POOLED_MAX
        given = f"{n} cards given"
    if not ok:
        raise WrongCardCount(f"{given}, {needs(spec)}")


def validate(
    rule: object, hole: Iterable[Card | str] | str, board: Iterable[Card | str] | str
) -> tuple[RuleSpec, tuple[Card, ...], tuple[Card, ...]]:
    """Check the rule, the card counts, duplicates and deck membership; return the cards."""
    spec = rule_spec(rule)
    h, b = to_cards(hole), to_cards(board)
    check_count(spec, len(h), len(b))
    if len(set(h + b)) != len(h) + len(b):
        raise DuplicateCard()
    if spec.lowest_rank and any(c.rank < spec.lowest_rank for c in h + b):
        raise CardNotInDeck(spec.name, spec.deck_size)
    return spec, h, b

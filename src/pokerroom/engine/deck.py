"""Where the engine's cards come from.

Production and tests use :class:`ListDeck`: a fixed card order chosen before the hand (by the server's
RNG, or written out literally in a test), plus a second random order used only if a draw game has to
reshuffle its discards (RULES.md §5.12). A replay of a recorded hand uses a scripted source instead
(:mod:`pokerroom.history`), which is why the engine asks for cards by purpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pokerroom.cards import Card, DeckSpec, RandomSource, format_cards, parse_cards, shuffle
from pokerroom.engine.errors import ConfigError, RestoreError

__all__ = ["CardSource", "ListDeck"]

_SETS = {spec: frozenset(spec.cards()) for spec in DeckSpec}


class CardSource(Protocol):
    """The engine's dealer shoe. ``purpose`` is one of hole, board, burn, draw; ``seat`` the receiver."""

    spec: DeckSpec

    def take(self, purpose: str, seat: int | None) -> Card: ...

    def remaining(self) -> int: ...

    def reshuffle(self, cards: Sequence[Card]) -> None:
        """Make these (earlier discarded) cards the new stub, in a random order fixed in advance."""

    def to_data(self) -> dict[str, Any]: ...


class ListDeck:
    """A deck in a fixed order; cards are taken from the front.

    ``reshuffle_order`` is an independent uniformly random order of the whole deck: when discards are
    reshuffled into a new stub they are put in the order they have in it, which is a uniformly random
    order of those cards. Without it the discards keep the deck's index order (fine for tests only).
    """

    __slots__ = ("_cards", "_order", "_original", "_pos", "spec")

    def __init__(
        self,
        cards: Sequence[Card],
        spec: DeckSpec | None = None,
        reshuffle_order: Sequence[Card] | None = None,
        *,
        _permutations: bool = False,
    ) -> None:
        if _permutations and spec is not None:  # shuffled(): both orders are permutations of spec
            self._setup(list(cards), spec, list(reshuffle_order) if reshuffle_order is not None else None)
            return
        cards = list(cards)
        if len(set(cards)) != len(cards):
            raise ConfigError("a deck may not hold a card twice")
        if spec is None:
            spec = next((s for s in DeckSpec if s.size == len(cards) and all(c in s for c in cards)), None)
            if spec is None:
                raise ConfigError("the deck must be one whole 52-, 36- or 32-card deck")
        elif set(cards) != _SETS[spec]:
            raise ConfigError(f"the deck must hold exactly the {spec.size} cards of its kind")
        order = list(reshuffle_order) if reshuffle_order is not None else None
        if order is not None and (len(order) != spec.size or set(order) != _SETS[spec]):
            raise ConfigError("the reshuffle order must be a permutation of the deck")
        self._setup(cards, spec, order)

    def _setup(self, cards: list[Card], spec: DeckSpec, order: list[Card] | None) -> None:
        self.spec = spec
        self._original = tuple(cards)
        self._cards = cards
        self._pos = 0
        self._order = order  # None: the deck's index order

    @classmethod
    def shuffled(
        cls, spec: DeckSpec = DeckSpec.STANDARD, rng: RandomSource | None = None, *, reshuffle: bool = True
    ) -> ListDeck:
        """A fresh deck for one hand: a uniform permutation from ``rng`` and, unless ``reshuffle`` is
        False (games without draws never reshuffle), an independent one for a reshuffle of discards."""
        cards = shuffle(spec.cards(), rng)
        order = shuffle(spec.cards(), rng) if reshuffle else None
        return cls(cards, spec, order, _permutations=True)

    @classmethod
    def from_text(cls, text: str, spec: DeckSpec | None = None) -> ListDeck:
        """A literal deck for tests: the given cards first, then the rest of the deck in index order."""
        head = list(parse_cards(text))
        if spec is None:
            spec = DeckSpec.STANDARD
        used = set(head)
        rest = [c for c in spec.cards() if c not in used]
        return cls(head + rest, spec)

    def take(self, purpose: str, seat: int | None) -> Card:
        if self._pos >= len(self._cards):
            raise ConfigError("the deck is empty")
        card = self._cards[self._pos]
        self._pos += 1
        return card

    def remaining(self) -> int:
        return len(self._cards) - self._pos

    def reshuffle(self, cards: Sequence[Card]) -> None:
        if self._order is None:
            stub = sorted(cards, key=lambda c: c.index)
        else:
            priority = {card: i for i, card in enumerate(self._order)}
            stub = sorted(cards, key=priority.__getitem__)
        self._cards = self._cards[: self._pos] + stub
        # A reshuffled stub replaces the (empty) old one; taken cards stay recorded for the audit.

    def order(self) -> tuple[Card, ...]:
        """The deck order as it was before the first card was taken (server side only: the secret)."""
        return self._original

    def to_data(self) -> dict[str, Any]:
        """The deck as it was before the first card was taken (the journal's commitment covers it)."""
        inverse = self._order if self._order is not None else list(self.spec.cards())
        return {
            "kind": "list",
            "spec": self.spec.size,
            "cards": format_cards(self._original),
            "reshuffle": format_cards(inverse),
        }

    @classmethod
    def from_data(cls, data: Any) -> ListDeck:
        try:
            spec = DeckSpec(int(data["spec"]))
            deck = cls(parse_cards(data["cards"]), spec, parse_cards(data["reshuffle"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise RestoreError(f"bad deck data: {type(exc).__name__}") from None
        return deck

    def __repr__(self) -> str:  # never print the order: it is the hand's secret
        return f"ListDeck({self.spec.name}, {self.remaining()} left)"

"""Helpers for the RULES.md §10 checks: literal decks in dealing order, and event filters."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import TypeVar

from pokerroom.cards import Card, DeckSpec, parse_cards
from pokerroom.engine import BetDecision, Event, HandState
from pokerroom.engine.events import ActionTaken, CardsShown, Mucked, Posted, PotAwarded

E = TypeVar("E", bound=Event)

BURN = "_"


def interleave(*hands: str) -> str:
    """Hole cards dealt one at a time around the table: ``hands`` in dealing order, one string per seat."""
    parsed = [parse_cards(h) for h in hands]
    size = len(parsed[0])
    if any(len(h) != size for h in parsed):
        raise ValueError("every hand needs the same number of cards")
    return " ".join(str(parsed[s][i]) for i in range(size) for s in range(len(parsed)))


def deck(*parts: str, spec: DeckSpec = DeckSpec.STANDARD) -> str:
    """A literal deck in the order cards are taken. ``_`` stands for a burn card: the first cards of the
    deck that appear nowhere else, so a burn never collides with a card the test names."""
    tokens = " ".join(parts).split()
    named = {c for t in tokens if t != BURN for c in parse_cards(t)}
    spare = (c for c in spec.cards() if c not in named)
    out: list[str] = []
    for t in tokens:
        out.append(str(next(spare)) if t == BURN else t)
    return " ".join(out)


def board_deck(holes: Sequence[str], board: str) -> str:
    """A flop game's deck: hole cards (dealing order), then burn, flop, burn, turn, burn, river."""
    b = board.split()
    flop, turn, river = " ".join(b[:3]), " ".join(b[3:4]), " ".join(b[4:5])
    return deck(interleave(*holes), BURN, flop, BURN, turn, BURN, river)


def of(events: Iterable[Event], cls: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, cls)]


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def bet(hand: HandState) -> BetDecision:
    """The pending betting decision (fails the test if something else is pending)."""
    p = hand.pending
    assert isinstance(p, BetDecision), p
    return p


def actions(hand: HandState) -> list[tuple[int, str, int]]:
    """Every betting action so far as (seat, action, chips added)."""
    return [(e.seat, e.action, e.amount) for e in of(hand.events, ActionTaken)]


def posts(hand: HandState) -> list[tuple[int, str, int]]:
    return [(e.seat, e.what, e.amount) for e in of(hand.events, Posted)]


def awards(hand: HandState) -> list[tuple[int, str, int, dict[int, int]]]:
    """Every pot award as (pot index, half, amount, {seat: share})."""
    return [
        (a.pot, a.half, a.amount, dict(zip(a.winners, a.shares, strict=True)))
        for a in of(hand.events, PotAwarded)
    ]


def shown(hand: HandState) -> list[int]:
    """Seats whose cards were turned face up, in order."""
    return [e.seat for e in of(hand.events, CardsShown)]


def mucked(hand: HandState) -> list[int]:
    return [e.seat for e in of(hand.events, Mucked)]


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def net(hand: HandState, start: dict[int, int]) -> dict[int, int]:
    return {s: st - start[s] for s, st in hand.stacks().items()}


def cards_in(event: Event) -> set[Card]:
    """Every card an event (or a view of it) carries."""
    out: set[Card] = set()
    for f in fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Card):
            out.add(value)
        elif isinstance(value, tuple | list):
            out.update(v for v in value if isinstance(v, Card))
    return out

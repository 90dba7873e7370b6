"""RULES.md §1.1, §6.6 and §10 R10, R182, R184 in the engine's sense: every hole-card event is private to
its seat and its public view hides the cards; a mucked showdown hand is seen by the players dealt in (the
last-hand window) but never by observers; a folded hand is never seen by anyone else.
"""

from __future__ import annotations

import random

import pytest

from pokerroom.cards import Card
from pokerroom.engine import (
    Audience,
    Betting,
    Call,
    Check,
    Event,
    Fold,
    HandState,
    ListDeck,
    SeatSetup,
    Stakes,
)
from pokerroom.engine import Structure as St
from pokerroom.engine.events import CardsDealt, CardsShown, Drew, Mucked
from pokerroom.variants import get_variant

from .helpers import default_stakes, random_command, start
from .rules_helpers import bet, board_deck, cards, cards_in, mucked, of, shown

NL = Betting.NO_LIMIT
DEEP = 100_000


def _down_cards(hand: HandState) -> dict[int, set[Card]]:
    """Every face-down card each seat was dealt or drew (kept or not)."""
    out: dict[int, set[Card]] = {s: set() for s in hand.order}
    for e in hand.events:
        if isinstance(e, CardsDealt):
            out[e.seat] |= {c for c, up in zip(e.cards, e.up, strict=True) if not up and c is not None}
        elif isinstance(e, Drew):
            out[e.seat] |= {c for c in e.received if c is not None}
    return out


def _check_views(hand: HandState) -> None:
    """No viewer sees another player's face-down card unless it was shown (or mucked at showdown, for
    the players dealt in)."""
    down = _down_cards(hand)
    public: set[Card] = set()
    for shown_event in of(hand.events, CardsShown):
        public |= set(shown_event.cards)
    mucked_cards: set[Card] = set()
    for m in of(hand.events, Mucked):
        mucked_cards |= {c for c in m.cards if c is not None}
    viewers: list[int | None] = [None, *hand.order]
    for e in hand.events:
        for viewer in viewers:
            view = e.view_for(viewer, viewer is not None)
            if view is None:
                continue
            seen = cards_in(view)
            for owner, secret in down.items():
                if owner == viewer:
                    continue
                leak = seen & secret - public - (mucked_cards if viewer is not None else set())
                assert not leak, (e.kind, viewer, owner, leak)
        # ``repr`` is what reaches logs: it must be the public view.
        text = repr(e)
        if e.audience is not Audience.PUBLIC:
            hidden = set().union(*down.values()) - public
            assert not any(str(c) in text for c in hidden if c in cards_in(e)), text


@pytest.mark.parametrize(
    "game", ["holdem", "omaha8", "irish", "stud", "razz", "stud5", "deuce7_triple", "draw5"]
)
def test_r10_hole_cards_reach_only_their_owner(game: str) -> None:
    v = get_variant(game)
    betting = v.default_structure
    rng = random.Random(f"r10-{game}")
    for _ in range(25):
        n = rng.randint(2, min(v.max_players, 6))
        seats = sorted(rng.sample(range(1, 10), n))
        hand = HandState.start(
            variant=v,
            structure=St(betting, default_stakes(game, betting)),
            seats=[SeatSetup(s, rng.choice([300, 5000, DEEP]), rng.random() < 0.5) for s in seats],
            deck=ListDeck.shuffled(v.deck_for(n), rng),
            button=rng.choice(seats),
        )
        while not hand.is_over:
            hand.apply(random_command(hand, rng))
        _check_views(hand)


def test_r10_a_dealt_event_is_private_and_its_public_view_hides_the_down_cards() -> None:
    hand = start("stud", Betting.FIXED_LIMIT, default_stakes("stud", Betting.FIXED_LIMIT), [DEEP] * 3)
    (e,) = [x for x in of(hand.events, CardsDealt) if x.seat == 2]
    assert e.audience is Audience.SEAT
    assert e.visible_to(2) and not e.visible_to(1) and not e.visible_to(None)
    assert not e.visible_to(1, dealt_in=True)
    pv = e.public_view()
    assert isinstance(pv, CardsDealt)
    assert pv.cards == (None, None, e.cards[2]) and pv.up == (False, False, True)
    assert pv.to_dict()["cards"] == ["??", "??", str(e.cards[2])]
    assert str(e.cards[0]) not in repr(e) and str(e.cards[1]) not in repr(e)
    hold = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 2)
    for d in of(hold.events, CardsDealt):
        pv = d.public_view()
        assert d.audience is Audience.SEAT
        assert isinstance(pv, CardsDealt) and pv.cards == (None, None)


def _muck_hand() -> HandState:
    # Checked down; seat 1 shows first, seat 2 (worse) is auto-mucked, seat 3 folded preflop.
    text = board_deck(["Ah Kh", "Qc 3d", "Jd Td"], "2c 7s 9h 5d 4c")
    hand = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 3, text)
    hand.apply(Fold(3))
    hand.apply(Call(1))
    hand.apply(Check(2))
    while not hand.is_over:
        hand.apply(Check(bet(hand).seat))
    return hand


def test_r182_mucked_hand_is_seen_by_players_dealt_in_not_observers() -> None:
    hand = _muck_hand()
    assert shown(hand) == [1] and mucked(hand) == [2]
    (m,) = of(hand.events, Mucked)
    assert m.audience is Audience.DEALT_IN
    assert m.cards == cards("Qc 3d")
    for seat in (1, 2, 3):
        assert m.visible_to(seat, dealt_in=True)
        assert m.view_for(seat, True) is m
    assert not m.visible_to(None) and not m.visible_to(7, dealt_in=False)
    pv = m.view_for(None, False)
    assert isinstance(pv, Mucked) and pv.cards == () and pv.seat == 2
    assert "Qc" not in repr(m)


def test_r184_a_folded_hand_is_never_shown_in_any_view() -> None:
    hand = _muck_hand()
    folded = set(cards("Jd Td"))
    assert set(hand.hole_cards(3)) == folded
    assert 3 not in shown(hand) and 3 not in mucked(hand)
    for e in hand.events:
        for viewer in (None, 1, 2, 7):
            for dealt_in in (False, True):
                view: Event | None = e.view_for(viewer, dealt_in)
                if view is not None:
                    assert not cards_in(view) & folded, (e.kind, viewer, dealt_in)

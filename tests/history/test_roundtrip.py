"""Write -> read -> replay gives back the very same hand, for every game and structure."""

from __future__ import annotations

import pytest

from pokerroom.engine import Betting
from pokerroom.history import HandContext, read_phh, read_phhs, replay, write_phh, write_phhs

from .helpers import CASE_IDS, CASES, random_hands


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_audit_copy_replays_to_the_same_events(game: str, betting: Betting) -> None:
    for i, hand in enumerate(random_hands(game, betting, 12)):
        ctx = HandContext(minor_units=100 if i % 2 else 1)
        again = replay(read_phh(write_phh(hand, context=ctx)))
        assert again.complete
        assert again.state.events == hand.events
        assert again.matches is True
        assert again.notes == []


@pytest.mark.parametrize(("game", "betting"), CASES, ids=CASE_IDS)
def test_a_players_copy_replays_to_the_same_stacks(game: str, betting: Betting) -> None:
    """A dealt-in player sees every hand that reached the showdown (RULES.md §6.6), so his copy is
    enough to replay the result."""
    for hand in random_hands(game, betting, 8, "viewer"):
        for viewer in hand.order:
            again = replay(read_phh(write_phh(hand, viewer=viewer)))
            assert dict(zip(again.hand.seats, again.finishing_stacks, strict=True)) == hand.stacks()


def test_phhs_holds_many_hands_numbered_from_one() -> None:
    hands = list(random_hands("holdem", Betting.NO_LIMIT, 3, "phhs"))
    text = write_phhs([write_phh(h, context=HandContext(hand_id=str(i))) for i, h in enumerate(hands)])
    assert text.startswith("[1]\n")
    parsed = read_phhs(text)
    assert [i for i, _ in parsed] == [1, 2, 3]
    for (_, phh), hand in zip(parsed, hands, strict=True):
        assert not isinstance(phh, Exception)
        assert replay(phh).state.events == hand.events


def test_a_card_drawn_twice_is_shown_only_where_it_stayed() -> None:
    """After a reshuffle a player can draw a card he discarded earlier; in another player's copy only the
    deal that stayed in the shown hand reveals the card (this seed has such a hand: seat 1 is dealt the
    2s, discards it, and draws it back after the reshuffle)."""
    hands = list(random_hands("deuce7_triple", Betting.NO_LIMIT, 8, "x25"))
    for hand in hands:
        for viewer in hand.order:
            again = replay(read_phh(write_phh(hand, viewer=viewer)))
            assert dict(zip(again.hand.seats, again.finishing_stacks, strict=True)) == hand.stacks()

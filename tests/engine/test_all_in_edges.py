"""All-in edge cases: no raise when nobody can answer it; stud cards after an all-in exposure are public."""

from __future__ import annotations

from pokerroom.engine import Audience, BringIn, Call, Fold, RaiseTo, Stakes
from pokerroom.engine.events import CardsDealt, CardsShown
from pokerroom.engine.stakes import Betting

from .helpers import start
from .rules_helpers import bet, of


def test_facing_an_all_in_with_everyone_else_all_in_only_call_or_fold() -> None:
    # RULES.md §3.1: when at most one active player is not all-in there is no more betting.
    hand = start("holdem", Betting.NO_LIMIT, Stakes.blinds(5, 10), [1000, 300], button=1)
    d = bet(hand)
    hand.apply(RaiseTo(d.seat, 300))  # seat 1 (button, SB) is all-in for 300
    d = bet(hand)
    assert d.seat == 2 and d.call == 290 and d.fold and not d.raise_kind
    hand.apply(Call(2))
    assert hand.is_over


def test_raise_still_allowed_while_another_player_can_answer() -> None:
    hand = start("holdem", Betting.NO_LIMIT, Stakes.blinds(5, 10), [300, 1000, 1000], button=1)
    d = bet(hand)  # seat 1 (button) acts first preflop with three players
    assert d.seat == 1
    hand.apply(RaiseTo(1, 300))  # all-in
    d = bet(hand)
    assert d.seat == 2 and d.raise_kind == "raise"  # seat 3 can still call a re-raise


def test_stud_cards_dealt_after_an_all_in_exposure_are_shown() -> None:
    stakes = Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False)
    hand = start("stud", Betting.FIXED_LIMIT, stakes, [90, 500])
    d = bet(hand)
    hand.apply(BringIn(d.seat))
    other = 2 if d.seat == 1 else 1
    d2 = bet(hand)
    assert d2.seat == other
    if hand.players[d.seat].stack == 0:  # seat 1 (90) went all-in with the ante and the bring-in
        hand.apply(Call(other))
    else:
        hand.apply(RaiseTo(other, 200))
        d3 = bet(hand)
        hand.apply(Call(d3.seat) if d3.call else Fold(d3.seat))
    assert hand.exposed and hand.is_over
    seventh = [e for e in hand.events if isinstance(e, CardsDealt) and e.up == (False,)]
    assert seventh, "7th street was dealt face down"
    for e in seventh:
        later = [x for x in of(hand.events[hand.events.index(e) :], CardsShown) if x.seat == e.seat]
        assert later and e.cards[0] in later[0].cards and later[0].audience is Audience.PUBLIC

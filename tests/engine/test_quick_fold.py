"""The engine's QuickFold command (Rush, RULES.md §8.5, R200, R201, R204)."""

from __future__ import annotations

import pytest

from pokerroom.engine import Betting, Call, Check, HandState, QuickFold, QuickFoldRefused, RaiseTo, Stakes
from pokerroom.engine.events import ActionTaken

from .helpers import start


def six() -> HandState:
    return start("holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), [10_000] * 6, button=6)


def test_out_of_turn_quick_fold_is_hidden_until_the_action_reaches_the_seat() -> None:
    hand = six()  # SB 1, BB 2, UTG 3
    events = hand.apply(QuickFold(5))
    assert events == []  # R204: nobody sees it yet
    assert hand.players[5].quick_folded and not hand.players[5].folded
    events = hand.apply(Call(3))
    events += hand.apply(Call(4))
    assert [(e.seat, e.action) for e in events if isinstance(e, ActionTaken)] == [
        (3, "call"),
        (4, "call"),
        (5, "fold"),
    ]
    assert hand.pending.seat == 6  # type: ignore[union-attr]


def test_quick_fold_is_refused_to_a_player_who_could_check_or_is_all_in() -> None:
    hand = six()
    with pytest.raises(QuickFoldRefused):
        hand.apply(QuickFold(2))  # R200: the big blind, unraised
    for seat in (3, 4, 5, 6, 1):
        hand.apply(Call(seat))
    hand.apply(Check(2))
    with pytest.raises(QuickFoldRefused):
        hand.apply(QuickFold(4))  # R200: nobody has bet on the flop
    hand.apply(RaiseTo(1, 10_000 - 100))  # SB all-in
    with pytest.raises(QuickFoldRefused):
        hand.apply(QuickFold(1))  # R200: all-in
    hand.apply(QuickFold(4))  # facing the bet before his turn: fine (R201)


def test_quick_fold_on_ones_turn_is_an_ordinary_fold() -> None:
    hand = six()
    events = hand.apply(QuickFold(3))
    assert [(e.seat, e.action) for e in events if isinstance(e, ActionTaken)] == [(3, "fold")]


def test_a_short_all_in_big_blind_is_not_a_bet_to_quick_fold_against() -> None:
    hand = start("holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), [10_000, 15, 10_000], button=3)
    assert hand.to_call(1) == 50 and not hand.faces_bet(1)
    with pytest.raises(QuickFoldRefused):
        hand.apply(QuickFold(1))


def test_snapshot_keeps_a_hidden_quick_fold() -> None:
    hand = six()
    hand.apply(QuickFold(5))
    again = HandState.restore(hand.snapshot())
    assert again.players[5].quick_folded
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in hand.events]


def test_one_statement_of_the_rule_verify_can_and_do_agree() -> None:
    """verify_quick_fold raises a typed error with a code, can_quick_fold says the same, and applying the
    QuickFold command is refused exactly when they say no (R200, R201)."""
    hand = six()
    assert not hand.can_quick_fold(2)  # the big blind, unraised
    with pytest.raises(QuickFoldRefused) as refused:
        hand.verify_quick_fold(2)
    assert refused.value.code == "quick_fold_refused" and refused.value.seat == 2
    assert refused.value.to_dict()["code"] == "quick_fold_refused"
    assert [s for s in hand.order if hand.can_quick_fold(s)] == [1, 3, 4, 5, 6]
    assert not hand.can_quick_fold(9)  # not dealt in
    hand.apply(QuickFold(5))
    assert not hand.can_quick_fold(5)  # once

"""RULES.md §3.1, §3.2, §4.2-§4.7 and §10 R89-R92, R95, R97, R100, R101, R104-R112: blinds, posting in,
dealing and action order in blind games.

The engine receives the blind positions from the table (``Blinds``) or defaults them from the button; the
dead-button algorithm itself (which seat is the button, who owes what: R93, R94, R96, R98, R99, R102,
R103) belongs to the table layer. These tests cover the engine's part: the defaults, heads-up, posting
live and dead blinds, and the order of dealing and action given the positions.
"""

from __future__ import annotations

import pytest

from pokerroom.engine import (
    Betting,
    Blinds,
    Call,
    Check,
    Fold,
    HandState,
    IllegalAction,
    RaiseTo,
    Stakes,
    TimeOut,
)
from pokerroom.engine.events import ActionTaken, BoardDealt, Burned, CardsDealt, Posted, RoundEnded

from .helpers import start
from .rules_helpers import actions, bet, board_deck, cards, kinds, of, posts

FL, NL = Betting.FIXED_LIMIT, Betting.NO_LIMIT
S2_4 = Stakes.fixed_limit(200, 400)
DEEP = 100_000


def _blind_seats(hand: HandState) -> tuple[int, int]:
    p = {e.what: e.seat for e in of(hand.events, Posted)}
    return p["small_blind"], p["big_blind"]


@pytest.mark.parametrize(
    ("button", "sb", "bb", "utg"), [(7, 9, 2, 4), (9, 2, 4, 7), (4, 7, 9, 2), (2, 4, 7, 9)]
)
def test_r89_blinds_are_the_two_occupied_seats_left_of_the_button(
    button: int, sb: int, bb: int, utg: int
) -> None:
    hand = start("holdem", FL, S2_4, {2: DEEP, 4: DEEP, 7: DEEP, 9: DEEP}, button=button)
    assert _blind_seats(hand) == (sb, bb)
    assert posts(hand) == [(sb, "small_blind", 100), (bb, "big_blind", 200)]
    assert bet(hand).seat == utg


@pytest.mark.parametrize(("button", "other"), [(6, 3), (3, 6)])
def test_r90_heads_up_button_posts_sb_acts_first_preflop_last_after(button: int, other: int) -> None:
    """R90: heads-up the button posts the SB and acts first preflop; the BB acts first on the flop, turn and
    river."""
    hand = start("holdem", FL, S2_4, {3: DEEP, 6: DEEP}, button=button)
    assert _blind_seats(hand) == (button, other)
    assert bet(hand).seat == button
    hand.apply(Call(button))
    assert bet(hand).seat == other
    hand.apply(Check(other))
    for street in (1, 2, 3):
        assert hand.street == street
        assert bet(hand).seat == other
        hand.apply(Check(other))
        assert bet(hand).seat == button
        hand.apply(Check(button))
    assert hand.is_over


def test_r91_r92_one_orbit_every_player_posts_each_blind_once() -> None:
    """The table moves the button to the seat that posted the SB (R92, the normal case of §4.2); with the
    engine's default blinds the button then visits every occupied seat clockwise (R91) and every player
    posts the SB once and the BB once per orbit."""
    seats = (1, 3, 4, 6, 8)
    button = 1
    buttons, sbs, bbs = [], [], []
    for _ in seats:
        hand = start("holdem", FL, S2_4, dict.fromkeys(seats, DEEP), button=button)
        sb, bb = _blind_seats(hand)
        buttons.append(button)
        sbs.append(sb)
        bbs.append(bb)
        button = sb  # R92: the SB of hand N has the button in hand N+1
    assert buttons == [1, 3, 4, 6, 8]
    assert sorted(sbs) == list(seats) and sorted(bbs) == list(seats)
    assert sbs == [3, 4, 6, 8, 1] and bbs == [4, 6, 8, 1, 3]


def test_r95_three_to_two_players_heads_up_defaults() -> None:
    """Seats 1, 2, 3 with button 1, SB 2, BB 3; seat 3 leaves. The table puts the button on seat 2 (the
    previous SB, §4.2 step 4 and the heads-up override); the engine makes the button the SB and seat 1
    the BB, deals first to seat 1 (§4.3) and lets the button act first preflop."""
    text = board_deck(["Ac Kc", "2d 3d"], "9h 9s 5c 6c Jd")  # dealt to seat 1, then seat 2
    hand = start("holdem", FL, S2_4, {1: DEEP, 2: DEEP}, text, button=2)
    assert posts(hand) == [(2, "small_blind", 100), (1, "big_blind", 200)]
    assert [e.seat for e in of(hand.events, CardsDealt)] == [1, 2]
    assert hand.hole_cards(1) == cards("Ac Kc")
    assert bet(hand).seat == 2


def test_r97_new_player_posting_one_live_bb_left_of_the_bb() -> None:
    # Five seats, button 1 / SB 2 / BB 3; the newcomer in seat 4 posts one BB live.
    hand = start(
        "holdem", FL, S2_4, [DEEP] * 5, button=1, blinds=Blinds((2, 100), (3, 200), live=((4, 200),))
    )
    assert posts(hand) == [(2, "small_blind", 100), (3, "big_blind", 200), (4, "live", 200)]
    assert len(hand.hole_cards(4)) == 2  # dealt in at once
    d = bet(hand)  # unraised: he may check or raise
    assert (d.seat, d.check, d.call, d.raise_kind, d.choices) == (4, True, 0, "raise", (400,))
    hand.apply(Check(4))
    hand.apply(Call(5))
    hand.apply(Call(1))
    hand.apply(Call(2))
    d = bet(hand)
    assert (d.seat, d.check, d.choices) == (3, True, (400,))  # the BB keeps his option
    hand.apply(Check(3))
    assert hand.street == 1
    assert hand.contributions() == dict.fromkeys(range(1, 6), 200)


def test_r97_live_post_counts_toward_a_raise() -> None:
    hand = start(
        "holdem", FL, S2_4, [DEEP] * 5, button=1, blinds=Blinds((2, 100), (3, 200), live=((4, 200),))
    )
    hand.apply(Check(4))
    hand.apply(RaiseTo(5, 400))
    for seat in (1, 2, 3):
        hand.apply(Fold(seat))
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (4, 200, (600,))


def test_r100_returning_ml_player_posts_live_bb_and_dead_sb() -> None:
    hand = start(
        "holdem",
        NL,
        Stakes.blinds(100, 200),
        [DEEP] * 5,
        button=1,
        blinds=Blinds((2, 100), (3, 200), live=((5, 200),), dead=((5, 100),)),
    )
    assert sorted(posts(hand)) == [
        (2, "small_blind", 100),
        (3, "big_blind", 200),
        (5, "dead", 100),
        (5, "live", 200),
    ]
    assert len(hand.hole_cards(5)) == 2
    assert hand.pot_total() == 600  # the dead $1 is in the pot
    hand.apply(RaiseTo(4, 600))
    d = bet(hand)
    assert (d.seat, d.call, d.to_call, d.bet) == (5, 400, 400, 200)
    hand.apply(Call(5))
    assert actions(hand)[-1] == (5, "call", 400)
    assert hand.contributions()[5] == 700
    for seat in (1, 2, 3):
        hand.apply(Fold(seat))
    assert hand.pot_total() == 100 + 200 + 700 + 600


def test_r101_returning_ms_player_posts_dead_sb_and_owes_the_full_bb() -> None:
    hand = start(
        "holdem",
        NL,
        Stakes.blinds(100, 200),
        [DEEP] * 5,
        button=1,
        blinds=Blinds((2, 100), (3, 200), dead=((5, 100),)),
    )
    assert sorted(posts(hand)) == [(2, "small_blind", 100), (3, "big_blind", 200), (5, "dead", 100)]
    assert len(hand.hole_cards(5)) == 2
    hand.apply(Call(4))
    d = bet(hand)
    assert (d.seat, d.bet, d.check, d.call, d.min_to) == (5, 0, False, 200, 400)
    with pytest.raises(IllegalAction):
        hand.apply(Check(5))
    hand.apply(Call(5))
    assert actions(hand)[-1] == (5, "call", 200)
    assert hand.contributions()[5] == 300


def test_r104_timeout_folds_facing_a_bet_and_checks_when_free() -> None:
    hand = start("holdem", FL, S2_4, [DEEP] * 4, button=4)  # SB 1, BB 2, UTG 3
    hand.apply(TimeOut(3))
    assert actions(hand)[-1] == (3, "fold", 0)
    hand.apply(Call(4))
    hand.apply(Call(1))
    hand.apply(TimeOut(2))  # unraised BB: check
    assert actions(hand)[-1] == (2, "check", 0)
    assert hand.street == 1
    hand.apply(TimeOut(1))
    assert actions(hand)[-1] == (1, "check", 0)
    hand.apply(RaiseTo(2, 200))
    hand.apply(TimeOut(4))
    assert actions(hand)[-1] == (4, "fold", 0)


def test_r105_two_hole_cards_one_at_a_time_from_left_of_the_button() -> None:
    """R105: two hole cards each, dealt one at a time from the first seat left of the button."""
    # Seats 1, 3, 5 with button 3: dealing starts with seat 5.
    text = "Ac Kd Qh Js Tc 9d"
    hand = start("holdem", FL, S2_4, {1: DEEP, 3: DEEP, 5: DEEP}, text, button=3)
    assert hand.hole_cards(5) == cards("Ac Js")
    assert hand.hole_cards(1) == cards("Kd Tc")
    assert hand.hole_cards(3) == cards("Qh 9d")
    assert [e.seat for e in of(hand.events, CardsDealt)] == [5, 1, 3]


def test_r105_dealing_starts_left_of_a_dead_button() -> None:
    """R105: with a dead button the deal starts with the first dealt-in seat left of it."""
    text = "Ac Kd Qh Js Tc 9d"
    hand = start(
        "holdem", FL, S2_4, {1: DEEP, 3: DEEP, 5: DEEP}, text, button=4, blinds=Blinds((5, 100), (1, 200))
    )
    assert hand.hole_cards(5) == cards("Ac Js")
    assert hand.hole_cards(1) == cards("Kd Tc")
    assert hand.hole_cards(3) == cards("Qh 9d")


def test_r106_a_hand_to_the_river_burns_exactly_three_cards() -> None:
    """R106: a hand dealt to the river burns exactly three cards, before the flop, the turn and the river."""
    text = "Ac Kd Qh Js  2c  5h 6h 7h  2d  8c  2h  9s"
    hand = start("holdem", FL, S2_4, {1: DEEP, 2: DEEP}, text, button=2)
    while not hand.is_over:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    deal = [e for e in hand.events if isinstance(e, Burned | BoardDealt)]
    assert kinds(deal) == ["burned", "board_dealt"] * 3
    assert [len(e.cards) for e in of(deal, BoardDealt)] == [3, 1, 1]
    assert hand.board == list(cards("5h 6h 7h 8c 9s"))  # the burns 2c, 2d, 2h are nowhere


def test_r107_postflop_first_is_the_sb_when_still_in() -> None:
    """R107: postflop the SB, still in, acts first."""
    hand = start("holdem", FL, S2_4, [DEEP] * 4, button=1)  # SB 2, BB 3, UTG 4
    hand.apply(Call(4))
    hand.apply(Call(1))
    hand.apply(Call(2))
    hand.apply(Check(3))
    assert bet(hand).seat == 2


def test_r107_postflop_first_is_the_next_active_seat_when_the_sb_folded() -> None:
    """R107: the SB folded: postflop the next active seat left of the button acts first."""
    hand = start("holdem", FL, S2_4, [DEEP] * 4, button=1)
    hand.apply(Call(4))
    hand.apply(Call(1))
    hand.apply(Fold(2))
    hand.apply(Check(3))
    assert bet(hand).seat == 3


def test_r107_dead_small_blind_hand_flop_starts_left_of_the_button() -> None:
    """R107: R94's hand h+1: seat 3 sits out, BB seat 4, no SB, button seat 2 → UTG 5, flop starts with 4."""
    seats = dict.fromkeys((1, 2, 4, 5, 6), DEEP)
    hand = start("holdem", FL, S2_4, seats, button=2, blinds=Blinds(small=None, big=(4, 200)))
    assert posts(hand) == [(4, "big_blind", 200)]
    assert bet(hand).seat == 5
    for seat in (5, 6, 1, 2):
        hand.apply(Call(seat))
    hand.apply(Check(4))
    assert bet(hand).seat == 4


@pytest.mark.parametrize(("sb_folds", "first"), [(False, 4), (True, 5)])
def test_r107_dead_button_flop_starts_clockwise_from_the_button_seat(sb_folds: bool, first: int) -> None:
    """R107: R94's hand h+2: dead button on seat 3 (not dealt in), SB 4, BB 5."""
    seats = dict.fromkeys((1, 2, 4, 5, 6), DEEP)
    hand = start("holdem", FL, S2_4, seats, button=3, blinds=Blinds((4, 100), (5, 200)))
    assert bet(hand).seat == 6
    for seat in (6, 1, 2):
        hand.apply(Call(seat))
    hand.apply(Fold(4) if sb_folds else Call(4))
    hand.apply(Check(5))
    assert bet(hand).seat == first


def test_r108_the_button_stays_when_its_player_folds() -> None:
    """R108: the button player folds; the button stays on his seat for the rest of the hand."""
    hand = start("holdem", FL, S2_4, [DEEP] * 4, button=1)
    hand.apply(Call(4))
    hand.apply(Fold(1))  # the button folds
    hand.apply(Call(2))
    hand.apply(Check(3))
    assert hand.button == 1
    assert bet(hand).seat == 2  # still the first seat left of the button
    hand.apply(Check(2))
    hand.apply(Check(3))
    hand.apply(Check(4))
    assert hand.button == 1 and bet(hand).seat == 2


def test_r109_unraised_bb_checks_and_the_flop_is_dealt() -> None:
    """R109: an unraised BB may check; his check ends the round and the flop is dealt."""
    hand = start("holdem", FL, S2_4, [DEEP] * 3)  # SB 1, BB 2, UTG 3
    hand.apply(Call(3))
    hand.apply(Call(1))
    d = bet(hand)
    assert (d.seat, d.check, d.call, d.choices) == (2, True, 0, (400,))
    events = hand.apply(Check(2))
    assert kinds(events)[:2] == ["action", "round_ended"]
    assert [len(e.cards) for e in of(events, BoardDealt)] == [3]


def test_r109_unraised_bb_raises_and_everyone_acts_again() -> None:
    """R109: an unraised BB raises; every player still in acts again."""
    hand = start("holdem", FL, S2_4, [DEEP] * 3)
    hand.apply(Call(3))
    hand.apply(Call(1))
    events = hand.apply(RaiseTo(2, 400))
    assert not of(events, RoundEnded)
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (3, 200, (600,))
    hand.apply(Call(3))
    d = bet(hand)
    assert (d.seat, d.call) == (1, 200)
    hand.apply(Call(1))
    assert hand.street == 1


def test_r110_sb_completes_an_unraised_bb_by_adding_half() -> None:
    """R110: the SB ($5 in) facing an unraised BB of $10 adds $5 to call."""
    hand = start("holdem", NL, Stakes.blinds(500, 1000), [DEEP] * 3)  # SB 1, BB 2, button 3
    hand.apply(Call(3))
    d = bet(hand)
    assert (d.seat, d.call, d.bet) == (1, 500, 500)
    hand.apply(Call(1))
    assert actions(hand)[-1] == (1, "call", 500)


def test_r111_check_raise_is_allowed() -> None:
    """R111: a player who checked may raise after a later bet in the same round."""
    hand = start("holdem", FL, S2_4, [DEEP] * 3)
    hand.apply(Call(3))
    hand.apply(Call(1))
    hand.apply(Check(2))
    hand.apply(Check(1))
    hand.apply(RaiseTo(2, 200))
    hand.apply(Call(3))
    d = bet(hand)
    assert (d.seat, d.call, d.raise_kind, d.choices) == (1, 200, "raise", (400,))
    hand.apply(RaiseTo(1, 400))
    assert actions(hand)[-1] == (1, "raise", 400)


def test_r112_a_checked_around_flop_deals_the_turn() -> None:
    hand = start("holdem", FL, S2_4, [DEEP] * 3)
    hand.apply(Call(3))
    hand.apply(Call(1))
    hand.apply(Check(2))
    hand.apply(Check(1))
    hand.apply(Check(2))
    events = hand.apply(Check(3))
    assert kinds(events) == ["action", "round_ended", "street_started", "burned", "board_dealt"]
    assert hand.street == 2 and len(hand.board) == 4
    assert [(e.seat, e.action) for e in of(hand.events, ActionTaken)][-3:] == [
        (1, "check"),
        (2, "check"),
        (3, "check"),
    ]

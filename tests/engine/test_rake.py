"""RULES.md §7.1 and §10 R185-R187 (and R82's "no rake"): rake on the pots after uncalled bets, per pot,
with "no flop, no drop" extended to stud and draw games."""

from __future__ import annotations

import pytest

from pokerroom.engine import (
    Betting,
    Call,
    Check,
    Draw,
    DrawDecision,
    Fold,
    HandState,
    RaiseTo,
    RakeRule,
    Stakes,
)
from pokerroom.engine.events import HandEnded, PotAwarded

from .helpers import start
from .rules_helpers import awards, bet, board_deck, of

NL, FL = Betting.NO_LIMIT, Betting.FIXED_LIMIT
RAKE = RakeRule(500, 300)  # 5 %, cap $3.00
DEEP = 100_000


@pytest.mark.parametrize(
    ("pot", "rake"), [(4000, 200), (8000, 300), (39, 1), (19, 0), (6000, 300), (5999, 299)]
)
def test_r185_five_percent_floored_capped_at_3(pot: int, rake: int) -> None:
    assert RAKE.amount(pot) == rake


def _checked_down(stacks: dict[int, int], blinds: tuple[int, int], text: str = "") -> HandState:
    hand = start("holdem", NL, Stakes.blinds(*blinds), stacks, text, rake=RAKE)
    while not hand.is_over:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    return hand


@pytest.mark.parametrize(("bb", "rake"), [(2000, 200), (4000, 300), (1, 0)])
def test_r185_rake_taken_from_a_hand(bb: int, rake: int) -> None:
    # Heads-up, the SB calls and the hand is checked down: pot = 2 BB.
    text = board_deck(["Ac Ad", "Kc Kd"], "2c 7d 9h Js 3s")
    hand = _checked_down({1: DEEP, 2: DEEP}, (bb // 2, bb), text)
    assert hand.rake == rake
    (award,) = of(hand.events, PotAwarded)
    assert (award.amount, award.rake, award.winners) == (2 * bb - rake, rake, (1,))
    assert of(hand.events, HandEnded)[0].rake == rake
    assert sum(hand.stacks().values()) + hand.rake == 2 * DEEP


def test_r185_pot_of_39_cents_rakes_1() -> None:
    # Three players put in 13 cents each (both blinds 13): a 39-cent pot, rake 1.95 floored to 1.
    text = board_deck(["Ac Ad", "Kc Kd", "Qc Qd"], "2c 7d 9h Js 3s")
    hand = _checked_down({1: DEEP, 2: DEEP, 3: DEEP}, (13, 13), text)
    assert hand.pot_total() == 39
    assert hand.rake == 1
    assert awards(hand) == [(0, "", 38, {1: 38})]


def test_r186_rake_after_the_uncalled_bet_is_returned() -> None:
    """R186: Rake is taken on the pot after the uncalled part is returned: a $5.00 flop bet into a $10.00
    pot, all fold → rake on $10.00 only."""
    # Heads-up, blinds 2.50/5.00, the SB calls: a $10.00 pot on the flop; a $5.00 bet, the other folds.
    hand = start("holdem", NL, Stakes.blinds(250, 500), {1: DEEP, 2: DEEP}, rake=RAKE)
    hand.apply(Call(2))
    hand.apply(Check(1))
    assert hand.pot_total() == 1000
    hand.apply(RaiseTo(1, 500))
    hand.apply(Fold(2))
    assert hand.is_over
    assert hand.rake == 50  # 5 % of $10.00, not of $15.00
    assert awards(hand) == [(0, "", 950, {1: 950})]


def test_r187_rake_split_between_main_and_side_pot() -> None:
    # Seat 3 (button) is all-in for 100; main pot 3 x 100 = 300, side pot 2 x 50 = 100; rake 20.
    text = board_deck(["Kc Kd", "Qc Qd", "Ac Ad"], "2c 7d 9h Js 3s")
    hand = start("holdem", NL, Stakes.blinds(25, 50), {1: DEEP, 2: DEEP, 3: 100}, text, rake=RAKE)
    hand.apply(Call(3))
    hand.apply(Call(1))
    hand.apply(Check(2))
    hand.apply(RaiseTo(1, 100))
    hand.apply(Call(2))
    hand.apply(Call(3))  # all-in for 50
    while not hand.is_over:
        d = bet(hand)
        hand.apply(Check(d.seat))
    assert [(p.amount, p.eligible) for p in hand.pots] == [(300, (1, 2, 3)), (100, (1, 2))]
    assert hand.rake == 20
    got = [(a.pot, a.rake, a.amount, a.winners) for a in of(hand.events, PotAwarded)]
    assert got == [(1, 5, 95, (1,)), (0, 15, 285, (3,))]


def test_no_drop_when_the_hand_ends_preflop() -> None:
    hand = start("holdem", NL, Stakes.blinds(250, 500), {1: DEEP, 2: DEEP, 3: DEEP}, rake=RAKE)
    hand.apply(RaiseTo(3, 5000))
    hand.apply(Fold(1))
    hand.apply(Fold(2))
    assert hand.is_over and hand.rake == 0
    assert awards(hand) == [(0, "", 1250, {3: 1250})]  # the uncalled 45.00 went back


def test_no_drop_in_stud_ending_on_third_street_and_draw_before_the_draw() -> None:
    stud = start(
        "stud", FL, Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False), [DEEP] * 3, rake=RAKE
    )
    d = bet(stud)
    stud.apply(RaiseTo(d.seat, 200))
    stud.apply(Fold(bet(stud).seat))
    stud.apply(Fold(bet(stud).seat))
    assert stud.is_over and stud.rake == 0
    draw = start("draw5", FL, Stakes.fixed_limit(200, 400), [DEEP] * 3, rake=RAKE)
    draw.apply(RaiseTo(3, 400))
    draw.apply(Fold(1))
    draw.apply(Fold(2))
    assert draw.is_over and draw.rake == 0
    # Once the draw has happened, the rake is taken.
    draw = start("draw5", FL, Stakes.fixed_limit(200, 400), [DEEP] * 3, rake=RAKE)
    draw.apply(Call(3))
    draw.apply(Call(1))
    draw.apply(Check(2))
    while isinstance(draw.pending, DrawDecision):
        draw.apply(Draw(draw.pending.seat))
    draw.apply(RaiseTo(1, 400))
    draw.apply(Fold(2))
    draw.apply(Fold(3))
    assert draw.rake == 30  # 5 % of $6.00

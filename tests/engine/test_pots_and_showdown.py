"""RULES.md §2.7, §3.7-§3.9, §6 and §10 R16, R20-R23, R29, R30, R80-R88, R172-R179, R181, R243, R244:
split pots, odd chips, uncalled bets, side pots, showing order and automatic shows.

Every showdown uses a literal deck, so the winners and amounts are exact.
"""

from __future__ import annotations

import pytest

from pokerroom.engine import (
    Betting,
    Blinds,
    BringIn,
    Call,
    Check,
    Fold,
    HandState,
    Muck,
    RaiseTo,
    RakeRule,
    Show,
    ShowDecision,
    Stakes,
    TimeOut,
)
from pokerroom.engine.events import (
    BetReturned,
    BoardDealt,
    Burned,
    CardsDealt,
    CardsShown,
    PotAwarded,
    RoundEnded,
)
from pokerroom.eval import evaluate

from .helpers import start
from .rules_helpers import awards, bet, board_deck, cards, deck, interleave, kinds, mucked, net, of, shown

NL, PL, FL = Betting.NO_LIMIT, Betting.POT_LIMIT, Betting.FIXED_LIMIT
DEEP = 100_000


def _check_down(hand: HandState) -> None:
    """Call or check every betting decision until the hand reaches its showdown (or ends)."""
    while not hand.is_over and not isinstance(hand.pending, ShowDecision):
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))


# --------------------------------------------------------------------------------- splits (R16-R30)


def test_r16_everybody_plays_the_board_and_splits() -> None:
    text = board_deck(["2c 3d", "4h 5h", "9s 9d"], "As Kh Qd Jc Ts")  # seats 1, 2, 3 (button 3)
    stacks = {1: DEEP, 2: DEEP, 3: DEEP}
    hand = start("holdem", NL, Stakes.blinds(50, 100), stacks, text)
    _check_down(hand)
    assert hand.is_over
    assert awards(hand) == [(0, "", 300, {1: 100, 2: 100, 3: 100})]
    assert net(hand, stacks) == {1: 0, 2: 0, 3: 0}


def test_r20_five_card_omaha_king_plus_broadway_card_splits_with_three_aces() -> None:
    holes = ["Ac Ad Ah Ks 7c", "Kh Qc 2d 3d 4d", "Kd Jc 2h 3h 4h", "Kc Tc 2s 3s 4s"]
    text = board_deck(holes, "As Qs Jh Td 9d")
    hand = start("omaha5", PL, Stakes.blinds(50, 100), [DEEP] * 4, text)  # button 4: dealt 1, 2, 3, 4
    assert [hand.hole_cards(s) for s in (1, 2, 3, 4)] == [cards(h) for h in holes]
    _check_down(hand)
    assert awards(hand) == [(0, "", 400, {1: 100, 2: 100, 3: 100, 4: 100})]
    assert all("Straight" in e.description for e in of(hand.events, PotAwarded))


def test_r21_six_card_omaha_three_aces_and_king_queen_split() -> None:
    text = board_deck(["Ac Ad Ah Ks 7c 2c", "Kh Qc 3d 4d 5h 6h"], "As Qs Jh Td 9d")
    hand = start("omaha6", PL, Stakes.blinds(50, 100), [DEEP] * 2, text)  # button 2: seat 1 dealt first
    assert hand.hole_cards(1) == cards("Ac Ad Ah Ks 7c 2c")
    _check_down(hand)
    assert awards(hand) == [(0, "", 200, {1: 100, 2: 100})]


def test_r22_omaha_hi_lo_sole_best_high_and_low_scoops() -> None:
    text = board_deck(["Ad Kd 3s 2s", "Kc Kh 9c 9h"], "Jd 4d 3c Qd 5h")
    stacks = {1: DEEP, 2: DEEP}
    hand = start("omaha8", FL, Stakes.fixed_limit(100, 200), stacks, text)
    _check_down(hand)
    assert awards(hand) == [(0, "high", 100, {1: 100}), (0, "low", 100, {1: 100})]
    assert net(hand, stacks) == {1: 100, 2: -100}
    high, low = (e.description for e in of(hand.events, PotAwarded))
    assert high == evaluate("omaha_high", "AdKd3s2s", "Jd4d3cQd5h").description
    assert "Flush" in high and low == "5-4-3-2-A low"


def test_r23_omaha_hi_lo_tied_low_gets_a_quarter() -> None:
    text = board_deck(["Ad Kd 3s 2s", "Ac 2c 9h 9s"], "Jd 4d 3c Qd 5h")
    stacks = {1: DEEP, 2: DEEP}
    hand = start("omaha8", NL, Stakes.blinds(100, 200), stacks, text)
    _check_down(hand)
    assert awards(hand) == [(0, "high", 200, {1: 200}), (0, "low", 200, {1: 100, 2: 100})]
    assert hand.stacks() == {1: DEEP + 100, 2: DEEP - 100}  # $3.00 and $1.00 of the $4.00 pot


def test_r29_hi_lo_odd_chip_goes_to_the_high_half() -> None:
    # Pot $10.01: SB 1 folds, seats 2 and 3 put in $5.00 each.
    text = board_deck(["7h 8h Tc Jc", "Kh Kc Qc Qd", "Ac 2c 9s 9h"], "3c 4d 5h Kd Ks")
    hand = start("omaha8", NL, Stakes.blinds(1, 500), [DEEP] * 3, text)
    hand.apply(Call(3))
    hand.apply(Fold(1))
    hand.apply(Check(2))
    _check_down(hand)
    assert awards(hand) == [(0, "high", 501, {2: 501}), (0, "low", 500, {3: 500})]


def test_r30_tied_low_half_odd_chip_to_first_seat_left_of_the_button() -> None:
    # Seats 2, 5, 8 with button 5: dealing and odd chips go 8, 2, 5. Pot 1002: halves of 501.
    text = board_deck(["Ah 2h Jc Js", "Ad 2d 9s 9c", "Kh Kc Qc Qd"], "3c 4d 5h Kd Ks")
    hand = start("omaha8", NL, Stakes.blinds(167, 334), {2: DEEP, 5: DEEP, 8: DEEP}, text, button=5)
    assert hand.hole_cards(8) == cards("Ah 2h Jc Js")
    _check_down(hand)
    assert awards(hand) == [(0, "high", 501, {5: 501}), (0, "low", 501, {8: 251, 2: 250})]


# ------------------------------------------------------------------------ uncalled bets (R80-R82, R86)


def _flop_nl(stacks: dict[int, int], text: str = "", **kw: object) -> HandState:
    """NL 50/100, everybody calls preflop; seat 1 acts first on the flop (the button is the last seat)."""
    hand = start("holdem", NL, Stakes.blinds(50, 100), stacks, text, button=max(stacks), **kw)  # type: ignore[arg-type]
    while hand.street == 0:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    return hand


def test_r80_uncalled_part_returned_before_pots() -> None:
    text = board_deck(["Ac Ad", "Kc Kd", "2h 7s", "3h 8s"], "2c 7d 9h Js 3s")
    hand = _flop_nl({1: DEEP, 2: 100 + 120, 3: DEEP, 4: DEEP}, text)
    hand.apply(RaiseTo(1, 300))  # A bets 300
    hand.apply(Call(2))  # B calls all-in for 120
    hand.apply(Fold(3))
    events = hand.apply(Fold(4))
    returned = of(events, BetReturned)
    assert [(e.seat, e.amount) for e in returned] == [(1, 180)]
    assert kinds(events).index("bet_returned") < kinds(events).index("round_ended")
    assert of(events, RoundEnded)[0].pots == (640,)
    assert hand.contributions() == {1: 220, 2: 220, 3: 100, 4: 100}
    assert awards(hand) == [(0, "", 640, {1: 640})]


def test_r81_fold_to_a_flop_bet_ends_the_hand_without_showdown() -> None:
    """R81: all fold to a flop bet: the hand ends, no turn or river, no showdown, the winner's cards
    unshown."""
    text = board_deck(["Ac Ad", "Kc Kd", "Qc Qd"], "2c 7d 9h Js 3s")
    stacks = {1: DEEP, 2: DEEP, 3: DEEP}
    hand = _flop_nl(stacks, text)
    hand.apply(RaiseTo(1, 200))
    hand.apply(Fold(2))
    events = hand.apply(Fold(3))
    assert hand.is_over
    assert hand.board == list(cards("2c 7d 9h"))
    assert not of(events, Burned) and not of(events, BoardDealt)
    assert not of(hand.events, CardsShown) and not mucked(hand)
    assert awards(hand) == [(0, "", 300, {1: 300})]
    assert [(e.seat, e.amount) for e in of(events, BetReturned)] == [(1, 200)]
    assert all(e.description == "" for e in of(events, PotAwarded))


def test_r82_all_fold_to_the_bb() -> None:
    stacks = {1: DEEP, 2: DEEP, 3: DEEP}
    hand = start("holdem", NL, Stakes.blinds(50, 100), stacks, rake=RakeRule(500, 300))
    hand.apply(Fold(3))
    hand.apply(Fold(1))
    assert hand.is_over
    assert hand.board == [] and not of(hand.events, Burned)
    assert hand.rake == 0
    assert net(hand, stacks) == {1: -50, 2: 50, 3: 0}
    assert [(e.seat, e.amount) for e in of(hand.events, BetReturned)] == [(2, 50)]
    assert awards(hand) == [(0, "", 100, {2: 100})]


def test_r86_uncalled_bet_returned_with_an_all_in_player_still_showdown() -> None:
    text = board_deck(["Kc Kd", "Qc Qd", "Ac Ad"], "2c 7d 9h Js 3s")
    hand = start("holdem", NL, Stakes.blinds(50, 100), {1: DEEP, 2: DEEP, 3: 300}, text)
    hand.apply(RaiseTo(3, 300))  # all-in
    hand.apply(Call(1))
    hand.apply(Call(2))
    hand.apply(RaiseTo(1, 1000))  # flop bet
    events = hand.apply(Fold(2))
    assert [(e.seat, e.amount) for e in of(events, BetReturned)] == [(1, 1000)]
    assert hand.is_over and len(hand.board) == 5
    assert set(shown(hand)) == {1, 3}
    assert awards(hand) == [(0, "", 900, {3: 900})]
    assert of(hand.events, PotAwarded)[0].description == "Pair of aces"


# ------------------------------------------------------------------------------- side pots (R83-R85)


def _side_pot_hand(holes: list[str]) -> HandState:
    """A (seat 1, SB) all-in 50, B (seat 2, BB) all-in 120, C (seat 3) raises to 200, D (seat 4) calls;
    C and D check it down."""
    text = board_deck(holes, "2c 7d 9h Js 3s")
    hand = start("holdem", NL, Stakes.blinds(5, 10), {1: 50, 2: 120, 3: 1000, 4: 1000}, text, button=4)
    hand.apply(RaiseTo(3, 200))
    hand.apply(Call(4))
    hand.apply(Call(1))
    events = hand.apply(Call(2))
    assert of(events, RoundEnded)[0].pots == (200, 210, 160)
    _check_down(hand)
    assert hand.contributions() == {1: 50, 2: 120, 3: 200, 4: 200}
    return hand


def test_r83_r84_side_pots_awarded_last_created_first() -> None:
    hand = _side_pot_hand(["Ac Ad", "Kc Kd", "Qc Qd", "5h 5d"])
    assert [(p.amount, p.eligible) for p in hand.pots] == [
        (200, (1, 2, 3, 4)),
        (210, (2, 3, 4)),
        (160, (3, 4)),
    ]
    # R84: the all-in A wins only the main pot; each side pot goes to the best hand among its players.
    assert awards(hand) == [(2, "", 160, {3: 160}), (1, "", 210, {2: 210}), (0, "", 200, {1: 200})]


def test_r85_best_hand_not_all_in_wins_every_pot() -> None:
    hand = _side_pot_hand(["Ac Ad", "Kc Kd", "Qc Qd", "9c 9s"])
    assert awards(hand) == [(2, "", 160, {4: 160}), (1, "", 210, {4: 210}), (0, "", 200, {4: 200})]
    assert hand.stacks() == {1: 0, 2: 0, 3: 800, 4: 1370}


# ------------------------------------------------------------------------------ odd chips (R87, R88)


def test_r87_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    # Seats 1, 2, 5, 8, 9, button 9: SB seat 1 posts 1 and folds; seats 2, 5, 8 play the board.
    holes = ["2c 2d", "3c 3d", "4c 4d", "5c 5d", "6c 6d"]  # dealt 1, 2, 5, 8, 9
    text = board_deck(holes, "As Kh Qd Jc Ts")
    seats = dict.fromkeys((1, 2, 5, 8, 9), DEEP)
    hand = start("holdem", NL, Stakes.blinds(1, 100), seats, text, button=9)
    hand.apply(Call(5))
    hand.apply(Call(8))
    hand.apply(Fold(9))
    hand.apply(Fold(1))
    hand.apply(Check(2))
    _check_down(hand)
    assert awards(hand) == [(0, "", 301, {2: 101, 5: 100, 8: 100})]


def test_r87_odd_chip_order_follows_the_button_not_the_seat_number() -> None:
    # The same three winners with a dead button on seat 3: the odd chip goes to seat 5.
    holes = ["4c 4d", "5c 5d", "6c 6d", "2c 2d", "3c 3d"]  # dealt 5, 8, 9, 1, 2
    text = board_deck(holes, "As Kh Qd Jc Ts")
    seats = dict.fromkeys((1, 2, 5, 8, 9), DEEP)
    blinds = Blinds((5, 50), (8, 100), dead=((1, 1),))
    hand = start("holdem", NL, Stakes.blinds(50, 100), seats, text, button=3, blinds=blinds)
    hand.apply(Fold(9))
    hand.apply(Fold(1))
    hand.apply(Call(2))
    hand.apply(Call(5))
    hand.apply(Check(8))
    _check_down(hand)
    assert awards(hand) == [(0, "", 301, {5: 101, 8: 100, 2: 100})]


def test_r88_stud_odd_chip_to_the_lowest_seat() -> None:
    # Seats 3, 6, 8; ante 1, bring-in 49: seat 3 (7h) brings in, seat 6 calls, seat 8 folds: pot 101.
    third = interleave("5c 6d 7h", "5d 6h 7s", "Ah Ad Kc")
    text = deck(third, "_ 8s 8c", "_ 9c 9d", "_ Jd Jc", "_ 2c 2d")
    stakes = Stakes.fixed_limit(200, 400, ante=1, bring_in=49, blinds=False)
    hand = start("stud", FL, stakes, {3: DEEP, 6: DEEP, 8: DEEP}, text)
    assert bet(hand).seat == 3 and bet(hand).bring_in == 49
    hand.apply(BringIn(3))
    hand.apply(Call(6))
    hand.apply(Fold(8))
    _check_down(hand)
    assert awards(hand) == [(0, "", 101, {3: 51, 6: 50})]


# ---------------------------------------------------------------------------- showing order (R172-R178)


def test_r172_river_bettor_shows_first() -> None:
    # A = 1, B = 2, C = 3 (button): B bets the river, C and A call; A > C > B so all are shown.
    text = board_deck(["Ac Ad", "4c 4d", "Kc Kd"], "2c 7d 9h Js 3s")
    hand = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 3, text)
    while hand.street < 3:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    hand.apply(Check(1))
    hand.apply(RaiseTo(2, 200))
    hand.apply(Call(3))
    hand.apply(Call(1))
    assert shown(hand) == [2, 3, 1]
    assert of(hand.events, CardsShown)[0].reason == "showdown"


def test_r173_last_aggressor_of_the_turn_shows_first_when_the_river_is_checked() -> None:
    """R173: Showdown order: river checked; on the turn A bet and C raised, A called → C shows first."""
    text = board_deck(["Ac Ad", "4c 4d", "Kc Kd"], "2c 7d 9h Js 3s")
    hand = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 3, text)
    while hand.street < 2:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    hand.apply(RaiseTo(1, 200))  # A bets
    hand.apply(Fold(2))
    hand.apply(RaiseTo(3, 400))  # C raises
    hand.apply(Call(1))  # A calls
    hand.apply(Check(1))
    hand.apply(Check(3))
    assert shown(hand) == [3, 1]


def test_r174_no_bet_in_the_whole_hand_first_active_left_of_the_button_shows_first() -> None:
    """R174: Showdown order: no bet or raise in the whole hand (limped and checked down) → the first active
    player left of the button shows first."""
    # Button 2, SB 3 folds: seat 4 (BB) is the first active seat left of the button, then 1, then 2.
    text = board_deck(["Kc Kd", "4c 4d", "6c 6d", "8c 8d"], "2c 7d 9h Js 3s")  # dealt 3, 4, 1, 2
    hand = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 4, text, button=2)
    hand.apply(Call(1))
    hand.apply(Call(2))
    hand.apply(Fold(3))
    hand.apply(Check(4))
    _check_down(hand)
    assert shown(hand) == [4, 1, 2]
    assert awards(hand) == [(0, "", 350, {2: 350})]


def _r175_hand(auto_muck: bool) -> HandState:
    # Checked down; seat 1 shows first (A-K), seat 2 is worse, seat 3 ties seat 1.
    text = board_deck(["Ah Kh", "Qc 3d", "Ad Kd"], "2c 7s 9h Jd 4c")
    hand = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 3, text, auto_muck=auto_muck)
    _check_down(hand)
    return hand


def test_r175_worse_hand_auto_mucked_and_tie_auto_shown() -> None:
    """R175: A later hand that ties or beats the best shown hand is shown automatically; a worse hand is
    offered show or muck (auto-muck setting mucks it)."""
    hand = _r175_hand(auto_muck=True)
    assert shown(hand) == [1, 3]
    assert mucked(hand) == [2]
    assert awards(hand) == [(0, "", 300, {1: 150, 3: 150})]


@pytest.mark.parametrize("choice", ["show", "muck", "timeout"])
def test_r175_worse_hand_offered_show_or_muck(choice: str) -> None:
    """R175: A later hand that ties or beats the best shown hand is shown automatically; a worse hand is
    offered show or muck (auto-muck setting mucks it)."""
    hand = _r175_hand(auto_muck=False)
    assert shown(hand) == [1]
    assert hand.pending == ShowDecision(2)
    hand.apply({"show": Show(2), "muck": Muck(2), "timeout": TimeOut(2)}[choice])  # a timeout mucks
    assert shown(hand) == ([1, 2, 3] if choice == "show" else [1, 3])
    assert mucked(hand) == ([] if choice == "show" else [2])
    assert awards(hand) == [(0, "", 300, {1: 150, 3: 150})]


@pytest.mark.parametrize(("first_hole", "low_half"), [("Kh Kc 6c 7c", "low"), ("Kh Kc Ac 2c", "tie")])
def test_r176_hi_lo_worse_high_with_a_low_that_ties_or_beats_is_shown(first_hole: str, low_half: str) -> None:
    """R176: Hi/lo: a later hand that is worse for high but ties or beats the best shown low is shown
    automatically."""
    # Seat 1 shows first (quad kings, low 7-6-5-4-3 or the wheel); seat 2's wheel is worse for high;
    # seat 3 is worse for both and is mucked.
    text = board_deck([first_hole, "Ad 2d Jh Js", "8c 6d Qh Qd"], "3c 4d 5h Kd Ks")
    hand = start("omaha8", NL, Stakes.blinds(50, 100), [DEEP] * 3, text)
    _check_down(hand)
    assert shown(hand) == [1, 2]
    assert mucked(hand) == [3]
    low = {2: 150} if low_half == "low" else {1: 75, 2: 75}
    assert awards(hand) == [(0, "high", 150, {1: 150}), (0, "low", 150, low)]


def test_r177_side_pot_winner_is_shown_though_worse_than_the_all_in_hand() -> None:
    """R177: Side pots: C (first to show) loses to all-in A, and B is worse than A but better than C; B is
    shown automatically and wins the side pot against C."""
    # C = seat 1 (SB), A = seat 2 (BB, all-in), B = seat 3 (button). C bets the river and shows first.
    text = board_deck(["4c 4d", "Ac Ad", "Kc Kd"], "2c 7d 9h Js 3s")
    hand = start("holdem", NL, Stakes.blinds(50, 100), {1: DEEP, 2: 300, 3: DEEP}, text)
    hand.apply(RaiseTo(3, 300))
    hand.apply(Call(1))
    hand.apply(Call(2))  # all-in
    for _ in range(2):
        hand.apply(Check(1))
        hand.apply(Check(3))
    hand.apply(RaiseTo(1, 500))
    hand.apply(Call(3))
    assert shown(hand) == [1, 2, 3]
    assert mucked(hand) == []
    assert awards(hand) == [(1, "", 1000, {3: 1000}), (0, "", 900, {2: 900})]


def test_r178_auto_muck_never_mucks_a_winning_hand() -> None:
    text = board_deck(["4c 4d", "Ac Ad"], "2c 7d 9h Js 3s")
    stacks = {1: DEEP, 2: DEEP}
    hand = start("holdem", NL, Stakes.blinds(50, 100), stacks, text, auto_muck=True)
    while hand.street < 3:
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))
    hand.apply(RaiseTo(1, 500))  # the loser bets and shows first
    hand.apply(Call(2))
    assert shown(hand) == [1, 2] and mucked(hand) == []
    assert awards(hand) == [(0, "", 1200, {2: 1200})]
    assert net(hand, stacks) == {1: -600, 2: 600}


# --------------------------------------------------------------------------------- exposure (R179)


def test_r179_all_in_preflop_hands_face_up_before_the_flop() -> None:
    text = board_deck(["Ac Ad", "Kc Kd"], "2c 7d 9h Js 3s")
    hand = start("holdem", NL, Stakes.blinds(50, 100), {1: 1000, 2: 1000}, text)
    hand.apply(RaiseTo(2, 1000))
    hand.apply(Call(1))
    assert hand.is_over
    k = kinds(hand.events)
    exposed = [e for e in of(hand.events, CardsShown) if e.reason == "all_in"]
    assert {e.seat for e in exposed} == {1, 2}
    assert k.index("cards_shown") < k.index("burned") < k.index("board_dealt")
    assert {e.seat: e.cards for e in exposed} == {1: cards("Ac Ad"), 2: cards("Kc Kd")}
    assert mucked(hand) == []


# --------------------------------------------------------------------------------- announcement (R181)


def test_r181_pot_award_names_the_winning_hand() -> None:
    text = board_deck(["Ac Kc", "7h 7s"], "Qc Jc 2c 9d 3h")
    hand = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 2, text)
    _check_down(hand)
    (award,) = of(hand.events, PotAwarded)
    assert award.winners == (1,)
    assert award.description == "Flush, ace high"
    winner_shown = next(e for e in of(hand.events, CardsShown) if e.seat == 1)
    assert winner_shown.description == "Flush, ace high"


# ------------------------------------------------------------------------------ Omaha Hi/Lo (R243, R244)


@pytest.mark.parametrize("auto_muck", [False, True])
def test_r243_no_low_and_worse_high_is_offered_show_or_muck(auto_muck: bool) -> None:
    # A low is possible on this board, but nobody shows one: seat 1 (quads, no low) shows first,
    # seat 2 has a worse high and no qualifying low.
    text = board_deck(["Kh Kc Qc Qd", "Jh Js Tc 9c"], "3c 4d 5h Kd Ks")
    hand = start("omaha8", NL, Stakes.blinds(50, 100), [DEEP] * 2, text, auto_muck=auto_muck)
    _check_down(hand)
    assert shown(hand) == [1]
    if auto_muck:
        assert mucked(hand) == [2]
    else:
        assert hand.pending == ShowDecision(2)
        hand.apply(Muck(2))
    assert awards(hand) == [(0, "", 200, {1: 200})]


@pytest.mark.parametrize(("game", "count"), [("omaha5", 5), ("omaha6", 6)])
def test_r244_big_omaha_deals_one_card_at_a_time_from_the_sb(game: str, count: int) -> None:
    # Button 3: the SB (seat 1) gets the first card, then seats 2, 3, 1, 2, 3, ...
    hand = start(game, PL, Stakes.blinds(50, 100), [DEEP] * 3, button=3)
    deck_cards = list(hand.deck.order())  # type: ignore[attr-defined]
    dealt = of(hand.events, CardsDealt)
    assert [e.seat for e in dealt] == [1, 2, 3]
    for i, seat in enumerate((1, 2, 3)):
        assert len(hand.hole_cards(seat)) == count
        assert list(hand.hole_cards(seat)) == deck_cards[i : 3 * count : 3]

"""RULES.md §10 R60, R69, R75, R81, R90, R106, R109, R111: cases that test_fixed_limit.py, test_pot_limit.py,
test_no_limit.py, test_blinds_and_order.py and test_pots_and_showdown.py (where each of R54-R111 is tested
and cited) leave out: a fold late in a capped round and the round after it, a rejected size that changes
nothing, what nobody sees when a hand ends without a showdown, the burns of an all-in run-out, and the BB
option and the check-raise in the big-bet structures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pokerroom.cards import Card
from pokerroom.engine import (
    AmountOutOfRange,
    Betting,
    Call,
    Check,
    EngineError,
    Fold,
    HandState,
    IllegalAction,
    RaiseTo,
    Stakes,
)
from pokerroom.engine.events import BoardDealt, Burned, CardsShown, RoundEnded, StreetStarted

from .helpers import start
from .rules_helpers import actions, awards, bet, board_deck, cards, cards_in, kinds, net, of, posts

FL, PL, NL = Betting.FIXED_LIMIT, Betting.POT_LIMIT, Betting.NO_LIMIT
S2_4 = Stakes.fixed_limit(200, 400)
DEEP = 100_000


def _call_or_check(hand: HandState) -> None:
    d = bet(hand)
    hand.apply(Call(d.seat) if d.call else Check(d.seat))


def _no_raise(hand: HandState) -> None:
    d = bet(hand)
    assert (d.raise_kind, d.choices) == ("", ())
    with pytest.raises(IllegalAction):
        hand.apply(RaiseTo(d.seat, d.bet + d.to_call + 400))


def _state(hand: HandState) -> tuple[Any, ...]:
    """Everything a rejected command must leave as it was."""
    return (hand.snapshot(), list(hand.events), hand.stacks(), hand.contributions(), hand.pending)


# ------------------------------------------------------------------------------------ R60


def test_r60_fold_after_two_raises_keeps_the_cap_and_the_next_round_starts_uncapped() -> None:
    """R60: three players start the turn of a $2/$4 cash game; A bets 4, B raises to 8, C raises to 12 and A
    folds: B's raise to 16 still caps the round. The river starts with two players: uncapped (R58)."""
    hand = start("holdem", FL, S2_4, [DEEP] * 3, button=3)  # SB 1, BB 2, button 3
    while hand.street < 2:
        _call_or_check(hand)
    assert hand.street == 2 and bet(hand).seat == 1
    hand.apply(RaiseTo(1, 400))
    hand.apply(RaiseTo(2, 800))
    hand.apply(RaiseTo(3, 1200))
    hand.apply(Fold(1))  # two players left in the middle of the round
    assert bet(hand).choices == (1600,)
    hand.apply(RaiseTo(2, 1600))  # the bet and three raises: capped
    assert bet(hand).seat == 3
    _no_raise(hand)
    hand.apply(Call(3))
    assert hand.street == 3
    assert actions(hand)[-6:] == [
        (1, "bet", 400),
        (2, "raise", 800),
        (3, "raise", 1200),
        (1, "fold", 0),
        (2, "raise", 800),
        (3, "call", 400),
    ]
    # River, heads-up from its start: bet and four raises are all legal.
    hand.apply(RaiseTo(2, 400))
    for seat, to in ((3, 800), (2, 1200), (3, 1600), (2, 2000)):
        assert bet(hand).choices == (to,)
        hand.apply(RaiseTo(seat, to))
    assert bet(hand).choices == (2400,)


# ------------------------------------------------------------------- rejected sizes (R56, R69, R75)


def _r56_river_raise() -> HandState:
    hand = start("holdem", FL, Stakes.fixed_limit(500, 1000), [DEEP] * 3)  # SB 1, BB 2, button 3
    while hand.street < 3:
        _call_or_check(hand)
    hand.apply(RaiseTo(1, 1000))
    return hand


def _r69_raise_over_35() -> HandState:
    hand = start("holdem", PL, Stakes.blinds(500, 1000), [DEEP] * 6, button=1)  # UTG 4
    hand.apply(RaiseTo(4, 3500))
    return hand


def _r75_flop_bet() -> HandState:
    hand = start("holdem", NL, Stakes.blinds(500, 1000), [DEEP] * 3)
    while hand.street < 1:
        _call_or_check(hand)
    return hand


@pytest.mark.parametrize(
    ("rule", "spot", "wrong", "right"),
    [
        ("R56", _r56_river_raise, 2500, 2000),
        ("R69", _r69_raise_over_35, 12500, 12000),
        ("R75", _r75_flop_bet, 999, 1000),
    ],
)
def test_r56_r69_r75_a_rejected_size_changes_nothing(
    rule: str, spot: Callable[[], HandState], wrong: int, right: int
) -> None:
    """R56 (FL river raise other than +$10), R69 (PL raise to 125 over a pot-limit 120) and R75 (NL flop bet
    below the BB, not all-in): the engine refuses the size with a typed error and the hand is exactly as
    it was; the legal size is then accepted."""
    hand = spot()
    d = bet(hand)
    before = _state(hand)
    with pytest.raises(AmountOutOfRange) as exc:
        hand.apply(RaiseTo(d.seat, wrong))
    assert isinstance(exc.value, EngineError), rule
    assert _state(hand) == before, rule
    paid = hand.contributions()[d.seat]
    hand.apply(RaiseTo(d.seat, right))
    assert hand.contributions()[d.seat] == paid + right - d.bet, rule


# ------------------------------------------------------------------------------------ R81


def test_r81_nobody_else_ever_sees_the_winners_cards_and_no_later_card_is_dealt() -> None:
    """R81: A bets the flop and both others fold. The hand is over with the flop alone on the board; no
    event shows A's cards, and no view of any event gives them (or the unused turn and river) to an
    observer or to the players who folded. A gets the pot, 300, and his bet back."""
    holes = ["As Ah", "Kc Kd", "Qc Qd"]
    text = board_deck(holes, "2c 7d 9h Js 3s")
    stacks = {1: DEEP, 2: DEEP, 3: DEEP}
    hand = start("holdem", NL, Stakes.blinds(50, 100), stacks, text)  # SB 1, BB 2, button 3
    while hand.street < 1:
        _call_or_check(hand)
    hand.apply(RaiseTo(1, 200))
    hand.apply(Fold(2))
    hand.apply(Fold(3))
    assert hand.is_over and not hand.waiting_for()
    assert hand.board == list(cards("2c 7d 9h"))
    assert [e.name for e in of(hand.events, StreetStarted)] == ["flop"]
    assert kinds(hand.events).count("burned") == 1 and not of(hand.events, CardsShown)
    assert awards(hand) == [(0, "", 300, {1: 300})]
    assert net(hand, stacks) == {1: 200, 2: -100, 3: -100}
    secret: set[Card] = set(cards("As Ah"))
    unused: set[Card] = set(cards("Js 3s"))
    for e in hand.events:
        assert not cards_in(e) & unused, e.kind
        for viewer in (None, 2, 3):
            view = e.view_for(viewer, viewer is not None)
            if view is not None:
                assert not cards_in(view) & secret, (e.kind, viewer)
    own = set().union(*(cards_in(v) for e in hand.events if (v := e.view_for(1, True)) is not None))
    assert secret <= own  # the winner himself was dealt them


# ------------------------------------------------------------------------------------ R90


def test_r90_heads_up_nl_raise_keeps_the_order() -> None:
    """R90, no limit: the button (seat 5) posts the SB of 50 and acts first; after his raise to 300 the BB
    (seat 2) re-raises to 900, the button calls, and the BB acts first on the flop, turn and river."""
    hand = start("holdem", NL, Stakes.blinds(50, 100), {2: DEEP, 5: DEEP}, button=5)
    assert posts(hand) == [(5, "small_blind", 50), (2, "big_blind", 100)]
    d = bet(hand)
    assert (d.seat, d.call) == (5, 50)
    hand.apply(RaiseTo(5, 300))
    assert bet(hand).seat == 2
    hand.apply(RaiseTo(2, 900))
    assert (bet(hand).seat, bet(hand).call) == (5, 600)
    hand.apply(Call(5))
    for street in (1, 2, 3):
        assert (hand.street, bet(hand).seat) == (street, 2)
        hand.apply(Check(2))
        assert bet(hand).seat == 5
        hand.apply(Check(5))


# ----------------------------------------------------------------------------------- R106


def test_r106_all_in_run_out_burns_exactly_three_cards() -> None:
    """R106: three players all-in before the flop; the board is run out with one burn before the flop, the
    turn and the river, so the board is exactly the deck's cards 8-10, 12 and 14."""
    text = board_deck(["Ac Kc", "Qd Qh", "2s 3s"], "5h 6h 7h 8c 9s")
    hand = start("holdem", NL, Stakes.blinds(50, 100), {1: 1000, 2: 1000, 3: 1000}, text)
    hand.apply(RaiseTo(3, 1000))
    hand.apply(Call(1))
    hand.apply(Call(2))
    assert hand.is_over
    deal = [e for e in hand.events if isinstance(e, Burned | BoardDealt)]
    assert kinds(deal) == ["burned", "board_dealt"] * 3
    assert [e.cards for e in of(deal, BoardDealt)] == [cards("5h 6h 7h"), cards("8c"), cards("9s")]
    burns = [Card.parse(t) for i, t in enumerate(text.split()) if i in (6, 10, 12)]
    seen = set().union(*(cards_in(e) for e in hand.events))
    assert not seen & set(burns)  # the burned cards are never told
    assert awards(hand) == [(0, "", 3000, {1: 1000, 2: 1000, 3: 1000})]  # all play the straight


# ----------------------------------------------------------------------------------- R109


def test_r109_no_limit_bb_option_raise_reopens_for_everyone() -> None:
    """R109, no limit 50/100: UTG and the SB just call; the BB may check or raise (at least to 200). He
    raises to 300: the round goes on, UTG owes 200, then the SB 200; their calls deal the flop."""
    hand = start("holdem", NL, Stakes.blinds(50, 100), [DEEP] * 3)  # SB 1, BB 2, UTG/button 3
    hand.apply(Call(3))
    hand.apply(Call(1))
    d = bet(hand)
    assert (d.seat, d.check, d.call, d.raise_kind, d.min_to) == (2, True, 0, "raise", 200)
    events = hand.apply(RaiseTo(2, 300))
    assert not of(events, RoundEnded) and hand.street == 0
    assert (bet(hand).seat, bet(hand).call) == (3, 200)
    hand.apply(Call(3))
    assert (bet(hand).seat, bet(hand).call) == (1, 200)
    events = hand.apply(Call(1))
    assert hand.street == 1 and [len(e.cards) for e in of(events, BoardDealt)] == [3]
    assert hand.contributions() == {1: 300, 2: 300, 3: 300}


# ----------------------------------------------------------------------------------- R111


@pytest.mark.parametrize(("betting", "max_to"), [(NL, DEEP - 100), (PL, 1100)])
def test_r111_check_raise_in_no_limit_and_pot_limit(betting: Betting, max_to: int) -> None:
    """R111: flop of 50/100 with a pot of 300; seat 1 checks, seat 2 bets 200, seat 3 calls. Seat 1 may
    raise: at least to 400; at most all-in (NL) or to 1100 (PL: 200 to call, then the pot of 900)."""
    hand = start("holdem", betting, Stakes.blinds(50, 100), [DEEP] * 3)
    while hand.street < 1:
        _call_or_check(hand)
    hand.apply(Check(1))
    hand.apply(RaiseTo(2, 200))
    hand.apply(Call(3))
    d = bet(hand)
    assert (d.seat, d.call, d.raise_kind, d.min_to, d.max_to) == (1, 200, "raise", 400, max_to)
    hand.apply(RaiseTo(1, 400))
    assert actions(hand)[-4:] == [(1, "check", 0), (2, "bet", 200), (3, "call", 200), (1, "raise", 400)]

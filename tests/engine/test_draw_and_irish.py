"""RULES.md §5.2, §5.12-§5.13, §6.5 and §10 R149-R154, R156-R170, R180: Irish (the discard) and the draw
games (2-7 Triple Draw, 5-Card Draw).
"""

from __future__ import annotations

import pytest

from pokerroom.cards import Card
from pokerroom.engine import (
    AmountOutOfRange,
    BetDecision,
    Betting,
    Call,
    Check,
    ConfigError,
    Discard,
    DiscardDecision,
    Draw,
    DrawDecision,
    Fold,
    HandState,
    IllegalAction,
    InvalidCards,
    RaiseTo,
    Stakes,
    TimeOut,
)
from pokerroom.engine.events import (
    BoardDealt,
    Burned,
    CardsShown,
    Discarded,
    Drew,
    Reshuffled,
    RoundEnded,
)
from pokerroom.variants import get_variant

from .helpers import start
from .rules_helpers import actions, awards, bet, cards, cards_in, deck, interleave, kinds, of, posts, shown

NL, PL, FL = Betting.NO_LIMIT, Betting.POT_LIMIT, Betting.FIXED_LIMIT
DEEP = 100_000
BLINDS = Stakes.blinds(50, 100)
S2_4 = Stakes.fixed_limit(200, 400)


def _call_round(hand: HandState) -> None:
    """Call or check every decision of the current betting round."""
    street = hand.street
    while not hand.is_over and hand.street == street and isinstance(hand.pending, BetDecision):
        d = bet(hand)
        hand.apply(Call(d.seat) if d.call else Check(d.seat))


# ---------------------------------------------------------------------------------------------- Irish

IRISH_HOLES = ["As Ks 7d 2c", "9s 9h 9d 3c", "Qc Jc 5h 4h"]  # dealt to seats 1, 2, 3 (button 3)
IRISH_BOARD = "Ah 7c 3d"


def _irish(
    stacks: dict[int, int] | None = None, board: str = IRISH_BOARD, holes: list[str] | None = None
) -> HandState:
    text = deck(interleave(*(holes or IRISH_HOLES)), "_", board, "_ Tc _ 2s")
    return start("irish", PL, BLINDS, stacks or dict.fromkeys((1, 2, 3), DEEP), text)


def _irish_at_discard(**kw: object) -> HandState:
    hand = _irish(**kw)  # type: ignore[arg-type]
    _call_round(hand)
    _call_round(hand)
    assert isinstance(hand.pending, DiscardDecision)
    return hand


def test_r149_irish_deals_four_hole_cards() -> None:
    hand = _irish()
    for seat, hole in zip((1, 2, 3), IRISH_HOLES, strict=True):
        assert hand.hole_cards(seat) == cards(hole)


def test_r150_irish_exactly_two_cards_are_discarded() -> None:
    """R150: Irish: after the flop betting round each active player must discard exactly 2 cards;
    discarding 0, 1, 3 or 4 is rejected."""
    hand = _irish_at_discard()
    assert hand.pending == DiscardDecision((1, 2, 3), 2)
    hole = hand.hole_cards(1)
    for wrong in ((), hole[:1], hole[:3], hole):
        with pytest.raises(InvalidCards):
            hand.apply(Discard(1, wrong))
    with pytest.raises(InvalidCards):
        hand.apply(Discard(1, cards("Qc Jc")))  # not his cards
    with pytest.raises(InvalidCards):
        hand.apply(Discard(1, (hole[0], hole[0])))
    with pytest.raises(IllegalAction):
        hand.apply(Check(1))
    assert hand.hole_cards(1) == hole
    hand.apply(Discard(1, hole[2:]))
    assert hand.hole_cards(1) == hole[:2]


def test_r150_no_discard_during_the_flop_betting() -> None:
    hand = _irish()
    _call_round(hand)
    assert hand.street == 1 and isinstance(hand.pending, BetDecision)
    with pytest.raises(IllegalAction):
        hand.apply(Discard(1, hand.hole_cards(1)[:2]))


def test_r151_the_turn_waits_for_every_discard() -> None:
    """R151: Irish: the turn is not dealt until every active player has discarded."""
    hand = _irish_at_discard()
    assert len(hand.board) == 3
    # The players discard in any order (simultaneously).
    events = hand.apply(Discard(3, cards("5h 4h")))
    events += hand.apply(Discard(1, cards("Ks 2c")))
    assert not of(events, BoardDealt) and not of(events, Burned)
    assert hand.pending == DiscardDecision((2,), 2)
    events = hand.apply(Discard(2, cards("9d 3c")))
    assert kinds(events)[:3] == ["discarded", "burned", "board_dealt"]
    assert hand.board[3] == cards("Tc")[0]


def test_r152_an_all_in_player_discards_too() -> None:
    """R152: Irish: an all-in player also discards."""
    hand = _irish_at_discard(stacks={1: DEEP, 2: DEEP, 3: 100})  # seat 3 all-in with the BB call
    assert hand.players[3].all_in
    assert hand.pending == DiscardDecision((1, 2, 3), 2)
    hand.apply(Discard(1, cards("Ks 2c")))
    hand.apply(Discard(2, cards("9d 3c")))
    assert len(hand.board) == 3
    hand.apply(Discard(3, cards("5h 4h")))
    assert hand.hole_cards(3) == cards("Qc Jc")


def test_r153_irish_timeout_keeps_the_best_pair_with_the_flop() -> None:
    """R153: Irish timeout: hole A♠ K♠ 7♦ 2♣, flop A♥ 7♣ 3♦ → the server keeps A♠ 7♦."""
    hand = _irish_at_discard()
    events = hand.apply(TimeOut(1))
    assert of(events, Discarded)[0].cards == cards("Ks 2c")
    assert hand.hole_cards(1) == cards("As 7d")


def test_r154_irish_timeout_tie_keeps_the_earliest_dealt_pair() -> None:
    hand = _irish_at_discard(board="Kc Qd Jh", holes=["As Ks 7d 2c", "9s 9h 9d 2h", "Qc Jc 5h 4h"])
    hand.apply(TimeOut(2))
    assert hand.hole_cards(2) == cards("9s 9h")


def test_r156_irish_discards_are_seen_by_nobody_else() -> None:
    hand = _irish_at_discard()
    discards = {1: cards("Ks 2c"), 2: cards("9d 3c"), 3: cards("5h 4h")}
    for seat, c in discards.items():
        hand.apply(Discard(seat, c))
    while not hand.is_over:
        _call_round(hand)
    assert shown(hand)  # a showdown happened, with the kept cards only
    for shown_event in of(hand.events, CardsShown):
        assert len(shown_event.cards) == 2 and not set(shown_event.cards) & set(discards[shown_event.seat])
    for e in hand.events:
        for viewer in (None, 1, 2, 3):
            for dealt_in in (False, True):
                view = e.view_for(viewer, dealt_in)
                if view is None:
                    continue
                seen = cards_in(view)
                for owner, c in discards.items():
                    if owner != viewer:
                        assert not seen & set(c), (e.kind, viewer, dealt_in)
    d = of(hand.events, Discarded)[0]
    pv = d.public_view()
    assert isinstance(pv, Discarded) and pv.cards == (None, None)
    assert "Ks" not in repr(d)


def test_r156_all_in_exposure_after_the_discard_shows_kept_cards_only() -> None:
    hand = _irish(stacks={1: 100, 2: 100, 3: DEEP})
    _call_round(hand)  # seats 1 and 2 are all-in preflop; no more betting
    assert isinstance(hand.pending, DiscardDecision)
    assert not of(hand.events, CardsShown)
    hand.apply(Discard(1, cards("Ks 2c")))
    hand.apply(Discard(2, cards("9d 3c")))
    events = hand.apply(Discard(3, cards("5h 4h")))
    exposed = of(events, CardsShown)
    assert [(e.seat, e.cards, e.reason) for e in exposed] == [
        (1, cards("As 7d"), "all_in"),
        (2, cards("9s 9h"), "all_in"),
        (3, cards("Qc Jc"), "all_in"),
    ]
    assert kinds(events).index("cards_shown") < kinds(events).index("burned")


def test_r157_irish_fold_to_a_flop_bet_skips_the_discard() -> None:
    """R157: Irish: if one player bets on the flop and all others fold, the hand ends with no discard
    phase."""
    hand = _irish()
    _call_round(hand)
    hand.apply(RaiseTo(1, 100))
    hand.apply(Fold(2))
    hand.apply(Fold(3))
    assert hand.is_over
    assert not of(hand.events, Discarded)
    assert len(hand.board) == 3
    assert all(len(hand.hole_cards(s)) == 4 for s in (1, 2, 3))


# ------------------------------------------------------------------------------------------- draws


def _draw(
    game: str, betting: Betting, n: int, stub: str = "", stakes: Stakes | None = None, **kw: object
) -> HandState:
    """``n`` players, button seat n (dealing from seat 1), 5 cards each from the top of the deck."""
    return start(game, betting, stakes or BLINDS, [DEEP] * n, stub, button=n, **kw)  # type: ignore[arg-type]


def test_r158_triple_draw_bet_draw_bet_draw_bet_draw_bet() -> None:
    """R158: 2-7 Triple Draw: a hand that reaches showdown has exactly 4 betting rounds and 3 draws, in the
    order bet, draw, bet, draw, bet, draw, bet."""
    hand = _draw("deuce7_triple", NL, 3)
    while not hand.is_over:
        p = hand.pending
        if isinstance(p, DrawDecision):
            hand.apply(Draw(p.seat, hand.hole_cards(p.seat)[:2]))
        else:
            _call_round(hand)
    steps: list[str] = []
    for e in hand.events:
        if isinstance(e, RoundEnded):
            steps.append("bet")
        elif isinstance(e, Drew) and (not steps or steps[-1] != "draw"):
            steps.append("draw")
    assert steps == ["bet", "draw", "bet", "draw", "bet", "draw", "bet"]
    assert len(of(hand.events, Drew)) == 9
    assert awards(hand) and of(hand.events, CardsShown)


def _first_draw(game: str, n: int, text: str = "") -> HandState:
    hand = _draw(game, NL, n, text)
    _call_round(hand)
    assert isinstance(hand.pending, DrawDecision)
    return hand


def test_r159_draw_zero_to_five_holds_five_again() -> None:
    """R159: Draw: a player may discard 0 to 5 cards and then holds 5 cards again; discarding k cards gives
    exactly k new cards."""
    hand = _first_draw("deuce7_triple", 6)
    stub = list(hand.deck.order())[30:]  # type: ignore[attr-defined]
    taken = 0
    for seat in range(1, 7):
        k = seat - 1
        hole = hand.hole_cards(seat)
        assert hand.pending == DrawDecision(seat, 5)
        events = hand.apply(Draw(seat, hole[:k]))
        (drew,) = of(events, Drew)
        assert (len(drew.discarded), len(drew.received)) == (k, k)
        assert list(drew.received) == stub[taken : taken + k]
        taken += k
        assert len(hand.hole_cards(seat)) == 5
        assert set(hand.hole_cards(seat)) == set(hole[k:]) | set(drew.received)


def test_r159_six_cards_or_foreign_cards_are_rejected() -> None:
    hand = _first_draw("draw5", 3)
    hole = hand.hole_cards(1)
    with pytest.raises(InvalidCards):
        hand.apply(Draw(1, (*hole, hand.hole_cards(2)[0])))
    with pytest.raises(InvalidCards):
        hand.apply(Draw(1, hand.hole_cards(2)[:1]))
    assert hand.hole_cards(1) == hole


@pytest.mark.parametrize(("button", "order"), [(6, [1, 2, 4, 5, 6]), (3, [4, 5, 6, 1, 2])])
def test_r160_draws_go_clockwise_from_the_first_active_left_of_the_button(
    button: int, order: list[int]
) -> None:
    """R160: Draw: players draw in turn from the first active player left of the button, each receiving
    replacements before the next player draws."""
    hand = start("deuce7_triple", NL, BLINDS, [DEEP] * 6, button=button)
    while isinstance(hand.pending, BetDecision):
        d = bet(hand)
        if d.seat == 3:
            hand.apply(Fold(3))
        else:
            hand.apply(Call(d.seat) if d.call else Check(d.seat))
    stub = list(hand.deck.order())[30:]  # type: ignore[attr-defined]
    seen = []
    for i in range(5):
        p = hand.pending
        assert isinstance(p, DrawDecision)
        seen.append(p.seat)
        events = hand.apply(Draw(p.seat, hand.hole_cards(p.seat)[:2]))
        assert of(events, Drew)[0].received == tuple(stub[2 * i : 2 * i + 2])  # replaced at once
    assert seen == order


def test_r161_the_number_drawn_is_public_the_cards_are_not() -> None:
    hand = _first_draw("draw5", 3)
    hole = hand.hole_cards(1)
    (drew,) = of(hand.apply(Draw(1, hole[:3])), Drew)
    assert drew.visible_to(1) and not drew.visible_to(2) and not drew.visible_to(None)
    assert not drew.visible_to(2, dealt_in=True)
    view = drew.view_for(2, True)
    assert view is not None and isinstance(view, Drew)
    assert (view.discarded, view.received) == ((None,) * 3, (None,) * 3)
    assert not cards_in(view)
    assert str(hole[0]) not in repr(drew) and str(drew.received[0]) not in repr(drew)
    assert view.to_dict()["received"] == ["??"] * 3


def test_r162_stub_exhaustion_reshuffles_earlier_discards_but_not_his_own() -> None:
    """R162: Draw stub exhaustion: a player drawing 5 with 2 cards left in the stub receives those 2, then
    3 cards from a reshuffle of earlier discards that excludes his own current 5 discards."""
    hand = _first_draw("deuce7_triple", 6)
    earlier: list[Card] = []
    for seat in range(1, 6):  # 5 x 4 = 20 cards drawn: 2 left in the stub
        c = hand.hole_cards(seat)[:4]
        earlier.extend(c)
        hand.apply(Draw(seat, c))
    assert hand.deck.remaining() == 2
    last_two = list(hand.deck.order())[-2:]  # type: ignore[attr-defined]
    own = hand.hole_cards(6)
    events = hand.apply(Draw(6, own))
    assert kinds(events)[0] == "reshuffled" and of(events, Reshuffled)[0].count == 20
    (drew,) = of(events, Drew)
    assert list(drew.received[:2]) == last_two
    assert set(drew.received[2:]) <= set(earlier)
    assert not set(drew.received) & set(own)
    assert len(set(hand.hole_cards(6))) == 5


def test_r163_fl_triple_draw_small_bets_twice_then_big_bets() -> None:
    """R163: FL 2-7 Triple Draw $2/$4: bets are $2 in rounds 1 and 2 and $4 in rounds 3 and 4."""
    hand = _draw("deuce7_triple", FL, 3, stakes=S2_4)
    assert bet(hand).choices == (400,)
    units = []
    while not hand.is_over:
        p = hand.pending
        if isinstance(p, DrawDecision):
            hand.apply(Draw(p.seat))
            continue
        if hand.street == 0:
            _call_round(hand)
            continue
        d = bet(hand)
        units.append(d.choices)
        hand.apply(RaiseTo(d.seat, d.choices[0]))
        units.append(bet(hand).choices)
        _call_round(hand)
    assert units == [(200,), (400,), (400,), (800,), (400,), (800,)]


def test_r164_draw_timeout_stands_pat() -> None:
    """R164: A draw timeout stands pat."""
    hand = _first_draw("deuce7_triple", 3)
    hole = hand.hole_cards(1)
    (drew,) = of(hand.apply(TimeOut(1)), Drew)
    assert (drew.discarded, drew.received) == ((), ())
    assert hand.hole_cards(1) == hole


def test_r165_triple_draw_unraised_bb_may_check() -> None:
    """R165: 2-7 Triple Draw: an unraised BB may check in the first round."""
    hand = _draw("deuce7_triple", FL, 3, stakes=S2_4)
    hand.apply(Call(3))
    hand.apply(Call(1))
    d = bet(hand)
    assert (d.seat, d.check, d.choices) == (2, True, (400,))
    hand.apply(Check(2))
    assert isinstance(hand.pending, DrawDecision)


@pytest.mark.parametrize(("game", "most"), [("draw5", 6), ("deuce7_triple", 6), ("draw7a", 5)])
def test_r166_draw_tables_refuse_one_player_too_many(game: str, most: int) -> None:
    """The engine refuses to deal to too many players; refusing the seat is the table's part."""
    v = get_variant(game)
    v.check_players(most)
    with pytest.raises(ConfigError):
        v.check_players(most + 1)


def test_r167_five_card_draw_no_opening_requirement() -> None:
    """R167: 5-Card Draw: UTG may open with a raise holding any cards (no opening requirement)."""
    text = interleave("7c 5d 4h 3s 2c", "Ac Ad Kc Kd Qc", "Ah As Kh Ks Qd")
    hand = _draw("draw5", FL, 3, text, stakes=S2_4)  # UTG is seat 3 with nothing
    hand2 = _draw(
        "draw5", FL, 3, deck(interleave("Ac Ad Kc Kd Qc", "Ah As Kh Ks Qd", "7c 5d 4h 3s 2c")), stakes=S2_4
    )
    for h in (hand, hand2):
        d = bet(h)
        assert (d.seat, d.raise_kind, d.choices) == (3, "raise", (400,))
        h.apply(RaiseTo(3, 400))
        assert actions(h)[-1] == (3, "raise", 400)


@pytest.mark.parametrize(("sb_folds", "first"), [(False, 1), (True, 2)])
def test_r168_after_the_draw_fal_acts_first(sb_folds: bool, first: int) -> None:
    """R168: 5-Card Draw after the draw: the FAL acts first with fold, check or bet."""
    hand = _draw("draw5", FL, 4, stakes=S2_4)  # button 4: SB 1, BB 2
    hand.apply(Call(3))
    hand.apply(Call(4))
    hand.apply(Fold(1) if sb_folds else Call(1))
    hand.apply(Check(2))
    while isinstance(hand.pending, DrawDecision):
        hand.apply(Draw(hand.pending.seat))
    d = bet(hand)
    assert (d.seat, d.fold, d.check, d.call, d.raise_kind) == (first, True, True, 0, "bet")


def test_r169_five_card_draw_2_4_amounts() -> None:
    """R169: 5-Card Draw $2/$4 FL: SB $1, BB $2, a first-round raise is to $4, a post-draw bet is $4."""
    hand = _draw("draw5", FL, 3, stakes=S2_4)
    assert [(e[0], e[2]) for e in posts(hand)] == [(1, 100), (2, 200)]
    assert bet(hand).choices == (400,)
    hand.apply(RaiseTo(3, 400))
    hand.apply(Call(1))
    hand.apply(Call(2))
    while isinstance(hand.pending, DrawDecision):
        hand.apply(Draw(hand.pending.seat))
    assert bet(hand).choices == (400,)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(1, 200))
    hand.apply(RaiseTo(1, 400))
    assert actions(hand)[-1] == (1, "bet", 400)


def test_r170_five_card_draw_fl_cap_of_four_bets() -> None:
    hand = _draw("draw5", FL, 3, stakes=S2_4)
    for seat, to in ((3, 400), (1, 600), (2, 800)):
        hand.apply(RaiseTo(seat, to))
    assert bet(hand).raise_kind == ""
    _call_round(hand)
    while isinstance(hand.pending, DrawDecision):
        hand.apply(Draw(hand.pending.seat))
    for seat, to in ((1, 400), (2, 800), (3, 1200), (1, 1600)):
        assert bet(hand).choices == (to,)
        hand.apply(RaiseTo(seat, to))
    d = bet(hand)
    assert (d.seat, d.raise_kind) == (2, "")
    with pytest.raises(IllegalAction):
        hand.apply(RaiseTo(2, 2000))


@pytest.mark.parametrize("betting", [PL, NL])
def test_r170_five_card_draw_pl_nl_no_cap(betting: Betting) -> None:
    hand = start("draw5", betting, BLINDS, [10**12] * 3)
    for i in range(10):
        d = bet(hand)
        assert d.raise_kind == "raise", i
        hand.apply(RaiseTo(d.seat, d.min_to))


def test_r180_draw_all_in_hands_stay_hidden_until_the_last_draw() -> None:
    hand = start("deuce7_triple", NL, BLINDS, {1: 1000, 2: 1000}, button=2)
    hand.apply(RaiseTo(2, 1000))
    hand.apply(Call(1))
    draws = 0
    while isinstance(hand.pending, DrawDecision):
        assert not of(hand.events, CardsShown), draws
        seat = hand.pending.seat
        events = hand.apply(Draw(seat, hand.hole_cards(seat)[:1]))
        draws += 1
        if draws < 6:
            assert not of(events, CardsShown)
    assert draws == 6 and hand.is_over
    exposed = of(hand.events, CardsShown)
    assert {e.seat for e in exposed} == {1, 2}
    assert all(e.reason == "all_in" for e in exposed)
    k = kinds(hand.events)
    last_draw = max(i for i, x in enumerate(k) if x == "drew")
    assert all(i > last_draw for i, x in enumerate(k) if x == "cards_shown")

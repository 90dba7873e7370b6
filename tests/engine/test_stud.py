"""RULES.md §4.5, §5.7-§5.11 and §10 R113-R148, R239-R241: stud games (antes, bring-in, streets, open
pairs, who acts first, the community card), Razz, Stud Hi/Lo, 5-Card Stud and SOKO.

$2/$4 in cents: small bet 200, big bet 400, ante 40, bring-in 50.
"""

from __future__ import annotations

import pytest

from pokerroom.cards import DeckSpec
from pokerroom.engine import (
    AmountOutOfRange,
    Betting,
    BringIn,
    Call,
    Check,
    ConfigError,
    Fold,
    HandState,
    IllegalAction,
    RaiseTo,
    SeatSetup,
    Stakes,
    Structure,
    TimeOut,
)
from pokerroom.engine.deck import ListDeck
from pokerroom.engine.events import (
    BoardDealt,
    Burned,
    CardsDealt,
    Posted,
    PotAwarded,
    RoundEnded,
    StreetStarted,
)
from pokerroom.eval import evaluate
from pokerroom.variants import get_variant

from .helpers import start
from .rules_helpers import actions, awards, bet, cards, deck, interleave, kinds, net, of

FL = Betting.FIXED_LIMIT
S2_4 = Stakes.fixed_limit(200, 400, ante=40, bring_in=50, blinds=False)
DEEP = 100_000


def stud_text(first: list[str], *later: str) -> str:
    """First street: each seat's cards (seat order), dealt one at a time around; each later street: a
    burn, then one card per active player in seat order."""
    return deck(interleave(*first), *(f"_ {s}" for s in later))


def _stud(
    game: str, first: list[str], *later: str, stakes: Stakes = S2_4, seats: list[int] | None = None
) -> HandState:
    numbers = seats or list(range(1, len(first) + 1))
    return start(game, FL, stakes, dict.fromkeys(numbers, DEEP), stud_text(first, *later))


def _play_round(hand: HandState) -> None:
    """Bring in / call / check until the current street's betting is over."""
    street = hand.street
    while not hand.is_over and hand.street == street:
        d = bet(hand)
        if d.bring_in:
            hand.apply(BringIn(d.seat))
        else:
            hand.apply(Call(d.seat) if d.call else Check(d.seat))


def _play_out(hand: HandState) -> None:
    while not hand.is_over:
        _play_round(hand)


def _bring_in_seat(hand: HandState) -> int:
    d = bet(hand)
    assert d.bring_in > 0
    return d.seat


# ------------------------------------------------------------------------------------ seats (R113, R239)


@pytest.mark.parametrize("game", ["stud", "stud8", "razz", "stud5", "soko"])
def test_r113_r239_stud_tables_take_at_most_eight_players(game: str) -> None:
    v = get_variant(game)
    v.check_players(8)
    with pytest.raises(ConfigError):
        v.check_players(9)
    with pytest.raises(ConfigError):
        start(game, FL, S2_4, [DEEP] * 9)
    assert len(start(game, FL, S2_4, [DEEP] * 8).players) == 8


# -------------------------------------------------------------------------------- antes, bring-in


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_r114_everyone_antes_before_the_deal_and_antes_are_dead(game: str) -> None:
    """R114: 7-Card Stud and Razz $2/$4: every player posts a $0.40 ante before the deal; antes never count
    toward later bets."""
    hand = start(game, FL, S2_4, [DEEP] * 4)
    k = kinds(hand.events)
    antes = [(e.seat, e.what, e.amount) for e in of(hand.events, Posted)]
    assert antes == [(s, "ante", 40) for s in (1, 2, 3, 4)]
    assert k.index("cards_dealt") > max(i for i, x in enumerate(k) if x == "posted")
    bringer = _bring_in_seat(hand)
    assert bet(hand).bet == 0  # the ante is not part of his bet
    hand.apply(BringIn(bringer))
    assert actions(hand)[-1] == (bringer, "bring_in", 50)
    d = bet(hand)
    assert (d.bet, d.call, d.choices) == (0, 50, (200,))
    hand.apply(RaiseTo(d.seat, 200))
    assert actions(hand)[-1] == (d.seat, "complete", 200)
    assert hand.contributions()[d.seat] == 240


def test_r115_equal_lowest_upcards_the_lowest_suit_brings_in() -> None:
    """R115: Stud bring-in: with upcards 2♠, 2♥, 2♦ and higher cards, the 2♦ brings in."""
    hand = _stud("stud", ["Ac Kd 2s", "Ad Kh 2h", "As Ks Kc", "Ah Qc 2d"])
    assert _bring_in_seat(hand) == 4


def test_r116_high_stud_bring_in_counts_the_ace_high() -> None:
    """R116: High-stud bring-in counts the ace high: upcards A♣ and 3♦ → the 3♦ brings in."""
    hand = _stud("stud", ["Kc Kd Ac", "Qc Qd 3d"])
    assert _bring_in_seat(hand) == 2


def test_r117_bring_in_player_may_only_bring_in_or_complete() -> None:
    """R117: Stud $2/$4: the bring-in player may only bring in for $0.50 or complete to $2; fold and check are
    not offered."""
    hand = _stud("stud", ["Kc Kd 2c", "Qc Qd 9d", "Jc Jd Th"])
    d = bet(hand)
    assert (d.seat, d.fold, d.check, d.call, d.bring_in, d.raise_kind, d.choices) == (
        1,
        False,
        False,
        0,
        50,
        "complete",
        (200,),
    )
    for cmd in (Fold(1), Check(1), Call(1)):
        with pytest.raises(IllegalAction):
            hand.apply(cmd)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(1, 400))
    hand.apply(RaiseTo(1, 200))
    assert actions(hand) == [(1, "complete", 200)]


def test_r117_bring_in_timeout_posts_the_bring_in() -> None:
    """R117: Stud $2/$4: the bring-in player may only bring in for $0.50 or complete to $2; fold and check are
    not offered."""
    hand = _stud("stud", ["Kc Kd 2c", "Qc Qd 9d"])
    hand.apply(TimeOut(1))
    assert actions(hand) == [(1, "bring_in", 50)]


def test_r118_after_the_bring_in_fold_call_or_complete() -> None:
    """R118: Stud after a bring-in: the next player may fold, call $0.50 or complete to $2."""
    hand = _stud("stud", ["Kc Kd 2c", "Qc Qd 9d", "Jc Jd Th"])
    hand.apply(BringIn(1))
    d = bet(hand)
    assert (d.seat, d.fold, d.check, d.call, d.raise_kind, d.choices) == (
        2,
        True,
        False,
        50,
        "complete",
        (200,),
    )
    with pytest.raises(IllegalAction):
        hand.apply(Check(2))
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(2, 100))
    hand.apply(Call(2))
    assert actions(hand)[-1] == (2, "call", 50)


def test_r119_third_street_cap_bring_in_complete_and_three_raises() -> None:
    """R119: Stud $2/$4 3rd street: bring-in $0.50, complete $2, raise $4, raise $6, raise $8 is legal; a
    raise to $10 is rejected."""
    hand = _stud("stud", ["Kc Kd 2c", "Qc Qd 9d", "Jc Jd Th", "Tc Td 8h", "9c 9s 8s", "7c 7d 6h"])
    hand.apply(BringIn(1))
    for seat, to in ((2, 200), (3, 400), (4, 600), (5, 800)):
        assert bet(hand).choices == (to,)
        hand.apply(RaiseTo(seat, to))
    d = bet(hand)
    assert (d.seat, d.call, d.raise_kind, d.choices) == (6, 800, "", ())
    with pytest.raises(IllegalAction):
        hand.apply(RaiseTo(6, 1000))
    assert [a for _, a, _ in actions(hand)] == ["bring_in", "complete", "raise", "raise", "raise"]


def test_r120_everyone_folds_to_the_bring_in() -> None:
    """R120: Stud: if all players fold to the bring-in, he wins the antes and his bring-in comes back."""
    hand = _stud("stud", ["Kc Kd 2c", "Qc Qd 9d", "Jc Jd Th"])
    hand.apply(BringIn(1))
    hand.apply(Fold(2))
    hand.apply(Fold(3))
    assert hand.is_over
    assert net(hand, dict.fromkeys((1, 2, 3), DEEP)) == {1: 80, 2: -40, 3: -40}
    assert awards(hand) == [(0, "", 120, {1: 120})]
    assert hand.rake == 0


# ----------------------------------------------------------------------------- 7-Card Stud streets


def _fourth_street(fourth: str) -> HandState:
    """Three players, seat 1 (5c) brings in, everyone calls; then 4th street ``fourth`` (seat order)."""
    hand = _stud("stud", ["Kc Kd 5c", "Qc Qd 9d", "Jc Jd Kh"], fourth, "2s 3s 4s", "6h 7h 8h", "Ts Th 9s")
    _play_round(hand)
    assert hand.street == 1
    return hand


def test_r121_open_pair_first_bet_small_or_big() -> None:
    """R121: 7-Card Stud $2/$4 4th street with an open pair on any board: the first bet may be $2 or $4; after
    a $2 bet others may call $2, raise to $4 or raise to $6."""
    hand = _fourth_street("5d Td Qh")  # seat 1 shows 5-5
    d = bet(hand)
    assert (d.seat, d.raise_kind, d.choices) == (1, "bet", (200, 400))
    hand.apply(RaiseTo(1, 200))
    d = bet(hand)
    assert (d.seat, d.call, d.choices) == (2, 200, (400, 600))
    hand.apply(RaiseTo(2, 400))
    assert actions(hand)[-1] == (2, "raise", 400)


def test_r121_open_pair_big_bet_first() -> None:
    """R121: 7-Card Stud $2/$4 4th street with an open pair on any board: the first bet may be $2 or $4; after
    a $2 bet others may call $2, raise to $4 or raise to $6."""
    hand = _fourth_street("5d Td Qh")
    hand.apply(RaiseTo(1, 400))
    assert bet(hand).choices == (800,)


def test_r121_open_pair_on_any_board_lets_everyone_bet_big() -> None:
    """R121: 7-Card Stud $2/$4 4th street with an open pair on any board: the first bet may be $2 or $4; after
    a $2 bet others may call $2, raise to $4 or raise to $6."""
    hand = _fourth_street("6d 9h Qh")  # seat 2 shows 9-9, seat 3 K-Q: seat 2 acts first
    assert bet(hand).seat == 2
    hand.apply(Check(2))
    d = bet(hand)
    assert (d.seat, d.choices) == (3, (200, 400))


def test_r122_after_a_big_raise_every_later_raise_is_big() -> None:
    """R122: Same round as R121: after a bet of $2 and a raise to $6, the next raise is to $10; a raise to $8
    is rejected."""
    hand = _fourth_street("5d Td Qh")
    hand.apply(RaiseTo(1, 200))
    hand.apply(RaiseTo(2, 600))
    d = bet(hand)
    assert (d.seat, d.choices) == (3, (1000,))
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(3, 800))
    hand.apply(RaiseTo(3, 1000))


def test_r123_no_open_pair_fourth_street_bets_are_small() -> None:
    """R123: 7-Card Stud 4th street without an open pair: a $4 bet is rejected; bets are $2."""
    hand = _fourth_street("6d Td Qh")  # no pair: seat 3 (K-Q) acts first
    d = bet(hand)
    assert (d.seat, d.choices) == (3, (200,))
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(3, 400))
    hand.apply(RaiseTo(3, 200))
    assert bet(hand).choices == (400,)


def test_r124_fifth_to_seventh_streets_use_the_big_bet() -> None:
    """R124: 7-Card Stud 5th, 6th and 7th streets: every bet and raise is $4 in $2/$4."""
    hand = _fourth_street("6d Td Qh")
    _play_round(hand)
    for street in (2, 3, 4):
        assert hand.street == street
        d = bet(hand)
        assert d.choices == (400,)
        with pytest.raises(AmountOutOfRange):
            hand.apply(RaiseTo(d.seat, 200))
        hand.apply(RaiseTo(d.seat, 400))
        d = bet(hand)
        assert d.choices == (800,)
        hand.apply(RaiseTo(d.seat, 800))
        assert bet(hand).choices == (1200,)
        _play_round(hand)
    assert hand.is_over


def test_r125_a_pair_acts_before_ace_king() -> None:
    """R125: Stud 4th street: a board showing a pair acts before a board showing A-K."""
    hand = _stud("stud", ["Qc Qd Ad", "Jc Jd 9h", "8c 8d 5c"], "Kd 2c 5d", "2s 3s 4s", "6h 7h 8h", "Ts Th 9s")
    _play_round(hand)
    assert bet(hand).seat == 3  # 5-5 before A-K


@pytest.mark.parametrize(("two", "five"), [("Ac 2c", "As 2s"), ("As 2s", "Ac 2c")])
def test_r126_equal_boards_the_lower_seat_acts_first(two: str, five: str) -> None:
    """R126: Stud: two players both show A-2, in seats 2 and 5 → seat 2 acts first."""
    up2, up5 = two.split(), five.split()
    first = ["Kc Kd 3c", "Qc Qd " + up2[0], "Jc Jd 9h", "Tc Td 8h", "9c 9d " + up5[0]]
    fourth = f"4c {up2[1]} 4h 5h {up5[1]}"  # seats 2 and 5 show A-2; the others 4-3, 9-4, 8-5
    hand = _stud("stud", first, fourth, "2h 3d 4d 5d 6d", "6c 7c 8c 9s Jh", "7d 7s 8d 8s Qh")
    assert _bring_in_seat(hand) == 1
    _play_round(hand)
    assert bet(hand).seat == 2


@pytest.mark.parametrize(("two", "five"), [("7c 7d", "7h 7s"), ("7h 7s", "7c 7d")])
def test_r127_equal_pairs_act_by_seat_not_suit(two: str, five: str) -> None:
    """R127: Stud: two players both show 7-7 → the one nearest the button's left (lower seat number) acts
    first; suits are not used."""
    up2, up5 = two.split(), five.split()
    first = ["Kc Kd 2c", "Qc Qd " + up2[0], "Jc Jd 9h", "Tc Td 8h", "9c 9d " + up5[0]]
    hand = _stud(
        "stud", first, f"3h {up2[1]} 4h 5h {up5[1]}", "2h 3d 4d 5d 6d", "6c 6h 8c 9s Jh", "2d 2s Qh Qs Kh"
    )
    _play_round(hand)
    assert bet(hand).seat == 2


@pytest.mark.parametrize(("seats", "button"), [((1, 4, 6), 5), ((1, 4, 6), 1), ((3, 5, 7), 4)])
def test_r128_the_first_card_of_every_deal_goes_to_the_lowest_seat(
    seats: tuple[int, ...], button: int
) -> None:
    """R128: Stud: seat 1 (if dealt in) receives the first card of every deal; the stud button never moves."""
    v = get_variant("stud")
    d = ListDeck.from_text("", DeckSpec.STANDARD)
    order = list(d.order())
    hand = HandState.start(
        variant=v,
        structure=Structure(FL, S2_4),
        seats=[SeatSetup(s, DEEP) for s in seats],
        deck=d,
        button=button,
    )
    assert hand.button is None
    for i, s in enumerate(seats):
        assert list(hand.hole_cards(s)) == order[i:9:3]
    while not hand.is_over:
        street = hand.street
        _play_round(hand)
        dealt = [e for e in hand.events if isinstance(e, CardsDealt)]
        assert [e.seat for e in dealt[-3:]] == list(seats), street


def _eight_to_seventh() -> HandState:
    """8 players, all calling to 7th street: 24 + 3 x (burn + 8) = 51 cards, the stub holds one card,
    the As. Seat 1 holds Ac Ad Ah."""
    rest = [str(c) for c in DeckSpec.STANDARD.cards() if str(c) not in ("Ac", "Ad", "Ah", "As")]
    first = ["Ac Ad Ah"] + [" ".join(rest[i * 3 : i * 3 + 3]) for i in range(7)]
    tail = rest[21:]
    text = " ".join([interleave(*first), *tail, "As"])
    return start("stud", FL, S2_4, [DEEP] * 8, text)


def test_r129_eight_players_seventh_street_one_community_card() -> None:
    """R129: 7-Card Stud with 8 players reaching 7th street: the stub has 1 card, which is dealt face up as a
    community card without a burn and is part of every player's hand."""
    hand = _eight_to_seventh()
    while hand.street < 4:
        _play_round(hand)
    seventh = hand.events[
        next(i for i, e in enumerate(hand.events) if isinstance(e, StreetStarted) and e.index == 4) :
    ]
    assert kinds(seventh)[:2] == ["street_started", "board_dealt"]
    assert not of(seventh, Burned) and not of(seventh, CardsDealt)
    assert of(seventh, BoardDealt)[0].cards == cards("As")
    assert hand.board == list(cards("As"))
    assert all(len(hand.hole_cards(s)) == 6 for s in range(1, 9))
    _play_out(hand)
    (award,) = of(hand.events, PotAwarded)
    assert award.winners == (1,)
    assert award.description == evaluate("high", hand.hole_cards(1), hand.board).description
    assert "Four" in award.description


def test_r130_seven_players_seventh_street_everyone_gets_a_card_without_burn() -> None:
    """R130: 7-Card Stud with 7 players reaching 7th street: the stub has 7 cards; each player receives a down
    card and no card is burned."""
    hand = start("stud", FL, S2_4, [DEEP] * 7)
    while hand.street < 4:
        _play_round(hand)
    start_7th = next(i for i, e in enumerate(hand.events) if isinstance(e, StreetStarted) and e.index == 4)
    seventh = hand.events[start_7th:]
    assert not of(seventh, Burned)
    dealt = of(seventh, CardsDealt)
    assert [(e.seat, e.up) for e in dealt] == [(s, (False,)) for s in range(1, 8)]
    assert hand.board == []
    assert hand.deck.remaining() == 0
    assert len(of(hand.events, Burned)) == 3


def test_r131_the_first_stud_round_cannot_be_checked_through() -> None:
    """R131: Stud: the first betting round cannot end with everybody checking."""
    hand = _stud("stud", ["Kc Kd 2c", "Qc Qd 9d", "Jc Jd Th", "Tc Td 8h"])
    assert not bet(hand).check
    hand.apply(BringIn(1))
    for seat in (2, 3, 4):
        d = bet(hand)
        assert (d.seat, d.check, d.call) == (seat, False, 50)
        hand.apply(Call(seat))
    assert hand.street == 1  # the bring-in player gets no option
    assert [a for _, a, _ in actions(hand)] == ["bring_in", "call", "call", "call"]


# ----------------------------------------------------------------------------------------- Razz


def test_r133_razz_highest_upcard_brings_in() -> None:
    """R133: Razz: the highest upcard brings in: K♣ against Q♠ → K♣."""
    hand = _stud("razz", ["Ac 2c Qs", "Ad 2d Kc", "Ah 2h 5d"])
    assert _bring_in_seat(hand) == 2


def test_r134_razz_ace_is_the_lowest_card_for_the_bring_in() -> None:
    """R134: Razz: the ace is the lowest card for the bring-in: upcards A♠ and 2♦ → 2♦ brings in."""
    hand = _stud("razz", ["3c 4c As", "3d 4d 2d"])
    assert _bring_in_seat(hand) == 2


def test_r135_razz_equal_highest_upcards_the_highest_suit_brings_in() -> None:
    """R135: Razz: upcards K♣ and K♠ tie for highest → K♠ brings in."""
    hand = _stud("razz", ["Ac 2c Ks", "Ad 2d Kc", "Ah 2h 9d"])
    assert _bring_in_seat(hand) == 1


def test_r136_razz_fourth_street_stays_small_with_an_open_pair() -> None:
    """R136: Razz 4th street with an open pair: bets stay at the small bet; with a $5 small bet: bet $5, raise
    to $10, raise to $15."""
    stakes = Stakes.fixed_limit(500, 1000, ante=100, bring_in=100, blinds=False)
    hand = _stud("razz", ["Ac 2c 9c", "Ad 2d 3h", "Ah 2h 4h"], "9d 5d 6d", stakes=stakes)
    _play_round(hand)
    assert hand.street == 1  # seat 1 shows 9-9
    d = bet(hand)
    assert d.choices == (500,)
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(d.seat, 1000))
    for to in (500, 1000, 1500):
        d = bet(hand)
        assert d.choices == (to,)
        hand.apply(RaiseTo(d.seat, to))


def test_r137_razz_fifth_to_seventh_streets_use_the_big_bet() -> None:
    """R137: Razz 5th, 6th and 7th streets use the big bet."""
    stakes = Stakes.fixed_limit(500, 1000, ante=100, bring_in=100, blinds=False)
    hand = _stud("razz", ["Ac 2c 9c", "Ad 2d 3h"], "9d 5d", "Ks Qs", "Js Ts", "8s 7s", stakes=stakes)
    _play_round(hand)
    _play_round(hand)
    for street in (2, 3, 4):
        assert hand.street == street
        d = bet(hand)
        assert d.choices == (1000,)
        hand.apply(RaiseTo(d.seat, 1000))
        assert bet(hand).choices == (2000,)
        _play_round(hand)


@pytest.mark.parametrize(
    ("first", "fourth", "acts"),
    [
        (["Kc Kd 5c", "Qc Qd 4d", "Jc Jd Kh"], "2c Ah Qh", 2),  # 4-A before 5-2 (and K-Q)
        (["Kc Kd 3c", "Qc Qd Qh", "Jc Jd Kh"], "3d Js Qs", 2),  # Q-J before 3-3 (and K-Q)
    ],
)
def test_r138_razz_best_showing_low_acts_first(first: list[str], fourth: str, acts: int) -> None:
    """R138: Razz later streets: a board of 4-A acts before 5-2; a board of Q-J acts before 3-3."""
    hand = _stud("razz", first, fourth)
    _play_round(hand)
    assert bet(hand).seat == acts


def test_r139_razz_best_a5_low_wins() -> None:
    """R139: Razz showdown: the best A-5 low wins the pot."""
    # Seat 1: A-2-3-4-6 with a pair; seat 2: 8-7-5-3-2; seat 3: Q-high.
    hand = _stud(
        "razz",
        ["Ac Ad 2c", "8c 7c 3d", "Qc Jc Kd"],
        "3h 5d Qh",
        "4h 2d Js",
        "6h Ks 9s",
        "Kh 9d Ts",
    )
    _play_out(hand)
    (award,) = of(hand.events, PotAwarded)
    assert award.winners == (1,)
    assert award.description == evaluate("ace5_low", "Ac Ad 2c 3h 4h 6h Kh").description


def test_r240_razz_cards_one_two_and_seven_down() -> None:
    """R240: Razz: each player ends with 7 cards, cards 1, 2 and 7 face down and cards 3–6 face up."""
    hand = start("razz", FL, S2_4, [DEEP] * 2)
    _play_out(hand)
    ups = [e.up for e in of(hand.events, CardsDealt) if e.seat == 1]
    assert ups == [(False, False, True), (True,), (True,), (True,), (False,)]
    p = hand.players[1]
    assert len(p.hole) == 7 and p.up == [False, False, True, True, True, True, False]


# ------------------------------------------------------------------------------------- Stud Hi/Lo


def test_r140_stud_hi_lo_wheel_is_a_straight_and_the_best_low() -> None:
    """R140: Stud Hi/Lo: cards A♠ 2♦ 3♣ 4♥ 5♠ K♦ K♣ → high 5-high straight, low 5-4-3-2-A."""
    # Seat 1 ends with A♠ 2♦ 3♣ 4♥ 5♠ K♦ K♣; seat 2 has queens and no low.
    hand = _stud("stud8", ["As 2d Kd", "Qs Qh Jd"], "3c 9c", "4h Tc", "5s Jh", "Kc 9h")
    _play_out(hand)
    high = evaluate("high", "As 2d 3c 4h 5s Kd Kc")
    low = evaluate("eight_low", "As 2d 3c 4h 5s Kd Kc")
    assert high.category == "straight"
    assert low.description == "5-4-3-2-A low"
    # Antes 2 x 40, bring-in 50 called: 180, scooped.
    assert awards(hand) == [(0, "high", 90, {1: 90}), (0, "low", 90, {1: 90})]
    descriptions = [e.description for e in of(hand.events, PotAwarded)]
    assert descriptions == [high.description, low.description]


def test_r141_stud_hi_lo_open_pair_does_not_allow_the_big_bet() -> None:
    """R141: Stud Hi/Lo 4th street with an open pair: a big bet is rejected."""
    hand = _stud("stud8", ["Kc Kd 5c", "Qc Qd 9d", "Jc Jd Kh"], "5d Td Qh")
    _play_round(hand)
    d = bet(hand)
    assert (d.seat, d.choices) == (1, (200,))
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(1, 400))


# ------------------------------------------------------------------------------------ 5-Card Stud


def test_r142_five_card_stud_one_down_four_up_all_five_used() -> None:
    """R142: 5-Card Stud: each player gets 1 down + 1 up card, then 3 more up cards; at showdown 1 down + 4
    up, all five used."""
    # Seat 1: 9c down, 5d 6h 7s 8c up (a straight using the down card); seat 2 shows A-A.
    hand = _stud("stud5", ["9c 5d", "2c Ad"], "6h Ah", "7s Kc", "8c Qd")
    _play_out(hand)
    ups = [e.up for e in of(hand.events, CardsDealt) if e.seat == 1]
    assert ups == [(False, True), (True,), (True,), (True,)]
    assert len(hand.hole_cards(1)) == 5
    (award,) = of(hand.events, PotAwarded)
    assert award.winners == (1,)
    assert award.description == evaluate("high", "9c 5d 6h 7s 8c").description


def test_r143_five_card_stud_ante_bring_in_four_rounds() -> None:
    """R143: 5-Card Stud $2/$4: ante $0.40, bring-in $0.50; 4 betting rounds."""
    hand = _stud("stud5", ["Kc 2d", "Qc 9d", "Jc Th"], "2s 3s 4s", "6h 7h 8h", "Ts Js Qs")
    assert [(e.what, e.amount) for e in of(hand.events, Posted)] == [("ante", 40)] * 3
    assert _bring_in_seat(hand) == 1 and bet(hand).bring_in == 50
    _play_out(hand)
    assert len(of(hand.events, RoundEnded)) == 4


def test_r144_five_card_stud_caps_per_player() -> None:
    """R144: 5-Card Stud $2/$4: bring-in $0.50 → complete $2 → $4 → $6 → one more raise to $8; per-player
    maximum $8 on 2nd and 3rd streets, $16 on 4th and 5th."""
    hand = _stud("stud5", ["Kc 2d", "Qc 9d", "Jc Th"], "2s 3s 4s", "6h 7h 8h", "Ts Js Qs")
    hand.apply(BringIn(1))
    for seat, to in ((2, 200), (3, 400), (1, 600), (2, 800)):
        assert bet(hand).choices == (to,)
        hand.apply(RaiseTo(seat, to))
    d = bet(hand)
    assert (d.seat, d.raise_kind) == (3, "")
    _play_round(hand)
    assert hand.contributions() == dict.fromkeys((1, 2, 3), 840)
    for street, unit in ((1, 200), (2, 400), (3, 400)):
        assert hand.street == street
        for i in range(4):
            d = bet(hand)
            assert d.choices == ((i + 1) * unit,)
            hand.apply(RaiseTo(d.seat, (i + 1) * unit))
        assert bet(hand).raise_kind == ""
        _play_round(hand)
    assert hand.contributions() == dict.fromkeys((1, 2, 3), 40 + 800 + 800 + 1600 + 1600)


S10_20 = Stakes.fixed_limit(1000, 2000, ante=100, bring_in=500, blinds=False)


def test_r145_five_card_stud_showing_pair_keeps_the_small_bet() -> None:
    """R145: 5-Card Stud $10/$20, 3rd street with a showing pair: a $20 bet is rejected; bets stay $10 (seed
    003 L21 not implemented)."""
    hand = _stud("stud5", ["Kc 2d", "Qc 9d", "Jc Th"], "2s 3s 4s", stakes=S10_20)
    _play_round(hand)
    assert hand.street == 1  # seat 1 shows 2-2
    d = bet(hand)
    assert (d.seat, d.choices) == (1, (1000,))
    with pytest.raises(AmountOutOfRange):
        hand.apply(RaiseTo(1, 2000))


def test_r146_five_card_stud_10_20_bring_in_5_completes_to_10() -> None:
    """R146: 5-Card Stud $10/$20 configured with ante $1 and bring-in $5: the bring-in may be completed to
    $10."""
    hand = _stud("stud5", ["Kc 2d", "Qc 9d", "Jc Th"], stakes=S10_20)
    assert [(e.what, e.amount) for e in of(hand.events, Posted)] == [("ante", 100)] * 3
    d = bet(hand)
    assert (d.seat, d.bring_in, d.choices) == (1, 500, (1000,))
    hand.apply(BringIn(1))
    d = bet(hand)
    assert (d.call, d.raise_kind, d.choices) == (500, "complete", (1000,))
    hand.apply(RaiseTo(2, 1000))
    assert actions(hand)[-1] == (2, "complete", 1000)


@pytest.mark.parametrize(("low", "high"), [("c", "s"), ("s", "c")])
def test_r147_five_card_stud_equal_boards_act_by_seat(low: str, high: str) -> None:
    """R147: 5-Card Stud: equal best boards on 3rd–5th streets are resolved by seat (nearest the button's
    left), never by suit."""
    # Seats 2 and 4 show the same ranks on 3rd, 4th and 5th streets; suits differ.
    hand = _stud(
        "stud5",
        ["2c 3d", f"2d A{low}", "2h 4d", f"2s A{high}"],
        f"5h K{low} 6h K{high}",
        f"7h Q{low} 8h Q{high}",
        f"9h J{low} Th J{high}",
    )
    _play_round(hand)
    for street in (1, 2, 3):
        assert hand.street == street
        assert bet(hand).seat == 2
        _play_round(hand)


def test_r241_five_card_stud_10_20_fourth_and_fifth_streets_are_20() -> None:
    hand = _stud("stud5", ["Kc 2d", "Qc 9d", "Jc Th"], "2s 3s 4s", "6h 7h 8h", "Ts Js Qs", stakes=S10_20)
    _play_round(hand)
    _play_round(hand)
    for street in (2, 3):
        assert hand.street == street
        for i in range(4):
            d = bet(hand)
            assert d.choices == ((i + 1) * 2000,)
            with pytest.raises(AmountOutOfRange):
                hand.apply(RaiseTo(d.seat, i * 2000 + 1000))
            hand.apply(RaiseTo(d.seat, (i + 1) * 2000))
        _play_round(hand)


# ------------------------------------------------------------------------------------------ SOKO


def test_r148_soko_four_flush_board_acts_before_a_pair() -> None:
    # On 5th street seat 1 shows A-A-K-Q, seat 2 shows four hearts.
    hand = _stud("soko", ["2c Ac", "3d 2h"], "Ad 5h", "Kc 9h", "Qs Jh")
    for _ in range(3):
        _play_round(hand)
    assert hand.street == 3
    assert bet(hand).seat == 2

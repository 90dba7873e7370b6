"""RULES.md §11.2 and §11.5 R252, R254: the straddle (under the gun and Mississippi) and the bomb pot, as the
engine plays them once the table has decided them (``Blinds.straddles``, ``Blinds(bomb_pot=True)``).

Whether a straddle is offered at all (R253: never heads-up, never in a Rush pool, only where the operator
enabled it) is the table's decision: tests/rooms/test_cash_options.py."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.engine import (
    Betting,
    Blinds,
    Call,
    Check,
    ConfigError,
    HandState,
    ListDeck,
    RaiseTo,
    SeatSetup,
    Stakes,
    Structure,
)
from pokerroom.engine.events import BoardDealt, Posted, RoundEnded
from pokerroom.variants import get_variant

from .helpers import random_command, start
from .rules_helpers import bet, of, posts

NL, PL, FL = Betting.NO_LIMIT, Betting.POT_LIMIT, Betting.FIXED_LIMIT
ONE_TWO = Stakes.blinds(100, 200)  # $1/$2 in cents
SIX = {s: 100_000 for s in range(1, 7)}


def _straddled(straddler: int, betting: Betting = NL, button: int = 6) -> HandState:
    # button 6: small blind 1, big blind 2, under the gun 3
    return start(
        "holdem",
        betting,
        ONE_TWO,
        SIX,
        button=button,
        blinds=Blinds(small=(1, 100), big=(2, 200), straddles=((straddler, 400),)),
    )


def test_r252_straddle_under_the_gun_sets_the_call_and_the_minimum_raise() -> None:
    hand = _straddled(3)
    assert posts(hand)[-1] == (3, "straddle", 400)
    d = bet(hand)
    assert (d.seat, d.call, d.min_to) == (4, 400, 800)  # the next player calls $4 or raises to $8 at least
    for seat in (4, 5, 6, 1, 2):
        hand.apply(Call(seat))
    d = bet(hand)  # everybody called: the straddler has the option
    assert d.seat == 3 and d.check and d.raise_kind == "raise" and d.min_to == 800
    hand.apply(Check(3))
    assert of(hand.events, BoardDealt)  # the round is over: the flop comes


def test_r252_the_straddler_may_raise_his_option() -> None:
    hand = _straddled(3)
    for seat in (4, 5, 6, 1, 2):
        hand.apply(Call(seat))
    hand.apply(RaiseTo(3, 1200))
    assert bet(hand).seat == 4 and bet(hand).call == 800


def test_straddle_in_pot_limit_counts_in_the_pot_like_a_blind() -> None:
    """§11.2: in PL the straddle counts in the pot; UTG+1 may raise to call 4 + pot (1 + 2 + 4 + 4) = 15."""
    hand = _straddled(3, PL)
    d = bet(hand)
    assert d.seat == 4 and d.call == 400 and d.max_to == 400 + (100 + 200 + 400 + 400)


def test_mississippi_straddle_action_starts_under_the_gun_and_the_button_acts_last() -> None:
    """§11.2: the button straddles; the action starts under the gun, skips the button and comes back to him
    after the big blind."""
    hand = _straddled(6)
    order = []
    for _ in range(5):
        d = bet(hand)
        assert d.call == 400 - {1: 100, 2: 200}.get(d.seat, 0)
        order.append(d.seat)
        hand.apply(Call(d.seat))
    assert order == [3, 4, 5, 1, 2]
    d = bet(hand)
    assert d.seat == 6 and d.check and d.min_to == 800
    hand.apply(RaiseTo(6, 1600))  # after the button's raise the action goes on in the round's order
    assert bet(hand).seat == 3


def test_mississippi_straddle_postflop_order_is_the_usual_one() -> None:
    hand = _straddled(6)
    for seat in (3, 4, 5, 1, 2):
        hand.apply(Call(seat))
    hand.apply(Check(6))
    assert bet(hand).seat == 1  # the flop: first active player left of the button


def test_a_straddle_restores_from_a_snapshot() -> None:
    hand = _straddled(6)
    hand.apply(Call(3))
    again = HandState.restore(hand.snapshot())
    assert again.events == hand.events and bet(again).seat == 4


# ---------------------------------------------------------------------------------------------- bomb pot


def _bomb(stacks: dict[int, int], ante: int = 400, button: int = 6, game: str = "holdem") -> HandState:
    return start(
        game,
        NL if game == "holdem" else PL,
        ONE_TWO,
        stacks,
        button=button,
        blinds=Blinds(antes=tuple((s, ante) for s in stacks), bomb_pot=True),
    )


def test_r254_bomb_pot_antes_no_blinds_flop_at_once_first_left_of_the_button() -> None:
    hand = _bomb(SIX)
    assert {(what, amount) for _, what, amount in posts(hand)} == {("ante", 400)}
    assert len(posts(hand)) == 6  # every player antes $4 and no blind is posted
    assert hand.pot_total() == 2400  # $24 before the flop
    assert of(hand.events, RoundEnded)[0].pots == (2400,)
    assert len(hand.board) == 3  # the flop is dealt at once: no betting before it
    d = bet(hand)
    assert d.seat == 1 and d.check and d.min_to == 200  # the first active player left of the button


def test_r254_bomb_pot_with_the_button_on_an_empty_seat() -> None:
    hand = _bomb({2: 50_000, 4: 50_000, 5: 50_000}, button=3)
    assert bet(hand).seat == 4


def test_bomb_pot_a_player_short_of_the_ante_is_all_in_for_less() -> None:
    hand = _bomb({1: 300, 2: 50_000, 3: 50_000})
    assert hand.pot_total() == 300 + 400 + 400 and hand.players[1].all_in
    while not hand.is_over:
        hand.apply(Check(bet(hand).seat))
    assert sum(hand.stacks().values()) == 100_300


def test_bomb_pot_in_omaha_and_from_a_snapshot() -> None:
    hand = _bomb(SIX, game="omaha")
    assert len(hand.board) == 3 and all(len(hand.hole_cards(s)) == 4 for s in SIX)
    hand.apply(Check(1))
    again = HandState.restore(hand.snapshot())
    assert again.events == hand.events


@pytest.mark.parametrize(
    ("game", "blinds"),
    [
        ("stud", Blinds(antes=((1, 40), (2, 40)), bomb_pot=True)),  # no flop
        ("deuce7_triple", Blinds(antes=((1, 40), (2, 40)), bomb_pot=True)),  # no flop
        ("holdem", Blinds(small=(1, 100), big=(2, 200), antes=((1, 40), (2, 40)), bomb_pot=True)),
        ("holdem", Blinds(bomb_pot=True)),  # a bomb pot without antes
    ],
)
def test_a_bomb_pot_is_refused_where_it_cannot_be_played(game: str, blinds: Blinds) -> None:
    v = get_variant(game)
    stakes = Stakes.fixed_limit(200, 400, bring_in=50, blinds=False) if v.is_stud else Stakes.fixed_limit(200)
    with pytest.raises(ConfigError):
        HandState.start(
            variant=v,
            structure=Structure(FL, stakes),
            seats=[SeatSetup(1, 5000), SeatSetup(2, 5000)],
            deck=ListDeck.shuffled(v.deck_for(2), random.Random(0)),
            button=1,
            blinds=blinds,
        )


# ---------------------------------------------------------------------------------- chips are conserved


@st.composite
def _forced(draw: st.DrawFn) -> tuple[list[int], dict[int, int], int, Blinds]:
    n = draw(st.integers(3, 9))
    seats = sorted(draw(st.sets(st.integers(1, 10), min_size=n, max_size=n)))
    stacks = {s: draw(st.sampled_from([150, 450, 900, 20_000, 100_000])) for s in seats}
    button = draw(st.sampled_from(seats))
    ring = [s for s in seats if s > button] + [s for s in seats if s <= button]
    sb, bb, utg = ring[0], ring[1], ring[2]
    kind = draw(st.sampled_from(["utg", "mississippi", "bomb"]))
    if kind == "bomb":
        return seats, stacks, button, Blinds(antes=tuple((s, 400) for s in seats), bomb_pot=True)
    straddler = utg if kind == "utg" else button
    if straddler in (sb, bb):  # three-handed the button is the big blind's left: it is a UTG straddle
        straddler = utg
    return seats, stacks, button, Blinds(small=(sb, 100), big=(bb, 200), straddles=((straddler, 400),))


@settings(max_examples=300, deadline=None)
@given(_forced(), st.sampled_from(["holdem", "omaha", "omaha8"]), st.sampled_from([NL, PL]), st.randoms())
def test_chips_are_conserved_with_straddles_and_bomb_pots(
    forced: tuple[list[int], dict[int, int], int, Blinds], game: str, betting: Betting, rng: random.Random
) -> None:
    seats, stacks, button, blinds = forced
    v = get_variant(game)
    hand = HandState.start(
        variant=v,
        structure=Structure(betting, ONE_TWO),
        seats=[SeatSetup(s, stacks[s]) for s in seats],
        deck=ListDeck.shuffled(v.deck_for(len(seats)), rng),
        button=button,
        blinds=blinds,
    )
    total = sum(stacks.values())
    while not hand.is_over:
        assert sum(hand.stacks().values()) + hand.pot_total() == total
        hand.apply(random_command(hand, rng))
    assert sum(hand.stacks().values()) == total
    assert all(stack >= 0 for stack in hand.stacks().values())
    if blinds.bomb_pot:
        assert not [e for e in hand.events if isinstance(e, Posted) and e.what != "ante"]
    assert HandState.restore(hand.snapshot()).events == hand.events

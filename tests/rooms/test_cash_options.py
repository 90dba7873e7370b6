"""RULES.md §11.2 at a cash table: the straddle (under the gun, Mississippi) and the bomb pot every K hands,
each off unless the operator enables it (R252-R254)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.engine import BetDecision, Betting, Call, Check, ConfigError, HandState, Stakes
from pokerroom.engine.events import Posted
from pokerroom.rooms import CashTable, TableConfig
from pokerroom.rooms.errors import TableError
from pokerroom.rooms.rush_rules import PoolConfig

from .cash_driver import play
from .helpers import at

NL = Betting.NO_LIMIT
ONE_TWO = Stakes.blinds(100, 200)


def table(seats: int = 6, game: str = "holdem", betting: Betting = NL, **options: object) -> CashTable:
    cfg = TableConfig("t1", "Club", game, betting, ONE_TWO, seats, **options)  # type: ignore[arg-type]
    return CashTable(cfg, random.Random(3))


def seat_all(t: CashTable, n: int, straddle: dict[int, bool] | None = None) -> None:
    for s in range(1, n + 1):
        t.sit(f"u{s}", f"U{s}", s, 20_000, at(0))
        if straddle and straddle.get(s):
            t.set_straddle(f"u{s}", True)


def posts(t: CashTable) -> list[tuple[int, str, int]]:
    assert t.hand is not None
    return [(e.seat, e.what, e.amount) for e in t.hand.events if isinstance(e, Posted)]


def finish(t: CashTable, when: float) -> None:
    """Everybody calls or checks until the hand is over."""
    while t.in_hand:
        assert t.hand is not None
        d = t.hand.pending
        assert isinstance(d, BetDecision)
        t.act(t.seats[d.seat].player, Call(d.seat) if d.call else Check(d.seat), at(when))


# ---------------------------------------------------------------------------------------------- straddle


def test_r252_the_player_under_the_gun_straddles_two_big_blinds() -> None:
    t = table(straddle="utg")
    seat_all(t, 6, straddle=dict.fromkeys(range(1, 7), True))
    t.tick(at(1))
    assert t.hand is not None and t.positions is not None
    sb, bb = t.positions.sb_seat, t.positions.bb_seat
    utg = t.hand.clockwise_from_button()[2]
    assert posts(t) == [(sb, "small_blind", 100), (bb, "big_blind", 200), (utg, "straddle", 400)]
    d = t.hand.pending
    assert isinstance(d, BetDecision) and d.call == 400 and d.min_to == 800
    assert d.seat == t.hand.clockwise_from_button()[3]


def test_mississippi_the_button_straddles_first_and_acts_last() -> None:
    t = table(straddle="mississippi")
    seat_all(t, 6, straddle=dict.fromkeys(range(1, 7), True))
    t.tick(at(1))
    hand = t.hand
    assert hand is not None and hand.button is not None
    assert posts(t)[-1] == (hand.button, "straddle", 400)
    ring = hand.clockwise_from_button()
    d = hand.pending
    assert isinstance(d, BetDecision) and d.seat == ring[2]  # under the gun starts
    order = []
    while isinstance(d, BetDecision) and not (d.check and d.seat == hand.button):
        order.append(d.seat)
        t.act(t.seats[d.seat].player, Call(d.seat), at(2))
        d = hand.pending
    assert order == [*ring[2:5], ring[0], ring[1]]
    assert isinstance(d, BetDecision) and d.seat == hand.button  # the button acts last


def test_mississippi_when_the_button_does_not_straddle_the_player_under_the_gun_may() -> None:
    t = table(straddle="mississippi")
    seat_all(t, 6, straddle=dict.fromkeys(range(1, 7), True))
    t.tick(at(1))
    finish(t, 2)
    assert t.positions is not None
    next_button = t.positions.sb_seat  # the button moves to the seat that had the small blind (§4.2)
    t.set_straddle(t.seats[next_button].player, False)
    t.tick(at(10))
    hand = t.hand
    assert hand is not None and hand.button == next_button
    assert [(s, what) for s, what, _ in posts(t) if what == "straddle"] == [
        (hand.clockwise_from_button()[2], "straddle")
    ]


def test_a_player_who_did_not_ask_does_not_straddle() -> None:
    t = table(straddle="utg")
    seat_all(t, 6)
    t.tick(at(1))
    assert "straddle" not in [what for _, what, _ in posts(t)]


def test_r253_no_straddle_heads_up() -> None:
    t = table(straddle="mississippi")
    seat_all(t, 2, straddle={1: True, 2: True})
    t.tick(at(1))
    assert "straddle" not in [what for _, what, _ in posts(t)]


def test_r253_no_straddle_where_the_operator_has_not_enabled_it() -> None:
    t = table()
    seat_all(t, 4)
    with pytest.raises(TableError):
        t.set_straddle("u1", True)
    t.tick(at(1))
    assert "straddle" not in [what for _, what, _ in posts(t)]


def test_r253_no_straddle_in_a_rush_pool() -> None:
    """A Rush pool's configuration has no straddle option at all."""
    assert "straddle" not in PoolConfig.__dataclass_fields__


@pytest.mark.parametrize(
    ("game", "betting", "stakes", "seats", "option"),
    [
        ("holdem", Betting.FIXED_LIMIT, Stakes.fixed_limit(200), 6, "utg"),  # NL and PL only
        ("holdem", NL, ONE_TWO, 2, "utg"),  # never heads-up (R253)
        ("holdem", NL, ONE_TWO, 6, "sometimes"),
    ],
)
def test_straddle_options_that_cannot_be_played_are_refused(
    game: str, betting: Betting, stakes: Stakes, seats: int, option: str
) -> None:
    with pytest.raises(ConfigError):
        TableConfig("t", "T", game, betting, stakes, seats, straddle=option)


# ---------------------------------------------------------------------------------------------- bomb pot


def test_r254_every_third_hand_is_a_bomb_pot_and_the_button_moves_as_usual() -> None:
    t = table(bomb_pot_every=3)
    seat_all(t, 6)
    buttons, bombs = [], []
    for i in range(6):
        t.tick(at(10 * i + 1))
        hand = t.hand
        assert hand is not None
        buttons.append(hand.button)
        kinds = {what for _, what, _ in posts(t)}
        bombs.append(kinds == {"ante"})
        if bombs[-1]:
            assert posts(t) == [(s, "ante", 400) for s in hand.clockwise_from_button()]  # 2 BB each
            assert hand.pot_total() == 2400 and len(hand.board) == 3  # $24, the flop at once
            d = hand.pending
            assert isinstance(d, BetDecision) and d.seat == hand.clockwise_from_button()[0]
        finish(t, 10 * i + 2)
    assert bombs == [False, False, True, False, False, True]
    first = buttons[0]
    assert first is not None
    assert buttons == [(first - 1 + i) % 6 + 1 for i in range(6)]  # one seat a hand, bomb pots included


def test_bomb_pot_ante_is_configurable() -> None:
    t = table(bomb_pot_every=1, bomb_pot_ante=1000)
    seat_all(t, 3)
    t.tick(at(1))
    assert {(what, amount) for _, what, amount in posts(t)} == {("ante", 1000)}


@pytest.mark.parametrize(
    ("game", "betting", "stakes", "options"),
    [
        (
            "stud",
            Betting.FIXED_LIMIT,
            Stakes.fixed_limit(200, bring_in=50, blinds=False),
            {"bomb_pot_every": 5},
        ),
        ("deuce7_triple", Betting.FIXED_LIMIT, Stakes.fixed_limit(200), {"bomb_pot_every": 5}),
        ("holdem", NL, ONE_TWO, {"bomb_pot_every": -1}),
        ("holdem", NL, ONE_TWO, {"bomb_pot_ante": 500}),  # an ante without bomb pots
    ],
)
def test_bomb_pot_options_that_cannot_be_played_are_refused(
    game: str, betting: Betting, stakes: Stakes, options: dict[str, int]
) -> None:
    with pytest.raises(ConfigError):
        TableConfig("t", "T", game, betting, stakes, 6, **options)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------ chips are conserved


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(["utg", "mississippi", "off"]),
    st.sampled_from([0, 1, 2, 5]),
    st.sampled_from([("holdem", NL), ("omaha", Betting.POT_LIMIT), ("omaha8", Betting.POT_LIMIT)]),
    st.integers(0, 2**32),
)
def test_chips_are_conserved_with_straddles_and_bomb_pots_over_many_hands(
    straddle: str, every: int, game: tuple[str, Betting], seed: int
) -> None:
    """Players join, leave, sit out and come back; after every hand the chips at the table are what the
    buy-ins, top-ups and cash-outs booked, less the rake."""
    t = table(9, game[0], game[1], straddle=straddle, bomb_pot_every=every)
    seen = {"straddle": 0, "bomb": 0}

    def check(t: CashTable, hand: HandState) -> None:
        whats = {e.what for e in hand.events if isinstance(e, Posted)}
        seen["straddle"] += "straddle" in whats
        seen["bomb"] += whats == {"ante"}

    play(t, random.Random(seed), 150, straddlers=True, between=check)
    assert (seen["straddle"] > 0) == (straddle != "off" and every != 1)  # every hand a bomb pot: none
    assert (seen["bomb"] > 0) == (every > 0)

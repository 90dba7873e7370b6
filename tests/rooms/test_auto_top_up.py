"""Auto top-up at a cash table (issue 31, rooms/auto_top_up.py): the player's target stack, within the
table's buy-in limits, is reached between hands only, busted stacks included, through ordinary TopUp
effects; a booking the server refuses takes the chips back and turns it off. Property: with wallets that
refuse what they cannot pay, no chip is created or lost."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from pokerroom.engine import BetDecision, Call, Fold, RaiseTo, RakeRule
from pokerroom.rooms import CashTable
from pokerroom.rooms.auto_top_up import check_target, top_up_amount
from pokerroom.rooms.effects import BuyIn, CashOut, HandSettlement, TopUp
from pokerroom.rooms.errors import BuyInOutOfRange, TableError

from ..engine.helpers import random_command
from .helpers import T0, at, holdem_table


def test_the_target_is_within_the_buy_in_limits_in_chip_units() -> None:
    assert check_target(0, (4000, 10000), 1) == 0  # off
    assert check_target(4000, (4000, 10000), 1) == 4000
    assert check_target(10000, (4000, 10000), 1) == 10000
    assert check_target(50_000, (4000, 0), 1) == 50_000  # no maximum
    for bad in (3999, 10001, -5, True, 5000.0, "6000"):
        with pytest.raises(BuyInOutOfRange):
            check_target(bad, (4000, 10000), 1)
    with pytest.raises(BuyInOutOfRange):
        check_target(4050, (4000, 10000), 100)  # not a multiple of the chip unit


def test_the_amount_brings_the_stack_to_the_target_in_whole_units() -> None:
    assert top_up_amount(3000, 10000, 1) == 7000
    assert top_up_amount(0, 10000, 1) == 10000  # busted: a rebuy
    assert top_up_amount(10000, 10000, 1) == 0
    assert top_up_amount(12000, 10000, 1) == 0  # a winner keeps his chips
    assert top_up_amount(3050, 10000, 100) == 6900
    assert top_up_amount(3000, 0, 1) == 0  # off


def test_set_between_hands_it_tops_up_at_once_and_a_bad_target_changes_nothing() -> None:
    t = holdem_table()
    t.sit("ann", "Ann", 1, 4000, at(0))
    out = t.set_auto_top_up("ann", 10000)
    assert TopUp("t1", "ann", 1, 6000, auto=True) in out and t.seats[1].stack == 10000
    with pytest.raises(BuyInOutOfRange):
        t.set_auto_top_up("ann", 10001)
    assert t.seats[1].auto_top_up == 10000 and t.seats[1].stack == 10000
    assert t.set_auto_top_up("ann", 0) == [] and t.seats[1].auto_top_up == 0
    with pytest.raises(TableError):
        t.set_auto_top_up("nobody", 5000)


def _play_out(t: CashTable, rng: random.Random, now: float) -> list[object]:
    out: list[object] = []
    while t.in_hand:
        assert t.hand is not None
        command = random_command(t.hand, rng)
        out += t.act(t.seats[command.seat].player, command, at(now))
    return out


def test_during_a_hand_the_chips_come_after_it_and_a_busted_player_is_rebought() -> None:
    t = holdem_table()
    t.sit("ann", "Ann", 1, 4000, at(0))
    t.sit("bob", "Bob", 2, 10000, at(0))
    t.tick(at(1))
    assert t.in_hand
    assert t.set_auto_top_up("ann", 8000) == []  # dealt in: nothing until the hand is over
    assert t.seats[1].stack < 4000 + 1  # (her blind is in the pot)
    # Ann shoves, Bob calls: whatever happens, she starts the next hand with at least 8,000.
    while t.in_hand:
        assert t.hand is not None
        d = t.hand.pending
        assert isinstance(d, BetDecision)
        who = t.seats[d.seat].player
        if who == "ann" and d.max_to:
            out = t.act(who, RaiseTo(d.seat, d.max_to), at(2))
        else:
            out = t.act(who, Call(d.seat) if d.call else Fold(d.seat), at(2))
    auto = [x for x in out if isinstance(x, TopUp) and x.auto]
    ann = t.seats[1]
    if auto:
        assert auto == [TopUp("t1", "ann", 1, auto[0].amount, auto=True)] and ann.stack == 8000
        assert not ann.sitting_out
    else:
        assert ann.stack >= 8000  # she won: nothing to add


def test_a_refused_auto_top_up_takes_the_chips_back_and_stops() -> None:
    t = holdem_table()
    t.sit("ann", "Ann", 1, 4000, at(0))
    out = t.set_auto_top_up("ann", 9000)
    (auto,) = [x for x in out if isinstance(x, TopUp)]
    t.refuse_auto_top_up("ann", auto.amount, at(1))
    assert t.seats[1].stack == 4000 and t.seats[1].auto_top_up == 0
    # a busted player whose rebuy is refused sits out with nothing
    t.seats[1].stack = 0
    out = t.set_auto_top_up("ann", 9000)
    t.refuse_auto_top_up("ann", 9000, at(2))
    assert t.seats[1].stack == 0 and t.seats[1].sitting_out


def test_a_leaving_player_is_not_topped_up() -> None:
    t = holdem_table()
    t.sit("ann", "Ann", 1, 4000, at(0))
    t.sit("bob", "Bob", 2, 10000, at(0))
    t.tick(at(1))
    t.set_auto_top_up("bob", 10000)
    t.leave("bob", at(2))
    out = _play_out(t, random.Random(1), 3)
    assert not [x for x in out if isinstance(x, TopUp) and x.player == "bob"]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    wallets=st.lists(st.integers(0, 40_000), min_size=3, max_size=5),
    targets=st.lists(st.sampled_from([0, 4000, 7000, 10000]), min_size=5, max_size=5),
)
def test_chips_are_conserved_with_auto_top_ups(seed: int, wallets: list[int], targets: list[int]) -> None:
    """Every chip is in a wallet, a stack or the rake, always: buy-ins and top-ups (manual and automatic)
    leave a wallet only when the wallet can pay them (else the table is told, as the server tells it), and
    cash-outs go back to it."""
    rng = random.Random(seed)
    t = holdem_table(rake=RakeRule(500, 300), seed=seed)
    names = [f"u{i}" for i in range(len(wallets))]
    wallet = dict(zip(names, wallets, strict=True))
    total = sum(wallets)
    rake = 0
    now = T0
    autos = 0

    def absorb(out: Sequence[object]) -> None:
        nonlocal rake, autos
        for x in out:
            if isinstance(x, BuyIn | TopUp):
                autos += isinstance(x, TopUp) and x.auto
                if wallet[x.player] >= x.amount:
                    wallet[x.player] -= x.amount
                elif isinstance(x, TopUp) and x.auto:
                    absorb(t.refuse_auto_top_up(x.player, x.amount, now))
                else:
                    absorb(t.refuse_top_up(x.player, x.amount))
            elif isinstance(x, CashOut):
                wallet[x.player] += x.amount
            elif isinstance(x, HandSettlement):
                rake += x.rake

    for i, name in enumerate(names):
        if wallet[name] >= 4000:
            buy_in = rng.randrange(4000, min(wallet[name], 10000) + 1)
            absorb(t.sit(name, name, i + 1, buy_in, now))
            absorb(t.set_auto_top_up(name, targets[i]))
    hands = 0
    for _ in range(3000):
        if hands >= 12:
            break
        now += timedelta(seconds=1)
        if rng.random() < 0.05:  # someone changes his target, or leaves
            name = rng.choice(names)
            if t.seat_of(name) is not None:
                if rng.random() < 0.7:
                    absorb(t.set_auto_top_up(name, rng.choice(targets)))
                else:
                    absorb(t.leave(name, now))
        out = t.tick(now)
        absorb(out)
        if t.in_hand:
            assert t.hand is not None
            command = random_command(t.hand, rng)
            if command.seat in t.seats:
                before = t.hand.hand_id
                absorb(t.act(t.seats[command.seat].player, command, now))
                if not t.in_hand or t.hand is None or t.hand.hand_id != before:
                    hands += 1
        if not t.in_hand:  # (during a hand some chips are in the pot)
            assert sum(wallet.values()) + sum(p.stack for p in t.seats.values()) + rake == total
            assert all(p.stack >= 0 for p in t.seats.values())
    note(f"auto top-ups: {autos}")

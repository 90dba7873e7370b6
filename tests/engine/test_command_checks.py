"""``HandState.apply`` checks every command's field types before reading them (docs/engine-speed.md).

The engine skips the interpreted ``Command.check`` call only for a command of exactly one of its own
classes whose fields are exactly ``int``: every other command, a subclass or an ``int`` subclass
included, is checked as before. These tests hold both sides of that line, on either build.
"""

from __future__ import annotations

import pytest

from pokerroom.engine import (
    BadCommand,
    BetDecision,
    Betting,
    BringIn,
    Call,
    Check,
    Command,
    EngineError,
    Fold,
    HandState,
    Muck,
    QuickFold,
    RaiseTo,
    Show,
    Stakes,
    TimeOut,
)

from .helpers import start

NL = Betting.NO_LIMIT
SEAT_ONLY = [Fold, Check, Call, BringIn, Show, Muck, QuickFold, TimeOut]


def _hand() -> HandState:
    return start("holdem", NL, Stakes.blinds(1, 2), [100, 100, 100])


def _to_act(hand: HandState) -> int:
    pending = hand.pending
    assert isinstance(pending, BetDecision)
    return pending.seat


class Seat(int):
    """An ``int`` subclass: ``Command.check`` accepts it, so the engine must too."""


@pytest.mark.parametrize("cls", SEAT_ONLY)
@pytest.mark.parametrize("seat", ["1", 1.0, None, True, False])
def test_a_seat_that_is_not_an_integer_is_a_bad_command(cls: type[Command], seat: object) -> None:
    hand = _hand()
    before = hand.snapshot()
    with pytest.raises(BadCommand):
        hand.apply(cls(seat))  # type: ignore[arg-type]
    assert hand.snapshot() == before


@pytest.mark.parametrize(("seat", "amount"), [(True, 6), ("1", 6), (1.0, 6), (None, 6), (1, False)])
def test_a_raise_with_a_field_of_the_wrong_type_is_a_bad_command(seat: object, amount: object) -> None:
    hand = _hand()
    before = hand.snapshot()
    with pytest.raises(BadCommand):
        hand.apply(RaiseTo(seat, amount))  # type: ignore[arg-type]
    assert hand.snapshot() == before


def test_a_subclass_of_a_command_is_still_checked() -> None:
    class LooseFold(Fold):
        def check(self) -> None:
            raise BadCommand("refused by its own check")

    hand = _hand()
    with pytest.raises(BadCommand, match="refused by its own check"):
        hand.apply(LooseFold(_to_act(hand)))


@pytest.mark.parametrize("wrap", [Seat, int])
def test_an_int_subclass_plays_as_its_integer(wrap: type[int]) -> None:
    plain, wrapped = _hand(), _hand()
    seat = _to_act(plain)
    events = plain.apply(RaiseTo(seat, 6))
    assert wrapped.apply(RaiseTo(wrap(seat), wrap(6))) == events
    seat = _to_act(plain)
    assert wrapped.apply(Fold(wrap(seat))) == plain.apply(Fold(seat))
    assert wrapped.stacks() == plain.stacks()


def test_every_wrong_command_is_an_engine_error() -> None:
    hand = _hand()
    for cmd in (Fold("x"), RaiseTo(1, "6"), RaiseTo(1.5, 6)):  # type: ignore[arg-type]
        with pytest.raises(EngineError):
            hand.apply(cmd)

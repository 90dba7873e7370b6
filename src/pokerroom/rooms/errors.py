"""Typed errors of the table layer; each has a stable ``code`` and public information only."""

from __future__ import annotations

from pokerroom.engine import EngineError

__all__ = [
    "AlreadySeated",
    "BuyInOutOfRange",
    "NoSuchSeat",
    "NotSeated",
    "SeatTaken",
    "TableError",
    "WaitingListError",
]


class TableError(EngineError):
    code = "table_error"


class NoSuchSeat(TableError):
    code = "no_such_seat"

    def __init__(self, seat: int, seats: int) -> None:
        super().__init__(f"seat {seat} does not exist (seats 1..{seats})")
        self.seat = seat


class SeatTaken(TableError):
    code = "seat_taken"

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} is not free")
        self.seat = seat


class AlreadySeated(TableError):
    code = "already_seated"

    def __init__(self) -> None:
        super().__init__("you already have a seat at this table")


class NotSeated(TableError):
    code = "not_seated"

    def __init__(self) -> None:
        super().__init__("you have no seat at this table")


class BuyInOutOfRange(TableError):
    code = "buy_in_out_of_range"

    def __init__(self, amount: int, minimum: int, maximum: int) -> None:
        top = str(maximum) if maximum else "no maximum"
        super().__init__(f"buy-in {amount} is outside {minimum}..{top}")
        self.amount = amount
        self.minimum = minimum
        self.maximum = maximum


class WaitingListError(TableError):
    code = "waiting_list"

"""Between hands, still pure: cash tables (seats, button, blinds owed, sitting out, rake, points)."""

# First: the engine decides whether the compiled modules (this package's cash table among them) or their
# sources load (pokerroom/engine/native.py), before ``rooms.cash`` is found.
import pokerroom.engine  # isort: skip  # noqa: F401
from pokerroom.rooms.cash import CashTable, Output, Player
from pokerroom.rooms.config import TableConfig, Timing
from pokerroom.rooms.effects import BuyIn, CashOut, Effect, HandSettlement, TopUp
from pokerroom.rooms.errors import (
    AlreadySeated,
    BuyInOutOfRange,
    NoSuchSeat,
    NotSeated,
    SeatTaken,
    TableError,
    WaitingListError,
)
from pokerroom.rooms.notices import (
    GameChoice,
    HandEvents,
    HandFinished,
    Notice,
    OfferExpired,
    PostPrompt,
    SeatChanged,
    SeatOffer,
    TurnClock,
)
from pokerroom.rooms.points import Discipline, HappyHour, PointsPolicy, hand_points, share_points
from pokerroom.rooms.record import FinishedHand, LastHands, RecalledHand
from pokerroom.rooms.seating import HandPlan, Positions, SeatStatus, plan_hand

__all__ = [
    "AlreadySeated",
    "BuyIn",
    "BuyInOutOfRange",
    "CashOut",
    "CashTable",
    "Discipline",
    "Effect",
    "FinishedHand",
    "GameChoice",
    "HandEvents",
    "HandFinished",
    "HandPlan",
    "HandSettlement",
    "HappyHour",
    "LastHands",
    "NoSuchSeat",
    "NotSeated",
    "Notice",
    "OfferExpired",
    "Output",
    "Player",
    "PointsPolicy",
    "Positions",
    "PostPrompt",
    "RecalledHand",
    "SeatChanged",
    "SeatOffer",
    "SeatStatus",
    "SeatTaken",
    "TableConfig",
    "TableError",
    "Timing",
    "TopUp",
    "TurnClock",
    "WaitingListError",
    "hand_points",
    "plan_hand",
    "share_points",
]

"""The hand engine: one hand of any game as a sans-I/O state machine (ARCHITECTURE.md)."""

# First: it decides whether the compiled modules or their sources load (pokerroom/engine/native.py).
from pokerroom.engine.native import running_build  # isort: skip
from pokerroom.engine.betting import BetDecision
from pokerroom.engine.commands import (
    BringIn,
    Call,
    Check,
    Command,
    Discard,
    Draw,
    Fold,
    Muck,
    QuickFold,
    RaiseTo,
    RunTwice,
    Show,
    TimeOut,
    command_from_dict,
)
from pokerroom.engine.deck import CardSource, ListDeck
from pokerroom.engine.errors import (
    AmountOutOfRange,
    BadCommand,
    ConfigError,
    EngineError,
    HandOver,
    IllegalAction,
    InvalidCards,
    NotAChipMultiple,
    NotYourTurn,
    QuickFoldRefused,
    RestoreError,
    UnknownVariant,
)
from pokerroom.engine.events import Audience, Event
from pokerroom.engine.pots import Pot
from pokerroom.engine.setup import (
    Blinds,
    DiscardDecision,
    DrawDecision,
    HandComplete,
    Pending,
    Phase,
    RunTwiceDecision,
    SeatSetup,
    ShowDecision,
)
from pokerroom.engine.spec import ForcedBets, Showing, Street, VariantSpec
from pokerroom.engine.stakes import Betting, RakeRule, Stakes, Structure
from pokerroom.engine.state import HandState

BUILD: str = running_build()
"""Which build of the engine runs: ``"mypyc"`` (compiled at install) or ``"python"`` (the sources)."""

__all__ = [
    "BUILD",
    "AmountOutOfRange",
    "Audience",
    "BadCommand",
    "BetDecision",
    "Betting",
    "Blinds",
    "BringIn",
    "Call",
    "CardSource",
    "Check",
    "Command",
    "ConfigError",
    "Discard",
    "DiscardDecision",
    "Draw",
    "DrawDecision",
    "EngineError",
    "Event",
    "Fold",
    "ForcedBets",
    "HandComplete",
    "HandOver",
    "HandState",
    "IllegalAction",
    "InvalidCards",
    "ListDeck",
    "Muck",
    "NotAChipMultiple",
    "NotYourTurn",
    "Pending",
    "Phase",
    "Pot",
    "QuickFold",
    "QuickFoldRefused",
    "RaiseTo",
    "RakeRule",
    "RestoreError",
    "RunTwice",
    "RunTwiceDecision",
    "SeatSetup",
    "Show",
    "ShowDecision",
    "Showing",
    "Stakes",
    "Street",
    "Structure",
    "TimeOut",
    "UnknownVariant",
    "VariantSpec",
    "command_from_dict",
]

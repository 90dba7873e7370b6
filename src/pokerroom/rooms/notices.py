"""What a table tells the outside world after each call: engine events, seat changes, clocks, prompts.

The server turns notices into protocol messages (projecting engine events per viewer) and books the money
effects of :mod:`pokerroom.rooms.effects`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from pokerroom.engine import Event

if TYPE_CHECKING:
    from pokerroom.rooms.record import FinishedHand

__all__ = [
    "GameChoice",
    "HandEvents",
    "HandFinished",
    "Notice",
    "OfferExpired",
    "PostPrompt",
    "SeatChanged",
    "SeatOffer",
    "TurnClock",
]


@dataclass(frozen=True, slots=True)
class Notice:
    table_id: str


@dataclass(frozen=True, slots=True)
class HandEvents(Notice):
    """Engine events of the current hand; ``dealt_in`` are the seats that may see DEALT_IN events."""

    hand_id: str
    events: tuple[Event, ...]
    dealt_in: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatChanged(Notice):
    """A seat's public state changed (taken, left, stack, sitting out, markers, waiting for the BB)."""

    seat: int
    player: str | None
    name: str
    stack: int
    status: str  # empty, playing, sitting_out, waiting_bb, leaving
    markers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TurnClock(Notice):
    """A decision started: the action time ends at ``action_deadline``, the time bank at ``bank_deadline``."""

    seat: int
    started: datetime
    action_deadline: datetime
    bank_deadline: datetime


@dataclass(frozen=True, slots=True)
class SeatOffer(Notice):
    """The waiting list offers ``seat`` to ``player`` until ``expires``."""

    player: str
    seat: int
    expires: datetime


@dataclass(frozen=True, slots=True)
class OfferExpired(Notice):
    player: str
    seat: int


@dataclass(frozen=True, slots=True)
class PostPrompt(Notice):
    """Auto-post is off: ``player`` must confirm posting ``amount`` (``what``) before ``deadline``."""

    player: str
    seat: int
    amount: int
    what: str
    deadline: datetime


@dataclass(frozen=True, slots=True)
class GameChoice(Notice):
    """Dealer's choice (RULES.md §11.1): ``player`` in ``seat`` picks the next round's game from
    ``options`` (labels, in the mix's order) before ``deadline``; else ``default`` (an index) is played.
    ``round`` counts the table's rounds from 0."""

    player: str
    seat: int
    options: tuple[str, ...]
    default: int
    deadline: datetime
    round: int = 0


@dataclass(frozen=True, slots=True)
class HandFinished(Notice):
    record: FinishedHand

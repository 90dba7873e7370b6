"""What an actor may use of the room: a narrow set of services, injected (never the whole room).

Each actor gets its clock, its randomness and its outbound channels here, as the engine gets its deck:
tests give a manual clock, a seeded ``random.Random`` and connections that only record frames.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerroom.cards import RandomSource
from pokerroom.rooms import LastHands, PointsPolicy
from pokerroom.server.clock import Clock
from pokerroom.server.endpoints import Endpoints
from pokerroom.server.fairness import Seals
from pokerroom.server.integrity.chat import ChatDesk
from pokerroom.server.integrity.seating import SeatRule
from pokerroom.server.metrics import Metrics
from pokerroom.server.players import Players
from pokerroom.store import Store

__all__ = ["Services"]


@dataclass(frozen=True)
class Services:
    store: Store  # the ledger of record, the hand journal, tournaments and histories
    clock: Clock
    rng: RandomSource  # secrets.SystemRandom() in production
    players: Players  # frames to one player wherever he is, balances
    last_hands: LastHands  # the "last hand" window of every player
    points: PointsPolicy | None = None
    metrics: Metrics | None = None  # the room's Prometheus metrics (None: not measured)
    seals: Seals = field(default_factory=Seals)  # every hand's deck proof (docs/fairness.md)
    endpoints: Endpoints = field(default_factory=Endpoints)  # the room's index (server/endpoints.py)
    seat_rule: SeatRule | None = None  # the room's integrity options (server/integrity: issue 30)
    chat: ChatDesk | None = None  # the chat log, word filter and mutes (server/integrity/chat.py)

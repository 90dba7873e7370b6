"""Finished hands and the "last hand" window (RULES.md §6.6)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from pokerroom.engine import Event, HandState
from pokerroom.rooms.effects import HandSettlement

__all__ = ["FinishedHand", "LastHands"]


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A finished hand with everything needed to write its histories and show it again."""

    hand_id: str
    table_id: str
    table_name: str
    seats: int
    currency: str
    started_at: datetime
    players: Mapping[int, tuple[str, str]]  # seat -> (player id, display name), dealt in only
    hand: HandState
    settlement: HandSettlement

    def seat_of(self, player: str) -> int | None:
        return next((s for s, (p, _) in self.players.items() if p == player), None)

    def events_for(self, seat: int | None) -> list[Event]:
        """The hand as a viewer sees it afterwards: a player dealt in sees his own cards and every hand
        that reached the showdown, shown or mucked (R182); folded hands and discards stay hidden (R184)."""
        dealt_in = seat is not None and seat in self.players
        out = []
        for e in self.hand.events:
            v = e.view_for(seat, dealt_in)
            if v is not None:
                out.append(v)
        return out


class LastHands:
    """The last 50 hands each player was dealt into during his login session, across tables (R183)."""

    LIMIT = 50

    def __init__(self) -> None:
        self._by_player: dict[str, deque[FinishedHand]] = {}

    def start_session(self, player: str) -> None:
        self._by_player[player] = deque(maxlen=self.LIMIT)

    def add(self, record: FinishedHand) -> None:
        for player, _ in record.players.values():
            if player in self._by_player:
                self._by_player[player].append(record)

    def hands(self, player: str) -> list[FinishedHand]:
        """Newest first."""
        return list(reversed(self._by_player.get(player, ())))

    def get(self, player: str, hand_id: str) -> FinishedHand | None:
        return next((h for h in self._by_player.get(player, ()) if h.hand_id == hand_id), None)

    def summary(self) -> Mapping[str, int]:
        return {p: len(d) for p, d in self._by_player.items()}

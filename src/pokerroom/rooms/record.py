"""Finished hands and the "last hand" window (RULES.md §6.6)."""

from __future__ import annotations

import pickle
import zlib
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from pokerroom.engine import Event, HandState
from pokerroom.history import DeckProof
from pokerroom.rooms.effects import HandSettlement

__all__ = ["FinishedHand", "LastHands", "RecalledHand"]


def _seat_of(players: Mapping[int, tuple[str, str]], player: str) -> int | None:
    return next((s for s, (p, _) in players.items() if p == player), None)


def _view(events: Iterable[Event], players: Mapping[int, tuple[str, str]], seat: int | None) -> list[Event]:
    """The hand as a viewer sees it afterwards: a player dealt in sees his own cards and every hand that
    reached the showdown, shown or mucked (R182); folded hands and discards stay hidden (R184)."""
    dealt_in = seat is not None and seat in players
    out = []
    for e in events:
        v = e.view_for(seat, dealt_in)
        if v is not None:
            out.append(v)
    return out


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
    proof: DeckProof | None = None  # the deck's proof, the hand being over (docs/fairness.md)
    mix: str = ""  # a mixed table's mix ("H.O.R.S.E.", RULES.md §11.1); the hand has its own game

    def player_ids(self) -> list[str]:
        """The players dealt in."""
        return [p for p, _ in self.players.values()]

    def seat_of(self, player: str) -> int | None:
        return _seat_of(self.players, player)

    def events_for(self, seat: int | None) -> list[Event]:
        """The hand as ``seat`` sees it afterwards (see :func:`_view`)."""
        return _view(self.hand.events, self.players, seat)


@dataclass(frozen=True, slots=True)
class RecalledHand:
    """A finished hand as the "last hand" window keeps it: its facts, and its events pickled and
    compressed (under 1 KB for a six-handed hold'em hand). A busy room keeps tens of thousands of these;
    as engine objects they were hundreds of thousands of containers, and more as the window filled, that
    every full garbage collection walked, which stalled the server for half a second at a time. The bytes
    are made here from our own objects and never come from outside the process."""

    hand_id: str
    table_name: str
    started_at: datetime
    variant: str
    players: Mapping[int, tuple[str, str]]
    packed_events: bytes
    proof: DeckProof | None = None  # for the players dealt in (docs/fairness.md)

    @classmethod
    def of(cls, record: FinishedHand) -> RecalledHand:
        packed = zlib.compress(pickle.dumps(tuple(record.hand.events), protocol=pickle.HIGHEST_PROTOCOL), 1)
        return cls(
            record.hand_id,
            record.table_name,
            record.started_at,
            record.hand.variant.code,
            dict(record.players),
            packed,
            record.proof,
        )

    @property
    def events(self) -> tuple[Event, ...]:
        events: tuple[Event, ...] = pickle.loads(zlib.decompress(self.packed_events))
        return events

    def seat_of(self, player: str) -> int | None:
        return _seat_of(self.players, player)

    def events_for(self, seat: int | None) -> list[Event]:
        """The hand as ``seat`` sees it afterwards (see :func:`_view`)."""
        return _view(self.events, self.players, seat)


class LastHands:
    """The last 50 hands each player was dealt into during his login session, across tables (R183)."""

    LIMIT = 50

    def __init__(self) -> None:
        self._by_player: dict[str, deque[RecalledHand]] = {}

    def start_session(self, player: str) -> None:
        self._by_player[player] = deque(maxlen=self.LIMIT)

    def add(self, record: FinishedHand) -> None:
        keep = [p for p, _ in record.players.values() if p in self._by_player]
        if not keep:
            return
        recalled = RecalledHand.of(record)  # one copy, shared by the players dealt in
        for player in keep:
            self._by_player[player].append(recalled)

    def hands(self, player: str) -> list[RecalledHand]:
        """Newest first."""
        return list(reversed(self._by_player.get(player, ())))

    def get(self, player: str, hand_id: str) -> RecalledHand | None:
        return next((h for h in self._by_player.get(player, ()) if h.hand_id == hand_id), None)

    def summary(self) -> Mapping[str, int]:
        return {p: len(d) for p, d in self._by_player.items()}

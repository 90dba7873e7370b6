"""Decision clocks and time banks: one implementation for cash tables, Rush tables and tournament tables.

A player asked to act gets the table's action time; when it runs out his time bank runs (RULES.md §4.1:
30 s, spent when used, +5 s for every 20 hands dealt to him, never above 30 s). A Rush table gives a
reduced action time without the bank preflop before any raise, and a full bank at every hand (R209-R211).
When the bank runs out too, the table times the decision out (``TimeOut``: the engine decides what that
means) and the player's bank is spent.

Pure: ``now`` comes in as an aware datetime; nothing here reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from pokerroom.rooms.notices import TurnClock

__all__ = ["Clock", "Clocks", "refill_bank", "spend_bank"]


@dataclass(slots=True)
class Clock:
    """One running decision: the action time ends at ``action_deadline``, the time bank at
    ``bank_deadline`` (equal when the bank may not be used)."""

    seat: int
    started: datetime
    action_deadline: datetime
    bank_deadline: datetime
    bank_usable: bool = True

    def action_left(self, now: datetime) -> float:
        return max(0.0, (self.action_deadline - now).total_seconds())

    def bank_left(self, now: datetime) -> float:
        return max(0.0, (self.bank_deadline - max(now, self.action_deadline)).total_seconds())


def spend_bank(bank: float, clock: Clock, now: datetime, *, timed_out: bool) -> float:
    """The time bank left after the decision ``clock`` timed ended at ``now``: a timeout spends all of it,
    a late answer the time it took beyond the action time (when the bank was usable)."""
    if timed_out:
        return 0.0
    used = (now - clock.action_deadline).total_seconds()
    if used > 0 and clock.bank_usable:
        return max(0.0, bank - used)
    return bank


def refill_bank(bank: float, hands_dealt: int, *, full: float, refill: float, every: int) -> float:
    """After a hand: ``refill`` seconds more for every ``every`` hands dealt to the player, never above
    ``full`` (RULES.md §4.1)."""
    if hands_dealt > 0 and hands_dealt % every == 0:
        return min(full, bank + refill)
    return bank


class Clocks:
    """The clocks of the decisions a hand waits for (one seat, or several at once: the Irish discard)."""

    __slots__ = ("_by_seat", "table_id")

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self._by_seat: dict[int, Clock] = {}

    def __contains__(self, seat: object) -> bool:
        return seat in self._by_seat

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self._by_seat))

    def __len__(self) -> int:
        return len(self._by_seat)

    def __bool__(self) -> bool:
        return bool(self._by_seat)

    def get(self, seat: int) -> Clock | None:
        return self._by_seat.get(seat)

    def items(self) -> list[tuple[int, Clock]]:
        return sorted(self._by_seat.items())

    def sync(
        self,
        waiting: Iterable[int],
        now: datetime,
        *,
        action: float,
        bank: Callable[[int], float],
        bank_usable: bool = True,
    ) -> list[TurnClock]:
        """Keep the clocks of the seats still waited for, start one for each new seat; returns the
        clocks started (the server sends each as a ``turn``)."""
        waiting = set(waiting)
        for seat in [s for s in self._by_seat if s not in waiting]:
            del self._by_seat[seat]
        started: list[TurnClock] = []
        for seat in sorted(waiting - self._by_seat.keys()):
            action_end = now + timedelta(seconds=action)
            extra = bank(seat) if bank_usable else 0.0
            clock = Clock(seat, now, action_end, action_end + timedelta(seconds=extra), bank_usable)
            self._by_seat[seat] = clock
            started.append(TurnClock(self.table_id, seat, now, clock.action_deadline, clock.bank_deadline))
        return started

    def stop(self, seat: int) -> Clock | None:
        """The seat answered (or was timed out): its clock stops; returns it (None if it had none)."""
        return self._by_seat.pop(seat, None)

    def clear(self) -> None:
        self._by_seat.clear()

    def due(self, now: datetime) -> list[int]:
        """The seats whose time bank has run out at ``now``, in seat order."""
        return [s for s, c in sorted(self._by_seat.items()) if now >= c.bank_deadline]

    def next_deadline(self) -> datetime | None:
        return min((c.bank_deadline for c in self._by_seat.values()), default=None)

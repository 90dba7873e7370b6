"""Rush pools on the wire: each entry is its own window, at a new table every hand (RULES.md §8).

:class:`RushWindows` is the wire side of a pool, shared by the pool actor (:class:`RushActor`, a cash
pool) and by Rush tournaments in their pool phase: every short-lived table has its own
:class:`~pokerroom.server.core.TableCore` whose watchers are the entries seated there. Frames to an
entry carry the pool id and the entry number (``pool``, ``entry``): ``pool_move`` when it is dealt a
hand at a new table, then that table's ``event`` and ``turn`` frames (a ``turn`` also says whether the
entry may Quick Fold now), ``pool_entry`` when it waits or leaves. Nobody observes a Rush table (R212).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import orjson

from pokerroom.engine import Command, HandState
from pokerroom.engine.events import HandStarted
from pokerroom.rooms import HandEvents, HandFinished, TurnClock
from pokerroom.rooms.rush import (
    Entry,
    EntryLeft,
    EntryMoved,
    EntryWaiting,
    RushPool,
    entry_key,
    rush_table_view,
)
from pokerroom.server.connection import Connection, Head, head_of, send_frame
from pokerroom.server.core import Action, TableCore, Watch
from pokerroom.server.errors import Refused
from pokerroom.server.fairness import Seals
from pokerroom.server.players import Players

__all__ = ["RushWindows"]


class RushWindows:
    """The entries' windows of one pool. ``players`` delivers a frame to a player's connections."""

    def __init__(self, pool: RushPool, players: Players, seals: Seals | None = None) -> None:
        self.pool = pool
        self.players = players
        self.seals = seals if seals is not None else Seals()
        self.cores: dict[str, TableCore] = {}  # live table id -> its core

    @property
    def pid(self) -> str:
        return self.pool.pid

    def owns_table(self, table: str) -> bool:
        return table in self.cores or self.pool.names_table(table)

    # ----------------------------------------------------------------------------- sending

    def _watch(self, entry: Entry, seat: int) -> Watch:
        player = entry.player

        def send(text: str, head: Head | None = None) -> None:
            self.players.notify(player, text, head=head)

        return Watch(send, player, seat, {"pool": self.pid, "entry": entry.number})

    def send_entry(self, entry: Entry, frame: dict[str, Any]) -> None:
        frame["pool"] = self.pid
        frame["entry"] = entry.number
        self.players.notify(entry.player, orjson.dumps(frame).decode(), head=head_of(frame))

    # ---------------------------------------------------------------------------- notices

    def moved(self, item: EntryMoved, hand: HandState | None, names: Mapping[int, tuple[str, str]]) -> None:
        """The entry was dealt a hand at a new table: its window moves there."""
        e = self.pool.entries.get(item.entry)
        if e is None:
            return
        for core in self.cores.values():  # a moved entry gets nothing more of an older hand
            core.unwatch(item.entry)
        tid = item.table
        core = self.cores.get(tid) or TableCore(tid, lambda player: None, self.seals)
        self.cores[tid] = core
        core.watch(item.entry, self._watch(e, item.seat))
        st = self.pool.stakes
        self.send_entry(
            e,
            {
                "type": "pool_move",
                "table": tid,
                "seq": core.seq,
                "hand_id": item.hand_id,
                "seat": item.seat,
                "seats": self.pool.table_size,
                "players": {str(s): {"name": n} for s, (_, n) in sorted(names.items())},
                "button": hand.button if hand is not None else None,
                "stacks": {str(s): p.starting_stack for s, p in hand.players.items()} if hand else {},
                "stakes": {"small_blind": st.small_blind, "big_blind": st.big_blind},
                "quick_fold": self.pool.quick_fold_offered(),
            },
        )

    def events(self, item: HandEvents, hand: HandState | None = None) -> None:
        """The hand's events to the entries at its table; ``hand`` (when it starts here) is sealed first:
        its commitment goes out with ``hand_started`` (a cash pool's book has sealed it already)."""
        if hand is not None and hand.hand_id == item.hand_id:
            self.seals.of(hand)
        core = self.cores.get(item.table_id)
        if core is not None:
            core.events(item)

    def turn(self, hand: HandState, clock: TurnClock, now: datetime) -> None:
        core = self.cores.get(clock.table_id)
        if core is None or hand.is_over:
            return

        def extra(watch: Watch) -> dict[str, Any]:
            number = (watch.envelope or {}).get("entry", 0)
            return {"can_quick_fold": self.pool.can_quick_fold(entry_key(watch.player or "", number))}

        core.turn(hand, clock, now, extra)

    def left_hand(self, table_id: str, entry: str) -> None:
        """The entry quick-folded out of the hand at ``table_id``: it gets nothing more from there."""
        core = self.cores.get(table_id)
        if core is not None:
            core.unwatch(entry)

    def finished(self, table_id: str) -> None:
        self.cores.pop(table_id, None)

    def waiting(self, item: EntryWaiting) -> None:
        e = self.pool.entries.get(item.entry)
        if e is not None:
            self.send_entry(e, {"type": "pool_entry", "status": "waiting", "stack": e.stack})

    def left(self, item: EntryLeft, number: int) -> None:
        frame = {
            "type": "pool_entry",
            "status": "left",
            "stack": item.stack,
            "pool": self.pid,
            "entry": number,
        }
        self.players.notify(item.player, orjson.dumps(frame).decode())

    def process(
        self,
        items: list[object],
        now: datetime,
        numbers: Mapping[str, int],
        step: list[object] | None = None,
    ) -> None:
        """Send what a step of the pool did (``items``: all of ``step``, or the part to send now); money
        and the journal are the owner's business, done before."""
        for item in items:
            if isinstance(item, EntryMoved):
                t = self.pool.tables.get(item.table)
                finished = next(
                    (
                        n.record
                        for n in (step if step is not None else items)
                        if isinstance(n, HandFinished) and n.record.hand_id == item.hand_id
                    ),
                    None,
                )
                hand = t.hand if t is not None else (finished.hand if finished is not None else None)
                names = t.names if t is not None else (finished.players if finished is not None else {})
                self.moved(item, hand, names)
            elif isinstance(item, HandEvents):
                self.events(item, self._starting(item, step if step is not None else items))
            elif isinstance(item, TurnClock):
                t = self.pool.tables.get(item.table_id)
                if t is not None:
                    self.turn(t.hand, item, now)
            elif isinstance(item, HandFinished):
                self.finished(item.record.table_id)
            elif isinstance(item, EntryWaiting):
                self.waiting(item)
            elif isinstance(item, EntryLeft):
                self.left(item, numbers.get(item.entry, 0))

    def _starting(self, item: HandEvents, step: Sequence[object]) -> HandState | None:
        """The hand these events start (None: they do not start one)."""
        if not any(isinstance(e, HandStarted) for e in item.events):
            return None
        t = self.pool.tables.get(item.table_id)
        if t is not None and t.hand.hand_id == item.hand_id:
            return t.hand
        return next(
            (n.record.hand for n in step if isinstance(n, HandFinished) and n.record.hand_id == item.hand_id),
            None,
        )

    # ---------------------------------------------------------------------------- requests

    def entry(self, player: str, number: int) -> Entry:
        e = next((x for x in self.pool.entries_of(player) if x.number == number), None)
        if e is None:
            raise Refused("unknown_entry", "you have no such entry in this pool", entry=number)
        return e

    def entry_of(self, player: str, number: int) -> Entry | None:
        return next((x for x in self.pool.entries_of(player) if x.number == number), None)

    def accept(
        self, player: str, number: int, hand_id: str, action_no: int, action: Action
    ) -> tuple[Command, int] | None:
        """Check a ``pool_act`` (see :meth:`TableCore.accept`): the command and its number, or None for a
        retry already applied."""
        e = self.entry_of(player, number)
        t = self.pool.tables.get(e.table) if e is not None and e.table is not None else None
        core = self.cores.get(t.table_id) if t is not None else None
        if e is None or t is None or core is None or t.hand.hand_id != hand_id or e.seat is None:
            for c in self.cores.values():
                if c._was_applied(hand_id, action_no, player, action):
                    return None
            raise Refused("stale_hand", "that hand is over for this entry")
        return core.accept(t.hand, player, e.seat, hand_id, action_no, action)

    def applied(self, table_id: str, hand_id: str, action_no: int, player: str, action: Action) -> None:
        core = self.cores.get(table_id)
        if core is not None:
            core.applied(hand_id, action_no, player, action)

    def resync(self, conn: Connection, now: datetime) -> None:
        """A (re)connecting player's windows: each entry in a hand gets its table (``pool_move``) and a
        ``snapshot`` of the hand as its seat may see it (with its decision if one is pending)."""
        if conn.player is None:
            return
        for e in self.pool.entries_of(conn.player):
            t = self.pool.tables.get(e.table or "")
            core = self.cores.get(e.table or "")
            if t is None or core is None or e.seat is None or e.entry_id not in core.watchers:
                continue
            st = self.pool.stakes
            envelope = {"pool": self.pid, "entry": e.number}
            move = {
                "type": "pool_move",
                **envelope,
                "table": t.table_id,
                "seq": core.seq,
                "hand_id": t.hand.hand_id,
                "seat": e.seat,
                "seats": self.pool.table_size,
                "players": {str(s): {"name": n} for s, (_, n) in sorted(t.names.items())},
                "button": t.hand.button,
                "stacks": {str(s): p.starting_stack for s, p in t.hand.players.items()},
                "stakes": {"small_blind": st.small_blind, "big_blind": st.big_blind},
                "quick_fold": self.pool.quick_fold_offered(),
            }
            send_frame(conn.send, move)
            state = self.seals.stamp(rush_table_view(self.pool, t.table_id, e.entry_id, now))
            if state is not None:
                snap = {"type": "snapshot", **envelope, "table": t.table_id, "seq": core.seq, "state": state}
                send_frame(conn.send, snap)

    def entries_view(self, player: str) -> list[dict[str, Any]]:
        return [
            {"entry": e.number, "status": e.state, "stack": e.stack, "table": e.table, "seat": e.seat}
            for e in self.pool.entries_of(player)
        ]

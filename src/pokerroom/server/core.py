"""The table core: one table's hand on the wire, the same for cash tables, Rush tables and tournament
tables (docs/server.md).

It owns what the three kinds share: who watches the table and from which seat, the table's sequence
number, the projection of every engine event for every viewer (each text encoded once per visibility
class), the ``turn`` frames with the decision for the seat (or seats: the Irish discard, run it twice)
that must decide, the translation of an ``act`` into an engine command with its ``action_no`` checks and
idempotent retries, and the ``table_closed`` frame. What differs between the kinds (seating, what happens
between hands, money) is the policy of the ``rooms`` layer and of each actor.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from pokerroom.engine import (
    Command,
    Discard,
    DiscardDecision,
    HandState,
    Pending,
    QuickFold,
    RunTwice,
    RunTwiceDecision,
    TimeOut,
    command_from_dict,
)
from pokerroom.engine.events import Audience, Event, HandStarted
from pokerroom.rooms import HandEvents, SeatChanged, TurnClock
from pokerroom.server.connection import Head, head_of
from pokerroom.server.errors import Refused
from pokerroom.server.fairness import Seals

__all__ = ["Action", "TableCore", "Watch", "command_of", "decision_for"]

Action = Mapping[str, Any]  # the ``action`` object of an ``act`` (validated by the protocol)


def command_of(seat: int, action: Action) -> Command:
    """The engine command for a client's action at ``seat`` (the engine checks everything else)."""
    data: dict[str, Any] = {"type": action["type"], "seat": seat}
    if action.get("amount") is not None:
        data["amount"] = action["amount"]
    if action.get("cards") is not None:
        data["cards"] = action["cards"]
    if data["type"] == "run_twice":
        data["agree"] = action.get("agree") is True  # no answer given: no (R-RIT)
    if data["type"] in ("draw", "discard") and "cards" not in data:
        data["cards"] = []
    return command_from_dict(data)


def decision_for(hand: HandState | None, seat: int | None) -> Pending | None:
    """The decision ``seat`` must make now: the one seat to act, or one of the seats of a simultaneous
    Irish discard or run-it-twice question; None when the hand waits for somebody else (or nothing)."""
    if hand is None or seat is None or hand.is_over:
        return None
    return hand.pending if seat in hand.waiting_for() else None


def _dumps(frame: Mapping[str, Any]) -> str:
    return orjson.dumps(frame).decode()


@dataclass(slots=True)
class Watch:
    """One watcher of a table: a connection (the seat is the one its player holds, if any), or a Rush
    entry's window (its seat is fixed; every frame carries its ``envelope``: pool and entry). Every text
    is sent with its head (connection.Head): its type, table and ``seq``."""

    send: Callable[[str, Head | None], None]
    player: str | None
    seat: int | None = None
    envelope: Mapping[str, Any] | None = None


class TableCore:
    """The wire side of one table. ``seat_of`` finds a player's seat (None: not seated there); ``seals``
    gives each ``hand_started`` event its hand's deck commitment (docs/fairness.md)."""

    def __init__(
        self, table_id: str, seat_of: Callable[[str], int | None], seals: Seals | None = None
    ) -> None:
        self.table_id = table_id
        self.seat_of = seat_of
        self.seals = seals
        self.seq = 0
        self.watchers: dict[Hashable, Watch] = {}
        self.closed = False
        # Idempotent retries: (hand id, action number) -> (player, action) applied there, for the current
        # hand and the one before it (a retry may come after its hand ended).
        self._applied: dict[tuple[str, int], tuple[str, Action]] = {}
        self._applied_before: dict[tuple[str, int], tuple[str, Action]] = {}

    # ------------------------------------------------------------------------------- watchers

    def watch(self, key: Hashable, watch: Watch) -> None:
        self.watchers[key] = watch

    def unwatch(self, key: Hashable) -> Watch | None:
        return self.watchers.pop(key, None)

    def viewer_seat(self, watch: Watch) -> int | None:
        if watch.seat is not None:
            return watch.seat
        return self.seat_of(watch.player) if watch.player is not None else None

    def watched_by(self, player: str) -> bool:
        return any(w.player == player for w in self.watchers.values())

    # ------------------------------------------------------------------------------- sending

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def _send(self, watch: Watch, frame: dict[str, Any], shared: list[str]) -> None:
        """Send ``frame`` to ``watch``: the text in ``shared[0]`` (encoded once) unless it has an envelope."""
        if watch.envelope:
            watch.send(_dumps({**frame, **watch.envelope}), head_of(frame))
            return
        if not shared:
            shared.append(_dumps(frame))
        watch.send(shared[0], head_of(frame))

    def seat_changed(self, item: SeatChanged) -> None:
        """The ``seat`` frame of a seat that changed (sat, stood, its stack or status), to every watcher."""
        self.broadcast(
            {
                "type": "seat",
                "seat": item.seat,
                "player": item.player,
                "name": item.name,
                "stack": item.stack,
                "status": item.status,
                "markers": list(item.markers),
            }
        )

    def broadcast(
        self,
        frame: dict[str, Any],
        *,
        withheld: Collection[str] = (),
        stub: dict[str, Any] | None = None,
    ) -> None:
        """A public table frame (``seat``, ``chat``, ...) with the next sequence number, to every watcher;
        the watchers of the players in ``withheld`` get ``stub`` instead, with the same sequence number
        (a chat line of a player they muted: server/integrity/chat.py)."""
        frame["table"] = self.table_id
        frame["seq"] = self.next_seq()
        shared: list[str] = []
        other: list[str] = []
        instead = None if stub is None else {**stub, "table": frame["table"], "seq": frame["seq"]}
        for watch in list(self.watchers.values()):
            if instead is not None and watch.player in withheld:
                self._send(watch, instead, other)
            else:
                self._send(watch, frame, shared)

    def send_to(self, player: str, frame: dict[str, Any]) -> int:
        """A frame for one player's watchers only (no sequence number); returns how many got it."""
        n = 0
        shared: list[str] = []
        for watch in list(self.watchers.values()):
            if watch.player == player:
                self._send(watch, frame, shared)
                n += 1
        return n

    def events(self, item: HandEvents) -> None:
        """The hand's new events, each projected for each watcher: a player dealt in sees his own cards,
        every other viewer the public view (or nothing)."""
        dealt = set(item.dealt_in)
        viewers = []
        for watch in list(self.watchers.values()):
            seat = self.viewer_seat(watch)
            viewers.append((watch, seat if seat in dealt else None))
        for event in item.events:
            self._event(item, event, viewers)

    def _event(self, item: HandEvents, event: Event, viewers: list[tuple[Watch, int | None]]) -> None:
        seq = self.next_seq()
        if event.audience is Audience.PUBLIC:  # (most events: one text for every viewer, one head)
            frame = self._event_frame(item.hand_id, seq, event)
            head: Head = ("event", self.table_id, seq)
            text: str | None = None
            for watch, _seat in viewers:
                if watch.envelope:
                    watch.send(_dumps({**frame, **watch.envelope}), head)
                    continue
                if text is None:
                    text = _dumps(frame)
                watch.send(text, head)
            return
        full_frame: dict[str, Any] | None = None
        public_frame: dict[str, Any] | None = None
        public_known = False
        full: list[str] = []
        public: list[str] = []
        for watch, seat in viewers:
            if event.visible_to(seat, seat is not None):
                if full_frame is None:
                    full_frame = self._event_frame(item.hand_id, seq, event)
                self._send(watch, full_frame, full)
                continue
            if not public_known:
                public_known = True
                view = event.public_view()
                public_frame = None if view is None else self._event_frame(item.hand_id, seq, view)
            if public_frame is not None:
                self._send(watch, public_frame, public)

    def _event_frame(self, hand_id: str, seq: int, event: Event) -> dict[str, Any]:
        data = event.to_dict()
        if isinstance(event, HandStarted) and self.seals is not None:
            seal = self.seals.get(hand_id)  # (made by the actor before the hand's first frame)
            data["commitment"] = seal.commitment if seal is not None else None
            data["next_seed"] = seal.next_seed if seal is not None else None
            data["seed_at"] = seal.seed_at if seal is not None else None
        return {
            "type": "event",
            "table": self.table_id,
            "seq": seq,
            "hand_id": hand_id,
            "event": data,
        }

    def turn(
        self,
        hand: HandState,
        clock: TurnClock,
        now: datetime,
        extra: Callable[[Watch], Mapping[str, Any]] | None = None,
    ) -> None:
        """A decision started: every watcher gets the clock; the watcher at the deciding seat also gets
        the decision (each seat of a simultaneous discard gets its own ``turn``)."""
        frame: dict[str, Any] = {
            "type": "turn",
            "table": self.table_id,
            "seq": self.next_seq(),
            "hand_id": hand.hand_id,
            "action_no": len(hand.commands),
            "seat": clock.seat,
            "action_left": max(0.0, (clock.action_deadline - now).total_seconds()),
            "bank_left": max(0.0, (clock.bank_deadline - clock.action_deadline).total_seconds()),
            "decision": None,
        }
        head: Head = ("turn", self.table_id, frame["seq"])
        pending = decision_for(hand, clock.seat)
        mine = dict(frame, decision=pending.to_dict()) if pending is not None else frame
        shared_public: list[str] = []
        shared_mine: list[str] = []
        for watch in list(self.watchers.values()):
            deciding = self.viewer_seat(watch) == clock.seat
            body = mine if deciding else frame
            if extra is not None:
                watch.send(_dumps({**body, **extra(watch), **(watch.envelope or {})}), head)
            else:
                self._send(watch, body, shared_mine if deciding else shared_public)

    def close(self, reason: str, moved_to: Callable[[Watch], Mapping[str, Any] | None]) -> None:
        """The table closed: every watcher is told why and where its player went (``moved_to``: the
        table and seat, or None), and stops watching."""
        self.closed = True
        seq = self.next_seq()
        for watch in list(self.watchers.values()):
            dest = moved_to(watch)
            frame = {
                "type": "table_closed",
                "table": self.table_id,
                "seq": seq,
                "reason": reason,
                "moved_to": dict(dest) if dest is not None else None,
            }
            watch.send(_dumps({**frame, **(watch.envelope or {})}), ("table_closed", self.table_id, seq))
        self.watchers.clear()

    # ------------------------------------------------------------------------------ actions

    def accept(
        self,
        hand: HandState | None,
        player: str,
        seat: int | None,
        hand_id: str,
        action_no: int,
        action: Action,
    ) -> tuple[Command, int] | None:
        """Check an ``act`` against the hand now: the command to apply and the action number it takes,
        or None when it is a retry of an action already applied (acknowledge it, apply nothing).

        An action sent for a decision that is still the player's (only quick folds came in between, or
        other players' Irish discards or run-it-twice answers of the same round) is taken at the current
        number; any other stale number is refused, and so is a number ahead of the hand."""
        if seat is None:
            if self._was_applied(hand_id, action_no, player, action):
                return None
            raise Refused("not_seated", "you have no seat at this table")
        if hand is None or hand.hand_id != hand_id or hand.is_over:
            if self._was_applied(hand_id, action_no, player, action):
                return None
            raise Refused("stale_hand", "that hand is over")
        current = len(hand.commands)
        if action_no > current:
            raise Refused("bad_action_no", f"the next action number is {current}", current=current)
        if action_no < current:
            if self._was_applied(hand_id, action_no, player, action, upto=current):
                return None
            if not self._still_open(hand, seat, action_no):
                raise Refused("stale_action", "the hand has moved on since that decision", current=current)
            action_no = current
        return command_of(seat, action), action_no

    @staticmethod
    def _still_open(hand: HandState, seat: int, since: int) -> bool:
        """Is the decision offered to ``seat`` at action number ``since`` still the one it has now?"""
        if seat not in hand.waiting_for():
            return False
        discarding = isinstance(hand.pending, DiscardDecision)
        asking = isinstance(hand.pending, RunTwiceDecision)  # run it twice: also answered all at once
        for command in hand.commands[since:]:
            if command.seat == seat:
                return False
            if isinstance(command, QuickFold):
                continue
            if discarding and isinstance(command, Discard | TimeOut):
                continue
            if asking and isinstance(command, RunTwice | TimeOut):
                continue
            return False
        return True

    def applied(self, hand_id: str, action_no: int, player: str, action: Action) -> None:
        """Remember an applied action, so that its retry is acknowledged and not applied again."""
        if self._applied and next(iter(self._applied))[0] != hand_id:
            self._applied_before, self._applied = self._applied, {}
        self._applied[(hand_id, action_no)] = (player, action)

    def _was_applied(
        self, hand_id: str, action_no: int, player: str, action: Action, upto: int | None = None
    ) -> bool:
        """Was this action applied at ``action_no`` or later (before ``upto``)? An Irish discard sent at
        the round's number may have been taken at a later one."""
        wanted = (player, action)
        for book in (self._applied, self._applied_before):
            for (h, k), done in book.items():
                if h == hand_id and k >= action_no and (upto is None or k < upto) and done == wanted:
                    return True
        return False

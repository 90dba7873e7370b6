"""An independent oracle for per-viewer projection: which cards a viewer may have seen so far.

The table actor is wrapped so that the full (unredacted) events of every hand are recorded as they are
handed to the projection code. Every frame a client receives is then scanned for card strings; each one
must be a card that the viewer was allowed to see at that point of the hand, worked out here from the
full events without using the engine's own visibility methods:

- everybody: the board, face-up stud cards, hands shown at showdown or exposed all-in (R184: never a
  folded hand; R156/R161: never a discard);
- a player dealt into the hand: also his own cards (dealt, drawn, his own discards), and hands mucked at
  showdown (the last-hand window, R182);
- an observer or a player not dealt in: nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from pokerroom.engine.events import (
    BoardDealt,
    CardsDealt,
    CardsShown,
    Discarded,
    Drew,
    Event,
    HandStarted,
    Mucked,
)
from pokerroom.rooms import HandEvents
from pokerroom.server.cash import CashActor
from pokerroom.server.core import TableCore

CARD = re.compile(r"^(10|[2-9TJQKA])[cdhs]$")


def cards_in(data: Any) -> Iterator[str]:
    """Every string in a decoded frame that reads as a card, and every card inside its texts: a deck
    proof travels as JSON in a string (docs/fairness.md: its openings name cards), a deck as cards
    separated by spaces — each card of such a text counts (issue 34: the revealed deck named every
    folded hand)."""
    if isinstance(data, str):
        if CARD.match(data):
            yield data
            return
        if data.startswith(("{", "[")):
            try:
                inner = orjson.loads(data)
            except orjson.JSONDecodeError:
                inner = None
            if inner is not None:
                yield from cards_in(inner)
                return
        tokens = data.split()
        if len(tokens) > 1 and all(CARD.match(t) or t == "??" for t in tokens):  # a deck's or a hand's text
            yield from (t for t in tokens if t != "??")
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from cards_in(k)
            yield from cards_in(v)
    elif isinstance(data, list):
        for v in data:
            yield from cards_in(v)


def _s(cards: Any) -> set[str]:
    return {str(c) for c in cards if c is not None}


@dataclass
class HandTruth:
    """The full events of one hand, in the order they were projected."""

    hand_id: str
    events: list[Event] = field(default_factory=list)
    seqs: dict[int, int] = field(default_factory=dict)  # table sequence number -> index in events

    @property
    def dealt_in(self) -> tuple[int, ...]:
        start = next(e for e in self.events if isinstance(e, HandStarted))
        return start.seats

    def allowed(self, seat: int | None, upto: int) -> set[str]:
        """Cards ``seat`` (``None``: an observer) may have seen after the first ``upto`` events."""
        dealt = seat is not None and seat in self.dealt_in
        out: set[str] = set()
        for e in self.events[:upto]:
            if isinstance(e, BoardDealt | CardsShown):
                out |= _s(e.cards)
            elif isinstance(e, CardsDealt):
                out |= {str(c) for c, up in zip(e.cards, e.up, strict=True) if up and c is not None}
                if dealt and e.seat == seat:
                    out |= _s(e.cards)
            elif isinstance(e, Drew):
                if dealt and e.seat == seat:
                    out |= _s(e.discarded) | _s(e.received)
            elif isinstance(e, Discarded):
                if dealt and e.seat == seat:
                    out |= _s(e.cards)
            elif isinstance(e, Mucked) and dealt:
                out |= _s(e.cards)
        return out

    def secret(self) -> set[str]:
        """Every card that appears anywhere in the hand's full events."""
        out: set[str] = set()
        for e in self.events:
            for name in ("cards", "discarded", "received"):
                out |= _s(getattr(e, name, ()))
        return out


class Recorder:
    """Wraps actors so that the full events of every hand are kept (keyed by table and hand id)."""

    def __init__(self) -> None:
        self.hands: dict[tuple[str, str], HandTruth] = {}

    def wrap(self, actor: CashActor) -> None:
        core = actor.core

        def recording(item: HandEvents) -> None:
            truth = self.hands.setdefault((actor.tid, item.hand_id), HandTruth(item.hand_id))
            for i, event in enumerate(item.events):  # the table core numbers the events in this order
                truth.seqs[core.seq + i + 1] = len(truth.events)
                truth.events.append(event)

        actor.core = _RecordingCore(core, recording)  # type: ignore[assignment]


class _RecordingCore:
    """Stands in for an actor's table core: hands each hand's events to ``record`` before the core
    projects them, and everything else to the core itself. (The core's methods cannot be replaced on it:
    it is compiled with the engine, setup.py.)"""

    def __init__(self, core: TableCore, record: Callable[[HandEvents], None]) -> None:
        object.__setattr__(self, "_core", core)
        object.__setattr__(self, "_record", record)

    def events(self, item: HandEvents) -> None:
        self._record(item)
        self._core.events(item)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._core, name, value)


@dataclass
class Viewer:
    """One client's received frames, with the seat its player held (None: an observer)."""

    name: str
    table: str
    seat: int | None
    frames: list[str] = field(default_factory=list)


@dataclass
class Report:
    frames: int = 0
    cards_checked: int = 0
    hands: set[tuple[str, str]] = field(default_factory=set)
    leaks: list[str] = field(default_factory=list)


def check(viewer: Viewer, recorder: Recorder, report: Report) -> None:
    """Scan every frame the viewer got; each card must be allowed at that point of its hand."""
    position: dict[str, int] = {}  # hand id -> how many of its events the viewer has received
    current = ""
    for text in viewer.frames:
        report.frames += 1
        msg = orjson.loads(text)
        if msg.get("table") not in (None, viewer.table):
            continue  # another table's frame (the oracle is per table)
        hand_id = msg.get("hand_id") or ""
        if msg.get("type") == "snapshot":
            hand = (msg.get("state") or {}).get("hand") or {}
            hand_id = hand.get("hand_id", "")
        if msg.get("type") == "event":
            current = hand_id
            truth = recorder.hands[(viewer.table, hand_id)]
            index = truth.seqs[msg["seq"]]
            position[hand_id] = index + 1
            full = truth.events[index]
            if full.kind != msg["event"]["type"]:
                report.leaks.append(f"{viewer.name}: event order differs in {hand_id}")
                return
        hid = hand_id or current
        truth_or_none = recorder.hands.get((viewer.table, hid))
        if truth_or_none is None:
            found = list(cards_in(msg))
            if found:
                report.leaks.append(f"{viewer.name}: cards {found} outside any hand: {text[:200]}")
            continue
        report.hands.add((viewer.table, hid))
        seat = viewer.seat if viewer.seat in truth_or_none.dealt_in else None
        upto = position.get(hid, 0)
        if msg.get("type") == "snapshot":
            upto = len(truth_or_none.events)  # a snapshot shows the hand as it stands now
        allowed = truth_or_none.allowed(seat, upto)
        for card in cards_in(msg):
            report.cards_checked += 1
            if card not in allowed:
                report.leaks.append(f"{viewer.name} (seat {seat}) saw {card} in {hid}: {text[:300]}")

"""How long the all-in run-out of a finished hand takes to watch (issue 31): the streets dealt after the
hands were turned face up because nobody could bet any more (RULES.md §6.5, the engine's ``cards_shown``
with reason ``all_in``). The web client plays those streets back one beat apart (runout.js); the table
waits that long more before the next hand (:meth:`pokerroom.rooms.config.Timing.pause_after`)."""

from __future__ import annotations

from collections.abc import Iterable

from pokerroom.engine.events import Event

__all__ = ["run_out_streets"]


def run_out_streets(events: Iterable[Event]) -> int:
    """The number of streets started after the all-in exposure (each run of a board run twice counts its
    own streets); 0 for a hand without one."""
    exposed = False
    streets = 0
    for e in events:
        if e.kind == "cards_shown" and getattr(e, "reason", "") == "all_in":
            exposed = True
        elif exposed and e.kind == "street_started":
            streets += 1
    return streets

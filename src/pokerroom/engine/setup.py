"""The data a hand is started with and the decisions it waits for."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from pokerroom.engine.betting import BetDecision

__all__ = [
    "Blinds",
    "DiscardDecision",
    "DrawDecision",
    "HandComplete",
    "Pending",
    "Phase",
    "RunTwiceDecision",
    "SeatSetup",
    "ShowDecision",
]


class Phase(Enum):
    BETTING = "betting"
    DRAW = "draw"
    DISCARD = "discard"
    SHOWDOWN = "showdown"
    RUN_TWICE = "run_twice"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """A player dealt into the hand: his seat number (1..N clockwise), stack, and showdown preference."""

    seat: int
    stack: int
    auto_muck: bool = True


@dataclass(frozen=True, slots=True)
class Blinds:
    """Forced bets of a blind game, decided by the table (RULES.md §4.2-§4.7): ``(seat, amount)`` pairs.

    ``live`` are extra live big blinds (a new or returning player posting in), ``dead`` are dead posts
    (a returning player's missed small blind), ``straddles`` live blinds after the big blind; ``antes``
    overrides the stakes' ante per seat (for example a big-blind ante in a recorded hand).

    A straddle (RULES.md §11.2) acts last in the first betting round: the action starts with the first
    player after the big blind, skipping the straddler, who acts after the big blind. Posted by the player
    after the big blind this is the ordinary straddle under the gun (the action starts at his left); posted
    by the button it is the Mississippi straddle.

    ``bomb_pot`` (RULES.md §11.2): a bomb pot. Only ``antes`` may be set (every player's ante); no blind
    is posted, there is no betting before the flop, which is dealt at once, and the betting on the flop
    begins with the first player left of the button. Flop games only.
    """

    small: tuple[int, int] | None = None
    big: tuple[int, int] | None = None
    straddles: tuple[tuple[int, int], ...] = ()
    live: tuple[tuple[int, int], ...] = ()
    dead: tuple[tuple[int, int], ...] = ()
    antes: tuple[tuple[int, int], ...] | None = None
    bomb_pot: bool = False


@dataclass(frozen=True, slots=True)
class DrawDecision:
    seat: int
    max_discard: int
    kind: str = "draw"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat, "max_discard": self.max_discard}


@dataclass(frozen=True, slots=True)
class DiscardDecision:
    """Irish: these seats still have to discard exactly ``count`` cards (simultaneously)."""

    seats: tuple[int, ...]
    count: int
    kind: str = "discard"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seats": list(self.seats), "count": self.count}


@dataclass(frozen=True, slots=True)
class RunTwiceDecision:
    """Run it twice (docs/decisions.md, R-RIT): these seats have not answered yet whether to deal the rest
    of the board twice; they answer at the same time, and one "no" (or a timeout) means once."""

    seats: tuple[int, ...]
    kind: str = "run_twice"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seats": list(self.seats)}


@dataclass(frozen=True, slots=True)
class ShowDecision:
    """Showdown: the player may show or muck a hand that is not shown automatically."""

    seat: int
    kind: str = "show"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class HandComplete:
    kind: str = "done"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind}


Pending = BetDecision | DrawDecision | DiscardDecision | RunTwiceDecision | ShowDecision | HandComplete

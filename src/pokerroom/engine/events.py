"""Events: what happened in a hand, each tagged with who may see it.

Events are plain records (not frozen, for speed: a hand makes dozens of them); nothing mutates them after
they are made, and callers must treat them as read-only. The server projects events per viewer:
:meth:`Event.visible_to` says whether a viewer may see an event as it is; otherwise
:meth:`Event.public_view` gives the redacted form (hidden cards replaced by ``None``) or ``None`` when
nothing of it may be shown. No event carries the deck order or a burned card.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any, ClassVar

from pokerroom.cards import Card

__all__ = [
    "ActionTaken",
    "Audience",
    "BetReturned",
    "BoardDealt",
    "Burned",
    "CardsDealt",
    "CardsShown",
    "Discarded",
    "Drew",
    "Event",
    "HandEnded",
    "HandStarted",
    "Mucked",
    "Posted",
    "PotAwarded",
    "Reshuffled",
    "RoundEnded",
    "RunTwiceAnswered",
    "RunTwiceDecided",
    "RunTwiceOffered",
    "StreetStarted",
]


class Audience(Enum):
    PUBLIC = "public"  # everyone, observers included
    SEAT = "seat"  # only the player in the event's seat
    DEALT_IN = "dealt_in"  # every player dealt into the hand (the last-hand window), not observers


def _plain(value: Any) -> Any:
    """Plain JSON-able data: cards as strings, a hidden card (``None`` in a card tuple) as ``"??"``."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple | list):
        return ["??" if v is None else _plain(v) for v in value]
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    """The event class's field names, in the order its constructor takes them (``fields`` rebuilds this
    on every call; it ran for every event projected, pickled and written out)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


@dataclass(slots=True, repr=False, unsafe_hash=True)
class Event:
    kind: ClassVar[str] = "event"

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        """Pickled as its class and field values (the last-hands window packs every finished hand's
        events): the dataclass's own slot state goes through ``fields`` and a setattr per field."""
        return (type(self), tuple([getattr(self, name) for name in _names(type(self))]))

    @property
    def audience(self) -> Audience:
        return Audience.PUBLIC

    @property
    def seat_of(self) -> int | None:
        """The seat a private event belongs to."""
        return getattr(self, "seat", None)

    def visible_to(self, viewer: int | None, dealt_in: bool = False) -> bool:
        """May a viewer (a seat, or ``None`` for an observer) see this event unredacted?"""
        aud = self.audience
        if aud is Audience.PUBLIC:
            return True
        if aud is Audience.DEALT_IN:
            return dealt_in
        return viewer is not None and viewer == self.seat_of

    def public_view(self) -> Event | None:
        """The event as those who may not see it in full see it (``None``: not at all)."""
        return self

    def view_for(self, viewer: int | None, dealt_in: bool = False) -> Event | None:
        return self if self.visible_to(viewer, dealt_in) else self.public_view()

    def __repr__(self) -> str:
        """A private event prints as its public view: hidden cards never reach a log through ``repr``."""
        shown = self if self.audience is Audience.PUBLIC else self.public_view()
        if shown is None:
            return f"{type(self).__name__}(hidden)"
        body = ", ".join(f"{f.name}={getattr(shown, f.name)!r}" for f in fields(shown))
        return f"{type(self).__name__}({body})"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        for name in _names(type(self)):
            data[name] = _plain(getattr(self, name))
        return data


def _without_run_zero(data: dict[str, Any]) -> dict[str, Any]:
    """``run`` 0 (a hand run once) is left out of the plain data: an ordinary hand reads as before."""
    if data.get("run") == 0:
        del data["run"]
    return data


@dataclass(slots=True, repr=False, unsafe_hash=True)
class HandStarted(Event):
    variant: str
    betting: str
    button: int | None
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    kind: ClassVar[str] = "hand_started"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class Posted(Event):
    """A forced bet: ``what`` is ante, small_blind, big_blind, straddle, live (a posted big blind of a new or
    returning player) or dead (dead money that does not count toward the player's bet)."""

    seat: int
    amount: int
    what: str
    all_in: bool = False
    kind: ClassVar[str] = "posted"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class StreetStarted(Event):
    """A street begins. ``run`` is 0 normally; when the board is run twice (R-RIT) the remaining streets
    are started once per run, ``run`` 1 then 2."""

    index: int
    name: str
    run: int = 0
    kind: ClassVar[str] = "street_started"

    def to_dict(self) -> dict[str, Any]:
        return _without_run_zero(Event.to_dict(self))


@dataclass(slots=True, repr=False, unsafe_hash=True)
class CardsDealt(Event):
    """Cards dealt to one player; face-down cards are private to him."""

    seat: int
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]
    kind: ClassVar[str] = "cards_dealt"

    @property
    def audience(self) -> Audience:
        return Audience.PUBLIC if all(self.up) else Audience.SEAT

    def public_view(self) -> Event:
        return replace(self, cards=tuple(c if u else None for c, u in zip(self.cards, self.up, strict=True)))


@dataclass(slots=True, repr=False, unsafe_hash=True)
class Burned(Event):
    """One card was burned (which card is never told)."""

    kind: ClassVar[str] = "burned"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class BoardDealt(Event):
    """Community cards. ``run`` 0: the one board (or the part both runs share); 1 or 2: cards of that run
    of a board run twice (R-RIT)."""

    cards: tuple[Card, ...]
    run: int = 0
    kind: ClassVar[str] = "board_dealt"

    def to_dict(self) -> dict[str, Any]:
        return _without_run_zero(Event.to_dict(self))


@dataclass(slots=True, repr=False, unsafe_hash=True)
class ActionTaken(Event):
    """A betting action. ``amount`` is the chips added now, ``total`` the player's own bet after it."""

    seat: int
    action: str  # fold, check, call, bet, raise, complete, bring_in
    amount: int = 0
    total: int = 0
    all_in: bool = False
    kind: ClassVar[str] = "action"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class BetReturned(Event):
    """The uncalled part of a bet goes back to its owner (RULES.md §3.7)."""

    seat: int
    amount: int
    kind: ClassVar[str] = "bet_returned"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class RoundEnded(Event):
    """A betting round is over; ``pots`` are the main and side pots so far (RULES.md §3.8)."""

    pots: tuple[int, ...]
    kind: ClassVar[str] = "round_ended"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class Drew(Event):
    """A draw: everybody learns how many cards were exchanged, only the player which (R161)."""

    seat: int
    discarded: tuple[Card | None, ...]
    received: tuple[Card | None, ...]
    kind: ClassVar[str] = "drew"

    @property
    def audience(self) -> Audience:
        return Audience.SEAT

    def public_view(self) -> Event:
        n = len(self.received)
        return replace(self, discarded=(None,) * n, received=(None,) * n)


@dataclass(slots=True, repr=False, unsafe_hash=True)
class Discarded(Event):
    """Irish discard: the others only learn that the player has discarded (R156)."""

    seat: int
    cards: tuple[Card | None, ...]
    kind: ClassVar[str] = "discarded"

    @property
    def audience(self) -> Audience:
        return Audience.SEAT

    def public_view(self) -> Event:
        return replace(self, cards=(None,) * len(self.cards))


@dataclass(slots=True, repr=False, unsafe_hash=True)
class Reshuffled(Event):
    """The stub ran out; ``count`` earlier discards were shuffled into a new stub (R162)."""

    count: int
    kind: ClassVar[str] = "reshuffled"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class CardsShown(Event):
    """A hand turned face up: at showdown, or all-in exposure (``reason`` "all_in")."""

    seat: int
    cards: tuple[Card, ...]
    reason: str
    description: str = ""
    kind: ClassVar[str] = "cards_shown"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class Mucked(Event):
    """A hand mucked at showdown: seen by the players dealt in (last-hand window, R182), never observers."""

    seat: int
    cards: tuple[Card | None, ...]
    kind: ClassVar[str] = "mucked"

    @property
    def audience(self) -> Audience:
        return Audience.DEALT_IN

    def public_view(self) -> Event:
        return replace(self, cards=())


@dataclass(slots=True, repr=False, unsafe_hash=True)
class PotAwarded(Event):
    """One pot (or one half of a hi/lo pot) paid out. ``pot`` 0 is the main pot. ``run`` is 0 normally;
    with the board run twice each pot is paid in two parts, ``run`` 1 and 2, each on its own board."""

    pot: int
    amount: int
    rake: int
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    half: str  # "" for a whole pot, "high" or "low"
    description: str  # the winning hand, "" when uncontested
    run: int = 0
    kind: ClassVar[str] = "pot_awarded"

    def to_dict(self) -> dict[str, Any]:
        return _without_run_zero(Event.to_dict(self))


@dataclass(slots=True, repr=False, unsafe_hash=True)
class RunTwiceOffered(Event):
    """Betting is over with the board not complete: the players still in (``seats``) are asked, all at
    once, whether to run the rest of the board twice (R-RIT)."""

    seats: tuple[int, ...]
    kind: ClassVar[str] = "run_twice_offered"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class RunTwiceAnswered(Event):
    """A player answered (a timeout answers no)."""

    seat: int
    agree: bool
    kind: ClassVar[str] = "run_twice_answered"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class RunTwiceDecided(Event):
    """The board is run ``runs`` times (1: someone said no or timed out; 2: everybody agreed)."""

    runs: int
    kind: ClassVar[str] = "run_twice_decided"


@dataclass(slots=True, repr=False, unsafe_hash=True)
class HandEnded(Event):
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    net: tuple[int, ...]
    rake: int
    kind: ClassVar[str] = "hand_ended"

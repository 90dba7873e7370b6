"""Commands: everything a player (or the table on his behalf) can ask of a hand.

Amounts are "raise to" totals of the player's own bet for the current round (ARCHITECTURE.md). A bet,
a raise and the stud completion are all :class:`RaiseTo`. Every command converts to and from plain data
(``to_dict`` / :func:`command_from_dict`) for the journal and the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from pokerroom.cards import Card, NotationError, format_cards, parse_cards
from pokerroom.engine.errors import BadCommand, InvalidCards

__all__ = [
    "BringIn",
    "Call",
    "Check",
    "Command",
    "Discard",
    "Draw",
    "Fold",
    "Muck",
    "QuickFold",
    "RaiseTo",
    "RunTwice",
    "Show",
    "TimeOut",
    "command_from_dict",
]


@dataclass(frozen=True, slots=True)
class Command:
    seat: int
    kind: ClassVar[str] = "command"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat}

    def check(self) -> None:
        """Raise :class:`BadCommand` unless every field has its declared type (:class:`InvalidCards`
        for something in a card tuple that is not a card). A caller may build a command by hand with
        anything in it; the engine checks it before reading a field (its compiled modules would
        otherwise stop on the wrong type with a bare TypeError). Subclasses extend it."""
        _check_int(self.seat, "seat")


@dataclass(frozen=True, slots=True)
class Fold(Command):
    kind: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class Check(Command):
    kind: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class Call(Command):
    kind: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class RaiseTo(Command):
    """Bet, raise or complete to ``amount`` (the player's total own bet this round after the action)."""

    amount: int
    kind: ClassVar[str] = "raise_to"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "amount": self.amount}

    def check(self) -> None:
        Command.check(self)
        _check_int(self.amount, "amount")


@dataclass(frozen=True, slots=True)
class BringIn(Command):
    """Stud: post the bring-in instead of completing (RULES.md §4.5)."""

    kind: ClassVar[str] = "bring_in"


@dataclass(frozen=True, slots=True)
class Draw(Command):
    """Draw games: discard these cards (none = stand pat) and receive as many new ones."""

    discard: tuple[Card, ...] = ()
    kind: ClassVar[str] = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "cards": format_cards(self.discard)}

    def check(self) -> None:
        Command.check(self)
        _check_cards(self, self.discard, "discard")


@dataclass(frozen=True, slots=True)
class Discard(Command):
    """Irish: discard exactly two hole cards after the flop betting (RULES.md §5.2)."""

    cards: tuple[Card, ...] = ()
    kind: ClassVar[str] = "discard"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "cards": format_cards(self.cards)}

    def check(self) -> None:
        Command.check(self)
        _check_cards(self, self.cards, "cards")


@dataclass(frozen=True, slots=True)
class Show(Command):
    """Showdown: show a hand that is not shown automatically."""

    kind: ClassVar[str] = "show"


@dataclass(frozen=True, slots=True)
class Muck(Command):
    """Showdown: muck a hand that is not shown automatically."""

    kind: ClassVar[str] = "muck"


@dataclass(frozen=True, slots=True)
class RunTwice(Command):
    """Run it twice (R-RIT, docs/decisions.md): the player's answer, ``agree`` True to deal the rest of the
    board twice. Every player still in the hand must agree; one "no" means once."""

    agree: bool = False
    kind: ClassVar[str] = "run_twice"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "seat": self.seat, "agree": self.agree}

    def check(self) -> None:
        Command.check(self)
        if type(self.agree) is not bool:
            raise BadCommand("field 'agree' must be true or false")


@dataclass(frozen=True, slots=True)
class QuickFold(Command):
    """Rush: fold now, even before one's turn (RULES.md §8.5). Out of turn the fold stays hidden: the
    engine shows it when the action reaches the seat (R204)."""

    kind: ClassVar[str] = "quick_fold"


@dataclass(frozen=True, slots=True)
class TimeOut(Command):
    """The player's time ran out; the engine decides what that means (RULES.md R104, R153, R164)."""

    kind: ClassVar[str] = "timeout"


def _check_int(value: object, name: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadCommand(f"field {name!r} must be an integer")


def _check_cards(command: Command, value: object, name: str) -> None:
    if not isinstance(value, tuple):
        raise BadCommand(f"field {name!r} must be a tuple of cards")
    if not all(isinstance(c, Card) for c in value):
        raise InvalidCards(command.seat, command.kind, "the cards must be cards of your hand")


_SIMPLE: dict[str, type[Command]] = {
    cls.kind: cls for cls in (Fold, Check, Call, BringIn, Show, Muck, QuickFold, TimeOut)
}


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadCommand(f"field {key!r} must be an integer")
    return value


def _cards(data: Mapping[str, Any]) -> tuple[Card, ...]:
    value = data.get("cards", "")
    try:
        if isinstance(value, str):
            return parse_cards(value)
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return parse_cards(value)
    except NotationError as exc:
        raise BadCommand(f"field 'cards': {exc.reason}") from None
    raise BadCommand("field 'cards' must be a string of cards or a list of card strings")


def command_from_dict(data: object) -> Command:
    """Build a command from plain data; anything malformed raises :class:`BadCommand`."""
    if not isinstance(data, Mapping):
        raise BadCommand("a command must be an object")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise BadCommand("field 'type' must be a string")
    seat = _int(data, "seat")
    if kind in _SIMPLE:
        return _SIMPLE[kind](seat)
    if kind == RaiseTo.kind:
        return RaiseTo(seat, _int(data, "amount"))
    if kind == Draw.kind:
        return Draw(seat, _cards(data))
    if kind == Discard.kind:
        return Discard(seat, _cards(data))
    if kind == RunTwice.kind:
        agree = data.get("agree")
        if type(agree) is not bool:
            raise BadCommand("field 'agree' must be true or false")
        return RunTwice(seat, agree)
    raise BadCommand(f"unknown command type {kind[:40]!r}")

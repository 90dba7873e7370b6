"""The operator's commands as addressed messages: what the console asks of the room, typed.

Each command is a frozen dataclass with the :class:`~pokerroom.server.address.Address` of what it acts on
(a table, a pool, a tournament, or the room itself); it is a bus message (server/cluster/messages.py:
``encode`` / ``decode``, checked as every message between processes is), so it crosses a process
boundary unchanged. In one process :func:`pokerroom.server.operator.execute` runs it
on the room; a cluster's gateway sends it to the host that holds its address (docs/cluster.md). The
console (server/console/) builds commands and never reaches into the room to change it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, Self

from pokerroom.server.address import ROOM, Address
from pokerroom.server.cluster.messages import (
    KIND,
    BadMessage,
    Check,
    Message,
    _any,
    _bool,
    _int,
    _object,
    _on,
    _optional,
    _str,
)
from pokerroom.server.cluster.messages import decode as decode_message

__all__ = [
    "COMMANDS",
    "AddRecurring",
    "BadCommand",
    "CancelTournament",
    "CloseGame",
    "Command",
    "CommandDone",
    "CommandFailed",
    "CommandRefused",
    "EditRecurring",
    "EditTournament",
    "EndTournament",
    "HoldTable",
    "MessageTable",
    "OpenGame",
    "Outcome",
    "RemoveRecurring",
    "ResumeActor",
    "ScheduleTournament",
    "SetPromotions",
    "SetTournamentDeals",
    "decode",
]

GameKind = Literal["table", "pool"]


class CommandRefused(Exception):
    """A command that cannot be done: ``status`` (HTTP), ``code``, ``message``, ``details``."""

    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details


@dataclass(frozen=True)
class Outcome:
    """What a command did: the console's ``answer``, and for the audit log ``action`` on ``target`` with
    ``before`` and ``after`` (``action`` None: nothing to record)."""

    answer: dict[str, Any]
    action: str | None = None
    target: str = ""
    before: Any = None
    after: Any = None


class BadCommand(ValueError):
    """Bytes that are not an operator command (unknown kind, missing or wrong fields)."""


def _kind(*allowed: str) -> Check:
    def kind(value: Any) -> str:
        if value not in allowed:
            raise BadMessage(f"one of {', '.join(allowed)}, not {value!r}")
        return str(value)

    return kind


@dataclass(frozen=True, slots=True)
class Command(Message):
    """An operator's command: a bus message (server/cluster/messages.py) with an address."""

    @property
    def address(self) -> Address:
        return ROOM

    @classmethod
    def of(cls, obj: dict[str, Any]) -> Self:
        """As a bus message, but a field it does not have is refused: a command is done or not at all."""
        known = {f.metadata["wire"] for f in fields(cls)} | {KIND}
        unknown = sorted(set(obj) - known)
        if unknown:
            raise BadMessage(f"{cls.KIND}: unknown field(s) {', '.join(unknown)}")
        return super(Command, cls).of(obj)

    def encode(self) -> bytes:
        try:
            return Message.encode(self)
        except TypeError as exc:  # (an integer beyond 64 bits, say)
            raise BadCommand(f"{self.KIND}: its fields cannot be sent: {exc}") from None


@dataclass(frozen=True, slots=True)
class HoldTable(Command):
    """Pause a cash table after its hand (``held``), or let it deal again."""

    KIND: ClassVar[str] = "hold_table"
    table: str = field(metadata=_on("table", _str))
    held: bool = field(metadata=_on("held", _bool))

    @property
    def address(self) -> Address:
        return Address("table", self.table)


@dataclass(frozen=True, slots=True)
class MessageTable(Command):
    """A line from the operator in a cash table's chat."""

    KIND: ClassVar[str] = "message_table"
    table: str = field(metadata=_on("table", _str))
    text: str = field(metadata=_on("text", _str))

    @property
    def address(self) -> Address:
        return Address("table", self.table)


@dataclass(frozen=True, slots=True)
class CloseGame(Command):
    """Close a cash table or a pool after its hand, every player cashed out."""

    KIND: ClassVar[str] = "close_game"
    kind: GameKind = field(metadata=_on("kind", _kind("table", "pool")))
    ident: str = field(metadata=_on("ident", _str))

    @property
    def address(self) -> Address:
        return Address(self.kind, self.ident)


@dataclass(frozen=True, slots=True)
class ResumeActor(Command):
    """Let a table, pool or tournament that repeated errors suspended deal again (server/faults.py)."""

    KIND: ClassVar[str] = "resume_actor"
    kind: Literal["table", "pool", "tournament"] = field(
        metadata=_on("kind", _kind("table", "pool", "tournament"))
    )
    ident: str = field(metadata=_on("ident", _str))

    @property
    def address(self) -> Address:
        return Address(self.kind, self.ident)


@dataclass(frozen=True, slots=True)
class OpenGame(Command):
    """Open a cash table or a pool from the keys of the configuration file's ``[[table]]``/``[[pool]]``."""

    KIND: ClassVar[str] = "open_game"
    kind: GameKind = field(metadata=_on("kind", _kind("table", "pool")))
    fields: dict[str, Any] = field(default_factory=dict, metadata=_on("fields", _object))


@dataclass(frozen=True, slots=True)
class ScheduleTournament(Command):
    """Schedule a tournament from the fields of a ``[[tournament]]`` (``rush`` for a Rush tournament)."""

    KIND: ClassVar[str] = "schedule_tournament"
    fields: dict[str, Any] = field(default_factory=dict, metadata=_on("fields", _object))


@dataclass(frozen=True, slots=True)
class EditTournament(Command):
    """Replace a tournament nobody registered for by these fields (the same id)."""

    KIND: ClassVar[str] = "edit_tournament"
    tournament: str = field(metadata=_on("tournament", _str))
    fields: dict[str, Any] = field(default_factory=dict, metadata=_on("fields", _object))

    @property
    def address(self) -> Address:
        return Address("tournament", self.tournament)


@dataclass(frozen=True, slots=True)
class CancelTournament(Command):
    """Cancel a tournament that has not started, every buy-in and fee refunded."""

    KIND: ClassVar[str] = "cancel_tournament"
    tournament: str = field(metadata=_on("tournament", _str))

    @property
    def address(self) -> Address:
        return Address("tournament", self.tournament)


@dataclass(frozen=True, slots=True)
class EndTournament(Command):
    """End a running tournament, paid out by the interrupted-tournament rule (docs/tournaments.md)."""

    KIND: ClassVar[str] = "end_tournament"
    tournament: str = field(metadata=_on("tournament", _str))

    @property
    def address(self) -> Address:
        return Address("tournament", self.tournament)


@dataclass(frozen=True, slots=True)
class AddRecurring(Command):
    """Add a recurring series from the fields of a ``[[recurring]]`` (``rush`` for a Rush one)."""

    KIND: ClassVar[str] = "add_recurring"
    fields: dict[str, Any] = field(default_factory=dict, metadata=_on("fields", _object))


@dataclass(frozen=True, slots=True)
class EditRecurring(Command):
    """Replace a recurring series the console added by these fields (the same id; docs/console.md)."""

    KIND: ClassVar[str] = "edit_recurring"
    series: str = field(metadata=_on("series", _str))
    fields: dict[str, Any] = field(default_factory=dict, metadata=_on("fields", _object))


@dataclass(frozen=True, slots=True)
class RemoveRecurring(Command):
    """Remove a recurring series the console added: no new occurrence is announced (docs/console.md)."""

    KIND: ClassVar[str] = "remove_recurring"
    series: str = field(metadata=_on("series", _str))


@dataclass(frozen=True, slots=True)
class SetTournamentDeals(Command):
    """Allow or forbid deals at a tournament's final table (docs/tournaments.md); forbidding them ends
    a deal proposed and not yet made (play resumes)."""

    KIND: ClassVar[str] = "set_tournament_deals"
    tournament: str = field(metadata=_on("tournament", _str))
    allowed: bool = field(metadata=_on("allowed", _bool))

    @property
    def address(self) -> Address:
        return Address("tournament", self.tournament)


@dataclass(frozen=True, slots=True)
class SetPromotions(Command):
    """The room's promotions from the keys of the configuration file's ``[promotions]``."""

    KIND: ClassVar[str] = "set_promotions"
    fields: dict[str, Any] = field(default_factory=dict, metadata=_on("fields", _object))


@dataclass(frozen=True, slots=True)
class CommandDone(Message):
    """A command carried out on a cluster's host: its :class:`Outcome`, for the gateway that sent it (which
    records it in the audit log, once)."""

    KIND: ClassVar[str] = "command.done"
    answer: dict[str, Any] = field(metadata=_on("answer", _object))
    action: str | None = field(default=None, metadata=_on("action", _optional(_str)))
    target: str = field(default="", metadata=_on("target", _str))
    before: Any = field(default=None, metadata=_on("before", _any))
    after: Any = field(default=None, metadata=_on("after", _any))

    @classmethod
    def of_outcome(cls, o: Outcome) -> CommandDone:
        return cls(o.answer, o.action, o.target, o.before, o.after)

    def outcome(self) -> Outcome:
        return Outcome(self.answer, self.action, self.target, self.before, self.after)


@dataclass(frozen=True, slots=True)
class CommandFailed(Message):
    """A command a cluster's host refused (:class:`CommandRefused`), changing nothing."""

    KIND: ClassVar[str] = "command.failed"
    status: int = field(metadata=_on("status", _int))
    code: str = field(metadata=_on("code", _str))
    message: str = field(metadata=_on("message", _str))
    details: dict[str, Any] = field(default_factory=dict, metadata=_on("details", _object))

    @classmethod
    def of_refusal(cls, exc: CommandRefused) -> CommandFailed:
        return cls(exc.status, exc.code, exc.message, dict(exc.details))

    def refused(self) -> CommandRefused:
        return CommandRefused(self.status, self.code, self.message, **self.details)


COMMANDS: dict[str, type[Command]] = {
    c.KIND: c
    for c in (
        HoldTable,
        MessageTable,
        CloseGame,
        ResumeActor,
        OpenGame,
        ScheduleTournament,
        EditTournament,
        CancelTournament,
        EndTournament,
        SetTournamentDeals,
        AddRecurring,
        EditRecurring,
        RemoveRecurring,
        SetPromotions,
    )
}


def decode(data: bytes) -> Command:
    """The command ``encode`` made; :class:`BadCommand` for anything else (the bus's own checks)."""
    try:
        return decode_message(data, *COMMANDS.values())
    except BadMessage as exc:
        raise BadCommand(str(exc)) from None

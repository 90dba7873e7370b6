"""The operator's commands as addressed messages: what the console asks of the room, typed.

Each command is a frozen dataclass with the :class:`~pokerroom.server.address.Address` of what it acts on
(a table, a pool, a tournament, or the room itself) and a plain-data form (``encode`` / ``decode``) so it
can cross a process boundary unchanged. In one process :func:`pokerroom.server.operator.execute` runs it
on the room; a cluster's gateway sends it to the host that holds its address (docs/cluster.md). The
console (server/console/) builds commands and never reaches into the room to change it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar, Literal

import orjson

from pokerroom.server.address import ROOM, Address

__all__ = [
    "COMMANDS",
    "BadCommand",
    "CancelTournament",
    "CloseGame",
    "Command",
    "CommandRefused",
    "EditTournament",
    "HoldTable",
    "MessageTable",
    "OpenGame",
    "Outcome",
    "ResumeActor",
    "ScheduleTournament",
    "SetPromotions",
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
    """Bytes that are not an operator command (unknown name, missing or wrong fields)."""


@dataclass(frozen=True, slots=True)
class Command:
    NAME: ClassVar[str] = ""

    @property
    def address(self) -> Address:
        return ROOM

    def encode(self) -> bytes:
        try:
            return orjson.dumps({"command": self.NAME, **asdict(self)})
        except TypeError as exc:  # (an integer beyond 64 bits, say)
            raise BadCommand(f"{self.NAME}: its fields cannot be sent: {exc}") from None


@dataclass(frozen=True, slots=True)
class HoldTable(Command):
    """Pause a cash table after its hand (``held``), or let it deal again."""

    NAME: ClassVar[str] = "hold_table"
    table: str
    held: bool

    @property
    def address(self) -> Address:
        return Address("table", self.table)


@dataclass(frozen=True, slots=True)
class MessageTable(Command):
    """A line from the operator in a cash table's chat."""

    NAME: ClassVar[str] = "message_table"
    table: str
    text: str

    @property
    def address(self) -> Address:
        return Address("table", self.table)


@dataclass(frozen=True, slots=True)
class CloseGame(Command):
    """Close a cash table or a pool after its hand, every player cashed out."""

    NAME: ClassVar[str] = "close_game"
    kind: GameKind
    ident: str

    @property
    def address(self) -> Address:
        return Address(self.kind, self.ident)


@dataclass(frozen=True, slots=True)
class ResumeActor(Command):
    """Let a table, pool or tournament that repeated errors suspended deal again (server/faults.py)."""

    NAME: ClassVar[str] = "resume_actor"
    kind: Literal["table", "pool", "tournament"]
    ident: str

    @property
    def address(self) -> Address:
        return Address(self.kind, self.ident)


@dataclass(frozen=True, slots=True)
class OpenGame(Command):
    """Open a cash table or a pool from the keys of the configuration file's ``[[table]]``/``[[pool]]``."""

    NAME: ClassVar[str] = "open_game"
    kind: GameKind
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ScheduleTournament(Command):
    """Schedule a tournament from the fields of a ``[[tournament]]`` (``rush`` for a Rush tournament)."""

    NAME: ClassVar[str] = "schedule_tournament"
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class EditTournament(Command):
    """Replace a tournament nobody registered for by these fields (the same id)."""

    NAME: ClassVar[str] = "edit_tournament"
    tournament: str
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def address(self) -> Address:
        return Address("tournament", self.tournament)


@dataclass(frozen=True, slots=True)
class CancelTournament(Command):
    """Cancel a tournament that has not started, every buy-in and fee refunded."""

    NAME: ClassVar[str] = "cancel_tournament"
    tournament: str

    @property
    def address(self) -> Address:
        return Address("tournament", self.tournament)


@dataclass(frozen=True, slots=True)
class SetPromotions(Command):
    """The room's promotions from the keys of the configuration file's ``[promotions]``."""

    NAME: ClassVar[str] = "set_promotions"
    fields: dict[str, Any] = field(default_factory=dict)


COMMANDS: dict[str, type[Command]] = {
    c.NAME: c
    for c in (
        HoldTable,
        MessageTable,
        CloseGame,
        ResumeActor,
        OpenGame,
        ScheduleTournament,
        EditTournament,
        CancelTournament,
        SetPromotions,
    )
}

_TYPES: dict[str, tuple[type, ...]] = {"str": (str,), "bool": (bool,), "dict[str, Any]": (dict,)}


def decode(data: bytes) -> Command:
    """The command ``encode`` made; :class:`BadCommand` for anything else."""
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise BadCommand(f"not JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise BadCommand("a command is a JSON object")
    cls = COMMANDS.get(str(obj.pop("command", "")))
    if cls is None:
        raise BadCommand(f"unknown command; known: {', '.join(sorted(COMMANDS))}")
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in obj:
            raise BadCommand(f"{cls.NAME}: missing {f.name}")
        value = obj.pop(f.name)
        kinds = _TYPES.get(str(f.type))
        if kinds is not None and not isinstance(value, kinds):
            raise BadCommand(f"{cls.NAME}: {f.name} must be {f.type}")
        if str(f.type).startswith("Literal") or str(f.type) in ("GameKind",):
            if not isinstance(value, str):
                raise BadCommand(f"{cls.NAME}: {f.name} must be a string")
        values[f.name] = value
    if obj:
        raise BadCommand(f"{cls.NAME}: unknown field(s) {', '.join(sorted(obj))}")
    command = cls(**values)
    if isinstance(command, CloseGame | OpenGame) and command.kind not in ("table", "pool"):
        raise BadCommand(f"{cls.NAME}: kind is table or pool")
    if isinstance(command, ResumeActor) and command.kind not in ("table", "pool", "tournament"):
        raise BadCommand("resume_actor: kind is table, pool or tournament")
    return command

"""Every message between the processes of a cluster, typed (docs/cluster.md, "Messages").

Each kind of message is a frozen dataclass with ``encode() -> bytes`` and ``decode(data)``: code reads
typed attributes, never a dict. On the wire a message is a JSON object (orjson) with its kind under
``"k"`` and short field names (each field's ``wire`` name below). A message that cannot be read (not
JSON, another kind than expected, a field missing or of the wrong type) raises :class:`BadMessage`, a
kind nobody knows :class:`UnknownMessage`; the receiving side logs it and drops it (:func:`receive`).

The frames a host sends a gateway for its connections travel as one :class:`FrameBatch` per event-loop
tick, in a format of their own: each item's frame text is carried as it is, after a small header (the
connections it is for, and the frame's table, ``seq`` and type), so that a gateway routes the frames and
keeps each table's number without ever reading a frame.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, Self, TypeVar

import orjson

__all__ = [
    "KINDS",
    "PRESENCE",
    "RESOURCE_REQUESTS",
    "Answer",
    "BadMessage",
    "ClientAnswer",
    "ClientRequest",
    "ConsoleAnswer",
    "ConsoleQuestion",
    "DirectoryNews",
    "FrameBatch",
    "FrameItem",
    "GatewayBeat",
    "LastHandsAnswer",
    "LastHandsQuestion",
    "Listed",
    "Message",
    "NewTournament",
    "PlayerFrame",
    "PoolQuestion",
    "PresenceDown",
    "PresenceList",
    "PresenceSync",
    "PresenceUp",
    "Refresh",
    "Refusal",
    "TableQuestion",
    "TournamentAction",
    "TournamentQuestion",
    "UnknownMessage",
    "decode",
    "receive",
]

log = logging.getLogger("pokerroom.cluster")

KIND = "k"  # the wire key of every message's kind


class BadMessage(ValueError):
    """A bus message that cannot be read as the kind (or one of the kinds) expected."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class UnknownMessage(BadMessage):
    """A bus message of a kind this node does not know (or does not expect here)."""


# ------------------------------------------------------------------------------ field checks

Check = Callable[[Any], Any]


def _fail(what: str, value: Any) -> BadMessage:
    shown = repr(value)
    return BadMessage(f"{what}, not {shown[:60]}{'...' if len(shown) > 60 else ''}")


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise _fail("a string", value)
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail("an integer", value)
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail("true or false", value)
    return value


def _object(value: Any) -> dict[str, Any]:
    """A JSON object whose contents are another layer's (a lobby row, a summary, a configuration)."""
    if not isinstance(value, dict):
        raise _fail("an object", value)
    return value


def _any(value: Any) -> Any:
    return value


def _optional(check: Check) -> Check:
    def optional(value: Any) -> Any:
        return None if value is None else check(value)

    return optional


def _list(check: Check) -> Check:
    def items(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise _fail("a list", value)
        return tuple(check(v) for v in value)

    return items


def _mapping(check: Check) -> Check:
    def mapping(value: Any) -> dict[str, Any]:
        return {k: check(v) for k, v in _object(value).items()}

    return mapping


def _on(name: str, check: Check) -> dict[str, Any]:
    """A field's metadata: its name on the wire and how a received value is checked (and made typed). A
    field with a default may be left out of a message."""
    return {"wire": name, "check": check}


# --------------------------------------------------------------------------------- messages

M = TypeVar("M", bound="Message")


@dataclass(frozen=True, slots=True)
class Message:
    """A message on the bus (a subclass per kind; ``KIND`` is its name on the wire)."""

    KIND: ClassVar[str] = ""

    def encode(self) -> bytes:
        out: dict[str, Any] = {KIND: self.KIND}
        for name, wire, _, _ in _layout(type(self)):
            out[wire] = _plain(getattr(self, name))
        return orjson.dumps(out)

    @classmethod
    def decode(cls, data: bytes) -> Self:
        """The message in ``data``, which must be of this kind (else :class:`BadMessage`)."""
        return decode(data, cls)

    @classmethod
    def of(cls, obj: dict[str, Any]) -> Self:
        """The message from its decoded JSON object (its kind already checked)."""
        values: dict[str, Any] = {}
        for name, wire, check, required in _layout(cls):
            if wire not in obj:
                if required:
                    raise BadMessage(f"{cls.KIND}: no {wire!r} ({name})")
                continue
            try:
                values[name] = check(obj[wire])
            except BadMessage as exc:
                raise BadMessage(f"{cls.KIND}: {wire!r} ({name}) must be {exc.problem}") from None
        return cls(**values)


_LAYOUTS: dict[type[Message], tuple[tuple[str, str, Check, bool], ...]] = {}


def _layout(cls: type[Message]) -> tuple[tuple[str, str, Check, bool], ...]:
    """Each field of a kind of message: its name, its wire name, its check, and whether it is required."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = tuple(
            (
                f.name,
                f.metadata["wire"],
                f.metadata["check"],
                f.default is MISSING and f.default_factory is MISSING,
            )
            for f in fields(cls)
        )
    return layout


def _plain(value: Any) -> Any:
    """A field's value as JSON (a nested record as its own wire form)."""
    if isinstance(value, Listed | Refusal):
        return value.wire()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def decode(data: bytes, *kinds: type[M]) -> M:
    """The message in ``data``: one of ``kinds`` (a :class:`BadMessage` otherwise, never a KeyError)."""
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise BadMessage(f"not JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise _fail("a message is an object", obj)
    kind = obj.get(KIND)
    for cls in kinds:
        if kind == cls.KIND:
            return cls.of(obj)
    expected = ", ".join(c.KIND for c in kinds)
    raise UnknownMessage(f"a message of kind {kind!r} (expected {expected})")


def receive(data: bytes, *kinds: type[M], where: str) -> M | None:
    """The message in ``data`` (received on ``where``), or None when it cannot be read: logged, and
    dropped."""
    try:
        return decode(data, *kinds)
    except BadMessage as exc:
        log.warning("dropped a bad message on %s: %s", where, exc)
        return None


# ----------------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Listed:
    """One connection of a gateway's whole list: its id, its player (None: a watcher) and name."""

    conn: str
    player: str | None
    name: str

    def wire(self) -> list[Any]:
        return [self.conn, self.player, self.name]

    @classmethod
    def check(cls, value: Any) -> Listed:
        if not isinstance(value, list) or len(value) != 3:
            raise _fail("[connection, player, name]", value)
        return cls(_str(value[0]), _optional(_str)(value[1]), _str(value[2]))


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused request: the error's stable code, its message and its typed details."""

    code: str
    message: str
    details: Mapping[str, Any] = field(default_factory=dict)

    def wire(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": dict(self.details)}

    @classmethod
    def check(cls, value: Any) -> Refusal:
        obj = _object(value)
        if "code" not in obj or "message" not in obj:
            raise _fail("a refusal (code, message, details)", value)
        return cls(_str(obj["code"]), _str(obj["message"]), _object(obj.get("details", {})))


# ---------------------------------------------------------------------------------- presence


@dataclass(frozen=True, slots=True)
class PresenceUp(Message):
    """``<c>.presence``: a connection of ``gateway`` logged in as ``player``."""

    KIND: ClassVar[str] = "up"
    gateway: str = field(metadata=_on("g", _str))
    conn: str = field(metadata=_on("c", _str))
    player: str | None = field(metadata=_on("p", _optional(_str)))
    name: str = field(default="", metadata=_on("n", _str))


@dataclass(frozen=True, slots=True)
class PresenceDown(Message):
    """``<c>.presence``: a connection of ``gateway`` closed."""

    KIND: ClassVar[str] = "down"
    gateway: str = field(metadata=_on("g", _str))
    conn: str = field(metadata=_on("c", _str))


@dataclass(frozen=True, slots=True)
class PresenceList(Message):
    """``<c>.presence``: every connection of ``gateway``, made when its last connection id was ``last``
    (a host drops only the unlisted connections it learnt of before)."""

    KIND: ClassVar[str] = "list"
    gateway: str = field(metadata=_on("g", _str))
    conns: tuple[Listed, ...] = field(metadata=_on("cs", _list(Listed.check)))
    last: int = field(default=0, metadata=_on("last", _int))


PRESENCE: tuple[type[Message], ...] = (PresenceUp, PresenceDown, PresenceList)


@dataclass(frozen=True, slots=True)
class PresenceSync(Message):
    """``<c>.presence.sync``: a host asks the gateways for their lists (``for_gateway``: a gateway it did
    not know, which then also subscribes its watchers again on that host)."""

    KIND: ClassVar[str] = "sync"
    host: str = field(metadata=_on("h", _str))
    for_gateway: str | None = field(default=None, metadata=_on("for", _optional(_str)))


@dataclass(frozen=True, slots=True)
class GatewayBeat(Message):
    """``<c>.gw.hb``: a gateway is alive."""

    KIND: ClassVar[str] = "beat"
    gateway: str = field(metadata=_on("g", _str))


# --------------------------------------------------------------------------------- directory


@dataclass(frozen=True, slots=True)
class DirectoryNews(Message):
    """``<c>.dir``: what a host runs and its lobby rows, every second and on change.

    ``fences``: resource -> the fence it holds it under; ``tables``, ``pools``, ``tournaments``: the id of
    each table (pool, tournament) it runs -> its resource; the lobby rows are the HTTP API's, as the
    host's room makes them; ``paused`` and ``stopped``: its actors waiting for the store, or suspended;
    ``loads``: each resource's weight (server/cluster/balance.py); ``draining``: the host is stopping
    and hands its work out (nobody sends it more)."""

    KIND: ClassVar[str] = "dir"
    host: str = field(metadata=_on("h", _str))
    fences: Mapping[str, int] = field(metadata=_on("res", _mapping(_int)))
    tables: Mapping[str, str] = field(metadata=_on("tables", _mapping(_str)))
    pools: Mapping[str, str] = field(metadata=_on("pools", _mapping(_str)))
    tournaments: Mapping[str, str] = field(metadata=_on("tournaments", _mapping(_str)))
    lobby_tables: tuple[dict[str, Any], ...] = field(default=(), metadata=_on("lt", _list(_object)))
    lobby_pools: tuple[dict[str, Any], ...] = field(default=(), metadata=_on("lp", _list(_object)))
    lobby_tournaments: Mapping[str, tuple[dict[str, Any], ...]] = field(
        default_factory=dict, metadata=_on("ltn", _mapping(_list(_object)))
    )
    paused: tuple[str, ...] = field(default=(), metadata=_on("paused", _list(_str)))
    stopped: tuple[str, ...] = field(default=(), metadata=_on("stopped", _list(_str)))
    online: int = field(default=0, metadata=_on("online", _int))
    loads: Mapping[str, int] = field(default_factory=dict, metadata=_on("loads", _mapping(_int)))
    draining: bool = field(default=False, metadata=_on("draining", _bool))


# ----------------------------------------------------------------- requests to a resource's host


@dataclass(frozen=True, slots=True)
class ClientRequest(Message):
    """``<c>.res.<kind>.<id>``: a client message (its JSON text, validated by the gateway) from connection
    ``conn`` of ``gateway``, logged in as ``player`` (None: a watcher). Answered :class:`ClientAnswer`."""

    KIND: ClassVar[str] = "req"
    gateway: str = field(metadata=_on("g", _str))
    conn: str = field(metadata=_on("c", _str))
    player: str | None = field(metadata=_on("p", _optional(_str)))
    name: str = field(metadata=_on("n", _str))
    message: str = field(metadata=_on("m", _str))


@dataclass(frozen=True, slots=True)
class ClientAnswer(Message):
    """The answer to a :class:`ClientRequest`: the tables of the resource the connection watches now."""

    KIND: ClassVar[str] = "watching"
    tables: tuple[str, ...] = field(metadata=_on("tables", _list(_str)))


@dataclass(frozen=True, slots=True)
class TableQuestion(Message):
    """``GET /api/tables/{id}``, asked of the table's host. Answered :class:`Answer`."""

    KIND: ClassVar[str] = "q.table"
    table: str = field(metadata=_on("id", _str))


@dataclass(frozen=True, slots=True)
class PoolQuestion(Message):
    """A Rush pool's details as ``player`` sees them, asked of the pool's host. Answered :class:`Answer`."""

    KIND: ClassVar[str] = "q.pool"
    pool: str = field(metadata=_on("id", _str))
    player: str = field(metadata=_on("player", _str))


@dataclass(frozen=True, slots=True)
class TournamentQuestion(Message):
    """A tournament's details, asked of its host. Answered :class:`Answer`."""

    KIND: ClassVar[str] = "q.tournament"
    tournament: str = field(metadata=_on("id", _str))


@dataclass(frozen=True, slots=True)
class TournamentAction(Message):
    """A player's request about a tournament over HTTP (``action``: register, unregister, ...; ``flag``
    its option), done by its host. Answered :class:`Answer`."""

    KIND: ClassVar[str] = "q.tournament_request"
    tournament: str = field(metadata=_on("id", _str))
    action: str = field(metadata=_on("what", _str))
    player: str = field(metadata=_on("player", _str))
    name: str = field(metadata=_on("name", _str))
    flag: bool = field(metadata=_on("flag", _bool))


RESOURCE_REQUESTS: tuple[type[Message], ...] = (
    ClientRequest,
    TableQuestion,
    PoolQuestion,
    TournamentQuestion,
    TournamentAction,
)


@dataclass(frozen=True, slots=True)
class Answer(Message):
    """The answer to an HTTP question or an operator's command: ``value`` (JSON), or ``error``."""

    KIND: ClassVar[str] = "answer"
    value: Any = field(default=None, metadata=_on("ok", _any))
    error: Refusal | None = field(default=None, metadata=_on("err", _optional(Refusal.check)))


# --------------------------------------------------------------------------- questions to all


@dataclass(frozen=True, slots=True)
class LastHandsQuestion(Message):
    """``<c>.hosts.ask``: a player's last hands (``hand_id``: one of them). Answered
    :class:`LastHandsAnswer` by every host."""

    KIND: ClassVar[str] = "ask.last_hands"
    player: str = field(metadata=_on("p", _str))
    hand_id: str | None = field(default=None, metadata=_on("hand", _optional(_str)))


@dataclass(frozen=True, slots=True)
class LastHandsAnswer(Message):
    """One host's answer to :class:`LastHandsQuestion`: the rows of the ``last_hands`` list it has for the
    player, or the ``last_hand`` frame asked for (None: not on this host)."""

    KIND: ClassVar[str] = "last_hands"
    host: str = field(metadata=_on("h", _str))
    rows: tuple[dict[str, Any], ...] = field(default=(), metadata=_on("rows", _list(_object)))
    hand: dict[str, Any] | None = field(default=None, metadata=_on("hand", _optional(_object)))


@dataclass(frozen=True, slots=True)
class ConsoleQuestion(Message):
    """``<c>.gw.<g>.console``: what the console reads of the games every host runs (``what``: "games",
    their rows; "live", the dashboard's figures: server/console_views.py). Answered
    :class:`ConsoleAnswer` by every host."""

    KIND: ClassVar[str] = "ask.console"
    what: str = field(metadata=_on("what", _str))


@dataclass(frozen=True, slots=True)
class ConsoleAnswer(Message):
    """One host's answer to a :class:`ConsoleQuestion`: for what it holds."""

    KIND: ClassVar[str] = "console"
    host: str = field(metadata=_on("h", _str))
    value: Any = field(default=None, metadata=_on("v", _any))


@dataclass(frozen=True, slots=True)
class Refresh(Message):
    """``<c>.gw.<g>.refresh`` or ``<c>.host.all.refresh``: what the console changed is in the store (every
    host reads it again, server/room.py ``refresh_console``); ``reload``: a node read the configuration
    file again, so every host reads its own again too."""

    KIND: ClassVar[str] = "refresh"
    reload: bool = field(default=False, metadata=_on("reload", _bool))


@dataclass(frozen=True, slots=True)
class NewTournament(Message):
    """``<c>.hosts.admin``: an administrator's new tournament (its configuration as the schedule's file
    gives one, ``spec`` as sent), opened by one host. Answered :class:`Answer` (its summary)."""

    KIND: ClassVar[str] = "admin.tournament"
    config: Mapping[str, Any] = field(metadata=_on("config", _object))
    rush: bool = field(metadata=_on("rush", _bool))
    spec: Mapping[str, Any] = field(metadata=_on("spec", _object))


@dataclass(frozen=True, slots=True)
class PlayerFrame(Message):
    """``<c>.player``: a frame (its text, for the browser as it is) for every connection of ``player``."""

    KIND: ClassVar[str] = "player_frame"
    player: str = field(metadata=_on("p", _str))
    text: str = field(metadata=_on("t", _str))


# ------------------------------------------------------------------------------- frame batches

RS = "\x1e"  # between items (JSON escapes control characters: never in a frame's text or a header)
NL = "\n"  # between an item's header and its frame's text


def _is_str(value: object) -> bool:
    return value is None or type(value) is str


@dataclass(frozen=True, slots=True)
class FrameItem:
    """One frame's text for the connections ``conns`` of a gateway, with its headers: the frame's type, its
    table and its table's ``seq``, as its maker gave them (all None for a frame without a table number)."""

    text: str
    conns: tuple[str, ...]
    type: str | None = None
    table: str | None = None
    seq: int | None = None

    def header(self) -> str:
        return orjson.dumps([self.type, self.table, self.seq, self.conns]).decode()

    @classmethod
    def read(cls, part: str) -> FrameItem:
        """One item of a batch (a frame batch is read on every gateway for every frame: checked by hand)."""
        head, nl, text = part.partition(NL)
        if not nl:
            raise BadMessage("a frame batch item without its header")
        try:
            header = orjson.loads(head)
        except orjson.JSONDecodeError:
            raise BadMessage(f"a frame batch item's header is not JSON: {head[:60]!r}") from None
        if type(header) is not list or len(header) != 4:
            raise _fail("a frame batch item's header is [type, table, seq, connections]", header)
        kind, table, seq, conns = header
        if not (
            _is_str(kind)
            and _is_str(table)
            and (seq is None or type(seq) is int)
            and type(conns) is list
            and all(type(c) is str for c in conns)
        ):
            raise _fail("a frame batch item's header is [type, table, seq, connections]", header)
        return cls(text, tuple(conns), kind, table, seq)


@dataclass(frozen=True, slots=True)
class FrameBatch:
    """``<c>.gw.<gateway>``: the frames of one event-loop tick of a host for one gateway's connections,
    each text once with the list of connections it is for. ``host``: the host that sent it (a first line
    ``#<host>``), so that a gateway passes a table's frames on only from the host its directory names for
    the table: a host that lost a table (stopped, its lease taken over) and has not noticed yet is not
    heard by the players there."""

    items: tuple[FrameItem, ...]
    host: str | None = None

    def encode(self) -> bytes:
        parts = []
        for item in self.items:
            if RS in item.text:
                raise ValueError("a frame's text holds the batch separator (it is not a JSON frame)")
            parts.append(f"{item.header()}{NL}{item.text}")
        if self.host is None:
            return RS.join(parts).encode()
        if NL in self.host or RS in self.host:
            raise ValueError("a host id holds a line break or the batch separator")
        return f"#{self.host}{NL}{RS.join(parts)}".encode()

    @classmethod
    def decode(cls, data: bytes) -> FrameBatch:
        if not data:
            return cls(())
        try:
            text = data.decode()
        except UnicodeDecodeError:
            raise BadMessage("a frame batch is not UTF-8") from None
        host = None
        if text.startswith("#"):  # (an item starts with its JSON header: "[")
            first, _, text = text.partition(NL)
            host = first[1:]
            if not text:
                return cls((), host)
        return cls(tuple(FrameItem.read(part) for part in text.split(RS)), host)


KINDS: dict[str, type[Message]] = {
    cls.KIND: cls
    for cls in (
        PresenceUp,
        PresenceDown,
        PresenceList,
        PresenceSync,
        GatewayBeat,
        DirectoryNews,
        ClientRequest,
        ClientAnswer,
        TableQuestion,
        PoolQuestion,
        TournamentQuestion,
        TournamentAction,
        Answer,
        LastHandsQuestion,
        LastHandsAnswer,
        NewTournament,
        PlayerFrame,
        ConsoleQuestion,
        ConsoleAnswer,
        Refresh,
    )
}  # every kind of message by its name on the wire (besides :class:`FrameBatch`, which has its own format)

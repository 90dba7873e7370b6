"""The WebSocket protocol: every client message as a pydantic model (validation and JSON Schema).

Frames are JSON objects with a ``type``. Client messages are validated strictly (unknown fields, wrong
types and out-of-range values are refused with an ``error`` frame carrying a stable ``code``); the
server's messages are described in :mod:`pokerroom.server.frames`. See ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

__all__ = [
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "ClientMessage",
    "ProtocolError",
    "dumps",
    "parse_client",
]

PROTOCOL_VERSION = 2  # 2: one snapshot shape, Rush windows on event/turn, table_closed, error details
MAX_FRAME = 4096  # bytes; larger client frames are refused

TableId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Ref = Annotated[str | None, Field(default=None, max_length=64)]
CardText = Annotated[str, Field(pattern=r"^(10|[2-9TJQKAtjqka])[cdhsCDHS]$")]
Chips = Annotated[int, Field(ge=0, le=10**12)]
Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class ProtocolError(Exception):
    """A frame that is not a valid client message. ``code`` is stable; the message names the field."""

    def __init__(self, code: str, message: str, ref: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref  # the frame's ``ref`` when it had a usable one, so the client can match the error


def _ref_of(data: dict[str, Any]) -> str | None:
    ref = data.get("ref")
    return ref if isinstance(ref, str) and len(ref) <= 64 else None


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # no coercion: true is not seat 1
    ref: Ref = None


# ------------------------------------------------------------------------------------ client -> server


class Hello(_Msg):
    """Protocol version and, to log the socket in, the session token (or the cookie on connect; never the
    URL)."""

    type: Literal["hello"]
    version: Annotated[int, Field(ge=1, le=100)]
    token: Annotated[str | None, Field(default=None, max_length=200)] = None
    # Frames that are ready together may come as one WebSocket message, a JSON array of them (in order).
    batch: bool = False


class Subscribe(_Msg):
    """Watch a table (as a player if seated there, else as an observer): a ``snapshot`` follows."""

    type: Literal["subscribe"]
    table: TableId


class Unsubscribe(_Msg):
    type: Literal["unsubscribe"]
    table: TableId


class Sit(_Msg):
    """Take a seat with a buy-in from the wallet; ``post_now`` posts a big blind instead of waiting."""

    type: Literal["sit"]
    table: TableId
    seat: Annotated[int, Field(ge=1, le=10)]
    buy_in: Chips
    post_now: bool = False


class Leave(_Msg):
    type: Literal["leave"]
    table: TableId


class TopUp(_Msg):
    type: Literal["top_up"]
    table: TableId
    amount: Annotated[int, Field(ge=1, le=10**12)]


class SitOut(_Msg):
    type: Literal["sit_out"]
    table: TableId
    when: Literal["now", "next_hand", "next_bb"] = "now"


class SitIn(_Msg):
    type: Literal["sit_in"]
    table: TableId
    post_missed: bool = False


class Settings(_Msg):
    type: Literal["settings"]
    table: TableId
    auto_post: bool | None = None
    auto_muck: bool | None = None
    straddle: bool | None = None  # straddle when the table offers it (RULES.md §11.2)
    # top up to this stack between hands (0: off; issue 31, rooms/auto_top_up.py)
    auto_top_up: Annotated[int, Field(ge=0, le=10**12)] | None = None


class WaitingList(_Msg):
    type: Literal["waiting_list"]
    table: TableId
    join: bool


class AnswerPost(_Msg):
    """Auto-post off: answer a ``prompt`` to post a forced bet."""

    type: Literal["answer_post"]
    table: TableId
    accept: bool


class ChooseGame(_Msg):
    """Dealer's choice (RULES.md §11.1): answer a ``choose_game`` frame with the index of a game of its
    ``options``."""

    type: Literal["choose_game"]
    table: TableId
    game: int = Field(ge=0, le=99)


class Action(BaseModel):
    """A decision in the hand. Amounts are "raise to" totals; cards are for draws and the Irish discard;
    ``agree`` answers run it twice (``run_twice``: true to run the board twice)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # no coercion: true is not seat 1
    type: Literal[
        "fold", "check", "call", "raise_to", "bring_in", "draw", "discard", "run_twice", "show", "muck"
    ]
    amount: Chips | None = None
    cards: Annotated[list[CardText], Field(max_length=5)] | None = None
    agree: bool | None = None


class Act(_Msg):
    """``hand_id`` and ``action_no`` (the hand's ``action_no`` when the decision was offered) make a retry
    idempotent: the same action sent twice is applied once and acknowledged twice."""

    type: Literal["act"]
    table: TableId
    hand_id: Annotated[str, Field(min_length=1, max_length=64)]
    action_no: Annotated[int, Field(ge=0, le=10_000)]
    action: Action


class Chat(_Msg):
    type: Literal["chat"]
    table: TableId
    text: Annotated[str, Field(min_length=1, max_length=200)]


class LastHands(_Msg):
    """List the last hands (up to 50) of this login session, or one of them with ``hand_id``."""

    type: Literal["last_hands"]
    hand_id: Annotated[str | None, Field(default=None, max_length=64)] = None


class VerifyHand(_Msg):
    """Check the deck proof of one of your hands (docs/fairness.md): the answer is ``hand_verified``."""

    type: Literal["verify_hand"]
    hand_id: Annotated[str, Field(min_length=1, max_length=64)]


class Contribute(_Msg):
    """Your entropy for the next hand at ``table`` (docs/fairness.md): ``value``, 32 random bytes in hex,
    bound to ``seed``, the ``next_seed`` commitment you saw (``hand_started``, a snapshot)."""

    type: Literal["contribute"]
    table: TableId
    seed: Hex64
    value: Hex64


class Ping(_Msg):
    type: Literal["ping"]


# Rush pools (docs/protocol.md "Rush pools"): each entry is its own window, named by pool and number.
EntryNo = Annotated[int, Field(ge=1, le=4)]


class PoolJoin(_Msg):
    """Join a Rush pool with 1-4 entries, each bought in with ``buy_in`` from the wallet."""

    type: Literal["pool_join"]
    pool: TableId
    entries: EntryNo = 1
    buy_in: Chips


class PoolLeave(_Msg):
    """Leave with one entry (or all with ``entry`` omitted): at once between hands, else after the hand."""

    type: Literal["pool_leave"]
    pool: TableId
    entry: EntryNo | None = None


class QuickFold(_Msg):
    """Fold the entry's hand now (before its turn, when facing a bet) and move to a new table."""

    type: Literal["quick_fold"]
    pool: TableId
    entry: EntryNo


class PoolAct(_Msg):
    """A decision of one entry: as ``act``, with ``pool`` and ``entry`` instead of ``table``."""

    type: Literal["pool_act"]
    pool: TableId
    entry: EntryNo
    hand_id: Annotated[str, Field(min_length=1, max_length=64)]
    action_no: Annotated[int, Field(ge=0, le=10_000)]
    action: Action


# Tournaments (docs/protocol.md "Tournaments"): the same rules and codes as the HTTP endpoints.
TournamentId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class TournamentRegister(_Msg):
    """Register for a tournament: buy-in and fee from the wallet (or a satellite ticket with ``ticket``)
    to the prize pool and the house; answered with an ``ack`` (a sit-and-go starts when its last seat is
    taken) or an ``error``."""

    type: Literal["tournament_register"]
    tournament: TournamentId
    ticket: bool = False


class TournamentFollow(_Msg):
    """Follow a tournament's page (``follow``: true) or stop: its lobby chat's lines (``tournament_chat``)
    reach a follower as they reach its entrants; answered with an ``ack``."""

    type: Literal["tournament_follow"]
    tournament: TournamentId
    follow: bool = True


class TournamentChat(_Msg):
    """Say something in a tournament's lobby chat (as its ``lobby_chat`` allows: ``chat_off``,
    ``not_registered``); answered with an ``ack``."""

    type: Literal["tournament_chat"]
    tournament: TournamentId
    text: Annotated[str, Field(min_length=1, max_length=200)]


class TournamentUnregister(_Msg):
    """Unregister while registration is open: the whole buy-in comes back (to the ticket if one was
    used); answered with an ``ack`` or an ``error``."""

    type: Literal["tournament_unregister"]
    tournament: TournamentId


ClientMessage = Annotated[
    Hello
    | Subscribe
    | Unsubscribe
    | Sit
    | Leave
    | TopUp
    | SitOut
    | SitIn
    | Settings
    | WaitingList
    | AnswerPost
    | ChooseGame
    | Act
    | Chat
    | LastHands
    | VerifyHand
    | Contribute
    | Ping
    | PoolJoin
    | PoolLeave
    | QuickFold
    | PoolAct
    | TournamentRegister
    | TournamentUnregister
    | TournamentFollow
    | TournamentChat,
    Field(discriminator="type"),
]
_client = TypeAdapter(ClientMessage)


def parse_client(raw: str | bytes) -> BaseModel:
    """Validate one client frame; raise :class:`ProtocolError` with a stable code otherwise."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > MAX_FRAME:
        raise ProtocolError("frame_too_large", f"frames are limited to {MAX_FRAME} bytes")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ProtocolError("bad_json", "the frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    ref = _ref_of(data)
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", "a message needs a string field 'type'", ref)
    try:
        return _client.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()) if x != kind) or "message"
        if first.get("type") == "union_tag_invalid":
            raise ProtocolError("unknown_type", f"unknown message type {kind[:30]!r}", ref) from None
        raise ProtocolError("invalid_field", f"{where}: {first.get('msg', 'invalid')}"[:200], ref) from None


def dumps(message: dict[str, Any]) -> str:
    return orjson.dumps(message).decode()


CLIENT_MESSAGES: tuple[type[BaseModel], ...] = (
    Hello,
    Subscribe,
    Unsubscribe,
    Sit,
    Leave,
    TopUp,
    SitOut,
    SitIn,
    Settings,
    WaitingList,
    AnswerPost,
    ChooseGame,
    Act,
    Chat,
    LastHands,
    VerifyHand,
    Contribute,
    Ping,
    PoolJoin,
    PoolLeave,
    QuickFold,
    PoolAct,
    TournamentRegister,
    TournamentUnregister,
    TournamentFollow,
    TournamentChat,
)

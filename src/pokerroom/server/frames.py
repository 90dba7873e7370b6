"""Every frame the server sends, as a model: the source of docs/protocol.schema.json.

The server builds its frames as plain dicts (one ``orjson`` encoding per visibility class, for speed);
these models say exactly what each may hold, down to every engine event, decision and snapshot field, and
forbid anything else. The tests validate every frame a mixed session receives against the schema they
make (``tests/server/test_frames.py``). The engine's events are described from the engine's own event
classes, so the two cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model

from pokerroom.cards import Card
from pokerroom.engine import EngineError
from pokerroom.engine import events as engine_events
from pokerroom.rooms import errors as _table_errors  # noqa: F401  (their codes are in ERROR_CODES)
from pokerroom.server.errors import PROTOCOL_CODES, SERVER_CODES
from pokerroom.store import StoreError

__all__ = ["ERROR_CODES", "SERVER_MESSAGES", "EventModel"]

# A card as the viewer sees it ("??": one he may not see), and a card everybody sees.
SeenCard = Annotated[str, Field(pattern=r"^(\?\?|(10|[2-9TJQKA])[cdhs])$")]
ShownCard = Annotated[str, Field(pattern=r"^(10|[2-9TJQKA])[cdhs]$")]
SeatKey = Annotated[str, Field(pattern=r"^[1-9][0-9]?$")]  # a seat number as a JSON object key
Commitment = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]  # the deck proof's root, hex
_COMMITMENT = "the hand's deck commitment: the root of its per-position commitments, hex (docs/fairness.md)"
_NEXT_SEED = (
    "the commitment SHA-256(server seed) of the next hand's server seed here: answer with `contribute` "
    "(docs/fairness.md)"
)
_SEED_AT = "the table (or Rush pool) the next seed is for: the `table` of your `contribute`"


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------------------------------- events


def _wire_type(hint: Any) -> Any:
    """The JSON type of an engine event field (``Card`` is a card string; tuples are arrays)."""
    origin = typing.get_origin(hint)
    if hint is Card:
        return ShownCard
    if origin is tuple:
        (inner, _) = typing.get_args(hint)
        return list[_wire_type(inner)]  # type: ignore[misc]
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if args == [Card]:
            return SeenCard
        return _wire_type(args[0]) | None
    return hint


def _event_models() -> list[type[BaseModel]]:
    out: list[type[BaseModel]] = []
    for name in engine_events.__all__:
        cls = getattr(engine_events, name)
        if not (isinstance(cls, type) and issubclass(cls, engine_events.Event)) or cls is engine_events.Event:
            continue
        hints = typing.get_type_hints(cls)
        fields: dict[str, Any] = {"type": (Literal[cls.kind], ...)}
        for f in dataclasses.fields(cls):
            if f.name == "run":  # left out when 0 (the board is run once): docs/decisions.md, R-RIT
                fields[f.name] = (Literal[1, 2], Field(None, description="the run (R-RIT), when run twice"))
            else:
                fields[f.name] = (_wire_type(hints[f.name]), ...)
        if cls is engine_events.HandStarted:  # added by the table core (docs/fairness.md)
            fields["commitment"] = (Commitment | None, Field(None, description=_COMMITMENT))
            fields["next_seed"] = (Commitment | None, Field(None, description=_NEXT_SEED))
            fields["seed_at"] = (str | None, Field(None, description=_SEED_AT))
        model = create_model(
            f"{name}Event", __config__=ConfigDict(extra="forbid"), __doc__=cls.__doc__ or name, **fields
        )
        out.append(model)
    return out


_EVENTS = _event_models()
if typing.TYPE_CHECKING:  # (a union made at run time from the engine's classes: opaque to mypy)
    EventModel = dict[str, Any]
else:
    EventModel = Annotated[Union[tuple(_EVENTS)], Field(discriminator="type")]  # noqa: UP007


# ---------------------------------------------------------------------------------------- decisions


class BetDecision(_Frame):
    """Bet, call, check, fold or raise. ``raise`` is "bet", "raise", "complete" (stud) or "" (none);
    pot and no limit: any raise-to from ``min_to`` to ``max_to``; fixed limit: only ``choices``.
    ``bring_in`` > 0: the stud bring-in player must bring in or complete."""

    kind: Literal["bet"]
    seat: int
    fold: bool
    check: bool
    call: int
    to_call: int
    raise_: Literal["bet", "raise", "complete", ""] = Field(alias="raise")
    min_to: int
    max_to: int
    choices: list[int]
    bring_in: int
    stack: int
    bet: int


class DrawDecision(_Frame):
    """Draw: discard up to ``max_discard`` cards (none: stand pat)."""

    kind: Literal["draw"]
    seat: int
    max_discard: int


class DiscardDecision(_Frame):
    """Irish: the ``seats`` discard exactly ``count`` cards, all at the same time."""

    kind: Literal["discard"]
    seats: list[int]
    count: int


class RunTwiceDecision(_Frame):
    """Run it twice (R-RIT): the ``seats`` (every player still in) answer at the same time whether to deal
    the rest of the board twice; one "no" (or a timeout) means once."""

    kind: Literal["run_twice"]
    seats: list[int]


class ShowDecision(_Frame):
    """Showdown: show or muck a hand that is not shown automatically."""

    kind: Literal["show"]
    seat: int


_Decisions = BetDecision | DrawDecision | DiscardDecision | RunTwiceDecision | ShowDecision
Decision = Annotated[_Decisions, Field(discriminator="kind")]


# ----------------------------------------------------------------------------------------- snapshot


class Stakes(_Frame):
    small_blind: int
    big_blind: int
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    chip_unit: int


class SeatView(_Frame):
    """An occupied seat. ``player`` is null at a Rush table for the other entries (names only)."""

    player: str | None
    name: str
    stack: int
    status: Literal["playing", "sitting_out", "waiting_bb", "leaving"]
    markers: list[Literal["ML", "MS"]]
    time_bank: float


class HandPlayer(_Frame):
    """One player dealt into the hand, as this viewer sees him: his own cards, face-up stud cards and
    shown hands only (the others are "??"); ``up`` says which cards were dealt face up."""

    stack: int
    bet: int
    paid: int
    folded: bool
    all_in: bool
    cards: list[SeenCard]
    up: list[bool]
    shown: bool


class HandView(_Frame):
    """The hand in progress. ``decision`` is there when it is the viewer's to make; ``to_act`` names the
    betting seat otherwise. ``pots``: as the last ``round_ended`` gave them (the round's bets apart)."""

    hand_id: str
    variant: str
    betting: Literal["FL", "PL", "NL"]
    button: int | None
    board: list[ShownCard]
    board2: list[ShownCard] | None = Field(None, description="run 2's whole board, when run twice (R-RIT)")
    street: str
    phase: Literal["betting", "draw", "discard", "run_twice", "showdown", "done"]
    pots: list[int]
    players: dict[SeatKey, HandPlayer]
    action_no: int
    waiting_for: list[int]
    over: bool
    decision: Decision | None = None
    to_act: int | None = None
    commitment: Commitment | None = Field(None, description=_COMMITMENT)
    next_seed: Commitment | None = Field(None, description=_NEXT_SEED)
    seed_at: str | None = Field(None, description=_SEED_AT)


class ClockView(_Frame):
    action_left: float
    bank_left: float


class BuyInRange(_Frame):
    min: int
    max: int  # 0: no maximum


class ChoosingPart(_Frame):
    """Dealer's choice pending (RULES.md §11.1): who chooses, from which games (labels, the mix's order)."""

    seat: int
    player: str
    options: list[str]
    default: int
    expires_in: float | None


class MixGamePart(_Frame):
    variant: str
    betting: str
    label: str
    name: str


class MixPart(_Frame):
    """A mixed table's rotation (RULES.md §11.1; rooms/view.py ``mix_view``)."""

    code: str
    name: str
    game: str
    betting: str
    game_label: str
    next_game: str
    next_betting: str
    next_label: str
    hands_left: int
    round_hands: int
    index: int
    games: list[MixGamePart]
    dealers_choice: bool = False
    choosing: ChoosingPart | None = None


class CashPart(_Frame):
    buy_in: BuyInRange
    waiting_list: int
    # RULES.md §11.2: the table's options (docs/configuration.md) and the viewer's own straddle choice
    straddle: Literal["off", "utg", "mississippi"] = "off"
    bomb_pot_every: int = 0
    bomb_pot_ante: int = 0
    next_bomb_pot: bool = False
    straddling: bool = False
    mix: MixPart | None = None
    auto_top_up: int = 0  # the viewer's own auto top-up target (0: off), docs/protocol.md "settings"


class Level(_Frame):
    number: int
    small_blind: int
    big_blind: int
    ante: int
    small_bet: int
    big_bet: int
    next_level_in: float
    next_break_in: float | None
    in_break: bool


class TournamentMixPart(_Frame):
    """A mixed tournament's rotation (RULES.md §11.1, R251; rooms/tournament/mixed.py): the game of the
    level in force and of the next level."""

    code: str
    name: str
    game: str
    betting: str
    game_label: str
    next_game: str
    next_betting: str
    next_label: str
    index: int
    games: list[MixGamePart]


class TournamentPart(_Frame):
    tournament: str
    number: int
    level: Level | None
    bounties: dict[str, int] | None = None  # a bounty tournament: each seat's bounty (RULES.md §11.3)
    mix: TournamentMixPart | None = None  # a mixed tournament: the game now and next


class RushPart(_Frame):
    pool: str
    entry: int
    quick_fold: bool
    can_quick_fold: bool


class TableState(_Frame):
    """The whole table as the viewer may see it: one shape for every kind of table, with the part of
    its kind (the other two are null)."""

    kind: Literal["cash", "tournament", "rush"]
    table: str
    name: str
    variant: str
    variant_name: str
    betting: Literal["FL", "PL", "NL"]
    currency: str
    stakes: Stakes
    seats: int
    players: dict[SeatKey, SeatView]
    you: int | None
    button: int | None
    hand: HandView | None
    clocks: dict[SeatKey, ClockView]
    cash: CashPart | None
    tournament: TournamentPart | None
    rush: RushPart | None
    paused: bool = False  # the table waits for the room's store, or for its staff after repeated errors


# ------------------------------------------------------------------------------------------ frames

Pool = Annotated[str | None, Field(description="Rush windows: the pool")]
Entry = Annotated[int | None, Field(ge=1, le=4, description="Rush windows: the entry")]


class PlayerRef(_Frame):
    id: str
    name: str


class Welcome(_Frame):
    type: Literal["welcome"]
    version: int
    player: PlayerRef | None
    batch: bool  # frames ready together come as one message, a JSON array (asked for in ``hello``)


class Snapshot(_Frame):
    """The table as the viewer may see it: on ``subscribe``, after a tournament table's seats changed,
    and to a Rush entry's window when its player reconnects (with ``pool`` and ``entry``)."""

    type: Literal["snapshot"]
    table: str
    seq: int
    state: TableState
    pool: Pool = None
    entry: Entry = None


class EventMsg(_Frame):
    """One engine event of the current hand, projected for the viewer (hidden cards are ``"??"``)."""

    type: Literal["event"]
    table: str
    seq: int
    hand_id: str
    event: EventModel
    pool: Pool = None
    entry: Entry = None


class Turn(_Frame):
    """A decision started. ``decision`` is set only in the copy sent to the player who decides (each
    seat of a simultaneous Irish discard gets its own ``turn``); everyone gets the clock. In a Rush
    window ``can_quick_fold`` tells whether the entry may Quick Fold now."""

    type: Literal["turn"]
    table: str
    seq: int
    hand_id: str
    action_no: int
    seat: int
    action_left: float
    bank_left: float
    decision: Decision | None
    pool: Pool = None
    entry: Entry = None
    can_quick_fold: bool | None = None


class SeatMsg(_Frame):
    type: Literal["seat"]
    table: str
    seq: int
    seat: int
    player: str | None
    name: str
    stack: int
    status: Literal["empty", "playing", "sitting_out", "waiting_bb", "leaving"]
    markers: list[Literal["ML", "MS"]]


class ChatMsg(_Frame):
    """Chat; ``from`` is a player name or ``"dealer"`` (pot announcements, R181). Text is escaped."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    type: Literal["chat"]
    table: str
    seq: int
    sender: str = Field(alias="from")
    text: str
    line: int | None = None  # the line's number in the chat log (a player reports it by this number)
    muted: bool = False  # a line of a player the viewer muted: no text (docs/integrity.md)


class Moved(_Frame):
    table: str
    seat: int


class TableClosed(_Frame):
    """The table closed (``broken``: a tournament table broken up; ``finished``: the tournament is over;
    ``closed``: the operator closed it). ``moved_to``: where the viewer's player plays now, if anywhere.
    The watcher is unsubscribed."""

    type: Literal["table_closed"]
    table: str
    seq: int
    reason: Literal["broken", "finished", "closed"]
    moved_to: Moved | None
    pool: Pool = None
    entry: Entry = None


class TableStatus(_Frame):
    """The table stopped because the room lost its store (``paused``: no decision times out, actions
    are refused ``store_unavailable``), or plays again (``playing``: the pending decisions start their
    clocks afresh). In a Rush window it carries ``pool`` and ``entry``."""

    type: Literal["table_status"]
    table: str
    seq: int
    status: Literal["paused", "playing"]
    reason: str | None
    pool: Pool = None
    entry: Entry = None


class Offer(_Frame):
    type: Literal["offer"]
    table: str
    seat: int
    expires_in: float


class Prompt(_Frame):
    type: Literal["prompt"]
    table: str
    seat: int
    amount: int
    what: Literal["small_blind", "big_blind", "live", "dead", "ante"]
    expires_in: float


class ChooseGameFrame(_Frame):
    """Dealer's choice (RULES.md §11.1): pick the next round's game (``choose_game`` with its index)."""

    type: Literal["choose_game"]
    table: str
    seat: int
    options: list[str]
    default: int
    expires_in: float


class Balance(_Frame):
    type: Literal["balance"]
    currency: str
    amount: int


class Ack(_Frame):
    type: Literal["ack"]
    ref: str | None
    duplicate: bool = False


def _error_codes() -> list[str]:
    codes: set[str] = set(SERVER_CODES) | set(PROTOCOL_CODES)

    def walk(cls: type) -> None:
        sub: type
        for sub in cls.__subclasses__():
            code = sub.__dict__.get("code")
            if isinstance(code, str):
                codes.add(code)
            walk(sub)

    for base in (EngineError, StoreError):
        codes.add(base.code)
        walk(base)
    return sorted(codes)


ERROR_CODES: tuple[str, ...] = tuple(_error_codes())


class Error(_Frame):
    """A refusal: a stable ``code`` (docs/protocol.md lists them all), a ``message`` for people, the
    request's ``ref``, and the error's typed fields in ``details`` (e.g. ``minimum`` and ``maximum`` of
    an amount out of range)."""

    type: Literal["error"]
    code: Literal[ERROR_CODES]  # type: ignore[valid-type]
    message: str
    ref: str | None = None
    details: dict[str, Any] = Field(default_factory=dict)


class Pong(_Frame):
    type: Literal["pong"]
    ref: str | None = None


class LastHandRow(_Frame):
    hand_id: str
    table: str
    started_at: str
    variant: str
    seat: int | None


class LastHandsList(_Frame):
    type: Literal["last_hands"]
    hands: list[LastHandRow]


_PROOF = (
    "the deck proof for this player (docs/fairness.md): canonical JSON with the root, every position's "
    "leaf, and the openings [position, card, salt] of the cards he may see only"
)


class Proof(_Frame):
    """A hand's deck proof for one player (docs/fairness.md): the root published at its start
    (``commitment``) and his proof (``proof``: the openings of the cards he may see, R184)."""

    commitment: Commitment
    proof: str = Field(description=_PROOF)


class LastHand(_Frame):
    """One of the player's last hands, with every card that was shown or mucked at its showdown, and
    its deck proof when the player was dealt in."""

    type: Literal["last_hand"]
    hand_id: str
    table: str
    seat: int | None
    players: dict[SeatKey, str]
    events: list[EventModel]
    proof: Proof | None = None


class DeckRevealed(_Frame):
    """A hand is over: its deck proof, to every player dealt in (never to observers, never before the
    hand is over). See docs/fairness.md."""

    type: Literal["deck_revealed"]
    table: str
    hand_id: str
    commitment: Commitment
    proof: str = Field(description=_PROOF)


class HandVerified(_Frame):
    """Answer to ``verify_hand``: ``ok`` when the deck proof holds; ``problems`` say exactly what
    differs, ``notes`` what could not be checked, ``checked`` how many dealt cards were compared."""

    type: Literal["hand_verified"]
    ref: str | None = None
    hand_id: str
    ok: bool
    problems: list[str]
    notes: list[str]
    checked: int
    commitment: str


class PoolJoined(_Frame):
    """Answer to ``pool_join``: the numbers of the new entries."""

    type: Literal["pool_joined"]
    pool: str
    entries: list[int]
    ref: str | None = None


class PoolEntry(_Frame):
    """An entry's state in the pool: ``waiting`` for its next table, or ``left`` the pool."""

    type: Literal["pool_entry"]
    pool: str
    entry: int
    status: Literal["waiting", "left"]
    stack: int


class PoolPlayer(_Frame):
    name: str


class PoolStakes(_Frame):
    small_blind: int
    big_blind: int


class PoolMove(_Frame):
    """The entry was dealt a hand at a new table: the window shows it (``players``: seat -> name;
    ``stacks``: seat -> stack at the start of the hand). The table's ``event`` and ``turn`` frames follow,
    with ``pool`` and ``entry``."""

    type: Literal["pool_move"]
    pool: str
    entry: int
    table: str
    seq: int
    hand_id: str
    seat: int
    seats: int
    players: dict[SeatKey, PoolPlayer]
    button: int | None
    stacks: dict[SeatKey, int]
    stakes: PoolStakes
    quick_fold: bool


class TournamentSeat(_Frame):
    """You sit at this tournament table now (the start, a move by balancing or a broken table, or on
    reconnecting): subscribe to it to play."""

    type: Literal["tournament_seat"]
    tournament: str
    table: str
    seat: int


class TournamentStatus(_Frame):
    """A tournament you entered is over (``finished``) or was ``cancelled`` (buy-ins refunded)."""

    type: Literal["tournament_status"]
    tournament: str
    status: Literal["finished", "cancelled"]


class TournamentChatFrame(_Frame):
    """A line of a tournament's lobby chat (docs/tournaments.md, "Lobby chat"), to its entrants and its
    page's followers: ``from`` (a name), ``text`` (escaped, the filtered words masked), ``line`` (its
    number in the chat log, to report it), ``muted: true`` (a line of a player the reader muted: no text)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    type: Literal["tournament_chat"]
    tournament: str
    sender: str = Field(alias="from")
    text: str
    line: int | None = None
    muted: bool | None = None


class TournamentDeal(_Frame):
    """A deal at the final table (RULES.md §11.3, docs/tournaments.md): ``proposed`` by ``player`` (the
    tournament pauses at the end of the hand in progress), ``offered`` (each of ``players``, by name,
    biggest stack first, is paid ``amounts``; ``keep`` stays to be played for; every one answers before
    ``deadline``, ``expires_in`` seconds from now; ``figures``: both methods' amounts, to compare),
    ``accepted`` by ``player``, ``closed`` (``made``, or not: ``reason`` refused by ``player``, timeout,
    void)."""

    type: Literal["tournament_deal"]
    tournament: str
    state: Literal["proposed", "offered", "accepted", "closed"]
    method: Literal["icm", "chip_chop"] | None = None
    player: str | None = None
    keep: int | None = None
    players: list[str] | None = None
    stacks: list[int] | None = None
    amounts: list[int] | None = None
    figures: dict[str, list[int] | None] | None = None
    deadline: str | None = None
    expires_in: float | None = None
    made: bool | None = None
    reason: Literal["accepted", "refused", "timeout", "void"] | None = None


SERVER_MESSAGES: tuple[type[BaseModel], ...] = (
    Welcome,
    Snapshot,
    EventMsg,
    Turn,
    SeatMsg,
    ChatMsg,
    TableClosed,
    TableStatus,
    Offer,
    Prompt,
    ChooseGameFrame,
    Balance,
    Ack,
    Error,
    Pong,
    LastHandsList,
    LastHand,
    DeckRevealed,
    HandVerified,
    PoolJoined,
    PoolEntry,
    PoolMove,
    TournamentSeat,
    TournamentStatus,
    TournamentDeal,
    TournamentChatFrame,
)

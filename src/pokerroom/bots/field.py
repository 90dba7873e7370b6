"""Fast planted fields (issue 30): 6-max no-limit hold'em tables played without the server, the store or
an event loop, for the integrity detectors' benchmark at the issue's sizes (50-500 players, 20,000-200,000
hands).

What is the room's here, and not a copy of it:

- **the table**: :class:`~pokerroom.rooms.CashTable` (seats, buy-ins, button, blinds, missed blinds,
  rake, the action clock, the pause between hands) dealing with the room's randomness
  (:class:`~pokerroom.server.fairdeal.DealingRandom`: decks from the fair dealer's seeds; no player
  contributes, as a client that sends nothing) and the room's deck seals
  (:class:`~pokerroom.server.fairness.Seals`), so ``hand_started`` carries its commitment and the audit
  history its deck proof;
- **the wire**: every engine event, ``turn`` and ``seat`` frame goes through the table core
  (:class:`~pokerroom.server.core.TableCore`: the projection of each event for each seat, as JSON text)
  and is decoded and handed to the bot, as a socket hands it; the snapshot a bot gets when it looks at
  the table is :func:`~pokerroom.rooms.view.table_view`, as the room's;
- **the bots**: each player is a real :class:`~pokerroom.bots.client.BotClient` (never connected): its own
  event handling keeps its cards and board (``_on_event``), its ``on_event`` hook sees every frame (the
  planted bots' watches: :class:`~pokerroom.bots.dumping.Watch`, :class:`~pokerroom.bots.planted.InHand`),
  and its :meth:`~pokerroom.bots.client.BotClient.view` builds the :class:`~pokerroom.bots.strategies.BotView`
  of each decision. So :func:`pokerroom.bots.planted.plant` and :func:`pokerroom.bots.cardshare.plant_sharers`
  give the planted players their roles here exactly as in the room;
- **the history**: each hand's audit PHH is the room's writer's
  (:func:`~pokerroom.server.history_glue.histories_of`, with the deck proof): what ``store.audit_hands``
  gives the detectors.

What differs: the strategy decides at once on this thread (a heavy one is not sent to a worker thread, so a
seed gives the same hands every time) and the exact heads-up hold'em equities it asks for
(``HandStrength.strength``: every one of them is an exact enumeration) are remembered while a field plays,
up to a relabelling of the suits (:class:`ExactEquities`: the same numbers, computed once), the bot's
wait before acting (``think``, drawn from its generator as the bot draws it) moves the table's virtual
clock instead of being slept, and the journal's times are
those of that clock (each decision's time: the wait from the previous command of the hand, or its start,
as ``store.hand_times.decisions`` reads them). Nothing is booked: the buy-ins and top-ups are counted
(:attr:`FastField.paid_in`) to check that the chips are conserved. Players stay seated for the whole
field, as the room's bots do: a bot that loses its stack tops up by the table's minimum buy-in and sits
in again posting what it missed (``BotClient._on_seat``); no other top-up. The dealer's chat lines and the
deck openings sent after a hand (which no bot reads) are not made.

Tables play one at a time, the one whose clock is earliest first, so the hands come out about in the
order of their start, as the store orders them.
"""

from __future__ import annotations

import contextlib
import heapq
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

import orjson

from pokerroom.bots import strategies
from pokerroom.bots.client import BotClient
from pokerroom.bots.strategies import STRATEGIES
from pokerroom.engine import EngineError
from pokerroom.engine.events import HandStarted
from pokerroom.eval import equity
from pokerroom.rooms import (
    BuyIn,
    CashTable,
    HandEvents,
    HandFinished,
    HandSettlement,
    SeatChanged,
    TableConfig,
    TableError,
    Timing,
    TopUp,
    TurnClock,
)
from pokerroom.rooms.view import table_view
from pokerroom.server.clock import ManualClock
from pokerroom.server.core import TableCore, Watch
from pokerroom.server.demo import demo_tables
from pokerroom.server.errors import Refused
from pokerroom.server.fairdeal import DealingRandom
from pokerroom.server.fairness import DeckSeal, Seals
from pokerroom.server.history_glue import histories_of

__all__ = ["EQUITIES", "FIELD_TIMING", "ExactEquities", "FastField", "FieldHand", "field_table"]

# The planted-table harness's timing (tests/server/planted_room.py: TIMING): 10 s to act, no time bank.
FIELD_TIMING = Timing(action=10.0, time_bank=0.0, between_hands=0.5, disconnect_grace=5)
START = ManualClock().now()  # the virtual clock's start: the planted-table harness's (its EPOCH)


def field_table(index: int, *, prefix: str = "bench", timing: Timing = FIELD_TIMING) -> TableConfig:
    """The ``index``-th table of a field: the room's demo no-limit hold'em table (6-max, blinds 10/20,
    buy-in 800-2,000, rake 5 % up to 60), named as the planted-table harness names its tables."""
    demo = demo_tables(timing, games=("holdem",))[0]
    return replace(demo, table_id=f"{prefix}-{index}", name=f"Bench {index}")


class ExactEquities:
    """``pokerroom.eval.equity`` for the strategies, remembering the exact heads-up hold'em results: an
    exact enumeration gives the same numbers every time (the seed is unused), and the same numbers for
    hands and board whose suits are relabelled, so each such deal is enumerated once. Anything else (a
    sampled result, other games, more hands, dead cards) is computed each time."""

    def __init__(self, real: Callable[..., Any], limit: int = 2_000_000) -> None:
        self.real = real
        self.limit = limit
        self.known: dict[tuple[str, ...], Any] = {}
        self.hits = 0

    def __call__(self, game: Any, hands: Any, board: Any = (), *args: Any, **kw: Any) -> Any:
        if game != "holdem" or len(hands) != 2 or args or kw.get("dead") or kw.get("exact") is not None:
            return self.real(game, hands, board, *args, **kw)
        key = _canonical(hands, board)
        found = self.known.get(key)
        if found is not None:
            self.hits += 1
            return found
        result = self.real(game, hands, board, *args, **kw)
        if result.exact:
            if len(self.known) >= self.limit:
                self.known.clear()
            self.known[key] = result
        return result


def _canonical(hands: Sequence[Sequence[Any]], board: Sequence[Any]) -> tuple[str, ...]:
    """The deal with its suits renamed in the order they first appear (each hand and the board sorted
    first): two deals with one key differ only by the suits' names and the cards' order."""
    parts = [sorted(str(c) for c in h) for h in hands] + [sorted(str(c) for c in board)]
    names: dict[str, str] = {}
    out = []
    for part in parts:
        cards = []
        for c in part:
            if c[-1] not in names:
                names[c[-1]] = "wxyz"[len(names)]
            cards.append(c[:-1] + names[c[-1]])
        out.append(" ".join(sorted(cards)))
    return tuple(out)


EQUITIES = ExactEquities(equity)  # (one per process: every field it plays reads the same numbers)


@contextlib.contextmanager
def _remembered_equities() -> Iterator[ExactEquities]:
    real = strategies.__dict__["equity"]  # (the name the strategies call: pokerroom.eval's equity)
    strategies.__dict__["equity"] = EQUITIES
    try:
        yield EQUITIES
    finally:
        strategies.__dict__["equity"] = real


class _SeededSeals(Seals):
    """The room's seals, with each deck proof's salts drawn from the field's seeded generator instead of
    ``secrets`` (so that a seed gives the same audit histories, proofs included)."""

    def __init__(self, dealer: Any, salts: random.Random) -> None:
        super().__init__(dealer)
        self._salts = salts

    def _salt(self) -> str:
        return f"{self._salts.getrandbits(128):032x}"

    def of(self, hand: Any) -> DeckSeal:
        seal = self.get(hand.hand_id)
        if seal is None:
            seeds = self.dealer.seeds_of(hand.hand_id) if self.dealer is not None else None
            seal = DeckSeal(hand, self._salt(), draw=self._salt, seeds=seeds, stub=self.open_stub())
            self._by_hand[hand.hand_id] = seal
        return seal


@dataclass(frozen=True, slots=True)
class FieldHand:
    """One finished hand: its id, table, start and end on the virtual clock, the audit PHH (every card),
    each decision's time (player name, seconds, as ``store.hand_times.decisions``), the names dealt in,
    and the chips: what each name won or lost and the rake."""

    hand_id: str
    table: str
    started_at: datetime
    ended_at: datetime
    phh: str
    decisions: tuple[tuple[str, float], ...]
    players: tuple[str, ...]
    results: dict[str, int]
    rake: int


@dataclass
class _Seated:
    name: str
    key: str  # the table's key of the player (the room's: his store id as text)
    bot: BotClient


@dataclass
class _Table:
    index: int
    table: CashTable
    core: TableCore
    seals: Seals
    now: datetime
    players: dict[str, _Seated] = field(default_factory=dict)  # by key
    turn: tuple[_Seated, dict[str, Any]] | None = None  # a decision handed to a bot, not answered yet
    due: datetime | None = None  # ... when the bot answers it (its think time drawn)
    requests: list[tuple[_Seated, str]] = field(default_factory=list)  # a bot's top-up / sit-in to do
    finished: list[FieldHand] = field(default_factory=list)
    times: list[tuple[str, float]] = field(default_factory=list)  # the hand's decisions so far
    before: datetime | None = None  # the time of the hand's previous command (or its start)


class FastField:
    """Tables of a planted field, dealt from ``seed`` on a virtual clock from ``start``. Seat the players
    (:meth:`seat`), give the planted their roles (:func:`pokerroom.bots.planted.plant` on :attr:`bots`),
    then :meth:`play`. ``configs``: one table configuration each (default: ``tables`` copies of
    :func:`field_table`)."""

    def __init__(
        self,
        tables: int = 1,
        *,
        seed: int,
        start: datetime = START,
        configs: Sequence[TableConfig] | None = None,
        rng: Any = None,
    ) -> None:
        self.configs = list(configs) if configs is not None else [field_table(i) for i in range(tables)]
        # The room's randomness: one generator behind the fair dealer, the button draws and the seeds
        # (``rng``: another source with ``deal``, for a test that replays the room's decks).
        self.rng = rng if rng is not None else DealingRandom(random.Random(seed))
        dealer = self.rng.dealer if isinstance(self.rng, DealingRandom) else None
        self.seals: Seals = _SeededSeals(dealer, random.Random(f"salts {seed}"))
        self.start = start
        self.tables = [self._open(i, cfg, start) for i, cfg in enumerate(self.configs)]
        self.bots: dict[str, BotClient] = {}
        self.paid_in = 0  # buy-ins and top-ups (chips that came to the tables)
        self.raked = 0
        self.hands = 0
        self.errors = 0  # actions the table refused (the bot then times out, as in the room)
        self.strategy_errors = 0  # decisions whose strategy raised (the bot checked or folded instead)

    def _open(self, index: int, cfg: TableConfig, start: datetime) -> _Table:
        table = CashTable(cfg, self.rng)
        t = _Table(index, table, TableCore(cfg.table_id, table.seat_of, self.seals), self.seals, start)
        return t

    # ------------------------------------------------------------------------------------ seating

    def seat(
        self,
        name: str,
        table: int,
        strategy: str = "random",
        *,
        seed: int = 0,
        think: tuple[float, float] = (0.0, 0.0),
        seat: int | None = None,
    ) -> BotClient:
        """A bot ``name`` of the room's ``strategy`` (seeded ``seed``, waiting ``think`` seconds before each
        action) looks at table ``table`` and sits as the room's bot does: at ``seat`` if free (its
        preferred seat), else one it draws, with the table's maximum buy-in."""
        t = self.tables[table]
        key = str(len(self.bots) + 1)
        bot = BotClient(
            "http://field", name, STRATEGIES[strategy](), t.table.tid, think=think, rng=random.Random(seed)
        )
        bot.player_id = key
        bot.preferred_seat = seat
        s = _Seated(name, key, bot)
        t.players[key] = s
        self.bots[name] = bot
        t.core.watch(key, Watch(self._sender(t, s), key))
        # The snapshot it gets on subscribing (through JSON, as it comes), then its ``sit``.
        state = orjson.loads(orjson.dumps(table_view(t.table, key, t.now)))
        bot.state = state
        free = [n for n in range(1, state["seats"] + 1) if str(n) not in state["players"]]
        if not free:
            raise TableError("the table is full")
        chosen = bot.preferred_seat if bot.preferred_seat in free else bot.rng.choice(free)
        limits = (state.get("cash") or {}).get("buy_in") or {"min": 0, "max": 0}
        buy_in = limits["max"] or 2 * limits["min"]
        self._process(t, t.table.sit(key, name, chosen, buy_in, t.now))
        return bot

    # ------------------------------------------------------------------------------------ frames

    def _sender(self, t: _Table, s: _Seated) -> Any:
        def send(text: str, head: Any) -> None:
            self._deliver(t, s, orjson.loads(text))

        return send

    def _deliver(self, t: _Table, s: _Seated, msg: dict[str, Any]) -> None:
        """A frame reaches the bot: its ``on_event`` hook, then its own handling (BotClient._on_message)."""
        bot = s.bot
        if bot.on_event is not None:
            bot.on_event(msg)
        kind = msg.get("type")
        if kind == "event":
            bot._on_event(msg["event"], msg["hand_id"])
        elif kind == "turn":
            if msg.get("decision") and msg["seat"] == bot.seat:
                t.turn = (s, msg)
        elif kind == "seat":
            if msg.get("player") is None or msg["player"] != bot.player_id:
                if msg["seat"] == bot.seat and msg.get("player") is None:
                    bot.seat = None
                return
            bot.seat = msg["seat"]
            if msg["status"] == "sitting_out":  # busted (or timed out): top up if broke, and sit in
                if msg["stack"] <= 0:
                    t.requests.append((s, "top_up"))
                t.requests.append((s, "sit_in"))

    def _process(self, t: _Table, out: Sequence[object]) -> None:
        """One step of the table, item by item, as the cash table's actor does it (server/cash.py)."""
        for item in out:
            if isinstance(item, HandEvents):
                hand = t.table.hand
                if hand is not None and any(isinstance(e, HandStarted) for e in item.events):
                    self.seals.of(hand)  # (before the hand's first frame, as the actor's journal does)
                    t.times, t.before = [], t.now
                t.core.events(item)
            elif isinstance(item, HandFinished):
                self._finish(t, item)
            elif isinstance(item, SeatChanged):
                t.core.seat_changed(item)  # (the cash table's own frame)
            elif isinstance(item, TurnClock):
                hand = t.table.hand
                if hand is not None and not hand.is_over and item.seat in t.table.clocks:
                    t.core.turn(hand, item, t.now)
            elif isinstance(item, BuyIn | TopUp):
                self.paid_in += item.amount
            elif isinstance(item, HandSettlement):
                self.raked += item.rake
        while t.requests:  # the bots' answers to what they were just told (after the step, as sent)
            s, what = t.requests.pop(0)
            if what == "top_up":
                low = ((s.bot.state.get("cash") or {}).get("buy_in") or {}).get("min", 0) or 1
                self._process(t, t.table.top_up(s.key, low, t.now))
            else:
                self._process(t, t.table.sit_in(s.key, t.now, post_missed=True))

    def _finish(self, t: _Table, item: HandFinished) -> None:
        record = item.record
        seal = self.seals.get(record.hand_id)
        record = replace(record, proof=seal.proof() if seal is not None else None)
        self.seals.done(record.hand_id)
        phh = histories_of(record).full_phh
        names = {p: n for p, n in record.players.values()}
        t.finished.append(
            FieldHand(
                record.hand_id,
                record.table_id,
                record.started_at,
                t.now,
                phh,
                tuple(t.times),
                tuple(n for _, n in record.players.values()),
                {names[p]: v for p, v in record.settlement.results.items()},
                record.settlement.rake,
            )
        )
        self.hands += 1

    # ------------------------------------------------------------------------------------ playing

    def _decide(self, t: _Table) -> None:
        """The bot whose turn it is answers: it waits its think time (the virtual clock; a deadline of the
        table's that comes first is ticked first), builds its view and decides, and its ``act`` is taken
        as the table's actor takes it (TableCore.accept, then the table)."""
        assert t.turn is not None
        s, msg = t.turn
        bot = s.bot
        if t.due is None:
            lo, hi = bot.think
            wait = bot.rng.uniform(lo, hi) if hi > 0 else 0.0
            t.due = t.now + timedelta(seconds=wait)
        due = t.due
        deadline = t.table.next_deadline()
        if deadline is not None and deadline <= due:  # the table's clock first (the action time ran out?)
            t.now = max(t.now, deadline)
            self._tick(t)
            hand = t.table.hand
            if t.turn is not None and t.turn[1] is not msg:
                t.due = None  # (a new decision was handed out meanwhile)
            elif hand is None or hand.hand_id != msg["hand_id"] or len(hand.commands) != msg["action_no"]:
                t.turn, t.due = None, None  # the decision is gone (timed out)
            return
        t.turn, t.due = None, None
        t.now = due
        decision = msg["decision"]
        view = bot.view(decision)
        try:
            action = bot.strategy.decide(view, bot.rng)
        except Exception:  # a strategy bug: the safest legal action (as BotClient._decide)
            self.strategy_errors += 1
            action = {"type": "check"} if decision.get("check") else {"type": "fold"}
        bot.stats.actions += 1
        try:
            taken = t.core.accept(
                t.table.hand, s.key, t.table.seat_of(s.key), msg["hand_id"], msg["action_no"], action
            )
            if taken is None:
                return
            command, number = taken
            out = t.table.act(s.key, command, t.now)
        except (Refused, EngineError, TableError):
            self.errors += 1  # refused: the bot is told, and its clock runs out (the next tick)
            return
        t.core.applied(msg["hand_id"], number, s.key, action)
        if t.before is not None:
            t.times.append((s.name, max(0.0, (t.now - t.before).total_seconds())))
        t.before = t.now
        self._process(t, out)

    def _step(self, t: _Table) -> None:
        if t.turn is not None:
            self._decide(t)
            return
        deadline = t.table.next_deadline()
        if deadline is None:  # (no hand planned: the actor ticks after each job, and starts one now)
            if t.table.in_hand or not self._startable(t):
                raise TableError(f"table {t.table.tid} has nothing to do (fewer than two players?)")
            self._tick(t)
            return
        t.now = max(t.now, deadline)
        self._tick(t)

    @staticmethod
    def _startable(t: _Table) -> bool:
        return sum(1 for p in t.table.seats.values() if p.stack > 0 and not p.sitting_out) >= 2

    def _tick(self, t: _Table) -> None:
        """Time passes at the table (the next hand, a decision timed out); a timeout is no decision, and
        neither is the command after it (as ``store.hand_times`` reads the journal)."""
        hand = t.table.hand
        before = len(hand.commands) if hand is not None and not hand.is_over else None
        self._process(t, t.table.tick(t.now))
        if before is not None and hand is not None and len(hand.commands) > before:
            t.before = None

    def play_hand(self, table: int) -> FieldHand:
        """Play table ``table`` until its next hand is over; that hand."""
        t = self.tables[table]
        while not t.finished:
            self._step(t)
        return t.finished.pop(0)

    def play(self, hands: int) -> Iterator[FieldHand]:
        """``hands`` hands of the whole field, each from the table whose clock is earliest."""
        heap = [(t.now, t.index) for t in self.tables if len(t.table.seats) >= 2]
        heapq.heapify(heap)
        for _ in range(hands):
            if not heap:
                return
            _, i = heapq.heappop(heap)
            with _remembered_equities():  # (only while this field plays: the caller's code is its own)
                hand = self.play_hand(i)
            heapq.heappush(heap, (self.tables[i].now, i))
            yield hand

    def chips(self) -> int:
        """The chips on the tables now (stacks and top-ups not yet in them), plus the rake taken: equal to
        :attr:`paid_in` between hands."""
        on = sum(p.stack + p.pending_top_up for t in self.tables for p in t.table.seats.values())
        return on + self.raked

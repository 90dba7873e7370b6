"""A cash table: seats, buy-ins, blinds and button, sitting out, clocks, and hand after hand.

Pure: time comes in as ``now`` (an aware datetime), randomness as the injected ``rng`` (the server passes
``secrets.SystemRandom()``), and every effect on money comes out as data (:mod:`pokerroom.rooms.effects`).
Every public method returns the :mod:`notices <pokerroom.rooms.notices>` and effects it caused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pokerroom.cards import RandomSource
from pokerroom.engine import (
    BetDecision,
    Blinds,
    Command,
    DiscardDecision,
    EngineError,
    Fold,
    HandState,
    NotYourTurn,
    RunTwice,
    RunTwiceDecision,
    SeatSetup,
    TimeOut,
)
from pokerroom.rooms.auto_top_up import check_target, top_up_amount
from pokerroom.rooms.clock import Clock, Clocks, refill_bank, spend_bank
from pokerroom.rooms.config import TableConfig
from pokerroom.rooms.dealing import deal_deck
from pokerroom.rooms.effects import BuyIn, CashOut, Effect, HandSettlement, TopUp
from pokerroom.rooms.errors import (
    AlreadySeated,
    BuyInOutOfRange,
    NoSuchSeat,
    NotSeated,
    SeatTaken,
    TableError,
    WaitingListError,
)
from pokerroom.rooms.mixes import Rotation, TableGame
from pokerroom.rooms.notices import (
    GameChoice,
    HandEvents,
    HandFinished,
    Notice,
    OfferExpired,
    PostPrompt,
    SeatChanged,
    SeatOffer,
)
from pokerroom.rooms.points import Discipline, PointsPolicy, hand_points, share_points
from pokerroom.rooms.record import FinishedHand
from pokerroom.rooms.run_out import run_out_streets
from pokerroom.rooms.seating import HandPlan, Positions, SeatStatus, plan_hand
from pokerroom.rooms.table_options import chooser, straddler

__all__ = ["CashTable", "Output", "Player"]

Output = list[Notice | Effect]


@dataclass(slots=True)
class Player:
    """A seated player (mutable; owned by the table)."""

    player: str
    name: str
    seat: int
    stack: int
    time_bank: float
    pending_top_up: int = 0
    sitting_out: bool = False
    sit_out_next_hand: bool = False
    sit_out_next_bb: bool = False
    waiting_bb: bool = False
    post_now: bool = False
    missed_bb: bool = False
    missed_sb: bool = False
    auto_post: bool = True
    auto_muck: bool = True
    straddle: bool = False  # straddles when the table offers it the straddle (RULES.md §11.2)
    auto_top_up: int = 0  # the stack to top up to between hands (0: off; rooms/auto_top_up.py)
    hands_dealt: int = 0
    sat_out_at: datetime | None = None
    disconnected_at: datetime | None = None
    leaving: bool = False
    timed_out: bool = False
    post_confirmed: bool = False

    @property
    def status(self) -> str:
        if self.leaving:
            return "leaving"
        if self.sitting_out:
            return "sitting_out"
        if self.waiting_bb:
            return "waiting_bb"
        return "playing"

    @property
    def markers(self) -> tuple[str, ...]:
        return tuple(m for m, on in (("ML", self.missed_bb), ("MS", self.missed_sb)) if on)


@dataclass(slots=True)
class _Offer:
    player: str
    seat: int
    expires: datetime


@dataclass(slots=True)
class _Choice:
    """Dealer's choice pending: who picks the round's game, until when."""

    player: str
    seat: int
    deadline: datetime


@dataclass(slots=True)
class _Prompt:
    deadline: datetime
    seats: set[int] = field(default_factory=set)


class CashTable:
    """One cash table. Drive it with player calls and :meth:`tick` (the clock)."""

    def __init__(
        self,
        config: TableConfig,
        rng: RandomSource,
        points: PointsPolicy | None = None,
        *,
        hand_ids: Sequence[str] | None = None,
    ) -> None:
        self.config = config
        self.rng = rng
        self.points = points
        self.seats: dict[int, Player] = {}
        self._seat_by_player: dict[str, int] = {}  # the index of seat_of (every turn asks it)
        self.hand: HandState | None = None
        self.hand_id = ""
        self.hand_started_at: datetime | None = None
        self.hand_count = 0
        self.hand_prefix = ""  # a cluster's host: the lease's fence (``f3-``), so ids never meet across hosts
        self.positions: Positions | None = None
        self.next_hand_at: datetime | None = None
        self.waiting_list: list[str] = []
        self.offers: dict[str, _Offer] = {}
        self.prompt: _Prompt | None = None
        self.clocks = Clocks(config.table_id)
        self._hand_players: dict[int, tuple[str, str]] = {}
        self._plan: HandPlan | None = None
        self._hand_ids = list(hand_ids or [])
        self.halted = False  # set by the server when the store failed: no new hand starts
        self._games = config.games
        mix = config.mix_spec
        # A mixed table's place in its rotation (RULES.md §11.1); None at a single-game table.
        self._rotation: Rotation | None = (
            None if mix is None else Rotation(mix, config.hands_per_round, choice=config.dealers_choice)
        )
        self.choice: _Choice | None = None  # dealer's choice: the round's game is being chosen
        self._rotation_counted = False  # placed by ``hand_count`` when first asked (see ``rotation``)

    # ---------------------------------------------------------------------------------- queries

    @property
    def tid(self) -> str:
        return self.config.table_id

    @property
    def rotation(self) -> Rotation | None:
        """A mixed table's place in its rotation (RULES.md §11.1); None at a single-game table. A table
        reopened with ``hand_count`` hands behind it (a restart, another host taking it over) goes on from
        that count (``Rotation.after``)."""
        r = self._rotation
        if r is not None and not self._rotation_counted:
            self._rotation_counted = True
            if self.hand_count:
                r = self._rotation = Rotation.after(r.mix, r.per_round, self.hand_count, r.choice)
        return r

    @rotation.setter
    def rotation(self, value: Rotation | None) -> None:
        self._rotation = value
        self._rotation_counted = True

    @property
    def game(self) -> TableGame:
        """The game of the hand in progress, or between hands of the next one (:attr:`next_hand_game`)."""
        r = self.rotation
        if r is None:
            return self._games[0]
        return self._games[r.index] if self.in_hand else self.next_hand_game

    @property
    def next_hand_game(self) -> TableGame:
        """The game of the next hand to be dealt: a mix moves on to its next game once the hands of the
        current round are all dealt (RULES.md §11.1, R246)."""
        r = self.rotation
        return self._games[0] if r is None else self._games[r.rolled().index]

    def seat_of(self, player: str) -> int | None:
        return self._seat_by_player.get(player)

    def player_at(self, seat: int) -> Player | None:
        return self.seats.get(seat)

    def free_seats(self) -> list[int]:
        return [s for s in range(1, self.config.seats + 1) if s not in self.seats]

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.is_over

    def dealt_in(self, player: str) -> bool:
        seat = self.seat_of(player)
        return self.in_hand and seat is not None and seat in self._hand_players

    def hand_players(self) -> dict[int, tuple[str, str]]:
        """Seat -> (player id, name) of the players dealt into the current hand."""
        return dict(self._hand_players)

    def clock(self, seat: int) -> Clock | None:
        return self.clocks.get(seat)

    def _changed(self, p: Player) -> SeatChanged:
        return SeatChanged(self.tid, p.seat, p.player, p.name, p.stack, p.status, p.markers)

    def _player(self, player: str) -> Player:
        seat = self.seat_of(player)
        if seat is None:
            raise NotSeated()
        return self.seats[seat]

    # ----------------------------------------------------------------------------- seats, money

    def check_sit(self, player: str, seat: int, buy_in: int) -> None:
        """Raise the error :meth:`sit` would raise, without changing anything (the server books the
        buy-in between this check and :meth:`sit`)."""
        if not isinstance(seat, int) or not 1 <= seat <= self.config.seats:
            raise NoSuchSeat(seat, self.config.seats)
        if self.seat_of(player) is not None:
            raise AlreadySeated()
        if seat in self.seats:
            raise SeatTaken(seat)
        if any(o.seat == seat and o.player != player for o in self.offers.values()):
            raise SeatTaken(seat)
        lo, hi = self.config.buy_in_range
        if not isinstance(buy_in, int) or buy_in < lo or (hi and buy_in > hi):
            raise BuyInOutOfRange(buy_in if isinstance(buy_in, int) else 0, lo, hi)
        if buy_in % self.config.stakes.chip_unit:
            raise BuyInOutOfRange(buy_in, lo, hi)

    def sit(
        self, player: str, name: str, seat: int, buy_in: int, now: datetime, *, post_now: bool = False
    ) -> Output:
        """Take a free seat with a buy-in in range (RULES.md §4.1). In blind games a new player waits for
        the big blind unless he chooses to post one now (§4.6); in stud he is dealt the next hand (R132)."""
        self.check_sit(player, seat, buy_in)
        p = Player(player, name, seat, buy_in, self.config.timing.time_bank)
        if not self.next_hand_game.spec.is_stud and self.positions is not None:
            p.waiting_bb = True
            p.post_now = post_now
        self.seats[seat] = p
        self._seat_by_player[player] = seat
        self.offers.pop(player, None)
        if player in self.waiting_list:
            self.waiting_list.remove(player)
        out: Output = [BuyIn(self.tid, player, seat, buy_in), self._changed(p)]
        return out + self._offer_seats(now)

    def restore(self, player: str, name: str, seat: int, stack: int, now: datetime) -> Output:
        """Seat again a player whose chips are at this table already (a cluster's host took the table
        over: docs/cluster.md): the stack is his seat session's balance, whatever the buy-in limits say; no
        buy-in is booked. He is dealt in from the next hand, like the players of a table that opens."""
        if self.seat_of(player) is not None:
            raise AlreadySeated()
        if not isinstance(seat, int) or not 1 <= seat <= self.config.seats:
            raise NoSuchSeat(seat, self.config.seats)
        if seat in self.seats:
            raise SeatTaken(seat)
        p = Player(player, name, seat, stack, self.config.timing.time_bank)
        self.seats[seat] = p
        self._seat_by_player[player] = seat
        return [self._changed(p)]

    def top_up(self, player: str, amount: int, now: datetime) -> Output:
        """Add chips up to the maximum buy-in (table stakes: a player dealt in gets them after the hand).

        The :class:`TopUp` effect comes out when the chips join the stack; if the server cannot book it,
        it calls :meth:`refuse_top_up` before anything else happens at the table.
        """
        p = self._player(player)
        hi = self.config.buy_in_range[1]
        total = p.stack + p.pending_top_up + amount
        if not isinstance(amount, int) or amount <= 0 or amount % self.config.stakes.chip_unit:
            raise BuyInOutOfRange(amount if isinstance(amount, int) else 0, 1, hi)
        if hi and total > hi:
            raise BuyInOutOfRange(amount, 1, max(0, hi - p.stack - p.pending_top_up))
        p.pending_top_up += amount
        if self.dealt_in(player):
            return []
        return self._apply_top_ups([p])

    def refuse_top_up(self, player: str, amount: int) -> Output:
        """Undo a top-up whose booking failed (called at once, before any other table call)."""
        p = self._player(player)
        p.stack = max(0, p.stack - amount)
        return [self._changed(p)]

    def next_deadline(self) -> datetime | None:
        """The next moment :meth:`tick` has something to do (the server sleeps until then)."""
        t = self.config.timing
        times: list[datetime] = [d] if (d := self.clocks.next_deadline()) is not None else []
        times += [o.expires for o in self.offers.values()]
        if self.prompt is not None:
            times.append(self.prompt.deadline)
        if self.choice is not None:
            times.append(self.choice.deadline)
        idle = self.prompt is None and self.choice is None  # (a prompt or a choice has its own deadline)
        if not self.in_hand and not self.halted and idle and self.next_hand_at is not None:
            times.append(self.next_hand_at)
        for p in self.seats.values():
            if p.disconnected_at is not None and not p.sitting_out and not self.dealt_in(p.player):
                times.append(p.disconnected_at + timedelta(seconds=t.disconnect_grace))
            if p.sitting_out and p.sat_out_at is not None and not self.dealt_in(p.player):
                times.append(p.sat_out_at + timedelta(seconds=t.sit_out_limit))
        return min(times) if times else None

    def _apply_top_ups(self, players: Sequence[Player]) -> Output:
        out: Output = []
        for p in players:
            if p.pending_top_up:
                out.append(TopUp(self.tid, p.player, p.seat, p.pending_top_up))
                p.stack += p.pending_top_up
                p.pending_top_up = 0
                if p.sitting_out and p.sat_out_at is None:
                    p.sitting_out = False
                out.append(self._changed(p))
        return out

    def leave(self, player: str, now: datetime) -> Output:
        """Leave the table; during a hand the player's hand is folded at his turn and he leaves after it."""
        p = self._player(player)
        if self.dealt_in(player):
            p.leaving = True
            out: Output = [self._changed(p)]
            return out + self._auto_actions(now)
        return self._unseat(p, now)

    def _unseat(self, p: Player, now: datetime) -> Output:
        del self.seats[p.seat]
        del self._seat_by_player[p.player]
        amount = p.stack + p.pending_top_up
        out: Output = [
            CashOut(self.tid, p.player, p.seat, amount),
            SeatChanged(self.tid, p.seat, None, "", 0, "empty"),
        ]
        return out + self._offer_seats(now)

    def sit_out(self, player: str, now: datetime, when: str = "now") -> Output:
        """Sit out now (from the next hand if dealt in now), next hand, or at the next big blind."""
        p = self._player(player)
        if when == "next_bb":
            p.sit_out_next_bb = True
        elif when in ("now", "next_hand"):
            if self.dealt_in(player) or when == "next_hand":
                p.sit_out_next_hand = True
            else:
                self._set_sitting_out(p, now)
        else:
            raise TableError(f"unknown sit-out option {when[:20]!r}")
        return [self._changed(p)]

    def _set_sitting_out(self, p: Player, now: datetime) -> None:
        p.sitting_out = True
        p.sit_out_next_hand = False
        p.sit_out_next_bb = False
        p.post_now = False
        if p.sat_out_at is None:
            p.sat_out_at = now

    def sit_in(self, player: str, now: datetime, *, post_missed: bool = False) -> Output:
        """Come back. A player with missed blinds posts them now (``post_missed``) or waits for the big
        blind (RULES.md §4.7); a new player may likewise post one big blind now (§4.6)."""
        p = self._player(player)
        p.sit_out_next_hand = False
        p.sit_out_next_bb = False
        if p.stack + p.pending_top_up <= 0:
            raise TableError("you have no chips: top up first")
        p.sitting_out = False
        p.sat_out_at = None
        p.timed_out = False
        p.post_now = post_missed
        return [self._changed(p)] + self._maybe_start(now)

    def set_auto_post(self, player: str, on: bool) -> Output:
        self._player(player).auto_post = bool(on)
        return []

    def set_auto_muck(self, player: str, on: bool) -> Output:
        self._player(player).auto_muck = bool(on)
        return []

    def set_auto_top_up(self, player: str, target: int) -> Output:
        """Top the player up to ``target`` chips between hands from now on (0: off); at once if he is not
        in a hand. BuyInOutOfRange: a target outside the buy-in limits or not in chip units."""
        p = self._player(player)
        p.auto_top_up = check_target(target, self.config.buy_in_range, self.config.stakes.chip_unit)
        return [] if self.dealt_in(player) else self._auto_top_up(p)

    def refuse_auto_top_up(self, player: str, amount: int, now: datetime) -> Output:
        """An auto top-up the server could not book: the chips go, the setting is off, and a player left
        with nothing sits out (called at once, before any other table call)."""
        p = self._player(player)
        p.auto_top_up = 0
        p.stack = max(0, p.stack - amount)
        if p.stack == 0:
            self._set_sitting_out(p, now)
        return [self._changed(p)]

    def _auto_top_up(self, p: Player) -> Output:
        amount = top_up_amount(p.stack + p.pending_top_up, p.auto_top_up, self.config.stakes.chip_unit)
        if not amount or p.leaving:
            return []
        p.stack += amount
        if p.sitting_out and p.sat_out_at is None:
            p.sitting_out = False
        # (the seat's new stack first: a refused booking's correction, sent while booking, comes after it)
        return [self._changed(p), TopUp(self.tid, p.player, p.seat, amount, auto=True)]

    def set_straddle(self, player: str, on: bool) -> Output:
        """The player straddles whenever the table offers him the straddle (RULES.md §11.2): under the gun,
        or on the button at a Mississippi table. Refused where the operator has not enabled it (R253)."""
        p = self._player(player)
        if on and self.config.straddle == "off":
            raise TableError("this table has no straddle")
        p.straddle = bool(on)
        return []

    def connect(self, player: str, now: datetime) -> Output:
        seat = self.seat_of(player)
        if seat is not None:
            self.seats[seat].disconnected_at = None
        return []

    def disconnect(self, player: str, now: datetime) -> Output:
        seat = self.seat_of(player)
        if seat is not None and self.seats[seat].disconnected_at is None:
            self.seats[seat].disconnected_at = now
        return []

    # ------------------------------------------------------------------------------ waiting list

    def join_waiting_list(self, player: str, now: datetime) -> Output:
        if self.seat_of(player) is not None:
            raise AlreadySeated()
        if player in self.waiting_list:
            raise WaitingListError("you are already on the waiting list")
        self.waiting_list.append(player)
        return self._offer_seats(now)

    def leave_waiting_list(self, player: str, now: datetime) -> Output:
        if player in self.waiting_list:
            self.waiting_list.remove(player)
        self.offers.pop(player, None)
        return self._offer_seats(now)

    def _offer_seats(self, now: datetime) -> Output:
        """Offer every free seat that is not on offer to the next player on the list, in order."""
        out: Output = []
        offered = {o.seat for o in self.offers.values()}
        free = [s for s in self.free_seats() if s not in offered]
        queue = [p for p in self.waiting_list if p not in self.offers]
        for seat, player in zip(free, queue, strict=False):
            offer = _Offer(player, seat, now + timedelta(seconds=self.config.timing.offer_time))
            self.offers[player] = offer
            out.append(SeatOffer(self.tid, player, seat, offer.expires))
        return out

    # ------------------------------------------------------------------------------------ hands

    def _status(self, p: Player) -> SeatStatus:
        return SeatStatus(
            p.seat,
            p.player,
            p.stack > 0,
            p.sitting_out,
            p.waiting_bb,
            p.missed_bb,
            p.missed_sb,
            p.post_now,
            p.sit_out_next_bb,
        )

    def _make_plan(self) -> HandPlan | None:
        if self.game.spec.is_stud:  # a mix's stud round leaves the blind positions as they were (R247)
            dealt = tuple(s for s, p in sorted(self.seats.items()) if p.stack > 0 and not p.sitting_out)
            if len(dealt) < 2:
                return None
            return HandPlan(0, 0, None, 0, dealt)
        return plan_hand({s: self._status(p) for s, p in self.seats.items()}, self.positions, self.rng)

    @property
    def next_is_bomb_pot(self) -> bool:
        """Is the table's next hand a bomb pot (every ``bomb_pot_every``-th hand, RULES.md §11.2)?"""
        every = self.config.bomb_pot_every
        return every > 0 and (self.hand_count + 1) % every == 0

    def _posts(self, plan: HandPlan) -> dict[int, tuple[int, str]]:
        """What each dealt-in player must post (amount and label), for the auto-post prompts."""
        st = self.game.stakes
        out: dict[int, tuple[int, str]] = {}
        if self.next_is_bomb_pot:
            return {s: (self.config.bomb_ante, "ante") for s in plan.dealt_in}
        if self.game.spec.is_stud:
            return {s: (st.ante, "ante") for s in plan.dealt_in} if st.ante else {}
        if plan.small_blind is not None:
            out[plan.small_blind] = (st.small_blind, "small_blind")
        out[plan.big_blind] = (st.big_blind, "big_blind")
        for s in plan.live:
            out[s] = (st.big_blind + (st.small_blind if s in plan.dead else 0), "live")
        for s in plan.dead:
            if s not in plan.live:
                out[s] = (st.small_blind, "dead")
        return out

    def _maybe_start(self, now: datetime) -> Output:
        if self.in_hand or self.prompt is not None or self.choice is not None or self.halted:
            return []
        if self.next_hand_at is not None and now < self.next_hand_at:
            return []
        return self._start_hand(now)

    def _start_hand(self, now: datetime) -> Output:
        out: Output = []
        if self.rotation is not None:  # a round of the mix is over: the next game (R246)
            self.rotation = self.rotation.rolled()
            if self.rotation.choosing:
                playing = {
                    s: not p.sitting_out and p.stack > 0 and not p.leaving for s, p in self.seats.items()
                }
                seat = chooser(self.positions, playing)
                if seat is not None:  # dealer's choice: wait for it (RULES.md §11.1)
                    return self._ask_choice(self.seats[seat], now)
                self.rotation = self.rotation.chose(self.rotation.index)  # nobody to choose: the next game
        for p in self.seats.values():
            if p.sit_out_next_hand:
                self._set_sitting_out(p, now)
                out.append(self._changed(p))
        plan = self._make_plan()
        if plan is None:
            self.next_hand_at = None  # nothing to wait for: the next sit-down starts a hand at once
            if sum(1 for p in self.seats.values() if p.stack > 0 and not p.sitting_out) < 2:
                self.positions = None  # a pause: the next hand is a table start (§4.2 step 1)
            return out
        need = [
            (s, amount, what)
            for s, (amount, what) in self._posts(plan).items()
            if not self.seats[s].auto_post and not self.seats[s].post_confirmed
        ]
        if need:
            deadline = now + timedelta(seconds=self.config.timing.post_prompt)
            self.prompt = _Prompt(deadline, {s for s, _, _ in need})
            for s, amount, what in need:
                out.append(PostPrompt(self.tid, self.seats[s].player, s, amount, what, deadline))
            return out
        return out + self._deal(plan, now)

    # ------------------------------------------------------------------------------ dealer's choice

    def _ask_choice(self, p: Player, now: datetime) -> Output:
        assert self.rotation is not None
        deadline = now + timedelta(seconds=self.config.timing.choose_game)
        self.choice = _Choice(p.player, p.seat, deadline)
        options = tuple(g.label for g in self.rotation.mix.games)
        r = self.rotation
        return [GameChoice(self.tid, p.player, p.seat, options, r.index, deadline, r.round)]

    def choose_game(self, player: str, index: int, now: datetime) -> Output:
        """Dealer's choice: the chooser picks the round's game (an index of the mix's list); the round
        starts at once."""
        choice = self.choice
        if choice is None or choice.player != player or self.rotation is None:
            raise TableError("you are not choosing the game")
        if type(index) is not int or not 0 <= index < len(self.rotation.mix.games):
            raise TableError("no such game in the list")
        self.rotation = self.rotation.chose(index)
        self.choice = None
        return self._maybe_start(now)

    def _choice_expired(self, now: datetime) -> Output:
        """R250: no choice in time: the round plays the next game of the list (the rotation's default)."""
        assert self.rotation is not None
        self.rotation = self.rotation.chose(self.rotation.index)
        self.choice = None
        return self._maybe_start(now)

    def answer_post(self, player: str, accept: bool, now: datetime) -> Output:
        """Auto-post off: confirm or decline the forced bet; declining sits the player out (§4.8)."""
        p = self._player(player)
        if self.prompt is None or p.seat not in self.prompt.seats:
            raise TableError("no forced bet is waiting for your answer")
        self.prompt.seats.discard(p.seat)
        out: Output = []
        if accept:
            p.post_confirmed = True
        else:
            self._set_sitting_out(p, now)
            out.append(self._changed(p))
        if not self.prompt.seats:
            self.prompt = None
            out += self._start_hand(now)
        return out

    def _next_hand_id(self) -> str:
        self.hand_count += 1
        if self._hand_ids:
            return self._hand_ids.pop(0)
        return f"{self.tid}-{self.hand_prefix}{self.hand_count}"

    def _deal(self, plan: HandPlan, now: datetime) -> Output:
        cfg = self.config
        out: Output = []
        for s in plan.sat_out:
            self._set_sitting_out(self.seats[s], now)
            out.append(self._changed(self.seats[s]))
        for s, (ml, ms) in plan.markers.items():
            p = self.seats[s]
            if (p.missed_bb, p.missed_sb) != (ml, ms):
                p.missed_bb, p.missed_sb = ml, ms
                out.append(self._changed(p))
        for s in plan.cleared:
            p = self.seats[s]
            p.waiting_bb = p.post_now = False
        for s in plan.dealt_in:
            p = self.seats[s]
            p.waiting_bb = False
            p.post_now = False
            p.post_confirmed = False
            p.timed_out = False
            p.hands_dealt += 1
        game = self.game
        st = game.stakes
        blinds = None
        if self.next_is_bomb_pot:  # RULES.md §11.2: antes only; the button and blinds move as usual
            blinds = Blinds(antes=tuple((s, cfg.bomb_ante) for s in plan.dealt_in), bomb_pot=True)
            self.positions = plan.positions({s: self._status(p) for s, p in self.seats.items()})
        elif not game.spec.is_stud:
            wants = {s: (self.seats[s].straddle, self.seats[s].stack) for s in plan.dealt_in}
            straddled = straddler(cfg.straddle, cfg.straddle_amount, plan, wants)
            blinds = Blinds(
                small=(plan.small_blind, st.small_blind) if plan.small_blind is not None else None,
                big=(plan.big_blind, st.big_blind),
                straddles=((straddled, cfg.straddle_amount),) if straddled is not None else (),
                live=tuple((s, st.big_blind) for s in plan.live),
                dead=tuple((s, st.small_blind) for s in plan.dead),
            )
            self.positions = plan.positions({s: self._status(p) for s, p in self.seats.items()})
        spec = game.spec.deck_for(len(plan.dealt_in))
        self.hand_id = self._next_hand_id()
        if self.rotation is not None:
            self.rotation = self.rotation.dealt()
        self._hand_players = {s: (self.seats[s].player, self.seats[s].name) for s in plan.dealt_in}
        self._plan = plan
        self.hand_started_at = now
        self.hand = HandState.start(
            variant=game.spec,
            structure=game.structure,
            seats=[SeatSetup(s, self.seats[s].stack, self.seats[s].auto_muck) for s in plan.dealt_in],
            deck=deal_deck(
                self.rng,
                spec,
                reshuffle=game.spec.is_draw,
                key=self.tid,
                hand_id=self.hand_id,
                players={s: p for s, (p, _) in self._hand_players.items()},
            ),
            button=None if game.spec.is_stud else plan.button,
            blinds=blinds,
            rake=cfg.rake,
            hand_id=self.hand_id,
            run_it_twice=cfg.run_it_twice,
        )
        out.append(HandEvents(self.tid, self.hand_id, tuple(self.hand.events), plan.dealt_in))
        return out + self._after_change(now, [])

    # ------------------------------------------------------------------------------------ play

    def act(self, player: str, command: Command, now: datetime) -> Output:
        """A player's command for the current hand; only for his own seat."""
        seat = self.seat_of(player)
        if seat is None:
            raise NotSeated()
        if command.seat != seat:
            raise NotYourTurn(command.seat, ())
        if self.hand is None or self.hand.is_over:
            raise TableError("no hand is in progress")
        return self._apply(command, now, timed_out=False)

    def _apply(self, command: Command, now: datetime, *, timed_out: bool) -> Output:
        assert self.hand is not None
        seat = command.seat
        events = self.hand.apply(command)
        clock = self.clocks.stop(seat)
        p = self.seats.get(seat)
        if clock is not None and p is not None:
            p.time_bank = spend_bank(p.time_bank, clock, now, timed_out=timed_out)
            p.timed_out = p.timed_out or timed_out
        out: Output = [HandEvents(self.tid, self.hand_id, tuple(events), tuple(self._hand_players))]
        return self._after_change(now, out)

    def _after_change(self, now: datetime, out: Output) -> Output:
        assert self.hand is not None
        if self.hand.is_over:
            return out + self._end_hand(now)
        out += self._auto_actions(now)
        # (read again through ``in_hand``: the auto actions may have ended the hand, and a second test of
        # ``self.hand`` here would be taken, compiled, as the hand narrowed above: setup.py)
        if self.in_hand:
            out += self._start_clocks(now)
        return out

    def _auto_actions(self, now: datetime) -> Output:
        """Fold the hand of a player who is leaving when his turn comes (unless all-in, RULES §4.8); a
        leaving player asked to run the board twice answers no at once (R-RIT: he does not wait)."""
        if not self.in_hand:
            return []
        assert self.hand is not None
        pending = self.hand.pending
        if isinstance(pending, BetDecision):
            p = self.seats.get(pending.seat)
            if p is not None and p.leaving and pending.fold:
                return self._apply(Fold(pending.seat), now, timed_out=False)
        elif isinstance(pending, RunTwiceDecision):
            for seat in pending.seats:
                p = self.seats.get(seat)
                if p is not None and p.leaving:
                    return self._apply(RunTwice(seat, False), now, timed_out=False)
        return []

    def _start_clocks(self, now: datetime) -> Output:
        assert self.hand is not None
        started = self.clocks.sync(
            self.hand.waiting_for(), now, action=self.config.timing.action, bank=self._bank
        )
        return list(started)

    def _bank(self, seat: int) -> float:
        return self.seats[seat].time_bank

    def _end_hand(self, now: datetime) -> Output:
        hand = self.hand
        assert hand is not None and self.hand_started_at is not None
        self.clocks.clear()
        stacks = hand.stacks()
        results = {self._hand_players[s][0]: stacks[s] - hand.players[s].starting_stack for s in stacks}
        contributions = {self._hand_players[s][0]: c for s, c in hand.contributions().items()}
        points: dict[str, int] = {}
        if hand.rake and self.points is not None:
            discipline = Discipline(hand.variant.code, hand.structure.betting)
            total = hand_points(hand.rake, self.points.multiplier_pct(discipline, self.hand_started_at))
            by_seat = share_points(total, hand.contributions(), hand.clockwise_from_button())
            points = {self._hand_players[s][0]: v for s, v in by_seat.items() if v}
        settlement = HandSettlement(self.tid, self.hand_id, results, hand.rake, contributions, points)
        record = FinishedHand(
            self.hand_id,
            self.tid,
            self.config.name,
            self.config.seats,
            self.config.currency,
            self.hand_started_at,
            dict(self._hand_players),
            hand,
            settlement,
            mix=self.rotation.mix.name if self.rotation is not None else "",
        )
        out: Output = [settlement, HandFinished(self.tid, record)]
        t = self.config.timing
        for seat, stack in stacks.items():
            p = self.seats.get(seat)
            if p is None or p.player != self._hand_players[seat][0]:
                continue
            p.stack = stack
            p.time_bank = refill_bank(
                p.time_bank, p.hands_dealt, full=t.time_bank, refill=t.bank_refill, every=t.refill_every
            )
        for p in list(self.seats.values()):
            out += self._apply_top_ups([p])
            out += self._auto_top_up(p)  # (issue 31: to the player's chosen stack)
            if p.leaving:
                out += self._unseat(p, now)
                continue
            if p.timed_out or p.stack == 0:
                self._set_sitting_out(p, now)
            out.append(self._changed(p))
        self.hand = None
        self._hand_players = {}
        self.next_hand_at = now + timedelta(seconds=t.pause_after(run_out_streets(hand.events)))
        return out

    # ----------------------------------------------------------------------------- store faults

    def restart_clocks(self, now: datetime) -> Output:
        """After a pause (the store was unavailable): the decisions pending get their whole action time
        again from ``now``; the time the table stood still is nobody's."""
        self.clocks.clear()
        if not self.in_hand:
            return []
        return self._start_clocks(now)

    def void_hand(self, stacks: Mapping[str, int], now: datetime) -> Output:
        """The interrupted hand is void (the journal cancelled it: its chips never moved): each seated
        player's stack is ``stacks[player]`` (his seat session's balance) again; a player who was leaving
        leaves now; the next hand comes after the usual pause."""
        self.hand = None
        self._hand_players = {}
        self._plan = None
        self.clocks.clear()
        out: Output = []
        for p in list(self.seats.values()):
            if p.player in stacks:
                p.stack = stacks[p.player]
            if p.leaving:
                out += self._unseat(p, now)
                continue
            out.append(self._changed(p))
        self.next_hand_at = now + timedelta(seconds=self.config.timing.between_hands)
        return out

    # ------------------------------------------------------------------------------------ clock

    def tick(self, now: datetime) -> Output:
        """Let time pass: timeouts, expired offers and prompts, sit-out limits, the next hand."""
        out: Output = []
        t = self.config.timing
        if self.in_hand:
            for seat in self.clocks.due(now):
                if self.in_hand and seat in self.clocks:
                    try:
                        out += self._apply(TimeOut(seat), now, timed_out=True)
                    except EngineError:  # the decision moved on meanwhile
                        self.clocks.stop(seat)
        if self.choice is not None and now >= self.choice.deadline:
            out += self._choice_expired(now)
        if self.prompt is not None and now >= self.prompt.deadline:
            for seat in sorted(self.prompt.seats):
                self._set_sitting_out(self.seats[seat], now)
                out.append(self._changed(self.seats[seat]))
            self.prompt = None
        for offer in sorted(self.offers.values(), key=lambda o: o.seat):
            if now >= offer.expires:
                out.append(OfferExpired(self.tid, offer.player, offer.seat))
                del self.offers[offer.player]
                if offer.player in self.waiting_list:
                    self.waiting_list.remove(offer.player)
        out += self._offer_seats(now)
        for p in list(self.seats.values()):
            if self.dealt_in(p.player):
                continue
            if p.disconnected_at is not None and not p.sitting_out:
                if (now - p.disconnected_at).total_seconds() >= t.disconnect_grace:
                    self._set_sitting_out(p, now)
                    out.append(self._changed(p))
            if p.sitting_out and p.sat_out_at is not None:
                if (now - p.sat_out_at).total_seconds() >= t.sit_out_limit:
                    out += self._unseat(p, now)
        out += self._maybe_start(now)
        return out

    def decision_of(self, seat: int) -> object:
        """The pending decision if it is this seat's (for the client's action bar)."""
        if not self.in_hand:
            return None
        assert self.hand is not None
        pending = self.hand.pending
        if isinstance(pending, DiscardDecision | RunTwiceDecision):
            return pending if seat in pending.seats else None
        return pending if getattr(pending, "seat", None) == seat else None

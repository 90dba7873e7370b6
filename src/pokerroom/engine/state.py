"""One hand of poker as a sans-I/O state machine (ARCHITECTURE.md, "The engine, sans-I/O").

``HandState.start(...)`` posts the forced bets and deals; ``apply(command)`` validates a command fully,
then mutates and runs every dealer step that follows (collecting bets, returning uncalled chips, dealing,
burning, showdown, awarding pots) until the hand needs a decision again or is over. An illegal command
raises a typed error and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import Any, Final

from pokerroom.cards import Card, DeckSpec
from pokerroom.engine.betting import BetDecision, PlayerState, Round, bet_options
from pokerroom.engine.commands import (
    BringIn,
    Call,
    Check,
    Command,
    Discard,
    Draw,
    Fold,
    Muck,
    QuickFold,
    RaiseTo,
    Show,
    TimeOut,
)
from pokerroom.engine.deck import CardSource, ListDeck
from pokerroom.engine.errors import (
    AmountOutOfRange,
    BadCommand,
    ConfigError,
    HandOver,
    IllegalAction,
    InvalidCards,
    NotAChipMultiple,
    NotYourTurn,
)
from pokerroom.engine.events import (
    ActionTaken,
    BetReturned,
    BoardDealt,
    Burned,
    CardsDealt,
    CardsShown,
    Discarded,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    Mucked,
    Posted,
    PotAwarded,
    Reshuffled,
    RoundEnded,
    StreetStarted,
)
from pokerroom.engine.pots import Pot, allocate_rake, side_pots
from pokerroom.engine.setup import (
    Blinds,
    DiscardDecision,
    DrawDecision,
    HandComplete,
    Pending,
    Phase,
    SeatSetup,
    ShowDecision,
    check_start,
)
from pokerroom.engine.showdown import Award, ShownTracker, award_pot
from pokerroom.engine.spec import VariantSpec
from pokerroom.engine.stakes import Betting, RakeRule, Structure
from pokerroom.engine.stud import bring_in_seat, first_to_act, has_open_pair
from pokerroom.eval import HandValue, evaluate, ranker

# Enum members as module constants: the compiled engine reads a constant instead of looking the member up
# on its enum class at every comparison.
_BETTING: Final = Phase.BETTING
_DRAW: Final = Phase.DRAW
_DISCARD: Final = Phase.DISCARD
_SHOWDOWN: Final = Phase.SHOWDOWN
_DONE: Final = Phase.DONE
_FL: Final = Betting.FIXED_LIMIT

_RANKERS: dict[tuple[str, int, int], Callable[[Sequence[int]], int]] = {}


def _ranker(rule: str, n: int, hole: int) -> Callable[[Sequence[int]], int]:
    key = (rule, n, hole)
    fn = _RANKERS.get(key)
    if fn is None:
        fn = _RANKERS[key] = ranker(rule, n, hole=hole)
    return fn


__all__ = [
    "Blinds",
    "DiscardDecision",
    "DrawDecision",
    "HandComplete",
    "HandState",
    "Pending",
    "Phase",
    "SeatSetup",
    "ShowDecision",
]


class HandState:
    """One hand. Create it with :meth:`start`; drive it with :meth:`apply`."""

    variant: VariantSpec
    structure: Structure
    players: dict[int, PlayerState]
    order: tuple[int, ...]
    button: int | None
    board: list[Card]
    events: list[Event]
    commands: list[Command]

    # ----------------------------------------------------------------------------------------- start

    @classmethod
    def start(
        cls,
        *,
        variant: VariantSpec,
        structure: Structure,
        seats: Sequence[SeatSetup],
        deck: CardSource,
        button: int | None = None,
        blinds: Blinds | None = None,
        rake: RakeRule | None = None,
        hand_id: str = "",
    ) -> HandState:
        """Start a hand: check the settings, post the forced bets and deal the first street."""
        check_start(seats, button, blinds, hand_id)
        self = cls()
        self._init(variant, structure, seats, deck, button, blinds, rake, hand_id)
        self._begin()
        return self

    def _init(
        self,
        variant: VariantSpec,
        structure: Structure,
        seats: Sequence[SeatSetup],
        deck: CardSource,
        button: int | None,
        blinds: Blinds | None,
        rake: RakeRule | None,
        hand_id: str,
    ) -> None:
        variant.check_structure(structure.betting)
        variant.check_players(len(seats))
        numbers = [s.seat for s in seats]  # checked by check_start
        expected = variant.deck_for(len(seats))
        if deck.spec is not expected:
            raise ConfigError(
                f"{variant.name} with {len(seats)} players is dealt from a {expected.size}-card deck"
            )
        stakes = structure.stakes
        self._stud = variant.is_stud  # read at every street: kept here, not asked of the variant
        if self._stud:
            if structure.betting is not _FL or stakes.bring_in <= 0:
                raise ConfigError("stud games are fixed limit with a bring-in")
            if stakes.bring_in >= stakes.small_bet:
                raise ConfigError("the bring-in must be less than the small bet")
        elif blinds is None and stakes.big_blind <= 0:
            raise ConfigError("a blind game needs a big blind")
        self.variant = variant
        self.structure = structure
        self.hand_id = hand_id
        self.rake_rule = rake
        self.deck = deck
        # The deck as it was before the deal: a ListDeck keeps its original order, other sources (replays)
        # are asked now.
        self._deck_data: dict[str, Any] | None = None if isinstance(deck, ListDeck) else deck.to_data()
        self.players = {s.seat: PlayerState(s.seat, s.stack, s.stack, s.auto_muck) for s in seats}
        self.order = tuple(sorted(numbers))
        self._rings: dict[int | None, tuple[int, ...]] = {}
        self._live = len(numbers)  # players who have not folded
        self._pot = 0  # everything put in, after uncalled returns
        self._decision_cache: BetDecision | None = None
        if self._stud:
            self.button = None
        else:
            self.button = max(self.order) if button is None else button
        self.board = []
        self.events = []
        self.commands = []
        self.phase = _BETTING
        self.street = 0
        self.rnd = Round(structure)
        self.to_act: int | None = None
        self.aggressors: dict[int, int] = {}
        self.discards: list[Card] = []  # draw-game discards available for a reshuffle
        self.exposed = False
        self.reached_second_street = False
        self.pots: list[Pot] = []
        self.rake = 0
        self._show_queue: list[int] = []
        self._tracker: ShownTracker | None = None
        self._values: dict[int, tuple[HandValue, HandValue | None]] = {}
        self._rule = variant.rule_for(deck.spec)
        self._blinds = blinds
        self._last_blind: int | None = self.button
        self._start_args: dict[str, Any] = {
            "seats": [(s.seat, s.stack, s.auto_muck) for s in seats],
            "button": button,
            "blinds": blinds,
            "rake": rake,
            "hand_id": hand_id,
        }

    # ------------------------------------------------------------------------------------ navigation

    def _after(self, seat: int | None) -> tuple[int, ...]:
        """Dealt-in seats clockwise, starting with the first one after ``seat`` (stud: from seat 1)."""
        cached = self._rings.get(seat)
        if cached is None:
            order = self.order
            if seat is None:
                cached = order
            else:
                cached = tuple(s for s in order if s > seat) + tuple(s for s in order if s <= seat)
            self._rings[seat] = cached
        return cached

    def _active(self) -> list[PlayerState]:
        return [self.players[s] for s in self.order if not self.players[s].folded]

    def _odd_chip_order(self, seats: Sequence[int]) -> tuple[int, ...]:
        wanted = set(seats)
        return tuple(s for s in self._after(self.button) if s in wanted)

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    # ------------------------------------------------------------------------------- forced bets, deal

    def _begin(self) -> None:
        v, stakes = self.variant, self.structure.stakes
        self._emit(
            HandStarted(
                v.code,
                self.structure.betting.value,
                self.button,
                self.order,
                tuple(self.players[s].stack for s in self.order),
            )
        )
        blinds = self._blinds
        antes = (
            dict(blinds.antes)
            if blinds and blinds.antes is not None
            else dict.fromkeys(self.order, stakes.ante)
        )
        for seat in self._after(self.button):
            if antes.get(seat, 0) > 0:
                self._post(self.players[seat], antes[seat], "ante", live=False)
        self._open_round(0)
        if not self._stud:
            if blinds is None:
                blinds = self._default_blinds()
            self._post_blinds(blinds)
        self._deal_street(0)
        if self._stud:
            self._choose_bring_in()
        self._first_actor_round0()
        self._advance()

    def _default_blinds(self) -> Blinds:
        stakes = self.structure.stakes
        seats = list(self._after(self.button))
        if len(seats) == 2:
            button_seat = self.button if self.button in self.players else seats[-1]
            other = seats[0] if seats[0] != button_seat else seats[1]
            return Blinds(small=(button_seat, stakes.small_blind), big=(other, stakes.big_blind))
        return Blinds(small=(seats[0], stakes.small_blind), big=(seats[1], stakes.big_blind))

    def _check_seat(self, seat: int) -> PlayerState:
        if seat not in self.players:
            raise ConfigError(f"seat {seat} is not dealt in")
        return self.players[seat]

    def _post_blinds(self, b: Blinds) -> None:
        rnd = self.rnd
        self._last_blind = self.button
        for seat, amount in b.dead:
            self._post(self._check_seat(seat), amount, "dead", live=False)
        level = 0
        raises = 0
        if b.small is not None and b.small[1] > 0:
            self._post(self._check_seat(b.small[0]), b.small[1], "small_blind", live=True)
            self._last_blind = b.small[0]
        if b.big is not None:
            self._post(self._check_seat(b.big[0]), b.big[1], "big_blind", live=True)
            level = b.big[1]
            self._last_blind = b.big[0]
        for seat, amount in b.straddles:
            self._post(self._check_seat(seat), amount, "straddle", live=True)
            if level and amount > level:
                raises += 1
            level = max(level, amount)
            self._last_blind = seat
        for seat, amount in b.live:
            self._post(self._check_seat(seat), amount, "live", live=True)
        level = max([level, *(p.bet for p in self.players.values())])
        rnd.level = level
        if level:
            rnd.counted = level
            rnd.wagers = 1 + raises
            if self.structure.betting is not _FL:
                rnd.min_raise = max(level, self.structure.min_bet)  # preflop R starts at the BB (§3.5)

    def _post(self, p: PlayerState, amount: int, what: str, live: bool) -> None:
        paid = min(amount, p.stack)
        p.stack -= paid
        p.paid += paid
        self._pot += paid
        if live:
            p.bet += paid
        if p.stack == 0:
            p.all_in = True
        self._emit(Posted(p.seat, paid, what, p.all_in))

    def _open_round(self, street: int) -> None:
        s = self.variant.streets[street]
        structure = self.structure
        rnd = Round(structure)
        if structure.betting is _FL:
            rnd.unit = structure.stakes.big_bet if s.big_bet else structure.stakes.small_bet
        else:
            rnd.min_raise = structure.min_bet
        rnd.stud_first_round = self._stud and street == 0
        not_folded = sum(1 for p in self.players.values() if not p.folded)
        rnd.capped_round = not (structure.heads_up_uncapped and not_folded == 2)
        self.rnd = rnd
        for p in self.players.values():
            p.bet = 0
            p.acted = False
            p.level_seen = 0
            p.wagers_seen = 0

    def _take(self, purpose: str, seat: int | None) -> Card:
        return self.deck.take(purpose, seat)

    def _deal_street(self, index: int) -> None:
        street = self.variant.streets[index]
        receivers = [s for s in self._after(self.button) if not self.players[s].folded]
        if street.deal:
            n = len(receivers)
            if self._stud and len(street.deal) == 1 and index > 0:
                stub = self.deck.remaining()
                if stub < n:  # one community card for everybody (RULES.md §5.7)
                    if stub >= 2:
                        self._take("burn", None)
                        self._emit(Burned())
                    card = self._take("board", None)
                    self.board.append(card)
                    self._emit(BoardDealt((card,)))
                    return
                if stub >= n + 1 and street.burn:
                    self._take("burn", None)
                    self._emit(Burned())
            elif street.burn:
                self._take("burn", None)
                self._emit(Burned())
            dealt: dict[int, list[Card]] = {s: [] for s in receivers}
            for _ in street.deal:
                for seat in receivers:
                    dealt[seat].append(self._take("hole", seat))
            for seat in receivers:
                p = self.players[seat]
                p.hole.extend(dealt[seat])
                p.up.extend(street.deal)
                self._emit(CardsDealt(seat, tuple(dealt[seat]), street.deal))
                if self.exposed:  # hands are face up after an all-in exposure: so are later cards (§6.5)
                    self._emit(CardsShown(seat, tuple(p.hole), "all_in"))
        elif street.burn and street.board:
            self._take("burn", None)
            self._emit(Burned())
        if street.board:
            cards = tuple(self._take("board", None) for _ in range(street.board))
            self.board.extend(cards)
            self._emit(BoardDealt(cards))

    def _choose_bring_in(self) -> None:
        candidates = [(p.seat, p.upcards()[-1]) for p in self._active() if not p.all_in]
        if not candidates or self.betting_closed():  # nobody to bet against: no betting round (§3.1)
            return
        seat = bring_in_seat(candidates, self.variant.bring_in_highest)
        self.rnd.bring_in_seat = seat
        self.rnd.bring_in = self.structure.stakes.bring_in

    def _first_actor_round0(self) -> None:
        if self._stud:
            self.to_act = self.rnd.bring_in_seat
        else:
            self.to_act = self._first_needing(self._after(self._last_blind))

    # ------------------------------------------------------------------------------------ betting

    def _needs_action(self, p: PlayerState) -> bool:
        if p.folded or p.all_in:
            return False
        if p.quick_folded:
            return True  # his fold is shown when the action reaches him
        if self.rnd.bring_in_seat == p.seat and self.rnd.bring_in:
            return True
        if not p.acted or p.bet < self.rnd.level:
            # Nobody left to bet against: every other active player is all-in and p has matched them.
            top = 0
            for q in self.players.values():
                if q is not p and not q.folded:
                    if not q.all_in:
                        return True
                    if q.bet > top:
                        top = q.bet
            return p.bet < top
        return False

    def _reveal_quick_fold(self, p: PlayerState) -> bool:
        """The action reached a player who quick-folded: his fold is shown now (R204)."""
        if not p.quick_folded:
            return False
        self._fold(p)
        return True

    def _apply_quick_fold(self, seat: int) -> None:
        p = self.players[seat]
        if self.phase is not _BETTING or p.folded or p.all_in or p.quick_folded:
            raise IllegalAction(seat, "quick fold", "only a player still betting may quick-fold")
        if not self.faces_bet(seat) or not self._needs_action(p):
            raise IllegalAction(seat, "quick fold", "a player who could check may not quick-fold")
        if self.to_act == seat:
            self._fold(p)
        else:
            p.quick_folded = True

    def _fold(self, p: PlayerState) -> None:
        p.folded = True
        self._live -= 1
        self._emit(ActionTaken(p.seat, "fold"))

    def _first_needing(self, seats: Iterable[int]) -> int | None:
        for seat in seats:
            if self._needs_action(self.players[seat]):
                return seat
        return None

    def pot_total(self) -> int:
        return self._pot

    def _decision(self, seat: int) -> BetDecision:
        cached = self._decision_cache
        if cached is not None and cached.seat == seat:
            return cached
        p = self.players[seat]
        # Nobody left who could call a raise: only call or fold (RULES.md §3.1, "no further betting").
        contested = any(q.can_act for q in self.players.values() if q is not p)
        decision = bet_options(self.rnd, p, self.pot_total(), raising=contested)
        self._decision_cache = decision
        return decision

    def _apply_bet(self, cmd: Command) -> None:
        p = self.players[cmd.seat]
        rnd = self.rnd
        opts = self._decision(cmd.seat)
        if isinstance(cmd, TimeOut):  # R104; a stud bring-in on timeout is posted (§4.5)
            cmd = BringIn(cmd.seat) if opts.bring_in else (Check(cmd.seat) if opts.check else Fold(cmd.seat))
        if isinstance(cmd, Fold):
            if not opts.fold:
                raise IllegalAction(cmd.seat, "fold", "the bring-in must be posted or completed")
            self._fold(p)
        elif isinstance(cmd, Check):
            if not opts.check:
                raise IllegalAction(cmd.seat, "check", f"there is a bet of {rnd.level} to call")
            self._acted(p)
            self._emit(ActionTaken(p.seat, "check", 0, p.bet))
        elif isinstance(cmd, Call):
            if opts.call <= 0:
                raise IllegalAction(cmd.seat, "call", "there is nothing to call")
            self._put(p, opts.call)
            self._acted(p)
            self._emit(ActionTaken(p.seat, "call", opts.call, p.bet, p.all_in))
        elif isinstance(cmd, BringIn):
            if not opts.bring_in:
                raise IllegalAction(cmd.seat, "bring in", "no bring-in is due")
            self._put(p, opts.bring_in)
            rnd.level = max(rnd.level, rnd.bring_in)
            rnd.bring_in = 0
            rnd.bring_in_seat = None
            self._acted(p)
            self._emit(ActionTaken(p.seat, "bring_in", opts.bring_in, p.bet, p.all_in))
        elif isinstance(cmd, RaiseTo):
            self._apply_raise(p, cmd.amount, opts)
        else:
            raise IllegalAction(cmd.seat, cmd.kind, "a betting decision is pending")

    def _apply_raise(self, p: PlayerState, amount: int, opts: BetDecision) -> None:
        rnd = self.rnd
        chip = self.structure.stakes.chip_unit
        if not opts.raise_kind:
            raise IllegalAction(p.seat, "raise", "raising is not allowed now")
        if not opts.allows(amount, chip):
            if not opts.choices and opts.min_to <= amount <= opts.max_to:
                raise NotAChipMultiple(p.seat, amount, chip)
            raise AmountOutOfRange(p.seat, amount, opts.min_to, opts.max_to)
        kind = opts.raise_kind
        old_level = rnd.level
        added = amount - p.bet
        self._put(p, added)
        rnd.level = max(rnd.level, amount)
        if rnd.bring_in_seat is not None:  # completing instead of bringing in
            rnd.bring_in = 0
            rnd.bring_in_seat = None
        if self.structure.betting is _FL:
            full = amount - rnd.counted
            if 2 * full >= rnd.unit:  # a full wager, or an all-in of at least half a bet (§3.6)
                rnd.counted = amount
                rnd.wagers += 1
                if rnd.big_unit and full >= rnd.big_unit:  # open pair: a big-bet wager (§5.7)
                    rnd.big_made = True
                    rnd.unit = rnd.big_unit
        else:
            increment = amount - old_level
            if increment >= rnd.min_raise:
                rnd.min_raise = increment
        if amount > old_level:
            rnd.aggressor = p.seat
            self.aggressors[self.street] = p.seat
        self._acted(p)
        self._emit(ActionTaken(p.seat, kind, added, p.bet, p.all_in))

    def _put(self, p: PlayerState, chips: int) -> None:
        p.stack -= chips
        p.bet += chips
        p.paid += chips
        self._pot += chips
        if p.stack == 0:
            p.all_in = True

    def _acted(self, p: PlayerState) -> None:
        p.acted = True
        p.level_seen = self.rnd.level
        p.wagers_seen = self.rnd.wagers

    def _end_round(self) -> None:
        """Return the uncalled part of the highest bet and report the pots (RULES.md §3.7)."""
        bets = sorted(((p.bet, p.seat) for p in self.players.values()), reverse=True)
        if len(bets) >= 2 and bets[0][0] > bets[1][0]:
            top = self.players[bets[0][1]]
            excess = bets[0][0] - bets[1][0]
            top.stack += excess
            top.bet -= excess
            top.paid -= excess
            self._pot -= excess
            top.all_in = top.stack == 0
            self._emit(BetReturned(top.seat, excess))
        for p in self.players.values():
            p.bet = 0
        self.to_act = None
        self._emit(RoundEnded(tuple(pot.amount for pot in self._current_pots())))

    def _current_pots(self) -> list[Pot]:
        paid = {p.seat: p.paid for p in self.players.values()}
        active = [p.seat for p in self._active()]
        all_in = [p.seat for p in self._active() if p.all_in]
        return side_pots(paid, active, all_in)

    def current_pots(self) -> list[Pot]:
        """The main and side pots as they stand now (after a showdown: the pots that were awarded)."""
        return list(self.pots) if self.is_over else self._current_pots()

    def collected_pots(self) -> list[Pot]:
        """The pots as the last :class:`RoundEnded` reported them: the chips bet in the current round are
        still in front of the players, not in a pot (what a table shows; after the hand: the awarded pots)."""
        if self.is_over:
            return list(self.pots)
        paid = {p.seat: p.paid - p.bet for p in self.players.values()}
        active = [p.seat for p in self._active()]
        all_in = [p.seat for p in self._active() if p.all_in and p.bet == 0]  # all-in in an earlier round
        return [pot for pot in side_pots(paid, active, all_in) if pot.amount]

    def betting_closed(self) -> bool:
        """At most one active player can still bet: no more betting rounds (RULES.md §3.1)."""
        return sum(1 for p in self._active() if not p.all_in) <= 1

    # ------------------------------------------------------------------------------- progression

    def _advance(self) -> None:
        """Run dealer steps until the hand needs a decision or is over."""
        while self.phase is not _DONE:
            if self._live == 1:
                if self.phase is _BETTING:
                    self._end_round()
                self._finish_uncontested()
                return
            if self.phase is _BETTING:
                if self.to_act is not None and self._needs_action(self.players[self.to_act]):
                    if self._reveal_quick_fold(self.players[self.to_act]):
                        continue
                    return
                nxt = None if self.to_act is None else self._first_needing(self._after(self.to_act))
                if nxt is not None:
                    self.to_act = nxt
                    if self._reveal_quick_fold(self.players[nxt]):
                        continue
                    return
                self._end_round()
                if self._live == 1:
                    continue
                self._maybe_expose()
                self._enter_street(self.street + 1)
            elif self.phase is _DRAW:
                if self.to_act is not None:
                    return
                self._maybe_expose()
                self._start_betting()
            elif self.phase is _DISCARD:
                if any(not p.done for p in self._active()):
                    return
                self._maybe_expose(current_draw=self.variant.streets[self.street].draw)
                self._deal_and_continue()
            elif self.phase is _SHOWDOWN and self._run_showdown():
                return

    def _enter_street(self, index: int) -> None:
        if index >= len(self.variant.streets):
            self._begin_showdown()
            return
        self.street = index
        self.reached_second_street = True
        street = self.variant.streets[index]
        self._emit(StreetStarted(index, street.name))
        if street.discard:
            for p in self.players.values():
                p.done = False
            self.phase = _DISCARD
            self.to_act = None
            return
        self._deal_and_continue()

    def _deal_and_continue(self) -> None:
        street = self.variant.streets[self.street]
        self._deal_street(self.street)
        if street.draw:
            for p in self.players.values():
                p.done = False
            self.phase = _DRAW
            self.to_act = self._next_drawer()
            return
        self._start_betting()

    def _start_betting(self) -> None:
        self.phase = _BETTING
        self._open_round(self.street)
        if self.betting_closed():
            self.to_act = None
            self._end_round_silently()
            return
        street = self.variant.streets[self.street]
        if self._stud:
            boards = [(p.seat, p.upcards()) for p in self._active()]
            if street.open_pair and self.structure.betting is _FL and has_open_pair([b for _, b in boards]):
                self.rnd.big_unit = self.structure.stakes.big_bet
            assert self.variant.showing is not None
            best = first_to_act(boards, self.variant.showing)
            self.to_act = self._first_needing(self._after(best - 1 if best > 1 else 0))
        else:
            self.to_act = self._first_needing(self._after(self.button))

    def _end_round_silently(self) -> None:
        """No betting is possible on this street: move straight on to the next one."""
        self._maybe_expose()
        self._enter_street(self.street + 1)

    def _maybe_expose(self, current_draw: bool = False) -> None:
        """All-in exposure (RULES.md §6.5): face up once betting is over and no draw or discard remains
        (draw games: after the last draw; Irish: after the discard, showing the kept cards)."""
        if self.exposed or current_draw or not self.betting_closed() or len(self._active()) < 2:
            return
        if any(s.draw or s.discard for s in self.variant.streets[self.street + 1 :]):
            return
        self.exposed = True
        for seat in self._after(self.button):
            p = self.players[seat]
            if not p.folded:
                p.shown = True
                self._emit(CardsShown(seat, tuple(p.hole), "all_in"))

    # ------------------------------------------------------------------------------ draws, discards

    def _next_drawer(self) -> int | None:
        for seat in self._after(self.button):
            p = self.players[seat]
            if not p.folded and not p.done:
                return seat
        return None

    def _apply_draw(self, cmd: Draw | TimeOut) -> None:
        p = self.players[cmd.seat]
        discard = () if isinstance(cmd, TimeOut) else cmd.discard
        if len(discard) > self.variant.max_draw:
            raise InvalidCards(p.seat, "draw", f"at most {self.variant.max_draw} cards may be drawn")
        if len(set(discard)) != len(discard) or any(c not in p.hole for c in discard):
            raise InvalidCards(p.seat, "draw", "the discards must be distinct cards of your hand")
        keep = [(c, u) for c, u in zip(p.hole, p.up, strict=True) if c not in discard]
        received: list[Card] = []
        need = len(discard)
        while len(received) < need and self.deck.remaining() > 0:
            received.append(self._take("draw", p.seat))
        if len(received) < need:
            pile = self.discards
            self.discards = []
            self.deck.reshuffle(pile)
            self._emit(Reshuffled(len(pile)))
            while len(received) < need:
                received.append(self._take("draw", p.seat))
        self.discards.extend(discard)
        p.hole = [c for c, _ in keep] + received
        p.up = [u for _, u in keep] + [False] * len(received)
        p.done = True
        self._emit(Drew(p.seat, tuple(discard), tuple(received)))
        self.to_act = self._next_drawer()

    def _apply_discard(self, cmd: Discard | TimeOut) -> None:
        p = self.players[cmd.seat]
        count = self.variant.streets[self.street].discard
        if isinstance(cmd, TimeOut):
            keep = self._best_two(p)
            cards = tuple(c for c in p.hole if c not in keep)
        else:
            cards = cmd.cards
            if len(cards) != count or len(set(cards)) != count or any(c not in p.hole for c in cards):
                raise InvalidCards(
                    p.seat, "discard", f"exactly {count} distinct cards of your hand must be discarded"
                )
        p.hole = [c for c in p.hole if c not in cards]
        p.up = [False] * len(p.hole)
        p.done = True
        self._emit(Discarded(p.seat, cards))

    def _best_two(self, p: PlayerState) -> tuple[Card, ...]:
        """Irish timeout: keep the two cards that make the best hand with the flop; ties: earliest dealt."""
        best: tuple[HandValue, tuple[Card, ...]] | None = None
        for pair in combinations(p.hole, 2):
            value = evaluate("high", pair, self.board[:3])
            if best is None or value > best[0]:
                best = (value, pair)
        assert best is not None
        return best[1]

    # ------------------------------------------------------------------------------------ showdown

    def _values_of(self, p: PlayerState) -> tuple[HandValue, HandValue | None]:
        """The player's high (and low) value: ranked by the fast path; the description comes from the
        rank (the engine never needs the five cards used)."""
        if p.seat not in self._values:
            cards = [c.index for c in p.hole] + [c.index for c in self.board]
            n, hole = len(cards), len(p.hole)
            high = HandValue(self._rule, _ranker(self._rule, n, hole)(cards))
            low = None
            if self.variant.low:
                low = HandValue(self.variant.low, _ranker(self.variant.low, n, hole)(cards))
            self._values[p.seat] = (high, low)
        return self._values[p.seat]

    def _first_shower(self) -> int:
        active = {p.seat for p in self._active()}
        for street in sorted(self.aggressors, reverse=True):
            seat = self.aggressors[street]
            if seat in active:
                return seat
        return next(s for s in self._after(self.button) if s in active)

    def _begin_showdown(self) -> None:
        self.phase = _SHOWDOWN
        self.to_act = None
        self.pots = self._current_pots()
        if self.exposed:
            self._show_queue = []
        else:
            first = self._first_shower()
            active = {p.seat for p in self._active()}
            self._show_queue = [first] + [s for s in self._after(first) if s in active and s != first]
        self._tracker = ShownTracker(self.pots)
        for p in self._active():
            if p.shown:
                high, low = self._values_of(p)
                self._tracker.record(p.seat, high, low)
        self._first_pending = not self.exposed

    def _run_showdown(self) -> bool:
        """Reveal hands in order; return True while waiting for a show-or-muck decision."""
        tracker = self._tracker
        assert tracker is not None
        while self._show_queue:
            seat = self._show_queue[0]
            p = self.players[seat]
            high, low = self._values_of(p)
            if self._first_pending or tracker.must_show(seat, high, low):
                self._first_pending = False
                self._show(p, high, low)
            elif p.auto_muck:
                self._muck(p)
            else:
                self.to_act = seat
                return True
            self._show_queue.pop(0)
        self._award_all()
        return False

    def _show(self, p: PlayerState, high: HandValue, low: HandValue | None) -> None:
        assert self._tracker is not None
        p.shown = True
        self._tracker.record(p.seat, high, low)
        text = high.description if low is None or not low else f"{high.description}; {low.description}"
        self._emit(CardsShown(p.seat, tuple(p.hole), "showdown", text))

    def _muck(self, p: PlayerState) -> None:
        p.mucked = True
        self._emit(Mucked(p.seat, tuple(p.hole)))

    def _apply_show(self, cmd: Show | Muck | TimeOut) -> None:
        p = self.players[cmd.seat]
        if isinstance(cmd, Show):
            high, low = self._values_of(p)
            self._show(p, high, low)
        else:
            self._muck(p)
        self._show_queue.pop(0)
        self.to_act = None

    def _take_rake(self, pots: list[int]) -> list[int]:
        if self.rake_rule is None or not self.reached_second_street:
            return [0] * len(pots)
        self.rake = self.rake_rule.amount(sum(pots))
        return allocate_rake(self.rake, pots)

    def _award_all(self) -> None:
        pots = self.pots
        rakes = self._take_rake([pot.amount for pot in pots])
        low_rule = self.variant.low
        awards: list[tuple[Award, int]] = []
        for k in range(len(pots) - 1, -1, -1):
            pot = pots[k]
            contenders = self._odd_chip_order(pot.eligible)
            highs = {s: self._values_of(self.players[s])[0] for s in contenders}
            lows = None
            if low_rule:
                lows = {s: v for s in contenders if (v := self._values_of(self.players[s])[1]) is not None}
            for i, a in enumerate(award_pot(k, pot.amount - rakes[k], contenders, highs, lows)):
                awards.append((a, rakes[k] if i == 0 else 0))
        for a, rake in awards:
            for seat, share in zip(a.winners, a.shares, strict=True):
                self.players[seat].stack += share
            self._emit(PotAwarded(a.pot, a.amount, rake, a.winners, a.shares, a.half, a.description))
        self._finish()

    def _finish_uncontested(self) -> None:
        winner = self._active()[0]
        total = self.pot_total()
        self.pots = [Pot(total, (winner.seat,))]
        rake = self._take_rake([total])[0]
        winner.stack += total - rake
        self._emit(PotAwarded(0, total - rake, rake, (winner.seat,), (total - rake,), "", ""))
        self._finish()

    def _finish(self) -> None:
        self.phase = _DONE
        self.to_act = None
        seats = self.order
        stacks = tuple(self.players[s].stack for s in seats)
        net = tuple(self.players[s].stack - self.players[s].starting_stack for s in seats)
        self._emit(HandEnded(seats, stacks, net, self.rake))

    # ------------------------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.phase is _DONE

    @property
    def pending(self) -> Pending:
        """What the hand waits for, as data."""
        if self.phase is _DONE:
            return HandComplete()
        if self.phase is _DISCARD:
            count = self.variant.streets[self.street].discard
            return DiscardDecision(tuple(p.seat for p in self._active() if not p.done), count)
        assert self.to_act is not None
        if self.phase is _DRAW:
            return DrawDecision(self.to_act, self.variant.max_draw)
        if self.phase is _SHOWDOWN:
            return ShowDecision(self.to_act)
        return self._decision(self.to_act)

    def legal_actions(self) -> Pending:
        """The decision pending now, with every legal option (same as :attr:`pending`)."""
        return self.pending

    def waiting_for(self) -> tuple[int, ...]:
        """The seats that may send a command now."""
        pending = self.pending
        if isinstance(pending, DiscardDecision):
            return pending.seats
        if isinstance(pending, HandComplete):
            return ()
        return (pending.seat,)

    def contributions(self) -> dict[int, int]:
        """What each player put into the pot this hand, after uncalled returns (points, RULES.md §7.2)."""
        return {s: self.players[s].paid for s in self.order}

    def faces_bet(self, seat: int) -> bool:
        """Does another player have more chips in front of him in this round than ``seat`` (a real bet to
        call, not only a nominal blind that an all-in player could not cover)?"""
        p = self.players[seat]
        if self.phase is not _BETTING or p.folded:
            return False
        return max((q.bet for q in self.players.values() if q is not p), default=0) > p.bet

    def must_act(self, seat: int) -> bool:
        """Will the player in ``seat`` be asked to act in the current betting round?"""
        return self.phase is _BETTING and self._needs_action(self.players[seat])

    def to_call(self, seat: int) -> int:
        """What the player in ``seat`` owes to stay in the current betting round (0 outside betting)."""
        p = self.players[seat]
        if self.phase is not _BETTING or p.folded:
            return 0
        return max(0, self.rnd.level - p.bet)

    def deck_data(self) -> dict[str, Any]:
        """The deck as it was before the deal (server side only: it is the hand's secret)."""
        if self._deck_data is None:
            self._deck_data = self.deck.to_data()
        return dict(self._deck_data)

    def clockwise_from_button(self) -> tuple[int, ...]:
        """The seats dealt in, from the first left of the button (stud: from the lowest seat)."""
        return tuple(self._after(self.button))

    def stacks(self) -> dict[int, int]:
        return {s: self.players[s].stack for s in self.order}

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.players[seat].hole)

    @property
    def deck_spec(self) -> DeckSpec:
        return self.deck.spec

    # -------------------------------------------------------------------------------------- apply

    def apply(self, command: Command) -> list[Event]:
        """Apply one command; return the events it caused. Raises a typed error and changes nothing
        when the command is not legal now."""
        if not isinstance(command, Command):
            raise BadCommand("not a command")
        command.check()
        if self.phase is _DONE:
            raise HandOver()
        seat = command.seat
        if seat not in self.players:
            raise NotYourTurn(seat, self.waiting_for())
        mark = len(self.events)
        if isinstance(command, QuickFold):
            self._apply_quick_fold(seat)
        elif self.phase is _DISCARD:
            p = self.players[seat]
            if p.folded or p.done:
                raise NotYourTurn(seat, self.waiting_for())
            if not isinstance(command, Discard | TimeOut):
                raise IllegalAction(seat, command.kind, "every player must discard two cards now")
            self._apply_discard(command)
        else:
            if seat != self.to_act:
                raise NotYourTurn(seat, self.waiting_for())
            if self.phase is _DRAW:
                if not isinstance(command, Draw | TimeOut):
                    raise IllegalAction(seat, command.kind, "a draw is pending")
                self._apply_draw(command)
            elif self.phase is _SHOWDOWN:
                if not isinstance(command, Show | Muck | TimeOut):
                    raise IllegalAction(seat, command.kind, "show or muck is pending")
                self._apply_show(command)
            else:
                self._apply_bet(command)
        self._decision_cache = None  # the state changed (an illegal command above changed nothing)
        self.commands.append(command)
        self._advance()
        return self.events[mark:]

    # ------------------------------------------------------------------------------- persistence

    def snapshot(self) -> dict[str, Any]:
        """Plain data from which :meth:`restore` rebuilds this exact state (start data + commands)."""
        from pokerroom.engine.snapshot import dump_hand

        return dump_hand(self)

    @classmethod
    def restore(cls, data: Any) -> HandState:
        from pokerroom.engine.snapshot import load_hand

        return load_hand(data)

    def __repr__(self) -> str:  # public facts only: no cards, no deck
        v, b = self.variant.code, self.structure.betting.value
        return f"<HandState {v} {b} {self.phase.value} street={self.street}>"

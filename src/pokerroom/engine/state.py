"""One hand of poker as a sans-I/O state machine (ARCHITECTURE.md, "The engine, sans-I/O").

``HandState.start(...)`` posts the forced bets and deals; ``apply(command)`` validates a command fully,
then mutates and runs every dealer step that follows (collecting bets, returning uncalled chips, dealing,
burning, showdown, awarding pots) until the hand needs a decision again or is over. An illegal command
raises a typed error and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any, Final

from pokerroom.cards import Card, DeckSpec
from pokerroom.engine.betting import PlayerState
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
    RunTwice,
    Show,
    TimeOut,
)
from pokerroom.engine.deck import CardSource
from pokerroom.engine.errors import (
    BadCommand,
    HandOver,
    IllegalAction,
    InvalidCards,
    NotYourTurn,
)
from pokerroom.engine.events import (
    BoardDealt,
    Burned,
    CardsShown,
    Discarded,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    Mucked,
    PotAwarded,
    Reshuffled,
    RunTwiceAnswered,
    RunTwiceDecided,
    RunTwiceOffered,
    StreetStarted,
)
from pokerroom.engine.hand_betting import HandBetting
from pokerroom.engine.hand_deal import check_start
from pokerroom.engine.pots import Pot, allocate_rake
from pokerroom.engine.setup import (
    Blinds,
    DiscardDecision,
    DrawDecision,
    HandComplete,
    Pending,
    Phase,
    RunTwiceDecision,
    SeatSetup,
    ShowDecision,
)
from pokerroom.engine.showdown import Award, ShownTracker, award_pot
from pokerroom.engine.spec import VariantSpec
from pokerroom.engine.stakes import Betting, RakeRule, Structure
from pokerroom.engine.stud import first_to_act, has_open_pair
from pokerroom.eval import HandValue, evaluate, ranker

# Enum members as module constants: the compiled engine reads a constant instead of looking the member up
# on its enum class at every comparison.
_BETTING: Final = Phase.BETTING
_DRAW: Final = Phase.DRAW
_DISCARD: Final = Phase.DISCARD
_SHOWDOWN: Final = Phase.SHOWDOWN
_RUN_TWICE: Final = Phase.RUN_TWICE
_DONE: Final = Phase.DONE
_FL: Final = Betting.FIXED_LIMIT

_RANKERS: dict[tuple[str, int, int], Callable[[Sequence[int]], int]] = {}

# The commands whose only fields are integers: one of these, of exactly its class, with plain ``int``
# fields passes ``Command.check`` (an interpreted call per action), so ``apply`` skips the call.
_SEAT_ONLY: Final = frozenset({Fold, Check, Call, BringIn, Show, Muck, QuickFold, TimeOut})


def _plainly_typed(command: Command) -> bool:
    """True when ``command.check()`` would pass for certain: an exact command class of the engine's own
    whose integer fields are exactly ``int`` (anything else, a subclass included, is checked)."""
    # Read as plain objects: the compiled module would otherwise convert them to its declared ``int``
    # type here, raising a bare TypeError for a wrong type that ``check`` reports as BadCommand.
    cls = type(command)
    if cls is RaiseTo:
        return type(getattr(command, "seat")) is int and type(getattr(command, "amount")) is int  # noqa: B009
    return cls in _SEAT_ONLY and type(getattr(command, "seat")) is int  # noqa: B009


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
    "RunTwiceDecision",
    "SeatSetup",
    "ShowDecision",
]


class HandState(HandBetting):
    """One hand. Create it with :meth:`start`; drive it with :meth:`apply`."""

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
        run_it_twice: bool = False,
    ) -> HandState:
        """Start a hand: check the settings, post the forced bets and deal the first street.

        ``run_it_twice``: the table allows running the board twice (board games only; R-RIT)."""
        check_start(seats, button, blinds, hand_id)
        self = cls()
        self._init(variant, structure, seats, deck, button, blinds, rake, hand_id, run_it_twice)
        self._begin()
        return self

    def _begin(self) -> None:
        v = self.variant
        self._emit(
            HandStarted(
                v.code,
                self.structure.betting._value_,  # (``.value``: two Python calls of the enum's property)
                self.button,
                self.order,
                tuple(self.players[s].stack for s in self.order),
            )
        )
        blinds = self._blinds
        if blinds is None and not self._stud:
            blinds = self._default_blinds()
        antes = self._antes(blinds)
        short = self._short_big_blind_ante(blinds, antes)
        if short is None:
            self._post_antes(antes)
        self._open_round(0)
        if blinds is not None and not self._stud:
            self._post_blinds(blinds)
        if (
            short is not None and self.players[short].stack > 0
        ):  # R255: the blind first, the rest toward the ante
            self._post_antes(antes)
        self._deal_street(0)
        if blinds is not None and blinds.bomb_pot:  # no betting before the flop (RULES.md §11.2)
            self._end_round()
            self._enter_street(1)
            self._advance()
            return
        if self._stud:
            self._choose_bring_in()
        self._first_actor_round0()
        self._advance()

    def _short_big_blind_ante(self, blinds: Blinds | None, antes: dict[int, int]) -> int | None:
        """The big blind's seat when the hand has a big-blind ante (his is the only ante: the stakes' big-
        blind ante, or a recorded hand's) and his stack cannot cover both: he then posts his blind first
        and the rest toward the ante (RULES.md §11.3, R255). None otherwise: antes are posted first."""
        big = blinds.big if blinds is not None else None
        if big is None or self._stud:
            return None
        seat = big[0]
        posts = False  # whether the big blind posts an ante; nobody else may
        for s, a in antes.items():
            if a > 0:
                if s != seat:
                    return None
                posts = True
        if not posts:
            return None
        return seat if self.players[seat].stack < big[1] + antes[seat] else None

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
                nxt = None if self.to_act is None else self._first_needing(self._ring_from(self.to_act))
                if nxt is not None:
                    self.to_act = nxt
                    if self._reveal_quick_fold(self.players[nxt]):
                        continue
                    return
                self._end_round()
                if self._live == 1:
                    continue
                self._maybe_expose()
                if self._offer_run_twice(self.street + 1):
                    continue
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
                if self._offer_run_twice(self.street):
                    continue
                self._deal_and_continue()
            elif self.phase is _SHOWDOWN:
                if self._run_showdown():
                    return
            elif self.phase is _RUN_TWICE and not self._settle_run_twice():
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
        if self._offer_run_twice(self.street + 1):
            return
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

    # ------------------------------------------------------------------------------- run it twice

    def _offer_run_twice(self, next_street: int) -> bool:
        """R-RIT (docs/decisions.md): when the table allows it, the hands are face up after betting closed
        (RULES.md §6.5) and board cards are still to come from ``next_street`` on, ask every player still
        in whether to run the rest of the board twice. Asked at most once per hand. True: asked."""
        if not self._rit or not self.exposed or self._rit_next >= 0:
            return False
        rest = self.variant.streets[next_street:]
        cards = sum(s.board + (1 if s.burn else 0) for s in rest)
        if not any(s.board for s in rest) or self.deck.remaining() < 2 * cards:
            return False
        self._rit_next = next_street
        self._rit_seats = tuple(s for s in self._after(self.button) if not self.players[s].folded)
        self.phase = _RUN_TWICE
        self.to_act = None
        self._emit(RunTwiceOffered(self._rit_seats))
        return True

    def _apply_run_twice(self, cmd: RunTwice | TimeOut) -> None:
        agree = isinstance(cmd, RunTwice) and cmd.agree  # a timeout answers no
        self._rit_answers[cmd.seat] = agree
        self._emit(RunTwiceAnswered(cmd.seat, agree))

    def _settle_run_twice(self) -> bool:
        """Once every player agreed, or one said no: deal. False while answers are missing."""
        answers = self._rit_answers
        once = not all(answers.values())
        if not once and len(answers) < len(self._rit_seats):
            return False
        self.runs = 1 if once else 2
        self._emit(RunTwiceDecided(self.runs))
        if once:  # the ordinary runout from where the hand stopped
            if self._rit_next == self.street:  # Irish: the street of the discard deals its card now
                self._deal_and_continue()
            else:
                self._enter_street(self._rit_next)
            return True
        self._deal_runs()
        self._begin_showdown()
        return True

    def _deal_runs(self) -> None:
        """The remaining streets twice from the same deck, the second run continuing it: each street with
        its burn, ``run`` 1 onto :attr:`board`, ``run`` 2 onto :attr:`board2` (which starts with the cards
        both runs share). Betting is over and no hole cards come in a board game's later streets."""
        streets = self.variant.streets
        self.board2 = list(self.board)
        self.reached_second_street = True
        for run in (1, 2):
            target = self.board if run == 1 else self.board2
            for index in range(self._rit_next, len(streets)):
                street = streets[index]
                self.street = index
                self._emit(StreetStarted(index, street.name, run))
                if street.burn:
                    self._take("burn", None)
                    self._emit(Burned())
                if street.board:
                    cards = tuple(self._take("board", None) for _ in range(street.board))
                    target.extend(cards)
                    self._emit(BoardDealt(cards, run))

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
        """The player's high (and low) value on the (first run's) board."""
        if p.seat not in self._values:
            self._values[p.seat] = self._value_on(p, self.board)
        return self._values[p.seat]

    def _value_on(self, p: PlayerState, board: list[Card]) -> tuple[HandValue, HandValue | None]:
        """High (and low) value with this board: ranked by the fast path; the description comes from the
        rank (the engine never needs the five cards used)."""
        cards = [c.index for c in p.hole] + [c.index for c in board]
        n, hole = len(cards), len(p.hole)
        high = HandValue(self._rule, _ranker(self._rule, n, hole)(cards))
        low = None
        if self.variant.low:
            low = HandValue(self.variant.low, _ranker(self.variant.low, n, hole)(cards))
        return high, low

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
        net = [pot.amount - rake for pot, rake in zip(pots, rakes, strict=True)]
        awards: list[tuple[Award, int, int]] = []
        if self.runs == 1:
            values = {p.seat: self._values_of(p) for p in self._active()}
            self._award_run(awards, net, rakes, values, 0)
        else:  # R-RIT: each pot halved, the odd chip to run 1; each half on its run's board
            first = [(amount + 1) // 2 for amount in net]
            second = [amount - half for amount, half in zip(net, first, strict=True)]
            values = {p.seat: self._values_of(p) for p in self._active()}
            self._award_run(awards, first, rakes, values, 1)
            values = {p.seat: self._value_on(p, self.board2) for p in self._active()}
            self._award_run(awards, second, [0] * len(pots), values, 2)
        for a, rake, run in awards:
            for seat, share in zip(a.winners, a.shares, strict=True):
                self.players[seat].stack += share
            self._emit(PotAwarded(a.pot, a.amount, rake, a.winners, a.shares, a.half, a.description, run))
        self._finish()

    def _award_run(
        self,
        awards: list[tuple[Award, int, int]],
        amounts: list[int],
        rakes: list[int],
        values: dict[int, tuple[HandValue, HandValue | None]],
        run: int,
    ) -> None:
        """The awards of every pot (last-created first, §3.8) for these amounts and hand values."""
        pots = self.pots
        low_rule = self.variant.low
        for k in range(len(pots) - 1, -1, -1):
            contenders = self._odd_chip_order(pots[k].eligible)
            highs = {s: values[s][0] for s in contenders}
            lows = None
            if low_rule:
                lows = {s: v for s in contenders if (v := values[s][1]) is not None}
            for i, a in enumerate(award_pot(k, amounts[k], contenders, highs, lows)):
                awards.append((a, rakes[k] if i == 0 else 0, run))

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
        if self.phase is _RUN_TWICE:
            return RunTwiceDecision(tuple(s for s in self._rit_seats if s not in self._rit_answers))
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
        if isinstance(pending, DiscardDecision | RunTwiceDecision):
            return pending.seats
        if isinstance(pending, HandComplete):
            return ()
        return (pending.seat,)

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

    @property
    def run_it_twice(self) -> bool:
        """The table allows running the board twice in this hand (R-RIT)."""
        return self._rit

    @property
    def boards(self) -> tuple[tuple[Card, ...], ...]:
        """The board of each run: one, or two when the board was run twice (R-RIT)."""
        if self.runs == 2:
            return (tuple(self.board), tuple(self.board2))
        return (tuple(self.board),)

    # -------------------------------------------------------------------------------------- apply

    def apply(self, command: Command) -> list[Event]:
        """Apply one command; return the events it caused. Raises a typed error and changes nothing
        when the command is not legal now."""
        if not isinstance(command, Command):
            raise BadCommand("not a command")
        if not _plainly_typed(command):
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
        elif self.phase is _RUN_TWICE:
            if seat not in self._rit_seats or seat in self._rit_answers:
                raise NotYourTurn(seat, self.waiting_for())
            if not isinstance(command, RunTwice | TimeOut):
                raise IllegalAction(seat, command.kind, "run it twice or not is pending")
            self._apply_run_twice(command)
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

        return load_hand(data, cls.start)

    def __repr__(self) -> str:  # public facts only: no cards, no deck
        v, b = self.variant.code, self.structure.betting.value
        return f"<HandState {v} {b} {self.phase.value} street={self.street}>"

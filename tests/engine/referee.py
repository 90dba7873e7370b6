"""An independent referee for property tests: RULES.md §3 (betting), §4.5 (stud order), §6.2 (showdown)
and §3.8-§3.9, §2.7, §7.1 (pots, splits, rake), written from the rules text and fed only with the
hand's configuration and its event log.

It does not read the engine's internal state. After every event it knows what the hand must wait for
next (who acts and with which options) and, at the end, what every player must end with.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pokerroom.cards import Card, Rank
from pokerroom.engine import Betting, Blinds, RakeRule, Structure, VariantSpec
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
    RoundEnded,
    RunTwiceAnswered,
    RunTwiceDecided,
    RunTwiceOffered,
    StreetStarted,
)

LIVE_POSTS = ("small_blind", "big_blind", "straddle", "live")


class RefereeError(AssertionError):
    """The engine did something the rules do not allow."""


@dataclass(frozen=True)
class Expected:
    """What the hand must wait for: ``kind`` is bet, draw, discard, show, done or none (a dealer step)."""

    kind: str
    seat: int | None = None
    seats: tuple[int, ...] = ()
    fold: bool = False
    check: bool = False
    call: int = 0
    bring_in: int = 0
    raise_kind: str = ""
    min_to: int = 0
    max_to: int = 0
    choices: tuple[int, ...] = ()


def _low_rank(card: Card) -> int:
    return 1 if card.rank == Rank.ACE else int(card.rank) + 2


def showing_strength(cards: Sequence[Card], game: VariantSpec) -> tuple[int, ...]:
    """Greater is better for acting first on later stud streets (RULES §3.2, §5.7-§5.11).

    High games: quads, trips, two pair, pair, high card; straights and flushes on the board do not
    count. Razz: the best (lowest) A-5 low showing, pairs count against. SOKO: a four flush, then a
    four straight, of four upcards rank between two pair and a pair.
    """
    low = game.showing is not None and game.showing.value == "low"
    counts = Counter(_low_rank(c) if low else int(c.rank) for c in cards)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    # high card 0, pair 1, two pair 2, trips 3, quads 4 (four upcards make no full house)
    category = {4: 4, 3: 3}.get(shape[0], 2 if shape[:2] == [2, 2] else 1 if shape[0] == 2 else 0)
    if low:  # the lowest board is the best: fewer pairs, then lower ranks from the top
        return (-category, *(-rank for rank, _ in groups))
    category *= 4  # room for SOKO: four flush (6) and four straight (5) between pair (4) and two pair (8)
    if game.showing is not None and game.showing.value == "soko" and len(cards) == 4 and category < 8:
        if len({c.suit for c in cards}) == 1:
            return (6, *sorted(counts, reverse=True))
        ranks = set(counts)
        for top in range(12, 2, -1):
            if ranks == {top, top - 1, top - 2, top - 3}:
                return (5, top)
        if ranks == {12, 0, 1, 2}:  # A-2-3-4, "4-high"
            return (5, 2)
    return (category, *(rank for rank, _ in groups))


class Referee:
    def __init__(
        self,
        game: VariantSpec,
        structure: Structure,
        seats: Sequence[int],
        button: int | None,
        blinds: Blinds | None,
        rake: RakeRule | None,
        auto_muck: dict[int, bool],
        run_it_twice: bool = False,
    ) -> None:
        self.game, self.structure, self.rake_rule, self.auto_muck = game, structure, rake, auto_muck
        # Run it twice (R-RIT): offered once betting is over, the hands face up (§6.5) and board cards
        # still to come; answered by every player still in; the boards of each run as dealt.
        self.rit = run_it_twice
        self.rit_seats: tuple[int, ...] | None = None
        self.rit_answers: dict[int, bool] = {}
        self.runs = 0  # 0 until decided
        self.board_cards = sum(s.board for s in game.streets)
        self.boards: dict[int, list[Card]] = {0: [], 1: [], 2: []}
        self.deck_size = game.deck_for(len(seats)).size
        self.used = 0  # cards taken from the deck: dealt, burned, on the board
        self.order = tuple(sorted(seats))
        self.button = None if game.is_stud else (max(self.order) if button is None else button)
        stakes = structure.stakes
        self.nominal_big = blinds.big[1] if blinds and blinds.big else 0
        if blinds is None and not game.is_stud:
            self.nominal_big = stakes.big_blind
        self.nominal_straddles = [a for _, a in blinds.straddles] if blinds else []
        # Antes (issue 21): the table's per-seat antes, else the big blind's one ante for the table, else
        # the stakes' ante from everyone. Unequal antes are dead money of the main pot, no contribution.
        if blinds is not None and blinds.antes is not None:
            antes = dict(blinds.antes)
        elif stakes.big_blind_ante:
            big = blinds.big if blinds is not None else None
            if big is None and self.button is not None:
                after = self.after(self.button)
                big = (after[0] if len(after) == 2 else after[1], stakes.big_blind)
            antes = {big[0]: stakes.ante} if big is not None and stakes.ante else {}
        else:
            antes = dict.fromkeys(self.order, stakes.ante)
        self.dead_antes = len({antes.get(s, 0) for s in self.order}) > 1
        self.dead: dict[int, int] = {}
        self.start: dict[int, int] = {}
        self.stack: dict[int, int] = {}
        self.paid = dict.fromkeys(self.order, 0)
        self.bet = dict.fromkeys(self.order, 0)
        self.folded: set[int] = set()
        self.up: dict[int, list[Card]] = {s: [] for s in self.order}
        self.street = 0
        self.streets_seen = 0
        self.round_open = False  # betting of the current street has been set up
        self.round_over = False
        self.acted: dict[int, tuple[int, int]] = {}  # seat -> (H, n) when he last acted voluntarily
        self.level = self.counted = self.wagers = self.min_raise = self.unit = 0
        self.big_unit = 0
        self.big_made = False
        self.capped = True
        self.bring_in_seat: int | None = None
        self.last_blind: int | None = self.button
        self.cursor: int | None = None  # search the next actor clockwise after this seat
        self.cursor_inclusive = False
        self.done: set[int] = set()  # drew / discarded on this street
        self.aggressors: dict[int, int] = {}
        self.showdown: list[tuple[int, bool]] = []  # (seat, shown) in order
        self.exposed: set[int] = set()
        self.quick: set[int] = set()  # Rush quick folds not shown yet (told by the test, not an event)
        self.over = False
        self.awarded: list[PotAwarded] = []
        self.ended: HandEnded | None = None

    # ------------------------------------------------------------------------------ navigation

    def after(self, seat: int | None, inclusive: bool = False) -> list[int]:
        if seat is None:
            return list(self.order)
        later = [s for s in self.order if s > seat or (inclusive and s == seat)]
        return later + [s for s in self.order if s not in later]

    def active(self) -> list[int]:
        return [s for s in self.order if s not in self.folded]

    def can_bet(self, seat: int) -> bool:
        return seat not in self.folded and self.stack[seat] > 0

    # --------------------------------------------------------------------------------- events

    def feed(self, events: Iterable[Event]) -> None:
        for e in events:
            self._feed(e)

    def _feed(self, e: Event) -> None:
        if self.over:
            raise RefereeError(f"event after the end of the hand: {e!r}")
        if isinstance(e, HandStarted):
            self.start = dict(zip(e.seats, e.stacks, strict=True))
            self.stack = dict(self.start)
            if tuple(e.seats) != self.order:
                raise RefereeError("the hand started with other seats")
            self._new_round(0)
        elif isinstance(e, Posted):
            self._pay(e.seat, e.amount)
            if e.what == "ante" and self.dead_antes:
                self.dead[e.seat] = self.dead.get(e.seat, 0) + e.amount
            if e.what in LIVE_POSTS:
                self.bet[e.seat] += e.amount
            if e.what in ("small_blind", "big_blind", "straddle"):
                self.last_blind = e.seat
            if e.all_in != (self.stack[e.seat] == 0):
                raise RefereeError(f"all-in flag wrong on {e!r}")
        elif isinstance(e, Burned):
            self.used += 1
        elif isinstance(e, CardsDealt):
            self.used += len(e.cards)
            self.up[e.seat].extend(c for c, u in zip(e.cards, e.up, strict=True) if u and c is not None)
            if e.seat in self.folded:
                raise RefereeError(f"cards dealt to a folded player: seat {e.seat}")
        elif isinstance(e, StreetStarted) and e.run:
            if self.runs != 2 or self.rit_seats is None:
                raise RefereeError("a run of the board without everybody agreeing to run twice")
            self.street = e.index
        elif isinstance(e, StreetStarted):
            self._rit_not_skipped()
            self._close_round_check()
            if e.index != self.street + 1:
                raise RefereeError(f"street {e.index} after street {self.street}")
            if len(self.active()) < 2:
                raise RefereeError("a street was started for a single player")
            self._new_round(e.index)
        elif isinstance(e, ActionTaken):
            self._action(e)
        elif isinstance(e, BetReturned):
            self.stack[e.seat] += e.amount
            self.paid[e.seat] -= e.amount
            self.bet[e.seat] -= e.amount
            others = [self.bet[s] for s in self.order if s != e.seat]
            if self.bet[e.seat] != max(others, default=0):
                raise RefereeError(f"returned {e.amount} to seat {e.seat}, not the uncalled part")
        elif isinstance(e, RoundEnded):
            self._close_round_check()
            self.round_over = True
            self.bet = dict.fromkeys(self.order, 0)
            if sum(e.pots) != sum(self.paid.values()):
                raise RefereeError(f"pots {e.pots} do not add up to {sum(self.paid.values())}")
        elif isinstance(e, BoardDealt):
            if e.run == 0:
                self._rit_not_skipped()
            elif self.runs != 2:
                raise RefereeError("run cards dealt without a decision to run twice")
            self.boards[e.run].extend(e.cards)
            self.used += len(e.cards)
        elif isinstance(e, RunTwiceOffered):
            self._rit_offer(e)
        elif isinstance(e, RunTwiceAnswered):
            if (
                self.rit_seats is None
                or self.runs
                or e.seat not in self.rit_seats
                or e.seat in self.rit_answers
            ):
                raise RefereeError(f"an answer to run it twice out of turn: {e!r}")
            self.rit_answers[e.seat] = e.agree
        elif isinstance(e, RunTwiceDecided):
            if self.rit_seats is None or self.runs:
                raise RefereeError("run it twice decided without being offered")
            answers = self.rit_answers
            expected = 1 if not all(answers.values()) else 2 if len(answers) == len(self.rit_seats) else 0
            if e.runs != expected:
                raise RefereeError(f"{e.runs} runs decided with the answers {answers}")
            self.runs = e.runs
        elif isinstance(e, Drew | Discarded):
            if e.seat in self.done or e.seat in self.folded:
                raise RefereeError(f"seat {e.seat} drew or discarded twice or after folding")
            self.done.add(e.seat)
        elif isinstance(e, CardsShown):
            if e.reason == "all_in":
                self.exposed.add(e.seat)
            else:
                self.showdown.append((e.seat, True))
        elif isinstance(e, Mucked):
            self.showdown.append((e.seat, False))
        elif isinstance(e, PotAwarded):
            for seat, share in zip(e.winners, e.shares, strict=True):
                self.stack[seat] += share
            self.awarded.append(e)
        elif isinstance(e, HandEnded):
            self.over = True
            self.ended = e

    def _rit_due(self) -> bool:
        """R-RIT: the question must be asked now (betting over, hands face up, board cards to come)."""
        active = self.active()
        return (
            self.rit
            and self.rit_seats is None
            and len(active) >= 2
            and self.betting_closed()
            and self.exposed == set(active)
            and len(self.boards[0]) < self.board_cards
            and self.deck_size - self.used >= 2 * self._runout_cards()
        )

    def _runout_cards(self) -> int:
        """Cards one run of the rest of the board takes, burns included (two runs need twice as many)."""
        board_streets = [s for s in self.game.streets if s.board]
        left, rest = self.board_cards - len(self.boards[0]), []
        for s in reversed(board_streets):
            if left <= 0:
                break
            rest.append(s)
            left -= s.board
        return sum(s.board + (1 if s.burn else 0) for s in rest)

    def _rit_not_skipped(self) -> None:
        if self._rit_due():
            raise RefereeError("the board went on without asking to run it twice")

    def _rit_offer(self, e: RunTwiceOffered) -> None:
        if not self._rit_due():
            raise RefereeError("run it twice offered when the rules do not offer it")
        if e.seats != tuple(s for s in self.after(self.button) if s not in self.folded):
            raise RefereeError(f"run it twice asked of {e.seats}, not of every player still in")
        self.rit_seats = e.seats

    def board_of_run(self, run: int) -> list[Card]:
        """The whole board of run 1 or 2 (the shared cards, then the run's own)."""
        return self.boards[0] + self.boards[run]

    def _pay(self, seat: int, amount: int) -> None:
        if amount < 0 or amount > self.stack[seat]:
            raise RefereeError(f"seat {seat} pays {amount} with {self.stack[seat]}")
        self.stack[seat] -= amount
        self.paid[seat] += amount

    def _new_round(self, index: int) -> None:
        street = self.game.streets[index]
        self.street = index
        self.round_open = False
        self.round_over = False
        self.acted = {}
        self.done = set()
        self.bet = dict.fromkeys(self.order, 0)
        self.level = self.counted = self.wagers = 0
        stakes = self.structure.stakes
        self.unit = stakes.big_bet if street.big_bet else stakes.small_bet
        self.min_raise = self.structure.min_bet
        self.big_unit = 0
        self.big_made = False
        self.capped = not (self.structure.heads_up_uncapped and len(self.active()) == 2)
        self.bring_in_seat = None

    def _open_betting(self) -> None:
        """Set the round up at its first decision (all cards of the street and all posts are known)."""
        self.round_open = True
        game, street = self.game, self.game.streets[self.street]
        fl = self.structure.betting is Betting.FIXED_LIMIT
        if self.street == 0 and not game.is_stud:
            level = max([self.nominal_big, *self.nominal_straddles, *self.bet.values()])
            raises = 0
            previous = self.nominal_big
            for amount in self.nominal_straddles:
                raises += previous > 0 and amount > previous
                previous = max(previous, amount)
            self.level = level
            if level:
                self.counted, self.wagers = level, 1 + raises
                if not fl:
                    self.min_raise = max(level, self.structure.min_bet)
            self.cursor, self.cursor_inclusive = self.last_blind, False
        elif self.street == 0:  # stud: lowest (razz: highest) upcard brings in, among those with chips
            candidates = [s for s in self.active() if self.stack[s] > 0]
            if candidates:
                if game.bring_in_highest:
                    key = lambda s: (_low_rank(self.up[s][-1]), self.up[s][-1].suit)  # noqa: E731
                    self.bring_in_seat = max(candidates, key=key)
                else:
                    key = lambda s: (self.up[s][-1].rank, self.up[s][-1].suit)  # noqa: E731
                    self.bring_in_seat = min(candidates, key=key)
            self.cursor, self.cursor_inclusive = self.bring_in_seat, True
        elif game.is_stud:
            boards = {s: self.up[s] for s in self.active()}
            best = max(boards, key=lambda s: (showing_strength(boards[s], game), -s))
            self.cursor, self.cursor_inclusive = best, True
            if street.open_pair and fl and any(len({c.rank for c in b}) < len(b) for b in boards.values()):
                self.big_unit = self.structure.stakes.big_bet
        else:
            self.cursor, self.cursor_inclusive = self.button, False

    def _action(self, e: ActionTaken) -> None:
        expected = self.expect()
        if expected.kind != "bet" or expected.seat != e.seat:
            raise RefereeError(f"{e!r} but the rules wait for {expected}")
        seat, old_level = e.seat, self.level
        self._pay(seat, e.amount)
        if e.action == "fold":
            if e.amount:
                raise RefereeError("a fold put chips in")
            self.folded.add(seat)
            self.quick.discard(seat)
        else:
            self.bet[seat] += e.amount
            if self.bet[seat] != e.total:
                raise RefereeError(f"{e!r}: own bet is {self.bet[seat]}")
            if e.action == "bring_in":
                self.level = max(self.level, self.structure.stakes.bring_in)
                self.bring_in_seat = None
            elif e.action in ("bet", "raise", "complete"):
                self.level = max(self.level, e.total)
                if self.bring_in_seat is not None:  # completed instead of bringing in
                    self.bring_in_seat = None
                if self.structure.betting is Betting.FIXED_LIMIT:
                    full = e.total - self.counted
                    if 2 * full >= self.unit:  # a full wager or an all-in of half a bet (§3.6)
                        self.counted = e.total
                        self.wagers += 1
                        if self.big_unit and full >= self.big_unit:
                            self.big_made, self.unit = True, self.big_unit
                elif e.total - old_level >= self.min_raise:
                    self.min_raise = e.total - old_level
                if e.total > old_level:
                    self.aggressors[self.street] = seat
            self.acted[seat] = (self.level, self.wagers)
        if e.all_in != (self.stack[seat] == 0):
            raise RefereeError(f"all-in flag wrong on {e!r}")
        self.cursor, self.cursor_inclusive = seat, False

    # ---------------------------------------------------------------------------- expectations

    def needs_action(self, seat: int) -> bool:
        return self._needs_action(seat)

    def _needs_action(self, seat: int) -> bool:
        if not self.can_bet(seat):
            return False
        if seat == self.bring_in_seat:
            return True
        if seat in self.quick:
            # A quick fold is final (R203, §8.5): its result is booked at once, so the hand never plays
            # on with him. It is shown when the action passes his seat (R204), even if the bet he folded
            # to was itself folded since and nobody is left to bet against (the rule below).
            return True
        if seat in self.acted and self.bet[seat] >= self.level:
            return False
        others = [s for s in self.active() if s != seat]
        nobody_left = all(self.stack[s] == 0 for s in others)
        return not (nobody_left and self.bet[seat] >= max((self.bet[s] for s in others), default=0))

    def betting_closed(self) -> bool:
        return sum(1 for s in self.active() if self.stack[s] > 0) <= 1

    def _close_round_check(self) -> None:
        if self.round_open and not self.round_over:
            waiting = [s for s in self.order if self._needs_action(s)]
            if waiting and len(self.active()) > 1:
                raise RefereeError(f"the round ended while seats {waiting} still had to act")

    def expect(self) -> Expected:
        if self.over:
            return Expected("done")
        if self.rit_seats is not None and not self.runs:
            return Expected("run_twice", seats=tuple(s for s in self.rit_seats if s not in self.rit_answers))
        street = self.game.streets[self.street]
        active = self.active()
        if len(active) == 1:
            return Expected("none")
        if street.draw and not self.round_open:
            drawers = [s for s in self.after(self.button) if s in active and s not in self.done]
            if drawers:
                return Expected("draw", drawers[0])
        if street.discard and not self.round_open:
            waiting = tuple(s for s in self.order if s in active and s not in self.done)
            if waiting:
                return Expected("discard", seats=waiting)
        if self.showdown or self.round_over:
            return Expected("show")
        if not self.round_open:
            # No betting round when at most one active player is not all-in (§3.1), except that
            # preflop a player must still answer the blinds.
            if self.betting_closed() and (self.street > 0 or self.game.is_stud):
                return Expected("none")
            self._open_betting()
        if self.cursor is None:
            return Expected("none")
        for seat in self.after(self.cursor, self.cursor_inclusive):
            if self._needs_action(seat):
                return self._options(seat)
        return Expected("none")

    def _options(self, seat: int) -> Expected:
        stack, bet, level = self.stack[seat], self.bet[seat], self.level
        all_in_to = bet + stack
        structure = self.structure
        if seat == self.bring_in_seat:
            complete = min(self.counted + self.unit, all_in_to)
            ok = all_in_to > structure.stakes.bring_in
            bring_in = min(structure.stakes.bring_in, stack)
            return Expected(
                "bet",
                seat,
                bring_in=bring_in,
                raise_kind="complete" if ok else "",
                min_to=complete if ok else 0,
                max_to=complete if ok else 0,
                choices=(complete,) if ok else (),
            )
        to_call = max(0, level - bet)
        lo = hi = 0
        choices: tuple[int, ...] = ()
        fl = structure.betting is Betting.FIXED_LIMIT
        if fl:
            seen = self.acted.get(seat)
            open_to_him = seen is None or self.wagers > seen[1]
            allowed = open_to_him and not (self.capped and self.wagers >= structure.cap)
        else:
            seen = self.acted.get(seat)
            allowed = seen is None or level - seen[0] >= self.min_raise
        # Nobody left who could answer a raise (every other active player is all-in): call or fold.
        contested = any(self.can_bet(s) for s in self.active() if s != seat)
        if stack > to_call and allowed and contested:
            if fl:
                targets = {self.counted + self.unit}
                if self.big_unit and not self.big_made:
                    targets.add(self.counted + self.big_unit)
                choices = tuple(sorted({min(t, all_in_to) for t in targets if min(t, all_in_to) > level}))
                if choices:
                    lo, hi = choices[0], choices[-1]
            else:
                chip = structure.stakes.chip_unit
                least = -(-(level + self.min_raise) // chip) * chip
                if all_in_to <= least:
                    if all_in_to > level:
                        lo = hi = all_in_to
                else:
                    lo, hi = least, all_in_to
                    if structure.betting is Betting.POT_LIMIT:
                        limit = level + sum(self.paid.values()) + to_call
                        if limit < all_in_to:
                            hi = max(lo, limit - limit % chip)
        kind = ""
        if hi:
            kind = "complete" if self.game.is_stud and self.street == 0 and self.wagers == 0 else "bet"
            if kind == "bet" and level:
                kind = "raise"
        return Expected(
            "bet",
            seat,
            fold=True,
            check=to_call == 0,
            call=min(to_call, stack),
            raise_kind=kind,
            min_to=lo,
            max_to=hi,
            choices=choices,
        )

    # ------------------------------------------------------------------------------ showdown

    def first_shower(self) -> int:
        active = set(self.active())
        for street in sorted(self.aggressors, reverse=True):
            if self.aggressors[street] in active:
                return self.aggressors[street]
        return next(s for s in self.after(self.button) if s in active)

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """Main and side pots (RULES §3.8) from the contributions: (amount, eligible seats)."""
        active = self.active()
        # Unequal antes are dead money: out of the levels, into the main pot (issue 21).
        paid = {s: c - self.dead.get(s, 0) for s, c in self.paid.items()}
        top = max(paid[s] for s in active)
        all_in = [s for s in active if self.paid[s] == self.start[s]]  # (stacks may hold winnings by now)
        levels = sorted({paid[s] for s in all_in if paid[s] < top} | {top})
        pots: list[tuple[int, tuple[int, ...]]] = []
        previous = 0
        for level in levels:
            amount = sum(min(c, level) - min(c, previous) for c in paid.values())
            # An active player who is not all-in has matched every bet: he contests every pot, even
            # when dead money (a dead small blind, an ante) took an all-in player's total above his.
            eligible = tuple(s for s in active if paid[s] >= level or s not in all_in)
            if pots and pots[-1][1] == eligible:
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
            previous = level
        # Dead money (a dead small blind, an ante) can leave a folded player above every active one;
        # those chips go to the last pot (the formula of §3.8 does not cover them).
        extra = sum(max(0, c - top) for c in paid.values())
        pots[-1] = (pots[-1][0] + extra, pots[-1][1])
        pots[0] = (pots[0][0] + sum(self.dead.values()), pots[0][1])
        return pots

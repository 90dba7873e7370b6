"""Long random cash-table sessions (hypothesis stateful): players join, post, miss blinds, sit out, time
out, top up and leave in random order over many hands, and the table's invariants hold throughout."""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Sequence
from datetime import timedelta

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from pokerroom.engine import Betting, HandState, RakeRule, Stakes
from pokerroom.engine.events import HandStarted, Posted
from pokerroom.rooms import (
    BuyIn,
    CashOut,
    CashTable,
    HandEvents,
    HandSettlement,
    Positions,
    TableConfig,
    TableError,
    Timing,
    TopUp,
)

from ..engine.helpers import random_command
from .helpers import T0

GAMES = [
    ("holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), 6),
    ("omaha8", Betting.FIXED_LIMIT, Stakes.fixed_limit(100, 200), 9),
    ("deuce7_triple", Betting.POT_LIMIT, Stakes.blinds(50, 100), 6),
    ("stud", Betting.FIXED_LIMIT, Stakes.fixed_limit(100, 200, ante=20, bring_in=25, blinds=False), 8),
]
PLAYERS = [f"p{i}" for i in range(12)]
SOAK = bool(os.environ.get("POKERROOM_SOAK"))


class Session(RuleBasedStateMachine):
    @initialize(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
    def setup(self, game: tuple[str, Betting, Stakes, int], seed: int) -> None:
        variant, betting, stakes, seats = game
        cfg = TableConfig(
            "t",
            "T",
            variant,
            betting,
            stakes,
            seats,
            rake=RakeRule(500, 300),
            timing=Timing(action=10, time_bank=5, between_hands=1),
        )
        self.table = CashTable(cfg, random.Random(seed))
        self.rng = random.Random(seed)
        self.now = T0
        self.booked = 0  # chips moved from wallets to the table
        self.rake = 0
        self.hands = 0
        self.blind_game = not cfg.spec.is_stud
        self.owed: dict[int, tuple[bool, bool, bool]] = {}
        self.prev_positions: Positions | None = None
        self.candidates: set[int] = set()
        self.orbit_key: tuple[int, ...] = ()
        self.orbit: list[int] = []
        lo = cfg.buy_in_range[0]
        for i in range(self.rng.randint(2, min(5, seats))):
            self._step(self.table.sit(PLAYERS[i], PLAYERS[i], i + 1, lo * self.rng.choice([1, 2]), self.now))

    def _absorb(self, out: Sequence[object]) -> None:
        for x in out:
            if isinstance(x, BuyIn | TopUp):
                self.booked += x.amount
            elif isinstance(x, CashOut):
                self.booked -= x.amount
            elif isinstance(x, HandSettlement):
                self.rake += x.rake
                assert sum(x.results.values()) + x.rake == 0
            elif isinstance(x, HandEvents) and any(isinstance(e, HandStarted) for e in x.events):
                self._check_start(x)

    def _check_start(self, x: HandEvents) -> None:
        """Nobody is dealt in while owing blinds: he posts (big blind, live, dead) or it is a fresh start."""
        self.hands += 1
        plan = self.table._plan
        assert plan is not None
        posts = {(e.seat, e.what) for e in x.events if isinstance(e, Posted)}
        posted = {s for s, w in posts if w in ("big_blind", "live", "dead", "small_blind")}
        if self.blind_game and not plan.table_start and not plan.heads_up:
            for seat in x.dealt_in:
                if self.owed.get(seat):
                    assert seat in posted, (seat, self.owed[seat], posts)
        for seat in x.dealt_in:
            assert not self.table.seats[seat].waiting_bb
        if not self.blind_game:
            return
        prev = self.prev_positions
        if prev is not None and not plan.table_start and not plan.heads_up:
            # The dead-button rule (§4.2): SB on the last BB's seat, button on the last SB's seat, and the
            # BB on the first candidate clockwise after the last BB.
            assert (plan.button, plan.sb_seat) == (prev.sb_seat, prev.bb_seat)
            cands = sorted(self.candidates - set(plan.sat_out))
            after = [c for c in cands if c > prev.bb_seat] + [c for c in cands if c <= prev.bb_seat]
            assert plan.big_blind == after[0]
            # Over an orbit with the same candidates, every one of them posts the big blind once.
            window = self.orbit if self.orbit_key == tuple(cands) else []
            window.append(plan.big_blind)
            self.orbit_key, self.orbit = tuple(cands), window[-len(cands) :]
            if len(self.orbit) == len(cands):
                assert sorted(self.orbit) == cands
        else:
            self.orbit_key, self.orbit = (), []

    def _step(self, out: Sequence[object]) -> None:
        self._absorb(out)
        self._run(self.rng.randint(3, 15))

    def _run(self, steps: int) -> None:
        """Let the table play on for a while: random legal commands, and the clock when nobody acts."""
        for _ in range(steps):
            self.now += timedelta(seconds=self.rng.choice([0.5, 1, 2]))
            hand = self.table.hand
            self._snap()
            if self.table.in_hand and hand is not None and self.rng.random() < 0.95:
                cmd = random_command(hand, self.rng)
                self._absorb(self.table.act(self.table.seats[cmd.seat].player, cmd, self.now))
            else:
                self._tick()

    def _tick(self) -> None:
        """Run the clock. Afterwards nothing is overdue: a deadline in the past would make the server's
        table actor spin (it sleeps until ``next_deadline()``)."""
        self._absorb(self.table.tick(self.now))
        deadline = self.table.next_deadline()
        assert deadline is None or deadline > self.now, (deadline, self.now)

    def _snap(self) -> None:
        t = self.table
        self.prev_positions = t.positions
        self.candidates = {  # who can take the big blind (players sitting out from the next hand cannot)
            s for s, p in t.seats.items() if p.stack > 0 and not p.sitting_out and not p.sit_out_next_hand
        }
        self.owed = {
            s: (p.waiting_bb, p.missed_bb, p.missed_sb)
            for s, p in t.seats.items()
            if p.waiting_bb or p.missed_bb or p.missed_sb
        }

    @rule(player=st.sampled_from(PLAYERS), seat=st.integers(1, 10), frac=st.floats(0, 1), post=st.booleans())
    def sit(self, player: str, seat: int, frac: float, post: bool) -> None:
        lo, hi = self.table.config.buy_in_range
        amount = lo + int(((hi or 4 * lo) - lo) * frac)
        with contextlib.suppress(TableError):
            self._step(self.table.sit(player, player, seat, amount, self.now, post_now=post))

    @rule(player=st.sampled_from(PLAYERS))
    def leave(self, player: str) -> None:
        with contextlib.suppress(TableError):
            self._step(self.table.leave(player, self.now))

    @rule(player=st.sampled_from(PLAYERS), when=st.sampled_from(["now", "next_hand", "next_bb"]))
    def sit_out(self, player: str, when: str) -> None:
        with contextlib.suppress(TableError):
            self._step(self.table.sit_out(player, self.now, when))

    @rule(player=st.sampled_from(PLAYERS), post=st.booleans())
    def sit_in(self, player: str, post: bool) -> None:
        with contextlib.suppress(TableError):
            self._step(self.table.sit_in(player, self.now, post_missed=post))

    @rule(player=st.sampled_from(PLAYERS), amount=st.integers(1, 5000))
    def top_up(self, player: str, amount: int) -> None:
        with contextlib.suppress(TableError):
            self._step(self.table.top_up(player, amount, self.now))

    @rule(steps=st.integers(20, 150))
    def play(self, steps: int) -> None:
        self._run(steps)

    @rule(seconds=st.sampled_from([5, 20, 200, 1000]))
    def wait(self, seconds: int) -> None:
        self.now += timedelta(seconds=seconds)
        self._snap()
        self._tick()
        self._run(self.rng.randint(3, 15))

    def teardown(self) -> None:
        event(f"hands played: {min(self.hands, 200) // 50 * 50}+")

    @invariant()
    def chips_are_conserved(self) -> None:
        t = self.table
        hand: HandState | None = t.hand if t.in_hand else None
        total = 0
        for seat, p in t.seats.items():  # pending top-ups are booked when they join the stack
            if hand is not None and seat in hand.players:
                total += hand.players[seat].stack + hand.players[seat].paid
            else:
                total += p.stack
        if hand is not None:  # players who left mid-hand keep their chips in the hand until it ends
            total += sum(hp.stack + hp.paid for s, hp in hand.players.items() if s not in t.seats)
        assert total == self.booked - self.rake
        assert all(p.stack >= 0 for p in t.seats.values())


Session.TestCase.settings = settings(
    max_examples=100 if SOAK else 25,
    stateful_step_count=200 if SOAK else 50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestSession = Session.TestCase

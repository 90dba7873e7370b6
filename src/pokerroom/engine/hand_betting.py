"""The second part of a hand's state: betting rounds and pots (the layers: see ``hand_deal.py``).

RULES.md §3: who must act, folds (and Rush quick folds), checks, calls, bring-ins, bets and raises with
their reopening rules, the return of an uncalled bet at the end of a round, and the pots.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from pokerroom.engine.betting import BetDecision, PlayerState, bet_options
from pokerroom.engine.commands import BringIn, Call, Check, Command, Fold, RaiseTo, TimeOut
from pokerroom.engine.errors import AmountOutOfRange, IllegalAction, NotAChipMultiple, QuickFoldRefused
from pokerroom.engine.events import ActionTaken, BetReturned, RoundEnded
from pokerroom.engine.hand_deal import HandDeal
from pokerroom.engine.pots import Pot, side_pots
from pokerroom.engine.setup import Phase
from pokerroom.engine.stakes import Betting

# Enum members as module constants (see hand_deal.py).
_BETTING: Final = Phase.BETTING
_DONE: Final = Phase.DONE
_FL: Final = Betting.FIXED_LIMIT

__all__ = ["HandBetting"]


class HandBetting(HandDeal):
    """Betting rounds and pots of a hand (see :mod:`pokerroom.engine.hand_deal` for the layers)."""

    def _first_actor_round0(self) -> None:
        if self._stud:
            self.to_act = self.rnd.bring_in_seat
        elif self._ring0 is not None:  # a Mississippi straddle (RULES.md §11.2)
            self.to_act = self._first_needing(self._ring0)
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

    def verify_quick_fold(self, seat: int) -> None:
        """The one statement of who may Quick Fold (RULES.md §8.5, R200, R201): a player still betting in a
        betting round, not all-in, who faces a real bet he could not check (another player has more chips
        in front of him; a big blind posted all-in for less is not one) and will be asked to act on
        (facing only all-in players he has matched, he is never asked: his hand goes to the showdown).
        Folding then can never bring chips back to him, so his result is final at once. Raises
        :class:`QuickFoldRefused` saying why not."""
        p = self.players.get(seat)
        if p is None:
            raise QuickFoldRefused(seat, "the seat is not dealt in")
        if self.phase is not _BETTING:
            raise QuickFoldRefused(seat, "no betting round is in progress")
        if p.folded or p.all_in or p.quick_folded:
            raise QuickFoldRefused(seat, "only a player still betting may quick-fold")
        if self.to_call(seat) <= 0 or not self.faces_bet(seat) or not self._needs_action(p):
            raise QuickFoldRefused(seat, "a player who could check may not quick-fold")

    def can_quick_fold(self, seat: int) -> bool:
        """May ``seat`` Quick Fold now (see :meth:`verify_quick_fold`)?"""
        try:
            self.verify_quick_fold(seat)
        except QuickFoldRefused:
            return False
        return True

    def _apply_quick_fold(self, seat: int) -> None:
        self.verify_quick_fold(seat)
        p = self.players[seat]
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
        contested = False
        for q in self.players.values():  # a loop, not any(...): no generator, no property call
            if q is not p and not q.folded and not q.all_in:
                contested = True
                break
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
        # The highest bet and the second highest (equal to it when two players bet the most), one pass.
        first = second = -1
        top: PlayerState | None = None
        for p in self.players.values():
            if p.bet > first:
                second = first
                first = p.bet
                top = p
            elif p.bet > second:
                second = p.bet
        if top is not None and second >= 0 and first > second:
            excess = first - second
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
        if not self._dead:  # the usual case, nobody all-in: one pot that every player still in contests
            players = self.players
            total = 0
            live: list[int] = []
            anyone_all_in = False
            for s in self.order:
                p = players[s]
                total += p.paid
                if not p.folded:
                    live.append(s)
                    anyone_all_in = anyone_all_in or p.all_in
            if not anyone_all_in:
                return [Pot(total, tuple(live))]  # what side_pots gives for it
        paid = {p.seat: p.paid for p in self.players.values()}
        active = [p.seat for p in self._active()]
        all_in = [p.seat for p in self._active() if p.all_in]
        return side_pots(paid, active, all_in, self._dead)

    def current_pots(self) -> list[Pot]:
        """The main and side pots as they stand now (after a showdown: the pots that were awarded)."""
        return list(self.pots) if self.phase is _DONE else self._current_pots()

    def collected_pots(self) -> list[Pot]:
        """The pots as the last :class:`RoundEnded` reported them: the chips bet in the current round are
        still in front of the players, not in a pot (what a table shows; after the hand: the awarded pots)."""
        if self.phase is _DONE:
            return list(self.pots)
        paid = {p.seat: p.paid - p.bet for p in self.players.values()}
        active = [p.seat for p in self._active()]
        all_in = [p.seat for p in self._active() if p.all_in and p.bet == 0]  # all-in in an earlier round
        return [pot for pot in side_pots(paid, active, all_in, self._dead) if pot.amount]

    # ------------------------------------------------------------------------------- betting queries

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

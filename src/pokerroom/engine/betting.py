"""One betting round: legal actions and their effect for fixed limit, pot limit and no limit.

RULES.md §3. Vocabulary: ``level`` is H (the highest own bet, or the nominal forced bet); ``min_raise`` is
R (PL/NL: the largest full bet or raise increment so far); ``counted`` is B and ``wagers`` is n of the
fixed-limit half-bet rule (§3.6); ``unit`` is the fixed-limit bet unit U of the round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerroom.cards import Card
from pokerroom.engine.stakes import Betting, Structure

__all__ = ["BetDecision", "PlayerState", "Round", "bet_options"]


@dataclass(slots=True)
class PlayerState:
    """A dealt-in player's state in the hand (mutable; owned by the hand)."""

    seat: int
    stack: int
    starting_stack: int
    auto_muck: bool = True
    hole: list[Card] = field(default_factory=list)
    up: list[bool] = field(default_factory=list)
    folded: bool = False
    all_in: bool = False
    bet: int = 0  # own bet this round (live chips only)
    paid: int = 0  # everything put in this hand, after uncalled returns
    acted: bool = False  # acted voluntarily since the round began
    level_seen: int = 0  # H when he last acted (PL/NL reopening)
    wagers_seen: int = 0  # n when he last acted (FL reopening)
    done: bool = False  # finished the current draw or discard
    quick_folded: bool = False  # Rush: folded out of turn; shown when the action reaches him
    shown: bool = False
    mucked: bool = False

    @property
    def active(self) -> bool:
        return not self.folded

    @property
    def can_act(self) -> bool:
        return not self.folded and not self.all_in

    def upcards(self) -> list[Card]:
        return [c for c, u in zip(self.hole, self.up, strict=True) if u]


@dataclass(slots=True)
class Round:
    """The state of the current betting round."""

    structure: Structure
    unit: int = 0  # FL: the bet unit of the round
    big_unit: int = 0  # FL open pair: the big bet may be used (0: no)
    big_made: bool = False  # FL open pair: a big-bet wager was made
    level: int = 0
    min_raise: int = 0
    counted: int = 0
    wagers: int = 0
    capped_round: bool = True  # FL: the cap applies in this round
    bring_in: int = 0  # stud: the bring-in amount while the bring-in player must act
    bring_in_seat: int | None = None
    stud_first_round: bool = False
    aggressor: int | None = None

    @property
    def betting(self) -> Betting:
        return self.structure.betting

    def raise_allowed(self, p: PlayerState) -> bool:
        """Is the round open to this player (RULES.md §3.6) and, in FL, below the cap?"""
        if self.betting is Betting.FIXED_LIMIT:
            if self.capped_round and self.wagers >= self.structure.cap:
                return False
            return not p.acted or self.wagers > p.wagers_seen
        return not p.acted or self.level - p.level_seen >= self.min_raise


@dataclass(slots=True, unsafe_hash=True)
class BetDecision:
    """What the player to act may do. Amounts are chips; raise amounts are "raise to" totals.

    ``call`` is the chips a call adds (0: no call), ``to_call`` the full amount owed; ``raise_kind`` is
    "bet", "raise" or "complete" ("" when no raise is possible). In fixed limit ``choices`` lists the only
    legal raise-to amounts; in PL/NL any amount from ``min_to`` to ``max_to`` is legal (multiples of the
    chip unit, or exactly ``max_to`` when it is the player's whole stack). ``bring_in`` is set when a stud
    player must bring in (or complete) and may neither fold nor check.
    """

    seat: int
    fold: bool
    check: bool
    call: int
    to_call: int
    raise_kind: str
    min_to: int
    max_to: int
    choices: tuple[int, ...]
    bring_in: int
    stack: int
    bet: int
    kind: str = "bet"

    @property
    def can_raise(self) -> bool:
        return bool(self.raise_kind)

    def allows(self, amount: int, chip_unit: int) -> bool:
        """Is ``amount`` a legal raise-to total?"""
        if not self.raise_kind:
            return False
        if self.choices:
            return amount in self.choices
        whole_stack = amount == self.bet + self.stack
        return self.min_to <= amount <= self.max_to and (whole_stack or amount % chip_unit == 0)

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "fold": self.fold,
            "check": self.check,
            "call": self.call,
            "to_call": self.to_call,
            "raise": self.raise_kind,
            "min_to": self.min_to,
            "max_to": self.max_to,
            "choices": list(self.choices),
            "bring_in": self.bring_in,
            "stack": self.stack,
            "bet": self.bet,
        }


def _round_up(x: int, unit: int) -> int:
    return -(-x // unit) * unit


def bet_options(rnd: Round, p: PlayerState, pot_total: int, *, raising: bool = True) -> BetDecision:
    """The legal betting actions of player ``p``; ``pot_total`` is every chip put in this hand so far.
    ``raising`` is False when every other active player is all-in: nobody could answer a raise."""
    chip = rnd.structure.stakes.chip_unit
    to_call = max(0, rnd.level - p.bet)
    all_in_to = p.bet + p.stack
    if rnd.bring_in_seat == p.seat and rnd.bring_in:
        # Stud: bring in or complete; no fold, no check (R117).
        complete = min(rnd.counted + rnd.unit, all_in_to)
        choices: tuple[int, ...] = (complete,) if all_in_to > rnd.bring_in else ()
        return BetDecision(
            p.seat,
            False,
            False,
            0,
            0,
            "complete" if choices else "",
            complete if choices else 0,
            complete if choices else 0,
            choices,
            min(rnd.bring_in, p.stack),
            p.stack,
            p.bet,
        )
    min_to = max_to = 0
    choices = ()
    if raising and p.stack > to_call and rnd.raise_allowed(p):
        if rnd.betting is Betting.FIXED_LIMIT:
            targets = {rnd.counted + rnd.unit}
            if rnd.big_unit and not rnd.big_made:
                targets.add(rnd.counted + rnd.big_unit)
            choices = tuple(sorted({min(t, all_in_to) for t in targets if min(t, all_in_to) > rnd.level}))
            if choices:
                min_to, max_to = choices[0], choices[-1]
        else:
            lo = _round_up(rnd.level + rnd.min_raise, chip)
            if all_in_to <= lo:
                if all_in_to > rnd.level:  # less than a full raise: all-in only
                    min_to = max_to = all_in_to
            else:
                hi = all_in_to
                if rnd.betting is Betting.POT_LIMIT:
                    limit = rnd.level + pot_total + to_call  # raise-to <= H + pot after the call
                    if limit < all_in_to:
                        hi = max(lo, limit - limit % chip)
                min_to, max_to = lo, hi
    kind = ""
    if max_to:
        if rnd.stud_first_round and rnd.wagers == 0:
            kind = "complete"
        else:
            kind = "bet" if rnd.level == 0 else "raise"
    return BetDecision(
        p.seat,
        True,
        to_call == 0,
        min(to_call, p.stack),
        to_call,
        kind,
        min_to,
        max_to,
        choices,
        0,
        p.stack,
        p.bet,
    )

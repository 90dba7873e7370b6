"""One betting round: legal actions and their effect for fixed limit, pot limit and no limit.

RULES.md §3. Vocabulary: ``level`` is H (the highest own bet, or the nominal forced bet); ``min_raise`` is
R (PL/NL: the largest full bet or raise increment so far); ``counted`` is B and ``wagers`` is n of the
fixed-limit half-bet rule (§3.6); ``unit`` is the fixed-limit bet unit U of the round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pokerroom.cards import Card
from pokerroom.engine.stakes import Betting, Structure

__all__ = ["BetDecision", "PlayerState", "Round", "bet_options"]

_FL: Final = Betting.FIXED_LIMIT  # constants: the compiled module reads them without an enum lookup
_PL: Final = Betting.POT_LIMIT


# The classes below write their own ``__init__`` (init=False): compiled by mypyc it runs natively, while
# the one the dataclass decorator generates would run as interpreted Python on every construction.


@dataclass(slots=True, init=False)
class PlayerState:
    """A dealt-in player's state in the hand (mutable; owned by the hand)."""

    seat: int
    stack: int
    starting_stack: int
    auto_muck: bool
    hole: list[Card]
    up: list[bool]
    folded: bool
    all_in: bool
    bet: int  # own bet this round (live chips only)
    paid: int  # everything put in this hand, after uncalled returns
    acted: bool  # acted voluntarily since the round began
    level_seen: int  # H when he last acted (PL/NL reopening)
    wagers_seen: int  # n when he last acted (FL reopening)
    done: bool  # finished the current draw or discard
    quick_folded: bool  # Rush: folded out of turn; shown when the action reaches him
    shown: bool
    mucked: bool

    def __init__(self, seat: int, stack: int, starting_stack: int, auto_muck: bool = True) -> None:
        self.seat = seat
        self.stack = stack
        self.starting_stack = starting_stack
        self.auto_muck = auto_muck
        self.hole = []
        self.up = []
        self.folded = False
        self.all_in = False
        self.bet = 0
        self.paid = 0
        self.acted = False
        self.level_seen = 0
        self.wagers_seen = 0
        self.done = False
        self.quick_folded = False
        self.shown = False
        self.mucked = False

    @property
    def active(self) -> bool:
        return not self.folded

    @property
    def can_act(self) -> bool:
        return not self.folded and not self.all_in

    def upcards(self) -> list[Card]:
        return [c for c, u in zip(self.hole, self.up, strict=True) if u]


@dataclass(slots=True, init=False)
class Round:
    """The state of the current betting round."""

    structure: Structure
    unit: int  # FL: the bet unit of the round
    big_unit: int  # FL open pair: the big bet may be used (0: no)
    big_made: bool  # FL open pair: a big-bet wager was made
    level: int
    min_raise: int
    counted: int
    wagers: int
    capped_round: bool  # FL: the cap applies in this round
    bring_in: int  # stud: the bring-in amount while the bring-in player must act
    bring_in_seat: int | None
    stud_first_round: bool
    aggressor: int | None

    def __init__(self, structure: Structure) -> None:
        self.structure = structure
        self.unit = 0
        self.big_unit = 0
        self.big_made = False
        self.level = 0
        self.min_raise = 0
        self.counted = 0
        self.wagers = 0
        self.capped_round = True
        self.bring_in = 0
        self.bring_in_seat = None
        self.stud_first_round = False
        self.aggressor = None

    @property
    def betting(self) -> Betting:
        return self.structure.betting

    def raise_allowed(self, p: PlayerState) -> bool:
        """Is the round open to this player (RULES.md §3.6) and, in FL, below the cap?"""
        if self.betting is _FL:
            if self.capped_round and self.wagers >= self.structure.cap:
                return False
            return not p.acted or self.wagers > p.wagers_seen
        return not p.acted or self.level - p.level_seen >= self.min_raise


@dataclass(slots=True, unsafe_hash=True, init=False)
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
    kind: str

    def __init__(
        self,
        seat: int,
        fold: bool,
        check: bool,
        call: int,
        to_call: int,
        raise_kind: str,
        min_to: int,
        max_to: int,
        choices: tuple[int, ...],
        bring_in: int,
        stack: int,
        bet: int,
        kind: str = "bet",
    ) -> None:
        self.seat = seat
        self.fold = fold
        self.check = check
        self.call = call
        self.to_call = to_call
        self.raise_kind = raise_kind
        self.min_to = min_to
        self.max_to = max_to
        self.choices = choices
        self.bring_in = bring_in
        self.stack = stack
        self.bet = bet
        self.kind = kind

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
        if rnd.betting is _FL:
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
                if rnd.betting is _PL:
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

"""Who is dealt in and who posts what, hand after hand, at a blind-game cash table (RULES.md §4.2-§4.7).

The dead-button algorithm of §4.2: the big blind moves one *candidate* seat per hand (a candidate is a
seated player with chips who is not sitting out; players waiting for the big blind and players with
missed-blind markers are candidates); the small blind goes to the seat that had the big blind, the button
to the seat that had the small blind, and either may be dead. New players (§4.6) and players with missed
blinds (§4.7) are dealt in when the big blind reaches them, or at once if they post and their seat is not
between the button and the small blind. Two players dealt in play heads-up (§4.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pokerroom.cards import RandomSource

__all__ = ["HandPlan", "Positions", "SeatStatus", "plan_hand", "plan_table_start"]


@dataclass(frozen=True, slots=True)
class SeatStatus:
    """What the planner needs to know about one occupied seat."""

    seat: int
    player: str
    has_chips: bool = True
    sitting_out: bool = False
    waiting_bb: bool = False  # a new player who has not been dealt in yet
    missed_bb: bool = False  # marker ML
    missed_sb: bool = False  # marker MS
    post_now: bool = False  # a new or returning player who chose to post instead of waiting
    sit_out_next_bb: bool = False

    @property
    def candidate(self) -> bool:
        return self.has_chips and not self.sitting_out

    @property
    def owes(self) -> bool:
        return self.waiting_bb or self.missed_bb or self.missed_sb


@dataclass(frozen=True, slots=True)
class Positions:
    """Where the blinds and the button were in the last hand (the input of the next plan)."""

    button: int
    sb_seat: int  # the small-blind position, posted or dead
    bb_seat: int
    bb_player: str


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The forced bets and the players of the next hand.

    ``small_blind`` is the seat that posts the small blind (``None``: dead small blind); ``live`` seats post
    an extra live big blind (new players posting in, and returning ML players), ``dead`` seats post a dead
    small blind (returning ML or MS players). ``markers`` gives every seat's ML/MS markers after this hand's
    assignment; ``sat_out`` lists players who asked to sit out at their next big blind and now do.
    """

    button: int
    sb_seat: int
    small_blind: int | None
    big_blind: int
    dealt_in: tuple[int, ...]
    live: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    markers: Mapping[int, tuple[bool, bool]] = field(default_factory=dict)
    sat_out: tuple[int, ...] = ()
    cleared: tuple[int, ...] = ()  # seats whose waiting/markers are cleared by being dealt in
    table_start: bool = False

    @property
    def heads_up(self) -> bool:
        return len(self.dealt_in) == 2

    def positions(self, seats: Mapping[int, SeatStatus]) -> Positions:
        return Positions(self.button, self.sb_seat, self.big_blind, seats[self.big_blind].player)


def _clockwise(seats: Sequence[int], after: int) -> list[int]:
    """The given seats clockwise, starting with the first one after ``after``."""
    ordered = sorted(seats)
    return [s for s in ordered if s > after] + [s for s in ordered if s <= after]


def _between(seats: Sequence[int], start: int, end: int) -> list[int]:
    """Seats strictly between ``start`` and ``end`` going clockwise (either may be an empty seat)."""
    ring = 1000  # larger than any seat number: the clockwise order of seat numbers is kept
    return [s for s in _clockwise(seats, start) if 0 < (s - start) % ring < (end - start) % ring]


def plan_table_start(seats: Mapping[int, SeatStatus], rng: RandomSource) -> HandPlan | None:
    """§4.2 step 1: a random button; everybody who can play is dealt in and owes nothing."""
    cands = sorted(s for s, st in seats.items() if st.candidate)
    if len(cands) < 2:
        return None
    button = cands[rng.randrange(len(cands))]
    if len(cands) == 2:
        sb = button
        bb = next(s for s in cands if s != button)
    else:
        sb = _clockwise(cands, button)[0]
        bb = _clockwise(cands, sb)[0]
    markers = {s: (False, False) for s in seats}
    return HandPlan(button, sb, sb, bb, tuple(cands), markers=markers, cleared=tuple(cands), table_start=True)


def plan_hand(
    seats: Mapping[int, SeatStatus], previous: Positions | None, rng: RandomSource
) -> HandPlan | None:
    """The next hand's plan, or ``None`` when fewer than two players can be dealt in."""
    if previous is None:
        return plan_table_start(seats, rng)
    status = dict(seats)
    occupied = sorted(status)
    sat_out: list[int] = []
    cands = [s for s in occupied if status[s].candidate]
    if len(cands) < 2:
        return None
    bb = _clockwise(cands, previous.bb_seat)[0]
    while status[bb].sit_out_next_bb:  # he sits out instead of posting (and is passed over: ML)
        st = status[bb]
        status[bb] = SeatStatus(
            st.seat, st.player, st.has_chips, True, st.waiting_bb, st.missed_bb, st.missed_sb
        )
        sat_out.append(bb)
        cands = [s for s in occupied if status[s].candidate]
        if len(cands) < 2:
            return None
        bb = _clockwise(cands, previous.bb_seat)[0]
    markers = {s: (status[s].missed_bb, status[s].missed_sb) for s in occupied}
    for s in _between(occupied, previous.bb_seat, bb):
        if status[s].sitting_out:
            markers[s] = (True, markers[s][1])
    sb_seat = previous.bb_seat
    sb_st = status.get(sb_seat)
    small: int | None = None
    if sb_st is not None and sb_st.player == previous.bb_player and sb_st.candidate:
        small = sb_seat
    elif sb_st is not None and sb_st.sitting_out:
        markers[sb_seat] = (markers[sb_seat][0], True)
    button = previous.sb_seat
    zone = {button, sb_seat, *_between(occupied, button, sb_seat)} if button != sb_seat else {button}
    dealt = {bb} | ({small} if small is not None else set())
    live: list[int] = []
    dead: list[int] = []
    cleared = [bb]
    for s in cands:
        if s in dealt:
            continue
        st = status[s]
        ml, ms = markers[s]
        if not (st.waiting_bb or ml or ms):
            dealt.add(s)
        elif st.post_now and s not in zone:
            dealt.add(s)
            cleared.append(s)
            if st.waiting_bb or ml:
                live.append(s)
            if ml or ms:
                dead.append(s)
    for s in cleared:
        markers[s] = (False, False)
    order = tuple(s for s in occupied if s in dealt)
    if len(order) < 2:
        # Nobody to play against under the normal rotation (e.g. everyone else is waiting): restart.
        fresh = {s: st for s, st in status.items()}
        plan = plan_table_start(fresh, rng)
        if plan is None:
            return None
        return HandPlan(
            plan.button,
            plan.sb_seat,
            plan.small_blind,
            plan.big_blind,
            plan.dealt_in,
            markers=plan.markers,
            sat_out=tuple(sat_out),
            cleared=plan.cleared,
            table_start=True,
        )
    if len(order) == 2:
        # §4.2 step 6, heads-up: the player who was not the last big blind posts it; the other is the
        # button and posts the small blind.
        a, b = order
        if previous.bb_seat in order and status[previous.bb_seat].player == previous.bb_player:
            bb = b if previous.bb_seat == a else a
        else:
            bb = _clockwise(list(order), previous.bb_seat)[0]
        other = a if bb == b else b
        for s in order:
            markers[s] = (False, False)
        return HandPlan(
            other, other, other, bb, order, markers=markers, sat_out=tuple(sat_out), cleared=order
        )
    return HandPlan(
        button, sb_seat, small, bb, order, tuple(live), tuple(dead), markers, tuple(sat_out), tuple(cleared)
    )

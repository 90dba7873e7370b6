"""The dead-button algorithm, new players and missed blinds (RULES.md §4.2-§4.7, R89-R103)."""

from __future__ import annotations

import random
from typing import Any

from pokerroom.rooms.seating import HandPlan, Positions, SeatStatus, plan_hand


def table(*seats: int, **flags: tuple[int, ...]) -> dict[int, SeatStatus]:
    """The seats, with each flag (``waiting_bb=(3,)``) set for the seats it names."""
    out = {s: SeatStatus(s, f"p{s}") for s in seats}
    for name, which in flags.items():
        for s in which:
            st = out[s]
            fields: dict[str, Any] = {f: getattr(st, f) for f in st.__slots__}
            out[s] = SeatStatus(**{**fields, name: True})
    return out


def pos(button: int, sb: int, bb: int) -> Positions:
    return Positions(button, sb, bb, f"p{bb}")


def nxt(seats: dict[int, SeatStatus], prev: Positions) -> HandPlan:
    plan = plan_hand(seats, prev, random.Random(0))
    assert plan is not None
    return plan


def test_r89_blinds_left_of_the_button() -> None:
    seats = table(1, 2, 3, 4, 5, 6)
    plan = nxt(seats, pos(6, 1, 2))  # previous hand: button 6, SB 1, BB 2
    assert (plan.button, plan.small_blind, plan.big_blind) == (1, 2, 3)
    assert plan.dealt_in == (1, 2, 3, 4, 5, 6)


def test_r91_r92_button_moves_one_seat_and_each_player_posts_each_blind_once_per_orbit() -> None:
    seats = table(2, 4, 5, 7, 9)
    prev = pos(9, 2, 4)
    sbs, bbs = [], []
    for _ in range(5):
        plan = nxt(seats, prev)
        assert plan.button == prev.sb_seat  # R92: the SB of hand N has the button in hand N+1
        assert plan.small_blind is not None
        sbs.append(plan.small_blind)
        bbs.append(plan.big_blind)
        prev = plan.positions(seats)
    assert sorted(sbs) == sorted(bbs) == [2, 4, 5, 7, 9]


def test_table_start_button_is_random_and_nobody_owes() -> None:
    seats = table(1, 3, 5, waiting_bb=(3,))
    starts = {plan_hand(seats, None, random.Random(i)).button for i in range(40)}  # type: ignore[union-attr]
    assert starts == {1, 3, 5}
    for seed in range(10):
        plan = plan_hand(seats, None, random.Random(seed))
        assert plan is not None and plan.dealt_in == (1, 3, 5) and plan.table_start
        ring = [1, 3, 5] * 2
        i = ring.index(plan.button)
        assert (plan.small_blind, plan.big_blind) == (ring[i + 1], ring[i + 2])
        assert plan.live == plan.dead == ()


def test_r93_dead_button_when_a_player_leaves() -> None:
    seats = table(1, 2, 3, 5, 6)  # seat 4 left after hand h (button 1, SB 2, BB 3)
    plan = nxt(seats, pos(1, 2, 3))
    assert (plan.big_blind, plan.small_blind, plan.button) == (5, 3, 2)


def test_r94_bb_sits_out_dead_small_blind_and_dead_button() -> None:
    seats = table(1, 2, 3, 4, 5, 6, sitting_out=(3,))
    h1 = nxt(seats, pos(1, 2, 3))
    assert (h1.big_blind, h1.small_blind, h1.button) == (4, None, 2)
    assert h1.markers[3] == (False, True)  # MS
    assert 3 not in h1.dealt_in
    h2 = nxt(seats, h1.positions(seats))
    assert (h2.big_blind, h2.small_blind, h2.button) == (5, 4, 3)  # dead button on seat 3
    # Seat 3 comes back wanting to post: on hand h+2 it is the button seat, so it cannot play yet ...
    back = table(1, 2, 3, 4, 5, 6, missed_sb=(3,), post_now=(3,))
    assert 3 not in nxt(back, h1.positions(seats)).dealt_in
    # ... and from hand h+3 it may post its dead small blind and play.
    h3 = nxt(back, h2.positions(seats))
    assert 3 in h3.dealt_in and 3 in h3.dead and 3 not in h3.live


def test_r95_three_to_two_players() -> None:
    seats = table(1, 2)  # seat 3 (BB) left; button 1, SB 2
    plan = nxt(seats, pos(1, 2, 3))
    assert (plan.big_blind, plan.button, plan.small_blind) == (1, 2, 2)
    assert plan.heads_up


def test_heads_up_nobody_posts_the_big_blind_twice_in_a_row() -> None:
    seats = table(3, 7)
    prev = pos(3, 3, 7)
    for _ in range(6):
        plan = nxt(seats, prev)
        assert plan.big_blind != prev.bb_seat
        assert plan.button == plan.small_blind != plan.big_blind
        prev = plan.positions(seats)


def test_two_to_three_players_new_player_takes_the_big_blind() -> None:
    seats = table(1, 2, 4, waiting_bb=(4,))
    plan = nxt(seats, pos(1, 1, 2))  # heads-up before: 1 button/SB, 2 BB
    assert (plan.button, plan.small_blind, plan.big_blind) == (1, 2, 4)
    assert plan.dealt_in == (1, 2, 4)


def test_r96_new_player_waits_for_the_big_blind() -> None:
    seats = table(1, 2, 3, 4, 6, waiting_bb=(6,))
    plan = nxt(seats, pos(1, 2, 3))  # BB goes to 4; seat 6 waits
    assert plan.big_blind == 4 and 6 not in plan.dealt_in
    plan2 = nxt(seats, plan.positions(seats))
    assert plan2.big_blind == 6 and 6 in plan2.dealt_in and 6 not in plan2.live  # posts the BB normally


def test_r97_new_player_left_of_the_bb_may_post_in() -> None:
    seats = table(1, 2, 3, 4, 5, waiting_bb=(5,), post_now=(5,))
    plan = nxt(seats, pos(1, 2, 3))  # BB 4, seat 5 is UTG
    assert plan.big_blind == 4 and 5 in plan.dealt_in and plan.live == (5,) and plan.dead == ()


def test_r98_new_player_on_the_button_or_sb_seat_cannot_post_in() -> None:
    # Previous hand: button 1, SB 2, BB 3 -> this hand: button 2, SB 3, BB 4.
    # A new player sitting on the button seat (2) cannot post in:
    seats = table(1, 2, 3, 4, 5, waiting_bb=(2,), post_now=(2,))
    seats[2] = SeatStatus(2, "newcomer", waiting_bb=True, post_now=True)
    plan = nxt(seats, pos(1, 2, 3))
    assert plan.button == 2 and 2 not in plan.dealt_in
    # A new player in the SB seat (3, where the previous BB sat, who left): dead SB, and he waits.
    seats = table(1, 2, 3, 4, 5)
    seats[3] = SeatStatus(3, "newcomer", waiting_bb=True, post_now=True)
    plan = nxt(seats, pos(1, 2, 3))
    assert plan.sb_seat == 3 and plan.small_blind is None and 3 not in plan.dealt_in
    # The (dead) button then moves onto his seat: still no; once it has passed him, he plays.
    plan2 = nxt(seats, plan.positions(seats))
    assert plan2.button == 3 and 3 not in plan2.dealt_in
    assert 3 in nxt(seats, plan2.positions(seats)).dealt_in


def test_r98_new_player_between_button_and_sb_waits_until_the_button_passes() -> None:
    # Dead small blind situation: button 2, SB position 4 (dead), newcomer in seat 3 between them.
    seats = table(1, 2, 3, 5, 6, waiting_bb=(3,), post_now=(3,))
    plan = nxt(seats, Positions(1, 2, 4, "gone"))
    assert plan.button == 2 and plan.sb_seat == 4 and plan.small_blind is None
    assert 3 not in plan.dealt_in
    plan2 = nxt(seats, plan.positions(seats))  # the button has moved past seat 3
    assert 3 in plan2.dealt_in


def test_r99_sitting_out_player_passed_by_the_bb_gets_ml_and_is_not_dealt_in() -> None:
    seats = table(1, 2, 3, 4, 5, sitting_out=(4,))
    plan = nxt(seats, pos(1, 2, 3))
    assert plan.big_blind == 5 and plan.markers[4] == (True, False)
    back = table(1, 2, 3, 4, 5, missed_bb=(4,))  # returns but does not post
    plan2 = nxt(back, plan.positions(seats))
    assert 4 not in plan2.dealt_in


def test_r100_returning_ml_player_posts_big_blind_live_and_small_blind_dead() -> None:
    seats = table(1, 2, 3, 4, 5, 6, missed_bb=(6,), post_now=(6,))
    plan = nxt(seats, pos(1, 2, 3))  # button 2, SB 3, BB 4; seat 6 is outside the dead zone
    assert 6 in plan.dealt_in and 6 in plan.live and 6 in plan.dead
    assert plan.markers[6] == (False, False)


def test_r101_returning_ms_only_player_posts_a_dead_small_blind() -> None:
    seats = table(1, 2, 3, 4, 5, 6, missed_sb=(6,), post_now=(6,))
    plan = nxt(seats, pos(1, 2, 3))
    assert 6 in plan.dealt_in and 6 in plan.dead and 6 not in plan.live


def test_r102_marker_player_who_waits_posts_only_the_big_blind() -> None:
    seats = table(1, 2, 3, 4, 5, missed_bb=(5,), missed_sb=(5,))
    plan = nxt(seats, pos(2, 3, 4))  # BB reaches seat 5
    assert plan.big_blind == 5 and 5 in plan.dealt_in
    assert 5 not in plan.live and 5 not in plan.dead and plan.markers[5] == (False, False)


def test_r103_ms_player_in_the_sb_or_button_seat_cannot_be_dealt_in() -> None:
    seats = table(1, 2, 3, 4, 5, missed_sb=(2,), post_now=(2,))
    plan = nxt(seats, pos(1, 2, 3))  # hand: button 2
    assert plan.button == 2 and 2 not in plan.dealt_in


def test_sit_out_next_big_blind() -> None:
    seats = table(1, 2, 3, 4, 5, sit_out_next_bb=(4,))
    plan = nxt(seats, pos(1, 2, 3))
    assert plan.sat_out == (4,) and plan.big_blind == 5 and plan.markers[4] == (True, False)


def test_fewer_than_two_candidates_no_hand() -> None:
    assert plan_hand(table(1, 2, sitting_out=(2,)), pos(1, 1, 2), random.Random(0)) is None


def test_r98_the_dead_zone_is_right_when_the_small_blind_seat_is_empty() -> None:
    # Last hand: button 1, SB 3, BB 5; the BB (seat 5) left. This hand: button 3, dead SB on empty seat 5.
    # A new player in seat 6 (after the SB seat, not between button and SB) may post in; one in seat 4
    # (between the button and the SB seat) may not.
    seats = table(1, 2, 3, 4, 6, 7)
    seats[4] = SeatStatus(4, "new4", waiting_bb=True, post_now=True)
    seats[7] = SeatStatus(7, "new7", waiting_bb=True, post_now=True)
    plan = nxt(seats, Positions(1, 3, 5, "gone"))
    assert (plan.button, plan.sb_seat, plan.small_blind) == (3, 5, None)
    assert plan.big_blind == 6
    assert 4 not in plan.dealt_in and 7 in plan.dealt_in and plan.live == (7,)

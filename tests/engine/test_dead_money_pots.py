"""Dead money (a dead small blind, a big-blind ante) never shuts a player who is not all-in out of a pot.

Found by replaying the 2023 WSOP Event #43 hand 30 (a big-blind ante, tests/fixtures/phh): the player
who posted the ante had contributed more than the caller, and the pot was built as if the caller were
all-in for less.
"""

from __future__ import annotations

from pokerroom.engine import Betting, Blinds, Call, Check, Stakes
from pokerroom.engine.pots import side_pots

from .helpers import start


def test_r100_dead_small_blind_poster_does_not_win_the_pot_by_default() -> None:
    # Seat 1 returns with ML: 200 live + 100 dead. Everybody checks it down; seat 3 (aces) must win.
    hand = start(
        "holdem",
        Betting.NO_LIMIT,
        Stakes.blinds(100, 200),
        [5000, 5000, 5000],
        "8d As 7c 3c Ad 2h Jc Ks Qh 9c Th 5d Tc 4s",
        button=1,
        blinds=Blinds(small=(2, 100), big=(3, 200), live=((1, 200),), dead=((1, 100),)),
    )
    hand.apply(Check(1))
    hand.apply(Call(2))
    hand.apply(Check(3))
    while not hand.is_over:
        seat = hand.pending.seat  # type: ignore[union-attr]
        hand.apply(Check(seat))
    assert hand.stacks() == {1: 4700, 2: 4800, 3: 5500}


def test_big_blind_ante_does_not_split_the_pot() -> None:
    # Seat 2 paid a 100 ante on top of everything seat 5 matched; neither is all-in: one pot for both.
    pots = side_pots({1: 50, 2: 650, 5: 550}, active=[2, 5], all_in=[])
    assert [(p.amount, p.eligible) for p in pots] == [(1250, (2, 5))]


def test_all_in_player_still_limited_to_what_he_matched() -> None:
    pots = side_pots({1: 100, 2: 300, 3: 300}, active=[1, 2, 3], all_in=[1])
    assert [(p.amount, p.eligible) for p in pots] == [(300, (1, 2, 3)), (400, (2, 3))]

"""Dead money (a dead small blind, a big-blind ante) never shuts a player who is not all-in out of a pot.

Found by replaying the 2023 WSOP Event #43 hand 30 (a big-blind ante, tests/fixtures/phh): the player
who posted the ante had contributed more than the caller, and the pot was built as if the caller were
all-in for less.
"""

from __future__ import annotations

import pytest

from pokerroom.engine import Betting, Blinds, Call, Check, ConfigError, Fold, HandState, RaiseTo, Stakes
from pokerroom.engine.events import Posted
from pokerroom.engine.pots import side_pots
from pokerroom.history import read_phh, write_phh
from pokerroom.history.replay import replay

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


# ------------------------------------------------------------------------- unequal antes (issue 21)
#
# An ante is dead money: when the antes are not all equal (a big-blind ante, a button ante, a recorded
# hand where only some players ante), no ante is a contribution that makes a side pot; every player still
# in can win all of them, whatever he put in (TDA big-blind ante). Equal antes stay contributions
# (RULES.md §3.8): a player all-in for part of the ante wins only what he matched.

BB_ANTE = Stakes.blinds(50, 100, ante=100, big_blind_ante=True)
# Seat 3 (button, first to act three-handed) has the aces; seats 1 and 2 miss.
ACES_WIN = "7c 8s As 2d 3h Ad 4c Kh 9d 5s 6c Jc Tc 2s"


def test_big_blind_posts_the_tables_ante_before_his_blind() -> None:
    hand = start("holdem", Betting.NO_LIMIT, BB_ANTE, [10000, 10000, 10000], ACES_WIN, button=3)
    posted = [(e.seat, e.what, e.amount) for e in hand.events if isinstance(e, Posted)]
    assert posted == [(2, "ante", 100), (1, "small_blind", 50), (2, "big_blind", 100)]
    assert hand.pot_total() == 250
    assert hand.to_call(3) == 100  # the ante is not part of the big blind's bet


def test_r255_a_short_big_blind_posts_his_blind_first_and_the_rest_toward_the_ante() -> None:
    """R255 (RULES.md §11.3, the TDA's procedure): BB ante 100, big blind 100, the big blind has 150: he
    posts the blind 100 and 50 toward the ante. Before, the ante came first (100) and the blind was 50."""
    bb_ante = Stakes.blinds(50, 100, ante=100, big_blind_ante=True)
    hand = start("holdem", Betting.NO_LIMIT, bb_ante, [10000, 150, 10000], ACES_WIN, button=3)
    posted = [(e.seat, e.what, e.amount, e.all_in) for e in hand.events if isinstance(e, Posted)]
    assert posted == [(1, "small_blind", 50, False), (2, "big_blind", 100, False), (2, "ante", 50, True)]
    assert hand.to_call(3) == 100 and hand.pot_total() == 200  # a full blind to call


def test_r255_a_big_blind_who_covers_only_his_blind_posts_no_ante() -> None:
    hand = start("holdem", Betting.NO_LIMIT, BB_ANTE, [10000, 80, 10000], ACES_WIN, button=3)
    posted = [(e.seat, e.what, e.amount, e.all_in) for e in hand.events if isinstance(e, Posted)]
    assert posted == [(1, "small_blind", 50, False), (2, "big_blind", 80, True)]


def test_r255_a_short_big_blind_ante_replays_from_its_history() -> None:
    """The history records the nominal ante and blind; the replay posts them in the same order (the big
    blind's is the only ante: a big-blind ante), so the hand verifies."""
    hand = start("holdem", Betting.NO_LIMIT, BB_ANTE, [10000, 150, 10000], ACES_WIN, button=3)
    hand.apply(Call(3))
    hand.apply(Fold(1))
    assert hand.is_over or hand.pending is not None
    text = write_phh(hand)
    result = replay(read_phh(text))
    assert result.matches is not False
    again = [(e.seat, e.what, e.amount) for e in result.state.events if isinstance(e, Posted)]
    assert [(w, a) for _, w, a in again] == [("small_blind", 50), ("big_blind", 100), ("ante", 50)]


def test_an_all_in_player_wins_the_big_blind_ante_he_did_not_match() -> None:
    """The issue's WSOP hand in small: the button is all-in for 500, the big blind (ante 100) calls; the
    button wins 500 + 500 + the ante + the small blind. Before: the ante came back to the big blind as
    a side pot of his own."""
    hand = start("holdem", Betting.NO_LIMIT, BB_ANTE, [10000, 10000, 500], ACES_WIN, button=3)
    hand.apply(RaiseTo(3, 500))
    hand.apply(Fold(1))
    hand.apply(Call(2))
    assert hand.is_over
    assert [(p.amount, p.eligible) for p in hand.pots] == [(1150, (2, 3))]
    assert hand.stacks() == {1: 9950, 2: 9400, 3: 1150}


def test_unequal_antes_from_the_table_are_dead_money_too() -> None:
    """A button ante given per seat (``Blinds.antes``), as a recorded hand gives it: the same rule."""
    blinds = Blinds(small=(1, 50), big=(2, 100), antes=((3, 300),))
    hand = start("holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), [10000, 10000, 800], ACES_WIN, button=3)
    assert hand.pot_total() == 150
    hand = start(
        "holdem",
        Betting.NO_LIMIT,
        Stakes.blinds(50, 100),
        [10000, 400, 10000],
        ACES_WIN,
        button=3,
        blinds=blinds,
    )
    hand.apply(Call(3))  # the button (aces) calls the blind; his 300 ante is on top
    hand.apply(Fold(1))
    hand.apply(RaiseTo(2, 400))  # the big blind is all-in for 400 in all
    hand.apply(Call(3))
    assert hand.is_over
    # Contributions 50 (folded), 400, 700 (ante 300 + 400): the 300 ante is no level of its own.
    assert [(p.amount, p.eligible) for p in hand.pots] == [(1150, (2, 3))]


def test_equal_antes_stay_contributions() -> None:
    """RULES.md §3.8 (R83): seat 3 is all-in for 5 of a 10 ante; he can win only 5 from each player."""
    stakes = Stakes.blinds(50, 100, ante=10)
    hand = start("holdem", Betting.NO_LIMIT, stakes, [10000, 10000, 5], ACES_WIN, button=3)
    hand.apply(Fold(1))  # the big blind alone can still bet: the hand runs out
    assert hand.is_over
    assert [(p.amount, p.eligible) for p in hand.pots] == [
        (15, (2, 3)),
        (5 + 5 + 50 + 50, (2,)),
    ]  # 50 of the big blind came back
    assert hand.stacks()[3] == 15


def test_side_pots_with_dead_money() -> None:
    paid = {2: 1000, 5: 775}  # seat 2: ante 225 + 775 called; seat 5 all-in 775
    assert [(p.amount, p.eligible) for p in side_pots(paid, [2, 5], [5])] == [(1550, (2, 5)), (225, (2,))]
    pots = side_pots(paid, [2, 5], [5], dead={2: 225})
    assert [(p.amount, p.eligible) for p in pots] == [(1775, (2, 5))]
    # An all-in player who put in nothing but dead money still shares it.
    pots = side_pots({1: 100, 2: 300, 3: 300}, [1, 2, 3], [1], dead={1: 100})
    assert [(p.amount, p.eligible) for p in pots] == [(100, (1, 2, 3)), (600, (2, 3))]


def test_big_blind_ante_is_for_blind_games_and_survives_a_snapshot() -> None:
    with pytest.raises(ConfigError):
        start("stud", Betting.FIXED_LIMIT, Stakes(0, 0, 20, 40, 5, 5, 1, big_blind_ante=True), [100, 100])
    with pytest.raises(ConfigError):
        Stakes.blinds(1, 2, ante=2, big_blind_ante=1)  # type: ignore[arg-type]
    hand = start("holdem", Betting.NO_LIMIT, BB_ANTE, [10000, 10000, 500], ACES_WIN, button=3)
    hand.apply(RaiseTo(3, 500))
    again = HandState.restore(hand.snapshot())
    assert again.structure.stakes.big_blind_ante
    assert again.events == hand.events

"""Bounties and progressive knockouts (issue 35; RULES.md §11.3, R259, R260): who knocked a player out
(the winners of the highest pot he was eligible for: all-in, split and side-pot knockouts, on literal
decks), the knockout's money (whole, or half in cash and half onto the winner's bounty), and a director
paying every bounty exactly once (the property harness checks it over random fields too)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from pokerroom.engine import BetDecision, Betting, Call, Check, ConfigError, HandState, RaiseTo, Stakes
from pokerroom.rooms.tournament import TournamentBounty, TournamentConfig, TournamentDirector
from pokerroom.rooms.tournament.bounty import eliminators, knockout
from pokerroom.rooms.tournament.rush import check_rush_config

from ..engine.helpers import start
from .tourney_driver import Field, check_end, play

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
BLINDS = Stakes.blinds(50, 100)


def check_down(hand: HandState) -> None:
    while not hand.is_over:
        pending = hand.pending
        assert isinstance(pending, BetDecision)
        hand.apply(Check(pending.seat) if pending.check else Call(pending.seat))


def test_an_all_in_player_is_knocked_out_by_the_winner_of_the_pot() -> None:
    # seat 3 (aces) calls all in; seat 1 (the small blind) has him covered and wins with a set of kings
    deck = "Kd 7h 2c Kc 8h 3c 4d 9s Ks 5c 6d Jh Qs 2s"
    hand = start("holdem", Betting.NO_LIMIT, BLINDS, [10_000, 10_000, 300], deck, button=3)
    hand.apply(RaiseTo(3, 300))
    hand.apply(Call(1))
    hand.apply(Call(2))
    check_down(hand)
    assert hand.stacks()[3] == 0 and eliminators(hand, 3) == (1,)


def test_r260_a_split_pot_shares_the_bounty() -> None:
    """Seats 1 and 2 split the pot that busts seat 3 (both make the broadway straight): both eliminated
    him; a knockout bounty of 750 is 375 each (R260: $7.50, $3.75 each)."""
    deck = "Ah As 7c Kd Kc 2d 5c Qh Jd Tc 6c 4s 8d 3h"
    hand = start("holdem", Betting.NO_LIMIT, BLINDS, [10_000, 10_000, 300], deck, button=3)
    hand.apply(RaiseTo(3, 300))
    hand.apply(Call(1))
    hand.apply(Call(2))
    check_down(hand)
    assert hand.stacks()[3] == 0 and eliminators(hand, 3) == (1, 2)
    assert knockout(750, ["a", "b"], progressive=False) == [("a", 375, 0), ("b", 375, 0)]
    assert knockout(751, ["a", "b"], progressive=False) == [("a", 376, 0), ("b", 375, 0)]  # odd unit


def test_a_side_pot_knockout_goes_to_the_winner_of_the_highest_pot_he_was_in() -> None:
    """Seat 3 (aces, 300) wins the main pot; seat 2 (queens, 600) is busted by seat 1 (kings), who wins
    the side pot: seat 1 knocked him out, not seat 3."""
    deck = "Kd Qd Ad Kc Qc Ac 5h 2h 7s 9c 6h 3d 8h 4s"
    hand = start("holdem", Betting.NO_LIMIT, BLINDS, [10_000, 600, 300], deck, button=3)
    hand.apply(RaiseTo(3, 300))
    hand.apply(RaiseTo(1, 600))
    hand.apply(Call(2))
    check_down(hand)
    assert hand.stacks() == {1: 10_000 - 600 + 600, 2: 0, 3: 900}
    assert [(p.amount, p.eligible) for p in hand.pots] == [(900, (1, 2, 3)), (600, (1, 2))]
    assert eliminators(hand, 2) == (1,)


def test_r259_a_progressive_knockout_pays_half_and_adds_half_to_the_winners_bounty() -> None:
    """PKO, prize contribution $10, bounty share 50 %: starting bounty $5; A eliminates B: A receives
    $2.50 in cash and his bounty grows from $5 to $7.50 (in cents)."""
    assert knockout(500, ["A"], progressive=True) == [("A", 250, 250)]
    cfg = TournamentConfig(
        "pko", "PKO", kind="sng", max_players=2, buy_in=1000, fee=100, bounty=50, progressive=True
    )
    d = TournamentDirector(cfg, random.Random(3))
    out = d.register("A", "A", T0) + d.register("B", "B", T0)
    assert d.bounty_part == 500 and d.pool == 1000  # the prize pool is the prize part only
    assert {e.bounty for e in d.entrants.values()} == {500}
    run = play(d, T0, random.Random(1), Field(shove=1.0), out)
    check_end(run)
    winner = next(e.player for e in d.entrants.values() if e.place == 1)
    loser = "B" if winner == "A" else "A"
    bounties = [(x.player, x.amount, x.victim) for x in run.out if isinstance(x, TournamentBounty)]
    assert bounties == [(winner, 250, loser), (winner, 750, winner)]  # the winner's own $7.50 too


def test_a_bounty_tournament_has_no_rebuys_satellite_seats_freeroll_or_rush() -> None:
    base: dict[str, object] = {"kind": "sng", "max_players": 2, "buy_in": 1000, "bounty": 50}
    for kw in ({"rebuy_levels": 2}, {"seat_value": 1100, "target": "x"}, {"bounty": 100}):
        with pytest.raises(ConfigError):
            TournamentConfig("b", "B", **{**base, **kw})  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        check_rush_config(TournamentConfig("b", "B", **base))  # type: ignore[arg-type]

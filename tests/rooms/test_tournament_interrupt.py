"""Issue 35, defect 5: an operator ends a running tournament, paid out by the interrupted-tournament rule
(docs/decisions.md, docs/tournaments.md "Ended by an operator"): the hand in progress is void, the pool
is made final (the guarantee's overlay booked: it was owed once the tournament started, §9.10), places
already given are paid, and what is left goes to the players holding chips (``interrupted_shares``: the
lowest prize they were sure of, the rest by chips) with their fee back; never a chip more or less."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from pokerroom.engine import BetDecision, Call, Check
from pokerroom.rooms import TableError
from pokerroom.rooms.tournament import (
    Finished,
    TournamentBounty,
    TournamentConfig,
    TournamentDirector,
    TournamentOverlay,
    TournamentPrize,
    TournamentShare,
)
from pokerroom.rooms.tournament.payouts import interrupted_shares

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def started(cfg: TournamentConfig, n: int, seed: int = 1) -> TournamentDirector:
    d = TournamentDirector(cfg, random.Random(seed))
    for i in range(n):
        d.register(f"p{i}", f"p{i}", T0 - timedelta(minutes=1))
    d.tick(T0)
    assert d.status == "running"
    return d


def one_call(d: TournamentDirector, now: datetime) -> None:
    """Chips go into the pot of the hand in progress at table 1 (so voiding it matters)."""
    table = d.tables[1]
    assert table.hand is not None
    pending = table.hand.pending
    assert isinstance(pending, BetDecision)
    cmd = Call(pending.seat) if pending.call else Check(pending.seat)
    d.act(table.seats[pending.seat].player, cmd, now)
    assert table.in_hand


@pytest.mark.parametrize("seed", range(3))
def test_ending_a_running_sit_and_go_voids_the_hand_and_shares_the_pool_by_the_interrupted_rule(
    seed: int,
) -> None:
    cfg = TournamentConfig("s", "SNG", kind="sng", max_players=6, buy_in=1000, fee=100)
    d = started(cfg, 6, seed)
    now = T0 + timedelta(seconds=3)
    d._eliminate([("p5", 1500)], now)  # out 6th: no prize (6 players pay 2 places)
    one_call(d, now)
    out = d.interrupt(now)
    assert d.status == "cancelled" and not d.tables
    shares = {x.player: (x.amount, x.fee) for x in out if isinstance(x, TournamentShare)}
    stacks = {p: e.stack for p, e in d.entrants.items() if not e.out}
    assert sum(stacks.values()) == 5 * 1500  # the void hand gave every chip back (p5 left with none)
    expect = interrupted_shares(6000, stacks, [3900, 2100])
    assert shares == {p: (amount, 100) for p, amount in expect.items()}
    assert sum(a for a, _ in shares.values()) == d.pool == 6000
    assert not [x for x in out if isinstance(x, TournamentPrize)]
    [fin] = [x for x in out if isinstance(x, Finished)]
    assert fin.cancelled
    with pytest.raises(TableError):
        d.interrupt(now)  # once


def test_ending_a_guaranteed_tournament_before_its_pool_is_final_books_the_overlay_and_pays_places() -> None:
    cfg = TournamentConfig(
        "g", "Gtd", kind="mtt", buy_in=1000, fee=100, start_time=T0, guarantee=20_000, rebuy_levels=2,
        table_size=6, payouts=(Fraction(50), Fraction(30), Fraction(20)),
    )  # fmt: skip
    d = started(cfg, 12)
    now = T0 + timedelta(minutes=1)
    d._eliminate([("p11", 1500)], now)  # 12th, in the rebuy period: his place waits for the pool
    assert not d.pool_final
    out = d.interrupt(now)
    assert [x.amount for x in out if isinstance(x, TournamentOverlay)] == [20_000 - 12_000]
    assert not [x for x in out if isinstance(x, TournamentPrize)]  # 12th pays nothing
    shares = sum(x.amount for x in out if isinstance(x, TournamentShare))
    assert shares == d.pool == 20_000 and d.entrants["p11"].place == 12


def test_only_a_running_tournament_can_be_ended() -> None:
    cfg = TournamentConfig("s", "SNG", kind="sng", max_players=3, buy_in=1000, fee=100)
    d = TournamentDirector(cfg, random.Random(1))
    d.register("a", "a", T0)
    with pytest.raises(TableError):
        d.interrupt(T0)


def test_ending_a_bounty_tournament_gives_each_player_still_in_his_own_bounty() -> None:
    """Issue 35: the bounties are not the prize pool's: an operator's end shares the prize part by the
    interrupted rule and gives each player still in his own bounty."""
    cfg = TournamentConfig("b", "KO", kind="sng", max_players=4, buy_in=1000, fee=100, bounty=50)
    d = started(cfg, 4)
    out = d.interrupt(T0 + timedelta(seconds=3))
    shares = sum(x.amount for x in out if isinstance(x, TournamentShare))
    own = {x.player: x.amount for x in out if isinstance(x, TournamentBounty)}
    assert shares == d.pool == 2000 and own == dict.fromkeys(d.entrants, 500)
    assert d.bounty_out == d.bounty_in == 2000

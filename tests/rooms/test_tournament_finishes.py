"""Issue 18: tournaments that always finish and never pay a chip more or less than their pool, in the
pure director (RULES.md §9.5-§9.11, R226, R232, R234, §7.3, R202, R227)."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta

import pytest

from pokerroom.engine import BetDecision, Betting, Check, ConfigError, Fold, Stakes
from pokerroom.rooms.points import Discipline, PointsPolicy
from pokerroom.rooms.rush import RushPool, entry_key
from pokerroom.rooms.rush_rules import PoolConfig
from pokerroom.rooms.tournament import (
    RushTournamentDirector,
    TableHandEnded,
    TournamentConfig,
    TournamentDirector,
    TournamentOverlay,
    TournamentPoints,
    TournamentPrize,
    TournamentTicket,
)
from pokerroom.rooms.tournament.promotions import big_game_of_the_week

from .tourney_driver import Field, bot_command, check_end, play

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)  # a Sunday


def mtt(tid: str = "t", **kw: object) -> TournamentConfig:
    base: dict[str, object] = {"kind": "mtt", "buy_in": 10_000, "fee": 900, "start_time": T0}
    base.update(kw)
    return TournamentConfig(tid, "Test", **base)  # type: ignore[arg-type]


def registered(
    cfg: TournamentConfig, n: int, seed: int = 1, cls: type = TournamentDirector
) -> TournamentDirector:
    d: TournamentDirector = cls(cfg, random.Random(seed))
    for i in range(n):
        d.register(f"p{i}", f"p{i}", T0 - timedelta(minutes=1))
    return d


def fold_round(d: TournamentDirector, now: datetime) -> list[object]:
    """Every table's hand folded round to the big blind (dealt first if the start did not deal)."""
    out = d.tick(now)
    for table in list(d.tables.values()):
        while table.in_hand:
            assert table.hand is not None
            pending = table.hand.pending
            assert isinstance(pending, BetDecision)
            cmd = Fold(pending.seat) if pending.fold else Check(pending.seat)
            out += d.act(table.seats[pending.seat].player, cmd, now)
    return out


def rebuy_some(d: TournamentDirector, n: int, now: datetime) -> list[object]:
    out: list[object] = []
    for p in [p for p, e in d.entrants.items() if e.stack <= d.config.starting_stack][:n]:
        out += d.rebuy(p, now)
    assert sum(e.entries - 1 for e in d.entrants.values()) == n
    return out


# -------------------------------------------------------------------------- 1. it always finishes


@pytest.mark.parametrize("seed", range(4))
def test_a_table_left_with_one_player_is_broken_or_filled_at_once_and_the_tournament_ends(seed: int) -> None:
    """Five players at heads-up tables (2, 2, 1): the lone player's table cannot deal, so it never ends a
    hand. Every elimination must decide every table's need to break (§9.5); before the fix the three
    tables ended with one player each and nothing ever happened again."""
    cfg = mtt(table_size=2, level_minutes=3)
    d = registered(cfg, 5, seed)
    run = play(d, T0, random.Random(seed), Field(shove=1.0, max_steps=5_000))
    check_end(run)


def test_a_hyper_all_in_field_of_150_with_a_guarantee_finishes_and_pays_the_guarantee() -> None:
    """The issue's 150-player guaranteed tournament on a hyper structure with an all-in field."""
    cfg = mtt(guarantee=2_000_000, level_minutes=1, break_minutes=0)
    d = registered(cfg, 150, 3)
    run = play(d, T0, random.Random(3), Field(shove=0.9))
    check_end(run)
    assert sum(x.amount for x in run.out if isinstance(x, TournamentPrize)) == 2_000_000


def test_a_table_that_cannot_deal_counts_as_done_in_hand_for_hand() -> None:
    """Hand-for-hand (R235) waits for every table: a table of one player has nothing to wait for."""
    cfg = mtt(table_size=2, level_minutes=2, payouts=())
    for seed in range(6):
        d = registered(cfg, 7, seed)
        run = play(d, T0, random.Random(seed), Field(shove=1.0, max_steps=5_000))
        check_end(run)


# ----------------------------------------------------------------- 2. the pool of a guarantee


def test_the_guarantee_is_max_of_guarantee_and_all_contributions_rebuys_included() -> None:
    """§9.8: 80 entries of 100.00 and 30 rebuys against 10,000.00 guaranteed: the pool is 11,000.00 and
    the house adds nothing (it used to book a 2,000.00 overlay at the start and add the rebuys on top)."""
    cfg = mtt(guarantee=1_000_000, rebuy_levels=2, level_minutes=10)
    d = registered(cfg, 80)
    out = d.tick(T0)
    out += fold_round(d, T0)
    out += rebuy_some(d, 30, T0 + timedelta(seconds=1))
    assert not any(isinstance(x, TournamentOverlay) for x in out)
    out += d.tick(T0 + timedelta(minutes=21))  # level 3: the rebuy period is over, the pool is final
    assert d.pool_final and d.pool == 1_100_000 and d.overlay == 0
    assert not any(isinstance(x, TournamentOverlay) for x in out)
    assert sum(d.prizes) == 1_100_000


def test_an_overlay_is_booked_once_when_the_pool_is_final_and_covers_only_the_shortfall() -> None:
    cfg = mtt(guarantee=1_000_000, rebuy_levels=1, late_registration_levels=2, level_minutes=10)
    d = registered(cfg, 60)
    out = d.tick(T0)
    out += fold_round(d, T0)
    out += rebuy_some(d, 10, T0 + timedelta(seconds=1))
    out += d.register("late", "late", T0 + timedelta(minutes=15))
    assert not d.pool_final and not any(isinstance(x, TournamentOverlay) for x in out)
    out += d.tick(T0 + timedelta(minutes=20, seconds=1))  # level 3: registration and rebuys closed
    overlays = [x.amount for x in out if isinstance(x, TournamentOverlay)]
    assert overlays == [1_000_000 - 71 * 10_000] and d.pool == 1_000_000
    out += d.tick(T0 + timedelta(minutes=40))
    assert [x.amount for x in out if isinstance(x, TournamentOverlay)] == overlays  # once only


# ------------------------------------------------------------- 3. places are given once and final


def test_late_registration_never_gives_a_place_twice_nor_pays_more_than_the_pool() -> None:
    """80 entrants, late registration for two levels, 10 late entrants, an all-in field: places are
    counted from the final field, so a late entrant cannot push a busted player's place onto another."""
    cfg = mtt(late_registration_levels=2, level_minutes=2, guarantee=0)
    d = registered(cfg, 80, 5)
    run = play(d, T0, random.Random(5), Field(shove=0.4, late=10, step=2.0))
    check_end(run)
    assert len(d.entrants) > 80
    places = sorted(e.place or 0 for e in d.entrants.values())
    assert places[0] == 1 and places[-1] <= len(d.entrants)  # from the final field (ties: check_step)
    assert sum(x.amount for x in run.out if isinstance(x, TournamentPrize)) == d.pool


def test_places_wait_for_the_final_field_during_late_registration() -> None:
    cfg = mtt(late_registration_levels=2, level_minutes=10)
    d = registered(cfg, 10)
    d.tick(T0)
    d._eliminate([("p0", 1500)], T0 + timedelta(minutes=1))
    assert d.entrants["p0"].out and d.entrants["p0"].place is None  # the field may still grow
    d.register("late", "late", T0 + timedelta(minutes=2))
    d.tick(T0 + timedelta(minutes=20, seconds=1))  # level 3: registration closed, 11 entrants
    assert d.entrants["p0"].place == 11
    assert [s["player"] for s in d.standings()][-1] == "p0"


# ------------------------------------------------------------------------- 4. Rush is its own discipline


@pytest.mark.parametrize(
    ("featured", "rush_pct", "standard_pct"), [("standard", 100, 200), ("rush", 200, 100)]
)
def test_rush_tournaments_earn_points_in_the_rush_discipline(
    featured: str, rush_pct: int, standard_pct: int
) -> None:
    """§7.3: standard and Rush modes are different disciplines (fee 9.00 x 10 points = 9,000 centipoints)."""
    week = {date(2026, 11, 30): Discipline("holdem", Betting.NO_LIMIT, featured)}
    policy = PointsPolicy(tz=UTC, game_of_the_week=week)
    for cls, pct in ((RushTournamentDirector, rush_pct), (TournamentDirector, standard_pct)):
        d = cls(mtt(), random.Random(1), policy)
        out = d.register("a", "a", T0 - timedelta(minutes=1))
        out += d.register("b", "b", T0 - timedelta(minutes=1))
        out += d.tick(T0)
        pts = [x.centipoints for x in out if isinstance(x, TournamentPoints)]
        assert pts == [9_000 * pct // 100] * 2, cls.__name__


# ----------------------------------------------------------------------- 5. no rebuys in Rush tournaments


@pytest.mark.parametrize("kw", [{"rebuy_levels": 3}, {"rebuy_levels": 3, "add_on": True}, {"add_on": True}])
def test_a_rush_tournament_with_rebuys_or_an_add_on_is_refused_when_configured(kw: dict[str, bool]) -> None:
    with pytest.raises(ConfigError, match="Rush tournament has no rebuys"):
        RushTournamentDirector(mtt("t", **kw), random.Random(1))


# --------------------------------------------------------- 6. broke in the same hand of the rebuy period


def test_players_broke_in_one_hand_of_the_rebuy_period_are_ranked_by_their_starting_stacks() -> None:
    """R234 in the rebuy period: out at the table's next hand unless they rebuy, ranked by the stacks
    they started the broke hand with (they used to be eliminated with a starting stack of 0: all tied)."""
    for seed in range(200):
        cfg = mtt(rebuy_levels=1, level_minutes=10, table_size=6)
        d = registered(cfg, 6, seed)
        rng = random.Random(seed)
        out = d.tick(T0)
        out += fold_round(d, T0)  # the first hand: folded round to the big blind
        table = d.tables[1]
        now = T0 + timedelta(seconds=10)
        for i, p in enumerate(d.entrants):  # some rebuy: the stacks differ
            if i % 2 and d.entrants[p].stack <= cfg.starting_stack:
                out += d.rebuy(p, now)
        out = d.tick(now)
        while table.in_hand:  # the second hand: everybody all in
            assert table.hand is not None
            cmd = bot_command(table.hand, rng, 1.0)
            out += d.act(table.seats[cmd.seat].player, cmd, now)
        ended = next(x for x in out if isinstance(x, TableHandEnded))
        broke = [p for p, s in ended.stacks.items() if s == 0]
        if len(broke) < 2 or len({ended.starting[p] for p in broke}) < len(broke):
            continue
        assert all(d.entrants[p].place is None for p in broke)  # they may still rebuy
        d.tick(now + timedelta(minutes=11))  # the rebuy period is over: out at the next hand
        by_start = sorted(broke, key=lambda p: -ended.starting[p])
        places = [d.entrants[p].place for p in by_start]
        assert None not in places and places == sorted(set(places)), places  # type: ignore[type-var]
        return
    raise AssertionError("no seed busted two players with different stacks in one hand")


# ------------------------------------------------------------------ 7. the Big Game is next Sunday's


def test_the_big_game_started_from_a_sunday_evening_is_next_sundays() -> None:
    """R227: on Sunday after its hour the next Big Game is a week away, never one starting at once."""
    sunday_evening = datetime(2026, 12, 6, 19, 30, tzinfo=UTC)
    cfg = big_game_of_the_week(sunday_evening, "holdem", Betting.NO_LIMIT)
    assert cfg.start_time == datetime(2026, 12, 13, 18, 0, tzinfo=UTC)
    same_day = big_game_of_the_week(datetime(2026, 12, 6, 9, tzinfo=UTC), "holdem", Betting.NO_LIMIT)
    assert same_day.start_time == datetime(2026, 12, 6, 18, 0, tzinfo=UTC)
    wednesday = big_game_of_the_week(datetime(2026, 12, 2, 23, tzinfo=UTC), "holdem", Betting.NO_LIMIT)
    assert wednesday.start_time == datetime(2026, 12, 6, 18, 0, tzinfo=UTC)


# -------------------------------------------------------------- 8. busted entries fill no Rush table


def test_busted_entries_do_not_count_in_a_rush_pools_size() -> None:
    """R202: Quick Fold is offered while the pool can fill two full tables; a busted entry cannot play."""
    cfg = PoolConfig("r", "Rush", "holdem", Betting.NO_LIMIT, Stakes(50, 100, 0, 0, 0, 0, 1), 6)
    pool = RushPool(cfg, random.Random(1))
    for i in range(12):
        pool.join(f"p{i}", f"p{i}", 10_000, T0)
    assert pool.size == 12 and pool.quick_fold_offered()
    busted = pool.entries[entry_key("p0", 1)]
    busted.state, busted.stack = "busted", 0  # as the pool leaves an entry that lost its stack
    assert pool.size == 11 and not pool.quick_fold_offered()


def test_a_freeroll_takes_no_buy_in() -> None:
    """A freeroll's pool is the house's (§9.8); a buy-in on top would vanish from the prizes."""
    with pytest.raises(ConfigError):
        mtt(freeroll_pool=5_000)


def test_a_late_entrant_of_a_rush_tournament_joins_its_pool() -> None:
    """Late registration in the Rush phase: a starting stack in the pool, not a table of his own."""
    cfg = mtt(late_registration_levels=2, level_minutes=10)
    d = registered(cfg, 12, cls=RushTournamentDirector)
    d.tick(T0)
    assert isinstance(d, RushTournamentDirector) and d.rush is not None
    d.register("late", "late", T0 + timedelta(minutes=1))
    entry = d.rush.entries[entry_key("late", 1)]
    assert entry.stack == cfg.starting_stack and not d.tables
    assert d.entrants["late"].stack == cfg.starting_stack and d.contributions == 13 * cfg.buy_in


def test_a_satellite_whose_pool_buys_more_seats_than_players_seats_everybody_and_shares_the_rest() -> None:
    """§9.9 with N = pool // S above the field (rebuys, or a cheap target): a seat for each player and the
    rest of the pool in cash, shared by those still in at the end; never a chip left in the pool."""
    cfg = mtt(buy_in=1000, fee=0, seat_value=400, target="main")
    d = registered(cfg, 3)
    out = d.tick(T0)
    tickets = [x for x in out if isinstance(x, TournamentTicket)]
    cash = [x.amount for x in out if isinstance(x, TournamentPrize)]
    assert d.status == "finished" and len(tickets) == 3 and sorted(cash) == [600, 600, 600]
    assert sum(t.value for t in tickets) + sum(cash) == d.pool == 3000

"""Tournaments: registration, structures, payouts, satellites, play, eliminations, balancing
(RULES.md §9, R216-R238, R59)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from pokerroom.engine import BetDecision, Betting, Call, Check, ConfigError, RaiseTo
from pokerroom.engine.events import Posted
from pokerroom.rooms import HandEvents, TableError
from pokerroom.rooms.points import Discipline, PointsPolicy
from pokerroom.rooms.tournament import (
    SPEEDS,
    BlindLevel,
    Finished,
    Schedule,
    TableHandEnded,
    TournamentBuyIn,
    TournamentConfig,
    TournamentDirector,
    TournamentOverlay,
    TournamentPoints,
    TournamentPrize,
    TournamentRefund,
    TournamentTicket,
    level_stakes,
)
from pokerroom.rooms.tournament.balance import (
    balance_move,
    bb_seat_for_newcomer,
    mover_blind_game,
    table_to_break,
)
from pokerroom.rooms.tournament.payouts import (
    default_percentages,
    interrupted_shares,
    pay_places,
    prize_pool,
    satellite_prizes,
    split_ties,
)

from ..engine.helpers import random_command

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def mtt(**kw: object) -> TournamentConfig:
    base: dict[str, object] = {
        "kind": "mtt",
        "buy_in": 10_000,
        "fee": 900,
        "start_time": T0 + timedelta(hours=1),
    }
    base.update(kw)
    return TournamentConfig("t1", "Test", **base)  # type: ignore[arg-type]


def sng(players: int = 6, **kw: object) -> TournamentConfig:
    return TournamentConfig("s1", "SNG", kind="sng", max_players=players, buy_in=1000, fee=100, **kw)  # type: ignore[arg-type]


def director(cfg: TournamentConfig, seed: int = 1) -> TournamentDirector:
    return TournamentDirector(cfg, random.Random(seed))


def test_r216_register_is_disabled_before_registration_opens() -> None:
    d = director(mtt(registration_opens=T0))
    with pytest.raises(TableError):
        d.register("ann", "Ann", T0 - timedelta(seconds=1))
    assert d.register("ann", "Ann", T0) == [TournamentBuyIn("t1", "ann", 10_000, 900)]


def test_r217_unregister_refunds_while_open_and_is_refused_after() -> None:
    d = director(mtt())
    for p in ("ann", "bob", "cid"):
        d.register(p, p, T0)
    assert d.unregister("cid", T0) == [TournamentRefund("t1", "cid", 10_000, 900)]
    d.tick(T0 + timedelta(hours=1))
    assert d.status == "running"
    with pytest.raises(TableError):
        d.unregister("bob", T0 + timedelta(hours=1, minutes=1))


def test_r218_sit_and_go_capacity_and_start_when_full() -> None:
    with pytest.raises(ConfigError):
        sng(1)
    with pytest.raises(ConfigError):
        sng(31)
    d = director(sng(3))
    d.register("a", "a", T0)
    d.register("b", "b", T0)
    assert d.status == "registering"
    out = d.register("c", "c", T0)
    assert d.status == "running" and len(d.tables) == 1 and len(d.tables[1].seats) == 3
    assert any(type(x).__name__ == "PlayerMoved" for x in out)


def test_r219_r220_level_lengths() -> None:
    assert SPEEDS == {"normal": 10, "turbo": 5, "hyper": 3}
    for minutes in SPEEDS.values():
        s = Schedule(T0, minutes)
        assert s.level(T0 + timedelta(minutes=minutes) - timedelta(seconds=1)) == 1
        assert s.level(T0 + timedelta(minutes=minutes)) == 2
    assert mtt().level_minutes == 10


def test_breaks_stop_the_level_clock() -> None:
    s = Schedule(T0, 10, 5)  # starts at 12:00; break 13:00-13:05
    assert s.level(T0 + timedelta(minutes=59)) == 6
    assert s.in_break(T0 + timedelta(hours=1, minutes=2))
    assert s.level(T0 + timedelta(hours=1, minutes=4)) == 7  # 60 minutes of play: level 7 began at 13:00
    assert s.level(T0 + timedelta(hours=1, minutes=14, seconds=59)) == 7
    assert s.level(T0 + timedelta(hours=1, minutes=15)) == 8  # 70 minutes played by 13:15


def test_r221_random_buttons_and_equal_stacks() -> None:
    buttons = set()
    for seed in range(12):
        d = director(sng(6), seed)
        for p in range(6):
            d.register(f"p{p}", f"p{p}", T0)
        d.tick(T0)
        t = d.tables[1]
        assert t.hand is not None and {p.starting_stack for p in t.hand.players.values()} == {1500}
        buttons.add(t.hand.button)
    assert len(buttons) >= 4


def play_out_hand(d: TournamentDirector, now: datetime, decide=None) -> list[object]:  # type: ignore[no-untyped-def]
    out: list[object] = []
    for t in list(d.tables.values()):
        while t.in_hand:
            pending = t.hand.pending  # type: ignore[union-attr]
            assert isinstance(pending, BetDecision)
            cmd = (
                decide(pending) if decide else (Check(pending.seat) if pending.check else Call(pending.seat))
            )
            out += d.act(t.seats[pending.seat].player, cmd, now)
    return out


def test_r222_r223_absent_players_post_and_are_folded() -> None:
    d = director(sng(3))
    for p in ("a", "b", "c"):
        d.register(p, p, T0)
    t = d.tables[1]
    for p in ("a", "b", "c"):
        d.sit_out(p)  # from the next hand
        d.set_connected(p, False)
    play_out_hand(d, T0)
    out = d.tick(T0 + timedelta(seconds=5))
    events = [e for x in out if isinstance(x, HandEvents) for e in x.events]
    posted = {e.what for e in events if isinstance(e, Posted)}
    assert {"small_blind", "big_blind"} <= posted  # R222: posted for absent players
    assert not t.in_hand  # everybody sat out: folded to the big blind at once (R223)
    assert any(isinstance(x, TableHandEnded) for x in out)


def test_r224_r234_eliminations_ranked_by_starting_stack() -> None:
    d = director(sng(4))
    for p in ("a", "b", "c", "d"):
        d.register(p, p, T0)
    t = d.tables[1]
    stacks = {"a": 100, "b": 200, "c": 3000, "d": 2700}
    for seat in t.seats.values():
        seat.stack = d.entrants[seat.player].stack = stacks[seat.player]
    d.tick(T0 + timedelta(seconds=1))

    def shove(pending: BetDecision) -> object:
        if pending.raise_kind:
            return RaiseTo(pending.seat, pending.max_to)
        return Call(pending.seat) if pending.call else Check(pending.seat)

    out = play_out_hand(d, T0 + timedelta(seconds=2), shove)
    ended = next(x for x in out if isinstance(x, TableHandEnded))
    busted = sorted(p for p, s in ended.stacks.items() if s == 0)
    assert len(busted) >= 2, "this seeded deal busts several players in one hand"
    places: dict[str, int] = {}
    for p in busted:
        place = d.entrants[p].place
        assert place is not None and d.entrants[p].stack == 0  # R224
        places[p] = place
    # R234: who started the hand with more chips finishes higher.
    by_start = sorted(busted, key=lambda p: -stacks[p])
    assert [places[p] for p in by_start] == sorted(places.values())


def test_r234_equal_starting_stacks_tie_and_split() -> None:
    d = director(sng(4))
    for p in ("a", "b", "c", "d"):
        d.register(p, p, T0)
    out = d._eliminate([("a", 500), ("b", 500)], T0)
    assert d.entrants["a"].place == d.entrants["b"].place == 3  # they share 3rd-4th
    del out


def test_r225_level_seven_has_a_25_ante() -> None:
    lvl = BlindLevel.default(7)
    assert (lvl.small_blind, lvl.big_blind, lvl.ante) == (100, 200, 25)
    assert level_stakes(lvl, Betting.NO_LIMIT, False).ante == 25
    assert BlindLevel.default(19) == BlindLevel(19, 8000, 16000, 2000)  # after 18: doubled
    fl = level_stakes(BlindLevel.default(4), Betting.FIXED_LIMIT, False)
    assert (fl.small_bet, fl.big_bet) == (100, 200)
    stud = level_stakes(BlindLevel.default(4), Betting.FIXED_LIMIT, True)
    assert (stud.small_bet, stud.big_bet, stud.bring_in, stud.ante) == (100, 200, 25, 20)


def test_r226_guaranteed_prize_pool_and_overlay() -> None:
    assert prize_pool(80 * 10_000, guarantee=1_000_000) == (1_000_000, 200_000)
    assert prize_pool(150 * 10_000, guarantee=1_000_000) == (1_500_000, 0)
    d = director(mtt(guarantee=1_000_000, buy_in=10_000))
    for p in range(80):
        d.register(f"p{p}", f"p{p}", T0)
    out = d.tick(T0 + timedelta(hours=1))
    assert TournamentOverlay("t1", 200_000) in out and d.pool == 1_000_000


def test_r227_big_game_of_the_week_configuration() -> None:
    from pokerroom.rooms.tournament.promotions import big_game_of_the_week

    cfg = big_game_of_the_week(datetime(2026, 12, 2, tzinfo=UTC), "holdem", Betting.NO_LIMIT)
    assert cfg.start_time is not None and cfg.start_time.weekday() == 6  # Sunday
    assert (cfg.buy_in, cfg.fee, cfg.guarantee) == (10_000, 900, 1_000_000)


@pytest.mark.parametrize(
    ("pool", "value", "guarantee", "expected"),
    [
        (100_000, 32_000, 0, (3, 4_000, 0)),  # R228: €1,000 pool, €300+€20 target -> 3 seats + €40
        (8_000, 10_900, 1, (1, 0, 2_900)),  # R229: 8 x $10 -> 1 guaranteed ticket, the house adds $29
        (25_000, 10_900, 1, (2, 3_200, 0)),
    ],  # R230: 25 x $10 -> 2 tickets + $32 to 3rd
)
def test_r228_r230_satellite_seats(
    pool: int, value: int, guarantee: int, expected: tuple[int, int, int]
) -> None:
    sat = satellite_prizes(pool, value, guarantee)
    assert (sat.seats, sat.cash, sat.house_adds) == expected


def test_r228_satellite_pays_tickets_and_the_cash_remainder() -> None:
    cfg = TournamentConfig(
        "sat", "Sat", kind="sng", max_players=10, buy_in=3_300, fee=0, seat_value=10_000, target="big"
    )
    d = director(cfg)
    for p in range(10):
        d.register(f"p{p}", f"p{p}", T0)
    assert d.seats_won == 3  # 33,000 // 10,000
    out = run_to_end(d)
    tickets = [x for x in out if isinstance(x, TournamentTicket)]
    cash = [x for x in out if isinstance(x, TournamentPrize)]
    assert (
        len(tickets) == 3
        and {t.target for t in tickets} == {"big"}
        and all(t.value == 10_000 for t in tickets)
    )
    assert [(c.place, c.amount) for c in cash] == [(4, 3_000)]


def test_r231_freeroll() -> None:
    cfg = TournamentConfig("f", "Freeroll", kind="sng", max_players=2, freeroll_pool=5_000)
    d = director(cfg)
    out = d.register("a", "a", T0) + d.register("b", "b", T0)
    assert cfg.is_freeroll and TournamentOverlay("f", 5_000) in out
    assert all(x.prize == 0 and x.fee == 0 for x in out if isinstance(x, TournamentBuyIn))


def test_r232_rebuy_at_or_below_the_starting_stack_in_the_period() -> None:
    cfg = mtt(rebuy_levels=6, buy_in=1000, fee=100)
    d = director(cfg)
    d.register("a", "a", T0)
    d.register("b", "b", T0)
    start = T0 + timedelta(hours=1)
    d.tick(start)
    play_out_hand(d, start)
    a = d.entrants["a"]
    if a.stack > cfg.starting_stack:
        a = d.entrants["b"]
    out = d.rebuy(a.player, start + timedelta(minutes=1))
    assert TournamentBuyIn("t1", a.player, 1000, 100, "rebuy") in out
    b = d.entrants["b" if a.player == "a" else "a"]
    if b.stack > cfg.starting_stack:
        with pytest.raises(TableError):
            d.rebuy(b.player, start + timedelta(minutes=1))  # above the starting stack
    with pytest.raises(TableError):
        d.rebuy(a.player, start + timedelta(minutes=61))  # level 7: the period is over


def test_r232_add_on_once_at_the_end_of_the_period_and_standings_count_them() -> None:
    cfg = mtt(rebuy_levels=2, add_on=True, buy_in=1000, fee=100)
    d = director(cfg)
    d.register("a", "a", T0)
    d.register("b", "b", T0)
    start = T0 + timedelta(hours=1)
    d.tick(start)
    play_out_hand(d, start)
    with pytest.raises(TableError):
        d.rebuy("a", start + timedelta(minutes=1), add_on=True)  # level 1: not the end of the period yet
    late = start + timedelta(minutes=11)  # level 2, the last of the period
    out = d.rebuy("a", late, add_on=True)
    assert TournamentBuyIn("t1", "a", 1000, 100, "add_on") in out
    with pytest.raises(TableError):
        d.rebuy("a", late, add_on=True)  # once
    row = next(r for r in d.standings() if r["player"] == "a")
    assert row["add_on"] is True and row["rebuys"] == 0
    assert next(r for r in d.standings() if r["player"] == "b")["add_on"] is False


def test_r233_ties_split_the_places_they_occupy() -> None:
    prizes = [100_00, 60_00, 40_00, 100_00, 75_00]
    assert split_ties(prizes[3:], [["x", "y"]]) == {"x": 87_50, "y": 87_50}
    assert split_ties([3, 0], [["x", "y"]]) == {"x": 2, "y": 1}  # leftover unit: table, then seat order


def _to_the_bubble(seed: int) -> tuple[TournamentDirector, datetime, random.Random] | None:
    d = director(mtt(table_size=6, buy_in=1000, fee=0), seed)
    for p in range(30):  # 30 entrants: 6 paid; hand-for-hand at 7 players left, on two 6-max tables
        d.register(f"p{p}", f"p{p}", T0)
    now = T0 + timedelta(hours=1)
    d.tick(now)
    rng = random.Random(seed)
    while d.status == "running" and not d.hand_for_hand:
        now += timedelta(seconds=3)
        d.tick(now)
        for t in list(d.tables.values()):
            while t.in_hand and t.number in d.tables and not d.hand_for_hand:
                cmd = random_command(t.hand, rng)  # type: ignore[arg-type]
                d.act(t.seats[cmd.seat].player, cmd, now)
    return (d, now, rng) if d.hand_for_hand else None


def test_r235_hand_for_hand_near_the_money() -> None:
    found = next(r for seed in range(30) if (r := _to_the_bubble(seed)) is not None)
    d, now, rng = found
    assert len(d.remaining) == len(d.prizes) + 1 == 7 and len(d.tables) == 2
    # Finish the hands in progress; then a table that has played its hand-for-hand hand waits.
    for t in d.tables.values():
        while t.in_hand:
            cmd = random_command(t.hand, rng)  # type: ignore[arg-type]
            d.act(t.seats[cmd.seat].player, cmd, now)
    if not d.hand_for_hand:
        return  # the bubble burst in the hands that were already running
    now += timedelta(seconds=3)
    d.tick(now)  # a new hand-for-hand hand everywhere
    first, second = d.tables.values()
    while first.in_hand:
        cmd = random_command(first.hand, rng)  # type: ignore[arg-type]
        d.act(first.seats[cmd.seat].player, cmd, now)
    if second.in_hand and d.hand_for_hand:
        d.tick(now + timedelta(seconds=30))
        assert not first.in_hand  # R235: no new hand until every table has finished the current one
        while second.in_hand:
            cmd = random_command(second.hand, rng)  # type: ignore[arg-type]
            d.act(second.seats[cmd.seat].player, cmd, now)
        d.tick(now + timedelta(seconds=60))
        assert d.status != "running" or first.number not in d.tables or first.in_hand or not d.hand_for_hand


def test_r236_r237_balancing_and_breaking() -> None:
    assert balance_move({1: 9, 2: 7}) == (1, 2)  # R236
    assert balance_move({1: 9, 2: 8}) is None
    assert table_to_break({1: 6, 2: 6, 3: 6}, 9) == 3  # R237: 18 players fit at two tables
    assert table_to_break({1: 7, 2: 6, 3: 6}, 9) is None
    # The player due the big blind next moves, to the seat the big blind reaches first at the target.
    assert mover_blind_game([1, 3, 5, 8], last_bb=3) == 5
    assert bb_seat_for_newcomer([2, 6, 9], last_bb=4) == 6
    assert bb_seat_for_newcomer([4, 6], last_bb=4) == 6  # never the next small-blind seat


def test_r238_payout_rounding_leftover_to_first() -> None:
    assert pay_places(100_001, [Fraction(50), Fraction(30), Fraction(20)]) == [50_001, 30_000, 20_000]
    assert default_percentages(8) == (Fraction(50), Fraction(30), Fraction(20))
    assert sum(default_percentages(500)) == 100  # over 100 entrants: the configured fallback


def test_r59_fixed_limit_cap_is_kept_heads_up_in_tournaments() -> None:
    cfg = TournamentConfig("fl", "FL", kind="sng", max_players=2, betting=Betting.FIXED_LIMIT, buy_in=100)
    d = director(cfg)
    d.register("a", "a", T0)
    d.register("b", "b", T0)
    d.tick(T0)
    hand = d.tables[1].hand
    assert hand is not None and not hand.structure.heads_up_uncapped


def test_cancelled_below_the_minimum_field_refunds_everybody() -> None:
    d = director(mtt(min_players=3))
    d.register("a", "a", T0)
    d.register("b", "b", T0)
    out = d.tick(T0 + timedelta(hours=1))
    assert d.status == "cancelled"
    assert {x.player for x in out if isinstance(x, TournamentRefund)} == {"a", "b"}
    assert any(isinstance(x, Finished) and x.cancelled for x in out)


def test_late_registration_seats_at_the_shortest_table_and_grows_the_pool() -> None:
    d = director(mtt(late_registration_levels=2, buy_in=1000, fee=100))
    for p in range(10):
        d.register(f"p{p}", f"p{p}", T0)
    start = T0 + timedelta(hours=1)
    d.tick(start)
    out = d.register("late", "late", start + timedelta(minutes=5))
    assert d.pool == 11_000 and d.entrants["late"].table is not None
    with pytest.raises(TableError):
        d.register("too-late", "x", start + timedelta(minutes=21))  # level 3
    del out


def test_tournament_points_per_fee_double_in_the_game_of_the_week() -> None:
    from datetime import date

    policy = PointsPolicy(
        tz=UTC, game_of_the_week={date(2026, 11, 30): Discipline("holdem", Betting.NO_LIMIT)}
    )
    d = TournamentDirector(sng(2), random.Random(1), policy)
    out = d.register("a", "a", T0) + d.register("b", "b", T0)
    pts = [x for x in out if isinstance(x, TournamentPoints)]
    assert [p.centipoints for p in pts] == [2000, 2000]  # fee 1.00 x 10 points x 2 = 20.00 points


def run_to_end(d: TournamentDirector, seed: int = 9) -> list[object]:
    rng = random.Random(seed)
    now = T0
    out: list[object] = []
    while d.status == "running":
        now += timedelta(seconds=3)
        out += d.tick(now)
        for t in list(d.tables.values()):
            while t.in_hand and t.number in d.tables:
                cmd = random_command(t.hand, rng)  # type: ignore[arg-type]
                out += d.act(t.seats[cmd.seat].player, cmd, now)
    return out


def test_an_interrupted_tournament_pays_out_its_pool_by_chips_above_the_prize_everyone_was_sure_of() -> None:
    """docs/decisions.md (RULES.md §9 is silent on interruptions): the lowest prize still to be won for
    everybody, the rest by chips, the odd units to the biggest stacks; exactly the pool; players without
    chips get nothing."""
    # Not in the money (3 with chips, 2 places paid): by chips only; the odd unit to "b".
    shares = interrupted_shares(1000, {"a": 1000, "b": 1500, "c": 500, "d": 0}, [600, 400])
    assert shares == {"a": 333, "b": 501, "c": 166} and sum(shares.values()) == 1000
    # In the money (3 left of 3 places): each is sure of 200; the other 400 by chips.
    shares = interrupted_shares(1000, {"a": 100, "b": 2000, "c": 6900}, [500, 300, 200])
    assert shares == {"a": 204, "b": 289, "c": 507} and sum(shares.values()) == 1000
    # A pool smaller than the floors (a payout table not updated yet) is shared out all the same.
    assert interrupted_shares(100, {"a": 1, "b": 1}, [500, 300]) == {"a": 50, "b": 50}
    assert interrupted_shares(0, {"a": 10}, [10]) == {} and interrupted_shares(10, {"a": 0}, [10]) == {}

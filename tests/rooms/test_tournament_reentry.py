"""Re-entry (issue 35; RULES.md §11.3, R261): a busted player registers again during late registration as
a new entry: numbered, a full starting stack at a seat drawn at random among the empty seats of the
shortest tables, a new buy-in; up to ``max_entries`` per player; each entry finishes in its own place and
his prize is the sum of his entries' prizes. Distinct from rebuys (which keep the seat)."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from pokerroom.engine import ConfigError
from pokerroom.rooms import TableError
from pokerroom.rooms.tournament import (
    PlayerMoved,
    RushTournamentDirector,
    TournamentBuyIn,
    TournamentConfig,
    TournamentDirector,
    TournamentPrize,
)
from pokerroom.rooms.tournament.director import entry_key

from .tourney_driver import Field, Run, act_all, check_end, check_step, play

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def mtt(players: int = 6, seed: int = 1, **kw: object) -> TournamentDirector:
    kw = {"late_registration_levels": 3, "max_entries": 2, "table_size": 2, **kw}
    cfg = TournamentConfig("r", "Re-entry", buy_in=1000, fee=100, start_time=T0, level_minutes=10, **kw)  # type: ignore[arg-type]
    d = TournamentDirector(cfg, random.Random(seed))
    for i in range(players):
        d.register(f"p{i}", f"p{i}", T0 - timedelta(minutes=1))
    d.tick(T0)
    assert d.status == "running"
    return d


def bust_someone(d: TournamentDirector, run: Run, now: datetime) -> tuple[str, datetime]:
    """Everybody shoves until a player is out (late registration still open)."""
    rng = random.Random(7)
    for _ in range(500):
        out = [e.player for k, e in d.entrants.items() if k == e.player and e.out]
        if out:
            return out[0], now
        now += timedelta(seconds=3)
        run.out += d.tick(now)
        act_all(run, now, rng, Field(shove=1.0))
        check_step(run, now)
    raise AssertionError("nobody went out")


def test_a_busted_player_re_enters_as_a_new_entry_with_a_full_stack_r261() -> None:
    d = mtt()
    run = Run(d)
    player, now = bust_someone(d, run, T0)
    assert d.registration_open(now) and d.can_reenter(player, now)
    contributions = d.contributions
    out = d.register(player, player, now)
    buy_in = [x for x in out if isinstance(x, TournamentBuyIn)]
    assert [(b.player, b.kind, b.prize, b.fee) for b in buy_in] == [(player, "re_entry", 1000, 100)]
    assert d.contributions == contributions + 1000, "a new buy-in into the pool"
    new, old = d.entrants[player], d.entrants[entry_key(player, 1)]
    assert (new.entry, new.stack, new.out) == (2, 1500, False), "a new entry with a full starting stack"
    assert (old.entry, old.stack, old.out, old.player) == (1, 0, True, player), "the busted entry stays"
    moved = [x for x in out if isinstance(x, PlayerMoved)]
    assert len(moved) == 1 and moved[0].player == player
    table = d.tables[moved[0].table_no]
    assert table.seats[moved[0].seat].player == player and table.seats[moved[0].seat].stack == 1500
    assert len(d.entrants) == 7, "the field counts entries: places are counted over them"
    rows = {(r["player"], r["entry"]) for r in d.standings()}
    assert {(player, 1), (player, 2)} <= rows, "standings number the entries"
    check_step(run, now)


def test_re_entries_stop_at_max_entries_and_with_late_registration() -> None:
    d = mtt(max_entries=2)
    run = Run(d)
    player, now = bust_someone(d, run, T0)
    with pytest.raises(TableError, match="registered already"):
        d.register("p1" if player != "p1" else "p2", "x", now)  # still playing: no second entry
    d.register(player, player, now)
    assert d.next_entry(player) == 0  # his entry 2 plays: no re-entry now
    # bust again (play on until entry 2 is out or late registration closes)
    rng = random.Random(3)
    while not d.entrants[player].out and d.status == "running" and d.registration_open(now):
        now += timedelta(seconds=3)
        run.out += d.tick(now)
        act_all(run, now, rng, Field(shove=1.0))
    if d.entrants[player].out and d.registration_open(now):
        with pytest.raises(TableError, match="no more entries"):
            d.register(player, player, now)
    # after late registration: refused, whatever max_entries
    d2 = mtt(max_entries=5, late_registration_minutes=5, late_registration_levels=0)
    run2 = Run(d2)
    p2, _ = bust_someone(d2, run2, T0)
    late = T0 + timedelta(minutes=5)
    d2.tick(late)
    if d2.status == "running":
        assert not d2.can_reenter(p2, late)
        with pytest.raises(TableError, match="registration is not open"):
            d2.register(p2, p2, late)


def test_without_re_entry_a_busted_player_cannot_register_again() -> None:
    d = mtt(max_entries=1)
    run = Run(d)
    player, now = bust_someone(d, run, T0)
    assert d.registration_open(now) and not d.can_reenter(player, now)
    with pytest.raises(TableError):
        d.register(player, player, now)
    assert entry_key(player, 1) not in d.entrants


def test_the_re_entry_is_seated_at_random_among_the_shortest_tables() -> None:
    seats: Counter[tuple[int, int]] = Counter()
    for seed in range(40):
        d = mtt(players=13, seed=seed, table_size=9)
        run = Run(d)
        player, now = bust_someone(d, run, T0)
        if d.status != "running" or not d.registration_open(now):
            continue
        shortest = min(len(t.seats) for t in d.tables.values())
        out = d.register(player, player, now)
        moved = next(x for x in out if isinstance(x, PlayerMoved))
        assert len(d.tables[moved.table_no].seats) - 1 == shortest, "a seat at one of the shortest tables"
        seats[(moved.table_no, moved.seat)] += 1
    assert len(seats) > 3, f"the seat is drawn: {seats}"


def test_each_entry_finishes_in_its_own_place_and_the_prizes_add_up_r261() -> None:
    seen = 0
    for seed in range(12):
        cfg = TournamentConfig(
            "r",
            "Re-entry",
            buy_in=1000,
            start_time=T0,
            level_minutes=3,
            late_registration_levels=2,
            max_entries=3,
            table_size=6,
        )
        d = TournamentDirector(cfg, random.Random(seed))
        for i in range(9):
            d.register(f"p{i}", f"p{i}", T0 - timedelta(minutes=1))
        run = play(d, T0, random.Random(seed + 1), Field(shove=0.9, reenter=1.0))
        check_end(run)
        entries = Counter(e.player for e in d.entrants.values())
        for player, n in entries.items():
            if n < 2:
                continue
            seen += 1
            places = sorted(e.place or 0 for e in d.entrants.values() if e.player == player)
            assert len(set(places)) == n, f"{player}'s entries share no place: {places}"
            prizes = [x for x in run.out if isinstance(x, TournamentPrize) and x.player == player]
            assert {x.entry for x in prizes} <= set(range(1, n + 1))
            by_entry = {e.entry: e.place for e in d.entrants.values() if e.player == player}
            for x in prizes:
                assert by_entry[x.entry] == x.place
                assert 0 < x.amount <= d.prizes[x.place - 1]  # (a tie splits the places it occupies)
    assert seen, "some players re-entered"


def test_re_entry_is_configured_with_late_registration_and_without_rebuys_satellites_or_rush() -> None:
    ok = TournamentConfig("r", "R", start_time=T0, late_registration_minutes=30, max_entries=3)
    assert ok.max_entries == 3
    bads: list[dict[str, Any]] = [
        {"max_entries": 0},
        {"max_entries": 2},  # no late registration
        {"max_entries": 2, "late_registration_levels": 2, "rebuy_levels": 2},
        {"max_entries": 2, "late_registration_levels": 2, "seat_value": 1100, "target": "main"},
    ]
    for bad in bads:
        with pytest.raises(ConfigError):
            TournamentConfig("r", "R", start_time=T0, **bad)
    with pytest.raises(ConfigError):
        TournamentConfig("r", "R", kind="sng", max_players=6, late_registration_levels=2, max_entries=2)
    rush = TournamentConfig("r", "R", start_time=T0, late_registration_levels=2, max_entries=2)
    with pytest.raises(ConfigError):
        RushTournamentDirector(rush, random.Random(1))

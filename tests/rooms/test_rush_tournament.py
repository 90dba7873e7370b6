"""Rush tournaments (RULES.md §8.9, R214, R215)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from pokerroom.engine import BetDecision, Betting, Call, Check, Fold, QuickFoldRefused, RaiseTo
from pokerroom.rooms.tournament import (
    Finished,
    RushTournamentDirector,
    TournamentConfig,
    TournamentPrize,
    rush_table_size,
)

T0 = datetime(2026, 12, 6, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("remaining", "seats"),
    [
        (29, 9),
        (28, 8),
        (22, 8),
        (21, 7),
        (19, 7),
        (18, 6),
        (16, 6),
        (15, 5),
        (13, 5),
        (12, 4),
        (10, 4),
        (9, None),
        (2, None),
        (500, 9),
    ],
)
def test_r214_table_sizes_by_players_remaining(remaining: int, seats: int | None) -> None:
    assert rush_table_size(remaining) == seats


def play(players: int, seed: int = 1) -> tuple[RushTournamentDirector, list[object], set[int]]:
    cfg = TournamentConfig(
        "r",
        "Rush MTT",
        kind="mtt",
        variant="holdem",
        betting=Betting.NO_LIMIT,
        buy_in=1000,
        fee=100,
        start_time=T0,
        level_minutes=3,
    )
    d = RushTournamentDirector(cfg, random.Random(seed))
    for i in range(players):
        d.register(f"p{i}", f"p{i}", T0)
    rng = random.Random(seed + 1)
    now = T0
    out: list[object] = list(d.tick(now))
    sizes: set[int] = set()
    total = cfg.starting_stack * players
    while d.status == "running":
        now += timedelta(seconds=1)
        out += d.tick(now)
        if d.rush is not None:
            sizes.update(len(t.entries) for t in d.rush.tables.values())
            for t in list(d.rush.tables.values()):
                for eid in list(t.entries.values()):
                    live = d.rush is not None and t.table_id in d.rush.tables
                    if live and d.rush.can_quick_fold(eid) and rng.random() < 0.3:
                        out += d.quick_fold(eid.split("#")[0], now)
            if d.rush is None:
                continue
            for t in list(d.rush.tables.values()):
                if t.table_id in d.rush.tables and isinstance(t.hand.pending, BetDecision):
                    p = t.hand.pending
                    cmd = (
                        RaiseTo(p.seat, p.max_to)
                        if p.raise_kind and rng.random() < 0.3
                        else Check(p.seat)
                        if p.check
                        else Call(p.seat)
                        if rng.random() < 0.6
                        else Fold(p.seat)
                    )
                    out += d.act(t.names[p.seat][0], cmd, now)
        else:
            for table in list(d.tables.values()):
                while table.in_hand:
                    pending = table.hand.pending  # type: ignore[union-attr]
                    assert isinstance(pending, BetDecision)
                    cmd = (
                        RaiseTo(pending.seat, pending.max_to)
                        if pending.raise_kind and rng.random() < 0.3
                        else Check(pending.seat)
                        if pending.check
                        else Call(pending.seat)
                    )
                    out += d.act(table.seats[pending.seat].player, cmd, now)
        if d.status == "running" and d.rush is not None and not d.rush.tables:
            assert sum(e.stack for e in d.remaining) == total
    return d, out, sizes


def test_r214_r215_a_rush_tournament_shrinks_its_tables_then_plays_a_final_table() -> None:
    d, out, sizes = play(40)
    assert d.status == "finished" and any(isinstance(x, Finished) for x in out)
    assert 9 in sizes and sizes & {4, 5, 6, 7, 8}  # the schedule was used on the way down
    assert sum(x.amount for x in out if isinstance(x, TournamentPrize)) == d.pool
    places = sorted(e.place for e in d.entrants.values())  # type: ignore[type-var]
    assert places[0] == 1 and len(places) == 40


def test_r215_no_quick_fold_at_the_final_table() -> None:
    cfg = TournamentConfig("r", "Rush MTT", kind="mtt", buy_in=1000, start_time=T0)
    d = RushTournamentDirector(cfg, random.Random(1))
    for i in range(6):
        d.register(f"p{i}", f"p{i}", T0)
    d.tick(T0)
    assert d.rush is None and len(d.tables) == 1  # nine or fewer from the start: standard mode
    with pytest.raises(QuickFoldRefused) as refused:
        d.quick_fold("p0", T0)
    assert refused.value.code == "quick_fold_refused"

"""Tournaments played to the end by bots at full speed (no think time), with the director's invariants
checked after every step: chips in play constant, every player ranked, prizes equal to the pool, tables
balanced within one player after each hand (RULES.md §9.5-§9.8)."""

from __future__ import annotations

import os
import random
from datetime import UTC, datetime, timedelta

import pytest

from pokerroom.engine import Betting
from pokerroom.rooms.tournament import (
    Finished,
    TableHandEnded,
    TournamentConfig,
    TournamentDirector,
    TournamentPrize,
)

from ..engine.helpers import random_command

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
SOAK = bool(os.environ.get("POKERROOM_SOAK"))


def play(cfg: TournamentConfig, players: int, seed: int) -> tuple[TournamentDirector, list[object]]:
    d = TournamentDirector(cfg, random.Random(seed))
    for p in range(players):
        d.register(f"p{p}", f"p{p}", T0)
    now = cfg.start_time or T0
    rng = random.Random(seed + 1)
    total = cfg.starting_stack * players
    out: list[object] = list(d.tick(now))

    def check(step: list[object]) -> None:
        """Right after a hand ends, its table is never two or more players above the smallest one."""
        if d.status != "running":
            return
        assert sum(e.stack for e in d.remaining) == total  # chips in play are constant
        for x in step:
            if isinstance(x, TableHandEnded) and x.number in d.tables:
                sizes = [len(t.seats) for t in d.tables.values()]
                assert len(d.tables[x.number].seats) - min(sizes) <= 1

    while d.status == "running":
        now += timedelta(seconds=2)
        step = d.tick(now)
        deadline = d.next_deadline(now)  # nothing overdue right after a tick: the server sleeps until it
        assert deadline is None or deadline > now
        check(step)
        out += step
        for t in list(d.tables.values()):
            while t.in_hand and t.number in d.tables:
                cmd = random_command(t.hand, rng)  # type: ignore[arg-type]
                step = d.act(t.seats[cmd.seat].player, cmd, now)
                check(step)
                out += step
    return d, out


@pytest.mark.slow
@pytest.mark.parametrize("game", ["holdem", "stud"])
def test_a_big_tournament_to_the_end(game: str) -> None:
    players = 1000 if SOAK else (300 if game == "holdem" else 60)
    betting = Betting.NO_LIMIT if game == "holdem" else Betting.FIXED_LIMIT
    size = 9 if game == "holdem" else 8
    cfg = TournamentConfig(
        "big",
        "Big",
        kind="mtt",
        variant=game,
        betting=betting,
        buy_in=1000,
        fee=100,
        start_time=T0,
        table_size=size,
        level_minutes=2,
        break_minutes=1,
    )
    d, out = play(cfg, players, 5)
    assert d.status == "finished"
    found = [e.place for e in d.entrants.values()]
    places = sorted(p for p in found if p is not None)
    assert places[0] == 1 and len(places) == len(found) == players  # every entrant has a place
    # places run 1..N (tied players share the best place of their group)
    assert max(places) <= players
    paid = sum(x.amount for x in out if isinstance(x, TournamentPrize))
    assert paid == d.pool == cfg.buy_in * players
    assert any(isinstance(x, Finished) for x in out)
    winner = next(e for e in d.entrants.values() if e.place == 1)
    assert winner.stack == cfg.starting_stack * players

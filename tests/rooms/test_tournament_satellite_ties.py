"""Issue 35, defect 1: satellite ties (RULES.md §9.7, §9.9, R228, R233, R234). Only a tie that straddles the
last seat is drawn, and then every player of it takes his drawn place (seat, cash or nothing); a tie
inside the seats keeps the place it was shown with; a tie over the cash place shares the cash."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from pokerroom.rooms.tournament import (
    TournamentConfig,
    TournamentDirector,
    TournamentPrize,
    TournamentTicket,
)

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def satellite(players: int, buy_in: int, seat_value: int, seed: int, **kw: object) -> TournamentDirector:
    cfg = TournamentConfig(
        "sat", "Sat", kind="sng", max_players=players, buy_in=buy_in, fee=0, seat_value=seat_value,
        target="main", **kw,  # type: ignore[arg-type]
    )  # fmt: skip
    d = TournamentDirector(cfg, random.Random(seed))
    for i in range(players):
        d.register(f"p{i}", f"p{i}", T0)
    assert d.status == "running"
    return d


def places(d: TournamentDirector) -> dict[str, int | None]:
    return {p: e.place for p, e in d.entrants.items()}


def is_ranking(values: list[int]) -> bool:
    """Places as a ranking gives them: k players tied at place p, the next place is p + k."""
    counts = sorted(Counter(values).items())
    expect = 1
    for place, n in counts:
        if place != expect:
            return False
        expect = place + n
    return expect == len(values) + 1


@pytest.mark.parametrize("seed", range(8))
def test_a_tie_straddling_the_last_seat_gives_every_player_his_drawn_place(seed: int) -> None:
    """The issue's satellite: 4 players, 2 seats, 1,000 cash to 3rd; three out in one hand with equal
    stacks. Before the fix the one who won nothing kept the group's "2nd" and nobody was 4th."""
    d = satellite(4, 3_000, 5_500, seed)  # pool 12,000: 2 seats of 5,500 and 1,000 cash
    out = d._eliminate([("p1", 500), ("p2", 500), ("p3", 500)], T0 + timedelta(seconds=1))
    assert d.status == "finished"
    got = places(d)
    assert got["p0"] == 1 and sorted(got[p] for p in ("p1", "p2", "p3")) == [2, 3, 4]  # type: ignore[type-var]
    tickets = {x.player: x.place for x in out if isinstance(x, TournamentTicket)}
    cash = {x.player: (x.place, x.amount) for x in out if isinstance(x, TournamentPrize)}
    third = next(p for p, at in got.items() if at == 3)
    assert {p: got[p] for p in tickets} == tickets and sorted(tickets.values()) == [1, 2]
    assert cash == {third: (3, 1_000)}
    assert is_ranking([at for at in got.values() if at is not None])


@pytest.mark.parametrize("seed", range(4))
def test_a_tie_inside_the_seats_keeps_the_place_it_was_shown_with(seed: int) -> None:
    """A rebuy satellite: places are shown before the pool (so the seats) is final; when the seats turn
    out to cover the whole tie, nothing is drawn and the shown places stand."""
    cfg = TournamentConfig(
        "sat", "Sat", kind="mtt", buy_in=2_000, fee=0, seat_value=2_000, target="main", start_time=T0,
        rebuy_levels=1, level_minutes=10,
    )  # fmt: skip
    d = TournamentDirector(cfg, random.Random(seed))
    for i in range(6):
        d.register(f"p{i}", f"p{i}", T0 - timedelta(minutes=1))
    d.tick(T0)
    assert d.status == "running" and not d.pool_final
    d._eliminate([("p4", 1_500), ("p5", 1_500)], T0 + timedelta(minutes=1))
    shown = (d.entrants["p4"].place, d.entrants["p5"].place)
    assert shown == (5, 5)
    out = d.tick(T0 + timedelta(minutes=11))  # level 2: no more rebuys, the pool is final: 6 seats
    assert d.pool_final and d.seats_won == 6
    assert (d.entrants["p4"].place, d.entrants["p5"].place) == shown
    assert {
        x.player: x.place for x in out if isinstance(x, TournamentTicket) and x.player in ("p4", "p5")
    } == {
        "p4": 5,
        "p5": 5,
    }


@pytest.mark.parametrize("seed", range(4))
def test_a_tie_over_the_cash_place_shares_the_cash(seed: int) -> None:
    """Two players out together for 3rd and 4th, the cash paying only 3rd: they tie for 3rd and share it
    (R233); the tie does not touch the seats, so nothing is drawn."""
    d = satellite(4, 3_000, 5_500, seed)
    out = d._eliminate([("p2", 500), ("p3", 500)], T0 + timedelta(seconds=1))
    assert d.status == "finished"
    assert (d.entrants["p2"].place, d.entrants["p3"].place) == (3, 3)
    cash = sorted((x.player, x.place, x.amount) for x in out if isinstance(x, TournamentPrize))
    assert cash == [("p2", 3, 500), ("p3", 3, 500)]
    tickets = sum(x.value for x in out if isinstance(x, TournamentTicket))
    assert tickets + 1_000 == d.pool == 12_000

"""Issue 18, property-based: random tournament configurations (2-300 players, every speed, rebuys,
add-ons, late registration, guarantees, freerolls, satellites, Rush) played to the end by random bot
fields on a fake clock. After every step: chips conserved, every table dealing or waiting for a stated
reason, places unique and final; at the end prizes + tickets = the pool exactly and the overlay booked
once, only when the guarantee exceeds the contributions (RULES.md §9.5-§9.11, §8.9). Issue 35: deals at
the final table proposed and answered at random (accepted, refused, timed out; with part of the pool
kept to play for): the deals' payments count in the pool paid out to the unit; bounties (knockout and
progressive): every bounty paid exactly once, apart from the prize pool. Re-entry (R261): busted players
register again during late registration as new numbered entries, up to ``max_entries``; each entry
finishes in its own place and is paid at most once."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import Betting
from pokerroom.rooms.tournament import RushTournamentDirector, TournamentConfig, TournamentDirector

from .tourney_driver import Field, check_end, play

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
BUY_IN = 1_000


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[TournamentConfig, int, bool, Field]:
    players = draw(st.one_of(st.integers(2, 30), st.integers(31, 300)))
    rush = draw(st.booleans())
    game = "holdem" if rush or players > 40 else draw(st.sampled_from(["holdem", "omaha", "stud"]))
    betting = {"holdem": Betting.NO_LIMIT, "omaha": Betting.POT_LIMIT, "stud": Betting.FIXED_LIMIT}[game]
    sng = not rush and players <= 30 and draw(st.booleans())
    table_size = 9 if rush else draw(st.sampled_from([2, 6, 8] if game == "stud" else [2, 6, 9, 10]))
    kw: dict[str, Any] = {
        "kind": "sng" if sng else "mtt",
        "variant": game,
        "betting": betting,
        "table_size": table_size,
        "level_minutes": draw(st.sampled_from([10.0, 5.0, 3.0, 1.0])),  # normal, turbo, hyper, faster
        "break_minutes": draw(st.sampled_from([0.0, 5.0])),
        "starting_stack": draw(st.sampled_from([500, 1500, 3000])),
    }
    if sng:
        kw["max_players"] = players
    else:
        kw["start_time"] = T0
        if draw(st.booleans()):
            kw["late_registration_levels"] = draw(st.integers(0, 3))
        else:  # issue 35: late registration in minutes
            kw["late_registration_minutes"] = draw(st.sampled_from([0.0, 2.5, 12.0]))
    freeroll = draw(st.integers(0, 9)) == 0
    if freeroll:
        kw["freeroll_pool"] = draw(st.integers(1, 100_000))
    else:
        kw["buy_in"], kw["fee"] = BUY_IN, draw(st.sampled_from([0, 100]))
        kw["guarantee"] = draw(st.sampled_from([0, 0, BUY_IN * players // 2, BUY_IN * players * 2 + 7]))
        if draw(st.integers(0, 3)) == 0:
            kw["seat_value"] = BUY_IN * draw(st.integers(2, 20)) + 90
            kw["target"] = "main"
            kw["guaranteed_seats"] = draw(st.integers(0, 2))
    if not rush and players <= 100 and draw(st.booleans()):  # (bigger rebuy fields: the simulation test)
        kw["rebuy_levels"] = draw(st.integers(1, 2))
        kw["add_on"] = draw(st.booleans())
    if not (rush or freeroll or kw.get("seat_value") or kw.get("rebuy_levels")) and draw(st.booleans()):
        kw["bounty"] = draw(st.sampled_from([25, 50, 33]))  # issue 35: knockouts, progressive or not
        kw["progressive"] = draw(st.booleans())
    kw["deal_keep"] = draw(st.sampled_from([0, 0, BUY_IN // 2]))  # issue 35: deals at the final table
    kw["deal_seconds"] = draw(st.sampled_from([5.0, 60.0]))
    late_open = kw.get("late_registration_levels") or kw.get("late_registration_minutes")
    if late_open and not (rush or sng or kw.get("seat_value") or kw.get("rebuy_levels")):
        kw["max_entries"] = draw(st.sampled_from([1, 2, 3]))  # issue 35: re-entry (R261)
    cfg = TournamentConfig("prop", "Property", **kw)
    late = draw(st.integers(0, 20)) if late_open else 0
    bots = Field(
        shove=draw(st.sampled_from([0.3, 0.7, 0.95])),
        rebuy=draw(st.sampled_from([0.0, 0.3, 0.8])),
        add_on=draw(st.sampled_from([0.0, 0.7])),
        late=late,
        step=draw(st.sampled_from([2.0, 5.0])),
        deal=draw(st.sampled_from([0.0, 0.05, 0.3])),
        deal_yes=draw(st.sampled_from([0.6, 0.95])),
        reenter=draw(st.sampled_from([0.0, 0.5, 1.0])) if kw.get("max_entries", 1) > 1 else 0.0,
    )
    return cfg, players, rush, bots


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(tournaments(), st.integers(0, 2**32 - 1))
def test_every_tournament_finishes_and_pays_exactly_its_pool(
    case: tuple[TournamentConfig, int, bool, Field], seed: int
) -> None:
    cfg, players, rush, bots = case
    cls = RushTournamentDirector if rush else TournamentDirector
    d = cls(cfg, random.Random(seed))
    before = T0 - timedelta(minutes=1)
    registered: list[object] = []
    for i in range(players):
        registered += d.register(f"p{i}", f"p{i}", before)
    run = play(d, cfg.start_time or before, random.Random(seed + 1), bots, registered)
    check_end(run)

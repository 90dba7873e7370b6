"""Issue 18, property-based: random tournament configurations (2-300 players, every speed, rebuys,
add-ons, late registration, guarantees, freerolls, satellites, Rush) played to the end by random bot
fields on a fake clock. After every step: chips conserved, every table dealing or waiting for a stated
reason, places unique and final; at the end prizes + tickets = the pool exactly and the overlay booked
once, only when the guarantee exceeds the contributions (RULES.md §9.5-§9.11, §8.9). Issue 35: deals at
the final table proposed and answered at random (accepted, refused, timed out; with part of the pool
kept to play for): the deals' payments count in the pool paid out to the unit; bounties (knockout and
progressive): every bounty paid exactly once, apart from the prize pool. Re-entry (R261): busted players
register again during late registration as new numbered entries, up to ``max_entries``; each entry
finishes in its own place and is paid at most once. Recurring series (issue 35): occurrences generated
over a random span of days across a daylight-saving change of a random zone keep stable, unique ids and
start at the right local time in the operator's zone; each is a tournament played to the end with the
same invariants."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.engine import Betting
from pokerroom.rooms.tournament import RushTournamentDirector, TournamentConfig, TournamentDirector
from pokerroom.rooms.tournament.recurring import REPEATS, Recurrence, occurrence, occurrence_day, occurrences
from pokerroom.server.tournament.recurring import past_occurrence

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


# Issue 35: recurring series. Zones that change their clocks (north and south, 30-minute DST in
# Lord Howe, a change at midnight in Santiago and Havana); each example's span of days holds one change.
ZONES = (
    "Europe/Sofia",
    "Europe/London",
    "America/New_York",
    "America/Santiago",
    "America/Havana",
    "Australia/Sydney",
    "Australia/Lord_Howe",
    "Pacific/Auckland",
)


def clock_changes(zone: str, year: int) -> list[date]:
    """The local dates in ``year`` whose UTC offset at their end differs from their start's."""
    tz = ZoneInfo(zone)
    out = []
    day = date(year, 1, 1)
    while day.year == year:
        begin = datetime.combine(day, time(0), tzinfo=tz).utcoffset()
        end = datetime.combine(day, time(23, 59), tzinfo=tz).utcoffset()
        if begin != end:
            out.append(day)
        day += timedelta(days=1)
    return out


def changed_at(zone: str, day: date) -> datetime:
    """The local wall time (naive, on the clock before it changed) at which the zone's clocks change on
    ``day``."""
    tz = ZoneInfo(zone)
    moment = datetime.combine(day, time(0), tzinfo=tz).astimezone(UTC)
    before = moment.astimezone(tz).utcoffset()
    assert before is not None
    while moment.astimezone(tz).utcoffset() == before:
        moment += timedelta(minutes=15)
    return (moment + before).replace(tzinfo=None)


@st.composite
def series(draw: st.DrawFn) -> tuple[Recurrence, date, int, date, list[datetime], Field, int]:
    zone = draw(st.sampled_from(ZONES))
    change = draw(st.sampled_from(clock_changes(zone, draw(st.integers(2026, 2030)))))
    span = draw(st.integers(3, 16))
    first = change - timedelta(days=draw(st.integers(0, span - 1)))  # the change inside the span
    repeat = draw(st.sampled_from(REPEATS))
    days = tuple(sorted(draw(st.sets(st.integers(0, 6), min_size=1)))) if repeat == "weekly" else ()
    if draw(st.booleans()):  # any time of day
        at = time(draw(st.integers(0, 23)), draw(st.sampled_from([0, 15, 30, 45])))
    else:  # around the change: in the spring gap, or the hour repeated in the fall, or just by it
        wall = changed_at(zone, change) + timedelta(minutes=draw(st.integers(-4, 4)) * 15)
        at = wall.time()
    late = draw(st.sampled_from([0.0, 2.5]))
    template = TournamentConfig(
        "nightly",
        "Nightly",
        buy_in=BUY_IN,
        fee=draw(st.sampled_from([0, 100])),
        start_time=T0,
        level_minutes=1.0,
        starting_stack=500,
        table_size=draw(st.sampled_from([2, 6, 9])),
        late_registration_minutes=late,
        max_entries=draw(st.sampled_from([1, 2])) if late else 1,
        guarantee=draw(st.sampled_from([0, BUY_IN * 5])),
        bounty=draw(st.sampled_from([0, 50])),
    )
    rec = Recurrence(
        template,
        repeat,
        at,
        zone,
        days,
        ahead_hours=draw(st.sampled_from([1.0, 30.0, 200.0])),
        registration_hours=draw(st.sampled_from([0.0, 2.0])),
    )
    start = datetime.combine(first, time(0), tzinfo=ZoneInfo(zone)).astimezone(UTC)
    # when the room asks what is due: at its start, then at random moments across the span
    asks = sorted(
        start + timedelta(minutes=m) for m in draw(st.lists(st.integers(0, span * 1440), max_size=12))
    )
    bots = Field(
        shove=0.95, rebuy=0.0, add_on=0.0, reenter=0.5 if template.max_entries > 1 else 0.0, step=5.0
    )
    return rec, first, span, change, [start, *asks], bots, draw(st.integers(2, 9))


def wall_time_right(rec: Recurrence, day: date, start: datetime) -> None:
    """The start is ``rec.at`` on ``day`` in the operator's zone; on a fall-back day the first of the two
    such moments; on a spring-forward day, when ``at`` does not exist, as much after it as the gap."""
    tz = ZoneInfo(rec.timezone)
    assert start.tzinfo is not None and start.utcoffset() == timedelta(0), "starts are kept in UTC"
    local = start.astimezone(tz)
    assert local.date() == day, f"{start} is not on {day} in {rec.timezone}"
    wall = datetime.combine(day, rec.at)
    earlier = wall.replace(tzinfo=tz, fold=0).astimezone(UTC)
    later = wall.replace(tzinfo=tz, fold=1).astimezone(UTC)
    exists = earlier.astimezone(tz).replace(tzinfo=None) == wall
    if exists:
        assert local.replace(tzinfo=None) == wall, f"{local} is not {rec.at} local"
        assert start == min(earlier, later), "a repeated local time starts at its first occurrence"
    else:  # a gap: as much later as the gap is long
        gap = (wall + timedelta(hours=1)).replace(tzinfo=tz).utcoffset() - (  # type: ignore[operator]
            wall - timedelta(hours=1)
        ).replace(tzinfo=tz).utcoffset()
        assert local.replace(tzinfo=None) - wall == gap, f"{local}: {rec.at} skipped by {gap}"


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(series(), st.integers(0, 2**32 - 1))
def test_recurring_occurrences_are_stable_and_right_across_a_clock_change(
    case: tuple[Recurrence, date, int, date, list[datetime], Field, int], seed: int
) -> None:
    rec, first, span, change, asks, bots, players = case
    seen: dict[str, TournamentConfig] = {}
    for now in asks:
        due = occurrences(rec, now)
        assert due, "the series never stops: the next occurrence is always there"
        starts = [c.start_time for c in due if c.start_time is not None]
        assert len(starts) == len(due) and all(s > now for s in starts)
        assert starts == sorted(starts) and len(set(starts)) == len(starts)
        horizon = now + timedelta(hours=rec.ahead_hours)
        assert len(due) == 1 or all(s <= horizon for s in starts), "within the horizon, or the next"
        for c in due:
            kept = seen.setdefault(c.tournament_id, c)
            assert kept == c, f"occurrence {c.tournament_id} changed between two asks"
    days = [first + timedelta(days=i) for i in range(span)]

    def runs_on(day: date) -> bool:  # (the rule, stated again: daily, Monday to Friday, the days named)
        return {"daily": True, "weekdays": day.weekday() < 5, "weekly": day.weekday() in rec.days}[rec.repeat]

    for cfg in seen.values():
        day = occurrence_day(rec.series, cfg.tournament_id)
        assert day is not None and cfg.tournament_id == f"{rec.series}-{day.isoformat()}"
        assert runs_on(day), f"{cfg.tournament_id}: the series does not run on a {day:%A}"
        assert cfg.start_time is not None
        wall_time_right(rec, day, cfg.start_time)
        if rec.registration_hours:
            assert cfg.registration_opens == cfg.start_time - timedelta(hours=rec.registration_hours)
        assert past_occurrence([(rec, False)], cfg.tournament_id) == (cfg, False), "the archive's, the same"
    covered = {occurrence_day(rec.series, t) for t in seen}
    for day in days:  # every day the series runs, once asked about before its start, has its occurrence
        start = occurrence(rec, day).start_time
        assert start is not None
        if runs_on(day) and any(now < start <= now + timedelta(hours=rec.ahead_hours) for now in asks):
            assert day in covered, f"no occurrence on {day}"
    # each occurrence is a tournament of its own under its id: play up to three, the nearest the change
    rng = random.Random(seed)

    def off_change(c: TournamentConfig) -> tuple[timedelta, str]:
        day = occurrence_day(rec.series, c.tournament_id)
        assert day is not None
        return abs(day - change), c.tournament_id

    order = sorted(seen.values(), key=off_change)
    for cfg in order[:3]:
        assert cfg.start_time is not None
        d = TournamentDirector(cfg, random.Random(rng.getrandbits(32)))
        assert d.tid == cfg.tournament_id
        registered: list[object] = []
        for i in range(players):
            registered += d.register(f"p{i}", f"p{i}", cfg.start_time - timedelta(minutes=1))
        run = play(d, cfg.start_time, random.Random(rng.getrandbits(32)), bots, registered)
        check_end(run)

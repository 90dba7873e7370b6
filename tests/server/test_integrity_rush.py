"""Issue 30, item 2: Rush, a pair dealt in together more often than chance. Unit tests of the score on
hand-made pools (seeded random seating, as a pool that mixes its players honestly; a planted pair seated
together far above it; players present at different hours), then the score through the store
(``store.hand_times.pool_hands``, SQLite and PostgreSQL) and ``pokerroom integrity report``."""

from __future__ import annotations

import asyncio
import json
import math
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from typer.testing import CliRunner

from pokerroom.bots.planted import rush_rounds
from pokerroom.cli import app
from pokerroom.server.integrity.rush import (
    ALPHA,
    MIN_TOGETHER,
    PoolHand,
    RushPairFinding,
    poisson_tail,
    rush_findings,
)
from pokerroom.store import SeatRecord, deck_commitment
from tests.store.conftest import Room, clock, db_target, pg_schema, room, sqlite_template, store
from tests.store.storehelpers import PASSWORD, FakeClock
from tests.store.test_store_journal import DECK, SALT

__all__ = ["clock", "db_target", "pg_schema", "room", "sqlite_template", "store"]  # (the fixtures)

T0 = datetime(2026, 12, 1, 12, tzinfo=UTC)
EVERY = timedelta(seconds=20)  # a Rush round: every present player is dealt a hand


def _pool(
    players: list[int],
    rounds: int,
    rng: random.Random,
    *,
    pair: tuple[int, int] | None = None,
    start: datetime = T0,
    **kw: Any,
) -> list[PoolHand]:
    """The bots package's Rush seating (``rush_rounds``), a round every 20 s from ``start``."""
    pairs = [pair] if pair is not None else []
    return [
        PoolHand(*h) for h in rush_rounds(players, rounds, rng, start=start, every=EVERY, pairs=pairs, **kw)
    ]


def _pair(found: list[RushPairFinding], a: int, b: int) -> RushPairFinding:
    return next(f for f in found if (f.a, f.b) == (min(a, b), max(a, b)))


def test_the_poisson_tail_is_exact() -> None:
    for mean in (0.3, 2.0, 7.5, 40.0):
        for k in (0, 1, 3, 10, 60):
            direct = 1 - sum(math.exp(-mean) * mean**i / math.factorial(i) for i in range(k))
            assert math.isclose(poisson_tail(k, mean), max(0.0, direct), rel_tol=1e-9, abs_tol=1e-12)
    assert 0 < poisson_tail(200, 2.0) < 1e-200  # far out in the tail: no underflow to nonsense
    assert poisson_tail(3, 0.0) == 0.0 and poisson_tail(0, 0.0) == 1.0


def test_a_planted_pair_seated_together_far_above_chance_is_flagged_with_its_evidence() -> None:
    # 30 players, tables of 6, 300 rounds: by chance two meet in about 5/29 of the rounds (52 hands);
    # the pair is put together in 40 % more of them
    rng = random.Random(5)
    hands = _pool(list(range(1, 31)), 300, rng, pair=(7, 19), together=0.4)
    found = rush_findings(hands)
    f = _pair(found, 7, 19)
    assert f.flagged and [(g.a, g.b) for g in found if g.flagged] == [(7, 19)]
    assert f.hands_a == f.hands_b == 300 and f.together > 1.5 * f.expected
    assert 45 < f.expected < 60  # the chance of a table of 6 among 30: 5/29 of 300 rounds
    assert f.z > 5 and f.p * f.pairs <= ALPHA
    together = [h.hand_id for h in hands if 7 in h.players and 19 in h.players]
    assert len(together) == f.together and f.hands == tuple(together[:20])
    row = f.to_dict()
    assert row["players"] == [7, 19] and row["together"] == f.together and row["flagged"] is True
    assert row["hands"] == list(f.hands) and row["pool"] == "rush"


@pytest.mark.parametrize("seed", range(40))
def test_honest_random_seating_flags_nobody(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(8, 60)
    players = list(range(1, n + 1))
    # each plays a random stretch of the period: the pool's size changes through it
    rounds = rng.randrange(100, 400)
    present = {}
    for p in players:
        a = rng.randrange(rounds)
        present[p] = range(a, min(rounds, a + rng.randrange(20, rounds)))
    hands = _pool(players, rounds, rng, size=rng.choice((6, 9)), present=present)
    found = rush_findings(hands)
    assert found and not any(f.flagged for f in found)


def test_players_alone_in_the_pool_at_night_expect_to_meet() -> None:
    # by day 40 players mix; at night five of them are the whole pool and meet every hand: chance, not a
    # pair (an expectation from the day's pool size would flag all ten pairs)
    rng = random.Random(3)
    day = _pool(list(range(1, 41)), 200, rng)
    night = _pool([1, 2, 3, 4, 5], 200, rng, start=T0 + timedelta(hours=3))
    found = rush_findings(day + night)
    assert not any(f.flagged for f in found)
    f = _pair(found, 1, 2)
    assert f.together >= 200 and f.expected >= 190  # the night's 200 hands are expected
    # one window over the whole period (the pool's size over the day) would flag them
    wide = rush_findings(day + night, window=timedelta(days=1))
    assert {(g.a, g.b) for g in wide if g.flagged} >= {(1, 2), (4, 5)}


def test_a_pool_that_shrinks_within_ten_minutes_flags_nobody() -> None:
    # three evenings' ebbs: 60 players mix for five minutes, then six of them are the whole pool (one
    # table: they meet every hand) for the next five. The expectation is of one-minute slices, where the
    # pool's size is the one the hands were dealt from; a 10-minute window's average pool (33 players)
    # would expect the six to meet a quarter as often as they must, and flag them (the old default).
    rng = random.Random(1)
    hands: list[PoolHand] = []
    for k in range(3):
        start = T0 + k * timedelta(minutes=10)
        hands += _pool(list(range(1, 61)), 15, rng, start=start)
        hands += _pool([1, 2, 3, 4, 5, 6], 15, rng, start=start + 15 * EVERY)
    found = rush_findings(hands)
    assert found and not any(f.flagged for f in found)
    f = _pair(found, 2, 3)
    assert f.together >= 45 and f.expected >= 0.9 * f.together  # the small pool's hands are expected
    ten = rush_findings(hands, window=timedelta(minutes=10))
    assert {(g.a, g.b) for g in ten if g.flagged} >= {(2, 3), (1, 6)}


def test_each_condition_of_the_flag_is_needed() -> None:
    rng = random.Random(9)
    hands = _pool(list(range(1, 31)), 300, rng, pair=(2, 3), together=0.4)
    assert _pair(rush_findings(hands), 2, 3).flagged
    assert not _pair(rush_findings(hands, alpha=1e-300), 2, 3).flagged
    assert not _pair(rush_findings(hands, min_ratio=10.0), 2, 3).flagged
    few = _pool(list(range(1, 7)), 10, rng)  # six players, one table: together every hand, as expected
    assert all(f.together == 10 and not f.flagged for f in rush_findings(few))
    assert MIN_TOGETHER == 5
    lone = [PoolHand("x1", "rush", T0, (1, 2))] * 4  # four hands of two alone: fewer than MIN_TOGETHER
    assert not rush_findings(lone, min_ratio=0.0, alpha=1.0)[0].flagged
    assert rush_findings(lone + lone[:1], min_ratio=0.0, alpha=1.0)[0].flagged  # five: the count is met
    with pytest.raises(ValueError):
        rush_findings(hands, window=timedelta(0))


def test_pools_are_scored_apart() -> None:
    rng = random.Random(4)
    a = _pool(list(range(1, 31)), 300, rng, pair=(1, 2), together=0.4, pool="nl")
    b = _pool(list(range(1, 31)), 300, rng, pool="plo")
    found = rush_findings(a + b)
    assert [(f.pool_id, f.a, f.b) for f in found if f.flagged] == [("nl", 1, 2)]
    assert _pair([f for f in found if f.pool_id == "plo"], 1, 2).hands_a == 300


# --------------------------------------------------------------------------------- through the store


async def _deal(
    room: Room, clock: FakeClock, names: int, rounds: int, pair_together: float
) -> dict[str, int]:
    """``names`` funded players in pool "nl-rush", tables of 4, dealt ``rounds`` rounds (one ended hand
    per table, a Rush hand with its pool), 20 s apart; rp1 and rp2 put together in ``pair_together`` of
    them. Returns the ids by name."""
    s = room.store
    ids: dict[str, int] = {}
    sessions: dict[int, int] = {}
    for i in range(1, names + 1):
        player = await s.accounts.register(f"rp{i}", PASSWORD)
        await s.ledger.deposit(player.id, "USD", 10_000, admin_id=room.admin, idempotency_key=f"d{i}")
        got = await s.ledger.buy_in(player.id, "nl-rush", "USD", 1_000, idempotency_key=f"b{i}")
        ids[f"rp{i}"], sessions[player.id] = player.id, got.session_id
    pair = (ids["rp1"], ids["rp2"])
    dealt = rush_rounds(sorted(ids.values()), rounds, random.Random(2), start=clock(), size=4,
                        pairs=[pair], together=pair_together, pool="nl-rush")  # fmt: skip
    for n, (_, _, at, players) in enumerate(dealt, 1):
        clock.advance(at - clock())  # (the rounds' times: 20 s apart)
        seats = [SeatRecord(k + 1, p, sessions[p], 1_000) for k, p in enumerate(players)]
        await s.journal.start_hand(
            f"r{n}", table_id=f"nl-rush-{n}", game="NT", currency="USD", seats=seats,
            deck_commitment=deck_commitment(DECK, SALT), pool="nl-rush",
        )  # fmt: skip
        await s.journal.end_hand(f"r{n}", deck_text=DECK, salt=SALT, deltas={}, rake=0, points={})
    clock.advance(EVERY)
    return ids


@pytest.mark.asyncio
async def test_the_pool_hands_are_read_from_the_store_and_the_report_flags_the_pair(
    room: Room, clock: FakeClock, db_target: tuple[str, str | None]
) -> None:
    began = clock()
    ids = await _deal(room, clock, 12, 60, 0.7)
    s = room.store
    read = [PoolHand(*row) for row in await s.hand_times.pool_hands(since=began)]
    assert len(read) == 60 * 3 and all(h.pool_id == "nl-rush" and len(h.players) == 4 for h in read)
    assert [h.started_at for h in read] == sorted(h.started_at for h in read)
    assert await s.hand_times.pool_hands(since=clock()) == []
    found = rush_findings(read)
    assert [(f.a, f.b) for f in found if f.flagged] == [tuple(sorted((ids["rp1"], ids["rp2"])))]
    url, schema = db_target
    args = ["integrity", "report", "--url", url, "--since", began.strftime("%Y-%m-%dT%H:%M:%S"),
            "--min-decisions", "100000"]  # fmt: skip
    if schema:
        args += ["--schema", schema]
    out = await asyncio.to_thread(CliRunner().invoke, app, [*args, "--json"])
    assert out.exit_code == 1, out.output
    report = json.loads(out.output)
    rows = report["rush_together"]
    flagged = [r for r in rows if r["flagged"]]
    assert [sorted(r["names"]) for r in flagged] == [["rp1", "rp2"]]
    assert flagged[0]["together"] > 2 * flagged[0]["expected"] and len(flagged[0]["hands"]) == 20
    assert report["rush_hands_read"] == 180 and report["flagged"] >= 1
    # the thresholds are the report's options: a pair must be 100 times as often together as expected
    calm = await asyncio.to_thread(CliRunner().invoke, app, [*args, "--rush-min-ratio", "100", "--json"])
    assert calm.exit_code == 0, calm.output
    calm_report = json.loads(calm.output)
    assert not any(r["flagged"] for r in calm_report["rush_together"])
    assert calm_report["thresholds"]["rush_min_ratio"] == 100 and calm_report["flagged"] == 0
    text = await asyncio.to_thread(CliRunner().invoke, app, args)
    assert text.exit_code == 1
    assert "rush: 180 pool hands read" in text.output and ", 1 flagged" in text.output
    assert f"FLAGGED rp1 + rp2 in nl-rush: {flagged[0]['together']} hands together" in text.output

"""The big-blind ante in tournament structures (issue 21; docs/decisions.md) and R220.

``TournamentConfig(ante="big_blind")``: at every level with an ante, the big blind posts one ante for the
whole table, equal to the big blind, before his blind (a short big blind posts his blind first and the
rest toward the ante, R255); it is dead money of the main pot (the engine's
rule, tests/engine/test_dead_money_pots.py). The default stays the per-player ante of RULES.md §9.4
(R225).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from pokerroom.engine import Betting, Call, Check, ConfigError
from pokerroom.engine.events import Posted
from pokerroom.rooms import HandEvents
from pokerroom.rooms.tournament import (
    BlindLevel,
    Schedule,
    TournamentConfig,
    TournamentDirector,
    level_stakes,
)

T0 = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def _posts_at_level_seven(ante: str, stack: int | None = None) -> list[tuple[int, str, int]]:
    cfg = TournamentConfig("s1", "SNG", kind="sng", max_players=3, level_minutes=1, ante=ante)
    d = TournamentDirector(cfg, random.Random(3))
    for p in ("a", "b", "c"):
        d.register(p, p, T0)
    table = d.tables[1]
    while table.in_hand:  # the first hand, at level 1: check and call it down
        pending = table.hand.pending  # type: ignore[union-attr]
        cmd = Check(pending.seat) if pending.check else Call(pending.seat)  # type: ignore[union-attr]
        d.act(table.seats[pending.seat].player, cmd, T0)  # type: ignore[union-attr]
    if stack is not None:  # every player short for the next hand
        for seat in table.seats.values():
            seat.stack = d.entrants[seat.player].stack = stack
    out = d.tick(T0 + timedelta(minutes=6, seconds=30))  # level 7 (100/200, ante 25) from 12:06
    events = [e for x in out if isinstance(x, HandEvents) for e in x.events]
    assert table.hand is not None and table.hand.structure.stakes.big_blind == 200
    return [(e.seat, e.what, e.amount) for e in events if isinstance(e, Posted)]


def test_big_blind_ante_the_big_blind_posts_one_ante_for_the_table() -> None:
    posts = _posts_at_level_seven("big_blind")
    antes = [p for p in posts if p[1] == "ante"]
    big = next(p for p in posts if p[1] == "big_blind")
    assert antes == [(big[0], "ante", 200)]
    assert posts.index(antes[0]) < posts.index(big)  # the ante before his blind


def test_the_default_is_the_per_player_ante_of_r225() -> None:
    assert TournamentConfig("s1", "SNG", kind="sng", max_players=3).ante == "per_player"
    posts = _posts_at_level_seven("per_player")
    antes = [p for p in posts if p[1] == "ante"]
    assert len(antes) == 3 and {a[2] for a in antes} == {25}  # every player dealt in


def test_level_stakes_of_a_big_blind_ante_structure() -> None:
    nl = level_stakes(BlindLevel.default(7), Betting.NO_LIMIT, False, "big_blind")
    assert (nl.ante, nl.big_blind_ante) == (200, True)
    fl = level_stakes(BlindLevel.default(9), Betting.FIXED_LIMIT, False, "big_blind")
    assert (fl.small_bet, fl.ante, fl.big_blind_ante) == (400, 400, True)
    early = level_stakes(BlindLevel.default(6), Betting.NO_LIMIT, False, "big_blind")
    assert early.ante == 0  # no ante yet: none for the big blind either
    assert not level_stakes(BlindLevel.default(7), Betting.NO_LIMIT, False).big_blind_ante


@pytest.mark.parametrize(("variant", "ante"), [("stud", "big_blind"), ("holdem", "button"), ("holdem", "")])
def test_a_big_blind_ante_needs_a_big_blind(variant: str, ante: str) -> None:
    betting = Betting.FIXED_LIMIT if variant == "stud" else Betting.NO_LIMIT
    with pytest.raises(ConfigError):
        TournamentConfig("s1", "SNG", kind="sng", max_players=3, variant=variant, betting=betting, ante=ante)


def test_r220_mtt_levels_last_ten_minutes_by_default() -> None:
    """R220: a scheduled tournament's default level is 10 minutes (within the usual 5-15)."""
    cfg = TournamentConfig("m1", "MTT", kind="mtt", start_time=T0)
    assert cfg.level_minutes == 10
    clock = Schedule(T0, cfg.level_minutes)
    assert clock.level(T0 + timedelta(minutes=9, seconds=59)) == 1
    assert clock.level(T0 + timedelta(minutes=10)) == 2
    assert clock.next_level_at(T0) == T0 + timedelta(minutes=10)


def test_r255_a_short_big_blind_posts_his_blind_then_the_rest_toward_the_ante() -> None:
    """R255 (RULES.md §11.3): at level 7 (100/200, big-blind ante 200) the big blind has 300: he posts
    the blind 200 first and 100 toward the ante (before, the ante 200 first and a blind of 100)."""
    posts = _posts_at_level_seven("big_blind", stack=300)
    big = next(p for p in posts if p[1] == "big_blind")
    antes = [p for p in posts if p[1] == "ante"]
    assert big[2] == 200 and antes == [(big[0], "ante", 100)]
    assert posts.index(big) < posts.index(antes[0])  # the blind first

"""Rush pool simulations: hundreds of bot entries over thousands of hands with a fake clock (RULES.md §8).

Invariants: chips are conserved; two entries of one player never share a table (R197); no table is formed
against an active anti-collusion block (§8.6); every entry's first hand has it post the big blind (R198);
big blinds are spread evenly (the spread is printed: ``pytest -s``)."""

from __future__ import annotations

import os
import random
import statistics
from datetime import timedelta

import pytest

from pokerroom.engine import Betting, RakeRule, Stakes
from pokerroom.engine.events import Posted
from pokerroom.rooms.effects import BuyIn, CashOut, HandSettlement, TopUp
from pokerroom.rooms.notices import HandEvents
from pokerroom.rooms.rush import EntryMoved, RushPool
from pokerroom.rooms.rush_rules import PoolConfig

from ..engine.helpers import random_command
from .helpers import T0

SOAK = bool(os.environ.get("POKERROOM_SOAK"))


def chips_in_pool(p: RushPool) -> int:
    total = sum(e.stack for e in p.entries.values() if e.state != "playing")
    for t in p.tables.values():
        for seat, hp in t.hand.players.items():
            total += hp.paid + (0 if seat in t.left else hp.stack)
    return total


@pytest.mark.slow
@pytest.mark.parametrize(("table_size", "players", "entries"), [(6, 60, 100), (9, 120, 200)])
def test_pool_simulation(table_size: int, players: int, entries: int) -> None:
    rng = random.Random(table_size)
    cfg = PoolConfig(
        "p", "Rush", "holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), table_size, rake=RakeRule(500, 300)
    )
    p = RushPool(cfg, random.Random(table_size + 1))
    now = T0
    booked = 0
    rake = 0
    bb_count: dict[str, int] = {}
    hands_of: dict[str, int] = {}
    first_hand_seen: set[str] = set()
    owing: set[str] = set()
    target_hands = 20_000 if SOAK else 2_500

    def absorb(out: list[object]) -> None:
        nonlocal booked, rake
        for x in out:
            if isinstance(x, BuyIn | TopUp):
                booked += x.amount
            elif isinstance(x, CashOut):
                booked -= x.amount
            elif isinstance(x, HandSettlement):
                rake += x.rake
            elif isinstance(x, EntryMoved):
                hands_of[x.entry] = hands_of.get(x.entry, 0) + 1
            elif isinstance(x, HandEvents):
                t = p.tables.get(x.table_id)
                for e in x.events:
                    if isinstance(e, Posted) and e.what in ("big_blind", "live") and t is not None:
                        eid = t.entries[e.seat]
                        bb_count[eid] = bb_count.get(eid, 0) + 1

    # Players join with 1-4 entries.
    made = 0
    while made < entries:
        player = f"u{rng.randrange(players)}"
        if len(p.entries_of(player)) < 4:
            absorb(p.join(player, player, rng.choice([4000, 7000, 10_000]), now))
            made += 1
    while p.hands_dealt < target_hands:
        now += timedelta(seconds=0.5)
        blocks_before = list(p.blocks)
        moved_before = set(p.tables)
        absorb(p.deal(now))
        for tid, t in p.tables.items():
            if tid in moved_before:
                continue
            players_here = [t.names[s][0] for s in t.entries]
            assert len(players_here) == len(set(players_here))  # R197
            for b in blocks_before:
                assert not (b.x in players_here and b.y in players_here), "formed across a block"
            for s, eid in t.entries.items():
                if eid not in first_hand_seen:
                    # R198: on its first hand an entry posts a big blind (as the BB or a live post), or,
                    # at a table of new entries where it had to take the small blind, on its next hand.
                    posted = {e.what for e in t.hand.events if isinstance(e, Posted) and e.seat == s}
                    if posted & {"big_blind", "live"}:
                        first_hand_seen.add(eid)
                    else:
                        assert posted == {"small_blind"} and eid not in owing, posted
                        owing.add(eid)
        for t in list(p.tables.values()):
            if t.table_id not in p.tables or t.hand.is_over:
                continue
            r = rng.random()
            if r < 0.15:  # somebody quick-folds out of turn
                cands = [eid for eid in t.entries.values() if p.can_quick_fold(eid)]
                if cands:
                    absorb(p.quick_fold(rng.choice(cands), now))
                    continue
            seat = t.hand.waiting_for()[0]
            cmd = random_command(t.hand, rng)
            absorb(p.act(t.entries[cmd.seat], cmd, now))
            del seat
        for e in list(p.entries.values()):  # busted entries top up, sometimes someone leaves and rejoins
            if e.state == "busted":
                absorb(p.top_up(e.entry_id, 4000, now))
            elif e.state == "waiting" and rng.random() < 0.002:
                absorb(p.leave(e.entry_id, now))
                absorb(p.join(e.player, e.player, 5000, now))
        assert chips_in_pool(p) == booked - rake
    counted = [eid for eid in bb_count if hands_of.get(eid, 0) >= 30]
    rates = [bb_count[eid] / hands_of[eid] for eid in counted]
    spread = (min(rates), statistics.mean(rates), max(rates))
    print(
        f"\n{table_size}-max, {len(p.entries)} entries, {p.hands_dealt} hands: big blinds per hand "
        f"min {spread[0]:.3f} mean {spread[1]:.3f} max {spread[2]:.3f} (ideal {1 / table_size:.3f})"
    )
    assert abs(spread[1] - 1 / table_size) < 0.02
    assert spread[2] - spread[0] < 0.12

"""Rush pools (RULES.md §8, R191, R196-R213)."""

from __future__ import annotations

import random
from datetime import UTC, timedelta

import pytest

from pokerroom.engine import (
    BetDecision,
    Betting,
    Call,
    Check,
    ConfigError,
    Fold,
    QuickFoldRefused,
    RaiseTo,
    RakeRule,
    Stakes,
)
from pokerroom.engine.events import ActionTaken, Posted
from pokerroom.rooms import HandEvents, HandSettlement, TableError, TurnClock
from pokerroom.rooms.effects import EarlyExit
from pokerroom.rooms.points import PointsPolicy
from pokerroom.rooms.rush import EntryMoved, RushPool
from pokerroom.rooms.rush_rules import Block, PoolConfig, RushTiming, Waiting, form_tables, seat_order

from .helpers import T0, at

NL = Stakes.blinds(50, 100)


def pool(size: int = 6, seed: int = 1, **kw: object) -> RushPool:
    cfg = PoolConfig("p", "Rush", "holdem", Betting.NO_LIMIT, NL, size, **kw)  # type: ignore[arg-type]
    return RushPool(cfg, random.Random(seed))


def fill(p: RushPool, n: int, *, per_player: int = 1, seasoned: bool = True) -> list[str]:
    """``n`` entries; ``seasoned`` ones have played before (no first-hand big blind)."""
    ids = []
    for i in range(n):
        player = f"u{i // per_player}"
        out = p.join(player, player, 10_000, T0)
        eid = next(x.entry for x in out if hasattr(x, "entry"))
        if seasoned:
            p.entries[eid].first = False
        ids.append(eid)
    return ids


def test_pool_config_limits() -> None:
    with pytest.raises(ConfigError):
        PoolConfig("p", "x", "holdem", Betting.NO_LIMIT, NL, 7)
    with pytest.raises(ConfigError):
        PoolConfig(
            "p", "x", "stud", Betting.FIXED_LIMIT, Stakes.fixed_limit(200, bring_in=50, blinds=False), 6
        )
    assert PoolConfig("p", "x", "omaha", Betting.POT_LIMIT, NL, 9).buy_in_range == (4000, 10000)


def test_r196_a_fifth_entry_is_refused() -> None:
    p = pool()
    for _ in range(4):
        p.join("ann", "Ann", 10_000, T0)
    with pytest.raises(TableError):
        p.join("ann", "Ann", 10_000, T0)
    assert len(p.entries_of("ann")) == 4


def test_r197_entries_of_one_player_never_share_a_table() -> None:
    queue = [Waiting(f"a#{i}", "a", False) for i in range(1, 5)] + [
        Waiting(f"b{i}", f"b{i}", False) for i in range(9)
    ]
    for table in form_tables(queue, 6, 13, []):
        players = [w.player for w in table]
        assert len(players) == len(set(players))


def test_r197_a_pool_smaller_than_a_table_deals_when_a_player_has_two_entries() -> None:
    """Issue 28: a pool smaller than one table plays with one free entry of each player (his other entry
    waits for the next hand): with all of them it could never form a table, and never dealt."""
    queue = [Waiting("a#1", "a", False), Waiting("a#2", "a", False), Waiting("b#1", "b", False)]
    tables = form_tables(queue, 6, 3, [])
    assert [[w.entry for w in t] for t in tables] == [["a#1", "b#1"]]
    assert form_tables([Waiting("a#1", "a", False), Waiting("a#2", "a", False)], 6, 2, []) == []
    p = pool(6)
    fill(p, 4, per_player=2)  # two players, two entries each
    fill(p, 1)  # (u0 again: a third entry of the first player)
    moved = [x for x in p.deal(T0) if isinstance(x, EntryMoved)]
    players: dict[str, list[str]] = {}
    for x in moved:
        players.setdefault(x.table, []).append(x.player)
    assert sorted(sorted(t) for t in players.values()) == [["u0", "u1"], ["u0", "u1"]]  # u0#3 waits


def test_r198_a_new_entry_posts_the_big_blind_and_one_per_table() -> None:
    queue = [Waiting(f"n{i}", f"n{i}", True) for i in range(2)] + [
        Waiting(f"o{i}", f"o{i}", False) for i in range(10)
    ]
    tables = form_tables(queue, 6, 12, [])
    assert len(tables) == 2 and all(sum(w.first for w in t) == 1 for t in tables)
    chosen = tables[0]
    order = seat_order(chosen, {w.entry: 9 for w in chosen}, random.Random(0))
    assert order[1].first  # seat 2 is the big blind


def test_r199_big_blind_to_the_entry_longest_without_it_ties_at_random() -> None:
    chosen = [Waiting(e, e, False) for e in ("a", "b", "c", "d")]
    since = {"a": 3, "b": 7, "c": 7, "d": 1}
    seen = {seat_order(chosen, since, random.Random(s))[1].entry for s in range(40)}
    assert seen == {"b", "c"}
    others = {
        tuple(w.entry for w in seat_order(chosen, {"a": 9, "b": 0, "c": 0, "d": 0}, random.Random(s)))
        for s in range(40)
    }
    assert all(o[1] == "a" for o in others) and len(others) > 1  # the rest is random


def test_a_new_pool_of_new_entries_starts_with_live_big_blinds() -> None:
    # Every entry is new: the one-new-entry-per-table rule alone would never let a table form.
    p = pool()
    fill(p, 6, seasoned=False)
    out = p.deal(T0)
    t = next(iter(p.tables.values()))
    posts = {
        (e.seat, e.what) for x in out if isinstance(x, HandEvents) for e in x.events if isinstance(e, Posted)
    }
    assert (2, "big_blind") in posts and (1, "small_blind") in posts
    assert {s for s, w in posts if w == "live"} == {3, 4, 5, 6}  # every new entry posts a big blind
    assert len(t.entries) == 6


def dealt(p: RushPool) -> None:
    out = p.deal(T0)
    assert any(isinstance(x, EntryMoved) for x in out)


def test_r200_r201_quick_fold_eligibility() -> None:
    p = pool()
    fill(p, 12)
    dealt(p)
    t = next(iter(p.tables.values()))
    by_seat = t.entries
    assert p.quick_fold_offered()
    # Preflop, 6 players: seat 1 SB, seat 2 BB, seat 3 UTG (to act).
    assert not p.can_quick_fold(by_seat[2])  # R200: the big blind with no raise
    assert p.can_quick_fold(by_seat[4])  # R201: before his turn, facing the big blind
    assert p.can_quick_fold(by_seat[1])  # R201: the small blind facing only the big blind
    for seat in (3, 4, 5, 6, 1):
        t.hand.apply(Call(seat))
    t.hand.apply(Check(2))  # flop: nobody has bet
    assert not any(p.can_quick_fold(e) for e in by_seat.values())  # R200: a player who could check
    d = t.hand.pending
    assert isinstance(d, BetDecision)
    t.hand.apply(RaiseTo(d.seat, t.hand.players[d.seat].stack))  # all-in
    assert not p.can_quick_fold(by_seat[d.seat])  # R200: all-in
    assert any(p.can_quick_fold(e) for s, e in by_seat.items() if s != d.seat)


def test_r202_quick_fold_needs_two_full_tables() -> None:
    p = pool(size=9)
    fill(p, 17)
    assert not p.quick_fold_offered()
    p.join("late", "late", 10_000, T0)
    assert p.quick_fold_offered()


def test_r203_r204_r213_quick_fold_is_hidden_until_the_action_reaches_the_seat() -> None:
    p = pool()
    fill(p, 13)
    dealt(p)
    t = next(iter(p.tables.values()))
    folder = t.entries[5]
    out = p.quick_fold(folder, at(1))
    assert any(isinstance(x, EarlyExit) and x.entry == folder for x in out)
    events = [e for x in out if isinstance(x, HandEvents) and x.table_id == t.table_id for e in x.events]
    assert not any(isinstance(e, ActionTaken) and e.seat == 5 for e in events)  # R204: not shown yet
    assert p.entries[folder].table != t.table_id  # R213: moved at once (waiting or at a new table)
    with pytest.raises(QuickFoldRefused):
        p.quick_fold(folder, at(1))  # R203: there is nothing to undo or repeat
    assert t.hand.players[5].quick_folded and not t.hand.players[5].folded
    out = p.act(t.entries[3], Call(3), at(2))
    out += p.act(t.entries[4], Call(4), at(2))
    events = [e for x in out if isinstance(x, HandEvents) and x.table_id == t.table_id for e in x.events]
    folds = [e for e in events if isinstance(e, ActionTaken) and e.seat == 5]
    assert [e.action for e in folds] == ["fold"]  # shown when the action reached seat 5


def test_r205_an_entry_no_table_can_hold_waits_without_holding_up_the_queue() -> None:
    # §8.3: A quick-folded at T1 and is blocked with B, C, D and E, who are still in that hand, while their
    # second entries wait behind A. No 6-max table can hold A yet, but the six entries behind A make one at
    # once; A keeps its place and waits until a legal table can hold it (R208: when the T1 hand ends).
    blocks = [Block("A", y, "T1") for y in "BCDE"]
    queue = [Waiting("A1", "A", False)] + [Waiting(f"{x}2", x, False) for x in "BCDEFG"]
    tables = form_tables(queue, 6, 20, blocks)
    assert [[w.entry for w in t] for t in tables] == [["B2", "C2", "D2", "E2", "F2", "G2"]]
    assert form_tables(queue, 6, 20, [])[0][0].entry == "A1"


def test_r205_r206_r208_example_1_blocks() -> None:
    # A (one entry) quick-folds at T1 before the action reaches B's entry B1 -> A with B2 is blocked.
    blocks = [Block("A", "B", "T1")]
    queue = [Waiting("A1", "A", False), Waiting("B2", "B", False), Waiting("C1", "C", False)]
    tables = form_tables(queue, 2, 2, blocks)
    assert all({w.player for w in t} != {"A", "B"} for t in tables)
    assert [[w.entry for w in t] for t in tables] == [["A1", "C1"]]
    # 1b / R208: once the block ends (B1 quick-folds too, or the T1 hand ends) they may sit together.
    assert [[w.entry for w in t] for t in form_tables(queue[:2], 2, 2, [])] == [["A1", "B2"]]


def test_r205_r206_r208_blocks_in_the_pool() -> None:
    p = pool(size=6, seed=3)
    ids = fill(p, 12)
    ids.append(p.join("u0", "u0", 10_000, T0)[0].entry)  # type: ignore[attr-defined]  # u0's 2nd entry
    dealt(p)
    t1 = next(t for t in p.tables.values() if any(e.startswith("u0#") for e in t.entries.values()))
    a_seat = next(s for s, e in t1.entries.items() if not e.startswith("u0#") and s in (4, 5, 6))
    a = t1.names[a_seat][0]
    b_seat = next(s for s, e in t1.entries.items() if e.startswith("u0#"))
    assert b_seat != a_seat
    p.quick_fold(t1.entries[a_seat], at(1))
    if t1.hand.players[b_seat].folded or b_seat in t1.left:
        pytest.skip("B's entry was not in the hand")
    assert Block(a, "u0", t1.table_id) in p.blocks  # R205
    p.quick_fold(t1.entries[b_seat], at(1)) if p.can_quick_fold(t1.entries[b_seat]) else None
    if b_seat in t1.left:
        assert Block(a, "u0", t1.table_id) not in p.blocks  # R206: B1 left the hand, the block ends


def test_r207_example_2_block_holds_for_the_other_entry() -> None:
    # A1 quick-folded at T1 before B1 acted; B2 (another table) folds and waits: not with A1.
    blocks = [Block("A", "B", "T1")]
    queue = [
        Waiting("B2", "B", False),
        Waiting("A1", "A", False),
        Waiting("C1", "C", False),
        Waiting("D1", "D", False),
    ]
    for t in form_tables(queue, 2, 2, blocks):
        assert {w.player for w in t} != {"A", "B"}


def test_r208_blocks_end_with_the_hand() -> None:
    p = pool(seed=5)
    fill(p, 12)
    dealt(p)
    t = next(iter(p.tables.values()))
    p.quick_fold(t.entries[4], at(1))
    assert any(b.table == t.table_id for b in p.blocks)
    rng = random.Random(1)
    while t.table_id in p.tables:
        d = t.hand.pending
        assert isinstance(d, BetDecision)
        p.act(
            t.entries[d.seat],
            Fold(d.seat) if d.fold and rng.random() < 0.5 else (Check(d.seat) if d.check else Call(d.seat)),
            at(2),
        )
    assert not any(b.table == t.table_id for b in p.blocks)


def test_r209_r210_r211_clocks() -> None:
    p = pool(timing=RushTiming(action=15, reduced_action=8, time_bank=30))
    fill(p, 12)
    out = p.deal(T0)
    clock = next(x for x in out if isinstance(x, TurnClock))
    assert (clock.action_deadline - clock.started) == timedelta(seconds=8)  # R209: reduced, no bank
    assert clock.bank_deadline == clock.action_deadline
    t = p.tables[clock.table_id]
    out = p.act(t.entries[clock.seat], RaiseTo(clock.seat, 300), at(1))
    clock2 = next(x for x in out if isinstance(x, TurnClock))
    assert (clock2.action_deadline - clock2.started) == timedelta(seconds=15)  # R210
    assert (clock2.bank_deadline - clock2.action_deadline) == timedelta(seconds=30)
    e = p.entries[t.entries[clock2.seat]]
    p.act(e.entry_id, Call(clock2.seat), at(1 + 25))  # uses 10 s of the bank
    assert e.time_bank == 20
    while t.table_id in p.tables:
        d = t.hand.pending
        assert isinstance(d, BetDecision)
        p.act(t.entries[d.seat], Fold(d.seat) if not d.check else Check(d.seat), at(30))
    p.deal(at(31))
    assert e.time_bank == 30  # R211: full again at the start of every hand


def test_r191_quick_folded_entry_gets_its_points_share() -> None:

    p = pool(rake=RakeRule(500, 300))
    p.points = PointsPolicy(tz=UTC)
    fill(p, 12)
    dealt(p)
    t = next(iter(p.tables.values()))
    p.act(t.entries[3], RaiseTo(3, 300), at(1))
    folder = t.entries[1]  # the small blind: 50 in the pot
    p.quick_fold(folder, at(1))
    out = []
    while t.table_id in p.tables:
        d = t.hand.pending
        assert isinstance(d, BetDecision)
        out += p.act(t.entries[d.seat], Call(d.seat) if d.call else Check(d.seat), at(2))
    s = next(x for x in out if isinstance(x, HandSettlement))
    assert s.rake > 0 and s.released == {folder: -50} and s.points.get(folder, 0) > 0
    assert sum(s.results.values()) + sum(s.released.values()) + s.rake == 0


def test_a_disconnected_entry_leaves_after_the_grace_and_nothing_is_ever_overdue() -> None:
    """Issue 8: a disconnected entry is folded when its turn comes and leaves the pool after the grace
    period. Right after every tick no deadline is in the past (the pool actor sleeps until it)."""
    p = pool()
    fill(p, 12)
    p.deal(T0)
    playing = next(e for e in p.entries.values() if e.state == "playing")
    p.disconnect(playing.player, T0)
    now = T0
    for _ in range(400):
        now += timedelta(seconds=1)
        p.tick(now)
        deadline = p.next_deadline()
        assert deadline is None or deadline > now, (deadline, now)
        if playing.entry_id not in p.entries:
            break
    assert playing.entry_id not in p.entries  # folded by the clock, then gone once its hand ended
    assert p.size >= 11


def test_leaving_mid_hand_times_out_its_turns_at_once() -> None:
    """§8.2: an entry that leaves in a hand without a quick fold open to it has its turns timed out at
    once (check if free, else fold; nobody waits for its clock) and is gone when it folds or the hand ends."""
    p = pool()
    fill(p, 12)
    dealt(p)
    t = next(iter(p.tables.values()))
    # Its turn: seat 3 (UTG) faces the big blind, so leaving folds it now and frees it at once.
    utg = t.entries[3]
    out = p.leave(utg, T0)
    assert t.hand.players[3].folded and utg not in p.entries
    assert any(isinstance(x, EarlyExit) and x.entry == utg for x in out)
    assert isinstance(t.hand.pending, BetDecision) and t.hand.pending.seat == 4
    # The unraised big blind may not quick-fold (R200): it stays, and when the action reaches it, it
    # checks at once, then checks on until the hand ends, and leaves then.
    bb = t.entries[2]
    assert not p.can_quick_fold(bb)
    assert p.leave(bb, T0) == [] and bb in p.entries
    for seat in (4, 5, 6, 1):
        p.act(t.entries[seat], Call(seat), T0)
    assert 2 not in t.clocks and not t.hand.players[2].folded  # it checked without waiting for its clock
    while t.table_id in p.tables:
        d = t.hand.pending
        assert isinstance(d, BetDecision) and d.seat != 2
        p.act(t.entries[d.seat], Check(d.seat) if d.check else Call(d.seat), T0)
    assert bb not in p.entries

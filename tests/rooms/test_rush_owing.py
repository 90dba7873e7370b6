"""Rush: a new entry that had to take the small blind on its first hand owes its big blind (R198, R199).

It is never given the small blind again while it owes (a table of owing entries alone is not formed while
an entry of the pool can still come back to take the small blind), and it posts the big blind on its next
hand: the big blind itself, or, when another owing entry got it, a live big blind from its seat."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import example, given, settings
from hypothesis import strategies as st

from pokerroom.engine import BetDecision, Betting, Call, Check, Fold, Stakes
from pokerroom.engine.events import Posted
from pokerroom.rooms.rush import RushPool, RushTable
from pokerroom.rooms.rush_rules import PoolConfig, Waiting, form_tables, seat_order

from .helpers import T0, at


def owing(name: str) -> Waiting:
    return Waiting(name, name, True, True)


def posts(t: RushTable) -> dict[str, set[str]]:
    """Entry -> what it posted at the start of the table's hand."""
    out: dict[str, set[str]] = {eid: set() for eid in t.entries.values()}
    for e in t.hand.events:
        if isinstance(e, Posted):
            out[t.entries[e.seat]].add(e.what)
    return out


def test_r198_two_owing_entries_alone_wait_for_an_entry_to_take_the_small_blind() -> None:
    # A pool of 6 entries at 9-max tables (so all free entries make a table): the two owing entries are
    # the only free ones; the other four are still playing and will come back.
    queue = [owing("a"), owing("b")]
    assert form_tables(queue, 9, 6, []) == []
    # Once one that does not owe comes back, they play, and neither owing entry is the small blind.
    back = [*queue, Waiting("c", "c", False)]
    [table] = form_tables(back, 9, 6, [])
    for seed in range(20):
        order = seat_order(table, {"a": 1, "b": 1, "c": 3}, random.Random(seed))
        assert order[0].entry == "c" and order[1].owing
    # The whole pool is these two owing entries: waiting would be forever, so they play (one of them
    # takes the small blind again and still owes its big blind).
    assert [[w.entry for w in t] for t in form_tables(queue, 9, 2, [])] == [["a", "b"]]


def test_r198_r199_owing_big_blind_by_hands_since_it_joined_ties_at_random() -> None:
    table = [owing("a"), owing("b"), Waiting("n", "n", True), Waiting("o", "o", False)]
    # An owing entry takes the big blind before a new one and an old one, whatever their counts (R198).
    seen = {seat_order(table, {"a": 1, "b": 1, "n": 0, "o": 9}, random.Random(s))[1].entry for s in range(40)}
    assert seen == {"a", "b"}  # R199: a tie between the owing entries is broken at random
    order = seat_order(table, {"a": 1, "b": 2, "n": 0, "o": 9}, random.Random(0))
    assert order[1].entry == "b"  # R199: the one with more hands since it joined (it never had the BB)
    assert order[0].entry == "o"  # the old entry takes the small blind; a and n post a live big blind


def _three_handed(p: RushPool, names: str) -> RushTable:
    for n in names:
        p.join(n, n, 10_000, T0)
    p.deal(T0)
    [t] = [t for t in p.tables.values() if set(t.entries.values()) == {f"{n}#1" for n in names}]
    return t


def _fold_small_blind(p: RushPool, t: RushTable) -> str:
    """The button (seat 3, first to act 3-handed) calls or checks; the small blind (seat 1) folds."""
    d = t.hand.pending
    assert isinstance(d, BetDecision) and d.seat == 3
    p.act(t.entries[3], Check(3) if d.check else Call(3), at(1))
    d = t.hand.pending
    assert isinstance(d, BetDecision) and d.seat == 1
    p.act(t.entries[1], Fold(1), at(1))
    return t.entries[1]


def _finish(p: RushPool, t: RushTable) -> None:
    while t.table_id in p.tables:
        d = t.hand.pending
        assert isinstance(d, BetDecision)
        p.act(t.entries[d.seat], Check(d.seat) if d.check else Call(d.seat), at(2))


def test_r198_at_a_pool_start_an_owing_entry_is_not_the_small_blind_again() -> None:
    """Issue 28, item 6: two 3-handed tables of new entries at the start of a 9-max pool; both small
    blinds (owing their big blinds) fold at once and are the only free entries. They used to be seated
    heads-up together, one of them in the small blind again. Now they wait for the others and, at their
    next hand, one posts the big blind and the other a live big blind; none takes the small blind."""
    cfg = PoolConfig("p", "Rush", "holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), 9)
    p = RushPool(cfg, random.Random(7))
    t1 = _three_handed(p, "abc")
    t2 = _three_handed(p, "def")
    for t in (t1, t2):
        assert {what for got in posts(t).values() for what in got} == {"small_blind", "big_blind", "live"}
    sb1, sb2 = _fold_small_blind(p, t1), _fold_small_blind(p, t2)
    assert p.entries[sb1].first and p.entries[sb2].first  # both still owe their big blind
    p.deal(at(1))
    assert p.entries[sb1].table is None and p.entries[sb2].table is None  # they wait
    _finish(p, t1)
    _finish(p, t2)
    p.deal(at(3))
    [t] = p.tables.values()
    got = posts(t)
    assert got[sb1] | got[sb2] == {"big_blind", "live"}  # both post a big blind on their next hand
    assert not p.entries[sb1].first and not p.entries[sb2].first


# ------------------------------------------------------------------------------------------ property


@dataclass(frozen=True)
class Pool:
    queue: list[Waiting]
    since: dict[str, int]
    table_size: int
    playing: int  # entries of the pool that are not free (in a hand)
    seed: int


KINDS = {"new": (True, False), "owing": (True, True), "old": (False, False)}


@st.composite
def pools(draw: st.DrawFn) -> Pool:
    table_size = draw(st.sampled_from([6, 9]))
    kinds = draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=2, max_size=2 * table_size + 3))
    players = draw(st.integers(len(kinds) // 2 + 1, len(kinds)))  # sometimes two entries of one player
    queue, since = [], {}
    for i, kind in enumerate(kinds):
        first, owes = KINDS[kind]
        eid = f"e{i}"
        queue.append(Waiting(eid, f"u{draw(st.integers(0, players - 1))}", first, owes))
        since[eid] = 0 if kind == "new" else 1 if kind == "owing" else draw(st.integers(0, 12))
    return Pool(queue, since, table_size, draw(st.integers(0, 2 * table_size)), draw(st.integers(0, 2**32)))


def _owing_pool(n: int, table_size: int, playing: int) -> Pool:
    queue = [owing(f"o{i}") for i in range(n)]
    return Pool(queue, {w.entry: 1 for w in queue}, table_size, playing, 0)


@settings(max_examples=400, deadline=None)
@given(pool=pools())
@example(pool=_owing_pool(2, 9, 4))  # a pool's start: the two owing entries are the only free ones
@example(pool=_owing_pool(6, 6, 30))
def test_r198_r199_owing_entries_get_the_big_blind_never_the_small_blind_again(pool: Pool) -> None:
    rng = random.Random(pool.seed)
    pool_entries = len(pool.queue) + pool.playing
    for table in form_tables(pool.queue, pool.table_size, pool_entries, []):
        order = seat_order(table, pool.since, rng)
        sb, bb = order[0], order[1]
        owing_here = [w for w in table if w.owing]
        assert sorted(w.entry for w in order) == sorted(w.entry for w in table)
        if len(owing_here) == len(table):
            # A table of owing entries only: formed only when no other entry of the pool can come back.
            assert pool.playing == 0
            continue
        assert not sb.owing  # R198: never the small blind again while another seat can take it
        if owing_here:
            # R198: an owing entry gets the big blind; among several, the most hands since it joined
            # (R199); the others post a live big blind from their seats (seat 3 on: they are first-hand).
            assert bb.owing and pool.since[bb.entry] == max(pool.since[w.entry] for w in owing_here)
            if len(owing_here) == 1:
                assert bb is owing_here[0]
        elif any(w.first for w in table):
            assert bb.first  # R198: a new entry's first hand
        else:
            assert pool.since[bb.entry] == max(pool.since[w.entry] for w in table)  # R199
        if sb.first and any(not w.first for w in order[2:]):
            raise AssertionError("a new entry took the small blind while an old one could")

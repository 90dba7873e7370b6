"""RULES.md §8.6, R207, played in a Rush pool (not only in the table former): the anti-collusion block
that A's quick fold at T1 creates keeps B's other entry, folding at another table T2, away from A's
new table while B's entry B1 is still in the T1 hand."""

from __future__ import annotations

import random

from pokerroom.engine import BetDecision, Betting, Call, Check, Fold, Stakes
from pokerroom.rooms.rush import EntryMoved, EntryWaiting, RushPool, RushTable
from pokerroom.rooms.rush_rules import Block, PoolConfig, Waiting, form_tables

from .helpers import T0, at

SIZE = 6


def _pool(seed: int) -> RushPool:
    cfg = PoolConfig("p", "Rush", "holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), SIZE)
    return RushPool(cfg, random.Random(seed))


def _join(p: RushPool, player: str) -> str:
    """A seasoned entry of ``player`` (it has played before: no first-hand big blind to post)."""
    out = p.join(player, player, 10_000, T0)
    entry = next(x.entry for x in out if isinstance(x, EntryWaiting))
    p.entries[entry].first = False
    return entry


def _table_of(p: RushPool, entry: str) -> RushTable:
    table = p.entries[entry].table
    assert table is not None, entry
    return p.tables[table]


def _still_in(t: RushTable, seat: int) -> bool:
    player = t.hand.players[seat]
    return not player.folded and not player.quick_folded and seat not in t.left


def test_r207_the_block_keeps_bs_second_entry_away_from_a_while_b1_is_in_the_t1_hand() -> None:
    """R207: Rush example 2: after A's quick fold at T1, B's second entry folding at T2 is not seated at
    A's table while B1 is in the T1 hand."""
    for seed in range(6):  # the seats are random: several seatings, each must keep the block
        p = _pool(seed)
        # Queue B#1, p0..p4, B#2, p5..p9: T1 = B#1 + p0..p4, T2 = B#2 + p5..p9 (oldest first).
        b1 = _join(p, "B")
        for i in range(5):
            _join(p, f"p{i}")
        b2 = _join(p, "B")
        for i in range(5, 10):
            _join(p, f"p{i}")
        moved = [x for x in p.deal(at(1)) if isinstance(x, EntryMoved)]
        assert len(moved) == 12 and len(p.tables) == 2
        t1, t2 = _table_of(p, b1), _table_of(p, b2)
        assert t1 is not t2
        waiting = [_join(p, f"w{i}") for i in range(4)]  # four entries waiting for the next table
        # A: a player at T1 who quick-folds before the action reaches B1 (not on his own turn).
        b1_seat = p.entries[b1].seat
        pending = t1.hand.pending
        assert isinstance(pending, BetDecision) and b1_seat is not None
        a_seat = next(
            s for s in (4, 5, 6, 1) if s != b1_seat and s != pending.seat and p.can_quick_fold(t1.entries[s])
        )
        a1 = t1.entries[a_seat]
        a = p.entries[a1].player
        p.quick_fold(a1, at(2))
        assert p.entries[a1].state == "waiting"
        assert Block(a, "B", t1.table_id) in p.blocks
        # B2 folds at T2 (on its turn: every player before it calls or checks).
        b2_seat = p.entries[b2].seat
        while True:
            d = t2.hand.pending
            assert isinstance(d, BetDecision)
            if d.seat == b2_seat:
                break
            p.act(t2.entries[d.seat], Call(d.seat) if d.call else Check(d.seat), at(3))
        p.act(b2, Fold(b2_seat), at(3))
        assert p.entries[b2].state == "waiting"
        late = _join(p, "late")  # joins after B2: B2 is ahead of it in the queue
        assert p.queue == [*waiting, a1, b2, late]
        assert _still_in(t1, b1_seat) and t1.table_id in p.tables  # B1 is still in the T1 hand
        # Without the block the next table would be the oldest six entries, A1 and B2 among them.
        free = [Waiting(e, p.entries[e].player, False) for e in p.queue]
        unblocked = form_tables(free, SIZE, p.size, [])
        assert [w.entry for w in unblocked[0]] == [*waiting, a1, b2]
        out = p.deal(at(4))
        seated = {x.entry: x.table for x in out if isinstance(x, EntryMoved)}
        assert set(seated) == {*waiting, a1, late}, seed  # B2 is skipped, the entry behind it sits
        assert b2 not in seated and p.entries[b2].state == "waiting" and p.queue == [b2]
        new_table = p.tables[seated[a1]]
        assert "B" not in {player for player, _ in new_table.names.values()}

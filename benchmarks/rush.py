"""Rush pools: hands per hour per entry and the wait between hands, for pools of 20, 100 and 1,000 bot
entries (issue: Rush pools).

A discrete-event simulation of the pure pool (``pokerroom.rooms.rush``) on a simulated clock. Every bot
decision takes ``--think`` seconds (0.5 by default): when an entry is dealt a hand it looks at it for that
long and quick-folds it with probability ``--fold`` if the rules allow; when its turn comes it acts after
that long (fold 55 %, call 35 %, raise the minimum 10 % when it cannot check). Tables are formed the moment
the queue allows. Printed per pool: hands per hour per entry, the median and 90th percentile wait between
an entry's hands (from leaving one hand, by folding or because it ended, to being dealt the next), and the
CPU time the simulation took. A cash table deals about 60-100 hands an hour; the target is >= 250 hands an
hour per entry with a median wait <= 1 s.

    python benchmarks/rush.py [--think 0.5] [--fold 0.6] [--minutes 2]
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pokerroom.engine import BetDecision, Betting, Call, Check, Fold, RaiseTo, RakeRule, Stakes
from pokerroom.rooms.notices import HandEvents, HandFinished
from pokerroom.rooms.rush import EntryMoved, EntryWaiting, RushPool
from pokerroom.rooms.rush_rules import PoolConfig

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def simulate(entries: int, think: float, fold: float, minutes: float, seed: int = 1) -> dict[str, float]:
    rng = random.Random(seed)
    cfg = PoolConfig(
        "rush", "Rush", "holdem", Betting.NO_LIMIT, Stakes.blinds(50, 100), 6, rake=RakeRule(500, 300)
    )
    pool = RushPool(cfg, random.Random(seed + 1))
    players = max(1, entries * 3 // 4)  # some players run several entries
    now = T0
    end = T0 + timedelta(minutes=minutes)
    queue: list[tuple[datetime, int, str, str]] = []  # (when, tie, kind, key)
    tie = 0
    waiting_since: dict[str, datetime] = {}
    waits: list[float] = []
    hands = 0
    scheduled_turn: dict[str, tuple[str, int]] = {}  # table -> (hand id, action number) scheduled

    def push(when: datetime, kind: str, key: str) -> None:
        nonlocal tie
        tie += 1
        heapq.heappush(queue, (when, tie, kind, key))

    def absorb(out: list[object]) -> None:
        nonlocal hands
        for x in out:
            if isinstance(x, EntryWaiting):
                waiting_since[x.entry] = now
            elif isinstance(x, EntryMoved):
                hands += 1
                since = waiting_since.pop(x.entry, None)
                if since is not None:
                    waits.append((now - since).total_seconds())
                push(now + timedelta(seconds=think), "peek", x.entry)
        touched = {x.table_id for x in out if isinstance(x, HandEvents)}
        for tid in touched:  # the player to act at a table that moved decides after thinking
            t = pool.tables.get(tid)
            if t is None:
                continue
            marker = (t.hand.hand_id, len(t.hand.commands))
            if isinstance(t.hand.pending, BetDecision) and scheduled_turn.get(tid) != marker:
                scheduled_turn[tid] = marker
                push(now + timedelta(seconds=think), "act", tid)

    for i in range(entries):
        out = pool.join(f"u{i % players}", "bot", 10_000, now)
        absorb(out)
    for e in pool.entries.values():
        e.first = False  # a pool that has been running: no first-hand big blinds to start with
    started = time.process_time()
    absorb(pool.deal(now))
    while queue and queue[0][0] <= end:
        now, _, kind, key = heapq.heappop(queue)
        out: list[object] = []
        if kind == "peek":
            if pool.can_quick_fold(key) and rng.random() < fold:
                out += pool.quick_fold(key, now)
        else:
            t = pool.tables.get(key)
            if t is not None and isinstance(t.hand.pending, BetDecision):
                d = t.hand.pending
                r = rng.random()
                if d.check:
                    cmd: object = Check(d.seat)
                elif r < 0.55:
                    cmd = Fold(d.seat)
                elif r < 0.9 or not d.raise_kind:
                    cmd = Call(d.seat)
                else:
                    cmd = RaiseTo(d.seat, d.min_to)
                out += pool.act(t.entries[d.seat], cmd, now)  # type: ignore[arg-type]
        for x in list(out):  # entries that went broke in a hand that ended buy more chips
            if isinstance(x, HandFinished):
                for player, _ in x.record.players.values():
                    for e in pool.entries_of(player):
                        if e.state == "busted":
                            out += pool.top_up(e.entry_id, 10_000, now)
        out += pool.deal(now)
        absorb(out)
    cpu = time.process_time() - started
    hours = minutes / 60
    return {
        "per_entry": hands / entries / hours,
        "p50": statistics.median(waits) if waits else 0.0,
        "p90": statistics.quantiles(waits, n=10)[-1] if len(waits) > 10 else 0.0,
        "hands": float(pool.hands_dealt),
        "cpu": cpu,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--think", type=float, default=0.5, help="seconds per bot decision (simulated)")
    ap.add_argument("--fold", type=float, default=0.6, help="share of hands a bot quick-folds when it may")
    ap.add_argument("--minutes", type=float, default=2.0, help="simulated minutes per pool")
    args = ap.parse_args()
    print(
        f"Rush pool, 6-max NL hold'em; bots think {args.think} s per decision; {args.minutes:g} simulated "
        "minutes per pool"
    )
    print(
        f"{'entries':>8} {'hands/h/entry':>14} {'p50 wait s':>11} {'p90 wait s':>11} {'tables dealt':>13}"
        f" {'CPU s':>7}"
    )
    for entries in (20, 100, 1000):
        r = simulate(entries, args.think, args.fold, args.minutes)
        print(
            f"{entries:>8} {r['per_entry']:>14.0f} {r['p50']:>11.2f} {r['p90']:>11.2f} {r['hands']:>13.0f}"
            f" {r['cpu']:>7.1f}"
        )
    print("target: >= 250 hands/hour per entry at a median wait <= 1 s (a cash table: about 60-100 an hour)")


if __name__ == "__main__":
    main()

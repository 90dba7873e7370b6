"""A 1,000-player no-limit hold'em tournament played by bots with no think time, from the start to the
winner (issue: tournaments): wall time, CPU time and hands per second, printed.

The tournament director (``pokerroom.rooms.tournament``) runs on a simulated clock (10-minute levels,
breaks at the top of the hour, 9-max tables, balancing, hand-for-hand at the bubble); the bots play a
simple loose-aggressive policy (fold 30 %, raise 15 %, else check or call), so hands go to showdowns and
players bust steadily.

    python benchmarks/tournament.py [--players 1000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from pokerroom.engine import BetDecision, Betting, Call, Check, Fold, RaiseTo, TimeOut
from pokerroom.rooms.tournament import (
    TableHandEnded,
    TournamentConfig,
    TournamentDirector,
    TournamentPrize,
)

T0 = datetime(2026, 12, 6, 12, tzinfo=UTC)


def bot(d: BetDecision, rng: random.Random) -> object:
    r = rng.random()
    if d.raise_kind and r < 0.15:
        amount = rng.choice(d.choices) if d.choices else min(d.max_to, d.min_to * rng.choice((1, 2, 3)))
        return RaiseTo(d.seat, amount)
    if d.call and r < 0.45:
        return Fold(d.seat)
    return Check(d.seat) if d.check else Call(d.seat)


def run(players: int, seed: int) -> None:
    cfg = TournamentConfig(
        "bench",
        "Benchmark",
        kind="mtt",
        variant="holdem",
        betting=Betting.NO_LIMIT,
        buy_in=1000,
        fee=100,
        start_time=T0,
        table_size=9,
    )
    d = TournamentDirector(cfg, random.Random(seed))
    for i in range(players):
        d.register(f"p{i}", f"p{i}", T0)
    rng = random.Random(seed + 1)
    now = T0
    hands = 0
    paid = 0
    wall, cpu = time.perf_counter(), time.process_time()
    out = d.tick(now)
    while d.status == "running":
        now += timedelta(seconds=5)
        out = d.tick(now)
        for t in list(d.tables.values()):
            while t.in_hand and t.number in d.tables:
                hand = t.hand
                assert hand is not None
                pending = hand.pending
                cmd = (
                    bot(pending, rng) if isinstance(pending, BetDecision) else TimeOut(hand.waiting_for()[0])
                )
                out += d.act(t.seats[cmd.seat].player, cmd, now)  # type: ignore[attr-defined,arg-type]
        hands += sum(1 for x in out if isinstance(x, TableHandEnded))
        paid += sum(x.amount for x in out if isinstance(x, TournamentPrize))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    sim = now - T0
    assert paid == d.pool, (paid, d.pool)
    winner = next(e for e in d.entrants.values() if e.place == 1)
    print(
        f"{players}-player NL hold'em tournament, 9-max, 10-minute levels: won by {winner.name} after "
        f"{hands:,} hands and {sim} of tournament time (level {d.level(now).number})"
    )
    print(
        f"  wall time {wall:.1f} s, CPU time {cpu:.1f} s, {hands / wall:,.0f} hands/s "
        f"({hands / cpu:,.0f} per CPU second); prizes paid {paid:,} = prize pool"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    run(args.players, args.seed)


if __name__ == "__main__":
    main()

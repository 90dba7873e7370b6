"""Load: N bot clients (their own processes) against one server process on 127.0.0.1.

    python benchmarks/load.py --players 2000 --duration 60 --think 0.5-2
    python benchmarks/load.py --players 300 --duration 30 --think 0-0

Same as ``pokerroom loadtest``; prints hands per second, action-to-broadcast latency p50/p99 and errors.
Loopback only, bounded in players and time. See README, "Performance" -> "Load".
"""

from __future__ import annotations

import argparse

from pokerroom.bots.load import run_load
from pokerroom.cli.load import _think


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=600)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--think", default="0.5-2")
    ap.add_argument("--url", default=None)
    ap.add_argument("--processes", type=int, default=None)
    ap.add_argument("--warmup", type=float, default=None)
    args = ap.parse_args()
    if not 2 <= args.players <= 5000 or not 1 <= args.duration <= 900:
        ap.error("bounded: 2..5000 players, 1..900 seconds")
    report = run_load(
        args.players,
        args.duration,
        _think(args.think),
        url=args.url,
        processes=args.processes,
        warmup=args.warmup,
    )
    print(report.text())


if __name__ == "__main__":
    main()

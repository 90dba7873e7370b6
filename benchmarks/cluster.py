"""A room on several processes (docs/cluster.md, "Capacity"): the same load on one process, on a cluster
with one table host, and on a cluster with two, side by side in one run, with the ratios.

    python benchmarks/cluster.py --players 240 --duration 20 --think 0-0

Scaling out (docs/cluster.md, "Capacity"): every table host under the same CPU quota (a control group of
its own, ``--host-cpu`` cores), saturated with zero-think bots by 1, then 2, then 3 hosts; the tables are
spread by the hosts' own placement before the window starts:

    sudo python benchmarks/cluster.py --host-cpu 0.25 --hosts 1,2,3 --players 216 --duration 30

Each side: ``pokerroom loadtest`` (bots in their own processes, zero think time by default); the cluster
sides start their nodes (``pokerroom serve --cluster``) on a fresh PostgreSQL schema and their own subjects
on the NATS server. Printed per side: actions per second, the action-to-broadcast p99, errors, the server
processes' CPU per action, and for the clusters the hosts' CPU per action, bus messages per action and
PostgreSQL write commits per hand. On a 2-core machine the bots and every node share the same cores: read the
CPU per action, not only the throughput.
"""

from __future__ import annotations

import argparse

from pokerroom.bots.cpu_quota import quota_unavailable
from pokerroom.bots.load import LoadCluster, LoadReport, run_load
from pokerroom.cli.load import _think

PG = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
NATS = "nats://127.0.0.1:4222"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=240)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--think", default="0-0")
    ap.add_argument("--warmup", type=float, default=15.0)
    ap.add_argument("--database", default=PG)
    ap.add_argument("--bus", default=NATS)
    ap.add_argument("--no-single", action="store_true", help="skip the one-process side")
    ap.add_argument("--host-cpu", type=float, help="each host's CPU quota in cores: the scaling sweep")
    ap.add_argument("--hosts", default="1,2,3", help="host counts of the scaling sweep")
    ap.add_argument("--bot-processes", type=int, default=2, help="the sweep's bot processes")
    args = ap.parse_args()
    if not 12 <= args.players <= 3000 or not 5 <= args.duration <= 600:
        ap.error("bounded: 12..3000 players, 5..600 seconds")
    think = _think(args.think)
    if args.host_cpu is not None:
        reason = quota_unavailable()
        if reason is not None:
            ap.error(f"--host-cpu: {reason}")
        counts = sorted({int(h) for h in args.hosts.split(",")})
        if not counts or counts[0] < 1 or counts[-1] > 8:
            ap.error("--hosts: 1..8 hosts")
        _sweep(args, think, counts)
        return
    sides: list[tuple[str, LoadReport]] = []
    if not args.no_single:
        sides.append(
            ("one process (SQLite)", run_load(args.players, args.duration, think, warmup=args.warmup))
        )
    for hosts in (1, 2):
        cluster = LoadCluster(args.database, args.bus, hosts=hosts, gateways=1)
        report = run_load(args.players, args.duration, think, warmup=args.warmup, cluster=cluster)
        sides.append((f"cluster, {hosts} host(s) + 1 gateway", report))
    for name, r in sides:
        print(f"== {name}\n{r.text()}\n")
    print(f"{'side':36} {'actions/s':>10} {'p99 ms':>8} {'errors':>7} {'CPU ms/act':>10} {'host ms/act':>11}")
    for name, r in sides:
        host = 1000 * r.host_cpu_seconds / max(r.actions, 1)
        print(
            f"{name:36} {r.actions / r.duration:10.0f} {r.latency_p99_ms:8.1f} {r.errors:7d} "
            f"{r.cpu_ms_per_action:10.3f} {host:11.3f}"
        )
    one, two = sides[-2][1], sides[-1][1]
    print(
        f"\n2 hosts / 1 host: actions/s x{two.actions / max(one.actions, 1):.2f}, "
        f"p99 x{two.latency_p99_ms / max(one.latency_p99_ms, 1e-9):.2f}, "
        f"server CPU per action x{two.cpu_ms_per_action / max(one.cpu_ms_per_action, 1e-9):.2f}"
    )


def _sweep(args: argparse.Namespace, think: tuple[float, float], counts: list[int]) -> None:
    rows: list[tuple[int, LoadReport]] = []
    for hosts in counts:
        cluster = LoadCluster(args.database, args.bus, hosts=hosts, gateways=1, host_cpu=args.host_cpu)
        report = run_load(
            args.players,
            args.duration,
            think,
            warmup=args.warmup,
            cluster=cluster,
            processes=args.bot_processes,
        )
        print(f"== {hosts} host(s), {args.host_cpu:g} core each\n{report.text()}\n", flush=True)
        rows.append((hosts, report))
    base = rows[0][1].actions / rows[0][1].duration
    print(
        f"{'hosts':>5} {'actions/s':>10} {'x first':>8} {'p99 ms':>8} {'errors':>7} {'host ms/act':>11} "
        f"{'commits/hand':>12} {'held back s':>11}  tables per host"
    )
    for hosts, r in rows:
        rate = r.actions / r.duration
        print(
            f"{hosts:5d} {rate:10.0f} {rate / max(base, 1e-9):8.2f} {r.latency_p99_ms:8.1f} {r.errors:7d} "
            f"{1000 * r.host_cpu_seconds / max(r.actions, 1):11.3f} {r.db_commits / max(r.hands, 1):12.1f} "
            f"{r.throttled_seconds:11.1f}  {'/'.join(map(str, r.host_tables))}"
        )


if __name__ == "__main__":
    main()

"""The load test behind ``pokerroom loadtest`` and ``benchmarks/load.py``.

A server process (one uvicorn worker, SQLite, ``ceil(players / 6)`` six-max NL hold'em tables) is
started on 127.0.0.1 unless a URL is given; N bots play it from their own processes (several hundred
bots per process, each process one asyncio loop), so that the bots do not share the server's event loop.
Bots act after a think time drawn between ``think`` bounds. After a warm-up (connect, sit, first hands:
``warmup`` seconds, and then until every bot sits, at most :func:`seat_limit` seconds more; a run whose
bots did not all sit says so in ``seated``) the run is measured for ``duration`` seconds:

- hands per second: hands finished by the server's tables in the window (from the lobby);
- latency: from a bot sending an action to the broadcast of that action (its own event coming back
  over the table's stream: the action applied and sent to everybody), p50 and p99; the p99
  to the ``ack`` (which comes after the hand-end bookkeeping when the action ends the hand) is shown too;
- errors: every ``error`` frame a bot received in the window, by code, and bots that lost their socket;
- by game: with ``mix`` (``pokerroom loadtest --mix horse``) the tables are mixed tables of that mix
  (RULES.md §11.1: FL stakes 20/40, rounds of six hands), and the report gives each game's hands (the
  server's ``pokerroom_game_hands_total``, read from ``/metrics`` on its own machine) and the bots' actions
  in it; a single-game run gives its one game.

The server's accounts are made directly in its store with a cheap password hash (the load test measures
play, not argon2); with ``--url`` the bots register over HTTP like any client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import random
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

from pokerroom.bots.client import BotClient, BotStats
from pokerroom.bots.load_cluster import LoadCluster, cpu_seconds, make_accounts
from pokerroom.bots.strategies import STRATEGIES

__all__ = ["LoadCluster", "LoadReport", "by_game", "load_tables", "run_load"]


@dataclass
class LoadReport:
    players: int
    tables: int
    processes: int
    think: tuple[float, float]
    duration: float
    hands: int
    hands_per_second: float
    actions: int
    latency_p50_ms: float
    latency_p99_ms: float
    latency_max_ms: float
    errors: int
    ack_p99_ms: float = 0.0
    error_codes: dict[str, int] = field(default_factory=dict)
    seated: int = 0
    server_cpu_seconds: float = 0.0  # the server processes' user + system CPU in the window
    servers: str = "one process"
    host_cpu_seconds: float = 0.0  # a cluster's table hosts' share of server_cpu_seconds
    bus_messages: float = 0.0  # a cluster's messages sent on the bus in the window
    db_commits: float = 0.0  # the transactions a cluster's hosts committed in the window
    host_tables: list[int] = field(default_factory=list)  # the tables each host ran at the window's end
    host_cpu_quota: float | None = None  # each host's CPU quota in cores, if any
    throttled_seconds: float = 0.0  # how long the quotas held the hosts back in the window
    seated_at_start: int = 0  # players seated when the window opened (``seated``: when it closed)
    mix: str = ""  # the tables' mix (RULES.md §11.1), "" for NL hold'em tables
    games: dict[str, dict[str, int]] = field(default_factory=dict)  # game -> {"hands", "actions"}

    @property
    def cpu_ms_per_action(self) -> float:
        return 1000 * self.server_cpu_seconds / self.actions if self.actions else 0.0

    def text(self) -> str:
        lo, hi = self.think
        codes = ", ".join(f"{k} {v}" for k, v in sorted(self.error_codes.items())) or "none"
        return (
            f"{self.players} players ({self.seated} seated) at {self.tables} tables, think {lo:g}-{hi:g} s, "
            f"{self.processes} bot processes, {self.duration:g} s measured; server: {self.servers}\n"
            f"  hands/s          {self.hands_per_second:.1f} ({self.hands} hands)\n"
            f"  actions          {self.actions} ({self.actions / max(self.duration, 1e-9):.0f}/s)\n"
            f"  action -> broadcast p50 {self.latency_p50_ms:.1f} ms, p99 {self.latency_p99_ms:.1f} ms, "
            f"max {self.latency_max_ms:.1f} ms (ack p99 {self.ack_p99_ms:.1f} ms)\n"
            f"  errors           {self.errors} ({codes})\n"
            + "".join(
                f"  {game:<16} {g['hands']} hands, {g.get('actions', 0)} actions\n"
                if any(x.get("hands") for x in self.games.values())
                else f"  {game:<16} {g.get('actions', 0)} actions (its hands: not on this /metrics)\n"
                for game, g in sorted(self.games.items())
            )
            + "  server CPU       "
            + (
                f"{self.server_cpu_seconds:.1f} s ({self.cpu_ms_per_action:.3f} ms per action)"
                if self.server_cpu_seconds
                else "not measured (a room given by --url)"
            )
            + (
                f"\n  cluster          hosts' CPU "
                f"{1000 * self.host_cpu_seconds / max(self.actions, 1):.3f} ms per action; "
                f"{self.bus_messages / max(self.actions, 1):.2f} bus messages per action; "
                f"{self.db_commits / max(self.hands, 1):.1f} hosts' PostgreSQL write commits per hand\n"
                f"  hosts            tables {'/'.join(map(str, self.host_tables))}; "
                + (
                    f"CPU quota {self.host_cpu_quota:g} core each, held back {self.throttled_seconds:.1f} s"
                    if self.host_cpu_quota is not None
                    else "no CPU quota"
                )
                if self.bus_messages
                else ""
            )
        )


def load_tables(count: int, mix: str = "") -> list[Any]:
    """``count`` six-max NL hold'em play-money tables (10/20), default clocks; with ``mix`` (a code of
    rooms/mixes.py) six-max mixed tables of it, small bet / big bet 20/40, rounds of six hands."""
    from pokerroom.engine import Betting, RakeRule, Stakes
    from pokerroom.rooms import TableConfig, Timing
    from pokerroom.rooms.mixes import get_mix

    first = get_mix(mix).games[0] if mix else None
    return [
        TableConfig(
            table_id=f"load-{i + 1}",
            name=f"Load {i + 1}",
            variant=first.variant if first else "holdem",
            betting=first.betting if first else Betting.NO_LIMIT,
            stakes=Stakes.fixed_limit(20, 40) if mix else Stakes.blinds(10, 20),
            seats=6,
            rake=RakeRule(500, 60),
            timing=Timing(action=15.0, time_bank=30.0, between_hands=1.0),
            currency="PLAY",
            mix=mix,
        )
        for i in range(count)
    ]


# ------------------------------------------------------------------------------------------- server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _serve(port: int, db: str, players: int, tables: int, tokens_path: str, mix: str = "") -> None:
    import uvicorn

    from pokerroom.server.app import create_app
    from pokerroom.server.room import RoomSettings
    from pokerroom.server.uvicorn_read import ws_protocol
    from pokerroom.store import Store

    store = Store.open(f"sqlite+aiosqlite:///{db}")
    await store.db.upgrade()
    tokens = await make_accounts(store, players)
    Path(tokens_path).write_text(json.dumps(tokens))
    app = create_app(store, RoomSettings(tables=tuple(load_tables(tables, mix))), freeze_heap=True)
    profile = os.environ.get("POKERROOM_LOAD_PROFILE")  # "FILE:SECONDS": profile the server that long
    if profile:
        asyncio.get_running_loop().create_task(_profile(*profile.split(":")))
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_max_size=65536,
        ws_per_message_deflate=False,  # as `pokerroom serve`
        ws=ws_protocol(),
        lifespan="on",
        backlog=4096,
    )
    await uvicorn.Server(config).serve()


async def _profile(path: str, seconds: str) -> None:
    import cProfile

    prof = cProfile.Profile()
    prof.enable()
    await asyncio.sleep(float(seconds))
    prof.disable()
    prof.dump_stats(path)


def _server_main(port: int, db: str, players: int, tables: int, tokens_path: str, mix: str = "") -> None:
    from pokerroom.server.loop import run

    with contextlib.suppress(KeyboardInterrupt):
        run(_serve(port, db, players, tables, tokens_path, mix))


# --------------------------------------------------------------------------------------------- bots


@dataclass
class _Seat:
    name: str
    token: str
    table: str
    seat: int


@dataclass
class _Window:
    """Shared between the main process and the bot processes: each bot process writes how many of its
    bots sit (``seated[slot]``) until the main process sets ``go``, with the measured window's ``start``
    and ``stop`` (epoch seconds; ``start`` holds the planned end of the warm-up before that)."""

    seated: Any  # multiprocessing Array of int, one slot per bot process
    start: Any  # multiprocessing Value of double
    stop: Any
    go: Any  # multiprocessing Event

    @classmethod
    def make(cls, ctx: Any, processes: int, planned_start: float) -> _Window:
        return cls(ctx.Array("i", processes), ctx.Value("d", planned_start), ctx.Value("d", 0.0), ctx.Event())

    def open(self, start: float, duration: float) -> None:
        self.start.value, self.stop.value = start, start + duration
        self.go.set()


def seat_limit(players: int) -> float:
    """How long the warm-up waits, beyond its planned length, for every player to sit: generous, as a
    loaded machine seats slowly (1,000 players can take minutes); a run that ends it is reported with
    its seated count short."""
    return 60.0 + players / 10


def wait_seated(
    players: int,
    seated: Callable[[], int],
    alive: Callable[[], bool],
    planned_start: float,
    limit: float,
    *,
    clock: Callable[[], float] = time.time,
    pause: Callable[[float], object] = time.sleep,
) -> int:
    """End the warm-up: wait until ``planned_start`` and until ``players`` sit, or the bot processes die,
    or ``limit`` seconds after ``planned_start`` pass. Returns how many sat."""
    while True:
        now, count = clock(), seated()
        if now >= planned_start and count >= players:
            return count
        if now >= planned_start + limit or not alive():
            return count
        pause(min(0.2, max(0.01, planned_start - now)))


def _bots_main(
    url: str, seats: list[_Seat], think: tuple[float, float], window: _Window, slot: int, seed: int, out: Any
) -> None:
    from pokerroom.server.app import collect_as_a_server
    from pokerroom.server.loop import run  # uvloop, as the server: the bots' own cost weighs on the machine

    # A bot process holds hundreds of connections: its full collections would stop every bot in it, and
    # the latencies they measure with them. It collects as the server does.
    collect_as_a_server()
    stats = run(_bots(url, seats, think, window, slot, seed))
    out.put(stats)


async def _bots(
    url: str, seats: list[_Seat], think: tuple[float, float], window: _Window, slot: int, seed: int
) -> dict[str, Any]:
    rng = random.Random(seed)
    stats = BotStats()
    bots = []
    for s in seats:
        bot = BotClient(
            url, s.name, STRATEGIES["caller"](), s.table, think=think, rng=random.Random(rng.random())
        )
        bot.stats = stats
        bot.token = s.token
        bot.preferred_seat = s.seat
        bots.append(bot)
    if not seats[0].token:  # a room of its own: register over HTTP like any client
        async with httpx.AsyncClient(timeout=120) as http:
            for bot in bots:
                await bot.login(http)
    tasks = []
    ramp = max(0.0, window.start.value - time.time() - 5) / max(1, len(bots))
    for bot in bots:
        tasks.append(asyncio.create_task(bot.run()))
        await asyncio.sleep(min(ramp, 0.02))
    while not window.go.is_set():  # tell the main process how many sit until it opens the window
        window.seated[slot] = sum(1 for b in bots if b.seat is not None)
        await asyncio.sleep(0.1)
    start, stop = window.start.value, window.stop.value
    await asyncio.sleep(max(0.0, start - time.time()))
    stats.actions, stats.errors, stats.hands = 0, 0, 0
    stats.latencies.clear()
    stats.ack_latencies.clear()
    stats.error_codes.clear()
    stats.game_actions.clear()
    await asyncio.sleep(max(0.0, stop - time.time()))
    seated = sum(1 for b in bots if b.seat is not None)
    for bot in bots:
        bot.stopped = True
    for task in tasks:
        task.cancel()
    with contextlib.suppress(BaseException):
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 10)
    return {
        "actions": stats.actions,
        "errors": stats.errors,
        "error_codes": stats.error_codes,
        "latencies": stats.latencies,
        "ack_latencies": stats.ack_latencies,
        "seated": seated,
        "game_actions": dict(stats.game_actions),
    }


# --------------------------------------------------------------------------------------------- run


async def _hands(url: str) -> int:
    async with httpx.AsyncClient(timeout=60) as http:
        tables = (await http.get(f"{url}/api/lobby")).json()["tables"]
    return sum(int(t["hands"]) for t in tables if str(t["table"]).startswith("load-"))


async def _game_hands(url: str) -> dict[str, int]:
    """Hands finished at cash tables by game, from the server's ``/metrics`` (empty when it is not ours to
    read: a room elsewhere answers 403)."""
    from prometheus_client.parser import text_string_to_metric_families

    async with httpx.AsyncClient(timeout=60) as http:
        r = await http.get(f"{url}/metrics")
    if r.status_code != 200:
        return {}
    out: dict[str, int] = {}
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            if sample.name == "pokerroom_game_hands_total" and sample.labels.get("kind") == "cash":
                out[sample.labels["game"]] = int(sample.value)
    return out


def by_game(
    before: dict[str, int], after: dict[str, int], actions: list[dict[str, int]]
) -> dict[str, dict[str, int]]:
    """Each game's hands in the window (``after - before``) and the bots' actions in it."""
    out: dict[str, dict[str, int]] = {}
    for game, n in after.items():
        if n - before.get(game, 0):
            out.setdefault(game, {"hands": 0, "actions": 0})["hands"] = n - before.get(game, 0)
    for counts in actions:
        for game, n in counts.items():
            out.setdefault(game, {"hands": 0, "actions": 0})["actions"] += n
    return out


async def _wait_up(url: str, proc: Any, timeout: float) -> None:
    deadline = time.time() + timeout
    async with httpx.AsyncClient(timeout=5) as http:
        while time.time() < deadline:
            if proc is not None and not proc.is_alive():
                raise RuntimeError("the load-test server exited")
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get(f"{url}/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.3)
    raise RuntimeError("the load-test server did not start")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def run_load(
    players: int,
    duration: float,
    think: tuple[float, float] = (0.5, 2.0),
    *,
    url: str | None = None,
    processes: int | None = None,
    warmup: float | None = None,
    cluster: LoadCluster | None = None,
    mix: str = "",
) -> LoadReport:
    """Run the load test and return its figures (see the module docstring). ``cluster``: serve the tables
    from a cluster's nodes instead of one process (bots spread over its gateways); ``mix``: mixed tables
    (a room this run starts itself)."""
    if mix and (url is not None or cluster is not None):
        raise ValueError("--mix makes the room's tables: not with --url or --cluster")
    ctx = mp.get_context("spawn")
    tables = math.ceil(players / 6)
    server = None
    tmp = tempfile.TemporaryDirectory(prefix="pokerroom-load-")
    pids: list[int] = []
    urls: list[str] = []
    try:
        tokens: list[str] = [""] * players
        if cluster is not None:
            tokens = asyncio.run(cluster.start(tables, players))
            urls, pids = list(cluster.urls), cluster.pids
        elif url is None:
            port = _free_port()
            url = f"http://127.0.0.1:{port}"
            tokens_path = str(Path(tmp.name) / "tokens.json")
            server = ctx.Process(
                target=_server_main,
                args=(port, str(Path(tmp.name) / "load.db"), players, tables, tokens_path, mix),
                daemon=True,
            )
            server.start()
            asyncio.run(_wait_up(url, server, 600))
            tokens = json.loads(Path(tokens_path).read_text())
            pids = [server.pid] if server.pid is not None else []
        urls = urls or [str(url).rstrip("/")]
        seats = [_Seat(f"load{i + 1}", tokens[i], f"load-{i // 6 + 1}", i % 6 + 1) for i in range(players)]
        nproc = max(len(urls), processes or max(1, min(8, math.ceil(players / 500))))
        warm = warmup if warmup is not None else 10.0 + players / 100
        planned = time.time() + warm
        window = _Window.make(ctx, nproc, planned)
        queue = ctx.Queue()
        workers = [
            ctx.Process(
                target=_bots_main,
                args=(urls[i % len(urls)], seats[i::nproc], think, window, i, i, queue),
                daemon=True,
            )
            for i in range(nproc)
        ]
        for w in workers:
            w.start()
        seated_at_start = wait_seated(
            players, lambda: sum(window.seated[:]), lambda: all(w.is_alive() for w in workers), planned,
            seat_limit(players),
        )  # fmt: skip
        start = time.time() + 0.5  # the bot processes see ``go`` (they look every 0.1 s) before it starts
        stop = start + duration
        window.open(start, duration)
        time.sleep(max(0.0, start - time.time()))
        h0, cpu0 = asyncio.run(_hands(urls[0])), cpu_seconds(pids)
        g0 = asyncio.run(_game_hands(urls[0]))
        c0 = asyncio.run(cluster.sample()) if cluster is not None else {}
        time.sleep(max(0.0, stop - time.time()))
        h1, cpu1 = asyncio.run(_hands(urls[0])), cpu_seconds(pids)
        g1 = asyncio.run(_game_hands(urls[0]))
        c1 = asyncio.run(cluster.sample()) if cluster is not None else {}
        spread = asyncio.run(cluster.host_tables()) if cluster is not None else []
        delta = {k: c1[k] - c0[k] for k in c1}
        results = [queue.get(timeout=120) for _ in workers]
        for w in workers:
            w.join(30)
        latencies = [x for r in results for x in r["latencies"]]
        acks = [x for r in results for x in r["ack_latencies"]]
        codes: dict[str, int] = {}
        for r in results:
            for k, v in r["error_codes"].items():
                codes[k] = codes.get(k, 0) + v
        return LoadReport(
            players=players,
            tables=tables,
            processes=nproc,
            think=think,
            duration=duration,
            hands=h1 - h0,
            hands_per_second=(h1 - h0) / duration,
            actions=sum(r["actions"] for r in results),
            latency_p50_ms=1000 * _percentile(latencies, 0.50),
            latency_p99_ms=1000 * _percentile(latencies, 0.99),
            latency_max_ms=1000 * max(latencies, default=0.0),
            ack_p99_ms=1000 * _percentile(acks, 0.99),
            errors=sum(r["errors"] for r in results),
            error_codes=codes,
            seated=sum(r["seated"] for r in results),
            seated_at_start=seated_at_start,
            mix=mix,
            games=by_game(g0, g1, [r["game_actions"] for r in results]),
            server_cpu_seconds=cpu1 - cpu0,
            host_cpu_seconds=delta.get("host_cpu", 0.0),
            bus_messages=delta.get("bus_out", 0.0),
            db_commits=delta.get("commits", 0.0),
            host_tables=spread,
            host_cpu_quota=cluster.host_cpu if cluster is not None else None,
            throttled_seconds=delta.get("throttled", 0.0),
            servers=(
                f"{cluster.hosts} host(s) and {cluster.gateways} gateway(s) on NATS and PostgreSQL"
                if cluster is not None
                else "one process"
                if server is not None
                else "a running room"
            ),
        )
    finally:
        if cluster is not None:
            asyncio.run(cluster.stop())
        if server is not None:
            server.terminate()
            server.join(10)
        tmp.cleanup()


def report_json(report: LoadReport) -> str:
    return json.dumps(asdict(report), indent=1)

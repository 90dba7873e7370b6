"""Hand settlements per second on SQLite and PostgreSQL, beside pgbench's simple-update rate on the same
server in the same run (one connection each), printed as a ratio. Target: ratio >= 0.5, i.e. a settlement
costs no more than two pgbench transactions.

    python benchmarks/store.py [--seconds 10] [--pg-url postgresql+asyncpg://postgres@127.0.0.1:5432/test]

A settlement here is a 6-handed hand: 6 seat-session deltas, rake to the house, points to all 6 players
(14 postings, 12 floored balances updated), booked in one transaction. The "full hand" rate adds the
journal: start record, 4 commands and the end record that books the same settlement.

"SQLite CPU per server hand" is the process's CPU time (every thread: the COMMITs' worker too) per hand
of the two records as the room's cash table writes them: the start record, then the end record with the
hand's 24 commands and their times, the settlement and an audit history (a public hand's PHH of 900
bytes, where the room's audit copy carries its deck proof too, several KB), on inline SQLite with
``synchronous=FULL`` (docs/server-speed.md, "2026-12-08"). It is measured alone, one hand after another,
with warm caches: under load the same records cost about 1.7 times as much (the load test's knock-outs
there).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from argon2 import PasswordHasher

from pokerroom.server.loop import run as room_loop
from pokerroom.store import Database, HandHistory, Role, SeatRecord, Store, deck_commitment

PLAYERS = 6
DECK = "AsKdQhJcTs9d8h7c6s5d4h3c2s"
SALT = "0123456789abcdef0123456789abcdef"


async def _setup(store: Store) -> tuple[list[int], list[int]]:
    await store.db.upgrade()
    admin = await store.accounts.register("admin", "s3cret-pass-phrase", role=Role.ADMIN)
    players, sessions = [], []
    for i in range(PLAYERS):
        p = await store.accounts.register(f"player{i}", "s3cret-pass-phrase")
        await store.ledger.deposit(p.id, "USD", 10**9, admin_id=admin.id, idempotency_key=f"d{i}")
        b = await store.ledger.buy_in(p.id, "bench", "USD", 10**8, idempotency_key=f"b{i}")
        players.append(p.id)
        sessions.append(b.session_id)
    return players, sessions


def _hand(n: int, players: list[int], sessions: list[int]) -> tuple[dict[int, int], int, dict[int, int]]:
    winner = n % PLAYERS
    deltas = {s: -100 for s in sessions}
    rake = 25
    deltas[sessions[winner]] += 100 * PLAYERS - rake
    points = {p: 41 + (1 if k < 4 else 0) for k, p in enumerate(players)}  # 250 centipoints in all
    return deltas, rake, points


async def _start(
    store: Store,
    hand_id: str,
    players: list[int],
    sessions: list[int],
    stacks: dict[int, int],
    *,
    game: str,
    stakes: str | None = None,
) -> None:
    """The hand's start record: the six players in seats 1-6 with their sessions' stacks now."""
    pairs = enumerate(zip(players, sessions, strict=True))
    seats = [SeatRecord(k + 1, p, s, stacks[s]) for k, (p, s) in pairs]
    await store.journal.start_hand(
        hand_id,
        table_id="bench",
        game=game,
        currency="USD",
        seats=seats,
        deck_commitment=deck_commitment(DECK, SALT),
        stakes=stakes,
    )


async def _settle_rate(store: Store, seconds: float, full: bool) -> float:
    players, sessions = await _setup(store)
    stacks = dict.fromkeys(sessions, 10**8)
    n = 0
    run = uuid.uuid4().hex[:6]
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        deltas, rake, points = _hand(n, players, sessions)
        hand_id = f"{run}-{n}"
        if full:
            await _start(store, hand_id, players, sessions, stacks, game="NT")
            for seq in range(1, 5):
                await store.journal.record_command(hand_id, seq, {"seat": seq, "action": "call"})
            await store.journal.end_hand(
                hand_id, deck_text=DECK, salt=SALT, deltas=deltas, rake=rake, points=points
            )
        else:
            await store.ledger.settle_hand(hand_id, "USD", deltas, rake, points)
        for s, d in deltas.items():
            stacks[s] += d
        n += 1
    rate = n / (time.perf_counter() - start)
    report = await store.verify()
    assert report.ok, report.render()
    return rate


SERVER_COMMANDS = 24  # a six-handed no-limit hold'em hand of the load test: about 24 actions
AUDIT_PHH = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "phh" / "wsop-2023-43-5" / "1.phh"


async def _server_hand_cpu(store: Store, hands: int) -> float:
    """CPU microseconds per hand of the start and end records as the cash table writes them."""
    players, sessions = await _setup(store)
    stacks = dict.fromkeys(sessions, 10**8)
    run = uuid.uuid4().hex[:6]
    commands = [
        {"type": "act", "seat": 1 + k % PLAYERS, "action": "call", "amount": 100 * k}
        for k in range(SERVER_COMMANDS)
    ]
    history = HandHistory(
        full_phh=AUDIT_PHH.read_text(), views={}, seats={p: k + 1 for k, p in enumerate(players)}
    )

    async def hand(n: int) -> None:
        deltas, rake, points = _hand(n, players, sessions)
        hand_id = f"{run}-{n}"
        await _start(store, hand_id, players, sessions, stacks, game="holdem/NL", stakes="1/2")
        times = [store.journal.clock()] * SERVER_COMMANDS
        await store.journal.end_hand(
            hand_id,
            deck_text=DECK,
            salt=SALT,
            deltas=deltas,
            rake=rake,
            points=points,
            history=history,
            commands=commands,
            times=times,
        )
        for s, d in deltas.items():
            stacks[s] += d

    warmup = max(1, hands // 5)
    for n in range(warmup):
        await hand(n)
    began = time.process_time()
    for n in range(warmup, warmup + hands):
        await hand(n)
    cpu = time.process_time() - began
    report = await store.verify()
    assert report.ok, report.render()
    return 1e6 * cpu / hands


def _hasher() -> PasswordHasher:
    return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


async def _sqlite(measure: Callable[[Store], Awaitable[float]]) -> float:
    """``measure``'s figure on a store in a fresh SQLite database of its own."""
    tmp = tempfile.mkdtemp(prefix="pokerroom-bench-")
    try:
        store = Store(Database(f"sqlite+aiosqlite:///{tmp}/bench.db"), hasher=_hasher())
        try:
            return await measure(store)
        finally:
            await store.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def _pg(url: str, seconds: float, full: bool) -> float:
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    store = Store(Database(url, schema=schema, pool_size=1, max_overflow=0), hasher=_hasher())
    try:
        return await _settle_rate(store, seconds, full)
    finally:
        async with store.db.engine.begin() as conn:
            await conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await store.close()


def _pgbench(url: str, seconds: float) -> float:
    from sqlalchemy.engine import make_url

    u = make_url(url)
    schema = f"pgbench_{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "PGOPTIONS": f"-c search_path={schema}"}
    if u.password:
        env["PGPASSWORD"] = u.password
    conn = ["-h", u.host or "127.0.0.1", "-p", str(u.port or 5432), "-U", u.username or "postgres"]
    db = u.database or "postgres"

    def psql(sql: str) -> None:
        subprocess.run(["psql", *conn, "-d", db, "-q", "-c", sql], env=env, check=True, capture_output=True)

    psql(f'CREATE SCHEMA "{schema}"')
    try:
        subprocess.run(
            ["pgbench", *conn, "-i", "-s", "1", "-q", db], env=env, check=True, capture_output=True
        )
        out = subprocess.run(
            ["pgbench", *conn, "-b", "simple-update", "-T", str(max(1, round(seconds))), "-c", "1", db],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    finally:
        psql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    m = re.search(r"tps = ([0-9.]+) \(without initial connection time\)", out) or re.search(
        r"tps = ([0-9.]+)", out
    )
    if not m:
        raise RuntimeError(f"cannot read pgbench output:\n{out}")
    return float(m.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0, help="length of each timed run (default 10)")
    ap.add_argument(
        "--pg-url",
        default=os.environ.get("POKERROOM_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"),
    )
    ap.add_argument("--skip-pg", action="store_true", help="SQLite only")
    ap.add_argument(
        "--hands", type=int, default=2000, help="hands timed for the CPU per server hand (default 2000)"
    )
    args = ap.parse_args()
    secs = args.seconds

    rows: list[tuple[str, float]] = []
    settle = asyncio.run(_sqlite(lambda store: _settle_rate(store, secs, full=False)))
    full_hand = asyncio.run(_sqlite(lambda store: _settle_rate(store, secs, full=True)))
    cpu = room_loop(_sqlite(lambda store: _server_hand_cpu(store, args.hands)))  # (the room's event loop)
    rows.append(("SQLite   settle_hand / s", settle))
    rows.append(("SQLite   full hand (journal) / s", full_hand))
    rows.append(("SQLite   CPU per server hand (us)", cpu))
    if not args.skip_pg:
        # The machine is shared: interleave pgbench and our runs (two halves each) and compare the means.
        pgbench_runs, ours_runs = [], []
        for _ in range(2):
            pgbench_runs.append(_pgbench(args.pg_url, secs / 2))
            ours_runs.append(asyncio.run(_pg(args.pg_url, secs / 2, full=False)))
        pgbench = sum(pgbench_runs) / 2
        ours = sum(ours_runs) / 2
        full = asyncio.run(_pg(args.pg_url, secs, full=True))
        rows += [
            ("PostgreSQL settle_hand / s", ours),
            ("PostgreSQL full hand (journal) / s", full),
            ("pgbench simple-update tps (-c 1)", pgbench),
        ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:10.1f}")
    if not args.skip_pg:
        ratio = ours / pgbench
        verdict = "met" if ratio >= 0.5 else "NOT met"
        print(f"{'ratio settle_hand / pgbench':<{width}}  {ratio:10.2f}  (target >= 0.5: {verdict})")


if __name__ == "__main__":
    main()

"""Lifetime statistics (issue 31) for a player with many hands: the time of the queries of one
``GET /api/my/stats`` once his hands have their figures, and the time to read the figures of hands that
have none yet (what each request does for at most 500 hands).

    python benchmarks/mystats.py [--hands 100000] [--pg-url postgresql+asyncpg://postgres@127.0.0.1:5432/test]

The hands are written straight into the tables (``hands``, ``player_hands``, ``player_hand_figures``):
three games, two currencies, stakes, a year of sessions. The reading rate is measured on histories of
random hands of every game (tests/history/helpers.py).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert  # noqa: E402

from pokerroom.store import Database  # noqa: E402
from pokerroom.store.models import HandRow, PlayerHandFigureRow, PlayerHandRow, PlayerRow  # noqa: E402
from pokerroom.store.mystats import (  # noqa: E402
    FIGURES,
    MyStats,
    StatsFilter,
    epoch,
    graph_of,
    sessions_of,
)

START = datetime(2025, 1, 1, tzinfo=UTC)
CHUNK = 5000


def _hands(n: int, rng: random.Random) -> list[tuple[str, datetime, dict[str, object]]]:
    out: list[tuple[str, datetime, dict[str, object]]] = []
    t = START
    for i in range(n):
        t += timedelta(seconds=rng.choice([40, 60, 90, 120])) if rng.random() > 0.004 else timedelta(hours=20)
        game = rng.choice(["holdem", "omaha", "stud"])
        currency = "PLAY" if rng.random() < 0.8 else "EUR"
        fig = {k: int(rng.random() < 0.25) for k in FIGURES}
        out.append(
            (
                f"h{i}",
                t,
                {
                    "kind": "cash",
                    "game": game,
                    "betting": "NL" if game != "stud" else "FL",
                    "currency": currency,
                    "stakes": rng.choice(["1/2", "2/4", "5/10"]),
                    "readable": 1,
                    "net": rng.randint(-400, 400),
                    **fig,
                },
            )
        )
    return out


async def _fill(db: Database, n: int) -> int:
    await db.upgrade()
    async with db.write() as conn:
        await conn.execute(
            insert(PlayerRow),
            {
                "id": 1,
                "name": "grinder",
                "name_key": "grinder",
                "password_hash": "x",
                "role": "player",
                "failed_logins": 0,
                "created_at": START,
            },
        )
    rows = _hands(n, random.Random(7))
    for i in range(0, n, CHUNK):
        part = rows[i : i + CHUNK]
        async with db.write() as conn:
            await conn.execute(
                insert(HandRow),
                [
                    {
                        "id": h,
                        "table_id": "t",
                        "game": f["game"],
                        "currency": f["currency"],
                        "status": "ended",
                        "started_at": t,
                        "ended_at": t,
                        "deck_commitment": "0" * 64,
                        "start_fingerprint": "0" * 64,
                    }
                    for h, t, f in part
                ],
            )
            await conn.execute(
                insert(PlayerHandRow),
                [
                    {"player_id": 1, "hand_id": h, "ended_at": t, "seat": 1, "phh": None, "pokerstars": None}
                    for h, t, _ in part
                ],
            )
            await conn.execute(
                insert(PlayerHandFigureRow),
                [{"player_id": 1, "hand_id": h, "ended_s": epoch(t), **f} for h, t, f in part],
            )
    return n


async def _request(stats: MyStats, f: StatsFilter) -> dict[str, float]:
    """The queries of one request (the figures all read already), timed one by one."""
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    _, pending = await stats.unfigured(1, 1000)
    assert pending == 0
    times["unfigured"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    counts = await stats.currencies(1, f)
    times["currencies"] = time.perf_counter() - t0
    f = StatsFilter(f.game, f.stakes, f.kind, f.currency or next(iter(counts)), f.since, f.until)
    t0 = time.perf_counter()
    await stats.breakdown(1, f)
    times["breakdown"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    series = await stats.series(1, f)
    times["series"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    graph_of(series, 400)
    sessions_of(series, 1800)
    times["graph+sessions"] = time.perf_counter() - t0
    times["total"] = sum(times.values())
    return times


def _reading_rate() -> float:
    """Milliseconds to read one hand's figures from its history (replay included), over every game."""
    from tests.history.helpers import CASES, random_hands

    from pokerroom.history import HandContext, write_phh
    from pokerroom.server.lifetime_figures import hand_figures

    texts = []
    for game, betting in CASES:
        for hand in random_hands(game, betting, 10, seed="bench"):
            texts.append((write_phh(hand, viewer=None, context=HandContext(hand_id="b")), hand.order[0]))
    t0 = time.perf_counter()
    for text, seat in texts:
        hand_figures(text, seat)
    return 1000 * (time.perf_counter() - t0) / len(texts)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--pg-url", default=None)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    targets: list[tuple[str, Database, str | None]] = []
    tmp = Path(tempfile.mkdtemp(prefix="mystats-"))
    targets.append(
        ("SQLite", Database(f"sqlite+aiosqlite:///{tmp / 'b.db'}", sqlite_synchronous="OFF"), None)
    )
    if args.pg_url:
        schema = f"bench_{uuid.uuid4().hex[:8]}"
        import asyncpg

        conn = await asyncpg.connect(args.pg_url.replace("postgresql+asyncpg", "postgresql"))
        await conn.execute(f"CREATE SCHEMA {schema}")
        await conn.close()
        targets.append(("PostgreSQL", Database(args.pg_url, schema=schema), schema))
    for name, db, made in targets:
        t0 = time.perf_counter()
        await _fill(db, args.hands)
        print(f"{name}: {args.hands:,} hands written in {time.perf_counter() - t0:.1f} s")
        stats = MyStats(db)
        for label, f in (
            ("all hands", StatsFilter()),
            ("holdem 1/2", StatsFilter(game="holdem", stakes="1/2")),
        ):
            runs = [await _request(stats, f) for _ in range(args.runs)]
            med = {k: statistics.median(r[k] for r in runs) * 1000 for k in runs[0]}
            parts = ", ".join(f"{k} {v:.0f}" for k, v in med.items() if k != "total")
            print(f"{name}: one request, {label}: {med['total']:.0f} ms (median of {args.runs}; {parts})")
        await db.dispose()
        if made:
            import asyncpg

            conn = await asyncpg.connect(args.pg_url.replace("postgresql+asyncpg", "postgresql"))
            await conn.execute(f"DROP SCHEMA {made} CASCADE")
            await conn.close()
    ms = _reading_rate()
    print(
        f"reading a hand's figures from its history: {ms:.2f} ms;"
        f" a request's batch of 500: {ms / 2:.1f} s of CPU"
    )


if __name__ == "__main__":
    asyncio.run(main())

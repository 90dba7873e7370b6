"""Crash safety: a subprocess doing money writes (buy-ins, cash-outs, deposits, whole journaled hands) is
killed with SIGKILL at random moments; after each kill, recovery cancels the hands left open (every stack
equal to its seat-session balance) and ledger verify passes. 20 kills per database by default, 100 with
POKERROOM_SOAK=1."""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pokerroom.store import Database, Role, Store

from .storehelpers import CHEAP_HASHER, PG_URL

KILLS = 100 if os.environ.get("POKERROOM_SOAK") == "1" else 20
WORKER = Path(__file__).with_name("crash_worker.py")
SRC = Path(__file__).resolve().parents[2] / "src"


async def _setup(url: str, schema: str | None) -> None:
    store = Store(Database(url, schema=schema), hasher=CHEAP_HASHER)
    admin = await store.accounts.register("admin", "s3cret-pass-phrase", role=Role.ADMIN)
    for i in range(4):
        p = await store.accounts.register(f"player{i}", "s3cret-pass-phrase")
        await store.ledger.deposit(p.id, "USD", 50_000, admin_id=admin.id, idempotency_key=f"seed-{i}")
    await store.close()


async def _recover_and_verify(url: str, schema: str | None) -> tuple[int, int]:
    store = Store(Database(url, schema=schema), hasher=CHEAP_HASHER)
    try:
        cancelled = await store.journal.recover()
        for hand in cancelled:
            assert hand.mismatches == (), hand
            for sid, stack in hand.stacks.items():
                assert (await store.ledger.session(sid)).balance == stack
        assert await store.journal.open_hands() == []
        report = await store.verify()
        assert report.ok, report.render()
        return len(cancelled), report.transactions
    finally:
        await store.close()


def _crash_loop(url: str, schema: str | None) -> None:
    asyncio.run(_setup(url, schema))
    rng = random.Random(1234)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    cancelled_total = 0
    last_tx = 0
    for run in range(KILLS):
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), url, schema or "-", f"run{run}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            text=True,
        )
        try:
            assert proc.stdout is not None
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            line = proc.stdout.readline() if ready else ""
            if line.strip() != "ready":
                proc.kill()
                raise AssertionError(
                    f"worker did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}"
                )
            # Let it write for a random moment, then kill it without warning.
            select.select([], [], [], rng.uniform(0.01, 0.3))
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            os.kill(proc.pid, signal.SIGKILL)
        finally:
            proc.wait(10)
            if proc.stdout:
                proc.stdout.close()
            if proc.stderr:
                proc.stderr.close()
        cancelled, tx = asyncio.run(_recover_and_verify(url, schema))
        cancelled_total += cancelled
        assert tx >= last_tx
        last_tx = tx
    # The kills did land in the middle of things: hands were left open and money kept moving.
    assert cancelled_total > 0
    assert last_tx > 4 + KILLS


@pytest.mark.slow
def test_sigkill_during_money_writes_on_sqlite(tmp_path: Path, sqlite_template: Path) -> None:
    from .storehelpers import fresh_sqlite

    _crash_loop(fresh_sqlite(sqlite_template, tmp_path), None)


@pytest.mark.slow
def test_sigkill_during_money_writes_on_postgresql(pg_schema: str) -> None:
    from .storehelpers import pg_truncate

    pg_truncate(pg_schema)
    _crash_loop(PG_URL, pg_schema)

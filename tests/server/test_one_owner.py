"""Issue 15: one owner per database. Two `pokerroom serve` on one database (SQLite, and PostgreSQL in a
schema of its own): the second exits at once naming the first (host, pid, start), and touches nothing:
the first keeps dealing, no seat is cashed out and no hand cancelled. Before the fix, the second's
crash recovery cashed out every open seat of the running room, then failed to bind its port."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from pokerroom.store import Database
from tests.waiting import wait_until

from ..store.storehelpers import PG_URL, drop_pg_schema, require_pg

ROOM = """\
[room]
bots_per_table = 3

[bots]
think = [0.0, 0.05]
strategies = ["caller", "random"]

[timing]
action = 5
between_hands = 0.1

[[table]]
id = "holdem"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = 20 }
"""
STARTS_WITHIN = 120.0  # seconds (a loaded two-core machine imports and migrates slowly)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(
    tmp: Path, name: str, database: str, port: int, env: dict[str, str]
) -> tuple[subprocess.Popen[bytes], Path]:
    out = tmp / f"{name}.log"
    config = str(tmp / "room.toml")
    cmd = [
        sys.executable, "-m", "pokerroom", "serve", "--config", config, "--database", database,
        "--port", str(port), "--no-open",
    ]  # fmt: skip
    with out.open("wb") as sink:
        proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env={**os.environ, **env})
    return proc, out


def _wait_for(path: Path, words: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    def said() -> bool:
        if words in path.read_text(errors="replace"):
            return True
        if proc.poll() is not None:
            raise AssertionError(f"the room exited ({proc.returncode}):\n{path.read_text()}")
        return False

    wait_until(said, timeout=timeout, what=f"the room says {words!r}", show=lambda: "\n" + path.read_text())


def _hands(port: int) -> float:
    r = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=20)
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            if sample.name == "pokerroom_hands_total":
                return sample.value
    return 0.0


def _deals(port: int, more_than: float, timeout: float = 60) -> float:
    def dealt() -> float | None:
        n = _hands(port)
        return n if n > more_than else None

    n = wait_until(dealt, timeout=timeout, what=f"the room deals a hand after its {more_than:g}")
    assert n is not None
    return n


def _state(url: str, schema: str | None) -> tuple[int, int]:
    """(open seat sessions, cancelled hands) as the database has them."""

    async def read() -> tuple[int, int]:
        async with Database(url, schema=schema) as db, db.read() as conn:
            seats = (
                await conn.execute(
                    text("SELECT COUNT(*) FROM ledger_accounts WHERE kind = 'seat' AND closed_at IS NULL")
                )
            ).scalar_one()
            cancelled = (
                await conn.execute(text("SELECT COUNT(*) FROM hands WHERE status = 'cancelled'"))
            ).scalar_one()
            return int(seats), int(cancelled)

    return asyncio.run(read())


@pytest.fixture
def stop_rooms() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def _second_room_stays_out(
    tmp: Path,
    database: str,
    url: str,
    schema: str | None,
    env: dict[str, str],
    stop: list[subprocess.Popen[bytes]],
) -> None:
    (tmp / "room.toml").write_text(ROOM)
    port = _free_port()
    first, first_log = _serve(tmp, "first", database, port, env)
    stop.append(first)
    _wait_for(first_log, "bots seated", first, STARTS_WITHIN)
    dealt = _deals(port, 2)
    seats, cancelled = _state(url, schema)
    assert seats == 3 and cancelled == 0

    second, second_log = _serve(tmp, "second", database, _free_port(), env)
    stop.append(second)
    assert second.wait(STARTS_WITHIN) == 1
    said = second_log.read_text()
    assert "is served by another pokerroom process" in said, said
    assert f"host {socket.gethostname()}, pid {first.pid}, started " in said, said

    again, _ = _serve(tmp, "third", database, port, env)  # the same port: stopped before the database
    stop.append(again)
    assert again.wait(STARTS_WITHIN) == 1

    _deals(port, dealt + 3)  # the first room deals on
    assert first.poll() is None
    assert _state(url, schema) == (3, 0)  # nothing cashed out, nothing cancelled


def test_a_second_room_on_one_sqlite_database_exits_and_touches_nothing(
    tmp_path: Path, stop_rooms: list[subprocess.Popen[bytes]]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'room.db'}"
    _second_room_stays_out(tmp_path, url, url, None, {}, stop_rooms)


def test_a_second_room_on_one_postgresql_database_exits_and_touches_nothing(
    tmp_path: Path, stop_rooms: list[subprocess.Popen[bytes]]
) -> None:
    require_pg()
    schema = f"t_owner_{uuid.uuid4().hex[:10]}"
    try:
        _second_room_stays_out(
            tmp_path, PG_URL, PG_URL, schema, {"POKERROOM_DATABASE_SCHEMA": schema}, stop_rooms
        )
    finally:
        for p in stop_rooms:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
                p.wait(30)
        drop_pg_schema(schema)

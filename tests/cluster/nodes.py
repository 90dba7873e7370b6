"""Real cluster nodes for tests: ``pokerroom serve --cluster`` processes on a private PostgreSQL schema and
a cluster name of their own on the NATS server (docs/cluster.md). NATS: the machine's (127.0.0.1:4222), or a
private ``nats-server`` a test starts (and stops or kills) itself."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import httpx
import pytest

from tests import waiting
from tests.server.conftest import free_port
from tests.store.storehelpers import PG_URL, pg_unavailable_reason

T = TypeVar("T")

NATS_URL = os.environ.get("POKERROOM_TEST_NATS_URL", "nats://127.0.0.1:4222")

ROOM = """
[room]
name = "cluster test"
play_money_on_register = true
bots_per_table = 0

[timing]
action = 5
time_bank = 5
between_hands = 0.5
"""

TABLE = """
[[table]]
id = "{id}"
name = "{name}"
game = "{game}"
betting = "{betting}"
stakes = {stakes}
seats = 6
"""

EXTRA = """
[[pool]]
id = "rush-e"
name = "Rush E"
game = "holdem"
betting = "NL"
stakes = { small_blind = 10, big_blind = 20 }
table_size = 6

[[tournament]]
id = "sng-f"
name = "Sit & Go F"
kind = "sng"
game = "holdem"
betting = "NL"
buy_in = 100
fee = 10
starting_stack = 1500
table_size = 3
max_players = 3
level_minutes = 5
"""

HOLDEM = "{ small_blind = 10, big_blind = 20 }"
DRAW = "{ small_blind = 10, big_blind = 20, small_bet = 20, big_bet = 40 }"
STUD = "{ ante = 2, bring_in = 5, small_bet = 10, big_bet = 20 }"
TABLES = (
    ("holdem-a", "Hold'em A", "holdem", "NL", HOLDEM),
    ("draw-b", "5-Card Draw B", "draw5", "FL", DRAW),
    ("omaha-c", "Omaha C", "omaha", "PL", HOLDEM),
    ("stud-d", "Stud D", "stud", "FL", STUD),
)


def room_file(directory: Path, *, extra: bool = False) -> Path:
    """The test room: a cash table of each game family (and, with ``extra``, a Rush pool and a
    three-player sit-and-go series)."""
    text = (
        ROOM
        + (EXTRA if extra else "")
        + "".join(TABLE.format(id=i, name=n, game=g, betting=b, stakes=s) for i, n, g, b, s in TABLES)
    )
    path = directory / "room.toml"
    path.write_text(text)
    return path


def _port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1.0)
        return s.connect_ex((host, port)) == 0


def need_services() -> None:
    """Skip (or, with CI=true, fail) unless PostgreSQL and NATS answer."""
    reasons = [pg_unavailable_reason()]
    host, _, port = NATS_URL.removeprefix("nats://").partition(":")
    if not _port_open(host, int(port or 4222)):
        reasons.append(f"NATS unreachable at {NATS_URL}")
    reason = "; ".join(r for r in reasons if r)
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)


async def until(
    check: Callable[[], Awaitable[bool]],
    limit: float,
    what: str,
    every: float = 0.25,
    show: Callable[[], object] | None = None,
) -> float:
    """Wait until ``check()`` holds (at most ``limit`` seconds; a node not answering yet is "not yet");
    returns the seconds it took. ``show()``: the state the failure names when it does not hold."""
    start = time.monotonic()
    await waiting.until(
        check, timeout=limit, what=what, every=every, show=show, ignore=(httpx.HTTPError, OSError)
    )
    return time.monotonic() - start


async def until_value(get: Callable[[], Awaitable[T | None]], limit: float, what: str) -> T:
    """Wait until ``get()`` gives something (at most ``limit`` seconds); returns it."""
    found: list[T] = []

    async def check() -> bool:
        value = await get()
        if value is not None:
            found.append(value)
        return value is not None

    await until(check, limit, what)
    return found[0]


@dataclass
class Node:
    role: str
    node_id: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@dataclass
class Cluster:
    """A cluster's nodes, its schema and its name on the bus."""

    directory: Path
    bus: str = NATS_URL
    name: str = field(default_factory=lambda: f"t{uuid.uuid4().hex[:8]}")
    schema: str = field(default_factory=lambda: f"t_cluster_{uuid.uuid4().hex[:10]}")
    nodes: list[Node] = field(default_factory=list)
    database: str = PG_URL  # the machine's PostgreSQL, or a private one a fault test stops

    def start(self, role: str, node_id: str, config: Path, *, bus: str | None = None) -> Node:
        port = free_port()
        log = self.directory / f"{node_id}.log"
        env = {**os.environ, "POKERROOM_DATABASE_SCHEMA": self.schema, "PYTHONUNBUFFERED": "1"}
        cmd = [
            sys.executable, "-m", "pokerroom", "serve", "--no-open", "--port", str(port),
            "--config", str(config), "--database", self.database, "--cluster", bus or self.bus,
            "--cluster-name", self.name, "--role", role, "--node-id", node_id,
        ]  # fmt: skip
        with log.open("wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        node = Node(role, node_id, port, proc, log)
        self.nodes.append(node)
        return node

    async def ready(self, node: Node, limit: float = 120) -> None:
        async def answers() -> bool:
            if node.proc.poll() is not None:
                raise AssertionError(f"{node.node_id} exited:\n{node.output()}")
            async with httpx.AsyncClient(timeout=5) as http:
                return (await http.get(f"{node.url}/api/ready")).status_code == 200

        await until(answers, limit, f"{node.node_id} is ready")

    async def leases(self) -> dict[str, str]:
        """resource -> the host holding its lease (live ones only)."""
        conn = await asyncpg.connect(self.database.replace("postgresql+asyncpg", "postgresql"))
        try:
            rows = await conn.fetch(
                f'SELECT resource, holder FROM "{self.schema}".leases WHERE expires_at > now()'
            )
        finally:
            await conn.close()
        return {r["resource"]: r["holder"] for r in rows}

    async def drop_schema(self) -> None:
        conn = await asyncpg.connect(self.database.replace("postgresql+asyncpg", "postgresql"))
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
        finally:
            await conn.close()

    def stop(self) -> None:
        for node in self.nodes:
            if node.proc.poll() is None:
                node.proc.send_signal(signal.SIGINT)
        for node in self.nodes:
            try:
                node.proc.wait(30)
            except subprocess.TimeoutExpired:
                node.proc.kill()
                node.proc.wait(10)


@dataclass
class NatsServer:
    """A private nats-server on a free port, for a test that stops or kills the bus."""

    directory: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    @staticmethod
    def binary() -> str | None:
        return shutil.which("nats-server") or next(
            (p for p in ("/usr/sbin/nats-server", "/usr/bin/nats-server") if Path(p).exists()), None
        )

    def start(self) -> None:
        binary = self.binary()
        assert binary is not None
        with (self.directory / "nats.log").open("ab") as log:  # (the server writes to its own copy)
            self.proc = subprocess.Popen(
                [binary, "-a", "127.0.0.1", "-p", str(self.port)], stdout=log, stderr=subprocess.STDOUT
            )
        waiting.wait_until(
            lambda: _port_open("127.0.0.1", self.port), timeout=30, what="the private nats-server listens"
        )

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


class BusLink:
    """A TCP relay between one node and the NATS server: :meth:`cut` cuts that node alone off the bus (its
    connections closed, new ones refused) while the others keep it; :meth:`mend` lets it back."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    async def mend(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)

    async def cut(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None
        for writer in list(self.writers):
            writer.close()
        self.writers.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self.writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, ConnectionError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.writers -= {writer, up_writer}


def dealt(lobby: dict[str, Any]) -> dict[str, int]:
    return {t["table"]: int(t["hands"]) for t in lobby["tables"]}

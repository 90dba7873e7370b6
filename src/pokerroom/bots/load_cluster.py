"""The cluster form of the load test (``pokerroom loadtest --cluster``; docs/cluster.md, "Capacity"): the
same tables and bots as the one-process test, served by ``hosts`` table hosts and ``gateways`` gateways,
each ``pokerroom serve --cluster`` in its own process, on a fresh PostgreSQL schema and a cluster name of
their own on the NATS server."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from pokerroom.bots.cpu_quota import CpuQuota

__all__ = ["PASSWORD", "LoadCluster", "cpu_seconds", "make_accounts"]

PASSWORD = "hunter-22-poker"

_TABLE = """
[[table]]
id = "load-{n}"
name = "Load {n}"
game = "holdem"
betting = "NL"
stakes = {{ small_blind = 10, big_blind = 20 }}
seats = 6
rake = {{ percent = 5, cap = 60 }}
"""

_ROOM = """
[room]
name = "load test"
bots_per_table = 0

[timing]
action = 15
time_bank = 30
between_hands = 1
"""


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds the processes ``pids`` have used (Linux's /proc; 0 elsewhere)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def make_accounts(store: Any, players: int) -> list[str]:
    from argon2 import PasswordHasher

    store.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    tokens = []
    for i in range(players):
        player = await store.accounts.register(f"load{i + 1}", PASSWORD)
        await store.ledger.play_money_top_up(player.id, idempotency_key=f"welcome:{player.id}")
        tokens.append((await store.accounts.login(f"load{i + 1}", PASSWORD)).token)
    return tokens


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LoadCluster:
    database: str  # postgresql+asyncpg://...
    bus: str  # nats://...
    hosts: int = 1
    gateways: int = 1
    name: str = field(default_factory=lambda: f"load{uuid.uuid4().hex[:8]}")
    schema: str = field(default_factory=lambda: f"load_{uuid.uuid4().hex[:10]}")
    urls: list[str] = field(default_factory=list)
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    host_pids: list[int] = field(default_factory=list)
    node_urls: list[str] = field(default_factory=list)
    host_urls: list[str] = field(default_factory=list)
    host_cpu: float | None = None  # each host's CPU quota in cores (a control group each), or no limit
    quotas: list[CpuQuota] = field(default_factory=list)
    _tmp: Any = None

    async def start(self, tables: int, players: int) -> list[str]:
        """Make the accounts, start the nodes, wait until every table is held; the players' tokens."""
        from pokerroom.store import Store

        if not self.database.startswith("postgresql"):
            raise ValueError("a cluster load test needs PostgreSQL (--database postgresql+asyncpg://...)")
        store = Store.open(self.database, schema=self.schema)
        try:
            await store.db.upgrade()
            tokens = await make_accounts(store, players)
        finally:
            await store.close()
        self._tmp = tempfile.TemporaryDirectory(prefix="pokerroom-load-cluster-")
        config = Path(self._tmp.name) / "room.toml"
        config.write_text(_ROOM + "".join(_TABLE.format(n=i + 1) for i in range(tables)))
        env = {**os.environ, "POKERROOM_DATABASE_SCHEMA": self.schema}
        roles = [("host", f"h{i + 1}") for i in range(self.hosts)]
        roles += [("gateway", f"g{i + 1}") for i in range(self.gateways)]
        for role, node in roles:
            port = _free_port()
            cmd = [
                sys.executable, "-m", "pokerroom", "serve", "--no-open", "--port", str(port),
                "--config", str(config), "--database", self.database, "--cluster", self.bus,
                "--cluster-name", self.name, "--role", role, "--node-id", node,
            ]  # fmt: skip
            log = (Path(self._tmp.name) / f"{node}.log").open("wb")
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
            self.procs.append(proc)
            self.node_urls.append(f"http://127.0.0.1:{port}")
            if role == "host":
                self.host_pids.append(proc.pid)
                self.host_urls.append(f"http://127.0.0.1:{port}")
                if self.host_cpu is not None:
                    quota = CpuQuota(f"pokerroom-{self.name}-{node}", self.host_cpu)
                    self.quotas.append(quota)
                    quota.add(proc.pid)
            else:
                self.urls.append(f"http://127.0.0.1:{port}")
        await self._wait(tables)
        if self.hosts > 1:
            await self._spread(tables)
        return tokens

    async def _wait(self, tables: int, limit: float = 600) -> None:
        deadline = time.monotonic() + limit
        async with httpx.AsyncClient(timeout=10) as http:
            while time.monotonic() < deadline:
                if any(p.poll() is not None for p in self.procs):
                    raise RuntimeError(f"a cluster node exited (its log is in {self._tmp.name})")
                with contextlib.suppress(httpx.HTTPError, KeyError, ValueError):
                    lobbies = [(await http.get(f"{u}/api/lobby")).json()["tables"] for u in self.urls]
                    if all(len(rows) == tables for rows in lobbies):
                        return
                await asyncio.sleep(0.5)
        raise RuntimeError("the cluster did not take every table in time")

    async def host_tables(self) -> list[int]:
        """The tables each host runs now (its ``pokerroom_tables`` gauge, cash tables in any state)."""
        counts = []
        async with httpx.AsyncClient(timeout=10) as http:
            for url in self.host_urls:
                n = 0
                with contextlib.suppress(httpx.HTTPError, ValueError):
                    for line in (await http.get(f"{url}/metrics")).text.splitlines():
                        if line.startswith('pokerroom_tables{kind="cash"'):
                            n += int(float(line.rsplit(" ", 1)[1]))
                counts.append(n)
        return counts

    async def _spread(self, tables: int, limit: float = 180) -> None:
        """Wait until the hosts' own placement has spread the tables evenly (each within one of an equal
        share): the hosts start together, in no special order, and the measurement starts from there."""
        deadline = time.monotonic() + limit
        counts: list[int] = []
        while time.monotonic() < deadline:
            counts = await self.host_tables()
            if sum(counts) == tables and max(counts) - min(counts) <= 1:
                return
            await asyncio.sleep(1.0)
        raise RuntimeError(f"the hosts did not spread {tables} tables evenly in {limit:g} s: {counts}")

    async def sample(self) -> dict[str, float]:
        """Counters for the capacity figures: the hosts' CPU seconds, the messages every node sent on the
        bus, and the transactions the hosts committed (their own count: the database's is shared with
        whatever else runs on it)."""
        sent = commits = 0.0
        async with httpx.AsyncClient(timeout=10) as http:
            for url in self.node_urls:
                with contextlib.suppress(httpx.HTTPError):
                    for line in (await http.get(f"{url}/metrics")).text.splitlines():
                        if line.startswith('pokerroom_bus_messages_total{direction="out"}'):
                            sent += float(line.rsplit(" ", 1)[1])
                        elif line.startswith("pokerroom_db_commits_total ") and url in self.host_urls:
                            commits += float(line.rsplit(" ", 1)[1])
        throttled = sum(q.throttled_seconds() for q in self.quotas)
        return {
            "host_cpu": cpu_seconds(self.host_pids),
            "bus_out": sent,
            "commits": commits,
            "throttled": throttled,
        }

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        for proc in self.procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
        with contextlib.suppress(Exception):
            import asyncpg

            conn = await asyncpg.connect(self.database.replace("postgresql+asyncpg", "postgresql"))
            try:
                await conn.execute(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE')
            finally:
                await conn.close()
        for quota in self.quotas:
            quota.remove()
        if self._tmp is not None:
            self._tmp.cleanup()

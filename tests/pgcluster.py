"""A private PostgreSQL cluster for the tests that stop, freeze or cut off a database.

Such a test never touches the machine's shared server: it makes its own cluster with ``initdb`` in a
temporary directory and runs it with ``pg_ctl`` on a free port (as the ``postgres`` user when the tests run
as root, since PostgreSQL refuses to run as root), with durability off for speed. ``stop``/``start``,
``freeze``/``thaw`` (SIGSTOP and SIGCONT to the postmaster and every backend) and ``terminate`` (end every
client connection) are the faults.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path

__all__ = ["PrivatePostgres", "pg_binaries"]


def pg_binaries() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl`` (Debian keeps them out of PATH), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    ctl = shutil.which("pg_ctl")
    return Path(ctl).parent if ctl else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivatePostgres:
    def __init__(self) -> None:
        binaries = pg_binaries()
        if binaries is None:
            raise RuntimeError("PostgreSQL's server binaries (initdb, pg_ctl) are not installed")
        self.bin = binaries
        # Its own directory under the system's temporary directory (which the postgres user can reach, as
        # it cannot reach pytest's private ones when the tests run as root).
        self.base = Path(tempfile.mkdtemp(prefix="pokerroom-pg-"))
        self.data = self.base / "data"
        self.sockets = self.base / "sockets"
        self.log = self.base / "server.log"
        self.port = _free_port()
        self.as_postgres = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        argv = [str(self.bin / command[0]), *command[1:]]
        if self.as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        return subprocess.run(argv, check=check, capture_output=True, text=True, timeout=120)

    def init(self) -> None:
        self.sockets.mkdir(parents=True, exist_ok=True)
        self.data.mkdir(parents=True, exist_ok=True)
        if self.as_postgres:
            shutil.chown(self.base, "postgres", "postgres")
            for path in (self.data, self.sockets):
                shutil.chown(path, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        self.start()

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=100"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start"
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop", check=False)

    def pids(self) -> list[int]:
        """The postmaster and every process it started."""
        head = (self.data / "postmaster.pid").read_text().split("\n")[0]
        root = int(head)
        out = [root]
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == root:
                out.append(int(entry))
        return out

    def freeze(self) -> None:
        for pid in self.pids():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.pids():
            os.kill(pid, signal.SIGCONT)

    def terminate(self) -> None:
        """End every client connection (as an operator's pg_terminate_backend would)."""
        self._run(
            "psql",
            "-h",
            str(self.sockets),
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-c",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'",
        )

    def destroy(self) -> None:
        self.thaw_quietly()
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)

    def thaw_quietly(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.thaw()

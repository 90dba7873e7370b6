"""A private ``nats-server`` run as docs/cluster.md ("A closed bus") tells an operator to run it: the
certificates made by the page's own script, the server started with the page's own configuration (only
the paths, the port and a monitoring port put in), so that the tests check what an operator copies."""

from __future__ import annotations

import os
import re
import shutil
import ssl
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import waiting
from tests.cluster.nodes import NatsServer, _port_open
from tests.server.conftest import free_port

DOC = Path(__file__).resolve().parents[2] / "docs" / "cluster.md"
NODES = ("g1", "g2", "h1", "h2")  # the users of the page's configuration
INTRUDER = "intruder"  # a certificate of the bus's authority that is no user


def doc_block(marker: str) -> str:
    """The fenced block after ``<!-- marker -->`` in docs/cluster.md."""
    text = DOC.read_text(encoding="utf-8")
    assert f"<!-- {marker} -->" in text, f"docs/cluster.md lost its {marker} block"
    found = re.search(r"```[a-z]*\n(.*?)```", text.split(f"<!-- {marker} -->", 1)[1], re.S)
    assert found is not None
    return found.group(1)


def _replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"the documented text no longer has {old!r} once"
    return text.replace(old, new)


def missing() -> str | None:
    """Why the closed bus cannot be run here (None: it can)."""
    if NatsServer.binary() is None:
        return "no nats-server binary (Debian's nats-server package)"
    if shutil.which("openssl") is None:
        return "no openssl command (to make the bus's certificates)"
    return None


def need_closed_bus() -> None:
    """Skip (or, with CI=true, fail) unless nats-server and openssl are here."""
    reason = missing()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {reason}")
        pytest.skip(reason)


def make_certificates(directory: Path, nodes: tuple[str, ...]) -> None:
    """Run the page's certificate script in ``directory`` for 127.0.0.1 and ``nodes``."""
    script = doc_block("bus-certificates")
    script = re.sub(r'^NATS_NAMES="[^"]*"', 'NATS_NAMES="DNS:localhost,IP:127.0.0.1"', script, flags=re.M)
    script = re.sub(r'^NODES="[^"]*"', f'NODES="{" ".join(nodes)}"', script, flags=re.M)
    directory.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["sh", "-c", script], cwd=directory, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode(errors="replace")


@dataclass
class ClosedBus:
    """The documented NATS server on free ports of 127.0.0.1, its files in ``directory``."""

    directory: Path
    port: int = field(default_factory=free_port)
    monitor: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    @property
    def certs(self) -> Path:
        return self.directory / "bus"

    def configuration(self) -> str:
        conf = doc_block("nats-server.conf")
        conf = conf.replace("/etc/nats/bus/", f"{self.certs}/")
        conf = _replace_once(conf, "listen: 0.0.0.0:4222", f"listen: 127.0.0.1:{self.port}")
        return _replace_once(conf, "# http: 127.0.0.1:8222", f"http: 127.0.0.1:{self.monitor}")

    def start(self) -> None:
        make_certificates(self.certs, (*NODES, INTRUDER))
        conf = self.directory / "nats-server.conf"
        conf.write_text(self.configuration())
        binary = NatsServer.binary()
        assert binary is not None
        checked = subprocess.run([binary, "-c", str(conf), "-t"], capture_output=True, timeout=30)
        assert checked.returncode == 0, checked.stderr.decode(errors="replace")
        with (self.directory / "nats.log").open("ab") as log:
            self.proc = subprocess.Popen([binary, "-c", str(conf)], stdout=log, stderr=subprocess.STDOUT)
        waiting.wait_until(
            lambda: _port_open("127.0.0.1", self.port), timeout=30, what="the closed nats-server listens"
        )

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def log(self) -> str:
        return (self.directory / "nats.log").read_text(errors="replace")

    def tls(self, node: str | None) -> ssl.SSLContext:
        """A client's TLS: the bus's authority, and ``node``'s certificate (None: no certificate)."""
        ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=str(self.certs / "ca.pem"))
        if node is not None:
            ctx.load_cert_chain(str(self.certs / f"{node}.pem"), str(self.certs / f"{node}-key.pem"))
        return ctx

    def cluster_section(self) -> str:
        """The ``[cluster]`` section of a node's configuration, as documented, for these files."""
        return (
            "\n[cluster]\n"
            f'ca = "{self.certs}/ca.pem"\n'
            f'cert = "{self.certs}/{{node}}.pem"\n'
            f'key = "{self.certs}/{{node}}-key.pem"\n'
        )

    async def connections(self) -> list[dict[str, Any]]:
        """The server's client connections (its monitoring ``/connz``, with their users)."""
        async with httpx.AsyncClient(timeout=10) as http:
            r = await http.get(f"http://127.0.0.1:{self.monitor}/connz", params={"auth": "1"})
        return r.json()["connections"]  # type: ignore[no-any-return]


@dataclass
class PlainNats(NatsServer):
    """An ordinary nats-server (no TLS, no users: an impostor, or a misconfigured server), with its
    monitoring port, whose ``/connz`` says what each client sent it."""

    monitor: int = field(default_factory=free_port)

    def start(self) -> None:
        binary = self.binary()
        assert binary is not None
        args = [binary, "-a", "127.0.0.1", "-p", str(self.port), "-m", str(self.monitor)]
        with (self.directory / "plain-nats.log").open("ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        waiting.wait_until(
            lambda: _port_open("127.0.0.1", self.port), timeout=30, what="the plain nats-server listens"
        )

    async def connections(self, state: str = "all") -> list[dict[str, Any]]:
        async with httpx.AsyncClient(timeout=10) as http:
            r = await http.get(f"http://127.0.0.1:{self.monitor}/connz", params={"state": state})
        return r.json()["connections"]  # type: ignore[no-any-return]

"""The README's run command: ``pokerroom serve`` starts the room, prints the address at once, serves the
browser client and seats bots (issue: server, `pokerroom serve`)."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from pokerroom.engine import BUILD
from tests.cli.output import pump, wait_line
from tests.server.conftest import free_port


def _wait_for(lines: queue.Queue[str], text: str, timeout: float, seen: list[str]) -> None:
    wait_line(lines, lambda line: text in line, timeout, seen)


def test_serve_opens_the_room_with_the_client_and_bots(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    env.pop("POKERROOM_DATABASE_URL", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pokerroom",
            "serve",
            "--port",
            str(port),
            "--no-open",
            "--bots-per-table",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    seen: list[str] = []
    try:
        lines = pump(proc)
        _wait_for(lines, f"open http://127.0.0.1:{port}/", 120, seen)  # at once, before the bots log in
        engine = "hand engine: compiled" if BUILD == "mypyc" else "hand engine: pure Python"
        _wait_for(lines, engine, 10, seen)  # the build that runs is said at the start
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=10)
        assert page.status_code == 200 and "<title>pokerroom</title>" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/static/js/main.js", timeout=10).status_code == 200
        login = httpx.post(
            f"http://127.0.0.1:{port}/api/login",
            json={"name": "demo", "password": "play-poker-for-fun"},
            timeout=10,
        )
        assert login.status_code == 200, login.text
        _wait_for(lines, "bots seated", 240, seen)
        lobby = httpx.get(f"http://127.0.0.1:{port}/api/lobby", timeout=10).json()
        assert len(lobby["tables"]) >= 14  # a table per game and structure
        assert sum(p["entries"] for p in lobby["pools"]) > 0  # Rush bots are in their pool
        assert (tmp_path / "data").exists()  # the SQLite database lives in the user data directory
        # The shipped room's programme (issue 15): sit-and-gos with bots already registered, and scheduled
        # tournaments (a freeroll, a rebuy, the Game of the Week, the Big Game) starting within minutes.
        groups = httpx.get(f"http://127.0.0.1:{port}/api/tournaments", timeout=10).json()
        rows = [r for rows in groups.values() for r in rows]
        sngs = [r for r in rows if r["kind"] == "sng"]
        assert sorted(r["level_minutes"] for r in sngs if not r.get("mix")) == [3, 5, 10]
        assert [r["mix"]["code"] for r in sngs if r["mix"]] == ["horse"]  # and a H.O.R.S.E. one (issue 36)
        assert all(0 < r["entrants"] < r["max_players"] for r in sngs), sngs
        mtts = [r for r in rows if r["kind"] == "mtt"]
        assert any(r["freeroll"] for r in mtts) and any(r["rebuy_levels"] and r["add_on"] for r in mtts)
        assert any(r["guarantee"] and r["featured"] for r in mtts)
        assert any(r["satellite_to"] for r in mtts)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

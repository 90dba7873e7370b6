"""Issue 34, defect 8: without ``--origin`` a DNS-rebinding page could log in. A room that names no origin
takes the one each request names (its ``Host``); a page of ``evil.example``, whose name the attacker points
at the room's address, sends ``Host: evil.example:8000`` and ``Origin: http://evil.example:8000``, which
agree, and logs in (or registers, or plays) as the victim's browser. Now ``pokerroom serve`` refuses to
start listening beyond loopback without ``--origin`` (exit 2, saying why), and a named origin refuses such
a page (``403 bad_origin``)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest
import typer
from typer.testing import CliRunner

from pokerroom.cli import app
from pokerroom.cli.serve import check_exposure, loopback
from pokerroom.server.security import SecuritySettings

from .securityhelpers import client, secure_server
from .wire import PASSWORD

runner = CliRunner()


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10", "poker.example.com"])
def test_serving_beyond_loopback_needs_an_origin(tmp_path: Path, host: str) -> None:
    database = tmp_path / "room.db"
    args = ["serve", "--host", host, "--port", "0", "--no-open", "--no-bots"]
    result = runner.invoke(app, [*args, "--database", f"sqlite+aiosqlite:///{database}"])
    assert result.exit_code == 2, result.output
    assert "--origin" in result.output and "DNS rebinding" in result.output
    assert not database.exists()  # nothing was started or touched


def test_an_origin_must_be_an_origin(tmp_path: Path) -> None:
    database = tmp_path / "room.db"
    for bad in ("poker.example.com", "https://poker.example.com/lobby", "null", "ftp://poker.example.com"):
        args = ["serve", "--host", "0.0.0.0", "--origin", bad, "--no-open", "--no-bots"]
        result = runner.invoke(app, [*args, "--database", f"sqlite+aiosqlite:///{database}"])
        assert result.exit_code == 2 and "not an origin" in result.output, result.output
    assert not database.exists()


def test_what_counts_as_loopback() -> None:
    for host in ("127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"):
        assert loopback(host)
        check_exposure(host, ())  # no --origin needed
    for host in ("0.0.0.0", "::", "10.0.0.5", "poker.example.com", ""):
        assert not loopback(host)
        with pytest.raises(typer.Exit):
            check_exposure(host, ())
        check_exposure(host, ("https://poker.example.com",))
    check_exposure("0.0.0.0", (), role="host")  # a cluster's table host serves no players


@pytest.mark.asyncio
async def test_a_named_origin_refuses_a_rebinding_page(tmp_path: Path) -> None:
    async with secure_server(tmp_path) as unnamed:
        rebinding = _rebinding_headers(unnamed.url)
        async with client(unnamed) as page:
            r = await page.post(
                "/api/register", json={"name": "victim", "password": PASSWORD}, headers=rebinding
            )
            assert r.status_code == 200  # what an unnamed origin lets through: why serve now requires one
    settings = SecuritySettings(origins=("https://poker.example.com",))
    (tmp_path / "named").mkdir()
    async with secure_server(tmp_path / "named", settings) as named, client(named) as page:
        rebinding = _rebinding_headers(named.url)
        r = await page.post("/api/register", json={"name": "victim", "password": PASSWORD}, headers=rebinding)
        assert r.status_code == 403 and r.json()["code"] == "bad_origin"
        assert await named.room.store.accounts.count() == 0
        own = {"Origin": "https://poker.example.com"}
        r = await page.post("/api/register", json={"name": "alice", "password": PASSWORD}, headers=own)
        assert r.status_code == 200, r.text


def _rebinding_headers(url: str) -> dict[str, str]:
    port = urlsplit(url).port
    return {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}

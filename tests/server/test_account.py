"""Accounts players manage (issue 29, item 4) over HTTP, with the room's mail kept in memory: the password
change (the other sessions end, this one stays), the e-mail address and its verification link, "forgot
password?" (one answer whether or not an account matched; a room without [mail] says resets are off), the
throttles, and the operator's forced reset whose code the same endpoint takes, announced by the login."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
import uvicorn

from pokerroom.server.app import create_app
from pokerroom.server.http_account import AccountLimits
from pokerroom.server.mail import Mailer, MailService, MailSettings, Outbox
from pokerroom.server.room import RoomSettings
from pokerroom.server.security import SecuritySettings
from pokerroom.store import Database, Role, Store
from tests.store.storehelpers import FakeClock
from tests.waiting import until

from .conftest import FAST_HASHER, free_port, start_serving
from .wire import PASSWORD

NEW = "a-brand-new-pass-phrase-42"
SETTINGS = MailSettings(host="127.0.0.1", from_address="room@poker.test", public_url="https://poker.test")


@dataclass
class Ticks:
    """A monotonic clock for the throttles that moves only when told."""

    t: float = 1000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class AccountRoom:
    http: httpx.AsyncClient
    store: Store
    clock: FakeClock  # the store's
    ticks: Ticks  # the throttles'
    sent: Callable[[], list[EmailMessage]]  # the mails the room sent, in order

    async def register(self, name: str) -> dict[str, str]:
        r = await self.http.post("/api/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        self.http.cookies.clear()
        return {"Authorization": f"Bearer {r.json()['token']}"}

    async def login(self, name: str, password: str = PASSWORD) -> dict[str, str]:
        r = await self.http.post("/api/login", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        self.http.cookies.clear()
        return {"Authorization": f"Bearer {r.json()['token']}"}

    async def mail(self, n: int) -> EmailMessage:
        """The ``n``-th mail sent (1-based), once it is."""
        await until(lambda: len(self.sent()) >= n, timeout=20, what=f"mail #{n} is sent")
        return self.sent()[n - 1]


@contextlib.asynccontextmanager
async def account_room(
    tmp: Path,
    *,
    mailer: Mailer | None,
    limits: AccountLimits | None = None,
    sent: Callable[[], list[EmailMessage]] | None = None,
) -> AsyncIterator[AccountRoom]:
    """A room with no tables on a fresh SQLite store with a fake clock, its mail sent with ``mailer`` (None:
    a room without [mail])."""
    clock, ticks = FakeClock(), Ticks()
    store = Store(Database(f"sqlite+aiosqlite:///{tmp / 'room.db'}"), clock=clock, hasher=FAST_HASHER)
    await store.db.upgrade()
    app = create_app(store, RoomSettings(), security=SecuritySettings(clock=ticks))
    app.state.mail = None if mailer is None else MailService(SETTINGS, mailer)
    if limits is not None:
        app.state.account_limits = limits
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    )
    task = await start_serving(server)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            yield AccountRoom(http, store, clock, ticks, sent or (lambda: []))
    finally:
        server.should_exit = True
        await task


@contextlib.asynccontextmanager
async def outbox_room(tmp: Path, limits: AccountLimits | None = None) -> AsyncIterator[AccountRoom]:
    box = Outbox()
    async with account_room(tmp, mailer=box, limits=limits, sent=lambda: box.sent) as room:
        yield room


def link_param(msg: EmailMessage, name: str) -> str:
    body = msg.get_content()
    m = re.search(rf"https://poker\.test/#[a-z-]+\?\S*{name}=([A-Za-z0-9_%-]+)", body)
    assert m, body
    return m.group(1)


@pytest.mark.asyncio
async def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(tmp_path: Path) -> None:
    async with outbox_room(tmp_path) as room:
        here = await room.register("alice")
        there = await room.login("alice")
        url = "/api/account/password"
        r = await room.http.post(url, json={"old": "not-my-password-at-all", "new": NEW}, headers=here)
        assert r.status_code == 400 and r.json()["code"] == "wrong_password"
        r = await room.http.post(url, json={"old": PASSWORD, "new": "short"}, headers=here)
        assert r.status_code == 400 and r.json()["code"] == "weak_password"
        for bad in (
            {"old": PASSWORD, "new": 12345678901234567},
            {"old": PASSWORD},
            {"old": True, "new": NEW},
        ):
            assert (await room.http.post(url, json=bad, headers=here)).status_code == 422
        assert (await room.http.post(url, json={"old": PASSWORD, "new": NEW})).status_code == 401  # anonymous
        assert (await room.http.get("/api/account", headers=there)).status_code == 200  # nothing changed yet
        r = await room.http.post(url, json={"old": PASSWORD, "new": NEW}, headers=here)
        assert r.status_code == 200 and r.json() == {"ok": True, "ended_sessions": 1}
        assert (await room.http.get("/api/account", headers=here)).status_code == 200
        assert (await room.http.get("/api/account", headers=there)).status_code == 401
        bad_login = await room.http.post("/api/login", json={"name": "alice", "password": PASSWORD})
        assert bad_login.status_code == 401
        await room.login("alice", NEW)


@pytest.mark.asyncio
async def test_an_address_is_verified_by_the_link_mailed_to_it(tmp_path: Path) -> None:
    async with outbox_room(tmp_path) as room:
        me = await room.register("alice")
        r = await room.http.get("/api/account/settings", headers=me)
        assert r.json() == {"name": "alice", "email": None, "mail_enabled": True}
        body = {"password": "wrong-password-here", "address": "alice@example.com"}
        r = await room.http.post("/api/account/email", json=body, headers=me)
        assert r.status_code == 400 and r.json()["code"] == "wrong_password"
        r = await room.http.post(
            "/api/account/email", json={"password": PASSWORD, "address": "no-at-sign"}, headers=me
        )
        assert r.status_code == 400 and r.json()["code"] == "invalid_email"
        r = await room.http.post(
            "/api/account/email", json={"password": PASSWORD, "address": "alice@example.com"}, headers=me
        )
        assert r.status_code == 200 and r.json()["email"] == {
            "address": "alice@example.com",
            "verified": False,
        }
        msg = await room.mail(1)
        assert msg["To"] == "alice@example.com" and msg["From"] == "room@poker.test"
        token = link_param(msg, "token")
        r = await room.http.post("/api/account/email/verify", json={"token": "made-up"})
        assert r.status_code == 400 and r.json()["code"] == "invalid_link"
        r = await room.http.post("/api/account/email/verify", json={"token": token})
        assert r.status_code == 200 and r.json()["player"]["name"] == "alice"
        r = await room.http.get("/api/account/settings", headers=me)
        assert r.json()["email"] == {"address": "alice@example.com", "verified": True}
        again = await room.http.post("/api/account/email/verify", json={"token": token})
        assert again.status_code == 400  # used once


@pytest.mark.asyncio
async def test_forgot_answers_alike_whether_or_not_an_account_matches(tmp_path: Path) -> None:
    async with outbox_room(tmp_path) as room:
        me = await room.register("alice")
        await room.register("bob")  # no address
        await room.http.post(
            "/api/account/email", json={"password": PASSWORD, "address": "alice@example.com"}, headers=me
        )
        await room.http.post(
            "/api/account/email/verify", json={"token": link_param(await room.mail(1), "token")}
        )
        answers = []
        for who in ("nobody", "bob", "nobody@example.com", "alice@example.com"):
            r = await room.http.post("/api/account/forgot", json={"who": who})
            answers.append((r.status_code, r.json()))
        assert len(set(map(str, answers))) == 1 and answers[0][0] == 202
        msg = await room.mail(2)
        assert msg["To"] == "alice@example.com"
        assert link_param(msg, "name") == "alice"
        code = link_param(msg, "code")
        r = await room.http.post(
            "/api/account/reset-password", json={"name": "alice", "code": code, "password": NEW}
        )
        assert r.status_code == 200, r.text
        await room.login("alice", NEW)
        assert len(room.sent()) == 2  # nothing for the others
        assert (await room.http.post("/api/account/forgot", json={"who": 7})).status_code == 422


@pytest.mark.asyncio
async def test_a_room_without_mail_says_resets_are_off(tmp_path: Path) -> None:
    async with account_room(tmp_path, mailer=None) as room:
        me = await room.register("alice")
        assert (await room.http.get("/api/account/mail")).json() == {"enabled": False}
        r = await room.http.post("/api/account/forgot", json={"who": "alice"})
        assert r.status_code == 503 and r.json()["detail"]["code"] == "mail_off"
        r = await room.http.post(
            "/api/account/email", json={"password": PASSWORD, "address": "alice@example.com"}, headers=me
        )
        assert r.status_code == 503 and r.json()["detail"]["code"] == "mail_off"
        assert await room.store.account_mail.email((await room.store.accounts.find("alice")).id) is None


@pytest.mark.asyncio
async def test_reset_requests_and_code_tries_are_throttled_per_address(tmp_path: Path) -> None:
    limits = AccountLimits(request_rate=1 / 60, request_burst=2, attempt_rate=1 / 60, attempt_burst=3)
    async with outbox_room(tmp_path, limits) as room:
        for _ in range(2):
            assert (await room.http.post("/api/account/forgot", json={"who": "x1y2z3"})).status_code == 202
        r = await room.http.post("/api/account/forgot", json={"who": "x1y2z3"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_resets"
        assert int(r.headers["Retry-After"]) > 0
        room.ticks.t += 60
        assert (await room.http.post("/api/account/forgot", json={"who": "x1y2z3"})).status_code == 202
        body = {"name": "alice", "code": "ABCDE-FGHJK", "password": NEW}
        for _ in range(3):
            assert (await room.http.post("/api/account/reset-password", json=body)).status_code == 401
        r = await room.http.post("/api/account/reset-password", json=body)
        assert r.status_code == 429 and r.json()["code"] == "too_many_resets"


@pytest.mark.asyncio
async def test_the_forced_reset_is_announced_at_login_and_its_code_resets(tmp_path: Path) -> None:
    async with outbox_room(tmp_path) as room:
        await room.register("alice")
        await room.register("boss")
        boss = await room.store.accounts.find("boss")
        await room.store.accounts.set_role(boss.id, Role.ADMIN)
        admin = await room.login("boss")
        alice = await room.store.accounts.find("alice")
        r = await room.http.post(f"/api/console/players/{alice.id}/reset-password", headers=admin)
        code = r.json()["code"]
        # the console shows a pending reset, not a bot (it showed a bot: an account with no password)
        r = await room.http.get(f"/api/console/players/{alice.id}", headers=admin)
        assert r.json()["player"]["reset_pending"] is True and r.json()["player"]["bot"] is False
        r = await room.http.post("/api/login", json={"name": "alice", "password": PASSWORD})
        assert r.status_code == 400 and r.json()["code"] == "password_reset_required"
        r = await room.http.post(
            "/api/account/reset-password", json={"name": "alice", "code": code, "password": NEW}
        )
        assert r.status_code == 200, r.text
        await room.login("alice", NEW)
        r = await room.http.get(f"/api/console/players/{alice.id}", headers=admin)
        assert r.json()["player"]["reset_pending"] is False


@pytest.mark.asyncio
async def test_a_mailed_code_expires_on_the_injected_clock(tmp_path: Path) -> None:
    async with outbox_room(tmp_path) as room:
        me = await room.register("alice")
        await room.http.post(
            "/api/account/email", json={"password": PASSWORD, "address": "alice@example.com"}, headers=me
        )
        await room.http.post(
            "/api/account/email/verify", json={"token": link_param(await room.mail(1), "token")}
        )
        await room.http.post("/api/account/forgot", json={"who": "alice"})
        code = link_param(await room.mail(2), "code")
        room.clock.advance(timedelta(minutes=31))
        r = await room.http.post(
            "/api/account/reset-password", json={"name": "alice", "code": code, "password": NEW}
        )
        assert r.status_code == 401 and r.json()["code"] == "bad_credentials"


def test_the_mail_section_is_checked_key_by_key() -> None:
    from pokerroom.server.config import ConfigInvalid
    from pokerroom.server.config.parse import parse_config

    good = (
        '[mail]\nhost = "smtp.example.com"\nfrom_address = "poker@example.com"\n'
        'public_url = "https://poker.example.com"\nsecurity = "ssl"\nuser = "poker"\npassword_file = "pw"\n'
    )
    mail = parse_config(good, source="/etc/room/room.toml").mail
    assert mail is not None and mail.port == 465 and mail.security == "ssl"
    assert mail.password_file == "/etc/room/pw" and "pw" not in repr(mail)  # (no secret's path in logs)
    assert parse_config("[room]\n").mail is None  # no [mail]: e-mail is off
    bad = '[mail]\nhost = 3\nport = true\nsecurity = "tls"\nfrom_address = "nobody"\nuser = "u"\nsmtp = 1\n'
    with pytest.raises(ConfigInvalid) as refused:
        parse_config(bad)
    said = {(p.path, p.line) for p in refused.value.problems}
    assert said == {
        ("mail.host", 2),
        ("mail.port", 3),
        ("mail.security", 4),
        ("mail.from_address", 5),
        ("mail.password_file", 1),
        ("mail.public_url", 1),
        ("mail.smtp", 7),
    }


class Failing:
    """A mailer whose server is down: it keeps what it was given, then fails."""

    def __init__(self) -> None:
        self.given: list[EmailMessage] = []

    async def send(self, message: EmailMessage) -> None:
        self.given.append(message)
        raise ConnectionRefusedError("the mail server is down")


@pytest.mark.asyncio
async def test_a_mail_server_down_changes_no_answer_and_nothing_secret_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    box = Failing()
    async with account_room(tmp_path, mailer=box, sent=lambda: box.given) as room:
        me = await room.register("alice")
        r = await room.http.post(
            "/api/account/email", json={"password": PASSWORD, "address": "alice@example.com"}, headers=me
        )
        assert r.status_code == 200
        token = link_param(await room.mail(1), "token")
        await room.http.post("/api/account/email/verify", json={"token": token})
        with caplog.at_level("DEBUG"):
            r = await room.http.post("/api/account/forgot", json={"who": "alice"})
            assert r.status_code == 202
            code = link_param(await room.mail(2), "code")
            await until(
                lambda: any(getattr(x, "mail", None) == "reset_code" for x in caplog.records),
                timeout=20,
                what="the failed sending is logged",
            )
        logged = " ".join(f"{x.getMessage()} {vars(x)}" for x in caplog.records)
        assert "ConnectionRefusedError" in logged
        for secret in (code, code[:5], token, PASSWORD, "alice@example.com"):
            assert secret not in logged

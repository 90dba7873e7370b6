"""An e-mail reset end to end through a local SMTP server (issue 29, item 4): the room sends through the
SMTP mailer to an aiosmtpd server this test starts on a free port; the test reads each message as it
arrived there, verifies the address with the mailed link, asks for a reset, uses the mailed code, logs in
with the new password; the code fails the second time, and a later code fails once the injected clock is
past its life."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from pokerroom.server.mail import SmtpMailer

from .conftest import free_port
from .test_account import NEW, SETTINGS, account_room, link_param
from .wire import PASSWORD


class Catcher:
    """An aiosmtpd handler that keeps every message it is given (parsed), with its envelope."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], EmailMessage]] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        with self.lock:
            self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), msg))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Catcher, int]]:
    catcher = Catcher()
    port = free_port()
    controller = Controller(catcher, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield catcher, port
    finally:
        controller.stop()


@pytest.mark.asyncio
async def test_a_reset_by_email_end_to_end_through_a_local_smtp_server(
    tmp_path: Path, smtp: tuple[Catcher, int]
) -> None:
    catcher, port = smtp
    mailer = SmtpMailer(replace(SETTINGS, port=port, security="none"))
    async with account_room(
        tmp_path, mailer=mailer, sent=lambda: [m for _, _, m in catcher.messages]
    ) as room:
        me = await room.register("alice")
        r = await room.http.post(
            "/api/account/email", json={"password": PASSWORD, "address": "alice@example.com"}, headers=me
        )
        assert r.status_code == 200, r.text
        verify = await room.mail(1)
        sender, rcpts, _ = catcher.messages[0]
        assert sender == "room@poker.test" and rcpts == ["alice@example.com"]
        r = await room.http.post("/api/account/email/verify", json={"token": link_param(verify, "token")})
        assert r.status_code == 200, r.text

        r = await room.http.post("/api/account/forgot", json={"who": "alice@example.com"})
        assert r.status_code == 202
        mail = await room.mail(2)
        assert mail["To"] == "alice@example.com" and "reset" in mail["Subject"].lower()
        code = link_param(mail, "code")
        assert f"{code[:5]}-{code[5:]}" in mail.get_content()  # the code as a person types it
        body = {"name": "alice", "code": f"{code[:5]}-{code[5:]}", "password": NEW}
        r = await room.http.post("/api/account/reset-password", json=body)
        assert r.status_code == 200, r.text
        assert (await room.http.get("/api/account", headers=me)).status_code == 401  # sessions ended
        await room.login("alice", NEW)
        r = await room.http.post("/api/account/reset-password", json={**body, "password": NEW + "-again"})
        assert r.status_code == 401 and r.json()["code"] == "bad_credentials"  # used once

        await room.http.post("/api/account/forgot", json={"who": "alice"})
        late = link_param(await room.mail(3), "code")
        room.clock.advance(timedelta(minutes=30))
        r = await room.http.post(
            "/api/account/reset-password", json={"name": "alice", "code": late, "password": NEW + "-later"}
        )
        assert r.status_code == 401  # expired
        await room.login("alice", NEW)

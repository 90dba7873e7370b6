"""Sending the room's e-mail (issue 29): password-reset codes and address-verification links.

:class:`Mailer` is the interface: :class:`SmtpMailer` sends through the SMTP server the configuration's
``[mail]`` names (the standard library's ``smtplib`` in a worker thread, so the event loop never waits on
the network), :class:`Outbox` keeps messages in memory (tests of the logic). A room without ``[mail]`` has
no mailer: e-mail resets are off and the page says to ask the operator.

Nothing here logs a code, a link, a password or a body: a sent mail is logged by its kind only, and a
failure by the exception's class."""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import quote, urlsplit

__all__ = [
    "MailService",
    "MailSettings",
    "Mailer",
    "Outbox",
    "SmtpMailer",
    "deliver",
    "mail_service",
    "mail_settings",
    "reset_message",
    "verify_message",
]

log = logging.getLogger("pokerroom.mail")
Security = Literal["starttls", "ssl", "none"]


@dataclass(frozen=True)
class MailSettings:
    """The configuration's ``[mail]``: the SMTP server (``host``, ``port``), how the connection is
    secured (``security``: ``starttls``, ``ssl`` or ``none``), the sender (``from_address``), an
    optional login (``user``, with the password read from ``password_file`` at each sending, never given
    on a command line), and the room's public address (``public_url``) that links in mails point to."""

    host: str
    from_address: str
    public_url: str
    port: int = 587
    security: Security = "starttls"
    user: str | None = None
    password_file: str | None = field(default=None, repr=False)
    timeout: float = 20.0

    def password(self) -> str | None:
        if self.password_file is None:
            return None
        return Path(self.password_file).read_text(encoding="utf-8").strip()


MAIL_KEYS = ("host", "port", "security", "from_address", "user", "password_file", "public_url", "timeout")


def mail_settings(data: Any, base: str) -> tuple[MailSettings | None, list[tuple[str, str]]]:
    """The ``[mail]`` section's settings, and its problems as (key, message) pairs (the configuration's
    reader reports them with their lines). ``password_file`` is relative to ``base`` (the configuration
    file's folder); it is read when a mail is sent, so it may be replaced without a restart."""
    if not isinstance(data, dict):
        return None, [("", "must be a table")]
    problems = [(k, f"unknown key (known: {', '.join(MAIL_KEYS)})") for k in data if k not in MAIL_KEYS]

    def text(key: str, default: str | None = None) -> str | None:
        value = data.get(key, default)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            problems.append((key, "must be a non-empty string"))
            return default
        return value

    host, sender, url = text("host"), text("from_address"), text("public_url")
    for key, value in (("host", host), ("from_address", sender), ("public_url", url)):
        if value is None and not any(k == key for k, _ in problems):
            problems.append((key, "is required in [mail]"))
    if sender is not None and ("@" not in sender or any(c in sender for c in "\r\n")):
        problems.append(("from_address", "must be an e-mail address"))
    if url is not None and (urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc):
        problems.append(("public_url", "must be the room's address, e.g. https://poker.example.com"))
    security = data.get("security", "starttls")
    if security not in ("starttls", "ssl", "none"):
        problems.append(("security", "must be starttls, ssl or none"))
        security = "starttls"
    port = data.get("port", 465 if security == "ssl" else 587)
    if isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536:
        problems.append(("port", "must be a port number (1-65535)"))
        port = 587
    timeout = data.get("timeout", 20.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= 300:
        problems.append(("timeout", "must be seconds, more than 0 and at most 300"))
        timeout = 20.0
    user, secret = text("user"), text("password_file")
    if (user is None) != (secret is None):
        problems.append(("user" if user is None else "password_file", "user and password_file go together"))
    if secret is not None:
        secret = str(Path(base) / secret)
    if problems or host is None or sender is None or url is None:
        return None, problems
    settings = MailSettings(
        host=host,
        from_address=sender,
        public_url=url,
        port=port,
        security=security,
        user=user,
        password_file=secret,
        timeout=float(timeout),
    )
    return settings, problems


class Mailer(Protocol):
    """Sends one message (raises on failure)."""

    async def send(self, message: EmailMessage) -> None: ...


class SmtpMailer:
    """A :class:`Mailer` over SMTP, with the ``[mail]`` settings."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    async def send(self, message: EmailMessage) -> None:
        await asyncio.to_thread(self._send, message)

    def _send(self, message: EmailMessage) -> None:
        s = self.settings
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if s.security == "ssl":
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        with smtp:
            if s.security == "starttls":
                smtp.starttls(context=context)
            if s.user:
                smtp.login(s.user, s.password() or "")
            smtp.send_message(message)


@dataclass
class Outbox:
    """A :class:`Mailer` that keeps what it is given (tests)."""

    sent: list[EmailMessage] = field(default_factory=list)

    async def send(self, message: EmailMessage) -> None:
        self.sent.append(message)


@dataclass(frozen=True)
class MailService:
    """What the room sends mail with: its ``[mail]`` settings and a mailer (``app.state.mail``)."""

    settings: MailSettings
    mailer: Mailer


def mail_service(settings: MailSettings | None) -> MailService | None:
    """The room's mail: None (e-mail off) without ``[mail]``."""
    return None if settings is None else MailService(settings, SmtpMailer(settings))


def _message(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or None)
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(body)
    return msg


def _when(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")


def reset_message(
    settings: MailSettings, *, to: str, player: str, code: str, expires_at: datetime
) -> EmailMessage:
    """The mail with a reset code, and a link to the reset page with the name and code filled in."""
    link = f"{settings.public_url.rstrip('/')}/#reset?name={quote(player)}&code={quote(code)}"
    body = (
        f"Someone asked to reset the password of the account {player}.\n\n"
        f"Your code: {code[:5]}-{code[5:]}\n\n"
        f"Enter it on the room's page (Log in > Forgot password?), or open:\n{link}\n\n"
        f"The code works once, until {_when(expires_at)}. If you did not ask for it, ignore this mail:\n"
        "your password stays as it is.\n"
    )
    return _message(settings.from_address, to, "Your password reset code", body)


def verify_message(
    settings: MailSettings, *, to: str, player: str, token: str, expires_at: datetime
) -> EmailMessage:
    """The mail with the link that verifies an address."""
    link = f"{settings.public_url.rstrip('/')}/#verify-email?token={quote(token)}"
    body = (
        f"The account {player} gave this address for password resets.\n\n"
        f"To confirm it, open this link (it works until {_when(expires_at)}):\n{link}\n\n"
        "If that was not you, ignore this mail: the address is not used until it is confirmed.\n"
    )
    return _message(settings.from_address, to, "Confirm your e-mail address", body)


async def deliver(mailer: Mailer, message: EmailMessage, kind: str) -> bool:
    """Send a message; a failure is logged (its kind and the error's class, nothing of the message) and
    answers False."""
    try:
        await mailer.send(message)
    except Exception as exc:  # (a mail server down must not fail the player's request)
        log.warning("mail not sent", extra={"mail": kind, "error": type(exc).__name__})
        return False
    log.info("mail sent", extra={"mail": kind})
    return True

"""Accounts players manage themselves (issue 29; docs/accounts.md): change the password, an e-mail
address verified by a link, and "forgot password?" by a code sent to it. Setting the new password with a
code (the e-mail's or the operator's forced reset's) is ``POST /api/account/reset-password``
(server/console/reset.py).

The mail goes out after the answer (a background task): the answer is the same whether an account matched
or not, and never waits on the mail server (whose delay would tell). Requests for codes and attempts to use
one are throttled per client address here, and per account in the store (store/account_mail.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Header, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field

from pokerroom.server.http import COOKIE, Me
from pokerroom.server.mail import MailService, deliver, reset_message, verify_message
from pokerroom.server.security import SecuritySettings
from pokerroom.server.sessions import SessionSockets
from pokerroom.server.throttle import RateBuckets, TooManyAttempts, address_key
from pokerroom.store import Store

__all__ = ["AccountLimits", "TooManyResets", "check_reset_attempt", "router"]

router = APIRouter(prefix="/api/account", tags=["accounts"])


class TooManyResets(TooManyAttempts):
    """Too many reset requests (or reset codes tried) from this address: try again in ``retry_after``."""

    code = "too_many_resets"
    what = "too many password-reset requests from this address"


@dataclass(frozen=True)
class AccountLimits:
    """Per client address: reset mails asked for (``request_rate`` per second, in bursts of
    ``request_burst``) and reset codes tried (``attempt_rate``, ``attempt_burst``)."""

    request_rate: float = 1 / 300
    request_burst: float = 5.0
    attempt_rate: float = 1 / 60
    attempt_burst: float = 10.0


class _Guard:
    def __init__(self, limits: AccountLimits) -> None:
        self.requests = RateBuckets(limits.request_rate, limits.request_burst)
        self.attempts = RateBuckets(limits.attempt_rate, limits.attempt_burst)


def _guard(request: Request) -> _Guard:
    state = request.app.state
    guard = getattr(state, "account_guard", None)
    if guard is None:
        guard = state.account_guard = _Guard(getattr(state, "account_limits", None) or AccountLimits())
    return guard


def _throttle(request: Request, buckets: RateBuckets) -> None:
    security: SecuritySettings = request.app.state.security
    address = address_key(request.client.host if request.client else None)
    wait = buckets.take(address, security.clock())
    if wait > 0:
        raise TooManyResets(max(1, int(wait + 0.999)))


def check_reset_attempt(request: Request) -> None:
    """Count a try of a reset code against its client address (TooManyResets when over the limit)."""
    _throttle(request, _guard(request).attempts)


def _store(request: Request) -> Store:
    store: Store = request.app.state.front.store
    return store


def _mail(request: Request) -> MailService | None:
    mail: MailService | None = getattr(request.app.state, "mail", None)
    return mail


def _mail_off() -> HTTPException:
    return HTTPException(
        503,
        detail={
            "code": "mail_off",
            "message": "this room sends no e-mail: ask the operator to reset your password",
        },
    )


class PasswordIn(BaseModel):
    model_config = ConfigDict(strict=True)
    old: Annotated[str, Field(min_length=1, max_length=200)]
    new: Annotated[str, Field(min_length=1, max_length=200)]


class EmailIn(BaseModel):
    model_config = ConfigDict(strict=True)
    password: Annotated[str, Field(min_length=1, max_length=200)]
    address: Annotated[str, Field(max_length=254, description='"" removes the address')]


class VerifyIn(BaseModel):
    model_config = ConfigDict(strict=True)
    token: Annotated[str, Field(min_length=1, max_length=100)]


class ForgotIn(BaseModel):
    model_config = ConfigDict(strict=True)
    who: Annotated[str, Field(min_length=1, max_length=254, description="the account's name or e-mail")]


@router.get("/mail")
async def mail_status(request: Request) -> dict[str, bool]:
    """Whether the room sends e-mail (``enabled``): without it, "forgot password?" is the operator's."""
    return {"enabled": _mail(request) is not None}


@router.get("/settings")
async def account_settings(me: Me, request: Request) -> dict[str, Any]:
    """The player's own account: name, e-mail address (and whether it is verified), whether mail is on."""
    email = await _store(request).account_mail.email(me.id)
    return {
        "name": me.name,
        "email": None if email is None else email.to_dict(),
        "mail_enabled": _mail(request) is not None,
    }


@router.post("/password")
async def change_password(
    body: PasswordIn, me: Me, request: Request, authorization: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Change the password: ``old`` (a wrong one answers ``wrong_password`` and counts as a failed
    login), ``new`` (the policy applies: ``weak_password``). Every other session of the player ends (its
    sockets close); the one asking stays logged in."""
    token = (
        authorization[7:].strip() if authorization and authorization.lower().startswith("bearer ") else None
    )
    token = token or request.cookies.get(COOKIE)
    ended = await _store(request).accounts.change_password(me.id, body.old, body.new, keep_token=token)
    sockets: SessionSockets = request.app.state.sessions
    await sockets.recheck_now()
    return {"ok": True, "ended_sessions": ended}


@router.post("/email")
async def set_email(body: EmailIn, me: Me, request: Request, tasks: BackgroundTasks) -> dict[str, Any]:
    """Set (``""``: remove) the player's e-mail address, with his password. A new address gets a
    verification link by mail and is used for resets only once verified. ``503 mail_off`` in a room that
    sends no mail (nothing changes)."""
    mail = _mail(request)
    if mail is None and body.address.strip():
        raise _mail_off()
    store = _store(request)
    verify = await store.account_mail.set_email(me.id, body.password, body.address)
    if verify is not None and mail is not None:
        msg = verify_message(
            mail.settings,
            to=verify.address,
            player=verify.player,
            token=verify.token,
            expires_at=verify.expires_at,
        )
        tasks.add_task(deliver, mail.mailer, msg, "verify_email")
    email = await store.account_mail.email(me.id)
    return {"ok": True, "email": None if email is None else email.to_dict(), "sent": verify is not None}


@router.post("/email/verify")
async def verify_email(body: VerifyIn, request: Request) -> dict[str, Any]:
    """Verify an address with the token of the link mailed to it (``invalid_link``: unknown, used,
    replaced or expired)."""
    _throttle(request, _guard(request).attempts)
    player = await _store(request).account_mail.verify_email(body.token)
    return {"ok": True, "player": {"id": str(player.id), "name": player.name}}


@router.post("/forgot", status_code=202)
async def forgot_password(body: ForgotIn, request: Request, tasks: BackgroundTasks) -> dict[str, Any]:
    """Ask for a reset code by e-mail, by the account's name or its verified address. The answer is the
    same whether or not an account matched (``202``); the code goes to the verified address only.
    ``503 mail_off`` in a room that sends no mail; ``429 too_many_resets`` (``Retry-After``) when this
    address asked too often."""
    mail = _mail(request)
    if mail is None:
        raise _mail_off()
    _throttle(request, _guard(request).requests)
    for r in await _store(request).account_mail.request_reset(body.who):
        msg = reset_message(
            mail.settings, to=r.address, player=r.player, code=r.code, expires_at=r.expires_at
        )
        tasks.add_task(deliver, mail.mailer, msg, "reset_code")
    return {"ok": True, "message": "if an account matches, a code is on its way to its verified address"}

"""The WebSockets of each login session, so that a session that ends ends its sockets at once.

A socket is checked at connect (or at its ``hello``); after that it is logged in for as long as it stays
open. So the room keeps, per session, the sockets logged in with it, and ends them (an ``error`` frame
``session_ended``, then close code 4401) when the session ends:

- logout (``POST /api/logout``) ends the session's sockets before it answers; a socket whose login read
  the session just before the logout and registers just after it is ended as it registers (the ended
  sessions are remembered for a while: ``_ended``), not left open until the next recheck;
- expiry: each socket has a timer at its session's ``expires_at``;
- a session revoked elsewhere (another process on the same database, an operator deleting rows): every
  ``recheck`` seconds the sessions with open sockets are looked up again, and the gone ones are ended.

Ending a socket is what a disconnect is for the tables: a seated player sits out after the grace period,
his chips stay his. The browser shows the login form again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime

import orjson

from pokerroom.server.connection import SESSION_ENDED, Connection
from pokerroom.store import Store
from pokerroom.store.util import Clock, hash_token

__all__ = ["SessionSockets"]

log = logging.getLogger("pokerroom.sessions")


def _ended(reason: str) -> str:
    text = {
        "logged_out": "you logged out: log in again to play",
        "expired": "your session expired: log in again to play",
    }.get(reason, "your session ended: log in again to play")
    frame = {"type": "error", "code": "session_ended", "message": text, "ref": None}
    return orjson.dumps({**frame, "details": {"reason": reason}}).decode()


class SessionSockets:
    """Open sockets by session (the SHA-256 of the token, as the store keeps it)."""

    def __init__(self, store: Store, *, clock: Clock | None = None, recheck: float = 30.0) -> None:
        self.store = store
        self.clock = clock or store.clock
        self.recheck = recheck
        self._sockets: dict[str, set[Connection]] = {}
        self._tokens: dict[str, str] = {}  # session key -> token, to look the session up again
        self._timers: dict[Connection, asyncio.TimerHandle] = {}
        self._task: asyncio.Task[None] | None = None
        # Sessions ended here lately (key -> reason, when): a login that read its session before the end
        # and registers after it is ended at once. Kept two rechecks; past that the recheck ends it.
        self._ended: dict[str, tuple[str, datetime]] = {}

    # ------------------------------------------------------------------------------ life cycle

    def start(self) -> None:
        self._task = asyncio.create_task(self._recheck_loop(), name="session-recheck")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # ------------------------------------------------------------------------------- sockets

    def add(self, conn: Connection, token: str, expires_at: datetime) -> None:
        """``conn`` is logged in with ``token`` until ``expires_at``."""
        key = hash_token(token)
        conn.session_token = key
        self._sockets.setdefault(key, set()).add(conn)
        self._tokens[key] = token
        delay = max(0.0, (expires_at - self.clock()).total_seconds())
        reason = "expired"
        ended = self._ended.get(key)
        if ended is not None:  # (its login raced the session's end: it ends now, as its session did)
            delay, reason = 0.0, ended[0]
        loop = asyncio.get_running_loop()
        self._timers[conn] = loop.call_later(delay, self._end_one, conn, reason)

    def discard(self, conn: Connection) -> None:
        """Forget a socket that closed."""
        timer = self._timers.pop(conn, None)
        if timer is not None:
            timer.cancel()
        key = conn.session_token
        if key is None:
            return
        conns = self._sockets.get(key)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._sockets[key]
                self._tokens.pop(key, None)

    def sockets(self, token: str) -> set[Connection]:
        """The open sockets of the session of ``token`` (a copy)."""
        return set(self._sockets.get(hash_token(token), ()))

    def end(self, token: str, reason: str = "logged_out") -> int:
        """End every socket of the session of ``token`` now (and any that registers with it later);
        returns how many."""
        now = self.clock()
        keep = 2 * self.recheck
        for gone in [k for k, (_, at) in self._ended.items() if (now - at).total_seconds() > keep]:
            del self._ended[gone]
        self._ended[hash_token(token)] = (reason, now)
        conns = self._sockets.get(hash_token(token), set())
        for conn in list(conns):
            self._end_one(conn, reason)
        return len(conns)

    def refuse_if_ended(self, conn: Connection, token: str) -> bool:
        """End ``conn``, whose ``token`` the store no longer knows, as its session was ended here lately
        (a socket that connected just after its session's logout: the browser showed the room before its
        socket connected, and must go back to the login form, not stay on as an anonymous watcher).
        False, and nothing done, for a token not ended here lately (a stale token stays anonymous)."""
        ended = self._ended.get(hash_token(token))
        if ended is None:
            return False
        self._end_one(conn, ended[0])
        return True

    def _end_one(self, conn: Connection, reason: str) -> None:
        self.discard(conn)
        conn.end(_ended(reason), SESSION_ENDED)

    # ------------------------------------------------------------------------------ recheck

    async def _recheck_loop(self) -> None:
        while True:
            await asyncio.sleep(self.recheck)
            try:
                await self.recheck_now()
            except Exception:  # a failing store must not stop the loop; the next round tries again
                log.exception("re-checking sessions failed")

    async def recheck_now(self) -> int:
        """Look every session with open sockets up again (one query: ``Accounts.ended_sessions``); end the
        sockets of those gone or expired. Returns how many sockets were ended."""
        tokens = dict(self._tokens)
        gone = await self.store.accounts.ended_sessions(tokens.values(), now=self.clock())
        ended = 0
        for key, token in tokens.items():
            if token in gone:
                for conn in list(self._sockets.get(key, ())):
                    self._end_one(conn, gone[token])
                    ended += 1
        return ended

"""A bot in a tournament: registers over HTTP, then plays wherever the tournament seats it
(``tournament_seat``), with the ordinary table messages (docs/protocol.md, "Tournaments")."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any

import httpx
import orjson
import websockets

from pokerroom.bots.client import BotStats
from pokerroom.bots.pool import PoolBot
from pokerroom.bots.strategies import Strategy

__all__ = ["TournamentBot"]

log = logging.getLogger("pokerroom.bots")


class TournamentBot(PoolBot):
    """Plays tournament tables like a table bot and, in a Rush tournament's pool phase, its entry's
    windows like a pool bot."""

    def __init__(
        self,
        base_url: str,
        name: str,
        strategy: Strategy,
        tournament: str,
        *,
        think: tuple[float, float] = (0.5, 2.0),
        rng: random.Random | None = None,
        stats: BotStats | None = None,
    ) -> None:
        super().__init__(base_url, name, strategy, "", 0, think=think, rng=rng, stats=stats, rejoin=False)
        self.table = ""
        self.tournament = tournament
        self.finished = False
        self.registered = False

    async def register(self, http: httpx.AsyncClient) -> None:
        r = await http.post(
            f"{self.base}/api/tournaments/{self.tournament}/register",
            headers={"Authorization": f"Bearer {self.token}"},
        )
        if r.status_code == 409 and r.json()["detail"]["code"] == "already_registered":
            self.registered = True  # kept across a restart of the room (docs/decisions.md)
            return
        r.raise_for_status()
        self.registered = True

    def running(self) -> bool:
        return not self.stopped and not self.finished

    async def _play(self) -> None:
        while self.running():
            try:
                async with self.connect() as ws:
                    self._ws = ws
                    if self.table:
                        await self._send({"type": "subscribe", "table": self.table})
                    async for raw in ws:
                        await self._on_tournament_message(orjson.loads(raw))
                        if not self.running():
                            break
            except (OSError, websockets.WebSocketException, TimeoutError) as exc:
                if not self.running():
                    break
                log.info("tournament bot %s reconnecting after %s", self.name, type(exc).__name__)
                await asyncio.sleep(1 + self.rng.random())

    async def stop(self) -> None:
        self.stopped = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        self._cancel_tasks()

    async def _on_tournament_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if isinstance(kind, str) and (kind.startswith("pool_") or "pool" in msg):
            if kind == "pool_move":
                self.pool = msg["pool"]
            await self._on_pool_message(msg)
        elif kind == "tournament_seat" and msg["tournament"] == self.tournament:
            if self.table and self.table != msg["table"]:
                await self._send({"type": "unsubscribe", "table": self.table})
            self.table, self.seat = msg["table"], msg["seat"]
            await self._send({"type": "subscribe", "table": self.table})
        elif kind == "tournament_status" and msg["tournament"] == self.tournament:
            self.finished = msg["status"] in ("finished", "cancelled")
        elif kind == "snapshot":
            if msg["table"] == self.table:
                self.state = msg["state"]
                you = self.state.get("you")
                self.seat = int(you) if you is not None else None
                self._resume(self.state.get("hand"))
        elif kind in ("seat", "prompt"):
            pass  # no seat choice, no optional blinds in a tournament
        elif msg.get("table") in (None, self.table):
            await self._on_message(msg)

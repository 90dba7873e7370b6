"""A bot in a Rush pool: joins with 1-4 entries over the WebSocket protocol, plays each entry's hands,
quick-folds now and then, and joins again when an entry goes broke, or when its join was refused because
the room could not reach its store (docs/protocol.md, "Rush pools"; docs/operations.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import dataclass, field
from typing import Any

import orjson
import websockets

from pokerroom.bots.client import BotClient, BotStats
from pokerroom.bots.strategies import BotView, Strategy, decide

__all__ = ["PoolBot"]

log = logging.getLogger("pokerroom.bots")

JOIN_AGAIN = 1.0  # seconds (and up to as much again at random) before a join refused for now is retried


@dataclass
class _EntryState:
    table: str = ""
    seat: int = 0
    hand_id: str = ""
    hole: list[str] = field(default_factory=list)
    board: list[str] = field(default_factory=list)
    opponents: int = 1
    quick_folded: str = ""  # the hand id already quick-folded
    moves: int = 0


class PoolBot(BotClient):
    """One bot player in one pool with ``entries`` entries. ``quick_fold`` is the chance, each time an
    entry could quick-fold before its turn, that it does (the client is told by ``can_quick_fold``)."""

    def __init__(
        self,
        base_url: str,
        name: str,
        strategy: Strategy,
        pool: str,
        buy_in: int,
        *,
        entries: int = 1,
        quick_fold: float = 0.3,
        think: tuple[float, float] = (0.5, 2.0),
        rng: random.Random | None = None,
        stats: BotStats | None = None,
        rejoin: bool = True,
        variant: str = "holdem",
        betting: str = "NL",
    ) -> None:
        super().__init__(base_url, name, strategy, pool, think=think, rng=rng, stats=stats)
        self.pool = pool
        self.buy_in = buy_in
        self.n_entries = entries
        self.quick_fold_rate = quick_fold
        self.rejoin = rejoin
        self.variant, self.betting = variant, betting
        self.entries: dict[int, _EntryState] = {}
        self.quick_folds = 0
        self.moves = 0
        self._joins: dict[str, int] = {}  # a pool_join's ref -> the entries it asks for, until answered

    async def _play(self) -> None:
        while self.running():
            try:
                async with self.connect() as ws:
                    self._ws = ws
                    async for raw in ws:
                        await self._on_pool_message(orjson.loads(raw))
            except (OSError, websockets.WebSocketException, TimeoutError) as exc:
                if not self.running():
                    break
                log.info("pool bot %s reconnecting after %s", self.name, type(exc).__name__)
                await asyncio.sleep(1 + self.rng.random())

    async def stop(self) -> None:
        self.stopped = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._send({"type": "pool_leave", "pool": self.pool})
                await self._ws.close()
        self._cancel_tasks()

    async def _on_pool_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        await self.contribute(msg)
        if self.on_event is not None:
            self.on_event(msg)
        if kind == "welcome":
            self.player_id = (msg.get("player") or {}).get("id")
            if not self.entries:
                await self._join(self.n_entries)
        elif kind == "pool_joined":
            self._joins.pop(str(msg.get("ref")), None)
            for n in msg["entries"]:
                self.entries[n] = _EntryState()
        elif kind == "pool_move":
            e = self.entries.setdefault(msg["entry"], _EntryState())
            e.table, e.seat, e.hand_id = msg["table"], msg["seat"], msg["hand_id"]
            e.hole, e.board = [], []
            e.opponents = max(1, len(msg["players"]) - 1)
            e.moves += 1
            self.moves += 1
            self.stats.hands += 1
        elif kind == "event" and "pool" in msg:
            self._on_entry_event(msg)
        elif kind == "turn" and "pool" in msg:
            await self._on_turn(msg)
        elif kind == "snapshot" and "pool" in msg:
            await self._on_entry_snapshot(msg)
        elif kind == "pool_entry" and msg["status"] == "left":
            self.entries.pop(msg["entry"], None)
            if self.rejoin and self.running():
                await self._join(1)
        elif kind == "error" and msg.get("code") == "stale_seed":
            return  # (the seed was dealt before our contribution came: the next one gets one)
        elif kind == "ack":
            self._unacked.pop(str(msg.get("ref")), None)
        elif kind == "error":
            self.stats.errors += 1
            code = str(msg.get("code"))
            self.stats.error_codes[code] = self.stats.error_codes.get(code, 0) + 1
            self.resend_later(msg)
            asked = self._joins.pop(str(msg.get("ref")), None)
            if asked is not None and code in ("store_unavailable", "room_unavailable") and self.running():
                # The pool waits for its store (or a booking met the fault), or it is moving between a
                # cluster's hosts or stopped: join again shortly, as a player would, rather than sit out
                # for good.
                task = asyncio.create_task(self._join_again(asked))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _join(self, n: int) -> None:
        self._ref += 1
        ref = f"{self.name}-join-{self._ref}"
        self._joins[ref] = n
        await self._send(
            {"type": "pool_join", "pool": self.pool, "entries": n, "buy_in": self.buy_in, "ref": ref}
        )

    async def _join_again(self, asked: int) -> None:
        await asyncio.sleep(JOIN_AGAIN * (1 + self.rng.random()))
        missing = min(asked, self.n_entries - len(self.entries))  # (entries it learned of meanwhile count)
        if missing > 0 and self.running():
            with contextlib.suppress(Exception):  # (a lost socket: the bot reconnects and joins on welcome)
                await self._join(missing)

    def _on_entry_event(self, msg: dict[str, Any]) -> None:
        e = self.entries.get(msg["entry"])
        if e is None or msg["hand_id"] != e.hand_id:
            return
        ev = msg["event"]
        if ev["type"] == "cards_dealt" and ev["seat"] == e.seat:
            e.hole += [c for c in ev["cards"] if c != "??"]
        elif ev["type"] == "board_dealt":
            e.board += ev["cards"]
        elif ev["type"] == "drew" and ev["seat"] == e.seat:
            e.hole = [c for c in e.hole if c not in ev["discarded"]] + ev["received"]
        elif ev["type"] == "discarded" and ev["seat"] == e.seat:
            e.hole = [c for c in e.hole if c not in ev["cards"]]

    async def _on_entry_snapshot(self, msg: dict[str, Any]) -> None:
        """A window given back on reconnecting: its hand so far, and its decision if one is pending."""
        state = msg["state"]
        hand = state.get("hand")
        e = self.entries.setdefault(msg["entry"], _EntryState())
        if hand is None or state.get("you") is None:
            return
        e.table, e.seat, e.hand_id = msg["table"], int(state["you"]), hand["hand_id"]
        e.hole = [c for c in hand["players"][str(e.seat)]["cards"] if c != "??"]
        e.board = list(hand["board"])
        e.opponents = max(1, len(hand["players"]) - 1)
        if hand.get("decision"):
            turn = {"entry": msg["entry"], "hand_id": hand["hand_id"], "action_no": hand["action_no"]}
            turn.update(seat=e.seat, decision=hand["decision"])
            await self._on_turn(turn)

    async def _on_turn(self, msg: dict[str, Any]) -> None:
        e = self.entries.get(msg["entry"])
        if e is None or msg["hand_id"] != e.hand_id:
            return
        if msg.get("decision") and msg["seat"] == e.seat:
            task = asyncio.create_task(self._decide_entry(msg["entry"], e, msg))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif (
            msg.get("can_quick_fold")
            and e.quick_folded != e.hand_id
            and self.rng.random() < self.quick_fold_rate
        ):
            e.quick_folded = e.hand_id
            self.quick_folds += 1
            with contextlib.suppress(Exception):
                await self._send({"type": "quick_fold", "pool": self.pool, "entry": msg["entry"]})

    async def _decide_entry(self, number: int, e: _EntryState, msg: dict[str, Any]) -> None:
        lo, hi = self.think
        if hi > 0:
            await asyncio.sleep(self.rng.uniform(lo, hi))
        decision = msg["decision"]
        view = BotView(
            variant=self.variant,
            betting=self.betting,
            seat=e.seat,
            hole=list(e.hole),
            board=list(e.board),
            decision=decision,
            opponents=e.opponents,
        )
        try:
            action = await decide(self.strategy, view, self.rng)
        except Exception:
            log.exception("pool bot %s strategy failed", self.name)
            action = {"type": "check"} if decision.get("check") else {"type": "fold"}
        self.stats.actions += 1
        hand_id = msg["hand_id"]
        self._ref += 1
        with contextlib.suppress(Exception):
            await self.send_action(
                {
                    "type": "pool_act",
                    "pool": self.pool,
                    "entry": number,
                    "hand_id": hand_id,
                    "action_no": msg["action_no"],
                    "action": action,
                    "ref": f"{self.name}-{self._ref}",
                },
                lambda: (entry := self.entries.get(number)) is not None and entry.hand_id == hand_id,
            )

"""A bot is an ordinary client: it registers over HTTP and plays over the same WebSocket protocol as the
browser (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets

from pokerroom.bots.strategies import BotView, Strategy, decide
from pokerroom.server.protocol import PROTOCOL_VERSION

__all__ = ["BotClient", "BotStats"]

log = logging.getLogger("pokerroom.bots")

RESEND_AFTER = 1.0  # seconds (and up to as much again at random) before an action the room could not take
RESENDS = 60  # ... is sent again, at most this many times while it is still the bot's turn
LOOK_AGAIN_AFTER = 2.0  # seconds (and up to as much again) before a bot not seated subscribes again
_OWN_EVENTS = frozenset({"action", "drew", "discarded", "cards_shown", "mucked"})  # a decision's answer


@dataclass
class BotStats:
    actions: int = 0
    errors: int = 0
    hands: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds from sending an action to its broadcast
    ack_latencies: list[float] = field(default_factory=list)  # seconds from sending an action to its ack
    error_codes: dict[str, int] = field(default_factory=dict)
    # by game (``holdem/FL``, the hand's ``hand_started``): a mixed table's load per game (RULES.md §11.1)
    game_actions: dict[str, int] = field(default_factory=dict)


class BotClient:
    """One bot at one table. ``think`` is the (min, max) seconds it waits before acting."""

    def __init__(
        self,
        base_url: str,
        name: str,
        strategy: Strategy,
        table: str,
        *,
        password: str = "hunter-22-poker",
        think: tuple[float, float] = (0.5, 2.0),
        rng: random.Random | None = None,
        stats: BotStats | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        self.base = base_url.rstrip("/")
        self.name = name
        self.password = password
        self.strategy = strategy
        self.table = table
        self.think = think
        self.rng = rng or random.Random()
        # Seed contributions (docs/fairness.md): from ``secrets``, or from the given generator (tests)
        self._entropy: Callable[[], bytes] = (
            (lambda: secrets.token_bytes(32))
            if rng is None
            else (lambda: self.rng.getrandbits(256).to_bytes(32, "big"))
        )
        self._seeded: dict[str, None] = {}  # the seeds contributed to (the last few)
        self.stats = stats or BotStats()
        self.on_event = on_event
        self.token = ""
        self.player_id: str | None = None
        self.seat: int | None = None
        self.preferred_seat: int | None = None  # the seat to take when it is free (else a random one)
        self.hand_id = ""
        self.game = ""  # the hand's game, ``holdem/FL`` (its ``hand_started``)
        self.hole: list[str] = []
        self.board: list[str] = []
        self.up: dict[int, list[str]] = {}
        self.state: dict[str, Any] = {}
        self._ws: Any = None
        self._pending: dict[str, float] = {}
        # actions sent and not acknowledged: ref -> (the message, whether it is still the bot's turn)
        self._unacked: dict[str, tuple[dict[str, Any], Callable[[], bool], int]] = {}
        self._acted: float | None = None  # when the last action was sent, until its event comes back
        self._deciding: tuple[str, int] | None = None  # the decision (hand id, action number) taken up
        self._ref = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._reopening = False  # the table closed; looking for it to open again
        self._looking = False  # a subscribe again is on its way (one at a time)
        self._join_refs: set[str] = set()  # the refs of our subscribes and sits not yet answered
        self.stopped = False

    # ----------------------------------------------------------------------------------- login

    async def login(self, http: httpx.AsyncClient, *, attempts: int = 60) -> None:
        """Register (or log in to) the bot's account. A throttled login (429) is tried again after the
        ``Retry-After`` the room asks for, up to ``attempts`` times."""
        creds = {"name": self.name, "password": self.password}
        r = await http.post(f"{self.base}/api/register", json=creds)
        if r.status_code == 409:
            for _ in range(attempts):
                r = await http.post(f"{self.base}/api/login", json=creds)
                if r.status_code != 429:
                    break
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")) + self.rng.random() / 4)
        r.raise_for_status()
        self.token = r.json()["token"]

    def connect(self) -> Any:
        """Open the bot's WebSocket, logged in by the session cookie (the token never goes in the URL,
        where proxies and servers log it: docs/security.md)."""
        return websockets.connect(
            self.base.replace("http", "ws", 1) + "/ws",
            max_size=2**22,
            open_timeout=30,
            additional_headers={"Cookie": f"pokerroom_token={self.token}"},
        )

    # -------------------------------------------------------------------------------- playing

    async def run(self) -> None:
        """Play until stopped or cancelled; then no decision is left thinking."""
        try:
            await self._play()
        finally:
            self._cancel_tasks()

    async def _play(self) -> None:
        while self.running():
            try:
                async with self.connect() as ws:
                    self._ws = ws
                    # Frames ready together come as one message (a JSON array): fewer writes for both sides.
                    await self._send({"type": "hello", "version": PROTOCOL_VERSION, "batch": True})
                    await self._send({"type": "subscribe", "table": self.table})
                    async for raw in ws:
                        data = orjson.loads(raw)
                        for msg in data if isinstance(data, list) else (data,):
                            await self._on_message(msg)
            except (OSError, websockets.WebSocketException, TimeoutError) as exc:
                if not self.running():
                    break
                log.info("bot %s reconnecting after %s", self.name, type(exc).__name__)
                await asyncio.sleep(1 + self.rng.random())

    def running(self) -> bool:
        return not self.stopped

    async def stop(self) -> None:
        self.stopped = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._send({"type": "leave", "table": self.table})
                await self._ws.close()
        self._cancel_tasks()

    def _cancel_tasks(self) -> None:
        """A stopped bot decides nothing more: its thinking tasks end now (none is left pending)."""
        for task in list(self._tasks):
            task.cancel()

    async def _send(self, msg: dict[str, Any]) -> None:
        self._ref += 1
        msg.setdefault("ref", f"{self.name}-{self._ref}")
        if msg["type"] in ("subscribe", "sit"):
            if len(self._join_refs) > 16:  # (answers lost with a socket: forget them)
                self._join_refs.clear()
            self._join_refs.add(msg["ref"])
        await self._ws.send(orjson.dumps(msg).decode())

    def send_action(self, msg: dict[str, Any], current: Callable[[], bool]) -> Awaitable[None]:
        """Send an action and keep it until it is acknowledged: one the room could not take (the bus of a
        cluster was down: ``room_unavailable``) is sent again while ``current()`` says the turn is still
        the bot's, as a player clicks again (the action's number makes a repeat harmless)."""
        self._unacked[str(msg["ref"])] = (msg, current, 0)
        if len(self._unacked) > 64:  # (acks lost with a socket: forget the oldest)
            del self._unacked[next(iter(self._unacked))]
        return self._send(msg)

    def resend_later(self, error: dict[str, Any]) -> None:
        """After a ``room_unavailable`` error for a kept action, send it again a little later."""
        ref = str(error.get("ref"))
        if error.get("code") != "room_unavailable" or ref not in self._unacked:
            self._unacked.pop(ref, None)
            return
        task = asyncio.create_task(self._resend(ref))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resend(self, ref: str) -> None:
        msg, current, tries = self._unacked[ref]
        await asyncio.sleep(RESEND_AFTER * (1 + self.rng.random()))
        if tries >= RESENDS or not current() or not self.running() or ref not in self._unacked:
            self._unacked.pop(ref, None)
            return
        self._unacked[ref] = (msg, current, tries + 1)
        with contextlib.suppress(Exception):  # (a lost socket: the bot reconnects and is asked again)
            await self._ws.send(orjson.dumps(msg).decode())

    async def contribute(self, msg: dict[str, Any]) -> None:
        """Answer a published next seed (``hand_started``, a snapshot) with 32 random bytes, at once: the
        deal uses whatever arrived before it (docs/fairness.md)."""
        if msg.get("type") == "event":
            source = msg.get("event") or {}
        elif msg.get("type") == "snapshot":
            source = (msg.get("state") or {}).get("hand") or {}
        else:
            return
        seed, where = source.get("next_seed"), source.get("seed_at")
        if not seed or not where or seed in self._seeded:
            return
        self._seeded[seed] = None
        if len(self._seeded) > 64:
            del self._seeded[next(iter(self._seeded))]
        with contextlib.suppress(Exception):  # (a lost socket: the next seed gets one)
            await self._send(
                {"type": "contribute", "table": where, "seed": seed, "value": self._entropy().hex()}
            )

    async def _on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        await self.contribute(msg)
        if self.on_event is not None:
            self.on_event(msg)
        if kind == "welcome":
            self.player_id = (msg.get("player") or {}).get("id")
        elif kind == "snapshot":
            await self._on_snapshot(msg["state"])
        elif kind == "event":
            event = msg["event"]
            if self._acted is not None and event.get("seat") == self.seat and event["type"] in _OWN_EVENTS:
                self.stats.latencies.append(time.perf_counter() - self._acted)  # the action, broadcast
                self._acted = None
            self._on_event(event, msg["hand_id"])
        elif kind == "turn":
            if msg.get("decision") and msg["seat"] == self.seat:
                self._schedule(msg)
        elif kind == "seat":
            await self._on_seat(msg)
        elif kind == "prompt":
            await self._send({"type": "answer_post", "table": self.table, "accept": True})
        elif kind == "choose_game":  # dealer's choice: a bot deals the list's next game (RULES.md §11.1)
            await self._send({"type": "choose_game", "table": self.table, "game": msg["default"]})
        elif kind == "error" and msg.get("code") == "stale_seed":
            return  # (the seed was dealt before our contribution came: the next one gets one)
        elif kind == "error":
            self.stats.errors += 1
            code = str(msg.get("code"))
            self.stats.error_codes[code] = self.stats.error_codes.get(code, 0) + 1
            self.resend_later(msg)
            if code == "unknown_table" and self._reopening:
                self.stopped = True  # the table was removed (a reload), not reopened: this bot is done
                with contextlib.suppress(Exception):
                    await self._ws.close()
                return
            joining = str(msg.get("ref")) in self._join_refs
            self._join_refs.discard(str(msg.get("ref")))
            if code == "room_unavailable" and joining and self.running():
                # The room could not take our subscribe or sit (a cluster moved the table between hosts,
                # or its bus was down): look again a little later, as a player tries again.
                self._schedule_look_again()
                return
            if code == "seat_taken" and self.seat is None and self.running():
                # Another player took the seat our snapshot showed free: look again and sit elsewhere.
                await asyncio.sleep(0.05 + 0.2 * self.rng.random())
                await self._send({"type": "subscribe", "table": self.table})
        elif kind == "table_closed" and msg.get("table") == self.table and not msg.get("moved_to"):
            # A reload closes a changed table after its hand and opens it again: look again a little later
            # (and stop if it is gone for good).
            self.seat, self._reopening = None, True
            self._schedule_look_again()
        elif kind == "ack":
            self._join_refs.discard(str(msg.get("ref")))
            self._unacked.pop(str(msg.get("ref")), None)
            sent = self._pending.pop(str(msg.get("ref")), None)
            if sent is not None:
                self.stats.ack_latencies.append(time.perf_counter() - sent)

    async def _on_snapshot(self, state: dict[str, Any]) -> None:
        self.state, self._reopening = state, False
        mine = state.get("you")
        if mine is not None:
            self.seat = int(mine)
            self._resume(state.get("hand"))
            # A snapshot is the whole table: the bot may have missed the frame that sat it out (busted in
            # a hand dealt while its table moved to another host, before it was subscribed there).
            me = state["players"].get(str(mine)) or {}
            if me.get("status") == "sitting_out":
                await self._play_again(int(me.get("stack", 0)))
            return
        free = [s for s in range(1, state["seats"] + 1) if str(s) not in state["players"]]
        if not free:
            await self._send({"type": "waiting_list", "table": self.table, "join": True})
            return
        seat = self.preferred_seat if self.preferred_seat in free else self.rng.choice(free)
        limits = (state.get("cash") or {}).get("buy_in") or {"min": 0, "max": 0}
        buy_in = limits["max"] or 2 * limits["min"]
        await self._send({"type": "sit", "table": self.table, "seat": seat, "buy_in": buy_in})

    async def _on_seat(self, msg: dict[str, Any]) -> None:
        if msg.get("player") is None or msg["player"] != self.player_id:
            if msg["seat"] == self.seat and msg.get("player") is None:
                self.seat = None
            return
        self.seat = msg["seat"]
        if msg["status"] == "sitting_out":
            await self._play_again(msg["stack"])

    async def _play_again(self, stack: int) -> None:
        """Sitting out: buy chips again when it has none, and sit in."""
        if stack <= 0:
            low = ((self.state.get("cash") or {}).get("buy_in") or {}).get("min", 0) or 1
            await self._send({"type": "top_up", "table": self.table, "amount": low})
        await self._send({"type": "sit_in", "table": self.table, "post_missed": True})

    def _schedule_look_again(self) -> None:
        if self._looking:
            return
        self._looking = True
        task = asyncio.create_task(self._look_again())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _look_again(self) -> None:
        try:
            await asyncio.sleep(LOOK_AGAIN_AFTER * (1 + self.rng.random()))
        finally:
            self._looking = False
        if self.running():
            with contextlib.suppress(Exception):
                await self._send({"type": "subscribe", "table": self.table})

    def _schedule(self, turn: dict[str, Any]) -> None:
        """Decide on a turn, once per decision (a snapshot may repeat a turn already in hand)."""
        key = (turn["hand_id"], turn["action_no"])
        if key == self._deciding:
            return
        self._deciding = key
        task = asyncio.create_task(self._decide(turn))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _resume(self, hand: dict[str, Any] | None) -> None:
        """A snapshot in the middle of a hand (a reconnect): the cards so far, and the decision if it is
        ours."""
        if hand is None or self.seat is None:
            return
        me = hand["players"].get(str(self.seat))
        if me is None:
            return
        self.hand_id = hand["hand_id"]
        self.hole = [c for c in me["cards"] if c != "??"]
        self.board = list(hand["board"])
        decision = hand.get("decision")
        if decision:
            self._schedule({"hand_id": hand["hand_id"], "action_no": hand["action_no"], "decision": decision})

    def _on_event(self, e: dict[str, Any], hand_id: str) -> None:
        kind = e["type"]
        if kind == "hand_started":
            self.hand_id = hand_id
            self.game = f"{e.get('variant', '')}/{e.get('betting', '')}"
            self.hole, self.board, self.up = [], [], {}
            self.stats.hands += 1
        elif kind == "cards_dealt":
            if e["seat"] == self.seat:
                self.hole += e["cards"]
            else:
                self.up.setdefault(e["seat"], []).extend(c for c in e["cards"] if c != "??")
        elif kind == "board_dealt":
            self.board += e["cards"]
        elif kind == "drew" and e["seat"] == self.seat:
            self.hole = [c for c in self.hole if c not in e["discarded"]] + e["received"]
        elif kind == "discarded" and e["seat"] == self.seat:
            self.hole = [c for c in self.hole if c not in e["cards"]]

    def view(self, decision: dict[str, Any]) -> BotView:
        """What the bot knows for ``decision`` (a ``turn``'s): the table's last snapshot, its cards and
        the board from the events so far (also the fast field player's: pokerroom.bots.field)."""
        return BotView(
            variant=self.state.get("variant", "holdem"),
            betting=self.state.get("betting", "NL"),
            seat=self.seat or 0,
            hole=list(self.hole),
            board=list(self.board),
            decision=decision,
            others_up={s: c for s, c in self.up.items() if s != self.seat},
            opponents=max(1, len(self.state.get("players", {})) - 1),
        )

    async def _decide(self, msg: dict[str, Any]) -> None:
        lo, hi = self.think
        if hi > 0:
            await asyncio.sleep(self.rng.uniform(lo, hi))
        decision = msg["decision"]
        view = self.view(decision)
        try:
            action = await decide(self.strategy, view, self.rng)
        except Exception:  # a strategy bug: fall back to the safest legal action
            log.exception("bot %s strategy failed", self.name)
            action = {"type": "check"} if decision.get("check") else {"type": "fold"}
        self._ref += 1
        ref = f"{self.name}-{self._ref}"
        self._pending[ref] = self._acted = time.perf_counter()
        self.stats.actions += 1
        if self.game:
            self.stats.game_actions[self.game] = self.stats.game_actions.get(self.game, 0) + 1
        hand_id = msg["hand_id"]
        with contextlib.suppress(Exception):
            await self.send_action(
                {
                    "type": "act",
                    "table": self.table,
                    "hand_id": hand_id,
                    "action_no": msg["action_no"],
                    "action": action,
                    "ref": ref,
                },
                lambda: self.hand_id == hand_id and self.seat is not None,
            )

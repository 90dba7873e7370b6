"""Issue 14: an Irish sit-and-go can be played. At the flop discard every player gets his own ``turn`` with
the discard decision, and each player's discard is taken, the second one at the same action number
included (not refused ``stale_action``); no discard is left to the clock.

On the server's harness (tests/server/harness.py): three clients that play as people do, on a manual
clock; the discards all come before any 30-second clock could run out."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest

from pokerroom.engine import Betting
from pokerroom.rooms import Timing
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import RoomSettings

from .harness import Harness

SLOW_CLOCK = Timing(action=30.0, time_bank=0.0, between_hands=0.05, disconnect_grace=600)


class Player:
    """A client that plays as a person does: it reads its decisions from its frames and answers them. (The
    harness hands it every frame of its connection, as it does a bot.)"""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stopped = False
        self._tasks: set[asyncio.Task[None]] = set()  # (none: it answers as it reads)
        self._ws: Any = None  # set by the harness: what it sends goes to the room's routes
        self.table = ""
        self.seat: int | None = None
        self.cards: dict[str, list[str]] = {}  # hand id -> own cards
        self.discard_turns: list[tuple[str, int]] = []  # (hand id, action number) offered a discard
        self.answers: dict[str, dict[str, Any]] = {}  # ref -> the ack or error
        self.n = 0

    def _cancel_tasks(self) -> None:
        return None

    async def send(self, msg: dict[str, Any]) -> None:
        await self._ws.send(orjson.dumps(msg).decode())

    async def _on_message_any(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "tournament_seat":
            self.table, self.seat = msg["table"], msg["seat"]
            await self.send({"type": "subscribe", "table": self.table})
        elif kind == "event" and msg["event"]["type"] == "cards_dealt" and msg["event"]["seat"] == self.seat:
            self.cards.setdefault(msg["hand_id"], []).extend(msg["event"]["cards"])
        elif kind == "event" and msg["event"]["type"] == "discarded" and msg["event"]["seat"] == self.seat:
            own = self.cards.get(msg["hand_id"], [])
            self.cards[msg["hand_id"]] = [c for c in own if c not in msg["event"]["cards"]]
        elif kind == "snapshot":  # the hand may have started before we watched
            hand = msg["state"].get("hand")
            self.seat = msg["state"].get("you")
            if hand is not None and self.seat is not None:
                self.cards[hand["hand_id"]] = list(hand["players"][str(self.seat)]["cards"])
                if hand.get("decision"):
                    turn = {"hand_id": hand["hand_id"], "action_no": hand["action_no"]}
                    await self.decide({**turn, "decision": hand["decision"]})
        elif kind in ("ack", "error") and msg.get("ref"):
            self.answers[msg["ref"]] = msg
        elif kind == "turn" and msg.get("decision") and msg["seat"] == self.seat:
            await self.decide(msg)

    async def decide(self, turn: dict[str, Any]) -> None:
        d = turn["decision"]
        if d["kind"] == "discard":
            self.discard_turns.append((turn["hand_id"], turn["action_no"]))
            action: dict[str, Any] = {"type": "discard", "cards": self.cards[turn["hand_id"]][: d["count"]]}
        elif d["kind"] == "bet":
            action = {"type": "check"} if d["check"] else {"type": "call"}
        else:
            action = {"type": "show"}
        self.n += 1
        ref = f"{self.name}-{self.n}"
        await self.send(
            {
                "type": "act",
                "table": self.table,
                "hand_id": turn["hand_id"],
                "action_no": turn["action_no"],
                "action": action,
                "ref": ref,
            }
        )


@pytest.mark.asyncio
async def test_an_irish_sit_and_go_plays_its_discards(tmp_path: Path) -> None:
    cfg = TournamentConfig(
        "irish",
        "Irish SNG",
        kind="sng",
        variant="irish",
        betting=Betting.POT_LIMIT,
        buy_in=100,
        fee=10,
        starting_stack=1500,
        table_size=3,
        max_players=3,
        level_minutes=30,
        timing=SLOW_CLOCK,
    )
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=1)
    try:
        (tid,) = list(h.room.tournaments)
        players = []
        for name in ("alice", "bobby", "carol"):
            player = Player(name)
            client = h.connect(name, await h.player(name), bot=player)
            players.append(player)
            await h.send(client, {"type": "tournament_register", "tournament": tid, "ref": f"reg-{name}"})

        def everybody_discarded() -> bool:
            return any(all(x in {t for t, _ in p.discard_turns} for p in players) for x in players[0].cards)

        # every player discards in one hand (everybody calls to the flop), well before any 30-second clock
        # runs out: within 29 s of the room's time
        await h.run(everybody_discarded, seconds=29)
        hand = next(x for x in players[0].cards if all(x in {t for t, _ in p.discard_turns} for p in players))
        numbers = {n for p in players for t, n in p.discard_turns if t == hand}
        assert len(numbers) == 1, "the discard was offered to everybody at the same action number"
        await h.quiet()
        refused = [m for p in players for m in p.answers.values() if m["type"] == "error"]
        assert not refused, refused
        table = h.room.tournaments[tid].director.tables
        assert table  # still running: nobody busted in a check-down
    finally:
        await h.close()

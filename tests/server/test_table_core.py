"""The server's table core on a manual clock (issue 14): cash, Rush and tournament tables of hold'em NL,
Irish, 2-7 triple draw, 7-card stud and 5-card draw play hands to the end with clients that act as people
do (they read the ``decision`` of their frames; nothing reaches into the engine), through simultaneous
discards, draws, bring-ins, timeouts and a reconnect. No sockets, no sleeps: time moves only from one
deadline to the next."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from pokerroom.engine import Betting, ConfigError, Stakes
from pokerroom.rooms import TableConfig, Timing
from pokerroom.rooms.rush_rules import PoolConfig, RushTiming
from pokerroom.rooms.tournament import TournamentConfig
from pokerroom.server.room import RoomSettings
from pokerroom.store import verify_ledger

from .harness import Client, Harness

TIMING = Timing(action=10.0, time_bank=5.0, between_hands=1.0, disconnect_grace=600, sit_out_limit=3600)
GAMES: dict[str, Betting] = {
    "holdem": Betting.NO_LIMIT,
    "irish": Betting.POT_LIMIT,
    "deuce7_triple": Betting.FIXED_LIMIT,
    "stud": Betting.FIXED_LIMIT,
    "draw5": Betting.FIXED_LIMIT,
}
HANDS = 6
SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json").read_text())


def stakes(game: str, betting: Betting) -> Stakes:
    if game == "stud":
        return Stakes.fixed_limit(20, 40, ante=4, bring_in=5, blinds=False)
    return Stakes.fixed_limit(20, 40) if betting is Betting.FIXED_LIMIT else Stakes.blinds(10, 20)


def _event_of(f: dict[str, Any], kind: str, **match: Any) -> bool:
    return (
        f["type"] == "event"
        and f["event"]["type"] == kind
        and all(f["event"].get(k) == v for k, v in match.items())
    )


def hands_with(clients: list[Client], kind: str, **match: Any) -> set[str]:
    return {f["hand_id"] for c in clients for f in c.frames if _event_of(f, kind, **match)}


def decisions(clients: list[Client]) -> dict[str, int]:
    """How many decisions of each kind the clients were offered in their own ``turn`` frames."""
    out: dict[str, int] = {}
    for c in clients:
        for f in c.frames:
            if f["type"] == "turn" and f.get("decision"):
                out[f["decision"]["kind"]] = out.get(f["decision"]["kind"], 0) + 1
    return out


def no_errors(clients: list[Client]) -> list[dict[str, Any]]:
    return [f for c in clients for f in c.frames if f["type"] == "error"]


async def sleepy(h: Harness, client: Client, skip: float, seed: int) -> None:
    """Make a bot leave some decisions unanswered (they time out on the clock)."""
    bot = client.bot
    rng = random.Random(seed)
    decide = bot._decide

    async def maybe(msg: dict[str, Any]) -> None:
        if rng.random() >= skip:
            await decide(msg)

    bot._decide = maybe


def _game_checks(game: str, clients: list[Client]) -> None:
    seen = decisions(clients)
    if game == "irish":
        assert seen.get("discard", 0) >= 2, seen  # every player of a discard round got his own decision
        assert hands_with(clients, "discarded")
    elif game in ("deuce7_triple", "draw5"):
        assert seen.get("draw", 0) >= 2, seen
        assert hands_with(clients, "drew")
    elif game == "stud":
        assert hands_with(clients, "action", action="bring_in") or hands_with(
            clients, "action", action="complete"
        )


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_cash_tables_play_to_the_end_on_the_clock(tmp_path: Path, game: str) -> None:
    betting = GAMES[game]
    cfg = TableConfig("t", "T", game, betting, stakes(game, betting), 4, timing=TIMING)
    h = await Harness.open(tmp_path, RoomSettings(tables=(cfg,)), seed=7)
    try:
        clients = [await h.cash_bot(f"player{i}", "t", ("random", "caller")[i % 2], seed=i) for i in range(3)]
        await sleepy(h, clients[0], 0.3, seed=1)
        watcher = h.connect("watcher", None)
        await h.send(watcher, {"type": "subscribe", "table": "t"})
        actor = h.room.tables["t"]
        await h.run(lambda: actor.hands_played >= HANDS // 2, seconds=3600)
        clients[1] = await h.reconnect(clients[1])  # the bot subscribes again and plays on
        await clients[1].bot._send({"type": "subscribe", "table": "t"})
        await h.run(lambda: actor.hands_played >= HANDS, seconds=3600)
        everyone = [*clients, watcher]
        assert not no_errors(everyone), no_errors(everyone)[:3]
        _game_checks(game, clients)
        journal = h.store.journal
        timed_out = [
            c
            for hid in hands_with(clients, "hand_ended")
            for c in await journal.commands(hid)
            if c.command["type"] == "timeout"
        ]
        assert timed_out, "the sleepy player's clock ran out at least once"
        assert sum(1 for f in clients[1].frames if f["type"] == "snapshot") >= 2  # the reconnect's snapshot
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
@pytest.mark.parametrize("game", [g for g in GAMES if g != "stud"])
async def test_rush_pools_play_to_the_end_on_the_clock(tmp_path: Path, game: str) -> None:
    betting = GAMES[game]
    timing = RushTiming(action=10.0, reduced_action=5.0, time_bank=5.0, disconnect_grace=600)
    cfg = PoolConfig("r", "R", game, betting, stakes(game, betting), 6, timing=timing)
    h = await Harness.open(tmp_path, RoomSettings(pools=(cfg,)), seed=11)
    try:
        clients = [await h.pool_bot(f"player{i}", "r", ("random", "caller")[i % 2], seed=i) for i in range(8)]
        await sleepy(h, clients[0], 0.3, seed=2)
        actor = h.room.pools["r"]
        await h.run(lambda: actor.hands_played >= HANDS, seconds=3600)
        clients[1] = await h.reconnect(clients[1])
        await h.run(lambda: actor.hands_played >= 2 * HANDS, seconds=3600)
        assert not no_errors(clients), no_errors(clients)[:3]
        _game_checks(game, clients)
        assert all(f.get("pool") == "r" for c in clients for f in c.frames if f["type"] in ("event", "turn"))
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


def test_a_rush_pool_of_stud_is_refused() -> None:
    """Rush pools are played in blind games: the matrix has no stud Rush pool, and asking for one is a
    clear configuration error (RULES.md §8)."""
    with pytest.raises(ConfigError):
        PoolConfig("r", "R", "stud", Betting.FIXED_LIMIT, stakes("stud", Betting.FIXED_LIMIT), 6)


def sng(game: str, players: int, **kw: Any) -> TournamentConfig:
    betting = GAMES[game]
    base: dict[str, Any] = {
        "kind": "sng",
        "variant": game,
        "betting": betting,
        "buy_in": 100,
        "fee": 10,
        "starting_stack": 600,
        "table_size": 6 if game in ("deuce7_triple", "draw5") else min(6, players),
        "max_players": players,
        "level_minutes": 1.0,
        "timing": TIMING,
    }
    base.update(kw)
    return TournamentConfig("sng", f"{game} SNG", **base)


async def _play_sng(
    tmp_path: Path, cfg: TournamentConfig, players: int, *, until: Callable[[Harness], bool] | None = None
) -> tuple[Harness, list[Client], str]:
    h = await Harness.open(tmp_path, RoomSettings(tournaments=(cfg,)), seed=5)
    (tid,) = list(h.room.tournaments)
    clients = [
        await h.tournament_bot(f"player{i}", tid, ("random", "caller")[i % 2], seed=i) for i in range(players)
    ]
    return h, clients, tid


@pytest.mark.asyncio
@pytest.mark.parametrize("game", list(GAMES))
async def test_sit_and_goes_play_to_the_end_on_the_clock(tmp_path: Path, game: str) -> None:
    h, clients, tid = await _play_sng(tmp_path, sng(game, 3), 3)
    try:
        actor = h.room.tournaments[tid]
        await sleepy(h, clients[0], 0.2, seed=3)
        await h.run(lambda: actor.hands_played >= 3, seconds=7200)
        clients[1] = await h.reconnect(clients[1])  # tournament_seat, subscribe, snapshot, play on
        await h.run(lambda: actor.finished_at is not None, seconds=50_000)

        def closed_frames() -> list[dict[str, Any]]:
            return [f for c in clients for f in c.frames if f["type"] == "table_closed"]

        # (the last table closes just after the tournament is finished: its frame may still be on its way)
        await h.run(lambda: bool(closed_frames()), seconds=600)
        assert not [e for e in no_errors(clients) if e["code"] != "stale_hand"], no_errors(clients)[:3]
        _game_checks(game, clients)
        assert sum(actor.prizes.values()) == actor.director.pool
        closed = closed_frames()
        assert closed and all(f["reason"] == "finished" and f["moved_to"] is None for f in closed)
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_every_player_of_an_irish_tournament_discards_in_the_same_round(tmp_path: Path) -> None:
    """Issue 14: at an Irish tournament table, every player of the flop discard gets a ``turn`` with his
    discard decision, and a second player's discard at the same action number is taken, not refused
    ``stale_action``; nobody's discard is left to the clock."""
    h, clients, tid = await _play_sng(tmp_path, sng("irish", 3), 3)
    try:
        actor = h.room.tournaments[tid]
        await h.run(lambda: bool(hands_with(clients, "discarded")) and actor.hands_played >= 4, seconds=7200)
        for hand in hands_with(clients, "discarded"):
            for c in clients:
                discards = [
                    f
                    for f in c.frames
                    if f["type"] == "turn"
                    and f["hand_id"] == hand
                    and (f.get("decision") or {}).get("kind") == "discard"
                ]
                mine = [
                    f
                    for f in c.frames
                    if f.get("hand_id") == hand
                    and _event_of(f, "discarded")
                    and "??" not in f["event"]["cards"]
                ]
                assert len(discards) == len(mine)  # a decision for each discard he made, and vice versa
        numbers: dict[tuple[str, int], set[str]] = {}
        for c in clients:
            for f in c.frames:
                if f["type"] == "turn" and (f.get("decision") or {}).get("kind") == "discard":
                    numbers.setdefault((f["hand_id"], f["action_no"]), set()).add(c.name)
        assert any(len(who) >= 2 for who in numbers.values())  # offered to several at the same number
        assert not [e for e in no_errors(clients) if e["code"] == "stale_action"]
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_watchers_of_a_broken_tournament_table_are_told_where_their_player_went(tmp_path: Path) -> None:
    """Issue 14: when balancing breaks a tournament table up, every watcher of it gets ``table_closed``;
    a moved player's says where he sits now (and he gets ``tournament_seat`` there), an observer's says
    nothing more; nobody is left watching a dead table."""
    cfg = sng("holdem", 8, table_size=4, starting_stack=200, level_minutes=0.5)
    h, clients, tid = await _play_sng(tmp_path, cfg, 8)
    try:
        actor = h.room.tournaments[tid]
        await h.run(lambda: len(actor.director.tables) == 2, seconds=60)
        watcher = h.connect("watcher", None)
        for table in list(actor.director.tables.values()):
            await h.send(watcher, {"type": "subscribe", "table": table.tid})
        await h.run(lambda: bool(watcher.of("table_closed")), seconds=50_000)
        await h.quiet()
        closed = watcher.of("table_closed")
        assert closed and closed[0]["reason"] == "broken" and closed[0]["moved_to"] is None
        broken = closed[0]["table"]
        moved = [(c, f) for c in clients for f in c.of("table_closed", table=broken) if f["moved_to"]]
        assert moved, "the players of the broken table were told where they went"
        for c, f in moved:
            dest = f["moved_to"]
            assert c.of("tournament_seat", table=dest["table"], seat=dest["seat"])
        assert broken not in actor.cores  # nobody watches a closed table
    finally:
        await h.close()


@pytest.mark.asyncio
async def test_a_cash_table_that_allows_it_runs_the_board_twice(tmp_path: Path) -> None:
    """R-RIT (issue 20): at a cash table with `run_it_twice`, all-in hands before the river ask every
    player still in (each gets his own `turn` with the `run_twice` decision); the answers come back as
    `act`s, the boards of a hand run twice are `board_dealt` events with `run` 1 and 2, the pots are paid
    per run, every frame fits the protocol schema, and the ledger balances."""
    cfg = TableConfig(
        "t", "T", "holdem", Betting.NO_LIMIT, Stakes.blinds(10, 20), 3, timing=TIMING, run_it_twice=True
    )
    h = await Harness.open(tmp_path, RoomSettings(tables=(cfg,)), seed=3)
    try:
        clients = [await h.cash_bot(f"player{i}", "t", ("random", "caller")[i % 2], seed=i) for i in range(3)]
        actor = h.room.tables["t"]
        await h.run(lambda: bool(hands_with(clients, "run_twice_decided", runs=2)), seconds=36000)
        # One "no" settles the question at once: the others' answers, already on their way, find the
        # decision gone (the hand over, or moved on). Nothing else may be refused.
        late = [f for f in no_errors(clients) if f["code"] in ("stale_hand", "stale_action")]
        others = [f for f in no_errors(clients) if f not in late]
        assert not others, others[:3]
        noes = sum(1 for f in clients[0].frames if _event_of(f, "run_twice_answered", agree=False))
        assert len(late) <= 2 * noes
        assert decisions(clients).get("run_twice", 0) >= 2
        twice = hands_with(clients, "run_twice_decided", runs=2)
        assert twice <= hands_with(clients, "board_dealt", run=2)
        assert twice <= hands_with(clients, "pot_awarded", run=2)
        server = SCHEMA["server"]
        for c in clients:
            for f in c.frames:
                v = jsonschema_rs.validator_for(server[f["type"]])
                assert v.is_valid(f), (f["type"], next(iter(v.iter_errors(f))).message)
        hands = actor.hands_played
        await h.run(lambda: actor.hands_played > hands, seconds=3600)  # the next hand is played too
        assert (await verify_ledger(h.store.db)).ok
    finally:
        await h.close()


def test_run_it_twice_is_for_board_games_only() -> None:
    with pytest.raises(ConfigError, match="run twice"):
        TableConfig(
            "t", "T", "stud", Betting.FIXED_LIMIT, stakes("stud", Betting.FIXED_LIMIT), 4, run_it_twice=True
        )
    with pytest.raises(ConfigError, match="run twice"):
        TableConfig(
            "t", "T", "draw5", Betting.FIXED_LIMIT, stakes("draw5", Betting.FIXED_LIMIT), 4, run_it_twice=True
        )

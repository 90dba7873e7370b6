"""The fast field player (issue 30: pokerroom.bots.field): a seed gives the same hands; the chips are
conserved per hand and per field; the audit history it writes is the room's for the same deal and the same
decisions, and its bots see what the room's bots see (one table played through the planted-table harness,
then again by the fast player); a planted scenario is found by its detector."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerroom.bots.client import BotClient
from pokerroom.bots.field import FIELD_TIMING, START, ExactEquities, FastField, _canonical, field_table
from pokerroom.bots.planted import HONEST_THINK, MACHINE_THINK, pair_field, plant
from pokerroom.bots.strategies import BotView
from pokerroom.eval import equity
from pokerroom.history import read_phh, replay
from pokerroom.server.fairdeal import DealingRandom
from pokerroom.server.integrity.timing import Decision, timing_findings
from pokerroom.server.integrity.whipsaw import whipsaw_findings
from tests.server import planted_room
from tests.server.harness import EPOCH


def _field(seed: int, strategies: list[str], *, think: tuple[float, float] = (0.0, 0.0)) -> FastField:
    field = FastField(1, seed=seed)
    for i, strategy in enumerate(strategies):
        field.seat(f"p{i + 1}", 0, strategy, seed=seed + i, think=think)
    return field


def test_the_field_table_is_the_planted_rooms() -> None:
    assert FIELD_TIMING == planted_room.TIMING
    assert START == EPOCH
    assert field_table(3).table_id == "bench-3" and field_table(3).name == "Bench 3"


def test_a_seed_gives_the_same_hands_and_another_seed_others() -> None:
    strategies = ["strength", "caller", "random", "random"]
    first = [h.phh for h in _field(5, strategies, think=HONEST_THINK).play(12)]
    again = [h.phh for h in _field(5, strategies, think=HONEST_THINK).play(12)]
    other = [h.phh for h in _field(6, strategies, think=HONEST_THINK).play(12)]
    assert len(first) == 12
    assert first == again
    assert first != other


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    strategies=st.lists(st.sampled_from(["random", "caller"]), min_size=2, max_size=6),
    hands=st.integers(1, 30),
)
def test_chips_are_conserved_in_every_hand_and_in_the_field(
    seed: int, strategies: list[str], hands: int
) -> None:
    field = _field(seed, strategies)
    assert field.paid_in == 2000 * len(strategies)  # each bot bought in for the table's maximum
    for hand in field.play(hands):
        assert sum(hand.results.values()) + hand.rake == 0
        assert set(hand.results) == set(hand.players)
        assert field.chips() == field.paid_in  # (top-ups of busted bots included)
    assert field.hands == hands


def test_a_busted_bot_tops_up_and_plays_on() -> None:
    field = _field(3, ["random", "random"])
    hands = list(field.play(60))
    assert field.paid_in > 4000  # someone lost his stack and topped up by the minimum buy-in
    assert (field.paid_in - 4000) % 800 == 0
    assert all(len(h.players) == 2 for h in hands)  # and both played every hand
    assert field.errors == 0 and field.strategy_errors == 0


def test_the_remembered_equities_are_the_same_numbers() -> None:
    memo = ExactEquities(equity)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rng = random.Random(4)
    for _ in range(40):
        cards = rng.sample(deck, 4 + rng.choice([0, 3, 4, 5]))
        suits = dict(zip("cdhs", rng.sample("cdhs", 4), strict=True))
        renamed = [c[:-1] + suits[c[-1]] for c in cards]
        for deal in (cards, renamed):
            got = memo("holdem", [deal[:2], deal[2:4]], deal[4:], samples=100, seed=rng.randrange(99))
            want = equity("holdem", [deal[:2], deal[2:4]], deal[4:], samples=100, seed=1)
            assert got.exact and got.hands[0].share == want.hands[0].share
    assert memo.hits >= 20  # (most renamed deals are one already enumerated)
    assert _canonical([["As", "Kd"], ["Qh", "Jc"]], []) == _canonical([["Kc", "Ah"], ["Js", "Qd"]], [])
    assert _canonical([["As", "Kd"], ["Qh", "Jc"]], []) != _canonical([["As", "Ks"], ["Qh", "Jc"]], [])


def test_the_timing_scenario_is_found() -> None:
    """Five honest bots at the room's think times and one that waits 1 s every time, 200 hands: the
    detector flags the machine and nobody else, from the decision times the fast player journals. (The
    light strategies: what they decide does not matter to this detector.)"""
    field = FastField(1, seed=2)
    for i in range(6):
        strategy = ("caller", "random")[i % 2]
        field.seat(f"p{i + 1}", 0, strategy, seed=i, think=MACHINE_THINK if i == 4 else HONEST_THINK)
    times: dict[int, list[Decision]] = {}
    for hand in field.play(200):
        for name, seconds in hand.decisions:
            times.setdefault(int(name[1:]), []).append(Decision(hand.hand_id, seconds))
    assert {n: len(d) >= 50 for n, d in times.items()} == {n: True for n in range(1, 7)}
    assert all(d.seconds == 1.0 for d in times[5])
    assert {f.player_id for f in timing_findings(times) if f.flagged} == {5}


def test_a_planted_whipsaw_pair_is_found() -> None:
    """One 6-max table of four honest bots (callers and random bots: the strength bot's estimates are the
    slow part) and a planted whipsaw pair (the bots package's own), 150 hands of the fast player: the
    collusive-betting detector flags the pair, and no other pair."""
    seats = pair_field(1, 1, "whipsaw", seed=3, prefix="w")
    field = FastField(1, seed=3)
    for i, p in enumerate(seats):
        strategy = ("caller", "random")[i % 2] if p.role == "honest" else "strength"
        field.seat(p.name, 0, strategy, seed=3 + i, think=HONEST_THINK)
    plant(seats, field.bots)
    hands = [(h.hand_id, read_phh(h.phh)) for h in field.play(150)]
    flagged = {frozenset((f.a, f.b)) for f in whipsaw_findings(hands) if f.flagged}
    assert flagged == {frozenset(p.name for p in seats if p.role == "whipsaw")}


# ---------------------------------------------------------------------------------- the room's hands


class _Recording(random.Random):
    """The room's generator, its draws kept: the fast player's replays them."""

    def __init__(self, seed: Any = None) -> None:
        self.drawn: dict[str, list[int]] = {"getrandbits": [], "randrange": []}
        self.inside = False
        super().__init__(seed)

    def getrandbits(self, k: int, /) -> int:
        value = super().getrandbits(k)
        if not self.inside:  # (randrange draws its bits here too: kept as the randrange)
            self.drawn["getrandbits"].append(value)
        return value

    def randrange(self, *args: Any, **kw: Any) -> int:
        self.inside = True
        try:
            value = super().randrange(*args, **kw)
        finally:
            self.inside = False
        self.drawn["randrange"].append(value)
        return value


class _Replaying:
    """The recorded draws again, in their order, each kind on its own."""

    def __init__(self, drawn: dict[str, list[int]]) -> None:
        self.drawn = {k: list(v) for k, v in drawn.items()}

    def getrandbits(self, k: int) -> int:
        return self.drawn["getrandbits"].pop(0)

    def randrange(self, *args: Any) -> int:
        return self.drawn["randrange"].pop(0)


class _Salts:
    """``secrets`` for the room's deck seals: the salts the fast player draws for the same seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"salts {seed}")

    def token_hex(self, n: int) -> str:  # (n bytes: a seal draws all its salts of 16 bytes in one call)
        assert n % 16 == 0
        return "".join(f"{self.rng.getrandbits(128):032x}" for _ in range(n // 16))

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


def _without_proof(phh: str) -> str:
    return "\n".join(line for line in phh.splitlines() if not line.startswith("_deck_proof"))


def _seated(bot: BotClient) -> Callable[[], bool]:
    return lambda: bot.seat is not None


async def _no_contribution(self: BotClient, msg: dict[str, Any]) -> None:
    return None  # (no player's seed: the deck is the server seed's alone, on both sides)


class _Seen:
    """A strategy that keeps every view it is shown, then lets the bot's own strategy decide."""

    def __init__(self, inner: Any, seen: list[BotView]) -> None:
        self.inner = inner
        self.seen = seen
        self.name = inner.name
        self.heavy = False

    def decide(self, view: BotView, rng: random.Random) -> dict[str, Any]:
        self.seen.append(view)
        result: dict[str, Any] = self.inner.decide(view, rng)
        return result


@pytest.mark.asyncio
async def test_the_fast_player_writes_the_rooms_history_and_shows_the_rooms_views(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four bots (random and caller: decisions of their own generators) at one table of the planted-table
    harness, seated one after the other with the table held, then 12 hands; the fast player with the
    room's draws (the button, the server seeds) and the same bots' seeds plays 12 hands too: the same
    audit histories, deck proofs included, and every decision was shown the same view."""
    seed, strategies = 9, ["random", "caller", "random", "random"]
    monkeypatch.setattr(planted_room, "random", SimpleNamespace(Random=_Recording))
    monkeypatch.setattr("pokerroom.server.fairness.secrets", _Salts(seed))
    monkeypatch.setattr(BotClient, "contribute", _no_contribution)
    h, (table,) = await planted_room.open_planted_room(tmp_path / "room.db", seed=seed, tables=1)
    room_views: dict[str, list[BotView]] = {}
    try:
        actor = h.room.tables[table]
        actor.table.halted = True  # (all seated before the first hand, as the fast player seats them)
        for i, strategy in enumerate(strategies):
            c = await h.cash_bot(f"bot{i + 1}", table, strategy, seed=seed + i)
            c.bot.strategy = _Seen(c.bot.strategy, room_views.setdefault(c.name, []))
            await h.run(_seated(c.bot), seconds=60)
        actor.table.halted = False
        watcher = h.connect("watcher", None)  # (anonymous)
        await h.subscribe(watcher, table)  # (a job for the table: it ticks after it, and deals)
        await h.run(lambda: actor.table.hand_count >= 13, seconds=3600)
        stored = await h.store.audit_hands.since(EPOCH)
    finally:
        await h.close()
    drawn = h.room.rng.base.drawn  # type: ignore[attr-defined]
    room = dict(stored)

    fast = FastField(1, seed=seed, rng=DealingRandom(_Replaying(drawn)))
    fast_views: dict[str, list[BotView]] = {}
    for i, strategy in enumerate(strategies):
        bot = fast.seat(f"bot{i + 1}", 0, strategy, seed=seed + i)
        bot.strategy = _Seen(bot.strategy, fast_views.setdefault(bot.name, []))
    hands = list(fast.play(12))
    assert [x.hand_id for x in hands] == [f"{table}-{n}" for n in range(1, 13)]
    for x in hands:
        assert x.phh == room[x.hand_id]
        assert "_deck_proof" in x.phh
        replay(read_phh(x.phh))  # it replays
    # every decision of the fast player's 12 hands was one of the room's bots, shown the same view
    for name, views in fast_views.items():
        assert views and views == room_views[name][: len(views)]
    assert _without_proof(hands[0].phh) != hands[0].phh
